"""Shared pytest setup: test settings, and small factories for players and clubs.

``QUEYOU_TESTING`` must be set before Django reads the settings (fast password hasher, dev secret).
Sign players in with ``client.force_login``: django-axes refuses ``client.login`` (it has no
request to rate-limit).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from itertools import count
from typing import Any

import pytest

# Belt and braces: config/settings.py already defaults to test settings under pytest.
os.environ.setdefault("QUEYOU_TESTING", "1")

PASSWORD = "correct-horse-battery-9"
_serial = count(1)


@pytest.fixture(autouse=True)
def _no_presence_left_over() -> None:
    """Each test starts with no table presence in Redis. Presence is keyed by room and user id
    (under this process's key prefix), and on SQLite a rolled-back test gives the next test's
    room and players the same ids: a socket an earlier test left open would make the next
    test's table look open (a match nobody has open was dealt again, once in CI). Only where
    presence has been used in this process, so that the engine's tests never touch Redis."""
    presence = sys.modules.get("tables.presence")
    if presence is None:
        return
    import redis

    from config.redis_client import redis_client, redis_key

    try:
        client = redis_client()
        stale = list(client.scan_iter(match=redis_key("presence", "*"), count=500))
        if stale:
            client.delete(*stale)
    except redis.RedisError:  # tests that stop Redis on purpose: nothing to clear then
        pass


@pytest.fixture(autouse=True)
def _fresh_state_cache() -> None:
    """Each test starts with an empty per-process state cache. The cache is keyed by round id
    and version, which never repeat in production (ids are not reused), but a test's rollback
    also rolls back SQLite's id counter: the next test's round gets the same id, and without
    this it could be served the previous test's cached state (three failures on SQLite only).
    Imported lazily so that the engine's tests stay free of Django."""
    gameplay = sys.modules.get("tables.gameplay")
    if gameplay is not None:
        gameplay.cache_clear()
    delayed = sys.modules.get("tables.delayed")  # its replayed states, by round id too
    if delayed is not None:
        delayed.cache_clear()


@pytest.fixture
def password() -> str:
    return PASSWORD


@pytest.fixture
def make_user(db: None) -> Callable[..., Any]:
    """``make_user(username=None, **fields)`` -> a saved player whose password is ``PASSWORD``."""
    from accounts.models import User

    def make(username: str | None = None, **fields: Any) -> User:
        name = username or f"player{next(_serial)}"
        fields.setdefault("email", f"{name}@example.com")
        return User.objects.create_user(username=name, password=PASSWORD, **fields)

    return make


@pytest.fixture
def make_club(make_user: Callable[..., Any]) -> Callable[..., Any]:
    """``make_club(owner=None, name=None, members=(), admins=(), **fields)`` -> a saved club."""
    from accounts import services
    from accounts.models import Membership

    def make(
        owner: Any = None,
        name: str | None = None,
        members: tuple[Any, ...] = (),
        admins: tuple[Any, ...] = (),
        **fields: Any,
    ) -> Any:
        owner = owner or make_user()
        club = services.club_create(owner=owner, name=name or f"club {next(_serial)}", **fields)
        for user in members:
            Membership.objects.create(club=club, user=user)
        for user in admins:
            Membership.objects.create(club=club, user=user, role=Membership.Role.ADMIN)
        return club

    return make


@pytest.fixture(scope="session", autouse=True)
def compiled_messages() -> None:
    """Compile the stale message catalogs (they are not committed) the way ``make test`` does,
    for a plain ``pytest`` run too. Runs before any test activates a language, so Django loads
    the fresh catalogs."""
    from config.launcher import compile_messages

    compile_messages()
