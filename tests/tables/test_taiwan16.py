"""Taiwan 16 at a live table: a room plays it through the services like the other
variants, every seat's flowers are in the public view, and the match carries the round wind and
the 連莊 count from round to round until its four wind rounds are played."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from rules.tiles import EAST, NORTH
from tables import bots, gameplay, matches, rooms
from tables.game import store
from tables.models import Match, Round
from tests.tables.helpers import act, fresh, state_of, table_opened

pytestmark = pytest.mark.django_db


@pytest.fixture
def tw_round(players: list[Any], make_club: Any) -> Round:
    club = make_club(owner=players[0], members=tuple(players[1:]))
    room = rooms.room_create(user=players[0], club=club, name="台湾桌", variant="taiwan16")
    for index, user in enumerate(players):
        rooms.seat_take(room=room, user=user, index=index)
        table_opened(room.pk, user)
        rooms.seat_set_ready(room=room, user=user)
    return Round.objects.get(match__room=room, number=1)


def _end(rnd: Round, next_dealer: int) -> None:
    """Mark a round ended (as the engine would) with the dealer it hands over to."""
    Round.objects.filter(pk=rnd.pk).update(
        status=Round.Status.ENDED,
        result={"next_dealer": next_dealer, "nets": [0, 0, 0, 0], "winner": None},
        ended_at=timezone.now() - timedelta(minutes=5),
    )


def _next(rnd: Round) -> Round | None:
    return matches.match_next_round(match_id=rnd.match_id, after_number=rnd.number)


def _play(rnd: Round) -> Round:
    for _ in range(1500):
        rnd = fresh(rnd)
        if rnd.status != Round.Status.PLAYING:
            return rnd
        state = state_of(rnd)
        seat = gameplay.deciders(state)[0]
        assert act(rnd, seat, gameplay.action_json(bots.choose_action(state, seat))).ok
    raise AssertionError("the round did not end")


def test_a_taiwan_room_plays_a_whole_round_through_the_service(tw_round: Round) -> None:
    state = state_of(tw_round)
    assert len(state.wall) == 144
    assert sorted(len(s.concealed) for s in state.seats) == [16, 16, 16, 17]
    ended = _play(tw_round)
    assert ended.status == Round.Status.ENDED
    assert sum(ended.result["nets"]) == 0


def test_the_settlement_of_a_lianzhuang_round_matches_the_table(tw_round: Round) -> None:
    from scoring.services import settle_round

    _end(tw_round, next_dealer=tw_round.dealer)
    second = _next(tw_round)
    assert second is not None
    ended = _play(second)
    settlement = settle_round(ended.pk)
    assert settlement is not None
    assert list(settlement.nets) == ended.result["nets"]
    if "zhuangjia" in ended.result["fan"]:  # the dealer is involved: 連1 scores 2 tai
        assert ended.result["fan"]["lianzhuang"] == 2


def test_every_seats_flowers_are_in_everyones_view(tw_round: Round) -> None:
    from rules.views import seat_view

    state = state_of(tw_round)
    aside = sorted(t for s in state.extra["flowers"] for t in s)
    for viewer in (0, 1, 2, 3, None):
        view = seat_view(state, viewer)
        shown = [f for seat in view["seats"] for f in seat["flowers"]]
        assert len(shown) == len(aside)


def test_the_dealer_staying_counts_lianzhuang_into_the_next_round(tw_round: Round) -> None:
    dealer = tw_round.dealer
    _end(tw_round, next_dealer=dealer)
    second = _next(tw_round)
    assert second is not None
    assert second.dealer == dealer
    state = state_of(second)
    assert state.extra["lianzhuang"] == 1
    assert state.round_wind == EAST
    # The fallback replay from the seed rebuilds the same round (wind and count included).
    assert store.replay_state(fresh(second)) == state
    # So does the settlement's replay (it scores the round: 連莊 tai depend on the count).

    assert store.replay_steps(fresh(second))[-1].state == state
    _end(second, next_dealer=(dealer + 1) % 4)
    third = _next(second)
    assert third is not None
    assert "lianzhuang" not in state_of(third).extra


def test_the_round_wind_moves_when_every_seat_has_dealt_and_the_match_ends_after_north(
    tw_round: Round,
) -> None:
    first = tw_round.dealer
    rnd = tw_round
    for number in range(1, 16):  # rounds 1-15 pass the deal on: 东 1-4, 南 5-8, 西 9-12, 北 13-
        assert state_of(rnd).round_wind == EAST + (number - 1) // 4
        _end(rnd, next_dealer=(first + number) % 4)
        following = _next(rnd)
        assert following is not None
        rnd = following
    assert state_of(rnd).round_wind == NORTH
    assert rnd.dealer == (first + 3) % 4
    _end(rnd, next_dealer=first)
    assert _next(rnd) is None
    match = Match.objects.get(pk=rnd.match_id)
    assert match.status == Match.Status.FINISHED
    assert match.end_reason == matches.MATCH_COMPLETE_REASON
