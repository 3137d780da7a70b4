"""长春麻将 Changchun (spec ``changchun.md``), the reference variant: everything of the variant.

``flow.py`` the round flow, ``wins.py`` winning conditions, fan and payments, ``options.py`` the
room options with their bounds, ``labels.py`` what players read. :data:`VARIANT` is the one
object the registry (:mod:`rules.registry`) lists and the engine is handed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.tiles import HONOURS, TERMINALS
from rules.variant import BotFacts, Variant
from rules.variants.changchun.labels import FAN, NAME, REASONS
from rules.variants.changchun.options import OPTIONS
from rules.variants.changchun.wins import ChangchunRules

if TYPE_CHECKING:
    from rules.variants.changchun.flow import ChangchunFlow


def _load_flow() -> ChangchunFlow:
    """The round flow, imported when first asked for (:attr:`rules.variant.Variant.flow`)."""
    from rules.variants.changchun.flow import ChangchunFlow

    return ChangchunFlow()


VARIANT = Variant(
    key="changchun",
    name=NAME,
    load_flow=_load_flow,
    rules=ChangchunRules(),
    options=OPTIONS,
    fan=FAN,
    reasons=REASONS,
    bots=BotFacts(
        suit_gap=(3, 2, 1, 0),  # 三门齐 (*Winning conditions* 3)
        needs_one_of=frozenset((*TERMINALS, *HONOURS)),  # a 1 or 9, or any honour (4)
        needs_triplet=True,  # a pong or kong (5)
        treasure_wild=True,  # 宝牌: 摸宝 / 对宝 win on any tile
    ),
)
