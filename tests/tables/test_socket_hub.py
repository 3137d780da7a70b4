"""The room notifications' fan-out (:mod:`tables.socket_hub`): one Redis subscriber per process,
this process's sockets handed a notification in memory, the other processes' through one
``PUBLISH``, and a subscriber that reconnects and subscribes again after Redis drops it.

"Another process" is a publish with another origin, made with the synchronous client as the
clock or a Celery worker would; the sockets are stand-ins that keep what they are handed."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import msgpack

from config.redis_client import redis_client
from tables import socket_hub
from tables.socket_loops import LeavingConsumer

ROOM = 987_650


class Socket:
    def __init__(self) -> None:
        self.got: list[dict[str, Any]] = []

    def hub_deliver(self, message: dict[str, Any]) -> None:
        self.got.append(message)


def _from_elsewhere(room_id: int, message: dict[str, Any]) -> None:
    """What another process publishes (its own origin)."""
    payload = msgpack.packb({"o": "another-process", "r": room_id, "m": message})
    redis_client().publish(socket_hub.channel(room_id), payload)


async def _until(condition: Any, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "not delivered in time"
        await asyncio.sleep(0.01)


async def test_another_process_notification_reaches_every_socket_of_the_room_only() -> None:
    hub = socket_hub.hub()
    here, there, elsewhere = Socket(), Socket(), Socket()
    await hub.join(ROOM, here)
    await hub.join(ROOM, there)
    await hub.join(ROOM + 1, elsewhere)
    try:
        _from_elsewhere(ROOM, {"type": "table.update", "n": 1})
        await _until(lambda: here.got and there.got)
        assert here.got == there.got == [{"type": "table.update", "n": 1}]
        await asyncio.sleep(0.1)
        assert elsewhere.got == []
    finally:
        hub.leave(ROOM, here)
        hub.leave(ROOM, there)
        hub.leave(ROOM + 1, elsewhere)


async def test_this_process_sockets_get_a_notification_once_and_at_once() -> None:
    """Handed in memory when published (no wait for Redis); the echo of our own publish that
    comes back through the subscriber is not handed again."""
    hub = socket_hub.hub()
    sock = Socket()
    await hub.join(ROOM, sock)
    try:
        socket_hub.publish(ROOM, {"type": "table.update", "n": 2})
        assert sock.got == [{"type": "table.update", "n": 2}]  # before any await
        _from_elsewhere(ROOM, {"type": "table.update", "n": 3})  # after our echo, if any
        await _until(lambda: len(sock.got) >= 2)
        await asyncio.sleep(0.1)
        assert [m["n"] for m in sock.got] == [2, 3]
    finally:
        hub.leave(ROOM, sock)


async def test_a_commit_in_a_database_thread_reaches_the_loop_sockets() -> None:
    """``publish_sync`` from a thread (a commit not collected by a socket, an HTTP view): the
    loop's sockets of the room, through the loop."""
    hub = socket_hub.hub()
    sock = Socket()
    await hub.join(ROOM, sock)
    try:
        thread = threading.Thread(
            target=socket_hub.publish_sync, args=(ROOM, {"type": "table.update", "n": 4})
        )
        thread.start()
        await asyncio.to_thread(thread.join)
        await _until(lambda: sock.got)
        await asyncio.sleep(0.1)
        assert sock.got == [{"type": "table.update", "n": 4}]
    finally:
        hub.leave(ROOM, sock)


async def test_the_subscriber_reconnects_and_subscribes_again_when_redis_drops_it() -> None:
    """A Redis restart closes the subscriber's connection: the socket stays open and hears the
    room again once the subscriber is back (before: its group was lost with the old Redis)."""
    hub = socket_hub.hub()
    sock = Socket()
    await hub.join(ROOM, sock)
    try:
        old = hub.pubsub
        assert old is not None
        assert hub.connected
        host, port = old.connection._writer.get_extra_info("sockname")[:2]
        assert redis_client().client_kill_filter(_type=None, addr=f"{host}:{port}") == 1
        await _until(lambda: hub.connected and hub.pubsub is not old)
        # Subscribed again: a publish from elsewhere arrives (retried until the subscription
        # is confirmed, as a client's next move would be).
        n = 0
        while not sock.got:
            n += 1
            _from_elsewhere(ROOM, {"type": "table.update", "n": n})
            await asyncio.sleep(0.05)
            assert n < 100, "never heard the room again"
        assert sock.got[0]["type"] == "table.update"
    finally:
        hub.leave(ROOM, sock)


async def test_the_last_socket_of_a_room_leaving_stops_the_subscriber() -> None:
    hub = socket_hub.hub()
    sock = Socket()
    await hub.join(ROOM, sock)
    task = hub.task
    assert task is not None
    hub.leave(ROOM, sock)
    assert hub.rooms == {}
    assert hub.task is None
    await asyncio.wait([task], timeout=2.0)
    assert task.done()
    socket_hub.publish(ROOM, {"type": "table.update"})
    assert sock.got == []


async def test_a_full_inbox_drops_instead_of_growing() -> None:
    consumer = LeavingConsumer()
    consumer.inbox = asyncio.Queue(maxsize=2)
    for n in range(3):
        consumer.hub_deliver({"type": "table.update", "n": n})
    assert consumer.inbox.qsize() == 2
    assert consumer.inbox.get_nowait()["n"] == 0
