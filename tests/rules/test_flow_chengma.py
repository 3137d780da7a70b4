"""成麻's own flow (chengma.md): 定缺 chosen in secret and revealed when all four chose, 打缺, no
pong of the void suit, 一炮多响 with play going on after the last winner, 刮风下雨 paid at once,
呼叫转移, 过手胡, the last tile, three winners ending the hand, the end-of-wall checks out of real
rounds (the seed's sentence), 换三张, and the round invariants over arbitrary play (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engine import (
    Action,
    ChooseVoid,
    ConcealedKong,
    DeclareWin,
    Discard,
    ExchangeThree,
    Pass,
    Pong,
    SelfDrawWin,
    apply,
    legal_actions,
    new_round,
    seats_to_act,
)
from rules.engine.arrange import arrange_round
from rules.engine.events import (
    Event,
    KongPaid,
    MoneyMoved,
    RoundEnded,
    SeatWon,
    TilesExchanged,
    VoidsChosen,
    WallChecked,
)
from rules.engine.state import ChoicePhase, ClaimPhase, RoundState, TurnPhase
from rules.errors import IllegalAction
from rules.hand import Transfer
from rules.payments import nets
from rules.persist import state_from_json, state_to_json
from rules.registry import get_variant
from rules.settlement import settlement_json
from rules.simulate import replay, simulate_rounds, tile_counts
from rules.tiles import count_tiles, full_set
from rules.views import event_for, seat_view
from rules.wall import seed_from_text
from tests.rules.engine_helpers import T, line_nets
from tests.rules.flow_helpers import eager_choice

CM = get_variant("chengma")
FULL = count_tiles(full_set(CM.flow.tile_kinds))


def choose_voids(state: RoundState, voids: str) -> tuple[RoundState, list[Event]]:
    """Every seat chooses its void suit (``voids``: four letters, seat order)."""
    events: list[Event] = []
    for seat, suit in enumerate(voids):
        state, out = apply(state, ChooseVoid(seat=seat, suit=suit))
        events += out
    return state, events


def answer(state: RoundState, seat: int, action_kind: type) -> RoundState:
    action = next(a for a in legal_actions(state, seat) if isinstance(a, action_kind))
    return apply(state, action)[0]


# --- 定缺 ------------------------------------------------------------------------------------


def test_void_suits_are_chosen_in_secret_and_shown_when_all_four_chose() -> None:
    state = arrange_round(CM, hands=["", "", "", ""])
    assert isinstance(state.phase, ChoicePhase)
    assert seats_to_act(state) == [0, 1, 2, 3]
    state, events = apply(state, ChooseVoid(seat=2, suit="p"))
    assert events == []  # an answer is no event: the others learn nothing
    for viewer in (0, 1, 3, None):
        view = seat_view(state, viewer)
        assert view["seats"][2]["que"] is None
        assert "que_chosen" not in view["seats"][2]
        assert view["phase"].get("you_answered", False) is False
    assert seat_view(state, 2)["seats"][2]["que_chosen"] == "p"
    assert seat_view(state, 2)["phase"]["you_answered"] is True
    assert seats_to_act(state) == [0, 1, 3]
    try:
        apply(state, ChooseVoid(seat=2, suit="m"))
    except IllegalAction:
        pass
    else:  # pragma: no cover - the test fails here
        raise AssertionError("a seat chose twice")
    for seat, suit in ((0, "s"), (1, "m")):
        state, events = apply(state, ChooseVoid(seat=seat, suit=suit))
        assert events == []
    state, events = apply(state, ChooseVoid(seat=3, suit="s"))
    assert events == [VoidsChosen(voids=("s", "m", "p", "s"))]
    assert state.phase == TurnPhase(seat=0, drawn=True, source="deal")
    assert [seat_view(state, 1)["seats"][s]["que"] for s in range(4)] == ["s", "m", "p", "s"]


def test_the_timeout_choice_is_offered_first_the_suit_held_fewest_ties_m_p_s() -> None:
    state = arrange_round(CM, hands=["123456789m1234p5s", "11m22p33s44m55p66s7m", "", ""])
    assert legal_actions(state, 0)[0] == ChooseVoid(seat=0, suit="s")  # 9 m, 4 p, 1 s
    assert legal_actions(state, 1)[0] == ChooseVoid(seat=1, suit="p")  # 5 m, 4 p, 4 s: p
    tied = arrange_round(CM, hands=["", "", "", "111m222p333s4m5p6s7s"])
    assert legal_actions(tied, 3)[0] == ChooseVoid(seat=3, suit="m")  # 4, 4, 5: m before p


def test_a_seat_holding_its_void_suit_discards_only_that_suit_and_never_pongs_it() -> None:
    state = arrange_round(CM, hands=["123m456m789m11p5s9s", "55s1m2m3m4m6p7p8p9p1s2s", "", ""])
    state, _ = choose_voids(state, "sspp")
    assert {a.tile for a in legal_actions(state, 0) if isinstance(a, Discard)} == {T("5s"), T("9s")}
    state, _ = apply(state, Discard(seat=0, tile=T("5s")))
    # Seat 1 holds 55s but s is its void: no pong (and no claim window question at all).
    assert not any(isinstance(a, Pong) for a in legal_actions(state, 1))


# --- 血战到底: several winners, play goes on --------------------------------------------------

NO_DIHU = {"tiandihu": False}
"""The first discard of the dealer would be a 地胡 (5 fan) for whoever wins on it."""
SEVERAL = [
    "999m11m777p111p9p3p5p",  # dealer, void s; discards 5p
    "123m456m77m34p678p",  # waits 2p / 5p, void s
    "111s222s333s444s5s",  # void m: cannot claim 5p
    "234m567m888m46p99p",  # waits 5p, void s
]


def test_several_winners_on_one_discard_are_each_paid_and_play_goes_on_after_the_last() -> None:
    state = arrange_round(CM, hands=SEVERAL, live="3s", options=NO_DIHU)
    state, _ = choose_voids(state, "ssms")
    state, _ = apply(state, Discard(seat=0, tile=T("5p")))
    assert isinstance(state.phase, ClaimPhase)
    assert state.phase.asked == (1, 3)
    state, _ = apply(state, DeclareWin(seat=3))
    state, events = apply(state, DeclareWin(seat=1))
    won = [e for e in events if isinstance(e, SeatWon)]
    assert [(e.seat, e.discarder, e.payments) for e in won] == [
        (1, 0, (-1, 1, 0, 0)),
        (3, 0, (-1, 0, 0, 1)),
    ]
    assert state.extra["out"] == (1, 3)
    # The seat after the last winner counted from the discarder: seat 3's next is seat 0.
    assert state.phase == TurnPhase(seat=0, drawn=True, source="draw")
    assert state.seats[0].drawn == T("3s")
    assert T("5p") in state.seats[1].concealed
    assert T("5p") not in state.seats[3].concealed
    assert tile_counts(state) == FULL
    # Seats out claim nothing: seat 0's discard asks nobody but seat 2.
    state, events = apply(state, Discard(seat=0, tile=T("3s")))
    assert isinstance(state.phase, ClaimPhase)
    assert state.phase.asked == (2,)
    assert CM.flow.next_dealer(state, None) == 0  # several first winners: the discarder deals


def test_a_kong_pays_at_once_and_a_discard_after_it_moves_the_money_to_the_winner() -> None:
    hands = [
        "4444m111p999p2p3p6p7p",
        "567m789m99m345p67p",
        "1111s2222s3333s9s",
        "5555s6666s7777s8s",
    ]
    state = arrange_round(CM, hands=hands, far="8p", live="9s")
    state, _ = choose_voids(state, "ssmm")
    state, events = apply(state, ConcealedKong(seat=0, tile=T("4m")))
    paid = [e for e in events if isinstance(e, KongPaid)]
    assert paid == [
        KongPaid(
            seat=0,
            kong="concealed",
            tile=T("4m"),
            transfers=(Transfer(1, 0, 2), Transfer(2, 0, 2), Transfer(3, 0, 2)),
        )
    ]
    assert state.seats[0].drawn == T("8p")
    state, _ = apply(state, Discard(seat=0, tile=T("8p")))
    state, events = apply(state, DeclareWin(seat=1))
    won = next(e for e in events if isinstance(e, SeatWon))
    assert won.fan == {"pinghu": 0, "gangshangpao": 1}
    assert won.payments == (-2, 2, 0, 0)
    assert [e for e in events if isinstance(e, MoneyMoved)] == [
        MoneyMoved(transfers=(Transfer(0, 1, 6),))
    ]
    assert state.phase == TurnPhase(seat=2, drawn=True, source="draw")


def test_a_declined_win_waits_for_the_next_draw_unless_a_larger_one_comes() -> None:
    state = arrange_round(CM, hands=SEVERAL, live="2p5s4s", options=NO_DIHU)
    state, _ = choose_voids(state, "ssms")
    state, _ = apply(state, Discard(seat=0, tile=T("5p")))
    state, _ = apply(state, Pass(seat=1))
    state, events = apply(state, DeclareWin(seat=3))
    assert [e.seat for e in events if isinstance(e, SeatWon)] == [3]
    assert state.extra["passed_win"][1] == 0
    # Seat 0 draws 2p and discards it: seat 1 waits on it, but a 平胡 is no larger (过手胡).
    assert state.seats[0].drawn == T("2p")
    state, _ = apply(state, Discard(seat=0, tile=T("2p")))
    assert not isinstance(state.phase, ClaimPhase) or 1 not in state.phase.asked
    # Seat 1's own draw ends it.
    assert isinstance(state.phase, TurnPhase)
    assert state.phase.seat == 1
    assert state.extra["passed_win"][1] is None


def test_three_winners_end_the_hand_without_checks() -> None:
    hands = [SEVERAL[0], SEVERAL[1], "123s456s789s46p99s", SEVERAL[3]]
    state = arrange_round(CM, hands=hands, options=NO_DIHU)
    state, _ = choose_voids(state, "ssms")
    state, _ = apply(state, Discard(seat=0, tile=T("5p")))
    for seat in (1, 2, 3):
        state, events = apply(state, DeclareWin(seat=seat))
    assert state.result is not None
    assert not any(isinstance(e, WallChecked) for e in events)
    assert isinstance(events[-1], RoundEnded)
    assert state.result.nets == (-3, 1, 1, 1)
    assert state.result.next_dealer == 0
    lines = settlement_json(state)
    assert lines is not None
    assert [line["kind"] for line in lines["lines"]] == ["win"] * 3
    assert line_nets(lines["lines"]) == state.result.nets


def test_the_last_tile_may_be_won_on_but_not_ponged() -> None:
    rng = random.Random(7)
    state, _ = new_round(variant=CM, seed=seed_from_text("last tile"), dealer=0)
    while state.result is None:
        seat = seats_to_act(state)[0]
        if isinstance(state.phase, ClaimPhase) and state.wall_left == 0:
            assert not any(
                isinstance(a, Pong) for s in state.phase.asked for a in state.phase.offers[s]
            )
        state, _ = apply(state, eager_choice(state, seat, rng))
    assert state.wall_left == 0 or len(state.extra["out"]) == 3


# --- the end of the wall: the seed's sentence out of real rounds -------------------------------


def _usefulness(tile: int, counts: list[int]) -> int:
    """How much a tile is worth keeping: copies held, plus neighbours within two in its suit."""
    score = 3 * (counts[tile] - 1)
    base = tile - tile % 9
    for offset in (-2, -1, 1, 2):
        other = tile + offset
        if base <= other < base + 9 and counts[other]:
            score += 2 if abs(offset) == 1 else 1
    return score


def keen_choice(state: RoundState, seat: int, rng: random.Random) -> Action:
    """Wins; the timeout's void suit; kongs and pongs most of the time; else the discard that
    helps the hand least (a player who plays to win, so that rounds reach several wins)."""
    actions = legal_actions(state, seat)
    for action in actions:
        if isinstance(action, DeclareWin | SelfDrawWin):
            return action
    if isinstance(state.phase, ChoicePhase):
        return actions[0]
    melds = [
        a for a in actions if a.kind in ("concealed_kong", "added_kong", "exposed_kong", "pong")
    ]
    if melds and rng.random() < 0.8:
        return melds[0]
    discards = [a for a in actions if isinstance(a, Discard)]
    if discards:
        counts = state.seats[seat].counts()
        return min(discards, key=lambda a: (_usefulness(a.tile, counts), -a.tile))
    return next(a for a in actions if isinstance(a, Pass))


def _eager_rounds(count: int, options: dict[str, object] | None = None):  # type: ignore[no-untyped-def]
    for index in range(count):
        rng = random.Random(index)
        state, events = new_round(
            variant=CM, seed=seed_from_text(f"checks/{index}"), dealer=index % 4, options=options
        )
        taken = []
        while state.result is None:
            seat = seats_to_act(state)[0]
            action = keen_choice(state, seat, rng)
            taken.append(action)
            state, out = apply(state, action)
            events += out
        yield state, events, taken


def test_two_left_and_the_unready_one_pays_the_ready_one_at_the_wall_s_end() -> None:
    """ "只剩两人还在继续打…一方没有下叫…这一方要给钱给对方": two seats in at the wall's end,
    one ready, one not: the one not ready pays the other its 大叫 and returns its kong money."""
    found = 0
    for state, events, _ in _eager_rounds(80):
        checked = next((e for e in events if isinstance(e, WallChecked)), None)
        if checked is None or sorted(checked.status) != ["not_ready", "ready", "won", "won"]:
            continue
        ready = checked.status.index("ready")
        unready = checked.status.index("not_ready")
        dajiao = checked.dajiao[ready]
        assert dajiao is not None
        assert nets(checked.chajiao)[ready] == 2 ** min(dajiao, 3)
        income = sum(t.amount for t in checked.tuishui)
        assert nets(checked.tuishui)[unready] == -income
        assert nets(state.result.transfers) == state.result.nets  # type: ignore[union-attr]
        found += 1
    assert found >= 1


def test_with_two_left_a_self_draw_is_paid_by_the_other_alone() -> None:
    found = 0
    for _, events, _ in _eager_rounds(80):
        won = [e for e in events if isinstance(e, SeatWon)]
        for index, win in enumerate(won):
            if index >= 2 and win.win_by in ("self_draw", "kong_draw"):
                last = ({0, 1, 2, 3} - {w.seat for w in won}).pop()
                assert {t.payer for t in win.transfers} == {last}
                found += 1
    assert found >= 1


def test_every_payment_is_its_own_labelled_line_and_they_add_up() -> None:
    kinds: set[str] = set()
    for state, _, _ in _eager_rounds(30):
        report = settlement_json(state)
        assert report is not None
        assert line_nets(report["lines"]) == state.result.nets  # type: ignore[union-attr]
        kinds |= {line["kind"] for line in report["lines"]}
    assert {"win", "kong", "chajiao", "tuishui"} <= kinds


# --- 换三张 ----------------------------------------------------------------------------------


def test_the_exchange_moves_three_tiles_of_one_suit_the_same_way_for_all() -> None:
    state, _ = new_round(
        variant=CM, seed=seed_from_text("swap"), dealer=1, options={"huansanzhang": True}
    )
    assert isinstance(state.phase, ChoicePhase)
    assert state.phase.name == "huansanzhang"
    given = {}
    events: list[Event] = []
    for seat in range(4):
        offers = legal_actions(state, seat)
        assert all(len({t // 9 for t in a.tiles}) == 1 for a in offers)  # type: ignore[attr-defined]
        choice = offers[0]
        assert isinstance(choice, ExchangeThree)
        given[seat] = choice.tiles
        state, out = apply(state, choice)
        events += out
    exchanged = next(e for e in events if isinstance(e, TilesExchanged))
    assert exchanged.direction in (1, 2, 3)
    for seat in range(4):
        sender = (seat - exchanged.direction) % 4
        assert all(t in state.seats[seat].concealed for t in given[sender])
        swapped = next(e for e in events if getattr(e, "seat", None) == seat)
        assert "received" not in event_for(swapped, (seat + 1) % 4)
        assert event_for(swapped, seat)["received"]
    assert isinstance(state.phase, ChoicePhase)
    assert state.phase.name == "dingque"
    assert tile_counts(state) == FULL


# --- invariants over arbitrary play ---------------------------------------------------------

SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
games = st.tuples(
    st.binary(min_size=32, max_size=32),
    st.integers(0, 3),
    st.lists(st.integers(0, 2**16), min_size=1, max_size=40),
    st.booleans(),
)


@SETTINGS
@given(games)
def test_any_play_keeps_every_tile_sums_to_zero_replays_and_stores(game) -> None:  # type: ignore[no-untyped-def]
    seed, dealer, picks, swap = game
    options = {"huansanzhang": swap}
    state, _ = new_round(variant=CM, seed=seed, dealer=dealer, options=options)
    taken = []
    step = 0
    while state.result is None:
        seat = seats_to_act(state)[0]
        actions = legal_actions(state, seat)
        assert actions
        wins = [a for a in actions if isinstance(a, DeclareWin | SelfDrawWin)]
        action = (
            wins[0]
            if wins and picks[step % len(picks)] % 2
            else actions[picks[step % len(picks)] % len(actions)]
        )
        state, _ = apply(state, action)
        taken.append(action)
        assert tile_counts(state) == FULL
        step += 1
    assert sum(state.result.nets) == 0
    report = settlement_json(state)
    assert report is not None
    assert line_nets(report["lines"]) == state.result.nets
    assert state_from_json(state_to_json(state)) == state
    if not swap:  # (replay() deals with the default options)
        assert replay(CM, seed=seed, dealer=dealer, actions=taken) == state


def test_simulate_keeps_its_invariants() -> None:
    report = simulate_rounds(CM, 20, "chengma-test")
    assert report.invariants == "ok"
    assert report.rounds == 20


# --- 听牌提示 with the void suit ------------------------------------------------------------------


def test_the_wait_hints_know_the_void_suit() -> None:
    from rules.hints import seat_hint

    hands = ["123m456m789m11p23p5s", "123m456m789m111s3p", "", ""]
    state = arrange_round(CM, hands=hands)
    assert seat_hint(state, 0) is None  # nothing before the void suits are chosen
    state, _ = choose_voids(state, "spmm")
    hint = seat_hint(state, 0)
    assert hint is not None
    assert hint["mode"] == "discard"
    # 打缺: only the void tile may go, and after it the hand waits on 1p and 4p.
    assert [entry["tile"] for entry in hint["discards"]] == ["5s"]
    assert [w["tile"] for w in hint["discards"][0]["waits"]] == ["1p", "4p"]
    ready = seat_hint(state, 1)
    assert ready is not None
    assert ready["waits"] == []
    assert [(b["tile"], b["reason"]) for b in ready["blocked"]] == [("3p", "void_suit")]
