"""Fixtures of the API tests: four players in a club with a room, and clients signed in."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from tests.api.helpers import table_settings


@pytest.fixture(autouse=True)
def _api_settings(settings: Any) -> None:
    table_settings(settings)
    cache.clear()  # throttle counters live in the cache


@pytest.fixture
def players(make_user: Callable[..., Any]) -> list[Any]:
    return [make_user(f"a{i}") for i in range(4)]


@pytest.fixture
def club(players: list[Any], make_club: Callable[..., Any]) -> Any:
    return make_club(owner=players[0], members=tuple(players[1:]), name="雀友 API 圈")


@pytest.fixture
def room(club: Any, players: list[Any]) -> Any:
    from tables import rooms

    return rooms.room_create(user=players[0], club=club, name="东风桌", variant="changchun")


@pytest.fixture
def other_club(make_user: Callable[..., Any], make_club: Callable[..., Any]) -> Any:
    """A club none of ``players`` belongs to, with a room."""
    from tables.models import Room

    club = make_club(owner=make_user("stranger"), name="别人的圈")
    Room.objects.create(club=club, name="别人的桌", variant="harbin")
    return club


@pytest.fixture
def api_for() -> Callable[[Any], APIClient]:
    """``api_for(user)``: an API client authenticated with the user's token."""
    from rest_framework.authtoken.models import Token

    def make(user: Any) -> APIClient:
        client = APIClient()
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        return client

    return make
