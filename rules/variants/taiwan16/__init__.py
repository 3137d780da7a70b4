"""台湾十六张 Taiwan 16 (spec ``taiwan16.md``): everything of the variant.

``flow.py`` the round flow, ``wins.py`` winning conditions, fan and payments, ``options.py`` the
room options with their bounds, ``labels.py`` what players read. :data:`VARIANT` is the one
object the registry (:mod:`rules.registry`) lists and the engine is handed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.variant import BotFacts, Variant
from rules.variants.taiwan16.labels import FAN, NAME, REASONS
from rules.variants.taiwan16.options import OPTIONS
from rules.variants.taiwan16.wins import Taiwan16Rules

if TYPE_CHECKING:
    from rules.variants.taiwan16.flow import Taiwan16Flow


def _load_flow() -> Taiwan16Flow:
    """The round flow, imported when first asked for (:attr:`rules.variant.Variant.flow`)."""
    from rules.variants.taiwan16.flow import Taiwan16Flow

    return Taiwan16Flow()


VARIANT = Variant(
    key="taiwan16",
    name=NAME,
    load_flow=_load_flow,
    rules=Taiwan16Rules(),
    options=OPTIONS,
    fan=FAN,
    reasons=REASONS,
    bots=BotFacts(
        discarder_pays_all=True,
        closed_scores=True,  # 門清 scores
        ting_locks=True,  # a declared ting locks the hand (*Play*)
    ),
)
