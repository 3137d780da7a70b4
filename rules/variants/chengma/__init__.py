"""成都麻将 Chengdu, 血战到底 (spec ``chengma.md``): everything of the variant.

``flow.py`` the round flow (定缺, 血战到底, 一炮多响, 刮风下雨, the end-of-wall checks),
``wins.py`` winning conditions, fan, payments and the checks, ``options.py`` the room options
with their bounds, ``labels.py`` what players read, ``judge.py`` the judge's ``kind: settle``.
:data:`VARIANT` is the one object the registry (:mod:`rules.registry`) lists and the engine is
handed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.variant import BotFacts, Variant
from rules.variants.chengma.judge import judge_settle
from rules.variants.chengma.labels import FAN, NAME, REASONS, SETTLE, SUITS
from rules.variants.chengma.options import OPTIONS
from rules.variants.chengma.wins import ChengmaRules

if TYPE_CHECKING:
    from rules.variants.chengma.flow import ChengmaFlow


def _load_flow() -> ChengmaFlow:
    """The round flow, imported when first asked for (:attr:`rules.variant.Variant.flow`)."""
    from rules.variants.chengma.flow import ChengmaFlow

    return ChengmaFlow()


VARIANT = Variant(
    key="chengma",
    name=NAME,
    load_flow=_load_flow,
    rules=ChengmaRules(),
    options=OPTIONS,
    fan=FAN,
    reasons=REASONS,
    words={"suits": SUITS, "settle": SETTLE},
    judge_kinds={"settle": judge_settle},
    bots=BotFacts(seven_pairs=True, discarder_pays_all=True, hard_folds=True),
)
