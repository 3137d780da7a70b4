"""Siping's own flow (siping.md): the deal with the second roll and 跳牌, 报听 only where a wait
needs it, 抻 asked before the draw and a self-draw only after it, 分张 at the end of the wall,
and the 风杠 option."""

from __future__ import annotations

from rules.engine import (
    AddToSpecialKong,
    Chen,
    DeclareWin,
    Discard,
    Pass,
    Pong,
    SelfDrawWin,
    SpecialKong,
    apply,
    new_round,
)
from rules.engine.arrange import arrange_round
from rules.engine.events import DiceRolled, Discarded, Drew, RoundEnded
from rules.engine.state import ClaimPhase, EndedPhase, RoundState, TurnPhase
from rules.persist import state_from_json, state_to_json
from rules.registry import VARIANTS, get_variant
from rules.simulate import broken_invariant, simulate_rounds
from rules.wall import seed_from_text
from tests.rules.engine_helpers import T, act, discard_drawn, offered, pass_claims
from tests.rules.flow_helpers import play_eager_rounds
from tests.rules.test_views import check_event, check_view

SP = get_variant("siping").flow

DEALER = "9m1m2m3m4m5m6m7m8m1s2s3s4p6p"
# After ponging 9m and letting 7z go: 1p3p 456s 789p 55s, ready on 2p alone (夹).
JIA = "9m9m1p3p4s5s6s7p8p9p5s5s7z"
# The same with 2p3p: ready on 1p / 4p (two-sided), no 报听 needed.
OPEN = "9m9m2p3p4s5s6s7p8p9p5s5s7z"


def siping(**kwargs: object) -> RoundState:
    hands = kwargs.pop("hands", [DEALER, JIA, "", ""])
    return arrange_round(VARIANTS["siping"], hands=hands, **kwargs)  # type: ignore[arg-type]


def pong_dealer_9m(state: RoundState) -> RoundState:
    state = act(state, Discard(seat=0, tile=T("9m")))
    return pass_claims(act(state, Pong(seat=1)))


def test_the_deal_jumps_the_dealer_to_the_first_and_third_stacks() -> None:
    state, _ = new_round(variant=VARIANTS["siping"], seed=seed_from_text("sp"), dealer=2)
    wall = state.wall
    dealt = [s.dealt for s in state.seats]
    assert [len(d) for d in dealt] == [13, 13, 14, 13]
    # Three rounds of four tiles take positions 0–47; then 跳牌.
    assert dealt[2][-2:] == (wall[48], wall[52])
    assert (dealt[3][-1], dealt[0][-1], dealt[1][-1]) == (wall[49], wall[50], wall[51])
    assert state.live == 53
    assert state.seats[2].drawn == wall[52]


def test_the_second_roll_is_recorded_and_sets_the_starting_stack() -> None:
    state, events = new_round(variant=VARIANTS["siping"], seed=seed_from_text("sp"), dealer=0)
    second = next(e for e in events if isinstance(e, DiceRolled) and e.purpose == "second_roll")
    assert state.break_point.stack == sum(state.dice) + sum(second.dice) + 1


def test_bao_ting_is_offered_for_a_jia_wait() -> None:
    state = pong_dealer_9m(siping())
    assert state.phase == TurnPhase(seat=1, drawn=True, source="claim")
    assert Discard(seat=1, tile=T("7z"), ting=True) in offered(state, 1)


def test_bao_ting_is_not_offered_where_no_wait_needs_it() -> None:
    state = pong_dealer_9m(siping(hands=[DEALER, OPEN, "", ""]))
    assert Discard(seat=1, tile=T("7z")) in offered(state, 1)
    assert not any(isinstance(a, Discard) and a.ting for a in offered(state, 1))


def test_no_bao_ting_option_never_offers_it() -> None:
    state = pong_dealer_9m(siping(options={"no_baoting": True}))
    assert not any(isinstance(a, Discard) and a.ting for a in offered(state, 1))


def ting_on_jia(live: str) -> RoundState:
    state = pong_dealer_9m(siping(live=live))
    state = pass_claims(act(state, Discard(seat=1, tile=T("7z"), ting=True)))
    for _ in range(3):
        state = discard_drawn(state)
    return state


def test_chen_is_asked_before_the_draw_of_the_next_turn_after_a_jia_ting() -> None:
    state = ting_on_jia("1z1z1z1z")
    assert state.phase == TurnPhase(seat=1, drawn=False, source="predraw")
    assert offered(state, 1) == [Chen(seat=1, yes=True), Chen(seat=1, yes=False)]
    assert state.seats[1].drawn is None


def test_after_chen_a_discard_of_the_winning_tile_cannot_be_won_on() -> None:
    state = ting_on_jia("1z1z1z1z2p2z2z2p")
    state = act(state, Chen(seat=1, yes=True))
    assert state.seats[1].drawn == T("1z")
    state = pass_claims(act(state, Discard(seat=1, tile=T("1z"))))
    state = act(state, Discard(seat=2, tile=T("2p")))
    if isinstance(state.phase, ClaimPhase):
        assert DeclareWin(seat=1) not in offered(state, 1)
        state = pass_claims(state)
    for _ in range(2):
        state = discard_drawn(state)
    # The self-draw of 2p wins: 夹, 自摸 and 抻.
    assert state.seats[1].drawn == T("2p")
    state = act(state, SelfDrawWin(seat=1))
    assert state.result is not None
    assert state.result.verdict is not None
    assert state.result.verdict.fan == {"pinghu": 0, "jia": 1, "zimo": 1, "chen": 1}


def test_without_chen_a_discard_win_is_allowed() -> None:
    state = ting_on_jia("1z1z1z1z2p")
    state = act(state, Chen(seat=1, yes=False))
    state = pass_claims(act(state, Discard(seat=1, tile=T("1z"))))
    state = act(state, Discard(seat=2, tile=T("2p")))
    assert DeclareWin(seat=1) in offered(state, 1)
    state = pass_claims(act(state, DeclareWin(seat=1)))
    assert state.result is not None
    assert state.result.verdict is not None
    assert state.result.verdict.fan["jia"] == 1
    assert "chen" not in state.result.verdict.fan


def test_the_end_of_the_wall_deals_four_tiles_without_discards() -> None:
    state = siping(dealer=1, hands=["", DEALER, "", ""])
    while SP.live_left(state) > 0:
        state = discard_drawn(state)
    assert state.wall_left == 4
    seat = state.phase.seat  # type: ignore[union-attr]
    drawn = state.seats[seat].drawn
    assert drawn is not None
    state, events = apply(state, Discard(seat=seat, tile=drawn))
    while isinstance(state.phase, ClaimPhase):
        asked = next(s for s in state.phase.asked if state.phase.answers[s] is None)
        state, more = apply(state, Pass(seat=asked))
        events += more
    assert isinstance(state.phase, EndedPhase)
    start = next(i for i, e in enumerate(events) if isinstance(e, Drew))
    tail = events[start:]
    assert [e.seat for e in tail if isinstance(e, Drew)] == [(seat + 1 + i) % 4 for i in range(4)]
    assert not any(isinstance(e, Discarded) for e in tail)
    ended = tail[-1]
    assert isinstance(ended, RoundEnded)
    assert ended.winner is None
    assert ended.next_dealer == 1
    assert state.wall_left == 0


def test_whirlwind_kong_option_lays_the_four_winds_without_opening() -> None:
    hands = ["1z2z3z4z1m4m7m2p5p8p3s6s9s5z", "", "", ""]
    assert SpecialKong(seat=0, name="xuanfeng") not in offered(siping(hands=hands), 0)
    state = siping(hands=hands, far="9m", options={"fengang": True})
    state = act(state, SpecialKong(seat=0, name="xuanfeng"))
    me = state.seats[0]
    assert me.melds[0].name == "xuanfeng"
    assert not me.opened
    assert me.drawn == T("9m")
    assert sorted(t.amount for t in state.kong_transfers) == [2, 2, 2]


def test_fifty_simulated_rounds_keep_every_invariant() -> None:
    report = simulate_rounds(VARIANTS["siping"], 50, "flows")
    assert report.invariants == "ok"
    assert report.rounds == 50


def test_no_event_or_view_leaks_hidden_tiles() -> None:
    for state, events in play_eager_rounds("siping", "sp-views", rounds=5):
        for viewer in (0, 1, 2, 3, None):
            for event in events:
                check_event(event, viewer, state)
            check_view(state, viewer)


def test_chen_zfb_ting_on_the_third_dragon_wins_by_self_draw_only() -> None:
    # After ponging 9m and letting 1z go: 5z 6z, 123p, 456s, 55s: ready on 7z (抻中发白).
    hands = [DEALER, "9m9m5z6z1p2p3p4s5s6s5s5s1z", "", ""]
    state = pong_dealer_9m(siping(hands=hands, live="7z1z1z7z", options={"chen_zfb": True}))
    assert Discard(seat=1, tile=T("1z"), ting=True) in offered(state, 1)
    state = pass_claims(act(state, Discard(seat=1, tile=T("1z"), ting=True)))
    assert state.seats[1].waits == (T("7z"),)
    state = act(state, Discard(seat=2, tile=T("7z")))
    assert not isinstance(state.phase, ClaimPhase) or DeclareWin(seat=1) not in offered(state, 1)
    state = pass_claims(state)
    for _ in range(2):
        state = discard_drawn(state)
    # No 抻 question (no 夹 reading): seat 1 draws 7z at once and wins.
    assert state.seats[1].drawn == T("7z")
    state = act(state, SelfDrawWin(seat=1))
    assert state.result is not None
    assert state.result.verdict is not None
    assert {"zimo", "chen"} <= set(state.result.verdict.fan)


def test_rounds_with_every_room_option_on_keep_every_invariant() -> None:
    options = {"liting": True, "fengang": True, "zfbgang": True, "chen_zfb": True}
    ended = 0
    for state, _ in play_eager_rounds("siping", "sp-options", rounds=12, options=options):
        if state.result is not None:
            ended += 1
            assert broken_invariant(state) is None
    assert ended == 12


def test_a_further_wind_is_added_to_the_whirlwind_kong_and_pays_as_an_added_kong() -> None:
    hands = ["1z2z3z4z1z1m4m7m2p5p8p3s6s9s", "", "", ""]
    state = siping(hands=hands, far="9m9p", options={"fengang": True})
    state = act(state, SpecialKong(seat=0, name="xuanfeng"))
    assert AddToSpecialKong(seat=0, tile=T("1z")) in offered(state, 0)
    state = act(state, AddToSpecialKong(seat=0, tile=T("1z")))
    assert len(state.seats[0].melds[0].tiles) == 5
    assert state.seats[0].drawn == T("9p")
    assert sorted(t.amount for t in state.kong_transfers) == [1, 1, 1, 2, 2, 2]


def test_the_dragon_kong_option_lays_three_dragons_without_a_replacement() -> None:
    hands = ["5z6z7z1m4m7m2p5p8p3s6s9s1z2z", "", "", ""]
    state = siping(hands=hands, options={"zfbgang": True})
    state = act(state, SpecialKong(seat=0, name="xi"))
    assert len(state.seats[0].concealed) == 11
    assert state.far == 0
    assert not state.seats[0].opened
    assert sorted(t.amount for t in state.kong_transfers) == [1, 1, 1]


def test_every_state_survives_a_json_round_trip() -> None:
    for state, _ in play_eager_rounds("siping", "sp-json", rounds=3):
        assert state_from_json(state_to_json(state)) == state


def test_chen_is_asked_for_a_compound_jia_wait() -> None:
    # 67789s after the 9m pong and the 7z ting: 5s or 8s, and 8s can be read as 7_9 (夹).
    state = pong_dealer_9m(siping(hands=[DEALER, "9m9m6s7s7s8s9s1p2p3p4p4p7z", "", ""]))
    assert Discard(seat=1, tile=T("7z"), ting=True) in offered(state, 1)
    state = pass_claims(act(state, Discard(seat=1, tile=T("7z"), ting=True)))
    assert state.seats[1].waits == (T("5s"), T("8s"))
    for _ in range(3):
        state = discard_drawn(state)
    assert offered(state, 1) == [Chen(seat=1, yes=True), Chen(seat=1, yes=False)]
