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
    from tables import rooms, selectors

    for index, user in enumerate(players):
        rooms.seat_take(room=room, user=user, index=index)
    for user in players:
        rooms.seat_set_ready(room=room, user=user)
    rnd = selectors.current_round(room.pk)
    assert rnd is not None
    return rnd


def play_out(rnd: Any, *, limit: int = 400) -> Any:
    """Let every clock run out until the round ends (each seat plays its default action)."""
    from tables.game import commands
    from tables.models import Round

    for _ in range(limit):
        rnd = Round.objects.get(pk=rnd.pk)
        if rnd.status != Round.Status.PLAYING:
            return rnd
        commands.round_timeout(
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


def settled_match(room: Any, players: list[Any], *, seed_text: str = "api") -> Any:
    """A finished match of ``room`` with one ended, settled round, stored the way the table
    stores it but played straight through the engine (much faster than ``play_out``)."""
    from rules.wall import seed_from_text
    from scoring.services import settle_round
    from tables import gameplay
    from tables.models import Match, Round, RoundEvent
    from tests.scoring.helpers import play
    from tests.stored_rounds import log_played

    match = Match.objects.create(
        room=room,
        variant=room.variant,
        options=room.options,
        players=[u.pk for u in players],
        status=Match.Status.FINISHED,
        ended_at=timezone.now(),
    )
    seed = seed_from_text(seed_text)
    state, actions, events = play(match.variant, seed=seed, dealer=0, options=dict(room.options))
    rnd = Round.objects.create(
        match=match,
        number=1,
        dealer=0,
        seed=seed.hex(),
        commitment=state.commitment,
        version=len(actions),
        last_seq=len(events),
        status=Round.Status.ENDED,
        result=gameplay.result_json(state),
        ended_at=timezone.now(),
    )
    log_played(rnd, [gameplay.action_json(a) for a in actions])
    RoundEvent.objects.bulk_create(
        RoundEvent(
            round=rnd,
            seq=i + 1,
            kind=str(e.kind),
            payload=gameplay.event_json(e),
            views=gameplay.event_views(e),
        )
        for i, e in enumerate(events)
    )
    settle_round(rnd.pk)
    return match
