"""A move committed by a process that dies before its notification leaves still reaches the
other processes' sockets (:mod:`tables.stream_watch`)."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async

from tables import gameplay, notify, selectors, stream_watch
from tables.game import commands
from tables.models import Round
from tests.tables.helpers import fresh, state_of
from tests.tables.ws import connect, drain, drain_until, send, until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@sync_to_async
def commit_and_die(rnd: Round) -> tuple[Round, list[notify.Notification]]:
    """The mover's process: it commits the move, then is killed before its notification leaves
    (what it collected after the commit is never sent, as in ``socket_services.service_run``)."""
    state = state_of(rnd)
    seat = gameplay.deciders(state)[0]
    with notify.notifications_collected() as lost:
        outcome = commands.round_apply_action(
            round_id=rnd.pk,
            seat=seat,
            action_json=gameplay.action_json(gameplay.default_action(state, seat)),
            client_action_id="killed-1",
        )
    assert outcome.ok
    return fresh(rnd), lost


async def test_a_move_whose_notification_died_with_its_process_reaches_the_other_sockets(
    playing: Round, players: list[Any], settings: Any
) -> None:
    settings.TABLES_STREAM_WATCH_MS = 100  # a short tick: the test need not wait seconds
    room_id = playing.match.room_id
    mover = gameplay.deciders(await sync_to_async(state_of)(playing))[0]
    # The sockets of the other players, on a process that stays up.
    sockets = {}
    for seat in range(4):
        if seat != mover:
            sockets[seat], _ = await connect(room_id, players[seat])
            await send(sockets[seat], {"type": "hello"})
            await until(sockets[seat], "snapshot")
    now, lost = await commit_and_die(playing)
    assert lost  # the move had a notification, and nobody received it
    for seat, comm in sockets.items():
        # No client resync and no idle hello here: only the watcher can tell them.
        got = await drain_until(comm, lambda m: m["type"] == "decision", timeout=30)
        events = [m for m in got if m["type"] == "event"]
        assert events, f"seat {seat} was not told of the move"
        assert events[0]["event"]["kind"] == "discard"
        assert events[0]["prev_seq"] == playing.last_seq
        assert events[-1]["seq"] == now.last_seq
        decision = [m for m in got if m["type"] == "decision"][-1]
        assert decision["version"] == now.decision_version
        # Caught up, it is not told twice (several ticks pass).
        assert [m for m in await drain(comm, quiet=1.0) if m["type"] == "event"] == []
    for comm in sockets.values():
        await comm.disconnect()


async def test_the_watch_reads_every_room_in_one_statement_and_stops_with_the_last_socket(
    playing: Round, players: list[Any], settings: Any, django_assert_num_queries: Any
) -> None:
    settings.TABLES_STREAM_WATCH_MS = 100
    room_id = playing.match.room_id

    @sync_to_async
    def positions() -> dict[int, tuple[int, int]]:
        with django_assert_num_queries(1):
            return selectors.stream_positions([room_id, room_id + 1000])

    assert await positions() == {room_id: (playing.pk, playing.last_seq)}
    comm, _ = await connect(room_id, players[0])
    await send(comm, {"type": "hello"})
    await until(comm, "snapshot")
    watchers = list(stream_watch._watchers.values())
    assert any(w.task is not None and not w.task.done() for w in watchers)
    await comm.disconnect(timeout=30)
    assert all(w.task is None and not w.sockets for w in stream_watch._watchers.values())
