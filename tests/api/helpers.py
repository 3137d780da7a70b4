"""Shared by the API and admin tests: a club with a room of four players, rounds played out."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from typing import Any

from django.utils import timezone

FIXED_SEED = hashlib.sha256(b"queyou api tests").hexdigest()


def table_settings(settings: Any) -> None:
    """No Celery, a fixed deal, an in-memory channel layer (as the table tests do)."""
    settings.TABLES_SCHEDULE_TASKS = False
    settings.TABLES_FIXED_SEED = FIXED_SEED
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def start_round(room: Any, players: list[Any]) -> Any:
    """Seat the four players, make them ready: the first round is dealt."""
    from tables import selectors, services

    for index, user in enumerate(players):
        services.seat_take(room=room, user=user, index=index)
    for user in players:
        services.seat_set_ready(room=room, user=user)
    rnd = selectors.current_round(room.pk)
    assert rnd is not None
    return rnd


def play_out(rnd: Any, *, limit: int = 400) -> Any:
    """Let every clock run out until the round ends (each seat plays its default action)."""
    from tables import services
    from tables.models import Round

    for _ in range(limit):
        rnd = Round.objects.get(pk=rnd.pk)
        if rnd.status != Round.Status.PLAYING:
            return rnd
        services.round_timeout(
            round_id=rnd.pk,
            decision_version=rnd.decision_version,
            now=timezone.now() + timedelta(hours=1),
        )
    raise AssertionError("the round did not end")


def contains_key(value: Any, names: set[str]) -> bool:
    """True if any dict inside ``value`` has one of ``names`` as a key."""
    if isinstance(value, dict):
        return any(k in names for k in value) or any(contains_key(v, names) for v in value.values())
    if isinstance(value, list):
        return any(contains_key(v, names) for v in value)
    return False
