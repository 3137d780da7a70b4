"""Fixtures of the event tests: a club with an admin and eight members."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest


@pytest.fixture(autouse=True)
def _table_settings(settings: Any) -> None:
    # The tests call the services the tasks and the clock call (no Celery, no clock).
    settings.TABLES_SCHEDULE_TASKS = False
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture
def admin_user(make_user: Callable[..., Any]) -> Any:
    return make_user("boss")


@pytest.fixture
def members(make_user: Callable[..., Any]) -> list[Any]:
    return [make_user(f"m{i}") for i in range(8)]


@pytest.fixture
def club(admin_user: Any, members: list[Any], make_club: Callable[..., Any]) -> Any:
    return make_club(owner=admin_user, members=tuple(members), name="雀友比赛圈")
