"""Fixtures of the live-table tests: a room of four club members, seated, ready and dealt.

Rounds here are dealt from fixed seeds (``settings.TABLES_FIXED_SEED``) so that every test sees
the same tiles; deadline tasks are not sent to Celery (``TABLES_SCHEDULE_TASKS = False``): tests
call the services the tasks call.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import pytest

from tests.tables.helpers import table_opened

FIXED_SEED = hashlib.sha256(b"queyou tables tests").hexdigest()


@pytest.fixture(autouse=True)
def _table_settings(settings: Any) -> None:
    settings.TABLES_SCHEDULE_TASKS = False
    settings.TABLES_FIXED_SEED = FIXED_SEED
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture
def players(make_user: Callable[..., Any]) -> list[Any]:
    return [make_user(f"p{i}") for i in range(4)]


@pytest.fixture
def room(players: list[Any], make_club: Callable[..., Any]) -> Any:
    from tables import rooms

    club = make_club(owner=players[0], members=tuple(players[1:]))
    return rooms.room_create(user=players[0], club=club, name="东风桌", variant="changchun")


@pytest.fixture
def seated(room: Any, players: list[Any]) -> Any:
    """Four players sitting at seats 0-3 (not ready yet)."""
    from tables import rooms

    for index, user in enumerate(players):
        rooms.seat_take(room=room, user=user, index=index)
        # Each player has the table open (a match whose players all left is abandoned).
        table_opened(room.pk, user)
    return room


@pytest.fixture
def playing(seated: Any, players: list[Any]) -> Any:
    """The room with its first round dealt (seat 0 deals under the fixed seed)."""
    from tables import rooms, selectors

    for user in players:
        rooms.seat_set_ready(room=seated, user=user)
    rnd = selectors.current_round(seated.pk)
    assert rnd is not None
    return rnd
