"""Fixtures of the reliability tests: a Changchun room of four club members with a round dealt.

Like the table tests (tests/tables/conftest.py) the deadline tasks are not sent to Celery and the
channel layer is in memory, but only for the tests that ask for a table: the channel-layer test
checks the production layer itself.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import pytest

FIXED_SEED = hashlib.sha256(b"queyou reliability tests").hexdigest()


@pytest.fixture
def table_settings(settings: Any) -> None:
    settings.TABLES_SCHEDULE_TASKS = False
    settings.SCORING_ENQUEUE_SETTLEMENT = False
    settings.TABLES_FIXED_SEED = FIXED_SEED
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture
def players(make_user: Callable[..., Any]) -> list[Any]:
    return [make_user(f"r{i}") for i in range(4)]


@pytest.fixture
def playing(table_settings: None, players: list[Any], make_club: Callable[..., Any]) -> Any:
    """The room's first round, dealt (seat 0 deals under the fixed seed)."""
    from tables import rooms, selectors

    club = make_club(owner=players[0], members=tuple(players[1:]))
    room = rooms.room_create(user=players[0], club=club, name="可靠桌", variant="changchun")
    for index, user in enumerate(players):
        rooms.seat_take(room=room, user=user, index=index)
    for user in players:
        rooms.seat_set_ready(room=room, user=user)
    rnd = selectors.current_round(room.pk)
    assert rnd is not None
    return rnd
