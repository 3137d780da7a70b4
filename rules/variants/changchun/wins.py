"""长春麻将 Changchun hand rules (spec ``changchun.md``): win conditions, fan, payments, kongs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rules.case_facts import ExtraFact
from rules.hand import Meld, WinContext
from rules.hand_rules import (
    HandRules,
    Reading,
    Scored,
    WinFacts,
    has_honour,
    has_meld_triplet,
    has_terminal,
    is_dragon,
    one_tile_in_hand,
    suits_in,
)
from rules.i18n import N_, Label
from rules.payments import Share
from rules.tiles import GREEN, PIN, RED, SOU, WHITE, Tile

BIG_EGG_TILES: frozenset[Tile] = frozenset({PIN, SOU, WHITE, GREEN, RED})
"""大蛋: a kong of 1p 幺饼, 1s 幺鸡, 白, 发 or 中 (not 1m) pays double (*Kong payments*)."""
SPECIAL_KONG_SIZE: Mapping[str, int] = {"xuanfeng": 4, "xi": 3, "yao": 3, "jiu": 3}
"""Tiles of a special kong as first declared; every further tile is an add (补)."""


def is_piaohu(reading: Reading, melds: tuple[Meld, ...]) -> bool:
    """飘胡: every set a pong or kong (special kongs count as kongs)."""
    return not reading.chows and all(m.kind != "chow" for m in melds)


def is_treasure_draw(ctx: WinContext) -> bool:
    """摸宝 (``baopai``): a ready player self-drew a tile of the treasure's kind and won with it.

    ``[decision]`` "scored the same when the tile is read as itself": a self-drawn treasure-kind
    winning tile scores ``baopai`` whether or not the case marks it ``treasure_win`` (as Harbin's
    摸宝), except for 对宝, which scores ``duibao`` instead.
    """
    if ctx.treasure_win:
        return True
    return (
        ctx.ting
        and ctx.self_drawn
        and ctx.treasure is not None
        and ctx.win_tile == ctx.treasure
        and not ctx.extra.get("duibao", False)
    )


FACTS: tuple[ExtraFact, ...] = (
    ExtraFact(
        "duibao",
        "flag",
        Label(
            N_("changchun", "对宝"), N_("changchun", "自摸到宝牌那种牌就胡（胡的牌写宝牌那种牌）。")
        ),
        win_by=("self_draw",),
    ),
)
"""``extra.duibao`` (*Judge*: a 对宝 win is a self-draw of the treasure's kind)."""


class ChangchunRules(HandRules):
    """Conditions in the order of *Winning conditions*; fan and payments as *Fan* and *Payment*."""

    conditions: ClassVar[tuple[str, ...]] = (
        "not_complete",
        "not_ting",
        "missing_suit",
        "no_terminal",
        "no_triplet",
        "single_tile_wait",
    )
    has_treasure: ClassVar[bool] = True
    has_duibao: ClassVar[bool] = True

    extra_facts: ClassVar[tuple[ExtraFact, ...]] = FACTS

    def special_kongs(self, options: Mapping[str, Any]) -> frozenset[str]:
        """旋风杠, 喜杠, 幺蛋 and 九蛋 (*Special kongs*)."""
        return frozenset(SPECIAL_KONG_SIZE)

    def failure(self, ctx: WinContext, reading: Reading, facts: WinFacts) -> str | None:
        counts = reading.all_counts
        treasure = ctx.treasure_win or bool(ctx.extra.get("duibao", False))
        # Treasure wins need a declared ting whatever ting_required says (README).
        if not ctx.ting and (ctx.options.get("ting_required", False) or treasure):
            return "not_ting"
        if suits_in(counts) != {0, 1, 2}:
            return "missing_suit"
        if not has_terminal(counts) and not has_honour(counts):
            return "no_terminal"
        any_kong = any(m.is_kong for m in ctx.melds)
        if not (
            reading.pongs or has_meld_triplet(ctx.melds) or any_kong or is_dragon(reading.pair)
        ):
            return "no_triplet"
        if one_tile_in_hand(ctx) and not is_piaohu(reading, ctx.melds):
            return "single_tile_wait"
        return None

    def score(self, ctx: WinContext, reading: Reading, facts: WinFacts) -> Scored:
        fan = {"pinghu": 1}
        discarder = facts.discarder
        if discarder is not None:
            fan["dianpao"] = 1
        duibao = bool(ctx.extra.get("duibao", False))
        if ctx.self_drawn or duibao:
            fan["zimo"] = 1
        piaohu = is_piaohu(reading, ctx.melds)
        # 夹胡 is an edge, closed or pair wait on a 独听 hand, not scored with 飘胡.
        if not piaohu and reading.wait in ("edge", "closed", "single") and facts.single_wait:
            fan["jiahu"] = 1
        if is_treasure_draw(ctx):
            fan["baopai"] = 2
        if duibao:
            fan["duibao"] = 2
        if piaohu:
            fan["piaohu"] = 2
        if ctx.winner == ctx.dealer:
            fan["zhuanghu"] = 1
        if not facts.winner_opened:
            fan["lihu"] = 1
        total = sum(fan.values())
        return Scored.of_shares(fan, total, self._shares(ctx, fan, discarder))

    def _shares(
        self, ctx: WinContext, fan: Mapping[str, int], discarder: int | None
    ) -> list[Share]:
        """Each payer pays 2^(F−1) × base; F counts ``dianpao`` for the discarder only."""
        base = int(ctx.options.get("base", 1))
        own = [(key, value) for key, value in fan.items() if key != "dianpao"]
        shares = [
            Share.make(
                "doubling",
                payer=seat,
                payee=ctx.winner,
                base=base,
                items=[*own, ("dianpao", 1)] if seat == discarder else own,
                offset=-1,
            )
            for seat in range(4)
            if seat != ctx.winner
        ]
        if discarder is not None and ctx.options.get("dianpao_quanbao", False):
            # 点炮全包: the discarder pays the two others' shares too.
            return [s if s.payer == discarder else s.paid_by(discarder) for s in shares]
        return shares

    def kong_value(self, meld: Meld) -> int:
        """杠分: exposed/added 1, concealed 2, 大蛋 double; special kongs 1 plus 1 per add."""
        if meld.kind == "special_kong":
            return 1 + len(meld.tiles) - SPECIAL_KONG_SIZE.get(meld.name or "", len(meld.tiles))
        if meld.kind != "kong":
            return 0
        value = 2 if meld.concealed else 1
        return value * 2 if meld.tiles[0] in BIG_EGG_TILES else value
