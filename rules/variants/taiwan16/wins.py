"""台湾十六张 Taiwan 16-tile hand rules (spec ``taiwan16.md``): the 台 (tai) table and payments.

A win is five sets and a pair (17 tiles, melds counted as sets) and nothing else: the only
condition is ``not_complete``. Every item of the tai table that applies is scored and summed, as
the table reads, with the spec's one stated merge (``menqing`` + ``zimo`` → ``menqing_zimo`` 3) and
these `[decision]`\\ s where the table is silent:

* ``huagang``: each complete group of four (seasons 1f–4f, plants 5f–8f) 2; all eight (八仙過海)
  8 instead of 2 + 2. ``flower`` (1 per flower of one's own seat) is scored beside it.
* ``sananke`` / ``sianke`` / ``wuanke`` take the highest tier only. A pong completed by a
  discard (or a robbed kong) is not concealed (the usual 暗刻 rule); a concealed kong is.
* ``pinghu`` and ``quanqiu`` are "won on a discard": a robbed kong counts, since 抢杠 pays like a
  discard (spec README); a self-draw never does.
* ``dudiao`` (獨聽) is the reading's edge, closed or single wait on a hand with exactly one
  winning kind (README, *Wait types*); at most one wait item.
* ``ting_declared`` 1: a declared ting (``ting`` of the case, or ``extra.ting_declared``).
* ``zhuangjia`` and ``lianzhuang`` are per payer: they count for a payment only when the winner
  or that payer is the dealer; ``fan`` shows them whenever some payment counts them.
* An all-honours hand (字一色) is not in the table and scores neither ``hunyise`` nor
  ``qingyise``.
* Readings that pay the same and tie on ``total`` go to "the reading whose items come first in
  the table" (*Tai*), not to the README's wait order: the reading holding the earliest item of
  :data:`TAI_TABLE` that the other lacks (111222333 read as three chows for ``pinghu``, not as
  three pongs for ``sananke``).

``extra`` (judge.md): ``flowers`` (the winner's, e.g. ``"1f5f"``), ``round_wind`` / ``seat_wind``
(``"1z"``–``"4z"``; defaults 东 and the seat counted from the dealer), ``lianzhuang`` (n ≥ 0, the
dealer's consecutive stays), and the facts the hand cannot show: ``haidi``, ``flower_draw``
(won on a flower replacement: ``gangshang``), ``tianhu``, ``dihu``, ``ting_declared``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rules.case_facts import ROUND_WIND, ExtraFact
from rules.errors import InvalidCase, RulesError
from rules.hand import Meld, WinContext
from rules.hand_rules import (
    HandRules,
    Reading,
    Scored,
    WinFacts,
    has_honour,
    suits_in,
    wind_extra,
)
from rules.i18n import N_, Label
from rules.payments import Share
from rules.tiles import (
    DRAGONS,
    EAST,
    FLOWER,
    WINDS,
    Tile,
    is_flower,
    parse_tiles,
)

SEASONS: tuple[Tile, ...] = tuple(range(FLOWER, FLOWER + 4))
"""春夏秋冬 1f–4f."""
PLANTS: tuple[Tile, ...] = tuple(range(FLOWER + 4, FLOWER + 8))
"""梅兰菊竹 5f–8f."""
ANKE_TAI: Mapping[int, tuple[str, int]] = {3: ("sananke", 2), 4: ("sianke", 5), 5: ("wuanke", 8)}
"""三暗刻 / 四暗刻 / 五暗刻 by the number of concealed pongs and kongs (highest tier only)."""
TAI_TABLE: tuple[str, ...] = (
    "zhuangjia",
    "lianzhuang",
    "menqing",
    "zimo",
    "menqing_zimo",
    "flower",
    "huagang",
    "sanyuan_pong",
    "feng",
    "pinghu",
    "quanqiu",
    "duiduihu",
    "hunyise",
    "qingyise",
    "xiaosanyuan",
    "dasanyuan",
    "xiaosixi",
    "dasixi",
    "sananke",
    "sianke",
    "wuanke",
    "dudiao",
    "haidi",
    "gangshang",
    "qianggang",
    "tianhu",
    "dihu",
    "ting_declared",
)
"""Every item in the order of the spec's *Tai* table, row by row and left to right within a row
(``menqing_zimo`` is the ``zimo`` row's merge; ``ting_declared``, from *Play*, comes last): the
order that breaks ties between readings."""
DEALER_KEYS: tuple[str, ...] = ("zhuangjia", "lianzhuang")
"""Items that count only for a payment between the dealer and the winner."""
EXTRA_FLAGS: tuple[str, ...] = ("haidi", "flower_draw", "tianhu", "dihu", "ting_declared")


def flowers_extra(value: Any) -> tuple[Tile, ...]:
    """``extra.flowers``: the winner's flowers, ``"1f3f"`` (or a list of tile ints), each once."""
    if value is None:
        return ()
    if isinstance(value, str):
        try:
            tiles = parse_tiles(value)
        except RulesError as exc:
            raise InvalidCase(f"extra.flowers: {exc}") from None
    elif isinstance(value, list | tuple) and all(
        isinstance(t, int) and not isinstance(t, bool) for t in value
    ):
        tiles = list(value)
    else:
        raise InvalidCase(f"extra.flowers must be a flower string like '1f5f', got {value!r}")
    if not all(is_flower(t) for t in tiles) or len(set(tiles)) != len(tiles):
        raise InvalidCase(f"extra.flowers must be distinct flowers 1f–8f, got {value!r}")
    return tuple(sorted(tiles))


def lianzhuang_extra(value: Any) -> int:
    """``extra.lianzhuang``: n ≥ 0, the dealer's consecutive stays (連n)."""
    if value is None:
        return 0
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise InvalidCase(f"extra.lianzhuang must be an integer ≥ 0, got {value!r}")
    return value


def own_flowers(seat_wind: Tile) -> tuple[Tile, Tile]:
    """正花: seat 东 has 1f and 5f, 南 2f and 6f, 西 3f and 7f, 北 4f and 8f."""
    index = seat_wind - EAST
    return FLOWER + index, FLOWER + 4 + index


def flower_tai(flowers: Sequence[Tile], seat_wind: Tile) -> dict[str, int]:
    """``flower`` (1 per own flower) and ``huagang`` (2 per full group, 8 for all eight)."""
    fan: dict[str, int] = {}
    own = sum(1 for t in own_flowers(seat_wind) if t in flowers)
    if own:
        fan["flower"] = own
    held = set(flowers)
    if len(held) == 8:
        fan["huagang"] = 8
    else:
        groups = sum(1 for group in (SEASONS, PLANTS) if held.issuperset(group))
        if groups:
            fan["huagang"] = 2 * groups
    return fan


def triplets(reading: Reading, melds: Sequence[Meld]) -> list[Tile]:
    """Every pong or kong kind of the hand: concealed pongs of the reading and meld pongs/kongs."""
    return [*reading.pongs, *(m.tiles[0] for m in melds if m.kind in ("pong", "kong"))]


def concealed_triplets(ctx: WinContext, reading: Reading) -> int:
    """暗刻: concealed pongs and concealed kongs; a pong completed by a claimed tile is exposed."""
    count = len(reading.pongs) + sum(1 for m in ctx.melds if m.kind == "kong" and m.concealed)
    if not ctx.self_drawn and reading.wait == "dual_pong":
        count -= 1
    return count


def honour_tai(reading: Reading, melds: Sequence[Meld], winds: tuple[Tile, Tile]) -> dict[str, int]:
    """三元 and 风 items: ``sanyuan_pong``, ``feng``, 小/大三元, 小/大四喜."""
    fan: dict[str, int] = {}
    kinds = triplets(reading, melds)
    dragons = sum(1 for t in kinds if t in DRAGONS)
    wind_pongs = sum(1 for t in kinds if t in WINDS)
    if dragons:
        fan["sanyuan_pong"] = dragons
    feng = sum(1 for wind in winds if wind in kinds)
    if feng:
        fan["feng"] = feng
    if dragons == 3:
        fan["dasanyuan"] = 8
    elif dragons == 2 and reading.pair in DRAGONS:
        fan["xiaosanyuan"] = 4
    if wind_pongs == 4:
        fan["dasixi"] = 16
    elif wind_pongs == 3 and reading.pair in WINDS:
        fan["xiaosixi"] = 8
    return fan


def shape_tai(ctx: WinContext, reading: Reading, flowers: Sequence[Tile]) -> dict[str, int]:
    """Items of the hand's shape: 平胡, 全求人, 碰碰胡, 混/清一色, 暗刻."""
    fan: dict[str, int] = {}
    on_discard = not ctx.self_drawn
    all_chows = not reading.pongs and all(m.kind == "chow" for m in ctx.melds)
    if (
        all_chows
        and on_discard
        and reading.wait == "open"
        and not flowers
        and not has_honour(reading.all_counts)
    ):
        fan["pinghu"] = 2
    exposed = all(not m.concealed for m in ctx.melds)
    if on_discard and len(ctx.melds) == 5 and exposed and reading.wait == "single":
        fan["quanqiu"] = 2
    if not reading.chows and all(m.kind != "chow" for m in ctx.melds):
        fan["duiduihu"] = 4
    if len(suits_in(reading.all_counts)) == 1:
        if has_honour(reading.all_counts):
            fan["hunyise"] = 4
        else:
            fan["qingyise"] = 8
    tier = ANKE_TAI.get(min(concealed_triplets(ctx, reading), 5))
    if tier is not None:
        fan[tier[0]] = tier[1]
    return fan


FACTS: tuple[ExtraFact, ...] = (
    ROUND_WIND,
    ExtraFact(
        "flowers",
        "tiles",
        Label(N_("taiwan16", "花牌"), N_("taiwan16", "胡家的花牌，如 1f5f。")),
        default="",
        on_ting=True,
    ),
    ExtraFact(
        "lianzhuang",
        "count",
        Label(N_("taiwan16", "连庄次数"), N_("taiwan16", "庄家连庄的次数（连 n 拉 n）。")),
        default=0,
        on_ting=True,
    ),
    ExtraFact("haidi", "flag", Label(N_("taiwan16", "海底"), N_("taiwan16", "自摸牌墙最后一张。"))),
    ExtraFact(
        "flower_draw",
        "flag",
        Label(N_("taiwan16", "补花后胡"), N_("taiwan16", "补花摸到的牌自摸（算杠上开花）。")),
    ),
    ExtraFact(
        "tianhu", "flag", Label(N_("taiwan16", "天胡"), N_("taiwan16", "庄家起手自摸，没有副露。"))
    ),
    ExtraFact(
        "dihu", "flag", Label(N_("taiwan16", "地胡"), N_("taiwan16", "闲家第一轮自摸，没有副露。"))
    ),
)
"""``extra`` of a Taiwan case (*Judge*): the winner's flowers, the round wind, the dealer's streak
and the facts the hand cannot show."""


class Taiwan16Rules(HandRules):
    """Five sets and a pair; tai by the table; each payer pays ``base + tai × tai_value``."""

    item_unit: ClassVar[str] = "tai"
    conditions: ClassVar[tuple[str, ...]] = ("not_complete",)
    hand_size: ClassVar[int] = 16
    has_flowers: ClassVar[bool] = True

    extra_facts: ClassVar[tuple[ExtraFact, ...]] = FACTS

    def validate_extra(self, extra: Mapping[str, Any]) -> None:
        """Raise InvalidCase for a malformed Taiwan ``extra`` (flowers, winds, lianzhuang)."""
        flowers_extra(extra.get("flowers"))
        wind_extra(extra.get("round_wind"), EAST, "round_wind")
        wind_extra(extra.get("seat_wind"), EAST, "seat_wind")
        lianzhuang_extra(extra.get("lianzhuang"))
        for flag in EXTRA_FLAGS:
            if flag in extra and not isinstance(extra[flag], bool):
                raise InvalidCase(f"extra.{flag} must be true or false, got {extra[flag]!r}")

    def tie_break(self, reading: Reading, scored: Scored) -> tuple[int, ...]:
        """*Tai*: "the reading whose items come first in the table". The positions of its items
        in :data:`TAI_TABLE`, earliest first and negated, so that the larger key holds the
        earliest item the other reading lacks. Two readings with the same total cannot have one
        item set inside the other (every item is worth at least 1), so no key is a prefix of a
        different one."""
        return tuple(-position for position in sorted(TAI_TABLE.index(key) for key in scored.fan))

    def winds(self, ctx: WinContext) -> tuple[Tile, Tile]:
        """(round wind, seat wind): defaults 东 and the seat counted from the dealer (东)."""
        round_wind = wind_extra(ctx.extra.get("round_wind"), EAST, "round_wind")
        default_seat = EAST + (ctx.winner - ctx.dealer) % 4
        return round_wind, wind_extra(ctx.extra.get("seat_wind"), default_seat, "seat_wind")

    def score(self, ctx: WinContext, reading: Reading, facts: WinFacts) -> Scored:
        extra = ctx.extra
        flowers = flowers_extra(extra.get("flowers"))
        winds = self.winds(ctx)
        payers = self._payers(ctx, facts)
        fan: dict[str, int] = {}
        if ctx.dealer == ctx.winner or ctx.dealer in payers:
            fan["zhuangjia"] = 1
            n = lianzhuang_extra(extra.get("lianzhuang"))
            if n:
                fan["lianzhuang"] = 2 * n
        fan.update(self._situation_tai(ctx, reading, facts))
        fan.update(flower_tai(flowers, winds[1]))
        fan.update(honour_tai(reading, ctx.melds, winds))
        fan.update(shape_tai(ctx, reading, flowers))
        total = sum(fan.values())
        return Scored.of_shares(fan, total, self._shares(ctx, fan, payers))

    @staticmethod
    def _payers(ctx: WinContext, facts: WinFacts) -> tuple[int, ...]:
        """The discarder alone (a robbed kong: the konger), or all three on a self-draw."""
        if facts.discarder is not None:
            return (facts.discarder,)
        return tuple(seat for seat in range(4) if seat != ctx.winner)

    @staticmethod
    def _situation_tai(ctx: WinContext, reading: Reading, facts: WinFacts) -> dict[str, int]:
        """How the hand was won: 門清, 自摸, 獨聽, 海底, 槓上開花, 搶槓, 天胡/地胡, 聽牌."""
        fan: dict[str, int] = {}
        extra = ctx.extra
        menqing = not any(m.opens_hand for m in ctx.melds)
        if menqing and ctx.self_drawn:
            fan["menqing_zimo"] = 3
        elif menqing:
            fan["menqing"] = 1
        elif ctx.self_drawn:
            fan["zimo"] = 1
        if reading.wait in ("edge", "closed", "single") and facts.single_wait:
            fan["dudiao"] = 1
        if ctx.ting or extra.get("ting_declared", False):
            fan["ting_declared"] = 1
        if extra.get("haidi", False):
            fan["haidi"] = 1
        if ctx.win_by == "kong_draw" or (ctx.self_drawn and extra.get("flower_draw", False)):
            fan["gangshang"] = 1
        if ctx.win_by == "rob_kong":
            fan["qianggang"] = 1
        if extra.get("tianhu", False):
            fan["tianhu"] = 16
        elif extra.get("dihu", False):
            fan["dihu"] = 16
        return fan

    @staticmethod
    def _shares(ctx: WinContext, fan: Mapping[str, int], payers: Sequence[int]) -> list[Share]:
        """Each payer pays ``base + tai × tai_value``; 莊家/連莊 tai only between dealer and
        winner (*Tai*, ``zhuangjia``: "the winner or the payer is the dealer")."""
        base = int(ctx.options.get("base", 1))
        tai_value = int(ctx.options.get("tai_value", 1))
        shares = []
        for payer in payers:
            involved = ctx.dealer in (ctx.winner, payer)
            items = [(k, v) for k, v in fan.items() if involved or k not in DEALER_KEYS]
            shares.append(
                Share.make(
                    "tai",
                    payer=payer,
                    payee=ctx.winner,
                    base=base,
                    items=items,
                    tai_value=tai_value,
                )
            )
        return shares

    def kong_value(self, meld: Meld) -> int:
        """Kongs pay nothing apart in the tai table (no 槓錢 item) `[default]`."""
        return 0
