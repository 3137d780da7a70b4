"""成麻 Chengdu hand rules (spec ``chengma.md``): the two winning conditions, fan, payments,
kong payments (刮风下雨), 呼叫转移 and the end-of-wall checks (查花猪, 查大叫, 退税).

A hand wins as **four sets and a pair** or as **seven pairs** (七对), and only with no tile of the
player's void suit (``extra.que``). Fan are additive, 平胡 0; each payer pays
``base × 2^min(F, cap)``, plus one ``base`` on a self-draw (自摸加底, after the cap). The cap is
in fan, so the money of a win is capped here and the round's nets are never capped again
(:attr:`ChengmaRules.has_cap` is false).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from rules.case_facts import ExtraFact
from rules.errors import InvalidCase
from rules.hand import Meld, TingContext, Transfer, WinContext, WinVerdict
from rules.hand_rules import (
    HandRules,
    Reading,
    WinFacts,
    concealed_counts,
    readings_of,
)
from rules.i18n import N_, Label
from rules.payments import Share, nets, share_transfers
from rules.shapes import CHOW, PONG
from rules.tiles import SUITED, Tile
from rules.variants.chengma.labels import SUITS

SUIT_LETTERS = ("m", "p", "s")
"""The void suit (缺门) as the judge and the actions write it; its index is the tile's suit."""
HAND_TYPES = frozenset(
    {"duiduihu", "jiangdui", "qidui", "longqidui", "qingyise", "daiyaojiu", "jingou"}
)
"""The hand-type items: 平胡 is listed when none of them is (*Fan*)."""
SITUATIONAL = frozenset({"zimo", "gangshanghua", "gangshangpao", "qiangganghu", "haidi"})
"""Items a 大叫 ignores (*End of the wall*), with 天胡 / 地胡."""
SEVEN_PAIRS = -2
"""``Reading.pair`` of the seven-pairs reading (no set, no single pair)."""
MAX_SEATS_OUT = 2


def suit_index(letter: Any, what: str = "extra.que") -> int:
    """``"m"``, ``"p"`` or ``"s"`` as 0, 1, 2 (InvalidCase otherwise)."""
    if letter not in SUIT_LETTERS:
        raise InvalidCase(f"{what} must be one of m, p, s, got {letter!r}")
    return SUIT_LETTERS.index(letter)


def void_tiles(counts: Sequence[int], que: int) -> int:
    """How many tiles of the void suit ``counts`` hold."""
    return sum(counts[que * 9 : que * 9 + 9])


def seven_pairs(counts: Sequence[int]) -> bool:
    """七对: fourteen concealed tiles in seven pairs (four equal tiles are two pairs)."""
    return sum(counts) == 14 and all(n % 2 == 0 for n in counts)


def seven_pairs_waits(counts: Sequence[int]) -> tuple[Tile, ...]:
    """The tile that makes thirteen concealed tiles seven pairs: six pairs and one single."""
    if sum(counts) != 13:
        return ()
    singles = [t for t, n in enumerate(counts) if n % 2]
    return tuple(singles) if len(singles) == 1 else ()


def _seats(value: Any, what: str) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or not all(
        isinstance(s, int) and not isinstance(s, bool) and 0 <= s <= 3 for s in value
    ):
        raise InvalidCase(f"{what} must be a list of seats 0–3, got {value!r}")
    if len(set(value)) != len(value):
        raise InvalidCase(f"{what} lists a seat twice")
    return tuple(value)


def _flag(extra: Mapping[str, Any], key: str) -> bool:
    value = extra.get(key, False)
    if not isinstance(value, bool):
        raise InvalidCase(f"extra.{key} must be true or false, got {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class Facts:
    """The ``extra`` facts of a chengma win (spec *Judge*), checked."""

    que: int
    out: tuple[int, ...] = ()
    after_kong: bool = False
    kong_money: int = 0
    co_winners: tuple[int, ...] = ()
    last_tile: bool = False
    first_turn: bool = False

    @classmethod
    def loose(cls, extra: Mapping[str, Any]) -> Facts:
        """The facts a live context (the engine's, a bot's) carries, without a void suit while
        none is chosen (``que`` -1: no void condition). The judge checks its cases with
        :meth:`of`."""
        if extra.get("que") in SUIT_LETTERS:
            return cls.of(extra)
        return cls.of({**extra, "que": "m"}).with_no_void()

    def with_no_void(self) -> Facts:
        return Facts(
            -1,
            self.out,
            self.after_kong,
            self.kong_money,
            self.co_winners,
            self.last_tile,
            self.first_turn,
        )

    @classmethod
    def of(cls, extra: Mapping[str, Any]) -> Facts:
        kong_money = extra.get("kong_money", 0)
        if not isinstance(kong_money, int) or isinstance(kong_money, bool) or kong_money < 0:
            raise InvalidCase(f"extra.kong_money must be an integer ≥ 0, got {kong_money!r}")
        return cls(
            que=suit_index(extra.get("que")),
            out=_seats(extra.get("out", []), "extra.out"),
            after_kong=_flag(extra, "after_kong"),
            kong_money=kong_money,
            co_winners=_seats(extra.get("co_winners", []), "extra.co_winners"),
            last_tile=_flag(extra, "last_tile"),
            first_turn=_flag(extra, "first_turn"),
        )


def transfer_recipient(discarder: int, winners: Sequence[int]) -> int:
    """呼叫转移 with several winners: the nearest winner after the discarder `[decision]`."""
    return min(winners, key=lambda s: (s - discarder) % 4)


FACTS: tuple[ExtraFact, ...] = (
    ExtraFact(
        "que",
        "choice",
        Label(N_("chengma", "缺门（定缺）"), N_("chengma", "胡家定缺的花色，手里不能有这门牌。")),
        default="s",
        choices=tuple((letter, label.name) for letter, label in SUITS.items()),
        on_ting=True,
    ),
    ExtraFact(
        "after_kong",
        "flag",
        Label(
            N_("chengma", "杠后打出的牌（杠上炮）"),
            N_("chengma", "点炮者杠后打出的这张（呼叫转移）。"),
        ),
        win_by=("discard",),
    ),
    ExtraFact(
        "last_tile",
        "flag",
        Label(N_("chengma", "牌墙最后一张"), N_("chengma", "胡的是牌墙最后一张（海底）。")),
    ),
    ExtraFact(
        "first_turn",
        "flag",
        Label(N_("chengma", "第一轮（天胡、地胡）"), N_("chengma", "第一轮就胡（天胡、地胡）。")),
    ),
    ExtraFact(
        "kong_money",
        "count",
        Label(N_("chengma", "这次杠收的钱（呼叫转移）"), N_("chengma", "杠上炮时转给胡家的杠钱。")),
        default=0,
        win_by=("discard",),
        requires="after_kong",
    ),
)
"""``extra`` of a chengma case (*Judge*); ``out`` and ``co_winners`` are not asked here."""


class ChengmaRules(HandRules):
    """``not_complete`` (four sets and a pair, or seven pairs), then ``void_suit``."""

    conditions: ClassVar[tuple[str, ...]] = ("not_complete", "void_suit")
    tiles_used: ClassVar[frozenset[Tile]] = frozenset(SUITED)
    has_chow: ClassVar[bool] = False
    has_cap: ClassVar[bool] = False
    """``cap`` is in fan and applied to each win here; the round's money is never capped."""

    # --- the case ---------------------------------------------------------------------------------

    extra_facts: ClassVar[tuple[ExtraFact, ...]] = FACTS

    def validate_extra(self, extra: Mapping[str, Any]) -> None:
        Facts.of(extra)

    def validate_win(self, ctx: WinContext) -> None:
        """The invalid inputs of *Judge: kind win* that need the whole case."""
        if ctx.treasure is not None or ctx.treasure_win:
            # *Judge: kind win*: "treasure must be null and treasure_win false" [decision].
            raise InvalidCase("chengma has no treasure: treasure must be null")
        facts = Facts.of(ctx.extra)
        self._check_melds(ctx.melds, facts.que)
        if ctx.winner in facts.out or (ctx.discarder is not None and ctx.discarder in facts.out):
            raise InvalidCase("the winner and the discarder cannot be out of the hand")
        if len(facts.out) > MAX_SEATS_OUT:
            raise InvalidCase("at most two seats can be out before a win")
        if facts.co_winners:
            if ctx.self_drawn:
                raise InvalidCase("co_winners only exist on a discard or a robbed kong")
            if {ctx.winner, ctx.discarder} & set(facts.co_winners) or set(facts.out) & set(
                facts.co_winners
            ):
                raise InvalidCase("co_winners cannot hold the winner, the discarder or an out seat")
        if facts.after_kong and ctx.win_by != "discard":
            raise InvalidCase("after_kong is only for a discard win")
        if facts.first_turn:
            if ctx.melds:
                raise InvalidCase("first_turn with a melded hand")
            if ctx.win_by in ("kong_draw", "rob_kong"):
                raise InvalidCase(f"first_turn with {ctx.win_by}")
            if ctx.win_by == "discard" and (
                ctx.discarder != ctx.dealer or ctx.winner == ctx.dealer
            ):
                raise InvalidCase("first_turn on a discard needs the dealer's first discard")

    def validate_ting(self, ctx: TingContext) -> None:
        self._check_melds(ctx.melds, Facts.of(ctx.extra).que)

    @staticmethod
    def _check_melds(melds: Sequence[Meld], que: int) -> None:
        for meld in melds:
            if meld.tiles[0] // 9 == que:
                raise InvalidCase("a meld of the void suit")

    # --- readings ---------------------------------------------------------------------------------

    def readings(self, ctx: WinContext) -> list[Reading]:
        """The four-sets readings and, for fourteen concealed tiles in pairs, the seven pairs."""
        counts = concealed_counts(ctx.concealed)
        found = readings_of(counts, ctx.win_tile, ctx.melds)
        if not ctx.melds and seven_pairs(counts):
            all_counts = tuple(counts)
            found.append(
                Reading(SEVEN_PAIRS, (), ctx.win_tile, -1, "special", all_counts, all_counts)
            )
        return found

    def special_waits(self, ctx: TingContext, counts: Sequence[int]) -> tuple[Tile, ...]:
        return seven_pairs_waits(counts) if not ctx.melds else ()

    def failure(self, ctx: WinContext, reading: Reading, facts: WinFacts) -> str | None:
        que = Facts.loose(ctx.extra).que
        if que >= 0 and void_tiles(reading.all_counts, que):
            return "void_suit"
        return None

    # --- fan --------------------------------------------------------------------------------------

    def hand_fan(self, ctx: WinContext, reading: Reading) -> dict[str, int]:
        """The items of the hand itself (no situational item): what a 大叫 counts."""
        options = ctx.options
        all_counts = reading.all_counts
        fan: dict[str, int] = {}
        fours = sum(1 for n in all_counts if n == 4)
        if reading.pair == SEVEN_PAIRS:
            if any(n == 4 for n in reading.counts):
                fan["longqidui"] = 3
                fours -= 1  # that four-of-a-kind is the 龙, not also a 根
            else:
                fan["qidui"] = 2
        else:
            pongs = all(kind == PONG for kind, _ in reading.sets)
            if pongs:
                jiang = all(n == 0 or t % 9 in (1, 4, 7) for t, n in enumerate(all_counts))
                if jiang and options.get("yaojiu_jiangdui", True):
                    fan["jiangdui"] = 3
                else:
                    fan["duiduihu"] = 1
                if len(ctx.melds) == 4:
                    fan["jingou"] = 1
            if options.get("yaojiu_jiangdui", True) and self._yaojiu(ctx.melds, reading):
                fan["daiyaojiu"] = 2
        if len({t // 9 for t, n in enumerate(all_counts) if n}) == 1:
            fan["qingyise"] = 2
        if not HAND_TYPES & fan.keys():
            fan = {"pinghu": 0, **fan}
        if fours:
            fan["gen"] = fours
        return fan

    @staticmethod
    def _yaojiu(melds: Sequence[Meld], reading: Reading) -> bool:
        """带幺九: every set and the pair hold a 1 or a 9."""
        if reading.pair % 9 not in (0, 8):
            return False
        for kind, first in reading.sets:
            ok = first % 9 in (0, 6) if kind == CHOW else first % 9 in (0, 8)
            if not ok:
                return False
        return all(m.tiles[0] % 9 in (0, 8) for m in melds)

    def fan(self, ctx: WinContext, reading: Reading) -> dict[str, int]:
        """Every item of the win: the hand's, then the situational ones; 天胡 / 地胡 replace all."""
        facts = Facts.loose(ctx.extra)
        if facts.first_turn and ctx.options.get("tiandihu", True):
            return {"tianhu" if ctx.winner == ctx.dealer else "dihu": 5}
        fan = self.hand_fan(ctx, reading)
        if ctx.win_by == "kong_draw":
            fan["gangshanghua"] = 1
        if facts.after_kong and ctx.win_by == "discard":
            fan["gangshangpao"] = 1
        if ctx.win_by == "rob_kong":
            fan["qiangganghu"] = 1
        if facts.last_tile and ctx.self_drawn:
            fan["haidi"] = 1
        if ctx.self_drawn and ctx.options.get("zimo", "jiadi") == "jiafan":
            fan["zimo"] = 1
        return fan

    # --- verdict and payments -----------------------------------------------------------------

    def judge_win(self, ctx: WinContext) -> WinVerdict:
        """The reading with the larger total; equal totals to the seven pairs (*Readings*)."""
        if ctx.win_tile not in ctx.concealed:
            raise InvalidCase("the winning tile must be among the concealed tiles")
        facts = WinFacts(self, ctx)
        latest = 0
        best: tuple[tuple[int, bool], dict[str, int]] | None = None
        for reading in self.readings(ctx):
            reason = self.failure(ctx, reading, facts)
            if reason is not None:
                latest = max(latest, self.conditions.index(reason))
                continue
            fan = self.fan(ctx, reading)
            rank = (sum(fan.values()), reading.pair == SEVEN_PAIRS)
            if best is None or rank > best[0]:
                best = (rank, fan)
        if best is None:
            return WinVerdict(legal=False, reason=self.conditions[latest])
        fan = best[1]
        total = sum(fan.values())
        shares = self.shares(ctx, fan, total)
        transfers = share_transfers(shares)
        return WinVerdict(
            legal=True,
            fan=fan,
            total=total,
            payments=nets(transfers),
            transfers=transfers,
            shares=tuple(shares),
        )

    def shares(self, ctx: WinContext, fan: Mapping[str, int], total: int) -> list[Share]:
        """*Payment*: the discarder alone pays the unit, or on a self-draw every other player
        still in pays the unit and one more base (自摸加底)."""
        base = int(ctx.options.get("base", 1))
        cap = ctx.options.get("cap", 3)
        offset = 0 if cap is None or total <= cap else cap - total
        items = tuple(fan.items())
        if not ctx.self_drawn:
            assert ctx.discarder is not None
            return [
                Share.make(
                    "doubling",
                    payer=ctx.discarder,
                    payee=ctx.winner,
                    base=base,
                    items=items,
                    offset=offset,
                )
            ]
        out = set(Facts.loose(ctx.extra).out)
        jiadi = ctx.options.get("zimo", "jiadi") == "jiadi"
        shares: list[Share] = []
        for seat in range(4):
            if seat == ctx.winner or seat in out:
                continue
            shares.append(
                Share.make(
                    "doubling", payer=seat, payee=ctx.winner, base=base, items=items, offset=offset
                )
            )
            if jiadi:
                shares.append(
                    Share.make(
                        "score", payer=seat, payee=ctx.winner, base=base, items=[("jiadi", 1)]
                    )
                )
        return shares

    def transfer(self, ctx: WinContext) -> tuple[Transfer, ...]:
        """呼叫转移 of a 杠上炮: the kong money passes from the discarder to this winner when this
        winner is the nearest after the discarder and the option is on."""
        facts = Facts.loose(ctx.extra)
        if not facts.after_kong or ctx.discarder is None or facts.kong_money <= 0:
            return ()
        if not ctx.options.get("hujiao_zhuanyi", True):
            return ()
        recipient = transfer_recipient(ctx.discarder, (ctx.winner, *facts.co_winners))
        if recipient != ctx.winner:
            return ()
        return (Transfer(ctx.discarder, ctx.winner, facts.kong_money),)

    def judge_answer(self, ctx: WinContext) -> dict[str, Any]:
        """The judge's answer, with ``transfer`` on a win after a kong."""
        answer = self.judge_win(ctx).as_json()
        if answer["legal"] and Facts.of(ctx.extra).after_kong:
            answer["transfer"] = list(nets(self.transfer(ctx)))
        return answer

    # --- kongs ------------------------------------------------------------------------------------

    def kong_payments(
        self,
        *,
        konger: int,
        meld: Meld,
        with_drawn: bool,
        out: Sequence[int],
        options: Mapping[str, Any],
    ) -> tuple[Transfer, ...]:
        """刮风下雨 (*Kong payments*): 直杠 2 × base from the discarder, 补杠 with the tile just
        drawn 1 × base and 暗杠 2 × base from every other player still in; 转手杠 nothing."""
        base = int(options.get("base", 1))
        if not meld.is_kong:
            return ()
        if meld.concealed:
            amount = 2 * base
        elif meld.added:
            if not with_drawn:
                return ()
            amount = base
        else:
            if meld.from_seat is None or meld.from_seat in out:
                return ()
            return (Transfer(meld.from_seat, konger, 2 * base),)
        return tuple(
            Transfer(seat, konger, amount)
            for seat in range(4)
            if seat != konger and seat not in out
        )

    def kong_transfers(
        self, *, konger: int, meld: Meld, options: Mapping[str, Any]
    ) -> tuple[Transfer, ...]:
        """Without the round (a judge's question): every player in, an add with the drawn tile."""
        return self.kong_payments(
            konger=konger, meld=meld, with_drawn=True, out=(), options=options
        )

    # --- the end of the wall ------------------------------------------------------------------

    def dajiao(
        self,
        *,
        seat: int,
        dealer: int,
        concealed: tuple[Tile, ...],
        melds: tuple[Meld, ...],
        que: int,
        options: Mapping[str, Any],
    ) -> int | None:
        """大叫: the largest total over the waits, each scored as a discard win with no situational
        item; None when the hand has no legal wait (没叫)."""
        extra = {"que": SUIT_LETTERS[que]}
        ting = TingContext(
            variant="chengma",
            dealer=dealer,
            seat=seat,
            concealed=concealed,
            melds=melds,
            options=options,
            extra=extra,
        )
        verdict = self.judge_ting(ting)
        if not verdict.ting_allowed:
            return None
        best = 0
        for tile in verdict.waits:
            ctx = WinContext(
                variant="chengma",
                dealer=dealer,
                winner=seat,
                concealed=tuple(sorted((*concealed, tile))),
                melds=melds,
                win_tile=tile,
                win_by="discard",
                discarder=(seat + 1) % 4,
                options=options,
                extra=extra,
            )
            win = self.judge_win(ctx)
            if win.legal:
                best = max(best, win.total)
        return best

    def settle(
        self, seats: Sequence[SettleSeat], options: Mapping[str, Any], dealer: int
    ) -> Settled:
        """查花猪, 查大叫, 退税 (*End of the wall*) for the players still in."""
        base = int(options.get("base", 1))
        cap = options.get("cap", 3)
        huazhu_units = int(options.get("huazhu", 16))
        status: list[str] = []
        dajiao: list[int | None] = []
        for index, seat in enumerate(seats):
            total: int | None = None
            if seat.won:
                status.append("won")
            elif void_tiles(concealed_counts(seat.concealed), seat.que):
                status.append("huazhu")
            else:
                total = self.dajiao(
                    seat=index,
                    dealer=dealer,
                    concealed=seat.concealed,
                    melds=seat.melds,
                    que=seat.que,
                    options=options,
                )
                status.append("ready" if total is not None else "not_ready")
            dajiao.append(total)

        def amount(index: int) -> int:
            total = dajiao[index]
            assert total is not None
            return int(base * 2 ** (total if cap is None else min(total, cap)))

        huazhu: list[Transfer] = []
        chajiao: list[Transfer] = []
        tuishui: list[Transfer] = []
        for payer in range(4):
            if status[payer] == "huazhu":
                for payee in range(4):
                    if status[payee] in ("ready", "not_ready"):
                        value = huazhu_units * base
                        if status[payee] == "ready":
                            value = max(value, amount(payee))
                        huazhu.append(Transfer(payer, payee, value))
            if status[payer] == "not_ready":
                for payee in range(4):
                    if status[payee] == "ready":
                        chajiao.append(Transfer(payer, payee, amount(payee)))
            if status[payer] in ("huazhu", "not_ready"):
                for income in seats[payer].kong_income:
                    tuishui.append(Transfer(payer, income.payer, income.amount))
        return Settled(
            status=tuple(status),
            dajiao=tuple(dajiao),
            huazhu=tuple(t for t in huazhu if t.amount > 0),
            chajiao=tuple(t for t in chajiao if t.amount > 0),
            tuishui=tuple(t for t in tuishui if t.amount > 0),
        )


@dataclass(frozen=True, slots=True)
class SettleSeat:
    """One seat at the end of the wall: won (out), or its hand, void suit and the kong money it
    still holds (each payment as a transfer to it)."""

    won: bool
    que: int
    concealed: tuple[Tile, ...] = ()
    melds: tuple[Meld, ...] = ()
    kong_income: tuple[Transfer, ...] = ()


@dataclass(frozen=True, slots=True)
class Settled:
    """The end-of-wall checks: each seat's status and 大叫, and each step's payments."""

    status: tuple[str, ...]
    dajiao: tuple[int | None, ...]
    huazhu: tuple[Transfer, ...]
    chajiao: tuple[Transfer, ...]
    tuishui: tuple[Transfer, ...]

    @property
    def transfers(self) -> tuple[Transfer, ...]:
        return self.huazhu + self.chajiao + self.tuishui

    def as_json(self) -> dict[str, Any]:
        return {
            "status": list(self.status),
            "dajiao": list(self.dajiao),
            "huazhu": list(nets(self.huazhu)),
            "chajiao": list(nets(self.chajiao)),
            "tuishui": list(nets(self.tuishui)),
            "payments": list(nets(self.transfers)),
        }
