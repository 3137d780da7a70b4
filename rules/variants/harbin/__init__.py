"""哈尔滨麻将 Harbin (spec ``harbin.md``): everything of the variant.

``flow.py`` the round flow, ``wins.py`` winning conditions, fan and payments, ``options.py`` the
room options with their bounds, ``labels.py`` what players read. :data:`VARIANT` is the one
object the registry (:mod:`rules.registry`) lists and the engine is handed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.tiles import RED, TERMINALS
from rules.variant import BotFacts, Variant
from rules.variants.harbin.labels import FAN, NAME, REASONS
from rules.variants.harbin.options import OPTIONS
from rules.variants.harbin.wins import HarbinRules

if TYPE_CHECKING:
    from rules.variants.harbin.flow import HarbinFlow


def _load_flow() -> HarbinFlow:
    """The round flow, imported when first asked for (:attr:`rules.variant.Variant.flow`)."""
    from rules.variants.harbin.flow import HarbinFlow

    return HarbinFlow()


VARIANT = Variant(
    key="harbin",
    name=NAME,
    load_flow=_load_flow,
    rules=HarbinRules(),
    options=OPTIONS,
    fan=FAN,
    reasons=REASONS,
    bots=BotFacts(
        suit_gap=(1, 1, 0, 0),  # ``one_suit``: two suits (*Play*, ting condition 2)
        needs_one_of=frozenset((*TERMINALS, RED)),  # a 1 or 9, or a 中 (3)
        must_open=True,  # ``not_opened`` (1)
    ),
)
