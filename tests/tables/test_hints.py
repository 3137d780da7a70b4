"""练习房 and 机器人提示 (issue 26's practice hint): a practice room's rounds are kept but never
rated nor on a board; only there may a seated player ask what the hard bot would play, and the
answer is the bot's own move from the seat's view, with the review's analysis of a discard."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.core.exceptions import ValidationError
from rest_framework.test import APIClient

from rules import review
from scoring import ratings, selectors, services
from scoring.models import LedgerEntry, RatingState, RoundSettlement
from tables import bots, gameplay, hints, rooms
from tables.errors import TableError
from tables.models import Match, Room
from tests.api.helpers import play_out
from tests.tables.helpers import act, decider, state_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def practice(room: Room) -> Room:
    """The tables' room made a practice room with hints on, before anyone sits down."""
    room.practice = True
    room.bot_hints = True
    room.full_clean()
    room.save(update_fields=["practice", "bot_hints"])
    return room


def _api(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _hint_url(room: Room) -> str:
    return f"/api/rooms/{room.pk}/hint/"


# --- the room's settings, checked in one place -----------------------------------------------


def test_hints_need_a_practice_room_whatever_path_opens_it(room: Room, players: list[Any]) -> None:
    with pytest.raises(ValidationError) as refused:
        rooms.room_create(
            user=players[0], club=room.club, name="x", variant="changchun", bot_hints=True
        )
    assert "bot_hints" in refused.value.message_dict
    made = rooms.room_create(
        user=players[0],
        club=room.club,
        name="练习",
        variant="changchun",
        practice=True,
        bot_hints=True,
    )
    assert made.practice
    assert made.bot_hints
    api = _api(players[0])
    body = {"club": room.club.pk, "name": "y", "variant": "siping", "bot_hints": True}
    answer = api.post("/api/rooms/", body, format="json")
    assert answer.status_code == 400
    assert "bot_hints" in answer.json().get("errors", answer.json())
    answer = api.post("/api/rooms/", {**body, "practice": True}, format="json")
    assert answer.status_code == 201, answer.content
    assert answer.json()["practice"] is True
    assert answer.json()["bot_hints"] is True


def test_a_tournament_table_is_never_a_practice_room(room: Room, players: list[Any]) -> None:
    from tables.tournaments import services as events
    from tables.tournaments.models import TournamentTable

    event = events.tournament_create(
        user=players[0], club=room.club, name="周赛", variant="changchun", rounds=1
    )
    for user in players:
        events.tournament_register(tournament=event, user=user)
    events.tournament_start(tournament=event, actor=players[0])
    table = TournamentTable.objects.get(round__tournament=event).room
    table.practice = True
    with pytest.raises(ValidationError) as refused:
        table.full_clean()
    assert "practice" in refused.value.message_dict
    room.practice = True
    room.full_clean()  # a room of no event may be one


# --- practice rounds: kept, never rated, not on a board ----------------------------------------


def test_a_practice_rooms_round_is_kept_but_not_rated_nor_on_the_board(
    practice: Room, playing: Any, players: list[Any]
) -> None:
    match = Match.objects.get(pk=playing.match_id)
    assert match.practice
    ended = play_out(playing)
    settlement = services.settle_round(ended.pk)
    assert settlement is not None
    assert settlement.practice
    assert LedgerEntry.objects.filter(settlement=settlement, practice=True).count() == 4
    assert not RoundSettlement.objects.get(pk=settlement.pk).rated
    assert ratings.ratings_update(club_id=practice.club_id, variant="changchun") == 0
    assert ratings.ratings_sweep() == 0
    assert not RatingState.objects.filter(club_id=practice.club_id).exists()
    board = selectors.leaderboard_rows(club=practice.club_id, variant="changchun")
    assert board == []
    # … and the players still find the match in their history.
    assert selectors.matches_for_user(players[0]).filter(pk=match.pk).exists()
    # The pages say so: the table, the player's matches, the match.
    from django.test import Client
    from django.urls import reverse

    page = Client()
    page.force_login(players[0])
    assert "练习房" in page.get(reverse("tables:room", args=[practice.pk])).content.decode()
    mine = page.get(reverse("scoring:my_matches")).content.decode()
    assert '<span class="badge">练习</span>' in mine
    detail = page.get(reverse("scoring:match", args=[match.pk])).content.decode()
    assert "练习（不计入等级分和排行榜）" in detail


def test_a_rooms_rounds_are_rated_when_it_is_not_a_practice_room(playing: Any, room: Room) -> None:
    ended = play_out(playing)
    settlement = services.settle_round(ended.pk)
    assert settlement is not None
    assert not settlement.practice
    assert RoundSettlement.objects.get(pk=settlement.pk).rated
    assert selectors.leaderboard_rows(club=room.club_id, variant="changchun")


# --- the hint ----------------------------------------------------------------------------------


def test_the_hint_is_the_hard_bots_move_from_the_seats_view(
    practice: Room, playing: Any, players: list[Any]
) -> None:
    seat = decider(playing)
    state = state_of(playing)
    answer = _api(players[seat]).get(_hint_url(practice))
    assert answer.status_code == 200, answer.content
    body = answer.json()
    expected = bots.choose_action(state, seat, level="hard", rng=bots.bot_rng(state, seat))
    assert body["bot"] == gameplay.action_json(expected)
    assert body["version"] == state.version
    assert body["seat"] == seat
    assert body == {
        "round": playing.pk,
        "version": state.version,
        "seat": seat,
        **(review.advice(state, seat) or {}),
    }
    # The dealer's first turn discards: every kind in hand is weighed, the best named.
    assert body["kind"] in {"discard", "ting", "kong", "win"}
    kinds = {c["tile"] for c in body["candidates"]}
    assert body["best"] in kinds
    assert all({"shanten", "effective", "total"} <= set(c) for c in body["candidates"])


def test_the_hint_counts_only_what_the_seat_has_seen(practice: Room, playing: Any) -> None:
    """Effective tiles are copies unseen *from the seat*: never fewer than the tiles really left
    outside its own hand and the table (another seat's hidden hand is not subtracted)."""
    seat = decider(playing)
    state = state_of(playing)
    user = practice.seats.get(index=seat).user
    advice = hints.hint_for_seat(room=practice, user=user)
    from rules.hints import unseen_counts
    from rules.tiles import parse_tile

    unseen = unseen_counts(state, seat)
    for candidate in advice["candidates"]:
        for name, copies in candidate["effective"]:
            assert copies == unseen[parse_tile(name)]


def test_the_hint_is_refused_to_others_and_outside_a_decision(
    practice: Room, playing: Any, players: list[Any], make_user: Any
) -> None:
    seat = decider(playing)
    waiting = next(
        i for i in range(4) if i != seat and not gameplay.legal_actions(state_of(playing), i)
    )
    answer = _api(players[waiting]).get(_hint_url(practice))
    assert answer.status_code == 409
    assert answer.json()["code"] == "not_your_decision"
    stranger = make_user("stranger")  # not in the club: the room is not there for them
    assert _api(stranger).get(_hint_url(practice)).status_code == 404


def test_no_hint_in_a_room_that_is_not_practice_or_has_hints_off(
    room: Room, playing: Any, players: list[Any]
) -> None:
    seat = decider(playing)
    answer = _api(players[seat]).get(_hint_url(room))
    assert answer.status_code == 403
    assert answer.json()["code"] == "hints_off"
    # Made a practice room mid-match: the match in play was rated from its start.
    room.practice = True
    room.bot_hints = True
    room.save(update_fields=["practice", "bot_hints"])
    with pytest.raises(TableError) as refused:
        hints.hint_for_seat(room=room, user=players[seat])
    assert refused.value.code == "hints_off"


def test_no_hint_before_a_round_is_dealt(practice: Room, players: list[Any]) -> None:
    rooms.seat_take(room=practice, user=players[0], index=0)
    with pytest.raises(TableError) as refused:
        hints.hint_for_seat(room=practice, user=players[0])
    assert refused.value.code == "no_round"
    answer = _api(players[1]).get(_hint_url(practice))  # a member standing by
    assert answer.status_code == 403
    assert answer.json()["code"] == "not_a_player"


def test_hints_are_throttled_per_player(
    practice: Room, playing: Any, players: list[Any], settings: Any
) -> None:
    settings.API_THROTTLE_RATES = {"hint": "2/min"}
    cache.clear()
    seat = decider(playing)
    api = _api(players[seat])
    assert [api.get(_hint_url(practice)).status_code for _ in range(3)] == [200, 200, 429]
    cache.clear()


def test_the_hint_follows_the_table(practice: Room, playing: Any, players: list[Any]) -> None:
    """After a move, the hint answers the next decision (a new version, another seat)."""
    seat = decider(playing)
    first = hints.hint_for_seat(room=practice, user=players[seat])
    act(playing, seat, first["bot"])
    after = state_of(playing)
    assert after.version > first["version"]
    nxt = gameplay.deciders(after)[0]
    second = hints.hint_for_seat(room=practice, user=players[nxt])
    assert second["version"] == after.version
    assert second["seat"] == nxt
