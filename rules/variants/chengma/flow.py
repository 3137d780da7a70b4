"""成麻 Chengdu (血战到底): the round flow (spec ``chengma.md``).

Reads like its spec page: 108 tiles, no honours, no chow, no ting declaration; the wall is played
to its last tile. After the deal (and the optional 换三张) every seat chooses its void suit in
secret (定缺, a :class:`~rules.engine.state.ChoicePhase`), shown to all when all four chose; a
player holding a tile of their void suit may discard only such tiles (打缺) and never pongs or
kongs that suit. A win does not end the hand: the winner is out, the others play on until three
have won or the wall is empty; several seats may win on one discard (一炮多响). Kongs pay at once
(刮风下雨), a 杠上炮 moves that money to the winner (呼叫转移), a declined win or pong waits for
one's next draw (过手胡 / 过手碰), and a drawn wall is checked (查花猪, 查大叫, 退税).

Round data lives in ``state.extra`` (keys below); winning, fan, payments, kong payments and the
checks are :mod:`rules.variants.chengma.wins`'s, the same code the judge calls.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any, ClassVar

from rules.engine import core
from rules.engine.actions import Action, ChooseVoid, DeclareWin, ExchangeThree, Pass, Pong
from rules.engine.events import (
    Event,
    KongPaid,
    KongRobbed,
    MoneyMoved,
    SeatWon,
    TilesExchanged,
    TilesSwapped,
    VoidsChosen,
    WallChecked,
    encode,
)
from rules.engine.flow import Flow, TingMode, set_extra
from rules.engine.state import (
    ChoicePhase,
    ClaimPhase,
    RoundResult,
    RoundState,
    TurnPhase,
    replace,
    with_tile,
)
from rules.hand import Meld, Transfer, WinBy, WinContext, WinVerdict
from rules.payments import nets
from rules.settlement import kong_name
from rules.shapes import is_complete
from rules.tiles import SUITED, Tile, tile_name
from rules.variants.chengma.wins import (
    SUIT_LETTERS,
    ChengmaRules,
    Settled,
    SettleSeat,
    seven_pairs,
    transfer_recipient,
    void_tiles,
)
from rules.wall import Drbg

QUE = "que"
"""The four void suits (``"m"``/``"p"``/``"s"``), once all four have chosen."""
OUT = "out"
"""The seats out of the hand (they have won), in the order they won."""
WINS = "wins"
"""Each win: ``{"seat", "win_by", "discarder", "tile", "tiles", "verdict"}``."""
TURN_KONGS = "turn_kongs"
"""``(seat, indices)``: the kongs ``seat`` made since the last draw from the live end (their
payments' indices in ``state.kong_transfers``), for 杠上炮 and 呼叫转移."""
MOVED = "moved"
"""The 呼叫转移 transfers (konger → winner)."""
MOVED_KONGS = "moved_kongs"
"""Indices in ``state.kong_transfers`` whose money 呼叫转移 passed on (never returned)."""
PASSED_WIN = "passed_win"
"""Per seat, the largest total of a win it declined since its last draw (过手胡), or None."""
PASSED_PONG = "passed_pong"
"""Per seat, the tile kinds it declined to pong since its last draw (过手碰)."""
NEXT_DEALER = "next_dealer"
"""Fixed by the first win: its winner, or the discarder of a first discard with several winners."""
SETTLED = "settled"
"""The end-of-wall checks, when the wall ran out with two or more seats in: ``status``,
``dajiao`` and the transfers of each step (``huazhu``, ``chajiao``, ``tuishui``)."""
KONG_LOG = "kong_log"
"""Each kong paid: ``{"seat", "kong", "tile", "indices"}`` (its payments in ``kong_transfers``)."""
DINGQUE = "dingque"
HUANSANZHANG = "huansanzhang"
SEATS = 4
WINNERS_TO_END = 3

_RULES = ChengmaRules()


def suit_counts(concealed: Sequence[Tile]) -> list[int]:
    """Tiles held per suit (万, 筒, 条)."""
    counts = [0, 0, 0]
    for tile in concealed:
        counts[tile // 9] += 1
    return counts


def exchange_choices(concealed: Sequence[Tile]) -> list[tuple[Tile, Tile, Tile]]:
    """Every three tiles of one suit a seat may pass on (换三张), the timeout's pick first: the
    three lowest of the suit held fewest among the suits with at least three (ties m, p, s)."""
    counts = suit_counts(concealed)
    suits = sorted((s for s in range(3) if counts[s] >= 3), key=lambda s: (counts[s], s))
    found: list[tuple[Tile, Tile, Tile]] = []
    for suit in suits:
        tiles = sorted(t for t in concealed if t // 9 == suit)
        for combo in sorted(set(combinations(tiles, 3))):
            found.append((combo[0], combo[1], combo[2]))
    return found


def voids(state: RoundState) -> tuple[str, ...] | None:
    """The four void suits once revealed, else None."""
    que = state.extra.get(QUE)
    return tuple(que) if que else None


def void_of(state: RoundState, seat: int) -> int | None:
    que = voids(state)
    return SUIT_LETTERS.index(que[seat]) if que else None


def seats_out(state: RoundState) -> tuple[int, ...]:
    return tuple(state.extra.get(OUT, ()))


def win_json(record: Mapping[str, Any]) -> dict[str, Any]:
    """A win as every viewer may see it (the hand is laid down, 推倒)."""
    verdict: WinVerdict = record["verdict"]
    return {
        "seat": record["seat"],
        "win_by": record["win_by"],
        "discarder": record["discarder"],
        "tile": tile_name(record["tile"]),
        "tiles": [tile_name(t) for t in record["tiles"]],
        "fan": dict(verdict.fan),
        "total": verdict.total,
        "payments": list(verdict.payments),
    }


class ChengmaFlow(Flow):
    tile_kinds: ClassVar[tuple[Tile, ...]] = SUITED
    stacks_per_seat: ClassVar[int] = 14
    claim_priority: ClassVar[dict[str, int]] = {"declare_win": 0, "exposed_kong": 1, "pong": 2}
    has_chow: ClassVar[bool] = False
    ting_mode: ClassVar[TingMode] = "none"
    default_reserve_stacks: ClassVar[int] = 0
    seats_leave: ClassVar[bool] = True
    several_winners: ClassVar[bool] = True
    continues_after_win: ClassVar[bool] = True
    deal_passes_in_seat_order: ClassVar[bool] = False
    """The winner deals next (*Dealer*): the deal jumps seats, there is no wind round."""

    def shape_filters(self, state: RoundState) -> bool:
        """Seven pairs win too: the engine asks the hand rules (after :meth:`may_win_on`'s
        cheap test)."""
        return False

    # --- deal, 换三张 and 定缺 ----------------------------------------------------------------

    def after_deal(self, state: RoundState, out: list[Event]) -> RoundState:
        """The deal is followed by 换三张 (when on) or at once by 定缺."""
        if state.options.get("huansanzhang", False):
            return self._open_choice(state, HUANSANZHANG)
        return self._open_choice(state, DINGQUE)

    def _open_choice(self, state: RoundState, name: str) -> RoundState:
        offers: list[tuple[Action, ...]] = []
        for seat, me in enumerate(state.seats):
            if name == DINGQUE:
                counts = suit_counts(me.concealed)
                order = sorted(range(3), key=lambda s: (counts[s], s))
                offers.append(tuple(ChooseVoid(seat=seat, suit=SUIT_LETTERS[s]) for s in order))
            else:
                offers.append(
                    tuple(ExchangeThree(seat=seat, tiles=t) for t in exchange_choices(me.concealed))
                )
        phase = ChoicePhase(name=name, asked=(0, 1, 2, 3), offers=tuple(offers))
        return replace(state, phase=phase)

    def resolve_choice(self, state: RoundState, phase: ChoicePhase, out: list[Event]) -> RoundState:
        if phase.name == HUANSANZHANG:
            return self._exchange(state, phase, out)
        chosen = tuple(answer.suit for answer in phase.answers)
        out.append(VoidsChosen(voids=chosen))
        state = set_extra(state, **{QUE: chosen})
        return replace(state, phase=TurnPhase(seat=state.dealer, drawn=True, source="deal"))

    def _exchange(self, state: RoundState, phase: ChoicePhase, out: list[Event]) -> RoundState:
        """The direction is drawn from the round's generator; the tiles move at once."""
        drbg = Drbg(state.seed, state.drbg_counter)
        direction = drbg.randbelow(3) + 1
        state = replace(state, drbg_counter=drbg.counter)
        out.append(TilesExchanged(direction=direction))
        given = [tuple(answer.tiles) for answer in phase.answers]
        for seat in range(SEATS):
            me = state.seats[seat]
            received = given[(seat - direction) % SEATS]
            rest = list(me.concealed)
            for tile in given[seat]:
                rest.remove(tile)
            concealed = tuple(sorted([*rest, *received]))
            drawn = me.drawn if me.drawn is not None and me.drawn in rest else None
            state = state.with_seat(seat, concealed=concealed, drawn=drawn)
            out.append(TilesSwapped(seat=seat, given=given[seat], received=received))
        return self._open_choice(state, DINGQUE)

    # --- the wall -------------------------------------------------------------------------------

    def live_left(self, state: RoundState) -> int:
        """No reserve: the wall is played to its last tile (replacements included)."""
        return state.wall_left

    def after_draw(
        self, state: RoundState, seat: int, position: int, out: list[Event]
    ) -> RoundState:
        """A draw ends the seat's 过手胡 / 过手碰; a draw from the live end starts a new turn's
        kong count (杠上炮)."""
        phase = state.phase
        changes: dict[str, Any] = {}
        passed_win = state.extra.get(PASSED_WIN)
        if passed_win and passed_win[seat] is not None:
            changes[PASSED_WIN] = _set(passed_win, seat, None)
        passed_pong = state.extra.get(PASSED_PONG)
        if passed_pong and passed_pong[seat]:
            changes[PASSED_PONG] = _set(passed_pong, seat, ())
        if isinstance(phase, TurnPhase) and phase.source == "draw" and TURN_KONGS in state.extra:
            changes[TURN_KONGS] = None
        return set_extra(state, **changes) if changes else state

    def end_of_wall(self, state: RoundState, out: list[Event]) -> RoundState:
        """荒庄: a draw is due and the wall is empty; with two or more seats in, the checks."""
        settled = self._settle(state)
        out.append(
            WallChecked(
                status=settled.status,
                dajiao=settled.dajiao,
                huazhu=settled.huazhu,
                chajiao=settled.chajiao,
                tuishui=settled.tuishui,
            )
        )
        record = {
            "status": settled.status,
            "dajiao": settled.dajiao,
            "huazhu": settled.huazhu,
            "chajiao": settled.chajiao,
            "tuishui": settled.tuishui,
        }
        return self._finish(set_extra(state, **{SETTLED: record}), settled, out)

    def _settle(self, state: RoundState) -> Settled:
        out = seats_out(state)
        moved = set(state.extra.get(MOVED_KONGS, ()))
        que = voids(state) or ("m", "m", "m", "m")
        seats = []
        for seat, me in enumerate(state.seats):
            income = tuple(
                t for i, t in enumerate(state.kong_transfers) if t.payee == seat and i not in moved
            )
            seats.append(
                SettleSeat(
                    won=seat in out,
                    que=SUIT_LETTERS.index(que[seat]),
                    concealed=me.concealed,
                    melds=me.melds,
                    kong_income=income,
                )
            )
        return _RULES.settle(seats, state.options, state.dealer)

    # --- seats in and out -----------------------------------------------------------------------

    def in_hand(self, state: RoundState, seat: int) -> bool:
        return seat not in seats_out(state)

    def next_seat(self, state: RoundState, seat: int) -> int:
        """The next seat still in the hand."""
        out = seats_out(state)
        for step in (1, 2, 3):
            following = (seat + step) % SEATS
            if following not in out:
                return following
        return (seat + 1) % SEATS

    def next_dealer(self, state: RoundState, winner: int | None) -> int:
        """The first winner deals; a first discard with several winners: its discarder; no win:
        the dealer stays (*Dealer*)."""
        fixed = state.extra.get(NEXT_DEALER)
        return state.dealer if fixed is None else int(fixed)

    # --- facts for the hand rules ----------------------------------------------------------------

    def context_extra(self, state: RoundState, seat: int) -> dict[str, Any]:
        que = voids(state)
        return {"que": que[seat] if que else "m", "out": seats_out(state)}

    def win_extra(self, state: RoundState, seat: int, discarder: int | None) -> dict[str, Any]:
        extra: dict[str, Any] = {
            "last_tile": state.wall_left == 0,
            "first_turn": self._first_turn(state, seat, discarder),
        }
        money = self._after_kong_money(state, discarder)
        if money is not None:
            extra["after_kong"] = True
            extra["kong_money"] = money
        return extra

    @staticmethod
    def _first_turn(state: RoundState, seat: int, discarder: int | None) -> bool:
        """天胡 / 地胡: no meld on the table; the dealer on the tiles dealt, another seat before
        its own first discard, by self-draw or on the dealer's first discard."""
        if any(s.melds for s in state.seats):
            return False
        phase = state.phase
        if seat == state.dealer:
            return discarder is None and isinstance(phase, TurnPhase) and phase.source == "deal"
        if not state.seats[seat].first_turn:
            return False
        if discarder is None:
            return True
        return discarder == state.dealer and len(state.seats[discarder].discards) == 1

    @staticmethod
    def _after_kong_money(state: RoundState, discarder: int | None) -> int | None:
        """杠上炮: the discard is the discarder's first after its kong(s) this turn; the money
        they collected (None: not after a kong)."""
        if discarder is None:
            return None
        turn = state.extra.get(TURN_KONGS)
        if not turn or turn[0] != discarder:
            return None
        phase = state.phase
        if isinstance(phase, ClaimPhase) and phase.kind == "rob_kong":
            return None
        moved = set(state.extra.get(MOVED_KONGS, ()))
        return int(sum(state.kong_transfers[i].amount for i in turn[1] if i not in moved))

    # --- what is offered -------------------------------------------------------------------------

    def discard_allowed(self, state: RoundState, seat: int, tile: Tile, *, ting: bool) -> bool:
        """打缺: while a seat holds a tile of its void suit, only such tiles may go."""
        que = void_of(state, seat)
        if que is None or ting:
            return not ting
        if void_tiles(state.seats[seat].counts(), que):
            return tile // 9 == que
        return True

    def meld_allowed(
        self, state: RoundState, seat: int, melds: tuple[Meld, ...], concealed_left: int
    ) -> bool:
        """No pong or kong of the void suit; nothing on the last tile (nothing is left to draw);
        no pong of a kind declined since one's last draw (过手碰)."""
        if state.wall_left <= 0:
            return False
        que = void_of(state, seat)
        if que is not None and any(m.tiles[0] // 9 == que for m in melds):
            return False
        last = melds[-1] if melds else None
        passed = state.extra.get(PASSED_PONG)
        if last is not None and last.kind == "pong" and passed and last.from_seat is not None:
            return last.tiles[0] not in passed[seat]
        return True

    def may_win_on(
        self, state: RoundState, seat: int, tile: Tile, discarder: int, win_by: WinBy
    ) -> bool:
        """A cheap shape test first; 过手胡: after declining a win, only a larger one."""
        counts = state.seats[seat].counts()
        counts[tile] += 1
        if not (is_complete(counts) or (not state.seats[seat].melds and seven_pairs(counts))):
            return False
        passed = state.extra.get(PASSED_WIN)
        if not passed or passed[seat] is None:
            return True
        verdict = _RULES.judge_win(self._claim_context(state, seat, tile, discarder, win_by))
        return verdict.legal and verdict.total > passed[seat]

    def self_draw_context(self, state: RoundState, seat: int) -> WinContext | None:
        """A self-drawn win needs a complete hand: the cheap test first."""
        ctx = super().self_draw_context(state, seat)
        if ctx is None:
            return None
        counts = [0] * 34
        for t in ctx.concealed:
            counts[t] += 1
        if is_complete(counts) or (not ctx.melds and seven_pairs(counts)):
            return ctx
        return None

    def _claim_context(
        self,
        state: RoundState,
        seat: int,
        tile: Tile,
        discarder: int,
        win_by: WinBy,
        extra: Mapping[str, Any] | None = None,
    ) -> WinContext:
        concealed = with_tile(state.seats[seat].concealed, tile)
        return core.win_context(
            state,
            seat,
            tile=tile,
            win_by=win_by,
            concealed=concealed,
            discarder=discarder,
            extra=extra,
        )

    def on_claim_answered(self, state: RoundState, phase: ClaimPhase, action: Action) -> RoundState:
        """过手胡 / 过手碰: a declined win or pong is remembered until the seat's next draw."""
        seat = action.seat
        offers = phase.offers[seat]
        changes: dict[str, Any] = {}
        if not isinstance(action, DeclareWin) and any(isinstance(a, DeclareWin) for a in offers):
            win_by: WinBy = "rob_kong" if phase.kind == "rob_kong" else "discard"
            ctx = self._claim_context(state, seat, phase.tile, phase.discarder, win_by)
            total = _RULES.judge_win(ctx).total
            passed = state.extra.get(PASSED_WIN) or (None, None, None, None)
            old = passed[seat]
            changes[PASSED_WIN] = _set(passed, seat, total if old is None else max(old, total))
        if isinstance(action, Pass) and any(isinstance(a, Pong) for a in offers):
            passed_pong = state.extra.get(PASSED_PONG) or ((), (), (), ())
            changes[PASSED_PONG] = _set(passed_pong, seat, (*passed_pong[seat], phase.tile))
        return set_extra(state, **changes) if changes else state

    # --- kongs: 刮风下雨 -------------------------------------------------------------------------

    def pay_kong(
        self, state: RoundState, seat: int, meld: Meld, *, with_drawn: bool, out: list[Event]
    ) -> RoundState:
        """Paid at once by the players still in (an added kong once nobody robbed it)."""
        transfers = _RULES.kong_payments(
            konger=seat,
            meld=meld,
            with_drawn=with_drawn,
            out=seats_out(state),
            options=state.options,
        )
        start = len(state.kong_transfers)
        indices = tuple(range(start, start + len(transfers)))
        turn = state.extra.get(TURN_KONGS)
        if turn and turn[0] == seat:
            indices = (*turn[1], *indices)
        state = replace(state, kong_transfers=state.kong_transfers + transfers)
        name = kong_name(meld)
        out.append(KongPaid(seat=seat, kong=name, tile=meld.tiles[0], transfers=transfers))
        log = {
            "seat": seat,
            "kong": name,
            "tile": meld.tiles[0],
            "indices": indices[-len(transfers) :] if transfers else (),
        }
        return set_extra(
            state,
            **{TURN_KONGS: (seat, indices), KONG_LOG: (*state.extra.get(KONG_LOG, ()), log)},
        )

    # --- wins: 血战到底 ---------------------------------------------------------------------------

    def after_win(
        self,
        state: RoundState,
        seat: int,
        ctx: WinContext,
        verdict: WinVerdict,
        out: list[Event],
    ) -> RoundState:
        """A self-drawn win: the winner is out; the next seat still in draws."""
        state = self._record_win(state, seat, ctx, verdict, out, first_dealer=seat)
        return self._play_on(state, seat, out)

    def take_wins(
        self, state: RoundState, phase: ClaimPhase, wins: list[Action], out: list[Event]
    ) -> RoundState:
        """一炮多响: each seat that claimed wins, paid by the discarder separately; the nearest
        after the discarder takes the tile (and a 呼叫转移); play goes on after the last."""
        discarder, tile = phase.discarder, phase.tile
        seats = sorted((a.seat for a in wins), key=lambda s: (s - discarder) % SEATS)
        win_by: WinBy = "rob_kong" if phase.kind == "rob_kong" else "discard"
        money = self._after_kong_money(state, discarder) if win_by == "discard" else None
        if win_by == "rob_kong":
            konger = state.seats[discarder]
            state = state.with_seat(discarder, concealed=konger.without(tile), drawn=None)
            for seat in seats:
                out.append(KongRobbed(robber=seat, konger=discarder, tile=tile, by="declare_win"))
        else:
            rows = state.seats[discarder].discards
            state = state.with_seat(
                discarder, discards=(*rows[:-1], replace(rows[-1], claimed=True))
            )
        contexts = []
        for seat in seats:
            co = [s for s in seats if s != seat]
            contexts.append(
                self._claim_context(state, seat, tile, discarder, win_by, {"co_winners": co})
            )
        first_dealer = seats[0] if len(seats) == 1 else discarder
        for index, (seat, ctx) in enumerate(zip(seats, contexts, strict=True)):
            verdict = _RULES.judge_win(ctx)
            if index == 0:  # the one tile joins the nearest winner's hand
                state = state.with_seat(seat, concealed=ctx.concealed)
            state = self._record_win(state, seat, ctx, verdict, out, first_dealer=first_dealer)
        if money and state.options.get("hujiao_zhuanyi", True):
            state = self._move_kong_money(
                state, discarder, transfer_recipient(discarder, seats), out
            )
        return self._play_on(state, seats[-1], out)

    def _record_win(
        self,
        state: RoundState,
        seat: int,
        ctx: WinContext,
        verdict: WinVerdict,
        out: list[Event],
        *,
        first_dealer: int,
    ) -> RoundState:
        me = state.seats[seat]
        record = {
            "seat": seat,
            "win_by": ctx.win_by,
            "discarder": ctx.discarder,
            "tile": ctx.win_tile,
            "tiles": tuple(sorted(ctx.concealed)),
            "verdict": verdict,
        }
        changes: dict[str, Any] = {
            OUT: (*seats_out(state), seat),
            WINS: (*state.extra.get(WINS, ()), record),
        }
        if NEXT_DEALER not in state.extra:
            changes[NEXT_DEALER] = first_dealer
        out.append(
            SeatWon(
                seat=seat,
                tile=ctx.win_tile,
                win_by=ctx.win_by,
                discarder=ctx.discarder,
                fan=dict(verdict.fan),
                total=verdict.total,
                tiles=tuple(sorted(ctx.concealed)),
                melds=me.melds,
                payments=verdict.payments,
                transfers=verdict.transfers,
            )
        )
        state = state.with_seat(seat, drawn=None)
        return set_extra(state, **changes)

    def _move_kong_money(
        self, state: RoundState, konger: int, winner: int, out: list[Event]
    ) -> RoundState:
        """呼叫转移: the money of the konger's kongs this turn passes to the winner."""
        turn = state.extra.get(TURN_KONGS)
        assert turn
        assert turn[0] == konger
        moved = set(state.extra.get(MOVED_KONGS, ()))
        fresh = tuple(i for i in turn[1] if i not in moved)
        amount = sum(state.kong_transfers[i].amount for i in fresh)
        if amount <= 0:
            return state
        transfer = Transfer(konger, winner, amount)
        out.append(MoneyMoved(transfers=(transfer,)))
        return set_extra(
            state,
            **{
                MOVED: (*state.extra.get(MOVED, ()), transfer),
                MOVED_KONGS: (*state.extra.get(MOVED_KONGS, ()), *fresh),
            },
        )

    def _play_on(self, state: RoundState, after: int, out: list[Event]) -> RoundState:
        """Three winners end the hand (no checks); else the next seat still in after ``after``
        draws (the wall's end decides there)."""
        if len(seats_out(state)) >= WINNERS_TO_END:
            return self._finish(state, None, out)
        return core.start_turn(state, self.next_seat(state, after), out)

    def _finish(self, state: RoundState, settled: Settled | None, out: list[Event]) -> RoundState:
        """The round's result: every win, every kong payment and 呼叫转移, the checks."""
        records = state.extra.get(WINS, ())
        win_transfers = tuple(t for r in records for t in r["verdict"].transfers)
        kong_transfers = state.kong_transfers + tuple(state.extra.get(MOVED, ()))
        settle = settled.transfers if settled is not None else ()
        transfers = win_transfers + kong_transfers + settle
        first = records[0] if records else None
        result = RoundResult(
            winner=first["seat"] if first else None,
            win_by=first["win_by"] if first else None,
            discarder=first["discarder"] if first else None,
            win_tile=first["tile"] if first else None,
            verdict=first["verdict"] if first else None,
            win_transfers=win_transfers,
            kong_transfers=kong_transfers,
            transfers=transfers,
            nets=nets(transfers),
            next_dealer=self.next_dealer(state, None),
        )
        return core.end_round(state, result, result.verdict, out)

    # --- what each viewer sees -------------------------------------------------------------------

    def seat_view_extra(self, state: RoundState, seat: int, *, shown: bool) -> dict[str, Any]:
        """The void suit once all four chose (before: only one's own pending choice); whether the
        seat is out, and its win laid down."""
        que = voids(state)
        view: dict[str, Any] = {"que": que[seat] if que else None, "out": seat in seats_out(state)}
        phase = state.phase
        if shown and que is None and isinstance(phase, ChoicePhase) and phase.name == DINGQUE:
            answer = phase.answers[seat]
            view["que_chosen"] = answer.suit if answer is not None else None
        return view

    def table_view_extra(self, state: RoundState) -> dict[str, Any]:
        """Public: the void suits (once revealed), the wins so far with their hands, every kong
        payment and 呼叫转移, and the end-of-wall checks."""
        return {
            "voids": list(voids(state) or ()) or None,
            "wins": [win_json(r) for r in state.extra.get(WINS, ())],
            "kong_payments": encode("transfers", state.kong_transfers),
            "moved": encode("transfers", tuple(state.extra.get(MOVED, ()))),
            "settled": _settled_json(state.extra.get(SETTLED)),
        }

    def settlement_lines(self, state: RoundState) -> list[dict[str, Any]] | None:
        """Each win's shares, each kong payment (with its kong), each 呼叫转移 and each check."""
        return settlement_lines(state)


def settlement_lines(state: RoundState) -> list[dict[str, Any]]:
    """The ledger of a chengma round, one labelled line per payment: each win's shares (``win``,
    with its ``winner``), each kong payment (``kong``), each 呼叫转移 (``zhuanyi``) and each
    payment of the checks (``huazhu``, ``chajiao``, ``tuishui``)."""
    from rules.settlement import share_json

    lines: list[dict[str, Any]] = []
    for record in state.extra.get(WINS, ()):
        for share in record["verdict"].shares:
            line = share_json(share)
            line["winner"] = record["seat"]
            line["win_by"] = record["win_by"]
            line["total"] = record["verdict"].total
            lines.append(line)
    for number, log in enumerate(state.extra.get(KONG_LOG, ()), 1):
        for index in log["indices"]:
            line = _line("kong", state.kong_transfers[index])
            line["kong"] = log["kong"]
            line["tiles"] = [tile_name(log["tile"])] * 4
            line["kong_index"] = number
            lines.append(line)
    for transfer in state.extra.get(MOVED, ()):
        lines.append(_line("zhuanyi", transfer))
    settled = state.extra.get(SETTLED)
    if settled is not None:
        for step in ("huazhu", "chajiao", "tuishui"):
            lines.extend(_line(step, t) for t in settled[step])
    return lines


def _settled_json(settled: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The checks as the table shows them: statuses, 大叫 and each step's nets."""
    if settled is None:
        return None
    out: dict[str, Any] = {"status": list(settled["status"]), "dajiao": list(settled["dajiao"])}
    total = [0, 0, 0, 0]
    for step in ("huazhu", "chajiao", "tuishui"):
        step_nets = nets(settled[step])
        out[step] = list(step_nets)
        total = [a + b for a, b in zip(total, step_nets, strict=True)]
    out["payments"] = total
    return out


def _line(kind: str, transfer: Transfer) -> dict[str, Any]:
    return {
        "kind": kind,
        "payer": transfer.payer,
        "payee": transfer.payee,
        "amount": transfer.amount,
    }


def _set(values: Sequence[Any], seat: int, value: Any) -> tuple[Any, ...]:
    items = list(values)
    items[seat] = value
    return tuple(items)
