"""The PostgreSQL connection dies in the middle of an action (docs/reliability.md).

The connection serving ``round_apply_action`` is terminated by the server (``pg_terminate_backend``,
what a PostgreSQL restart or a failover does to it) after the engine applied the action and before
its events are written. The action must fail with a database error and leave nothing behind (no
event, no version, no ``RoundAction``: the client's retry must not be answered as a duplicate);
once the connection is replaced (``close_old_connections``, which Channels runs around every
database call of a consumer) the same ``client_action_id`` applies exactly once.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import DatabaseError, close_old_connections, connection

from config import retry
from tables import gameplay
from tables.game import commands, store
from tables.models import Round, RoundAction, RoundEvent
from tests.tables.helpers import win_or_default

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL"),
]


def _terminate_this_connection() -> None:
    """Ask PostgreSQL, from a second connection, to end the backend of Django's connection."""
    import psycopg

    backend = connection.connection.info.backend_pid
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    params.pop("prepare_threshold", None)
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", (backend,))


def _facts(rnd: Round) -> tuple[int, int, int, int, int]:
    fresh = Round.objects.get(pk=rnd.pk)
    return (
        fresh.version,
        fresh.last_seq,
        fresh.action_count,
        RoundEvent.objects.filter(round=rnd).count(),
        RoundAction.objects.filter(round=rnd).count(),
    )


def _next_move(rnd: Round) -> tuple[int, dict[str, Any]]:
    state = store.load_state(Round.objects.select_related("match__room").get(pk=rnd.pk))
    seat = gameplay.deciders(state)[0]
    return seat, gameplay.action_json(win_or_default(state, seat))


def _drop_before_storing_events(monkeypatch: pytest.MonkeyPatch, times: int) -> list[int]:
    """Terminate Django's connection in the next ``times`` actions, after the engine applied the
    action, before the move is written."""
    write_move = store.write_move
    dropped: list[int] = []

    def store_after_the_drop(*args: Any, **kwargs: Any) -> Any:
        if len(dropped) < times:
            dropped.append(1)
            _terminate_this_connection()
        return write_move(*args, **kwargs)

    monkeypatch.setattr(store, "write_move", store_after_the_drop)
    return dropped


def _assert_applied_once(rnd: Round, before: tuple[int, int, int, int, int]) -> None:
    after = _facts(rnd)
    assert after[2] == before[2] + 1  # one more stored action
    assert after[4] == before[4] + 1  # one row in the action log
    assert after[1] - before[1] == after[3] - before[3] > 0  # events stored once, seq unbroken
    fresh = Round.objects.select_related("match__room").get(pk=rnd.pk)
    gameplay._cache.clear()  # the snapshot and the log's tail, not this process's cache
    assert store.replay_state(fresh) == store.load_state(fresh)


def test_a_connection_lost_mid_action_is_replayed_on_a_new_connection_and_applied_once(
    playing: Round, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _facts(playing)
    seat, action = _next_move(playing)
    dropped = _drop_before_storing_events(monkeypatch, times=1)
    outcome = commands.round_apply_action(
        round_id=playing.pk, seat=seat, action_json=action, client_action_id="drop-1"
    )
    assert dropped
    assert outcome.ok
    assert not outcome.duplicate
    _assert_applied_once(playing, before)


def test_a_database_gone_for_every_attempt_fails_cleanly_and_the_retry_applies_once(
    playing: Round, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _facts(playing)
    seat, action = _next_move(playing)
    dropped = _drop_before_storing_events(monkeypatch, times=retry.MAX_ATTEMPTS)
    with pytest.raises(DatabaseError):
        commands.round_apply_action(
            round_id=playing.pk, seat=seat, action_json=action, client_action_id="drop-2"
        )
    assert len(dropped) == retry.MAX_ATTEMPTS
    close_old_connections()  # what Channels does around each database call of a consumer
    assert _facts(playing) == before  # nothing half-written, no log row to answer a retry

    outcome = commands.round_apply_action(
        round_id=playing.pk, seat=seat, action_json=action, client_action_id="drop-2"
    )
    assert outcome.ok
    assert not outcome.duplicate
    again = commands.round_apply_action(
        round_id=playing.pk, seat=seat, action_json=action, client_action_id="drop-2"
    )
    assert again.ok
    assert again.duplicate
    assert again.version == outcome.version
    _assert_applied_once(playing, before)
