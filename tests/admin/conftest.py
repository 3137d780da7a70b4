"""Fixtures of the admin tests: club A run by a (non-staff) club admin, club B by someone else,
each with a room of four seated players."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.api.helpers import table_settings


@pytest.fixture(autouse=True)
def _admin_settings(settings: Any) -> None:
    table_settings(settings)


@pytest.fixture
def world(make_user: Callable[..., Any], make_club: Callable[..., Any]) -> dict[str, Any]:
    from tables import rooms

    manager = make_user("manager_a")
    a_players = [make_user(f"pa{i}") for i in range(4)]
    b_players = [make_user(f"pb{i}") for i in range(4)]
    club_a = make_club(owner=a_players[0], name="A 圈", members=tuple(a_players[1:]))
    club_a.memberships.create(user=manager, role="admin")
    club_b = make_club(owner=b_players[0], name="B 圈", members=tuple(b_players[1:]))
    room_a = rooms.room_create(user=a_players[0], club=club_a, name="A 桌", variant="changchun")
    room_b = rooms.room_create(user=b_players[0], club=club_b, name="B 桌", variant="harbin")
    return {
        "manager": manager,
        "a": club_a,
        "b": club_b,
        "a_players": a_players,
        "b_players": b_players,
        "room_a": room_a,
        "room_b": room_b,
    }


@pytest.fixture
def manager_client(client: Any, world: dict[str, Any]) -> Any:
    client.force_login(world["manager"])
    return client
