"""Taiwan 16-tile's own flow (taiwan16.md): 144 tiles, 17 / 16 tiles, flowers set aside and
replaced from the far end (补花) at the deal and on every draw, 槓上開花 on a flower's replacement,
robbing an added kong, the 16-tile reserve, 連莊 carried into the round and the four wind rounds
of a match."""

from __future__ import annotations

from rules.engine import (
    AddedKong,
    Chow,
    DeclareWin,
    Discard,
    Pass,
    Pong,
    SelfDrawWin,
    new_round,
)
from rules.engine.arrange import arrange_round
from rules.engine.events import Drew, FlowerShown
from rules.engine.flow import NextRound
from rules.engine.state import ClaimPhase, EndedPhase, RoundState, TurnPhase
from rules.persist import state_from_json, state_to_json
from rules.registry import VARIANTS, get_variant
from rules.simulate import simulate_rounds, tile_counts
from rules.tiles import EAST, NORTH, SOUTH, WEST, count_tiles, full_set, is_flower, tile_name
from rules.variants.taiwan16.flow import next_round, seat_flowers
from rules.views import event_for, seat_view
from rules.wall import seed_from_text
from tests.rules.engine_helpers import T, act, discard_drawn, offered, pass_claims
from tests.rules.flow_helpers import play_eager_rounds
from tests.rules.test_views import check_event, check_view

TW = get_variant("taiwan16").flow
DEALER = "1m1m2m2m3m3m4p4p5p5p6p6p7s7s8s8s1z"
"""Seventeen tiles; the 17th (the drawn one) is 1z, which nobody can claim."""
READY = "1m2m3m4m5m6m7m8m9m2p3p4p5s5s7s8s"
"""Seat 1, ready on 6s / 9s (all chows, open wait)."""


def taiwan(**kwargs: object) -> RoundState:
    hands = kwargs.pop("hands", [DEALER, READY, "", ""])
    return arrange_round(VARIANTS["taiwan16"], hands=hands, **kwargs)  # type: ignore[arg-type]


def test_a_round_has_144_tiles_and_deals_17_and_16_without_flowers_in_hand() -> None:
    state, events = new_round(
        variant=VARIANTS["taiwan16"], seed=seed_from_text("tw-deal"), dealer=2
    )
    assert len(state.wall) == 144
    assert [len(s.concealed) for s in state.seats] == [16, 16, 17, 16]
    assert not any(is_flower(t) for s in state.seats for t in s.concealed)
    assert tile_counts(state) == count_tiles(full_set(TW.tile_kinds))
    shown = [e.tile for e in events if isinstance(e, FlowerShown)]
    assert sorted(shown) == sorted(TW.tiles_aside(state))


def test_flowers_at_the_deal_are_replaced_from_the_far_end_dealer_first() -> None:
    dealer = "1m2m3m4m5m6m7m8m9m1p2p3p4p5p6p7p1f"
    seat1 = "1s2s3s4s5s6s7s8s9s1z1z1z2z2z2z2f"
    state = taiwan(hands=[dealer, seat1, "", ""], far="5z3f6z")
    # The dealer's 17th tile (1f) goes first and is replaced by wall[-1]; seat 1's 2f by
    # wall[-2], itself a flower (3f), replaced in turn by wall[-3].
    assert seat_flowers(state, 0) == (T("1f"),)
    assert seat_flowers(state, 1) == (T("2f"), T("3f"))
    assert state.seats[0].drawn == T("5z")
    assert T("6z") in state.seats[1].concealed
    assert state.far == 3
    assert [len(s.concealed) for s in state.seats] == [17, 16, 16, 16]


def test_the_deal_events_show_each_flower_to_everyone() -> None:
    state, events = new_round(
        variant=VARIANTS["taiwan16"], seed=seed_from_text("tw-flowers"), dealer=0
    )
    flowers = [e for e in events if isinstance(e, FlowerShown)]
    assert flowers, "this seed deals at least one flower"
    for event in flowers:
        for viewer in (0, 1, 2, 3, None):
            assert event_for(event, viewer) == {
                "kind": "flower",
                "seat": event.seat,
                "tile": tile_name(event.tile),
            }
    view = seat_view(state, None)
    assert sum(len(s["flowers"]) for s in view["seats"]) == len(flowers)


def test_a_drawn_flower_is_set_aside_and_its_replacement_can_win_as_gangshang() -> None:
    state = taiwan(live="4f", far="6s")
    state = discard_drawn(state)  # the dealer's 1z; seat 1 draws 4f, set aside, then 6s
    assert state.phase == TurnPhase(seat=1, drawn=True, source="draw")
    assert seat_flowers(state, 1) == (T("4f"),)
    assert state.seats[1].drawn == T("6s")
    assert SelfDrawWin(seat=1) in offered(state, 1)
    state = act(state, SelfDrawWin(seat=1))
    assert state.result is not None
    assert state.result.verdict is not None
    fan = state.result.verdict.fan
    assert fan["gangshang"] == 1
    assert "pinghu" not in fan  # a self-draw, and a flower
    assert fan["menqing_zimo"] == 3


def test_an_ordinary_draw_after_a_flower_is_not_gangshang() -> None:
    state = taiwan(live="4f1z2z3z6s", far="7z")
    state = discard_drawn(state)  # seat 1: 4f → 7z
    assert state.seats[1].drawn == T("7z")
    for _ in range(4):
        state = discard_drawn(state)
    assert state.phase == TurnPhase(seat=1, drawn=True, source="draw")
    assert state.seats[1].drawn == T("6s")
    state = act(state, SelfDrawWin(seat=1))
    assert state.result is not None
    assert state.result.verdict is not None
    assert "gangshang" not in state.result.verdict.fan


def test_chow_is_offered_to_the_next_seat_only_and_loses_to_a_pong() -> None:
    dealer = "1m1m2m2m3m3m4p4p5p5p6p6p7s7s8s8s3p"
    seat2 = "3p3p9m9m9m1s1s1s2s2s2s3s3s3s5z5z"
    state = act(taiwan(hands=[dealer, READY, seat2, ""]), Discard(seat=0, tile=T("3p")))
    assert isinstance(state.phase, ClaimPhase)
    assert Chow(seat=1, tiles=(T("2p"), T("3p"), T("4p"))) in offered(state, 1)
    assert Pong(seat=2) in offered(state, 2)
    assert not any(isinstance(a, Chow) for a in offered(state, 2))
    state = act(state, Chow(seat=1, tiles=(T("2p"), T("3p"), T("4p"))))
    state = act(state, Pong(seat=2))
    assert state.phase == TurnPhase(seat=2, drawn=True, source="claim")


def test_a_win_on_a_discard_ranks_above_everything() -> None:
    dealer = "1m1m2m2m3m3m4p4p5p5p6p6p7s7s8s8s6s"
    seat2 = "6s6s9m9m9m1s1s1s2s2s2s3s3s3s5z5z"
    state = act(taiwan(hands=[dealer, READY, seat2, ""]), Discard(seat=0, tile=T("6s")))
    state = act(state, Pong(seat=2))
    state = act(state, DeclareWin(seat=1))
    assert state.result is not None
    assert state.result.winner == 1
    assert state.result.verdict is not None
    assert state.result.verdict.fan == {"zhuangjia": 1, "menqing": 1, "pinghu": 2}


def test_an_added_kong_can_be_robbed_for_qianggang() -> None:
    # Seat 2 pongs the dealer's 9s and later draws the fourth; seat 1, ready on 6s / 9s, robs it.
    dealer = "1m1m2m2m3m3m4p4p5p5p6p6p7s7s8s8s9s"
    seat2 = "9s9s9m9m9m1s1s1s2s2s2s3s3s3s5z6z"
    state = taiwan(hands=[dealer, READY, seat2, ""], live="1z2z3z9s")
    state = act(state, Discard(seat=0, tile=T("9s")))
    state = act(state, Pass(seat=1))
    state = act(state, Pong(seat=2))
    state = pass_claims(act(state, Discard(seat=2, tile=T("6z"))))
    for _ in range(3):  # seats 3, 0 and 1 draw 1z, 2z, 3z and let them go
        state = discard_drawn(state)
    assert state.phase == TurnPhase(seat=2, drawn=True, source="draw")
    assert state.seats[2].drawn == T("9s")
    state = act(state, AddedKong(seat=2, tile=T("9s")))
    assert isinstance(state.phase, ClaimPhase)
    assert state.phase.kind == "rob_kong"
    state = act(state, DeclareWin(seat=1))
    assert state.result is not None
    assert state.result.verdict is not None
    assert state.result.win_by == "rob_kong"
    assert state.result.verdict.fan == {"menqing": 1, "qianggang": 1, "pinghu": 2}
    assert state.result.nets == (0, 5, -5, 0)


def test_live_draws_stop_when_sixteen_tiles_remain() -> None:
    state, _ = new_round(variant=VARIANTS["taiwan16"], seed=seed_from_text("tw-end"), dealer=0)
    while not isinstance(state.phase, EndedPhase):
        if isinstance(state.phase, ClaimPhase):
            state = pass_claims(state)
            continue
        state = discard_drawn(state)  # nobody takes a win: the round runs to the reserve
    assert state.result is not None
    assert state.result.winner is None
    assert 16 - 8 <= state.wall_left <= 16  # a flower drawn last is still replaced
    assert state.result.next_dealer == 0  # a drawn round: the dealer stays (連莊)


def test_the_lianzhuang_count_of_the_match_is_scored_by_the_dealer() -> None:
    state, _ = new_round(
        variant=VARIANTS["taiwan16"],
        seed=seed_from_text("tw-lz"),
        dealer=1,
        round_wind=SOUTH,
        lianzhuang=3,
    )
    assert state.extra["lianzhuang"] == 3
    assert seat_view(state, None)["lianzhuang"] == 3
    assert seat_view(state, None)["round_wind"] == "2z"
    extra = TW.context_extra(state, 1)
    assert (extra["lianzhuang"], extra["round_wind"], extra["seat_wind"]) == (3, SOUTH, EAST)
    plain, _ = new_round(variant=VARIANTS["changchun"], seed=seed_from_text("tw-lz"), dealer=1)
    assert plain.extra == {}


def test_the_dealer_stays_with_a_count_and_the_wind_moves_after_every_seat_dealt() -> None:
    assert (
        next_round(
            first_dealer=0, dealer=0, round_wind=EAST, lianzhuang=0, next_dealer=0
        ).lianzhuang
        == 1
    )
    moved = next_round(first_dealer=0, dealer=0, round_wind=EAST, lianzhuang=2, next_dealer=1)
    assert (moved.dealer, moved.round_wind, moved.lianzhuang) == (1, EAST, 0)
    back = next_round(first_dealer=0, dealer=3, round_wind=EAST, lianzhuang=0, next_dealer=0)
    assert (back.dealer, back.round_wind, back.match_over) == (0, SOUTH, False)
    over = next_round(first_dealer=2, dealer=1, round_wind=NORTH, lianzhuang=4, next_dealer=2)
    assert over.match_over


def match_progress(first_dealer: int, rounds: list[tuple[int, int]]) -> NextRound:
    """The next round after ``rounds`` (each ``(dealer, next_dealer)`` in order) of a match whose
    first dealer is ``first_dealer``; with no rounds, the first one (东, count 0)."""
    setup = NextRound(first_dealer, EAST, 0)
    for dealer, following in rounds:
        setup = next_round(
            first_dealer=first_dealer,
            dealer=dealer,
            round_wind=setup.round_wind,
            lianzhuang=setup.lianzhuang,
            next_dealer=following,
        )
    return setup


def test_a_match_is_four_wind_rounds() -> None:
    rounds = [(0, 0), (0, 1), (1, 1), (1, 2), (2, 3), (3, 0)]  # east: 0 stays, 1 stays
    setup = match_progress(0, rounds)
    assert (setup.dealer, setup.round_wind, setup.lianzhuang) == (0, SOUTH, 0)
    assert match_progress(0, rounds[:3]).lianzhuang == 1
    cycle = [(d, (d + 1) % 4) for d in range(4)]
    assert match_progress(0, cycle * 2).round_wind == WEST
    assert not match_progress(0, cycle * 3 + cycle[:3]).match_over
    assert match_progress(0, cycle * 4).match_over


def test_tianhu_when_the_dealer_wins_on_the_deal() -> None:
    dealer = "1m2m3m4m5m6m7m8m9m2p3p4p5s5s7s8s9s"
    state = taiwan(hands=[dealer, "", "", ""])
    state = act(state, SelfDrawWin(seat=0))
    assert state.result is not None
    assert state.result.verdict is not None
    assert state.result.verdict.fan["tianhu"] == 16


def test_dihu_when_another_seat_wins_on_its_first_draw() -> None:
    state = discard_drawn(taiwan(live="9s"))
    state = act(state, SelfDrawWin(seat=1))
    assert state.result is not None
    assert state.result.verdict is not None
    assert state.result.verdict.fan["dihu"] == 16


def test_thirty_simulated_rounds_keep_every_invariant() -> None:
    report = simulate_rounds(VARIANTS["taiwan16"], 30, "tw-flows")
    assert report.invariants == "ok"
    assert report.rounds == 30


def test_no_event_or_view_leaks_hidden_tiles_and_flowers_are_public() -> None:
    flowers = 0
    for state, events in play_eager_rounds("taiwan16", "tw-views", rounds=3):
        for viewer in (0, 1, 2, 3, None):
            for event in events:
                check_event(event, viewer, state)
            check_view(state, viewer)
        flowers += sum(isinstance(e, FlowerShown) for e in events)
        drawn = [e for e in events if isinstance(e, Drew)]
        for event in drawn:
            assert "tile" not in (event_for(event, (event.seat + 1) % 4) or {})
    assert flowers > 0


def test_every_state_survives_a_json_round_trip() -> None:
    for state, _ in play_eager_rounds("taiwan16", "tw-json", rounds=2):
        assert state_from_json(state_to_json(state)) == state
