"""Harbin's own flow (harbin.md): the treasure at the end of the wall seen only after ting, 摸宝,
换宝 into the dealer's discard row, 吃听 above pong, the four-tiles rule, the winner dealing next,
and the end of the wall dealt one tile at a time with automatic discards."""

from __future__ import annotations

from rules.engine import (
    Chow,
    ChowTing,
    ConcealedKong,
    Discard,
    Pass,
    Pong,
    SelfDrawWin,
    apply,
    new_round,
)
from rules.engine.arrange import arrange_round
from rules.engine.events import (
    ClaimWindowOpened,
    Discarded,
    Drew,
    Event,
    RoundEnded,
    TreasurePlaced,
    TreasureRetired,
    TreasureSeen,
)
from rules.engine.state import ClaimPhase, EndedPhase, RoundState, TurnPhase
from rules.hand import Meld
from rules.persist import state_from_json, state_to_json
from rules.registry import VARIANTS, get_variant
from rules.simulate import simulate_rounds
from rules.tiles import full_set, tile_name
from rules.views import event_for, seat_view
from rules.wall import seed_from_text
from tests.rules.engine_helpers import T, act, discard_drawn, offered, pass_claims
from tests.rules.flow_helpers import play_eager_rounds
from tests.rules.test_views import check_event, check_view

HB = get_variant("harbin").flow

DEALER = "3m4m4m6m6m1p1p3p3p2s2s4s4s9m"
# With 123m chowed and 7z let go: 555p 678s 99s 78p, ready on 6p / 9p (opened, m p s, 1 and 9,
# the 5p pong, the 123m chow, ten tiles in hand).
SEAT1 = "1m2m5p5p5p6s7s8s9s9s7p8p7z"
SEAT2 = "3m3m5m5m2p2p4p4p1s1s3s3s9p"


def harbin(**kwargs: object) -> RoundState:
    hands = kwargs.pop("hands", [DEALER, SEAT1, SEAT2, ""])
    return arrange_round(VARIANTS["harbin"], hands=hands, **kwargs)  # type: ignore[arg-type]


def chow_ting_and_ting(state: RoundState) -> tuple[RoundState, list[Event]]:
    """The dealer lets 3m go; seat 1 takes it with 吃听 over seat 2's pong and declares ting."""
    state = act(state, Discard(seat=0, tile=T("3m")))
    state = act(state, ChowTing(seat=1, tiles=(T("1m"), T("2m"), T("3m"))))
    state = act(state, Pong(seat=2))
    return apply(state, Discard(seat=1, tile=T("7z"), ting=True))


def test_a_round_has_112_tiles_and_no_winds() -> None:
    state, _ = new_round(variant=VARIANTS["harbin"], seed=seed_from_text("hb"), dealer=0)
    assert len(state.wall) == 112
    assert sorted(state.wall) == full_set(HB.tile_kinds)
    assert max(state.wall) == T("7z")
    assert T("1z") not in state.wall


def test_the_treasure_is_the_last_tile_of_the_wall_held_aside_face_down() -> None:
    state, events = new_round(variant=VARIANTS["harbin"], seed=seed_from_text("hb"), dealer=1)
    assert state.treasure is not None
    assert state.treasure.tile == state.wall[-1]
    assert state.treasure.position == len(state.wall) - 1
    # It is out of the wall: 112 − 53 dealt − the treasure.
    assert state.wall_left == 112 - 53 - 1
    placed = next(e for e in events if isinstance(e, TreasurePlaced))
    for viewer in (0, 1, 2, 3, None):
        assert "tile" not in (event_for(placed, viewer) or {})
        assert "tile" not in seat_view(state, viewer)["treasure"]


def test_a_kong_replacement_comes_from_before_the_treasure() -> None:
    state = harbin(hands=["5s5s5s5s1m2m3m4m6m7m8m9m1p2p", "", "", ""], far="9p1s")
    assert state.treasure is not None
    assert state.treasure.tile == T("9p")
    state = act(state, ConcealedKong(seat=0, tile=T("5s")))
    assert state.seats[0].drawn == T("1s")
    assert state.treasure.tile == T("9p")


def test_chow_ting_is_offered_to_the_next_seat_when_the_chow_makes_the_hand_ready() -> None:
    state = act(harbin(), Discard(seat=0, tile=T("3m")))
    run = (T("1m"), T("2m"), T("3m"))
    assert ChowTing(seat=1, tiles=run) in offered(state, 1)
    assert Pong(seat=2) in offered(state, 2)


def test_chow_ting_ranks_above_pong_and_then_only_ting_discards_are_offered() -> None:
    state = act(harbin(), Discard(seat=0, tile=T("3m")))
    state = act(state, ChowTing(seat=1, tiles=(T("1m"), T("2m"), T("3m"))))
    state = act(state, Pong(seat=2))
    assert state.phase == TurnPhase(seat=1, drawn=True, source="claim")
    assert state.seats[1].melds == (Meld("chow", (T("1m"), T("2m"), T("3m")), from_seat=0),)
    choices = offered(state, 1)
    assert choices
    assert all(isinstance(a, Discard) and a.ting for a in choices)
    assert Discard(seat=1, tile=T("7z"), ting=True) in choices


def test_the_ting_player_alone_sees_the_treasure_after_declaring() -> None:
    state, events = chow_ting_and_ting(harbin(far="5s"))
    assert state.seats[1].ting
    assert state.seats[1].waits == (T("6p"), T("9p"))
    seen = [e for e in events if isinstance(e, TreasureSeen)]
    assert seen == [TreasureSeen(seat=1, tile=T("5s"), version=1)]
    assert event_for(seen[0], 1)["tile"] == tile_name(seen[0].tile)
    for viewer in (0, 2, 3, None):
        assert "tile" not in event_for(seen[0], viewer)
        assert "tile" not in seat_view(state, viewer)["treasure"]
    assert seat_view(state, 1)["treasure"]["tile"] == "5s"


def test_a_ready_player_self_drawing_the_treasure_wins_with_it_as_a_wildcard() -> None:
    state, _ = chow_ting_and_ting(harbin(far="5s", live="8m8m8m5s"))
    for _ in range(3):
        state = discard_drawn(state)
    assert state.seats[1].drawn == T("5s")
    assert SelfDrawWin(seat=1) in offered(state, 1)
    state = act(state, SelfDrawWin(seat=1))
    result = state.result
    assert result is not None
    assert result.verdict is not None
    assert result.verdict.fan == {"pinghu": 0, "zimo": 1, "mobao": 1}
    # The winner deals next.
    assert result.next_dealer == 1


def test_three_visible_copies_change_the_treasure_into_the_dealer_row_repeatedly() -> None:
    # The treasure is 5p, the next far tiles 9m then 4s. Seat 1 pongs the dealer's 9m, then
    # seat 2 pongs seat 1's 5p: 5p is dead (三张), the new treasure 9m is dead too, so 4s.
    hands = [DEALER, "9m9m5p1m2m3m6s7s8s7p8p4m7z", "5p5p1s1s2p2p4p4p3s3s5m5m9p", ""]
    state = harbin(hands=hands, far="5p9m4s")
    state = state.with_seat(3, ting=True)  # a ready player sees every new treasure
    left = state.wall_left
    state = act(state, Discard(seat=0, tile=T("9m")))
    state = pass_claims(act(state, Pong(seat=1)))
    assert state.treasure is not None
    assert state.treasure.tile == T("5p")
    state = act(state, Discard(seat=1, tile=T("5p")))
    state, events = apply(state, Pong(seat=2))
    assert state.phase == TurnPhase(seat=2, drawn=True, source="claim")
    retired = [e for e in events if isinstance(e, TreasureRetired)]
    assert retired == [
        TreasureRetired(seat=0, tile=T("5p"), version=1),
        TreasureRetired(seat=0, tile=T("9m"), version=2),
    ]
    assert state.treasure is not None
    assert (state.treasure.tile, state.treasure.version) == (T("4s"), 3)
    assert [t for t, _ in state.treasure.history] == [T("5p"), T("9m")]
    assert state.wall_left == left - 2
    row = [d.tile for d in state.seats[0].discards]
    assert row == [T("9m"), T("5p"), T("9m")]
    assert TreasureSeen(seat=3, tile=T("4s"), version=3) in events
    assert "tile" not in seat_view(state, 1)["treasure"]


def test_a_dealer_discard_that_changes_the_treasure_stays_last_and_claimable() -> None:
    # The treasure is 3m; seats 1 and 2 let a 3m go, then the dealer's 3m is the third visible.
    hands = [
        "9m9p3m4m4m6m6m1p1p3p3p2s2s4s",
        "1m2m3m5p5p5p6s7s8s9s9s7p8p",
        "3m5m5m2p2p4p4p1s1s3s3s9p9p",
        "",
    ]
    state = harbin(hands=hands, far="3m6p", live="8m8m8m8m")
    state = pass_claims(act(state, Discard(seat=0, tile=T("9m"))))
    state = pass_claims(act(state, Discard(seat=1, tile=T("3m"))))
    state = pass_claims(act(state, Discard(seat=2, tile=T("3m"))))
    state = discard_drawn(state)
    state, events = apply(state, Discard(seat=0, tile=T("3m")))
    assert TreasureRetired(seat=0, tile=T("3m"), version=1) in events
    assert state.treasure is not None
    assert state.treasure.tile == T("6p")
    assert [d.tile for d in state.seats[0].discards] == [T("9m"), T("3m"), T("3m")]
    # Seat 1 chows the dealer's 3m: the discard is taken, the old treasure stays in the row.
    state = pass_claims(act(state, Chow(seat=1, tiles=(T("1m"), T("2m"), T("3m")))))
    assert [d.claimed for d in state.seats[0].discards] == [False, False, True]


def test_no_meld_leaves_fewer_than_four_tiles_in_hand() -> None:
    state = harbin()
    three = tuple(Meld("pong", (t,) * 3, from_seat=0) for t in (T("1s"), T("2s"), T("3s")))
    assert HB.meld_allowed(state, 1, three, 5)
    four = (*three, Meld("pong", (T("4s"),) * 3, from_seat=0))
    assert not HB.meld_allowed(state, 1, four, 2)


def test_the_winner_deals_next_and_the_dealer_stays_on_a_draw() -> None:
    state = harbin(dealer=2, hands=["", "", "", ""])
    assert HB.next_dealer(state, None) == 2
    assert HB.next_dealer(state, 2) == 2
    assert HB.next_dealer(state, 0) == 0


def test_the_last_four_tiles_are_dealt_one_by_one_and_discarded_automatically() -> None:
    state = harbin()
    while HB.live_left(state) > 0:
        state = discard_drawn(state)
    last = state.wall_left
    assert 0 < last <= 4
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
    draws = [e for e in tail if isinstance(e, Drew)]
    changes = [e for e in events if isinstance(e, TreasurePlaced)]
    assert len(draws) + len(changes) == last
    # Each drawn tile goes out at once, nobody is asked about it, the round is drawn.
    assert [(e.seat, e.tile) for e in tail if isinstance(e, Discarded)] == [
        (e.seat, e.tile) for e in draws
    ]
    assert [e.seat for e in draws] == [(seat + 1 + i) % 4 for i in range(len(draws))]
    assert not any(isinstance(e, ClaimWindowOpened) for e in tail)
    ended = tail[-1]
    assert isinstance(ended, RoundEnded)
    assert ended.winner is None
    assert ended.next_dealer == 0


def test_fifty_simulated_rounds_keep_every_invariant() -> None:
    report = simulate_rounds(VARIANTS["harbin"], 50, "flows")
    assert report.invariants == "ok"
    assert report.rounds == 50


def test_no_event_or_view_leaks_the_treasure_or_hidden_tiles() -> None:
    seen_treasure = 0
    for state, events in play_eager_rounds("harbin", "hb-views", rounds=6):
        for viewer in (0, 1, 2, 3, None):
            for event in events:
                check_event(event, viewer, state)
            check_view(state, viewer)
        seen_treasure += sum(isinstance(e, TreasureSeen) for e in events)
    assert seen_treasure > 0


def test_a_ready_player_may_win_on_a_last_tile_and_nobody_on_the_automatic_discards() -> None:
    # Seat 1 is ready on 6p / 9p; the last four live tiles are 6p 9p 6p 9p (wall[-5]…wall[-2]).
    state, _ = chow_ting_and_ting(harbin(far="5s9p6p9p6p"))
    while HB.live_left(state) > 0:
        state = discard_drawn(state)
    assert seat_view(state, None)["last_tiles"] is False
    seat = state.phase.seat  # type: ignore[union-attr]
    drawn = state.seats[seat].drawn
    assert drawn is not None
    state = pass_claims(act(state, Discard(seat=seat, tile=drawn)))
    # The tiles before seat 1's went out automatically (6p / 9p too): seat 1 was never asked.
    assert state.phase == TurnPhase(seat=1, drawn=True, source="draw")
    assert state.seats[1].drawn in (T("6p"), T("9p"))
    assert offered(state, 1) == [SelfDrawWin(seat=1), Discard(seat=1, tile=state.seats[1].drawn)]
    assert seat_view(state, 2)["last_tiles"] is True
    state = act(state, SelfDrawWin(seat=1))
    assert state.result is not None
    assert state.result.winner == 1


def test_every_state_survives_a_json_round_trip() -> None:
    for state, _ in play_eager_rounds("harbin", "hb-json", rounds=3):
        assert state_from_json(state_to_json(state)) == state


def test_chow_ting_is_not_offered_when_the_chow_does_not_make_the_hand_ready() -> None:
    # Seat 1 can chow 1m 2m 3m but no discard after it leaves a ready hand.
    hands = [DEALER, "1m2m5p7p9p2s4s6s8s1p3p9s7z", SEAT2, ""]
    state = act(harbin(hands=hands), Discard(seat=0, tile=T("3m")))
    assert Chow(seat=1, tiles=(T("1m"), T("2m"), T("3m"))) in offered(state, 1)
    assert not any(isinstance(a, ChowTing) for a in offered(state, 1))
