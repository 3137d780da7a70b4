"""四平麻将 Siping hand rules (spec ``siping.md``): win conditions, fan, payments, kongs.

报听 is required only for a win that scores ``jia`` or ``piao``, per reading: "a reading that
needs 报听 is not a legal reading without it", so 111222333m read as three chows still wins
undeclared as 平胡 (*Play*). ``extra.chen`` (抻) implies a declared ting.

Option ``chen_zfb`` (抻中发白): with two of 中发白 in hand a declared-ting player may wait on the
third; 中发白 one each then counts as a set (wait ``special``), the win is self-draw only and
scores ``chen``. ``[decision]`` the other conditions apply as to any reading, and the three
dragons are not a pong (no ``piao``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rules.case_facts import ROUND_WIND, ExtraFact
from rules.hand import Meld, TingContext, WinContext
from rules.hand_rules import (
    HandRules,
    Reading,
    Scored,
    WinFacts,
    has_honour,
    has_meld_triplet,
    has_terminal,
    is_dragon,
    meld_counts,
    one_tile_in_hand,
    suits_in,
    wind_extra,
)
from rules.i18n import N_, Label
from rules.payments import Share
from rules.shapes import PONG, decompositions, is_complete
from rules.tiles import (
    DRAGONS,
    EAST,
    NUM_KINDS,
    PIN,
    SOU,
    WHITE,
    Tile,
    count_tiles,
)

SPECIAL_KONG_SIZE: Mapping[str, int] = {"xuanfeng": 4, "xi": 3}
"""风杠 (option ``fengang``) and 中发白杠 (``zfbgang``) as first laid; more tiles are adds."""
SPECIAL_KONG_OPTION: Mapping[str, str] = {"xuanfeng": "fengang", "xi": "zfbgang"}
"""The room option that allows each special kong."""


ZFB = 2
"""Set kind of 中发白 one each in a :class:`Reading` (option ``chen_zfb``)."""


def is_piao(reading: Reading, melds: tuple[Meld, ...]) -> bool:
    """飘: every set a pong or kong."""
    return all(kind == PONG for kind, _ in reading.sets) and all(m.kind != "chow" for m in melds)


def is_zfb(reading: Reading) -> bool:
    """The winning tile completed 中发白 one each (抻中发白)."""
    return reading.wait == "special"


def zfb_readings(ctx: WinContext) -> list[Reading]:
    """Readings with 中发白 one each as the set the winning dragon completed (``chen_zfb``)."""
    concealed = count_tiles(ctx.concealed)[:NUM_KINDS]
    if ctx.win_tile not in DRAGONS or any(concealed[d] < 1 for d in DRAGONS):
        return []
    rest = list(concealed)
    for d in DRAGONS:
        rest[d] -= 1
    in_melds = meld_counts(ctx.melds)
    all_counts = tuple(c + m for c, m in zip(concealed, in_melds, strict=True))
    found = []
    for pair, sets in decompositions(rest):
        with_zfb = (*sets, (ZFB, WHITE))
        reading = Reading(
            pair, with_zfb, ctx.win_tile, len(sets), "special", tuple(concealed), all_counts
        )
        found.append(reading)
    return found


def siguiyi_count(reading: Reading, melds: tuple[Meld, ...]) -> int:
    """四归一: kinds with all four copies among the concealed tiles and pongs, not a kong.

    "(concealed tiles and pongs together)": a chow meld's tiles do not count (*Scoring*).
    """
    counts = list(reading.counts)
    for meld in melds:
        if meld.kind == "pong":
            for t in meld.tiles:
                counts[t] += 1
    return sum(1 for t in range(NUM_KINDS) if counts[t] == 4)


FACTS: tuple[ExtraFact, ...] = (
    ExtraFact(
        "chen",
        "flag",
        Label(N_("siping", "抻"), N_("siping", "胡家选择了抻（视为已报听，只能自摸）。")),
        on_ting=True,
    ),
    ROUND_WIND,
)
"""``extra.chen`` and ``extra.round_wind`` (*Judge*)."""


class SipingRules(HandRules):
    """Conditions in the order of *Winning conditions*; ``base × 2^F`` per payer."""

    conditions: ClassVar[tuple[str, ...]] = (
        "not_complete",
        "not_ting",
        "chen_self_draw_only",
        "not_opened",
        "missing_suit",
        "no_terminal",
        "no_triplet",
        "single_tile_wait",
        "piao_only",
    )

    extra_facts: ClassVar[tuple[ExtraFact, ...]] = FACTS

    def special_kongs(self, options: Mapping[str, Any]) -> frozenset[str]:
        """风杠 with the room option ``fengang``, 中发白杠 with ``zfbgang`` (*Options*)."""
        return frozenset(
            name for name, option in SPECIAL_KONG_OPTION.items() if options.get(option, False)
        )

    def readings(self, ctx: WinContext) -> list[Reading]:
        found = super().readings(ctx)
        if ctx.options.get("chen_zfb", False) and not ctx.treasure_win:
            found.extend(zfb_readings(ctx))
        return found

    def special_waits(self, ctx: TingContext, counts: Sequence[int]) -> tuple[Tile, ...]:
        """抻中发白: with two of 中发白 and the rest complete, the third dragon is a wait."""
        if not ctx.options.get("chen_zfb", False):
            return ()
        waits = []
        for wait in DRAGONS:
            others = [d for d in DRAGONS if d != wait]
            if all(counts[d] >= 1 for d in others):
                rest = list(counts)
                for d in others:
                    rest[d] -= 1
                if is_complete(rest):
                    waits.append(wait)
        return tuple(waits)

    def meld_opens(self, meld: Meld) -> bool:
        """A 风杠 / 中发白杠 is laid like a concealed kong and does not open (*Options*)."""
        return meld.opens_hand and meld.kind != "special_kong"

    def winds(self, ctx: WinContext) -> tuple[Tile, Tile]:
        """(round wind, seat wind): defaults 东 and the seat counted from the dealer (东)."""
        round_wind = wind_extra(ctx.extra.get("round_wind"), EAST, "round_wind")
        default_seat = EAST + (ctx.winner - ctx.dealer) % 4
        return round_wind, wind_extra(ctx.extra.get("seat_wind"), default_seat, "seat_wind")

    def is_jia(self, ctx: WinContext, reading: Reading, facts: WinFacts) -> bool:
        """夹: the winning tile read as the middle of a chow, on a 独听 hand or after 抻."""
        if reading.wait != "closed":
            return False
        return bool(ctx.extra.get("chen", False)) or facts.single_wait

    def failure(self, ctx: WinContext, reading: Reading, facts: WinFacts) -> str | None:
        chen = bool(ctx.extra.get("chen", False))
        ting = ctx.ting or chen
        piao = is_piao(reading, ctx.melds)
        needs_ting = not ctx.options.get("no_baoting", False)
        zfb = is_zfb(reading)
        # 抻中发白 is a ting on the third dragon: declared ting always, self-draw only.
        if not ting and (zfb or (needs_ting and (piao or self.is_jia(ctx, reading, facts)))):
            return "not_ting"
        if (chen or zfb) and not ctx.self_drawn:
            return "chen_self_draw_only"
        if not facts.winner_opened and not (ctx.options.get("liting", False) and ting):
            return "not_opened"
        counts = reading.all_counts
        if not piao and suits_in(counts) != {0, 1, 2}:
            return "missing_suit"
        if not has_terminal(counts) and not has_honour(counts):
            return "no_terminal"
        round_wind, seat_wind = self.winds(ctx)
        triplet = bool(reading.pongs) or has_meld_triplet(ctx.melds)
        # 中发白做将或有泛风做将时可免碰.
        if not triplet and not (is_dragon(reading.pair) or reading.pair == round_wind):
            return "no_triplet"
        if one_tile_in_hand(ctx) and not piao:
            return "single_tile_wait"
        if not piao and self._ponged_value_honour(ctx.melds, round_wind, seat_wind):
            return "piao_only"
        return None

    @staticmethod
    def _ponged_value_honour(melds: tuple[Meld, ...], round_wind: Tile, seat_wind: Tile) -> bool:
        """Ponged 中, 发, 白, the seat wind or the round wind (an exposed kong of one too)."""
        valued = {*DRAGONS, round_wind, seat_wind}
        return any(
            m.kind in ("pong", "kong") and not m.concealed and m.tiles[0] in valued for m in melds
        )

    def score(self, ctx: WinContext, reading: Reading, facts: WinFacts) -> Scored:
        fan = {"pinghu": 0}
        if is_piao(reading, ctx.melds):
            fan["piao"] = 2  # replaces jia
        elif self.is_jia(ctx, reading, facts):
            fan["jia"] = 1
        if ctx.self_drawn:
            fan["zimo"] = 1
        discarder = facts.discarder
        if discarder is not None:
            fan["dianpao"] = 1
        if (ctx.extra.get("chen", False) or is_zfb(reading)) and ctx.self_drawn:
            fan["chen"] = 1
        if ctx.win_by == "kong_draw":
            fan["gangkai"] = 1
        if ctx.winner == ctx.dealer:
            # 庄 for a dealer winner is the winner's item (every payer pays it), so it shows in
            # fan; for a dealer payer it is that payer's only and shows in the payments.
            fan["zhuang"] = 1
        siguiyi = siguiyi_count(reading, ctx.melds)
        if siguiyi:
            fan["siguiyi"] = siguiyi
        if ctx.options.get("liting", False) and ctx.ting and not facts.winner_opened:
            fan["liting"] = 1
        total = sum(fan.values())
        return Scored.of_shares(fan, total, self._shares(ctx, facts, fan, discarder))

    def _shares(
        self, ctx: WinContext, facts: WinFacts, fan: Mapping[str, int], discarder: int | None
    ) -> list[Share]:
        """All three pay base × 2^F; 点炮, 庄, 闭门 and 三家闭 count for the payer they concern."""
        base = int(ctx.options.get("base", 1))
        own = [(key, value) for key, value in fan.items() if key != "dianpao"]
        payers = [seat for seat in range(4) if seat != ctx.winner]
        all_closed = not any(facts.opened(seat) for seat in payers)
        shares = []
        for seat in payers:
            items = list(own)
            if seat == discarder:
                items.append(("dianpao", 1))
            if seat == ctx.dealer:
                items.append(("zhuang", 1))
            if not facts.opened(seat):
                items.append(("bimen", 1))
            if all_closed:
                items.append(("sanjiabi", 1))
            shares.append(
                Share.make("doubling", payer=seat, payee=ctx.winner, base=base, items=items)
            )
        return shares

    def kong_value(self, meld: Meld) -> int:
        """Exposed/added 1, concealed 2; 1p/1s doubled; 风杠 as concealed, 中发白杠 as exposed."""
        if meld.kind == "special_kong":
            size = SPECIAL_KONG_SIZE.get(meld.name or "", len(meld.tiles))
            first = 2 if meld.name == "xuanfeng" else 1
            return first + len(meld.tiles) - size
        if meld.kind != "kong":
            return 0
        value = 2 if meld.concealed else 1
        return value * 2 if meld.tiles[0] in (PIN, SOU) else value
