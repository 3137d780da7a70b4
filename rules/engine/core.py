"""The round as a state machine: :func:`new_round`, :func:`legal_actions`, :func:`apply`
(spec ``README.md``, *The round, common to all variants*).

The core knows the flow every variant shares — deal, draw, discard, claim windows, kongs with
replacement draws, robbing an added kong, ting locks, the end of the round — and asks the round's
variant (``state.variant``, a :class:`~rules.variant.Variant` handed to :func:`new_round`) for
everything regional: its flow (``state.variant.flow``: claim priority, what is offered, the
treasure, the reserve, the next dealer) and its hand rules (``state.variant.rules``). Winning and
scoring are never computed here: the engine asks the hand rules exactly what the judge asks. The
core never imports a variant.

States are immutable values. Functions named ``_verb(state, …, out)`` return the next state and
append events to ``out``; they never change their input. Every decision a state waits for lists
its offers (``RoundState.offers`` for a turn, ``ClaimPhase.offers`` for a claim window),
computed once when :func:`apply` (or :func:`new_round`) hands the state out:
:func:`legal_actions` reads them and :func:`apply` checks an action against them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, get_args

from rules.engine.actions import (
    Action,
    AddedKong,
    Chow,
    ConcealedKong,
    DeclareWin,
    Discard,
    ExposedKong,
    Pass,
    Pong,
    SelfDrawWin,
)
from rules.engine.events import (
    ClaimWindowOpened,
    Dealt,
    DiceRolled,
    Discarded,
    Drew,
    Event,
    KongRobbed,
    Melded,
    RoundEnded,
    RoundStarted,
    TurnStarted,
)
from rules.engine.state import (
    ChoicePhase,
    ClaimPhase,
    DiscardRecord,
    EndedPhase,
    RoundResult,
    RoundState,
    SeatState,
    TurnPhase,
    TurnSource,
    replace,
    replace_seat,
    with_tile,
)
from rules.errors import (
    ClaimNotAllowed,
    HandLocked,
    IllegalAction,
    NotYourTurn,
    RoundOver,
    TileNotHeld,
)
from rules.hand import Meld, TingContext, Transfer, WinBy, WinContext
from rules.payments import cap_transfers, nets
from rules.shapes import is_complete, shape_waits
from rules.tiles import EAST, Tile
from rules.wall import Drbg, build_wall

if TYPE_CHECKING:
    from rules.engine.flow import Flow
    from rules.variant import Variant

SEATS = 4


@dataclass(frozen=True, slots=True)
class StageEnd(Event):
    """Not an event of the round: inside one ``apply``, the end of a stage the others must be
    shown on its own, with the round as it stood then (``state``): a claim window nobody was
    asked in. :func:`apply` drops it; :func:`apply_staged` cuts there."""

    state: RoundState
    kind: ClassVar[str] = "stage_end"


# --- starting a round ---------------------------------------------------------------------------


def new_round(
    *,
    variant: Variant,
    seed: bytes,
    dealer: int,
    options: Mapping[str, Any] | None = None,
    round_wind: Tile = EAST,
    lianzhuang: int = 0,
) -> tuple[RoundState, list[Event]]:
    """Shuffle, roll, commit and deal a round of ``variant`` (spec README, items 2–3); the
    dealer is to act. ``options`` are checked against the variant's and merged with its defaults.

    ``round_wind`` and ``lianzhuang`` (the dealer's consecutive stays, 連莊) come from the match
    (Taiwan's four wind rounds, ``taiwan16.md``); the count is kept in ``state.extra`` only when
    non-zero, so that the other variants' states are unchanged."""
    flow = variant.flow
    setup = build_wall(seed, flow.tile_kinds, dealer)
    dealt, live = flow.deal(setup, dealer)
    seats = tuple(
        SeatState(
            concealed=tuple(sorted(tiles)),
            dealt=tiles,
            drawn=tiles[-1] if seat == dealer else None,
        )
        for seat, tiles in enumerate(dealt)
    )
    state = RoundState(
        variant=variant,
        options=variant.validate_options(options or {}),
        seed=seed,
        drbg_counter=setup.drbg_counter,
        dealer=dealer,
        round_wind=round_wind,
        wall=setup.wall,
        live=live,
        far=0,
        dice=setup.dice,
        break_point=setup.break_point,
        salt=setup.salt,
        commitment=setup.commitment,
        seats=seats,
        phase=TurnPhase(seat=dealer, drawn=True, source="deal"),
        reserve_stacks=flow.reserve_stacks(0),
        extra={"lianzhuang": lianzhuang} if lianzhuang else {},
    )
    out: list[Event] = [
        RoundStarted(
            variant=variant.key,
            dealer=dealer,
            round_wind=round_wind,
            dice=setup.dice,
            break_seat=setup.break_point.seat,
            break_stack=setup.break_point.stack,
            commitment=setup.commitment,
            wall_size=len(setup.wall),
        ),
        *(Dealt(seat=seat, tiles=tiles) for seat, tiles in enumerate(dealt)),
        TurnStarted(seat=dealer),
    ]
    state = flow.after_deal(state, out)
    return with_offers(_run_automatic(state, out)), out


def seats_to_act(state: RoundState) -> list[int]:
    """Seats that must act now (for deadlines): the seat whose turn it is, or every asked seat
    that has not answered the claim window yet, nearest after the discarder first."""
    phase = state.phase
    if isinstance(phase, TurnPhase):
        return [phase.seat]
    if isinstance(phase, ClaimPhase | ChoicePhase):
        return [s for s in phase.asked if phase.answers[s] is None]
    return []


# --- legal actions ------------------------------------------------------------------------------


def legal_actions(state: RoundState, seat: int) -> list[Action]:
    """Exactly the actions ``seat`` may take now (what the UI shows as buttons)."""
    return list(_offers(state, seat))


def _offers(state: RoundState, seat: int) -> Sequence[Action]:
    """The phase's offers to ``seat``: listed when the state was handed out (a state built by
    hand, or read from an older snapshot, has its turn's offers computed here instead)."""
    phase = state.phase
    if isinstance(phase, ClaimPhase | ChoicePhase):
        if seat in phase.asked and phase.answers[seat] is None:
            return phase.offers[seat]
        return ()
    if isinstance(phase, TurnPhase) and phase.seat == seat:
        offers = state.offers
        return offers if offers is not None else turn_offers(state)
    return ()


def with_offers(state: RoundState, **changes: Any) -> RoundState:
    """``state`` (with ``changes``) as it is handed out: a turn lists its offers.

    The one copy :func:`apply` makes of the state it has built. The offers
    (:attr:`RoundState.offers`) are a function of the rest of the state, listed once so that
    :func:`legal_actions` and the next :func:`apply` read them instead of computing them again;
    offers already listed belong to this very state (a changed copy drops them)."""
    if isinstance(state.phase, TurnPhase):
        offers = state.offers
        changes["offers"] = offers if offers is not None else turn_offers(state)
    return replace(state, **changes) if changes else state


def turn_offers(state: RoundState) -> tuple[Action, ...]:
    """The actions of the seat whose turn it is (its pre-draw choices before the draw)."""
    phase = state.phase
    assert isinstance(phase, TurnPhase)
    if not phase.drawn:
        return tuple(state.variant.flow.predraw_actions(state, phase.seat))
    return tuple(_turn_actions(state, phase.seat))


def _turn_actions(state: RoundState, seat: int) -> list[Action]:
    v = state.variant.flow
    actions: list[Action] = []
    me = state.seats[seat]
    # Only a ready hand can win with a treasure: the others need a complete shape first.
    fast = v.shape_filters(state)
    counts = me.counts()  # one fresh copy for the whole turn (read-only below but in _discards)
    if (me.ting or not fast or is_complete(counts)) and self_draw_verdict_ok(state, seat):
        actions.append(_SELF_DRAW_WINS[seat])
    actions += _own_kongs(state, seat, counts)
    actions += v.extra_turn_actions(state, seat)
    actions += _discards(state, seat, counts)
    return actions


_SELF_DRAW_WINS = tuple(SelfDrawWin(seat=s) for s in range(SEATS))


def self_draw_verdict_ok(state: RoundState, seat: int) -> bool:
    """Whether the variant's hand rules accept a self-drawn win now."""
    v = state.variant.flow
    ctx = v.self_draw_context(state, seat)
    if ctx is None or (v.shape_filters(state) and not shape_possible(ctx)):
        return False
    return state.variant.rules.judge_win(ctx).legal


def shape_possible(ctx: WinContext) -> bool:
    """The cheap shape test before asking the hand rules: the concealed tiles are complete, or
    (摸宝) complete with the treasure read as some tile."""
    counts = [0] * 34
    for t in ctx.concealed:
        counts[t] += 1
    if not ctx.treasure_win:
        return is_complete(counts)
    counts[ctx.win_tile] -= 1
    return bool(shape_waits(counts))


_DISCARDS = tuple(tuple(Discard(seat=s, tile=t) for t in range(42)) for s in range(SEATS))
"""Plain discards are immutable values: built once, shared by every state."""


def _discards(state: RoundState, seat: int, counts: list[int]) -> list[Action]:
    """Plain and ting discards; ``counts`` (the seat's concealed counts) is changed and restored
    while testing ting candidates."""
    v = state.variant.flow
    me = state.seats[seat]
    if me.ting and me.drawn is not None:
        # 报听 locks the hand: the drawn tile must go (changchun.md, *Ting*), unless the variant
        # forbids discarding now (Siping's 分张: nobody discards).
        if v.filters_discards and not v.discard_allowed(state, seat, me.drawn, ting=False):
            return []
        return [Discard(seat=seat, tile=me.drawn)]
    alone, held = _alone_and_held(counts)
    plain = _DISCARDS[seat]
    kinds: Sequence[Tile] = held
    if v.filters_discards:
        kinds = [t for t in kinds if v.discard_allowed(state, seat, t, ting=False)]
    actions: list[Action] = [plain[t] for t in kinds]
    if v.ting_mode != "none" and not me.ting:
        if v.shape_filters(state):
            # Only a discard that leaves shape waits can be a ting discard (ting_waits asks the
            # same first): tested on the counts in place, without building the rest of the hand.
            ready: list[Tile] = []
            for t in _ting_candidates(alone, held):
                counts[t] -= 1
                if shape_waits(counts):
                    ready.append(t)
                counts[t] += 1
            candidates: Sequence[Tile] = ready
        else:
            candidates = held
        actions += [
            Discard(seat=seat, tile=t, ting=True)
            for t in candidates
            if v.discard_allowed(state, seat, t, ting=True)
            and ting_waits(state, seat, me.without(t), me.melds)
        ]
    return actions


def isolated_tiles(counts: Sequence[int], held: Sequence[Tile] | None = None) -> list[Tile]:
    """Single tiles with no tile of their suit within two ranks (every single honour)."""
    return [
        tile
        for tile in (_held(counts) if held is None else held)
        if counts[tile] == 1 and (tile >= 27 or sum(counts[_NEAR[tile]]) == 1)
    ]


def _held(counts: Sequence[int]) -> list[Tile]:
    return [t for t, n in enumerate(counts) if n]


_NEAR = tuple(slice(t - min(t % 9, 2), t + min(8 - t % 9, 2) + 1) for t in range(27))
"""The tiles of the same suit within two ranks of each suited tile (itself included)."""


def ting_discard_candidates(counts: list[int]) -> list[Tile]:
    """Discards after which the hand might be ready: a cheap exact filter before the shape test.

    A ready 3n+1 hand holds at most one isolated tile (it must become the pair with the winning
    tile: no single draw can give it a chow or a pong). Discarding a tile never makes another tile
    less isolated, so with three isolated tiles no discard is ready, and with two only discarding
    one of them can be."""
    return list(_ting_candidates(*_alone_and_held(counts)))


def _ting_candidates(alone: tuple[Tile, ...], held: tuple[Tile, ...]) -> tuple[Tile, ...]:
    if len(alone) >= 3:
        return ()
    if len(alone) == 2:
        return alone
    return held


def _alone_and_held(counts: Sequence[int]) -> tuple[tuple[Tile, ...], tuple[Tile, ...]]:
    """The isolated tiles and the held kinds (both sorted) of a hand's counts."""
    # Per suit (and the honours), memoised by its counts: isolation never crosses a suit.
    # Unrolled: this runs on every turn (bench/results/simulate.md).
    m = _MAN[tuple(counts[0:9])]
    p = _PIN[tuple(counts[9:18])]
    s = _SOU[tuple(counts[18:27])]
    z = _HONOUR_TILES[tuple(counts[27:34])]
    return m[0] + p[0] + s[0] + z[0], m[1] + p[1] + s[1] + z[1]


class _GroupTiles(dict[tuple[int, ...], tuple[tuple[Tile, ...], tuple[Tile, ...]]]):
    """Per group start (0, 9, 18 suits; 27 honours): counts → (isolated tiles, held tiles)."""

    def __init__(self, start: int) -> None:
        super().__init__()
        self.start = start

    def __missing__(self, key: tuple[int, ...]) -> tuple[tuple[Tile, ...], tuple[Tile, ...]]:
        counts = [0] * 34
        counts[self.start : self.start + len(key)] = key
        held = _held(counts)
        found = self[key] = (tuple(isolated_tiles(counts, held)), tuple(held))
        return found


_MAN, _PIN, _SOU, _HONOUR_TILES = (_GroupTiles(start) for start in (0, 9, 18, 27))


def _own_kongs(state: RoundState, seat: int, counts: Sequence[int]) -> list[Action]:
    """暗杠 and 补杠 on one's own turn; a locked (ting) hand only with the drawn tile and only if
    the waits stay the same (changchun.md: "听牌后仍可杠牌，前提是杠完后还可听")."""
    me = state.seats[seat]
    if 4 not in counts and (not me.melds or all(m.kind != "pong" for m in me.melds)):
        return []
    if state.wall_left < 1:
        return []
    actions: list[Action] = []
    for tile in sorted(set(me.concealed)):
        if counts[tile] == 4:
            meld = Meld("kong", (tile,) * 4, concealed=True)
            rest = me.without(tile, tile, tile, tile)
            if _kong_ok(state, seat, tile, rest, (*me.melds, meld)):
                actions.append(ConcealedKong(seat=seat, tile=tile))
    for i, meld in enumerate(me.melds):
        tile = meld.tiles[0]
        if meld.kind == "pong" and counts[tile]:
            melds = list(me.melds)
            melds[i] = Meld("kong", (tile,) * 4, from_seat=meld.from_seat, added=True)
            if _kong_ok(state, seat, tile, me.without(tile), tuple(melds)):
                actions.append(AddedKong(seat=seat, tile=tile))
    return actions


def _kong_ok(
    state: RoundState, seat: int, tile: Tile, rest: tuple[Tile, ...], melds: tuple[Meld, ...]
) -> bool:
    v = state.variant.flow
    if not v.meld_allowed(state, seat, melds, len(rest)):
        return False
    me = state.seats[seat]
    if not me.ting:
        return True
    return v.kong_after_ting and tile == me.drawn and keeps_waits(state, seat, rest, melds)


def keeps_waits(
    state: RoundState, seat: int, rest: tuple[Tile, ...], melds: tuple[Meld, ...]
) -> bool:
    """A kong by a ready player must leave the same winning tiles (spec: ting locks the hand)."""
    return ting_waits(state, seat, rest, melds) == state.seats[seat].waits


def ting_waits(
    state: RoundState, seat: int, concealed: tuple[Tile, ...], melds: tuple[Meld, ...]
) -> tuple[Tile, ...]:
    """The legal winning tiles if ``seat`` declared ting holding ``concealed`` (3n+1) and ``melds``;
    empty when ting would not be allowed (the variant's ``judge_ting``)."""
    v = state.variant.flow
    if v.shape_filters(state) and not hand_facts(concealed)[1]:
        return ()
    ctx = TingContext(
        variant=state.variant.key,
        dealer=state.dealer,
        seat=seat,
        concealed=concealed,
        melds=melds,
        opened=_opened_with(state, seat, melds),
        options=state.options,
        extra=v.context_extra(state, seat),
    )
    verdict = state.variant.rules.judge_ting(ctx)
    return tuple(verdict.waits) if verdict.ting_allowed else ()


def _opened_with(
    state: RoundState, seat: int, melds: tuple[Meld, ...]
) -> tuple[bool, bool, bool, bool]:
    opened = list(state.opened())
    meld_opens = state.variant.rules.meld_opens
    opened[seat] = any(meld_opens(m) for m in melds)
    a, b, c, d = opened
    return (a, b, c, d)


def win_context(
    state: RoundState,
    seat: int,
    *,
    tile: Tile,
    win_by: WinBy,
    concealed: tuple[Tile, ...],
    discarder: int | None = None,
    treasure_win: bool = False,
    extra: Mapping[str, Any] | None = None,
) -> WinContext:
    """The judge's question for a win by ``seat`` (``concealed`` includes ``tile``)."""
    v = state.variant.flow
    me = state.seats[seat]
    treasure = state.treasure
    seen = treasure.tile if treasure and me.treasure_seen == treasure.version else None
    return WinContext(
        variant=state.variant.key,
        dealer=state.dealer,
        winner=seat,
        concealed=concealed,
        melds=me.melds,
        win_tile=tile,
        win_by=win_by,
        discarder=discarder,
        ting=me.ting,
        treasure=seen,
        treasure_win=treasure_win,
        opened=state.opened(),
        options=state.options,
        extra={
            **v.context_extra(state, seat),
            **v.win_extra(state, seat, discarder),
            **(extra or {}),
        },
    )


# --- claims -------------------------------------------------------------------------------------


def claim_offers(
    state: RoundState,
    seat: int,
    discarder: int,
    tile: Tile,
    v: Flow,
    facts: tuple[tuple[int, ...], tuple[Tile, ...]] | None = None,
) -> list[Action]:
    """What ``seat`` may claim on ``discarder``'s ``tile`` (spec README, item 5); empty: not asked.
    A ``Pass`` is appended whenever anything is offered. ``facts``: the seat's
    :func:`hand_facts`, when the caller has them already."""
    me = state.seats[seat]
    counts, waits = hand_facts(me.concealed) if facts is None else facts
    chow_seat = v.has_chow and not me.ting and seat == (discarder + 1) % SEATS
    fast = v.shape_filters(state)
    if counts[tile] < 2 and not chow_seat and tile not in waits and fast and not v.has_extra_claims:
        return []  # the common case, answered without building anything
    offers: list[Action] = []
    if _can_win_on(state, seat, tile, discarder, "discard"):
        offers.append(DeclareWin(seat=seat))
    if not me.ting and counts[tile] >= 2:
        meld = Meld("pong", (tile,) * 3, from_seat=discarder)
        if v.meld_allowed(state, seat, (*me.melds, meld), len(me.concealed) - 2):
            offers.append(Pong(seat=seat))
    if counts[tile] == 3 and state.wall_left > 0:
        meld = Meld("kong", (tile,) * 4, from_seat=discarder)
        rest = me.without(tile, tile, tile)
        locked_ok = not me.ting or (
            v.kong_after_ting and keeps_waits(state, seat, rest, (*me.melds, meld))
        )
        if locked_ok and v.meld_allowed(state, seat, (*me.melds, meld), len(rest)):
            offers.append(ExposedKong(seat=seat))
    if chow_seat:
        offers += _chows(state, seat, tile, counts, v)
    offers += v.extra_claim_actions(state, seat, discarder, tile)
    if offers:
        offers.append(Pass(seat=seat))
    return offers


def _chows(
    state: RoundState, seat: int, tile: Tile, counts: Sequence[int], v: Flow
) -> list[Action]:
    """吃 from the previous seat: suited tiles only, the claimed tile at any place in the run."""
    if tile >= 27:
        return []
    me = state.seats[seat]
    out: list[Action] = []
    for low, a, b in _RUNS[tile]:
        if counts[a] and counts[b]:
            meld = _CHOW_MELDS[(seat - 1) % SEATS][low]
            if v.meld_allowed(state, seat, (*me.melds, meld), len(me.concealed) - 2):
                out.append(_CHOW_ACTIONS[seat][low])
    return out


_RUNS = tuple(
    tuple(
        (low, *(t for t in range(low, low + 3) if t != tile))
        for low in range(
            tile - tile % 9 + max(0, tile % 9 - 2), tile - tile % 9 + min(tile % 9, 6) + 1
        )
    )
    for tile in range(27)
)
"""Per suited tile: each chow it can complete, as (lowest tile, the two other tiles), low first."""
_CHOW_MELDS = tuple(
    {low: Meld("chow", (low, low + 1, low + 2), from_seat=s) for low in range(27) if low % 9 < 7}
    for s in range(SEATS)
)
_CHOW_ACTIONS = tuple(
    {low: Chow(seat=s, tiles=(low, low + 1, low + 2)) for low in range(27) if low % 9 < 7}
    for s in range(SEATS)
)
"""Chow melds (by the discarder's seat) and chow claims (by the claiming seat), built once: both
are immutable values, compared by value."""


def _can_win_on(state: RoundState, seat: int, tile: Tile, discarder: int, win_by: WinBy) -> bool:
    v = state.variant.flow
    if v.shape_filters(state) and tile not in hand_facts(state.seats[seat].concealed)[1]:
        return False
    if not v.may_win_on(state, seat, tile, discarder, win_by):
        return False
    ctx = win_context(
        state,
        seat,
        tile=tile,
        win_by=win_by,
        concealed=with_tile(state.seats[seat].concealed, tile),
        discarder=discarder,
    )
    return state.variant.rules.judge_win(ctx).legal


_facts_memo: dict[tuple[Tile, ...], tuple[tuple[int, ...], tuple[Tile, ...]]] = {}


def hand_facts(concealed: tuple[Tile, ...]) -> tuple[tuple[int, ...], tuple[Tile, ...]]:
    """Counts (read-only) and shape waits of a 3n+1 concealed hand, memoised by hand: a seat's
    hand does not change while the others discard, so each discard is one look-up."""
    facts = _facts_memo.get(concealed)
    if facts is None:
        if len(_facts_memo) > 20_000:
            _facts_memo.clear()
        counts = [0] * 34
        for t in concealed:
            counts[t] += 1
        facts = _facts_memo[concealed] = (tuple(counts), shape_waits(counts))
    return facts


def rob_offers(
    state: RoundState, seat: int, konger: int, tile: Tile, pending: Action | None
) -> list[Action]:
    """抢杠: only a win on the added tile (and what the variant adds, e.g. Changchun 抢叉)."""
    v = state.variant.flow
    offers: list[Action] = []
    if _can_win_on(state, seat, tile, konger, "rob_kong"):
        offers.append(DeclareWin(seat=seat))
    offers += v.extra_rob_actions(state, seat, konger, tile, pending)
    if offers:
        offers.append(Pass(seat=seat))
    return offers


def open_claims(
    state: RoundState,
    *,
    kind: str,
    discarder: int,
    tile: Tile,
    pending: Action | None,
    out: list[Event],
) -> RoundState | None:
    """Open a claim (or rob-kong) window; ``None`` when no seat has anything to claim."""
    asked = []
    all_offers: list[tuple[Action, ...]] = [(), (), (), ()]
    v = state.variant.flow
    # The common case of claim_offers' first test, decided here without the call: a seat with
    # fewer than two of the tile, not the chow seat and not waiting on it is not asked.
    quick = kind != "rob_kong" and v.shape_filters(state) and not v.has_extra_claims
    chow_seat = (discarder + 1) % SEATS if v.has_chow else -1
    seats = state.seats
    leave = v.seats_leave
    for step in (1, 2, 3):
        seat = (discarder + step) % SEATS
        if leave and not v.in_hand(state, seat):
            continue  # a seat out of the hand (成麻's winners) claims nothing
        if kind == "rob_kong":
            offers = rob_offers(state, seat, discarder, tile, pending)
        else:
            facts = hand_facts(seats[seat].concealed)
            if quick and facts[0][tile] < 2 and tile not in facts[1]:
                if seat != chow_seat or seats[seat].ting:
                    continue
                # The chow seat with no two tiles making a run with this one: no chow either.
                counts = facts[0]
                if tile >= 27 or not any(counts[a] and counts[b] for _, a, b in _RUNS[tile]):
                    continue
            offers = claim_offers(state, seat, discarder, tile, v, facts)
        if offers:
            asked.append(seat)
            all_offers[seat] = tuple(offers)
    rob = kind == "rob_kong"
    if not asked:
        # Announced all the same, and closed at once: the others see the same window whether
        # or not someone could claim (issue 14, item 7). The web layer shows it on its own
        # (:func:`apply_staged`: only then is the round copied with the window open).
        out.append(_NOBODY_ASKED[discarder, tile, rob])
        if isinstance(out, _StagedEvents):
            phase = ClaimPhase(
                kind="rob_kong" if rob else "claims",
                discarder=discarder,
                tile=tile,
                asked=(),
                pending=pending,
                offers=((), (), (), ()),
            )
            out.append(StageEnd(state=replace(state, phase=phase)))
        return None
    phase = ClaimPhase(
        kind="rob_kong" if rob else "claims",
        discarder=discarder,
        tile=tile,
        asked=tuple(asked),
        pending=pending,
        offers=tuple(all_offers),
    )
    out.append(ClaimWindowOpened(discarder=discarder, tile=tile, asked=tuple(asked), rob_kong=rob))
    return replace(state, phase=phase)


_NOBODY_ASKED = {
    (d, t, rob): ClaimWindowOpened(discarder=d, tile=t, asked=(), rob_kong=rob)
    for d in range(SEATS)
    for t in range(42)
    for rob in (False, True)
}
"""The announcement of a window nobody is asked in (most discards): immutable, shared."""


def _answer(state: RoundState, action: Action, out: list[Event]) -> RoundState:
    phase = state.phase
    assert isinstance(phase, ClaimPhase)
    answers = list(phase.answers)
    answers[action.seat] = action
    state = state.variant.flow.on_claim_answered(state, phase, action)
    phase = replace(phase, answers=tuple(answers))
    state = replace(state, phase=phase)
    if any(answers[s] is None for s in phase.asked):
        return state
    return _resolve_claims(state, phase, out, fresh=True)


def _resolve_claims(
    state: RoundState, phase: ClaimPhase, out: list[Event], *, fresh: bool = False
) -> RoundState:
    """Highest priority wins, then the seat nearest after the discarder; one winner only
    (spec README, item 5: 截胡 / 一炮不多响). ``fresh``: ``state`` is this apply's own copy
    (:func:`start_turn`)."""
    v = state.variant.flow
    claims = [a for a in phase.answers if a is not None and not isinstance(a, Pass)]
    if not claims:
        return _close_unclaimed(state, phase, out, fresh=fresh)
    if v.several_winners and any(isinstance(a, DeclareWin) for a in claims):
        # 一炮多响: every seat that claimed the win wins (成麻); the variant plays them out.
        return v.take_wins(state, phase, [a for a in claims if isinstance(a, DeclareWin)], out)
    best = min(
        claims,
        key=lambda a: (v.claim_priority[a.kind], (a.seat - phase.discarder) % SEATS),
    )
    if phase.kind == "rob_kong":
        return _rob_kong(state, phase, best, out)
    return _take_discard(state, phase, best, out)


def _close_unclaimed(
    state: RoundState, phase: ClaimPhase, out: list[Event], *, fresh: bool = False
) -> RoundState:
    if phase.kind == "rob_kong":
        assert phase.pending is not None
        return complete_pending_kong(state, phase.pending, out)
    seat = state.variant.flow.next_seat(state, phase.discarder)
    return start_turn(state, seat, out, fresh=fresh)


def _mark_last_discard_claimed(state: RoundState, discarder: int) -> RoundState:
    rows = state.seats[discarder].discards
    last = replace(rows[-1], claimed=True)
    return state.with_seat(discarder, discards=(*rows[:-1], last))


def _take_discard(
    state: RoundState, phase: ClaimPhase, claim: Action, out: list[Event]
) -> RoundState:
    tile, seat = phase.tile, claim.seat
    state = _mark_last_discard_claimed(state, phase.discarder)
    if isinstance(claim, DeclareWin):
        return win(state, seat, tile=tile, win_by="discard", discarder=phase.discarder, out=out)
    me = state.seats[seat]
    if isinstance(claim, Pong):
        meld = Meld("pong", (tile,) * 3, from_seat=phase.discarder)
        state = lay_meld(state, seat, meld, me.without(tile, tile), claim, out)
        return replace(state, phase=TurnPhase(seat=seat, drawn=True, source="claim"))
    if isinstance(claim, ExposedKong):
        meld = Meld("kong", (tile,) * 4, from_seat=phase.discarder)
        state = lay_meld(state, seat, meld, me.without(tile, tile, tile), claim, out)
        state = state.variant.flow.pay_kong(state, seat, meld, with_drawn=False, out=out)
        return draw_replacement(state, seat, out)
    if isinstance(claim, Chow):
        meld = Meld("chow", claim.tiles, from_seat=phase.discarder)
        rest = me.without(*(t for t in claim.tiles if t != tile))
        state = lay_meld(state, seat, meld, rest, claim, out)
        return replace(state, phase=TurnPhase(seat=seat, drawn=True, source="claim"))
    return state.variant.flow.take_discard(state, phase, claim, out)


def lay_meld(
    state: RoundState,
    seat: int,
    meld: Meld,
    concealed: tuple[Tile, ...],
    action: Action,
    out: list[Event],
    *,
    replace_index: int | None = None,
) -> RoundState:
    """Put ``meld`` down for ``seat`` (replacing meld ``replace_index`` for an added kong)."""
    me = state.seats[seat]
    melds = list(me.melds)
    if replace_index is None:
        melds.append(meld)
    else:
        melds[replace_index] = meld
    state = state.with_seat(
        seat,
        concealed=concealed,
        melds=tuple(melds),
        drawn=me.drawn if me.drawn in concealed else None,
        opened=me.opened or state.variant.rules.meld_opens(meld),
    )
    out.append(Melded(seat=seat, meld=meld, action=action.kind))
    return state.variant.flow.after_tiles_shown(state, out)


def _rob_kong(state: RoundState, phase: ClaimPhase, claim: Action, out: list[Event]) -> RoundState:
    """The added tile is taken: the add is cancelled and does not count (changchun.md)."""
    konger, tile = phase.discarder, phase.tile
    state = state.with_seat(konger, concealed=state.seats[konger].without(tile), drawn=None)
    out.append(KongRobbed(robber=claim.seat, konger=konger, tile=tile, by=claim.kind))
    if isinstance(claim, DeclareWin):
        return win(state, claim.seat, tile=tile, win_by="rob_kong", discarder=konger, out=out)
    if isinstance(claim, Pong):
        me = state.seats[claim.seat]
        meld = Meld("pong", (tile,) * 3, from_seat=konger)
        state = lay_meld(state, claim.seat, meld, me.without(tile, tile), claim, out)
        return replace(state, phase=TurnPhase(seat=claim.seat, drawn=True, source="claim"))
    raise ClaimNotAllowed(f"{claim.kind} cannot rob a kong")


# --- turns, draws and kongs ---------------------------------------------------------------------


_TILES = range(42)
_FLAGS = (False, True)
_TURN_PHASES = {
    (s, drawn, source): TurnPhase(seat=s, drawn=drawn, source=source)
    for s in range(SEATS)
    for drawn in _FLAGS
    for source in get_args(TurnSource)
}
_TURN_STARTED = tuple(TurnStarted(seat=s) for s in range(SEATS))
_DREW = {
    (s, t, r): Drew(seat=s, tile=t, replacement=r)
    for s in range(SEATS)
    for t in _TILES
    for r in _FLAGS
}
_DISCARD_RECORDS = {
    (t, down, ting): DiscardRecord(t, face_down=down, ting=ting)
    for t in _TILES
    for down in _FLAGS
    for ting in _FLAGS
}
_DISCARDED = {
    (s, t, ting, down): Discarded(seat=s, tile=t, ting=ting, face_down=down)
    for s in range(SEATS)
    for t in _TILES
    for ting in _FLAGS
    for down in _FLAGS
}
"""Phases, events and discard records of the draw-discard loop are immutable values compared by
value: built once and shared instead of constructed on every action (frozen dataclasses are
slow to build; bench/results/simulate.md)."""


def start_turn(
    state: RoundState, seat: int, out: list[Event], *, fresh: bool = False
) -> RoundState:
    """A seat's turn begins: variant hooks (treasure), a pre-draw choice if any, then the draw.

    The turn's pre-draw phase is set only for a turn that has something before its draw
    (:meth:`~rules.engine.flow.Flow.before_draw`); any other turn goes straight to its draw,
    which sets the drawn phase (one copy of the round instead of two). ``fresh``: ``state`` is
    a copy the current :func:`apply` has just built and nobody else holds, so the draw writes
    into it instead of copying it again (callers from the variants keep the copying default)."""
    out.append(_TURN_STARTED[seat])
    v = state.variant.flow
    predraw = _TURN_PHASES[seat, False, "predraw"]
    if v.before_draw(state, seat):
        state = v.on_turn_start(replace(state, phase=predraw), seat, out)
        if not isinstance(state.phase, TurnPhase) or v.predraw_actions(state, seat):
            return state
        return draw_live(state, seat, out)
    if v.live_left(state) <= 0:
        return v.end_of_wall(replace(state, phase=predraw), out)
    position = state.live
    return _give_drawn(state, seat, position, "draw", out, fresh=fresh, live=position + 1)


def draw_live(state: RoundState, seat: int, out: list[Event]) -> RoundState:
    """摸牌 from the live end; when the next draw would enter the reserve, the wall's end."""
    v = state.variant.flow
    if v.live_left(state) <= 0:
        return v.end_of_wall(state, out)
    position = state.live
    return _give_drawn(state, seat, position, "draw", out, live=position + 1)


def draw_replacement(state: RoundState, seat: int, out: list[Event]) -> RoundState:
    """杠后补牌 from the far end (牌尾); counts one more kong for the reserve."""
    v = state.variant.flow
    kongs = state.kongs + 1
    reserve = v.reserve_stacks(kongs)
    if state.wall_left <= 0:
        return end_drawn(replace(state, kongs=kongs, reserve_stacks=reserve), out)
    position = v.far_position(state)
    return _give_drawn(
        state,
        seat,
        position,
        "kong_draw",
        out,
        far=state.far + 1,
        kongs=kongs,
        reserve_stacks=reserve,
    )


def _give_drawn(
    state: RoundState,
    seat: int,
    position: int,
    source: TurnSource,
    out: list[Event],
    *,
    fresh: bool = False,
    **changes: Any,
) -> RoundState:
    """The drawn tile at wall ``position`` joins ``seat``'s hand (one copy of the round, with
    the caller's ``changes`` to the wall's ends; none when ``fresh``, see :func:`start_turn`)."""
    tile = state.wall[position]
    me = state.seats[seat]
    seat_changes = {"concealed": with_tile(me.concealed, tile), "drawn": tile}
    phase = _TURN_PHASES[seat, True, source]
    if fresh:
        values = state.__dict__
        seats = list(state.seats)
        seats[seat] = replace_seat(me, seat_changes)
        values["seats"] = tuple(seats)
        values["phase"] = phase
        values.update(changes)
    else:
        state = state.update_seat(seat, seat_changes, phase=phase, **changes)
    out.append(_DREW[seat, tile, source == "kong_draw"])
    return state.variant.flow.after_draw(state, seat, position, out)


def pay_kong(state: RoundState, seat: int, meld: Meld, *, before: Meld | None = None) -> RoundState:
    """杠分: the variant's kong payments, settled apart from the win (also in a drawn round).
    For an add to a special kong (``before`` is the meld before the add) only the difference
    is paid: the hand rules value a special kong with all its adds."""
    rules_ = state.variant.rules
    new = rules_.kong_transfers(konger=seat, meld=meld, options=state.options)
    if before is not None:
        old = {
            t.payer: t.amount
            for t in rules_.kong_transfers(konger=seat, meld=before, options=state.options)
        }
        new = tuple(
            Transfer(t.payer, t.payee, t.amount - old.get(t.payer, 0))
            for t in new
            if t.amount > old.get(t.payer, 0)
        )
    return replace(state, kong_transfers=state.kong_transfers + tuple(new))


def _concealed_kong(state: RoundState, action: ConcealedKong, out: list[Event]) -> RoundState:
    seat, tile = action.seat, action.tile
    me = state.seats[seat]
    meld = Meld("kong", (tile,) * 4, concealed=True)
    state = lay_meld(state, seat, meld, me.without(tile, tile, tile, tile), action, out)
    state = state.variant.flow.pay_kong(state, seat, meld, with_drawn=True, out=out)
    return draw_replacement(state, seat, out)


def _added_kong(state: RoundState, action: AddedKong, out: list[Event]) -> RoundState:
    """补杠: others may rob the added tile with a win first (spec README, item 6)."""
    if state.variant.flow.rob_added_kong:
        window = open_claims(
            state, kind="rob_kong", discarder=action.seat, tile=action.tile, pending=action, out=out
        )
        if window is not None:
            return window
    return complete_pending_kong(state, action, out)


def complete_pending_kong(state: RoundState, action: Action, out: list[Event]) -> RoundState:
    """Finish an add that nobody robbed (an :class:`AddedKong` or a variant's add)."""
    if not isinstance(action, AddedKong):
        return state.variant.flow.complete_add(state, action, out)
    seat, tile = action.seat, action.tile
    me = state.seats[seat]
    index = next(i for i, m in enumerate(me.melds) if m.kind == "pong" and m.tiles[0] == tile)
    old = me.melds[index]
    meld = Meld("kong", (tile,) * 4, from_seat=old.from_seat, added=True)
    with_drawn = me.drawn == tile  # 补杠 with the tile just drawn (成麻: else 转手杠)
    state = lay_meld(state, seat, meld, me.without(tile), action, out, replace_index=index)
    state = state.variant.flow.pay_kong(state, seat, meld, with_drawn=with_drawn, out=out)
    return draw_replacement(state, seat, out)


def _discard(state: RoundState, action: Discard, out: list[Event]) -> RoundState:
    seat, tile = action.seat, action.tile
    v = state.variant.flow
    me = state.seats[seat]
    rest = me.without(tile)
    face_down = action.ting and v.ting_discard_face_down
    changes: dict[str, Any] = {
        "concealed": rest,
        "drawn": None,
        "first_turn": False,
        "discards": (*me.discards, _DISCARD_RECORDS[tile, face_down, action.ting]),
    }
    if action.ting:
        changes["ting"] = True
        changes["waits"] = ting_waits(state, seat, rest, me.melds)
        if state.first_ting is None:
            state = replace(state, first_ting=seat)
    state = state.update_seat(seat, changes)
    out.append(_DISCARDED[seat, tile, action.ting, face_down])
    state = v.after_tiles_shown(state, out)
    if isinstance(state.phase, EndedPhase):
        return state
    if not face_down and v.claims_open(state, seat, tile):
        window = open_claims(state, kind="claims", discarder=seat, tile=tile, pending=None, out=out)
        if window is not None:
            return window
    # ``state`` is the copy this discard made (a stage cut for apply_staged is another copy).
    return start_turn(state, v.next_seat(state, seat), out, fresh=True)


def roll_dice(
    state: RoundState, purpose: str, out: list[Event]
) -> tuple[RoundState, tuple[int, int]]:
    """Two dice from the round's DRBG stream (the state keeps the counter)."""
    drbg = Drbg(state.seed, state.drbg_counter)
    d1, d2 = drbg.dice(2)
    out.append(DiceRolled(purpose=purpose, dice=(d1, d2)))
    return replace(state, drbg_counter=drbg.counter), (d1, d2)


# --- the end ------------------------------------------------------------------------------------


def win(
    state: RoundState,
    seat: int,
    *,
    tile: Tile,
    win_by: WinBy,
    discarder: int | None,
    out: list[Event],
    ctx: WinContext | None = None,
) -> RoundState:
    """A win ends the round: ask the hand rules for the verdict, add the kong payments, cap the
    whole round (changchun.md, *Cap*), move the dealer."""
    if ctx is None:
        concealed = with_tile(state.seats[seat].concealed, tile)
        ctx = win_context(
            state, seat, tile=tile, win_by=win_by, concealed=concealed, discarder=discarder
        )
    verdict = state.variant.rules.judge_win(ctx)
    if not verdict.legal:
        raise IllegalAction(f"not a legal win: {verdict.reason}", rule=verdict.reason or "no_win")
    if ctx.win_by in ("discard", "rob_kong"):
        # The claimed tile joins the winner's hand; a self-drawn one is already there, and a
        # 对宝 wins with the treasure indicator still in the wall (no tile moves).
        state = state.with_seat(seat, concealed=tuple(sorted(ctx.concealed)))
    v = state.variant.flow
    if v.continues_after_win:
        return v.after_win(state, seat, ctx, verdict, out)
    return _finish(
        state,
        winner=seat,
        win_by=ctx.win_by,
        discarder=discarder,
        tile=tile,
        verdict=verdict,
        out=out,
    )


def end_drawn(state: RoundState, out: list[Event]) -> RoundState:
    """荒庄 / 流局: nobody wins; kong payments stand where the variant says so."""
    return _finish(
        state, winner=None, win_by=None, discarder=None, tile=None, verdict=None, out=out
    )


def _finish(
    state: RoundState,
    *,
    winner: int | None,
    win_by: str | None,
    discarder: int | None,
    tile: Tile | None,
    verdict: Any,
    out: list[Event],
) -> RoundState:
    v = state.variant.flow
    win_transfers: tuple[Transfer, ...] = tuple(verdict.transfers) if verdict else ()
    kong_transfers = v.settled_kong_transfers(state, winner)
    transfers = cap_transfers(win_transfers + kong_transfers, state.options.get("cap"))
    result = RoundResult(
        winner=winner,
        win_by=win_by,
        discarder=discarder,
        win_tile=tile,
        verdict=verdict,
        win_transfers=win_transfers,
        kong_transfers=kong_transfers,
        transfers=tuple(transfers),
        nets=nets(transfers),
        next_dealer=v.next_dealer(state, winner),
    )
    return end_round(state, result, verdict, out)


def end_round(state: RoundState, result: RoundResult, verdict: Any, out: list[Event]) -> RoundState:
    """The round is over with ``result``: the phase ends and everything is revealed."""
    state = replace(state, phase=EndedPhase(), result=result)
    winner = result.winner
    out.append(
        RoundEnded(
            winner=winner,
            win_by=result.win_by,
            discarder=result.discarder,
            tile=result.win_tile,
            fan=dict(verdict.fan) if verdict else {},
            total=verdict.total if verdict else 0,
            nets=result.nets,
            transfers=result.transfers,
            next_dealer=result.next_dealer,
            hands=tuple(s.concealed for s in state.seats),
            wall=state.wall,
            salt=state.salt,
            commitment=state.commitment,
            treasure=state.treasure.tile if state.treasure else None,
        )
    )
    return state


# --- apply --------------------------------------------------------------------------------------


def apply(state: RoundState, action: Action) -> tuple[RoundState, list[Event]]:
    """Apply one legal ``action``: ``(next_state, events)``. The input state is never changed.

    Raises a specific :class:`~rules.errors.IllegalAction` for anything not in
    :func:`legal_actions` (``NotYourTurn``, ``TileNotHeld``, ``HandLocked``, ``ClaimNotAllowed``,
    ``RoundOver``)."""
    if isinstance(state.phase, EndedPhase):
        raise RoundOver("the round is over")
    out: list[Event] = []
    return _apply_with_stages(state, action, out), out


def apply_staged(state: RoundState, action: Action) -> list[tuple[RoundState, list[Event]]]:
    """:func:`apply`, cut where the others must be shown the round on its way: ``[(state,
    events), …]``, the last pair being ``apply``'s own result. A claim window nobody was asked
    in is a stage of its own (the window open, then the rest), so that what the others are
    shown after a discard does not depend on what anyone holds (issue 14, item 7)."""
    if isinstance(state.phase, EndedPhase):
        raise RoundOver("the round is over")
    out = _StagedEvents()
    final = _apply_with_stages(state, action, out)
    stages: list[tuple[RoundState, list[Event]]] = []
    current: list[Event] = []
    for event in out:
        if isinstance(event, StageEnd):
            stages.append((event.state, current))
            current = []
        else:
            current.append(event)
    stages.append((final, current))
    return stages


class _StagedEvents(list[Event]):
    """The events of an :func:`apply_staged`: only then does :func:`open_claims` mark a claim
    window nobody was asked in as a stage of its own (:class:`StageEnd`, with a copy of the round
    as it stood); :func:`apply` needs neither the marker nor the copy."""


def _apply_with_stages(state: RoundState, action: Action, out: list[Event]) -> RoundState:
    legal = _offers(state, action.seat)
    # The offered object itself (what bots and the web layer usually send back) is found by
    # identity in C; only another equal object needs the dataclass ``__eq__`` scan.
    if id(action) not in map(id, legal) and action not in legal:
        raise _why_illegal(state, action)
    after = _dispatch(state, action, out)
    if state.variant.flow.has_automatic_actions:
        after = _run_automatic(after, out)
    if after is state:
        return with_offers(after, version=state.version + 1)
    return _hand_out(after, state.version + 1)


def _hand_out(state: RoundState, version: int) -> RoundState:
    """:func:`with_offers` for a state this :func:`apply` has just built: the transient copy
    that nobody else holds yet (the input state, and any stage cut for
    :func:`apply_staged`, are other objects) gets its version and its turn's offers written in
    before it is handed out, instead of being copied once more. From here on it is immutable."""
    values = state.__dict__
    values["version"] = version
    if isinstance(state.phase, TurnPhase):
        values["offers"] = turn_offers(state)
    return state


def _dispatch(state: RoundState, action: Action, out: list[Event]) -> RoundState:
    phase = state.phase
    if isinstance(phase, ClaimPhase):
        return _answer(state, action, out)
    if isinstance(phase, ChoicePhase):
        return _choose(state, phase, action, out)
    assert isinstance(phase, TurnPhase)
    seat = action.seat
    if isinstance(action, SelfDrawWin):
        ctx = state.variant.flow.self_draw_context(state, seat)
        assert ctx is not None
        return win(
            state, seat, tile=ctx.win_tile, win_by=ctx.win_by, discarder=None, out=out, ctx=ctx
        )
    if isinstance(action, Pass) and not phase.drawn:
        return draw_live(state, seat, out)
    if isinstance(action, Discard):
        return _discard(state, action, out)
    if isinstance(action, ConcealedKong):
        return _concealed_kong(state, action, out)
    if isinstance(action, AddedKong):
        return _added_kong(state, action, out)
    return state.variant.flow.apply_action(state, action, out)


def _choose(state: RoundState, phase: ChoicePhase, action: Action, out: list[Event]) -> RoundState:
    """One seat's secret answer to a :class:`ChoicePhase` (no event: the others must not learn
    it); when every asked seat has answered, the variant resolves the phase."""
    answers = list(phase.answers)
    answers[action.seat] = action
    phase = replace(phase, answers=tuple(answers))
    state = replace(state, phase=phase)
    if any(answers[s] is None for s in phase.asked):
        return state
    return state.variant.flow.resolve_choice(state, phase, out)


def _run_automatic(state: RoundState, out: list[Event]) -> RoundState:
    """Actions the variant takes for a player (Li-Si's automatic win, Harbin's end-of-wall
    discards); none in Changchun."""
    v = state.variant.flow
    for _ in range(64):
        if isinstance(state.phase, EndedPhase):
            return state
        action = v.automatic_action(state)
        if action is None:
            return state
        state = _dispatch(state, action, out)
    return state


def _why_illegal(state: RoundState, action: Action) -> IllegalAction:
    """The most specific reason an action is not offered."""
    phase = state.phase
    seat = action.seat
    me = state.seats[seat] if 0 <= seat < SEATS else None
    if me is None:
        return NotYourTurn(f"there is no seat {seat}")
    if isinstance(phase, ChoicePhase):
        if seat not in phase.asked or phase.answers[seat] is not None:
            return NotYourTurn(f"seat {seat} has nothing to choose")
        return IllegalAction(f"{action.kind} is not a choice offered now", rule="not_offered")
    if isinstance(phase, ClaimPhase):
        if seat not in phase.asked or phase.answers[seat] is not None:
            return NotYourTurn(f"seat {seat} has no claim to answer")
        if me.ting and isinstance(action, Pong | Chow):
            return HandLocked("after ting the hand is locked: no chow or pong")
        return ClaimNotAllowed(f"{action.kind} is not a legal claim on this tile")
    if isinstance(phase, TurnPhase) and phase.seat != seat:
        return NotYourTurn(f"it is seat {phase.seat}'s turn")
    tile = getattr(action, "tile", None)
    if isinstance(tile, int) and tile not in me.concealed:
        return TileNotHeld(f"seat {seat} does not hold that tile")
    if me.ting and isinstance(action, Discard):
        return HandLocked("after ting the drawn tile must be discarded")
    if isinstance(action, DeclareWin | Pong | Chow | ExposedKong):
        return ClaimNotAllowed("there is no discard to claim")
    return IllegalAction(f"{action.kind} is not allowed now", rule="not_offered")
