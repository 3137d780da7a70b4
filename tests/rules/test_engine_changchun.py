"""Changchun's own flow (changchun.md): special kongs, adds and 抢叉, the treasure (宝牌) with
对宝 / 摸宝 / 换宝, the 手把一 rule, the reserve and the dealer."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.engine import (
    AddToSpecialKong,
    ConcealedKong,
    DeclareWin,
    Discard,
    ExposedKong,
    Pass,
    Pong,
    SelfDrawWin,
    SpecialKong,
    apply,
)
from rules.engine.events import TreasurePlaced, TreasureSeen
from rules.engine.state import ClaimPhase, EndedPhase, Treasure, TurnPhase
from rules.errors import HandLocked
from rules.hand import Meld
from rules.registry import get_variant
from rules.views import seat_view
from rules.wall import Drbg
from tests.rules.engine_helpers import (
    T,
    act,
    act_events,
    discard_drawn,
    offered,
    pass_claims,
    table,
)

CC = get_variant("changchun").flow


def test_the_reserve_is_7_stacks_then_6_plus_k() -> None:
    assert [CC.reserve_stacks(k) for k in range(5)] == [7, 7, 8, 9, 10]


def test_the_dealer_stays_on_a_win_or_a_draw_and_passes_on_otherwise() -> None:
    state = table(dealer=1, hands=["", "", "", ""])
    assert CC.next_dealer(state, None) == 1
    assert CC.next_dealer(state, 1) == 1
    assert CC.next_dealer(state, 3) == 2


def test_a_whirlwind_kong_from_dealt_tiles_draws_a_replacement_and_pays() -> None:
    state = table(hands=["1z2z3z4z1m4m7m2p5p8p3s6s9s5z", "", "", ""], far="9m")
    assert SpecialKong(seat=0, name="xuanfeng") in offered(state, 0)
    state = act(state, SpecialKong(seat=0, name="xuanfeng"))
    me = state.seats[0]
    assert me.melds[0].kind == "special_kong"
    assert me.melds[0].name == "xuanfeng"
    assert me.drawn == T("9m")
    assert state.phase == TurnPhase(seat=0, drawn=True, source="kong_draw")
    assert sorted(t.amount for t in state.kong_transfers) == [1, 1, 1]


def test_a_three_tile_special_kong_draws_nothing() -> None:
    state = table(hands=["1m1p1s4m7m2p5p8p3s6s9s1z2z5z", "", "", ""])
    state = act(state, SpecialKong(seat=0, name="yao"))
    assert len(state.seats[0].concealed) == 11
    assert state.far == 0
    assert state.phase == TurnPhase(seat=0, drawn=True, source="deal")


def test_the_dealer_may_not_add_on_the_very_first_turn() -> None:
    state = table(hands=["1z2z3z4z1z1m4m7m2p5p8p3s6s", "", "", ""], far="9m")
    state = act(state, SpecialKong(seat=0, name="xuanfeng"))
    assert not any(isinstance(a, AddToSpecialKong) for a in offered(state, 0))


def test_a_special_kong_must_be_complete_among_the_dealt_tiles() -> None:
    # Seat 1 was dealt 1z2z3z and draws 4z: a later draw never completes a family.
    hands = ["1m4m7m2p5p8p3s6s9s2p5p8p3s5z", "1z2z3z2m3m5m6m3p4p6p7p1s2s", "", ""]
    state = table(hands=hands, live="4z")
    state = pass_claims(act(state, Discard(seat=0, tile=T("5z"))))
    assert state.seats[1].drawn == T("4z")
    assert not any(isinstance(a, SpecialKong) for a in offered(state, 1))


def test_a_non_dealer_adds_at_once_on_the_first_turn() -> None:
    hands = ["1m4m7m2p5p8p3s6s9s2p5p8p3s4z", "5z6z7z2m3m5m6m3p4p6p7p1s2s", "", "5z5z"]
    state = table(hands=hands, live="7z", far="9m")
    state = pass_claims(act(state, Discard(seat=0, tile=T("4z"))))
    state = act(state, SpecialKong(seat=1, name="xi"))
    assert AddToSpecialKong(seat=1, tile=T("7z")) in offered(state, 1)
    state = act(state, AddToSpecialKong(seat=1, tile=T("7z")))
    assert not isinstance(state.phase, ClaimPhase)  # first-turn adds cannot be robbed
    assert state.seats[1].melds[0].tiles == (T("5z"), T("6z"), T("7z"), T("7z"))
    assert state.seats[1].drawn == T("9m")
    assert sorted(t.amount for t in state.kong_transfers) == [1, 1, 1, 1, 1, 1]


def later_add_table():
    """Seat 0 holds a 喜杠 from an earlier turn and a 5z; seat 2 holds 5z5z."""
    hands = ["5z1m4m7m2p5p8p3s6s9s2p", "", "5z5z", ""]
    state = table(hands=hands, far="9m")
    meld = Meld("special_kong", (T("5z"), T("6z"), T("7z")), name="xi")
    return state.with_seat(0, melds=(meld,), opened=True, first_turn=False)


def test_a_later_add_to_a_special_kong_can_be_robbed_by_a_pong() -> None:
    state = act(later_add_table(), AddToSpecialKong(seat=0, tile=T("5z")))
    assert isinstance(state.phase, ClaimPhase)
    assert state.phase.kind == "rob_kong"
    assert Pong(seat=2) in offered(state, 2)
    state = act(state, Pong(seat=2))
    assert state.phase == TurnPhase(seat=2, drawn=True, source="claim")
    assert state.seats[2].melds[-1] == Meld("pong", (T("5z"),) * 3, from_seat=0)
    assert state.seats[0].melds[0].tiles == (T("5z"), T("6z"), T("7z"))  # add cancelled
    assert state.kong_transfers == ()


def test_a_later_add_nobody_robs_counts_one_more_kong() -> None:
    state = act(later_add_table(), AddToSpecialKong(seat=0, tile=T("5z")))
    state = act(state, Pass(seat=2))
    assert state.seats[0].melds[0].tiles == (T("5z"), T("6z"), T("7z"), T("5z"))
    assert sorted(t.amount for t in state.kong_transfers) == [1, 1, 1]
    assert state.seats[0].drawn == T("9m")


def test_a_meld_that_leaves_one_tile_in_hand_needs_all_pongs() -> None:
    # Seat 1 has three sets laid, one of them a chow: ponging 9p would leave 手把一.
    melds = (
        Meld("chow", (T("1s"), T("2s"), T("3s")), from_seat=0),
        Meld("pong", (T("5s"),) * 3, from_seat=2),
        Meld("pong", (T("6s"),) * 3, from_seat=3),
    )
    state = table(hands=["1m4m7m2p5p8p3s7s9s1z2z3z5z9p", "9p9p2m4m", "", ""])
    state = state.with_seat(1, melds=melds, opened=True)
    state = act(state, Discard(seat=0, tile=T("9p")))
    assert not any(isinstance(a, Pong) for a in offered(state, 1))
    pongs_only = tuple(replace(m, kind="pong", tiles=(T("4s"),) * 3) for m in melds[:1])
    state = table(hands=["1m4m7m2p5p8p3s7s9s1z2z3z5z9p", "9p9p2m4m", "", ""])
    state = state.with_seat(1, melds=pongs_only + melds[1:], opened=True)
    state = act(state, Discard(seat=0, tile=T("9p")))
    assert Pong(seat=1) in offered(state, 1)


def ready_dealer(far: str = ""):
    """The dealer declares ting waiting on 7z; the others discard what they draw."""
    hands = ["123m456p789s234s7z5z", "", "", ""]
    state = table(hands=hands, live="2z3z4z9m", far=far)
    state = pass_claims(act(state, Discard(seat=0, tile=T("5z"), ting=True)))
    for _ in range(2):
        state = discard_drawn(state)
    state, events = act_events(state, Discard(seat=3, tile=state.seats[3].drawn))
    return pass_claims(state), events


def treasure_far(tile: str) -> str:
    """Far-end tiles putting ``tile`` where the zero seed's first treasure dice point."""
    stacks = sum(Drbg(bytes(32)).dice(2))
    fill = ["2p", "3p", "4p", "6p", "7p", "8p", "2m", "3m", "5m", "6m", "8m", "1s", "2s", "3s"]
    return "".join(fill[: 2 * stacks - 1]) + tile


def test_the_treasure_is_rolled_at_the_first_ready_players_next_turn() -> None:
    state, events = ready_dealer(far=treasure_far("8s"))
    assert state.treasure is not None
    assert state.treasure.tile == T("8s")
    assert any(isinstance(e, TreasurePlaced) for e in events)
    seen = [e for e in events if isinstance(e, TreasureSeen)]
    assert [e.seat for e in seen] == [0]
    assert state.seats[0].treasure_seen == 1
    # The indicator stays in the wall, face down: only the ready seat is shown its tile.
    assert seat_view(state, 0)["treasure"]["tile"] == "8s"
    assert "tile" not in seat_view(state, 1)["treasure"]
    assert "tile" not in seat_view(state, None)["treasure"]


def test_duibao_wins_at_once_when_the_treasure_is_a_winning_tile() -> None:
    state, _ = ready_dealer(far=treasure_far("7z"))
    assert state.phase == TurnPhase(seat=0, drawn=False, source="predraw")
    assert offered(state, 0) == [SelfDrawWin(seat=0), Pass(seat=0)]
    state = act(state, SelfDrawWin(seat=0))
    assert isinstance(state.phase, EndedPhase)
    assert state.result is not None
    assert state.result.win_by == "self_draw"
    assert state.result.verdict is not None
    assert state.result.verdict.fan.get("duibao") == 2
    assert len(state.seats[0].concealed) == 13  # the treasure stays in the wall


def test_passing_duibao_draws_as_usual() -> None:
    state, _ = ready_dealer(far=treasure_far("7z"))
    state = act(state, Pass(seat=0))
    assert state.phase == TurnPhase(seat=0, drawn=True, source="draw")
    assert state.seats[0].drawn == T("9m")


def test_three_visible_copies_change_the_treasure() -> None:
    state, _ = ready_dealer(far=treasure_far("8s"))
    assert state.treasure is not None
    counter = state.drbg_counter
    discards = tuple(replace(d, tile=T("8s")) for d in state.seats[1].discards) * 3
    state = state.with_seat(1, discards=discards[:3])
    state = CC.after_tiles_shown(state, [])
    assert state.treasure is not None
    assert state.treasure.version >= 2
    assert state.treasure.history[0][0] == T("8s")
    assert state.drbg_counter > counter


def test_moabo_a_drawn_treasure_is_a_wildcard_for_a_ready_player() -> None:
    # The treasure is 9m; the dealer (waiting on 7z) draws a 9m: 摸宝.
    state, _ = ready_dealer(far=treasure_far("9m"))
    assert state.treasure is not None
    assert state.treasure.tile == T("9m")
    assert state.seats[0].drawn == T("9m")
    assert SelfDrawWin(seat=0) in offered(state, 0)
    state = act(state, SelfDrawWin(seat=0))
    assert state.result is not None
    assert state.result.verdict is not None
    assert state.result.verdict.fan.get("baopai") == 2


def test_drawing_the_indicator_changes_the_treasure() -> None:
    state, _ = ready_dealer(far=treasure_far("8s"))
    treasure = state.treasure
    assert treasure is not None
    out: list = []
    state = CC.after_draw(state, 0, treasure.position, out)
    assert state.treasure is not None
    assert state.treasure.version == 2
    assert state.treasure.history == ((T("8s"), treasure.position),)
    assert any(isinstance(e, TreasurePlaced) and e.change for e in out)


def test_a_new_treasure_is_seen_at_the_next_turn() -> None:
    state, _ = ready_dealer(far=treasure_far("8s"))
    assert state.treasure is not None
    shown = tuple(replace(state.seats[1].discards[0], tile=T("8s")) for _ in range(3))
    state = CC.after_tiles_shown(state.with_seat(1, discards=shown), [])
    assert state.seats[0].treasure_seen == 1 < state.treasure.version  # not yet
    out: list = []
    state = CC.on_turn_start(state, 0, out)
    assert state.seats[0].treasure_seen == state.treasure.version
    assert [e.seat for e in out if isinstance(e, TreasureSeen)] == [0]


def test_ting_is_not_offered_when_no_wait_would_be_a_legal_win() -> None:
    # 123m456m789m123p + 7z: ready, but every win lacks the bamboo suit (missing_suit).
    state = table(hands=["123m456m789m123p5z7z", "", "", ""])
    assert Discard(seat=0, tile=T("5z")) in offered(state, 0)
    assert not any(isinstance(a, Discard) and a.ting for a in offered(state, 0))


def test_a_ready_player_keeps_a_kong_that_keeps_the_waits() -> None:
    hands = ["111m456p789s234s7z5z", "", "", ""]
    state = table(hands=hands, live="2z3z4z1m", far="9p")
    state = pass_claims(act(state, Discard(seat=0, tile=T("5z"), ting=True)))
    for _ in range(3):
        state = discard_drawn(state)
    assert state.seats[0].drawn == T("1m")
    assert ConcealedKong(seat=0, tile=T("1m")) in offered(state, 0)
    state = act(state, ConcealedKong(seat=0, tile=T("1m")))
    assert state.seats[0].drawn == T("9p")
    assert offered(state, 0) == [Discard(seat=0, tile=T("9p"))]


def test_a_ready_player_asked_for_a_win_cannot_pong() -> None:
    hands = ["1m4m7m2p5p8p3s6s9s1z2z3z5z7z", "", "", "123m456p789s7z7z5z5z"]
    state = table(hands=hands)
    state = state.with_seat(3, ting=True, waits=(T("5z"), T("7z")))
    state = act(state, Discard(seat=0, tile=T("7z")))
    assert DeclareWin(seat=3) in offered(state, 3)
    assert Pong(seat=3) not in offered(state, 3)
    with pytest.raises(HandLocked):
        apply(state, Pong(seat=3))


def test_a_ready_player_whose_turn_begins_with_a_kong_sees_the_treasure_at_the_draw() -> None:
    hands = ["1m4m7m2p5p8p3s6s9s1z2z3z5z1p", "", "1p1p1p1m2m3m7s8s9s2s3s4s7z", ""]
    state = table(hands=hands, far="9m")
    state = state.with_seat(2, ting=True, waits=(T("7z"),))
    state = replace(state, treasure=Treasure(tile=state.wall[100], position=100))
    state = act(state, Discard(seat=0, tile=T("1p")))
    assert ExposedKong(seat=2) in offered(state, 2)
    state, events = act_events(state, ExposedKong(seat=2))
    state = pass_claims(state)
    assert state.seats[2].drawn == T("9m")
    assert state.seats[2].treasure_seen == 1
    assert [e.seat for e in events if isinstance(e, TreasureSeen)] == [2]


def test_a_win_robs_before_a_qiangcha_pong() -> None:
    # Seat 0 adds 5z to its 喜杠 later on; seat 2 could pong it (抢叉), seat 3 wins on it.
    hands = ["5z1m4m7m2p5p8p3s6s9s2p", "", "5z5z", "123m456p789s234s5z"]
    state = table(hands=hands, far="9m")
    meld = Meld("special_kong", (T("5z"), T("6z"), T("7z")), name="xi")
    state = state.with_seat(0, melds=(meld,), opened=True, first_turn=False)
    state = act(state, AddToSpecialKong(seat=0, tile=T("5z")))
    assert isinstance(state.phase, ClaimPhase)
    assert set(state.phase.asked) == {2, 3}
    state = act(state, Pong(seat=2))
    state = act(state, DeclareWin(seat=3))
    assert state.result is not None
    assert (state.result.winner, state.result.win_by, state.result.discarder) == (3, "rob_kong", 0)


def test_two_kongs_make_the_reserve_eight_stacks() -> None:
    state = table(hands=["1111p2222p4m7m3s6s9s1z", "", "", ""], far="9m8m")
    state = act(state, ConcealedKong(seat=0, tile=T("1p")))
    assert state.reserve_stacks == 7
    state = act(state, ConcealedKong(seat=0, tile=T("2p")))
    assert state.kongs == 2
    assert state.reserve_stacks == 8
    # 136 tiles, two replacement draws: 67 whole stacks, 8 kept back → 118 is the live limit.
    assert state.live + state.live_left == 118
