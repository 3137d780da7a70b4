"""Bots of a chosen level at the live tables: filled from the lobby, the table page,
the API and the admin through one service; bot seats and 托管 play at their level through the
same round service as humans."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tables import bots, gameplay, rooms
from tables.errors import TableError
from tables.game import commands
from tables.models import Round, Seat
from tests.tables.helpers import fresh, state_of

pytestmark = pytest.mark.django_db


def _levels(room: Any) -> dict[int, str]:
    return dict(Seat.objects.filter(room=room, is_bot=True).values_list("index", "bot_level"))


def test_a_seated_player_fills_the_empty_seats_with_bots_of_a_level(
    room: Any, players: list[Any]
) -> None:
    rooms.seat_take(room=room, user=players[0], index=0)
    rooms.seats_fill_with_bots(room=room, user=players[0], level="hard", index=2)
    assert _levels(room) == {2: "hard"}
    rooms.seats_fill_with_bots(room=room, user=players[0], level="easy")
    assert _levels(room) == {1: "easy", 2: "hard", 3: "easy"}


def test_without_a_level_the_rooms_bot_level_is_used(room: Any, players: list[Any]) -> None:
    room.bot_level = "hard"
    room.save(update_fields=["bot_level"])
    rooms.seat_take(room=room, user=players[0], index=0)
    rooms.seats_fill_with_bots(room=room, user=players[0])
    assert _levels(room) == {1: "hard", 2: "hard", 3: "hard"}


@pytest.mark.parametrize(
    ("level", "index", "code"),
    [("grandmaster", None, "bad_bot_level"), (3, None, "bad_bot_level"), ("hard", 7, "bad_seat")],
)
def test_a_bad_level_or_seat_is_refused_and_seats_nobody(
    room: Any, players: list[Any], level: object, index: object, code: str
) -> None:
    rooms.seat_take(room=room, user=players[0], index=0)
    with pytest.raises(TableError) as refused:
        rooms.seats_fill_with_bots(room=room, user=players[0], level=level, index=index)
    assert refused.value.code == code
    assert _levels(room) == {}


def test_a_stranger_standing_cannot_fill_seats(room: Any, make_user: Any) -> None:
    with pytest.raises(TableError) as refused:
        rooms.seats_fill_with_bots(room=room, user=make_user("passer"), level="easy")
    assert refused.value.code == "not_seated"


def test_the_table_page_posts_a_level(client: Any, room: Any, players: list[Any]) -> None:
    rooms.seat_take(room=room, user=players[0], index=0)
    client.force_login(players[0])
    answer = client.post(
        reverse("tables:bots", args=[room.pk]),
        {"level": "hard", "index": "1"},
        HTTP_ACCEPT="application/json",
    )
    assert answer.json() == {"ok": True}
    assert _levels(room) == {1: "hard"}
    refused = client.post(
        reverse("tables:bots", args=[room.pk]), {"level": "x"}, HTTP_ACCEPT="application/json"
    )
    assert refused.status_code == 409
    assert refused.json()["code"] == "bad_bot_level"


def test_the_lobby_opens_a_room_with_a_bot_level(
    client: Any, players: list[Any], room: Any
) -> None:
    client.force_login(players[0])
    answer = client.post(
        reverse("tables:room_create"),
        {
            "club": room.club.pk,
            "name": "困难桌",
            "variant": "harbin",
            "base_stake": 1,
            "turn_timeout_s": 15,
            "claim_timeout_s": 8,
            "allow_bots": "on",
            "bot_level": "hard",
        },
    )
    assert answer.status_code == 302
    made = room.club.rooms.get(name="困难桌")
    assert made.bot_level == "hard"
    page = client.get(reverse("tables:room_create")).content.decode()
    assert 'name="bot_level"' in page


def test_the_api_fills_with_a_level(client: Any, room: Any, players: list[Any]) -> None:
    rooms.seat_take(room=room, user=players[0], index=0)
    client.force_login(players[0])
    answer = client.post(
        f"/api/rooms/{room.pk}/bots/", {"level": "easy"}, content_type="application/json"
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["bot_level"] == "normal"
    assert _levels(room) == {1: "easy", 2: "easy", 3: "easy"}


def test_a_bot_plays_a_whole_live_round_at_its_level(room: Any, players: list[Any]) -> None:
    """Hard bots in three seats and the player's timeouts: every bot move goes through the
    round service (the round's lock, its events) and is the hard bot's choice on its view."""
    rooms.seat_take(room=room, user=players[0], index=0)
    rooms.seats_fill_with_bots(room=room, user=players[0], level="hard")
    rooms.seat_set_ready(room=room, user=players[0])
    rnd = Round.objects.get(match__room=room)
    from datetime import timedelta

    from django.utils import timezone

    bot_moves = 0
    for _ in range(400):
        rnd = fresh(rnd)
        if rnd.status != Round.Status.PLAYING:
            break
        state = state_of(rnd)
        deciders = gameplay.deciders(state)
        if 0 in deciders:
            commands.round_timeout(
                round_id=rnd.pk,
                decision_version=rnd.decision_version,
                now=timezone.now() + timedelta(hours=1),
            )
            continue
        expected = _bots_play(state, "hard")
        assert commands.round_autoplay(round_id=rnd.pk, version=rnd.version)
        assert state_of(fresh(rnd)) == expected
        bot_moves += 1
    assert fresh(rnd).status == Round.Status.ENDED
    assert bot_moves > 10


def _bots_play(state: Any, level: str) -> Any:
    """The state after every seat deciding now plays the ``level`` bot's move, in turn (what
    the service's auto-play does for bot seats)."""
    for seat in gameplay.deciders(state):
        if seat in gameplay.deciders(state):
            state, _ = gameplay.apply(state, bots.choose_action(state, seat, level=level))
    return state


def test_auto_play_plays_at_the_rooms_bot_level(playing: Round) -> None:
    room = playing.match.room
    room.bot_level = "hard"
    room.save(update_fields=["bot_level"])
    state = state_of(playing)
    seat = gameplay.deciders(state)[0]
    Seat.objects.filter(room=room, index=seat).update(auto_play=True)
    expected, _ = gameplay.apply(state, bots.choose_action(state, seat, level="hard"))
    assert commands.round_autoplay(round_id=playing.pk, version=playing.version)
    assert state_of(fresh(playing)) == expected


# --- admin ------------------------------------------------------------------------------------


def test_a_club_manager_fills_a_room_with_hard_bots_from_the_admin(
    client: Any, make_user: Any, make_club: Any
) -> None:
    owner = make_user("owner")
    manager = make_user("boss")
    club = make_club(owner=owner, name="C 圈")
    club.memberships.create(user=manager, role="admin")
    room = rooms.room_create(user=owner, club=club, name="C 桌", variant="siping")
    rooms.seat_take(room=room, user=owner, index=0)
    client.force_login(manager)
    answer = client.post(
        reverse("admin:tables_room_changelist"),
        {"action": "fill_with_hard_bots", "_selected_action": [str(room.pk)]},
        follow=True,
    )
    assert answer.status_code == 200
    assert _levels(room) == {1: "hard", 2: "hard", 3: "hard"}
    page = client.get(reverse("admin:tables_room_change", args=[room.pk])).content.decode()
    assert 'name="bot_level"' in page
    assert "困难" in page
