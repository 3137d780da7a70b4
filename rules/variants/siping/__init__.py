"""四平麻将 Siping (spec ``siping.md``): everything of the variant.

``flow.py`` the round flow, ``wins.py`` winning conditions, fan and payments, ``options.py`` the
room options with their bounds, ``labels.py`` what players read. :data:`VARIANT` is the one
object the registry (:mod:`rules.registry`) lists and the engine is handed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.tiles import HONOURS, TERMINALS
from rules.variant import BotFacts, Variant
from rules.variants.siping.labels import FAN, NAME, REASONS
from rules.variants.siping.options import OPTIONS
from rules.variants.siping.wins import SipingRules

if TYPE_CHECKING:
    from rules.variants.siping.flow import SipingFlow


def _load_flow() -> SipingFlow:
    """The round flow, imported when first asked for (:attr:`rules.variant.Variant.flow`)."""
    from rules.variants.siping.flow import SipingFlow

    return SipingFlow()


VARIANT = Variant(
    key="siping",
    name=NAME,
    load_flow=_load_flow,
    rules=SipingRules(),
    options=OPTIONS,
    fan=FAN,
    reasons=REASONS,
    bots=BotFacts(
        suit_gap=(3, 2, 1, 0),  # 三门齐 (*Winning conditions* 4)
        needs_one_of=frozenset((*TERMINALS, *HONOURS)),  # a 1 or 9, or any honour (5)
        needs_triplet=True,  # a pong or kong (6)
        must_open=True,  # ``not_opened`` (3) …
        open_waived_by="liting",  # … unless 立听 is allowed
        off_shape_waits_with="chen_zfb",  # 抻中发白 waits on the third dragon
    ),
)
