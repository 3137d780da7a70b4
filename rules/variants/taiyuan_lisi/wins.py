"""太原立四麻将 Taiyuan Li-Si hand rules (spec ``taiyuan_lisi.md``): win, score S, payments.

A win needs a complete hand and a declared ting; no other condition. The standing tiles (立牌)
are the engine's business (which discards and melds it offers), not the judge's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from rules.case_facts import ExtraFact
from rules.hand import Meld, WinContext
from rules.hand_rules import HandRules, Reading, Scored, WinFacts, suits_in
from rules.i18n import N_, Label
from rules.payments import Share

WAIT_ITEMS: Mapping[str, str] = {"edge": "bianzhang", "closed": "kanzhang", "single": "diaojiang"}
"""边张, 砍张 and 单调 score only on a 独听 hand, at most one of them (*Scoring*)."""


def has_qinglong(reading: Reading) -> bool:
    """青龙: 123, 456 and 789 of one suit in the hand."""
    chows = set(reading.chows)
    return any({s, s + 3, s + 6} <= chows for s in (0, 9, 18))


FACTS: tuple[ExtraFact, ...] = (
    ExtraFact(
        "discarder_ting",
        "flag",
        Label(
            N_("taiyuan_lisi", "点炮者已听"), N_("taiyuan_lisi", "点炮的人已经报听（默认没有）。")
        ),
    ),
)
"""``extra.discarder_ting`` (*Judge*)."""


class TaiyuanLisiRules(HandRules):
    """S = 1 + items, doubled on a self-draw; there are no separate kong payments."""

    item_unit: ClassVar[str] = "fen"
    conditions: ClassVar[tuple[str, ...]] = ("not_complete", "not_ting")
    has_chow: ClassVar[bool] = False

    extra_facts: ClassVar[tuple[ExtraFact, ...]] = FACTS

    def failure(self, ctx: WinContext, reading: Reading, facts: WinFacts) -> str | None:
        return None if ctx.ting else "not_ting"

    def score(self, ctx: WinContext, reading: Reading, facts: WinFacts) -> Scored:
        fan = {"pinghu": 1}
        if ctx.winner == ctx.dealer:
            fan["zhuang"] = 1
        item = WAIT_ITEMS.get(reading.wait)
        if item is not None and facts.single_wait:
            fan[item] = 1
        if len(suits_in(reading.all_counts)) == 2:
            fan["quemen"] = 1  # exactly two suits; one suit is not 缺门
        if any(m.is_kong and not m.concealed for m in ctx.melds):
            fan["minggang"] = 1
        if any(m.is_kong and m.concealed for m in ctx.melds):
            fan["angang"] = 2
        if has_qinglong(reading):
            fan["qinglong"] = 10
        total = sum(fan.values())
        if ctx.self_drawn:
            fan["zimo"] = 2  # S is doubled, shown as zimo: 2
            total *= 2
        return Scored.of_shares(fan, total, self._shares(ctx, fan, facts.discarder))

    def _shares(
        self, ctx: WinContext, fan: Mapping[str, int], discarder: int | None
    ) -> list[Share]:
        """Each pays S × base; a discarder who had not declared ting pays 3 × S × base alone."""
        base = int(ctx.options.get("base", 1))
        items = [(key, value) for key, value in fan.items() if key != "zimo"]
        factors = [("zimo", 2)] if ctx.self_drawn else []
        if discarder is not None and not ctx.extra.get("discarder_ting", False):
            factors.append(("baosan", 3))
            payers = [discarder]
        else:
            payers = [seat for seat in range(4) if seat != ctx.winner]
        return [
            Share.make(
                "score", payer=seat, payee=ctx.winner, base=base, items=items, factors=factors
            )
            for seat in payers
        ]

    def kong_value(self, meld: Meld) -> int:
        """Kong points are part of S: no separate kong payments."""
        return 0
