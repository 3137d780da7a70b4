"""Taiyuan Li-Si's own flow (taiyuan_lisi.md): the standing tiles (立牌), the face-down ting
discard, a standing tile left by every pong or kong, no chow, 过碰, the automatic win, no kong
after ting, the payments by the discarder's ting and the dealer after a drawn round."""

from __future__ import annotations

import json
from dataclasses import replace

from rules.engine import (
    Chow,
    ConcealedKong,
    DeclareWin,
    Discard,
    ExposedKong,
    Pass,
    Pong,
    SelfDrawWin,
    apply,
)
from rules.engine.arrange import arrange_round
from rules.engine.events import ClaimWindowOpened, Discarded, RoundEnded
from rules.engine.state import ClaimPhase, EndedPhase, RoundState, TurnPhase
from rules.hand import Meld
from rules.persist import state_from_json, state_to_json
from rules.registry import VARIANTS, get_variant
from rules.simulate import simulate_rounds
from rules.variants.taiyuan_lisi.flow import standing_tiles
from rules.views import event_for, seat_view
from tests.rules.engine_helpers import T, act, discard_drawn, offered, pass_claims
from tests.rules.flow_helpers import play_eager_rounds

LISI = get_variant("taiyuan_lisi").flow

# The dealer's first four tiles (立牌) are 1m 2m 3m 7z; discarding 7z leaves 123m 456m 789m
# 234s 1p, ready on 1p alone (单调, 独听) with 青龙 in m.
READY_DEALER = "1m2m3m7z4m5m6m7m8m9m2s3s4s1p"
# Seat 1 could pong 7z; its standing tiles are 1z 1z 7z 7z.
SEAT1 = "7z7z1z1z2z2z3z3z4z4z5z5z6z"
SEAT2 = "5m5m6m6m2p2p3p3p5s5s6s6s4z"
SEAT3 = "7m7m8m8m4p4p5p5p7s7s8s8s5z"


def lisi(**kwargs: object) -> RoundState:
    hands = kwargs.pop("hands", [READY_DEALER, SEAT1, SEAT2, SEAT3])
    return arrange_round(VARIANTS["taiyuan_lisi"], hands=hands, **kwargs)  # type: ignore[arg-type]


def discards(state: RoundState, seat: int) -> list[Discard]:
    return [a for a in offered(state, seat) if isinstance(a, Discard)]


def test_the_first_four_tiles_dealt_stand_apart() -> None:
    state = lisi()
    assert standing_tiles(state, 0) == (T("1m"), T("2m"), T("3m"), T("7z"))
    assert standing_tiles(state, 1) == (T("1z"), T("1z"), T("7z"), T("7z"))


def test_the_owner_sees_the_standing_tiles_as_a_group_and_the_others_only_their_count() -> None:
    state = lisi()
    mine = seat_view(state, 0)["seats"][0]
    assert mine["standing"] == ["1m", "2m", "3m", "7z"]
    for viewer in (1, 2, 3, None):
        theirs = seat_view(state, viewer)["seats"][0]
        assert "standing" not in theirs
        assert theirs["standing_count"] == 4


def test_a_standing_tile_goes_only_as_the_ting_discard() -> None:
    state = lisi()
    plain = {a.tile for a in discards(state, 0) if not a.ting}
    ting = {a.tile for a in discards(state, 0) if a.ting}
    assert not plain & {T("1m"), T("2m"), T("3m"), T("7z")}
    assert T("4m") in plain
    # 1p would also leave a ready hand (on 7z) but it is not a standing tile.
    assert ting == {T("7z")}


def test_an_ordinary_copy_of_a_standing_kind_may_be_discarded() -> None:
    state = lisi(hands=["1m2m3m7z1m5m6m7m8m9m2s3s4s1p", SEAT1, SEAT2, SEAT3])
    assert Discard(seat=0, tile=T("1m")) in offered(state, 0)


def test_the_ting_discard_is_face_down_unclaimable_and_hidden_from_the_others() -> None:
    state = lisi(live="9s")
    state, events = apply(state, Discard(seat=0, tile=T("7z"), ting=True))
    # Seat 1 holds 7z 7z but is not asked: no one may pong, kong or win on it.
    assert not any(isinstance(e, ClaimWindowOpened) for e in events)
    assert state.phase == TurnPhase(seat=1, drawn=True, source="draw")
    assert state.seats[0].ting
    assert state.seats[0].waits == (T("1p"),)
    assert standing_tiles(state, 0) == (T("1m"), T("2m"), T("3m"))
    discarded = next(e for e in events if isinstance(e, Discarded))
    assert discarded.face_down
    assert event_for(discarded, 0)["tile"] == "7z"  # type: ignore[index]
    for viewer in (1, 2, 3, None):
        seen = event_for(discarded, viewer)
        assert seen is not None
        assert "tile" not in seen
        row = seat_view(state, viewer)["seats"][0]["discards"]
        assert row == [{"claimed": False, "ting": True, "face_down": True}]
        assert "7z" not in json.dumps(seat_view(state, viewer)["seats"][0])
    assert seat_view(state, 0)["seats"][0]["discards"][0]["tile"] == "7z"


def test_the_face_down_discard_is_revealed_when_the_round_ends() -> None:
    state = lisi(live="1p")
    state = act(state, Discard(seat=0, tile=T("7z"), ting=True))
    state, _events = apply(state, Discard(seat=1, tile=T("1p")))
    assert isinstance(state.phase, EndedPhase)
    assert seat_view(state, 2)["seats"][0]["discards"][0]["tile"] == "7z"


def test_a_ready_player_wins_automatically_on_a_discard() -> None:
    state = lisi(live="1p")
    state = act(state, Discard(seat=0, tile=T("7z"), ting=True))
    # Seat 1 draws 1p and lets it go: the dealer wins at once, nobody is asked.
    state, events = apply(state, Discard(seat=1, tile=T("1p")))
    result = state.result
    assert result is not None
    assert (result.winner, result.win_by, result.discarder) == (0, "discard", 1)
    ended = next(e for e in events if isinstance(e, RoundEnded))
    # S = 平胡 1 + 庄 1 + 单调 1 + 青龙 10 = 13; the discarder had not declared ting: 3 × S.
    assert ended.fan == {"pinghu": 1, "zhuang": 1, "diaojiang": 1, "qinglong": 10}
    assert ended.total == 13
    assert result.nets == (39, -39, 0, 0)


def test_a_ready_player_wins_automatically_on_a_self_draw() -> None:
    state = lisi(live="9p9p9p1p")
    state = act(state, Discard(seat=0, tile=T("7z"), ting=True))
    for _ in range(3):
        state = discard_drawn(state)
    result = state.result
    assert result is not None
    assert (result.winner, result.win_by) == (0, "self_draw")
    # S doubled on a self-draw, each of the three pays S.
    assert result.verdict is not None
    assert result.verdict.fan["zimo"] == 2
    assert result.nets == (78, -26, -26, -26)


def test_a_ready_discarder_makes_all_three_pay() -> None:
    state = lisi(live="1p")
    state = act(state, Discard(seat=0, tile=T("7z"), ting=True))
    state = state.with_seat(1, ting=True)  # as if seat 1 had declared ting earlier
    state, _ = apply(state, Discard(seat=1, tile=T("1p")))
    assert state.result is not None
    assert state.result.nets == (39, -13, -13, -13)


def test_there_is_no_chow() -> None:
    hands = ["7z1p1p9p3m4m5m9p2s2s5s5s8s9s", "1m2m4p4p1s1s6s6s7s7s9m9m6z", SEAT2, SEAT3]
    state = lisi(hands=hands)
    state = act(state, Discard(seat=0, tile=T("3m")))
    assert not any(isinstance(a, Chow) for a in offered(state, 1))


def test_a_pong_uses_ordinary_copies_before_standing_ones() -> None:
    # Seat 1's standing tiles are 5p 1z 2z 3z and it holds two more 5p.
    hands = ["1m2m3m4m5p9m9m9m1s2s3s4s6s8s", "5p1z2z3z5p5p7m8m6s6s4z4z6z", "", ""]
    state = lisi(hands=hands)
    state = act(state, Discard(seat=0, tile=T("5p")))
    # Seat 1 pongs it with its two ordinary 5p and keeps all four standing tiles.
    state = pass_claims(act(state, Pong(seat=1)))
    assert isinstance(state.phase, TurnPhase)
    assert state.phase.seat == 1
    assert standing_tiles(state, 1) == (T("5p"), T("1z"), T("2z"), T("3z"))


def test_no_kong_that_would_leave_no_standing_tile() -> None:
    # The dealer's four standing tiles are the four 5p.
    state = lisi(hands=["5p5p5p5p1m2m3m7m8m9m1s2s3s4s", "", "", ""])
    assert not any(isinstance(a, ConcealedKong) for a in offered(state, 0))


def test_a_kong_that_leaves_a_standing_tile_is_offered() -> None:
    state = lisi(hands=["1m2m3m4s5p5p5p5p7m8m9m1s2s3s", "", "", ""])
    assert ConcealedKong(seat=0, tile=T("5p")) in offered(state, 0)


def test_passing_a_pong_bars_that_pong_until_the_next_draw() -> None:
    # Seat 2 holds 9s 9s (not standing); the dealer and seat 1 each let a 9s go.
    hands = [
        "1m2m3m4m9s5m6m7m8m1p2p3p4p5p",
        "1z1z2z2z9s3z3z4z4z5z5z6z6z",
        "1s2s3s4s9s9s5s6s7s7p8p9p6p",
        SEAT3,
    ]
    state = lisi(hands=hands, live="7z7z7z")
    state = act(state, Discard(seat=0, tile=T("9s")))
    assert Pong(seat=2) in offered(state, 2)
    state = pass_claims(state)
    assert "guopeng:26" in state.seats[2].marks
    state = act(state, Discard(seat=1, tile=T("9s")))
    # Seat 2 has not drawn since: no pong (nothing else to claim, so it is not even asked).
    assert not isinstance(state.phase, ClaimPhase)
    assert state.phase == TurnPhase(seat=2, drawn=True, source="draw")
    assert not any(m.startswith("guopeng") for m in state.seats[2].marks)


def test_no_kong_after_ting() -> None:
    # Ready on 1p; the dealer also holds three 9s and could kong a fourth before ting.
    hands = ["1m2m3m7z9s9s9s4m5m6m7m8m9m1p", "", "", ""]
    state = lisi(hands=hands, live="2p9s")
    assert ConcealedKong(seat=0, tile=T("9s")) not in offered(state, 0)  # only three
    state = act(state, Discard(seat=0, tile=T("7z"), ting=True))
    state = discard_drawn(state)  # seat 1 lets 2p go
    state = act(state, Discard(seat=2, tile=T("9s")))
    # The dealer holds three 9s but is ready: it is not asked, seat 3 draws.
    assert not isinstance(state.phase, ClaimPhase)
    assert state.phase == TurnPhase(seat=3, drawn=True, source="draw")
    assert ExposedKong(seat=0) not in offered(state, 0)


def test_the_dealer_stays_after_a_drawn_round_only_if_nobody_konged() -> None:
    state = lisi(dealer=2, hands=["", "", "", ""])
    assert LISI.next_dealer(state, None) == 2
    assert LISI.next_dealer(replace(state, kongs=1), None) == 3
    assert LISI.next_dealer(state, 2) == 2
    assert LISI.next_dealer(state, 0) == 3


def test_a_win_is_never_left_to_the_player() -> None:
    # Over whole rounds with ready-happy bots no window or turn ever offers a win to choose.
    for state, _ in play_eager_rounds("taiyuan_lisi", "lisi-auto", rounds=6):
        for seat in range(4):
            assert not any(isinstance(a, DeclareWin | SelfDrawWin) for a in offered(state, seat))


def test_fifty_simulated_rounds_keep_every_invariant() -> None:
    report = simulate_rounds(VARIANTS["taiyuan_lisi"], 50, "flows")
    assert report.invariants == "ok"
    assert report.rounds == 50


def test_no_view_shows_a_face_down_discard_to_the_others_before_the_end() -> None:
    checked = 0
    for state, events in play_eager_rounds("taiyuan_lisi", "lisi-views", rounds=8):
        for event in events:
            if isinstance(event, Discarded) and event.face_down:
                checked += 1
                for viewer in {0, 1, 2, 3, None} - {event.seat}:
                    assert "tile" not in (event_for(event, viewer) or {})
        if state.result is not None:
            continue
        for viewer in (0, 1, 2, 3, None):
            for seat in seat_view(state, viewer)["seats"]:
                for record in seat["discards"]:
                    if record.get("face_down") and seat["seat"] != viewer:
                        assert "tile" not in record
    assert checked > 0


def test_pass_is_offered_with_every_claim() -> None:
    state = lisi(hands=["1m2m3m7z4m5m6m7m8m9m2s3s4s7z", SEAT1, SEAT2, SEAT3])
    state = act(state, Discard(seat=0, tile=T("7z")))
    assert offered(state, 1) == [Pong(seat=1), Pass(seat=1)]


def test_every_state_survives_a_json_round_trip() -> None:
    for state, _ in play_eager_rounds("taiyuan_lisi", "ls-json", rounds=3):
        assert state_from_json(state_to_json(state)) == state


def with_standing(state: RoundState, seat: int, tiles: str) -> RoundState:
    standing = list(state.extra["standing"])
    standing[seat] = tuple(sorted(T(t) for t in tiles.split()))
    return replace(state, extra={**state.extra, "standing": tuple(standing)})


def pong_of(tile: str) -> Meld:
    return Meld("pong", (T(tile),) * 3, from_seat=0)


def test_a_pong_that_would_take_the_last_standing_tiles_is_refused() -> None:
    state = lisi(hands=["", "", "", ""])
    hand = tuple(sorted(T(t) for t in ["5p", "5p", "1m", "2m", "3m", "4m", "5m"]))
    state = with_standing(
        state.with_seat(1, concealed=hand, melds=(pong_of("9s"), pong_of("9p"))), 1, "5p 5p"
    )
    melds = (pong_of("9s"), pong_of("9p"), pong_of("5p"))
    assert not LISI.meld_allowed(state, 1, melds, 5)
    state = with_standing(state, 1, "5p 5p 1m")
    assert LISI.meld_allowed(state, 1, melds, 5)


def test_a_pong_leaving_only_standing_tiles_needs_a_ting_discard_after_it() -> None:
    # After the pong of 9m only 1z and 2z are left, both standing: one of them must go as the
    # ting discard, leaving a single wait on the other — impossible if its four copies are out.
    state = lisi(hands=["", "", "", ""])
    hand = tuple(sorted(T(t) for t in ["1z", "2z", "9m", "9m"]))
    dead = (pong_of("1z"), pong_of("2z"), pong_of("3z"))
    state = with_standing(state.with_seat(1, concealed=hand, melds=dead), 1, "1z 2z 9m")
    assert not LISI.meld_allowed(state, 1, (*dead, pong_of("9m")), 2)
    live = (pong_of("3z"), pong_of("4z"), pong_of("5z"))
    state = state.with_seat(1, melds=live)
    assert LISI.meld_allowed(state, 1, (*live, pong_of("9m")), 2)
