"""太原立四 Taiyuan Li-Si (spec ``taiyuan_lisi.md``): everything of the variant.

``flow.py`` the round flow, ``wins.py`` winning conditions, fan and payments, ``options.py`` the
room options with their bounds, ``labels.py`` what players read. :data:`VARIANT` is the one
object the registry (:mod:`rules.registry`) lists and the engine is handed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.variant import BotFacts, Variant
from rules.variants.taiyuan_lisi.labels import FAN, NAME, REASONS
from rules.variants.taiyuan_lisi.options import OPTIONS
from rules.variants.taiyuan_lisi.wins import TaiyuanLisiRules

if TYPE_CHECKING:
    from rules.variants.taiyuan_lisi.flow import TaiyuanLisiFlow


def _load_flow() -> TaiyuanLisiFlow:
    """The round flow, imported when first asked for (:attr:`rules.variant.Variant.flow`)."""
    from rules.variants.taiyuan_lisi.flow import TaiyuanLisiFlow

    return TaiyuanLisiFlow()


VARIANT = Variant(
    key="taiyuan_lisi",
    name=NAME,
    load_flow=_load_flow,
    rules=TaiyuanLisiRules(),
    options=OPTIONS,
    fan=FAN,
    reasons=REASONS,
    bots=BotFacts(discarder_pays_all=True, hard_folds=True),
)
