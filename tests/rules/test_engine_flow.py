"""The common round flow (spec README, *The round*): turns, draws, claim windows, kongs, errors."""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest

from rules.engine import (
    ACTION_TYPES,
    AddedKong,
    AddToSpecialKong,
    Chen,
    Chow,
    ChowTing,
    ConcealedKong,
    DeclareWin,
    Discard,
    ExposedKong,
    Pass,
    Pong,
    SelfDrawWin,
    SpecialKong,
    action_from_json,
    apply,
    legal_actions,
    new_round,
)
from rules.engine.events import ClaimWindowOpened, Drew, RoundEnded
from rules.engine.state import ClaimPhase, EndedPhase, TurnPhase
from rules.errors import (
    ClaimNotAllowed,
    HandLocked,
    NotYourTurn,
    RoundOver,
    RulesError,
    TileNotHeld,
)
from rules.hand import Meld
from rules.registry import VARIANTS
from rules.wall import seed_from_text
from tests.rules.engine_helpers import (
    T,
    act,
    act_events,
    discard_drawn,
    offered,
    pass_claims,
    table,
)


def test_a_new_round_deals_14_to_the_dealer_and_13_to_the_others() -> None:
    state, events = new_round(variant=VARIANTS["changchun"], seed=seed_from_text("deal"), dealer=2)
    assert [len(s.concealed) for s in state.seats] == [13, 13, 14, 13]
    assert state.phase == TurnPhase(seat=2, drawn=True, source="deal")
    assert state.seats[2].drawn == state.seats[2].dealt[-1]
    assert state.live == 53
    assert [e.kind for e in events[:2]] == ["round_started", "dealt"]


def test_it_rejects_a_discard_out_of_turn() -> None:
    with pytest.raises(NotYourTurn):
        apply(table(), Discard(seat=1, tile=T("2m")))


def test_it_rejects_a_discard_of_a_tile_not_held() -> None:
    with pytest.raises(TileNotHeld):
        apply(table(), Discard(seat=0, tile=T("9m")))


def test_it_rejects_a_claim_when_there_is_no_discard() -> None:
    with pytest.raises(ClaimNotAllowed):
        apply(table(), Pong(seat=0))


def test_the_next_seat_draws_when_nobody_can_claim() -> None:
    state, events = act_events(table(live="9m"), Discard(seat=0, tile=T("5z")))
    # The window is announced all the same, with nobody asked.
    windows = [e for e in events if isinstance(e, ClaimWindowOpened)]
    assert [w.asked for w in windows] == [()]
    assert state.phase == TurnPhase(seat=1, drawn=True, source="draw")
    assert state.seats[1].drawn == T("9m")
    assert any(isinstance(e, Drew) and e.seat == 1 for e in events)
    assert state.version == 1


def test_an_empty_window_is_a_stage_of_its_own() -> None:
    """``apply_staged`` cuts after the empty window: the web layer shows the others the same
    frames after every discard, whether or not someone could claim."""
    from rules.engine import apply_staged

    empty = apply_staged(table(live="9m"), Discard(seat=0, tile=T("5z")))
    assert [[e.kind for e in events] for _state, events in empty] == [
        ["discard", "claim_window"],
        ["turn_started", "draw"],
    ]
    window_state, _ = empty[0]
    assert isinstance(window_state.phase, ClaimPhase)
    assert window_state.phase.asked == ()
    asked = apply_staged(table(), Discard(seat=0, tile=T("4m")))
    assert len(asked) == 1
    assert [e.kind for e in asked[0][1]] == ["discard", "claim_window"]
    final, events = apply(table(live="9m"), Discard(seat=0, tile=T("5z")))
    assert empty[-1][0] == final
    assert [e for _s, ev in empty for e in ev] == events


def test_only_seats_with_a_claim_are_asked() -> None:
    state = act(table(), Discard(seat=0, tile=T("4m")))
    assert isinstance(state.phase, ClaimPhase)
    assert state.phase.asked == (1,)
    chows = [a for a in offered(state, 1) if isinstance(a, Chow)]
    assert {a.tiles for a in chows} == {
        (T("2m"), T("3m"), T("4m")),
        (T("3m"), T("4m"), T("5m")),
        (T("4m"), T("5m"), T("6m")),
    }
    assert offered(state, 2) == []
    assert Pass(seat=1) in offered(state, 1)


def test_pong_beats_chow_whatever_the_order_of_answers() -> None:
    state = act(table(), Discard(seat=0, tile=T("1m")))
    assert isinstance(state.phase, ClaimPhase)
    assert set(state.phase.asked) == {1, 2}
    state = act(state, Chow(seat=1, tiles=(T("1m"), T("2m"), T("3m"))))
    assert isinstance(state.phase, ClaimPhase)  # it waits for every asked seat
    state = act(state, Pong(seat=2))
    assert state.phase == TurnPhase(seat=2, drawn=True, source="claim")
    assert state.seats[2].melds == (Meld("pong", (T("1m"),) * 3, from_seat=0),)
    assert state.seats[0].discards[-1].claimed
    assert state.seats[2].opened


def test_a_chow_is_taken_when_the_pong_is_passed() -> None:
    state = act(table(), Discard(seat=0, tile=T("1m")))
    state = act(state, Pass(seat=2))
    state = act(state, Chow(seat=1, tiles=(T("1m"), T("2m"), T("3m"))))
    assert state.phase == TurnPhase(seat=1, drawn=True, source="claim")
    assert state.seats[1].melds[0].kind == "chow"
    assert len(state.seats[1].concealed) == 11


def test_a_win_beats_a_pong_and_pays_as_the_variant_says() -> None:
    state = act(table(), Discard(seat=0, tile=T("7z")))
    assert isinstance(state.phase, ClaimPhase)
    assert set(state.phase.asked) == {2, 3}
    state = act(state, Pong(seat=2))
    state, events = act_events(state, DeclareWin(seat=3))
    assert isinstance(state.phase, EndedPhase)
    result = state.result
    assert result is not None
    assert (result.winner, result.win_by, result.discarder) == (3, "discard", 0)
    assert result.verdict is not None
    assert dict(result.verdict.fan) == {"pinghu": 1, "jiahu": 1, "lihu": 1, "dianpao": 1}
    assert result.nets == (-8, -4, -4, 16)
    assert result.next_dealer == 1
    ended = [e for e in events if isinstance(e, RoundEnded)]
    assert ended
    assert ended[0].salt == state.salt


def test_only_the_nearest_winner_after_the_discarder_wins() -> None:
    # Seats 1 and 3 both wait on 7z; seat 2 discards it: seat 3 is nearer (截胡).
    hands = ["1m4m7m2p5p8p3s6s9s1z2z3z5z6z", "123m456p789s234s7z", "", "123m456p789s234s7z"]
    state = table(hands=hands)
    state = replace(state, phase=TurnPhase(seat=2, drawn=True, source="claim"))
    me = state.seats[2]
    state = state.with_seat(2, concealed=tuple(sorted((*me.concealed, T("7z")))))
    state = act(state, Discard(seat=2, tile=T("7z")))
    assert isinstance(state.phase, ClaimPhase)
    assert set(state.phase.asked) == {1, 3}
    state = act(state, DeclareWin(seat=1))
    state = act(state, DeclareWin(seat=3))
    assert state.result is not None
    assert state.result.winner == 3


def test_a_concealed_kong_pays_and_draws_a_replacement_from_the_far_end() -> None:
    hands = ["1111p4m7m2p5p8p3s6s9s1z", "", "", ""]
    state = table(hands=hands, far="9m")
    assert ConcealedKong(seat=0, tile=T("1p")) in offered(state, 0)
    state, events = act_events(state, ConcealedKong(seat=0, tile=T("1p")))
    me = state.seats[0]
    assert me.melds == (Meld("kong", (T("1p"),) * 4, concealed=True),)
    assert me.drawn == T("9m")
    assert state.phase == TurnPhase(seat=0, drawn=True, source="kong_draw")
    assert state.far == 1
    assert state.kongs == 1
    # 1p 幺饼 is a 大蛋: a concealed one pays 4 × base from each other player.
    assert sorted((t.payer, t.amount) for t in state.kong_transfers) == [(1, 4), (2, 4), (3, 4)]
    assert any(isinstance(e, Drew) and e.replacement for e in events)


def test_an_exposed_kong_on_a_discard_draws_a_replacement() -> None:
    hands = ["1m4m7m2p5p8p3s6s9s1z2z3z5z6z", "", "666s", ""]
    state = table(hands=hands, far="9m")
    state = act(state, Discard(seat=0, tile=T("6s")))
    assert ExposedKong(seat=2) in offered(state, 2)
    state = act(state, ExposedKong(seat=2))
    state = pass_claims(state)
    assert state.phase == TurnPhase(seat=2, drawn=True, source="kong_draw")
    assert state.seats[2].melds[0] == Meld("kong", (T("6s"),) * 4, from_seat=0)
    assert state.seats[2].drawn == T("9m")


def test_an_added_kong_can_be_robbed_by_a_win() -> None:
    hands = ["5p1m4m7m2p8p3s6s9s1z2z", "", "", "123m46p789s234s7z7z"]
    state = table(hands=hands)
    state = state.with_seat(0, melds=(Meld("pong", (T("5p"),) * 3, from_seat=2),), opened=True)
    assert AddedKong(seat=0, tile=T("5p")) in offered(state, 0)
    state = act(state, AddedKong(seat=0, tile=T("5p")))
    assert isinstance(state.phase, ClaimPhase)
    assert state.phase.kind == "rob_kong"
    assert offered(state, 3) == [DeclareWin(seat=3), Pass(seat=3)]
    state = act(state, DeclareWin(seat=3))
    result = state.result
    assert result is not None
    assert (result.winner, result.win_by, result.discarder) == (3, "rob_kong", 0)
    assert state.kong_transfers == ()  # the robbed kong is cancelled
    assert T("5p") not in state.seats[0].concealed


def test_an_added_kong_nobody_robs_is_completed() -> None:
    hands = ["5p1m4m7m2p8p3s6s9s1z2z", "", "", "123m46p789s234s7z7z"]
    state = table(hands=hands)
    state = state.with_seat(0, melds=(Meld("pong", (T("5p"),) * 3, from_seat=2),), opened=True)
    state = act(state, AddedKong(seat=0, tile=T("5p")))
    state = act(state, Pass(seat=3))
    assert state.seats[0].melds[0] == Meld("kong", (T("5p"),) * 4, from_seat=2, added=True)
    assert state.phase == TurnPhase(seat=0, drawn=True, source="kong_draw")
    assert len(state.kong_transfers) == 3


def test_ting_locks_the_hand_to_discarding_the_drawn_tile() -> None:
    hands = ["123m456p789s234s7z5z", "", "", ""]
    state = table(hands=hands, live="2z3z4z9m")
    assert Discard(seat=0, tile=T("5z"), ting=True) in offered(state, 0)
    assert Discard(seat=0, tile=T("1m"), ting=True) not in offered(state, 0)
    state = pass_claims(act(state, Discard(seat=0, tile=T("5z"), ting=True)))
    assert state.seats[0].ting
    assert state.seats[0].waits == (T("7z"),)
    assert state.first_ting == 0
    for _ in range(3):
        state = discard_drawn(state)
    assert state.phase == TurnPhase(seat=0, drawn=True, source="draw")
    assert offered(state, 0) == [Discard(seat=0, tile=T("9m"))]
    with pytest.raises(HandLocked):
        apply(state, Discard(seat=0, tile=T("1m")))


def test_a_ready_player_is_not_offered_a_pong() -> None:
    hands = ["123m456p789s234s7z5z", "", "5z5z", ""]
    state = table(hands=hands, live="2z3z")
    state = pass_claims(act(state, Discard(seat=0, tile=T("5z"), ting=True)))
    state = discard_drawn(state)  # seat 1
    state = discard_drawn(state)  # seat 2 discards 3z
    assert all(not isinstance(a, Pong) for a in offered(state, 0))


def test_the_round_is_drawn_when_the_next_draw_would_enter_the_reserve() -> None:
    state = table()
    state = replace(state, live=121)  # one live tile left before the 7-stack reserve
    state = act(state, Discard(seat=0, tile=T("5z")))
    assert turn_is(state, 1)
    state = discard_drawn(state)
    assert isinstance(state.phase, EndedPhase)
    assert state.result is not None
    assert state.result.winner is None
    assert state.result.next_dealer == 0  # 荒庄: the dealer stays
    assert state.result.nets == (0, 0, 0, 0)


def turn_is(state, seat: int) -> bool:
    return isinstance(state.phase, TurnPhase) and state.phase.seat == seat


def test_kong_payments_stand_in_a_drawn_round() -> None:
    state = table(hands=["1111p4m7m2p5p8p3s6s9s1z", "", "", ""], far="9m")
    state = act(state, ConcealedKong(seat=0, tile=T("1p")))
    state = replace(state, live=119)  # reserve is still 7 stacks after one kong
    state = act(state, Discard(seat=0, tile=T("9m")))
    state = pass_claims(state)
    while not isinstance(state.phase, EndedPhase):
        state = discard_drawn(state)
    assert state.result is not None
    assert state.result.winner is None
    assert state.result.nets == (12, -4, -4, -4)


def test_nothing_is_legal_after_the_round_ends() -> None:
    state = act(table(), Discard(seat=0, tile=T("7z")))
    state = act(state, Pass(seat=2))
    state = act(state, DeclareWin(seat=3))
    assert legal_actions(state, 3) == []
    with pytest.raises(RoundOver):
        apply(state, Discard(seat=3, tile=T("1m")))


def test_apply_never_changes_its_input() -> None:
    state = table()
    before = copy.deepcopy(state)
    act(state, Discard(seat=0, tile=T("1m")))
    assert state == before


@pytest.mark.parametrize(
    "action",
    [
        Discard(seat=1, tile=5, ting=True),
        SelfDrawWin(seat=0),
        DeclareWin(seat=2),
        Chow(seat=1, tiles=(3, 4, 5)),
        Pong(seat=3),
        ExposedKong(seat=3),
        ConcealedKong(seat=0, tile=33),
        AddedKong(seat=0, tile=9),
        SpecialKong(seat=2, name="xuanfeng"),
        AddToSpecialKong(seat=2, tile=27),
        Pass(seat=1),
        ChowTing(seat=1, tiles=(18, 19, 20)),
        Chen(seat=0, yes=True),
    ],
)
def test_every_action_round_trips_through_json(action) -> None:
    data = action.to_json()
    assert data["kind"] in ACTION_TYPES
    assert action_from_json(data) == action


def test_a_malformed_action_raises_a_rules_error() -> None:
    with pytest.raises(RulesError):
        action_from_json({"kind": "discard", "seat": 0, "tile": "9x"})
    with pytest.raises(RulesError):
        action_from_json({"kind": "teleport", "seat": 0})


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "discard", "seat": "0", "tile": "1m"},
        {"kind": "discard", "seat": 4, "tile": "1m"},
        {"kind": "discard", "seat": True, "tile": "1m"},
        {"kind": "discard", "seat": 0, "tile": "1m", "ting": "yes"},
        {"kind": "chow", "seat": 1, "tiles": ["1m", "2m"]},
        {"kind": "chow", "seat": 1, "tiles": "123m"},
        {"kind": "special_kong", "seat": 1, "name": 3},
        {"kind": "discard", "seat": 0},
        {"seat": 0},
        {"kind": "discard", "seat": 0, "tile": 5},
    ],
)
def test_action_json_of_the_wrong_type_is_refused(data) -> None:
    with pytest.raises(RulesError):
        action_from_json(data)


def test_pong_beats_an_earlier_seats_chow_and_a_kong_beats_chow() -> None:
    # Changchun: win > pong > kong > chow. Seat 1 can chow 3p, seat 3 can kong it.
    hands = ["1m4m7m3p5p8p3s6s9s1z2z3z5z6z", "1p2p4p5p", "", "3p3p3p"]
    state = table(hands=hands, far="9m")
    state = act(state, Discard(seat=0, tile=T("3p")))
    assert isinstance(state.phase, ClaimPhase)
    assert set(state.phase.asked) == {1, 3}
    state = act(state, Chow(seat=1, tiles=(T("1p"), T("2p"), T("3p"))))
    state = act(state, ExposedKong(seat=3))
    assert state.seats[3].melds[0].kind == "kong"
    assert state.seats[1].melds == ()


def test_arrange_round_refuses_a_hand_too_big() -> None:
    with pytest.raises(ValueError, match="more than its hand"):
        table(hands=["1111p2222p4m7m3s6s9s1z2z5z", "", "", ""])
