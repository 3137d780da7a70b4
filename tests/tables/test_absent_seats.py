"""A player who closed the tab before the first deal loses the seat after a timeout:
the lobby no longer lists the room "4/4 人 等待开局"; inside a match 托管 plays on instead."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from tables import rooms
from tables.models import Match, Seat
from tests.tables.helpers import table_closed, table_opened

pytestmark = pytest.mark.django_db


def lobby_count(client: Any, user: Any, room: Any) -> str:
    """The "n/4 人" the lobby shows for ``room`` to ``user``."""
    client.force_login(user)
    page = client.get(reverse("tables:lobby")).content.decode()
    item = page[page.index(room.name) :]
    found = re.search(r"(\d)/4 人", item)
    assert found is not None
    return found.group(0)


def later(seconds: float) -> Any:
    return timezone.now() + timedelta(seconds=seconds)


def test_closing_the_table_marks_the_seat_absent_and_coming_back_clears_it(
    seated: Any, players: list[Any]
) -> None:
    table_closed(seated.pk, players[2])
    seat = Seat.objects.get(room=seated, user=players[2])
    assert not seat.connected
    assert seat.absent_since is not None
    table_opened(seated.pk, players[2])
    seat.refresh_from_db()
    assert seat.connected
    assert seat.absent_since is None


def test_an_absent_player_loses_the_seat_before_the_first_deal(
    client: Any, seated: Any, players: list[Any], settings: Any
) -> None:
    settings.TABLES_FREE_ABSENT_SEAT_S = 60
    assert lobby_count(client, players[0], seated) == "4/4 人"
    table_closed(seated.pk, players[3])

    assert rooms.sweep_absent_seats(now=later(30)) == []  # not yet: within the timeout
    assert Seat.objects.filter(room=seated).count() == 4

    assert rooms.sweep_absent_seats(now=later(61)) == [seated.pk]
    assert not Seat.objects.filter(room=seated, user=players[3]).exists()
    assert Seat.objects.filter(room=seated).count() == 3
    assert lobby_count(client, players[0], seated) == "3/4 人"
    # Idempotent: a second sweep (another clock) finds nothing to do.
    assert rooms.sweep_absent_seats(now=later(62)) == []
    assert Seat.objects.filter(room=seated).count() == 3


def test_the_clock_presence_sweep_frees_it_too(
    seated: Any, players: list[Any], settings: Any
) -> None:
    settings.TABLES_FREE_ABSENT_SEAT_S = 1
    table_closed(seated.pk, players[1])
    Seat.objects.filter(room=seated, user=players[1]).update(absent_since=later(-5))
    assert seated.pk in rooms.sweep_presence()
    assert not Seat.objects.filter(room=seated, user=players[1]).exists()


def test_a_player_back_in_time_keeps_the_seat(seated: Any, players: list[Any]) -> None:
    table_closed(seated.pk, players[3])
    seat = Seat.objects.get(room=seated, user=players[3])
    # Back at the table, but the seat row was not synced yet: presence is asked again.
    from tables import presence

    presence.socket_open(room_id=seated.pk, user_id=players[3].pk, channel="back")
    assert not rooms.seat_free_if_absent(room_id=seated.pk, seat_id=seat.pk, now=later(120))
    assert Seat.objects.filter(pk=seat.pk).exists()


def test_a_seat_never_opened_at_the_table_is_not_freed(room: Any, players: list[Any]) -> None:
    """Only a player who closed the table is absent: one who sat through the API and has not
    opened it yet has no ``absent_since``."""
    rooms.seat_take(room=room, user=players[1], index=1)
    assert rooms.sweep_absent_seats(now=later(3600)) == []
    assert Seat.objects.filter(room=room, user=players[1]).exists()


def test_inside_a_match_the_seat_is_kept_for_auto_play(playing: Any, players: list[Any]) -> None:
    room = playing.match.room
    table_closed(room.pk, players[2])
    assert rooms.sweep_absent_seats(now=later(3600)) == []
    assert Seat.objects.filter(room=room, user=players[2]).exists()
    assert Match.objects.get(room=room, status=Match.Status.PLAYING)


def test_the_last_human_freed_takes_the_bots_along(
    client: Any, room: Any, players: list[Any]
) -> None:
    rooms.seat_take(room=room, user=players[0], index=0)
    table_opened(room.pk, players[0])
    rooms.seats_fill_with_bots(room=room, user=players[0])
    assert lobby_count(client, players[0], room) == "4/4 人"
    table_closed(room.pk, players[0])
    assert rooms.sweep_absent_seats(now=later(3600)) == [room.pk]
    assert not Seat.objects.filter(room=room).exists()
    assert lobby_count(client, players[1], room) == "0/4 人"  # listed to others again
