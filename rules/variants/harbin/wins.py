"""哈尔滨麻将 Harbin hand rules (spec ``harbin.md``): ting conditions, win, fan, payments, kongs.

Only a ready player wins, and the ting conditions are tested on the hand **as it stands when ting
is declared**, i.e. without the winning tile (without the wildcard for a 摸宝 win). Per reading
that means: a pong or a chow counts only if it was complete before the winning tile (the set the
winning tile completed does not), except that a 对倒 wait satisfies ``no_triplet`` by itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from rules.hand import Meld, TingContext, WinContext
from rules.hand_rules import (
    HandRules,
    Reading,
    Scored,
    WinFacts,
    hand_opened,
    has_meld_triplet,
    has_terminal,
    suits_in,
)
from rules.payments import Share
from rules.shapes import CHOW, PONG
from rules.tiles import RED, SUITED, Tile

TING_CONDITIONS: tuple[str, ...] = (
    "not_opened",
    "one_suit",
    "no_terminal",
    "no_triplet",
    "no_sequence",
    "single_tile_wait",
)
"""The ting conditions 1–6 of *Play*, in order."""


def ting_failure(
    melds: tuple[Meld, ...], counts_before: list[int], concealed_before: int, reading: Reading
) -> str | None:
    """The first ting condition the hand before its winning tile breaks under ``reading``.

    ``counts_before`` are the concealed and meld tiles before the winning tile;
    ``concealed_before`` the number of concealed tiles then.
    """
    if not hand_opened(melds):
        return "not_opened"
    if len(suits_in(counts_before)) < 2:
        return "one_suit"
    if not (has_terminal(counts_before) or counts_before[RED]):
        return "no_terminal"
    before = reading.sets_before_win()
    triplet = (
        has_meld_triplet(melds)
        or counts_before[RED] >= 3
        or any(kind == PONG for kind, _ in before)
        or reading.wait == "dual_pong"  # 对倒: two pairs, either becoming the pong
    )
    if not triplet:
        return "no_triplet"
    if not (any(m.kind == "chow" for m in melds) or any(kind == CHOW for kind, _ in before)):
        return "no_sequence"
    # At least 4 tiles left in hand: a 手把一 hand cannot ting.
    if concealed_before < 4:
        return "single_tile_wait"
    return None


class HarbinRules(HandRules):
    """``not_complete``, ``not_ting``, then the ting conditions on the hand before the win."""

    conditions: ClassVar[tuple[str, ...]] = ("not_complete", "not_ting", *TING_CONDITIONS)
    tiles_used: ClassVar[frozenset[Tile]] = frozenset((*SUITED, RED))
    has_treasure: ClassVar[bool] = True

    def failure(self, ctx: WinContext, reading: Reading, facts: WinFacts) -> str | None:
        if not ctx.ting:
            return "not_ting"
        return ting_failure(ctx.melds, facts.counts_before, len(facts.concealed_before), reading)

    def ting_conditions(self, ctx: TingContext) -> str | None:
        """The first ting condition the hand breaks as it stands (for 听 / 吃听), or None.

        The same as :meth:`judge_ting`'s reason: the conditions hold when some wait is legal.
        """
        verdict = self.judge_ting(ctx)
        return None if verdict.ting_allowed else verdict.reason

    def score(self, ctx: WinContext, reading: Reading, facts: WinFacts) -> Scored:
        fan = {"pinghu": 0}
        if ctx.self_drawn:
            fan["zimo"] = 1
        discarder = facts.discarder
        if discarder is not None:
            fan["dianpao"] = 1
        kadang = reading.wait == "closed" and facts.single_wait
        if kadang:
            fan["kadang"] = 1
        treasure_drawn = (
            ctx.self_drawn and ctx.treasure is not None and ctx.win_tile == ctx.treasure
        )
        if treasure_drawn and kadang and facts.waits_before == (ctx.treasure,):
            # 宝中宝: the one 卡当 winning tile is the treasure kind; replaces 摸宝.
            fan["baozhongbao"] = 2
        elif treasure_drawn:
            fan["mobao"] = 1
        if ctx.winner == ctx.dealer:
            # 庄 for a dealer winner is the winner's item (every payer); for a dealer payer it is
            # that payer's and shows in the payments only (*Scoring*).
            fan["zhuang"] = 1
        total = sum(fan.values())
        return Scored.of_shares(fan, total, self._shares(ctx, facts, fan, discarder))

    def _shares(
        self, ctx: WinContext, facts: WinFacts, fan: Mapping[str, int], discarder: int | None
    ) -> list[Share]:
        """Each payer pays base × 2^F: the winner's items plus 点炮, 庄 and 闭门 as they apply."""
        base = int(ctx.options.get("base", 1))
        own = [(key, value) for key, value in fan.items() if key != "dianpao"]
        shares = []
        for seat in range(4):
            if seat == ctx.winner:
                continue
            items = list(own)
            if seat == discarder:
                items.append(("dianpao", 1))
            if seat == ctx.dealer:
                items.append(("zhuang", 1))
            if not facts.opened(seat):
                items.append(("bimen", 1))
            shares.append(
                Share.make("doubling", payer=seat, payee=ctx.winner, base=base, items=items)
            )
        if discarder is not None and ctx.options.get("dianpao_baosan", False):
            # 点炮包三家: the discarder pays all three shares.
            return [s if s.payer == discarder else s.paid_by(discarder) for s in shares]
        return shares

    def kong_value(self, meld: Meld) -> int:
        """Exposed / added 1 × base, concealed 2 × base."""
        if not meld.is_kong:
            return 0
        return 2 if meld.concealed else 1
