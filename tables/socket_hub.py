"""How a room's notification reaches its sockets: one Redis pub/sub subscriber per process.

Each ASGI process (each event loop) keeps a registry room → its open table sockets there, and one
Redis connection subscribed to ``<REDIS_KEY_PREFIX>:table:<room>`` for each room it has sockets at.
A notification (:mod:`tables.notify`, after the commit) is handed to the sockets of its own
process at once, in memory, and published once to the room's Redis channel for the other
processes; each subscribed process decodes it once and hands it to its sockets of that room. A
socket takes it from its **inbox** in order with its other messages (Channels' consumer loop,
:class:`tables.socket_loops.LeavingConsumer`), as it took a ``group_send``.

Before (Channels' ``group_send``): four Redis round trips at the sender (expire the group, read
its members, expire each member process's queue, a Lua script that queues the message) and one
``BZPOPMIN`` queue per process behind them. Now: one ``PUBLISH``, and none for the sender's own
sockets.

Nothing here is the truth: a notification lost with a Redis restart, a full inbox or a killed
process is repaired from the database by the stream watcher (:mod:`tables.stream_watch`, within
about 1.5 s) or the client's ``resync``. The subscriber reconnects by itself (50 ms, doubling to
2 s) and subscribes again to every room it has sockets at, so a socket that stays open through a
Redis restart hears the room again (before: its group was gone with the old Redis until it
reconnected). What a socket sends is still its own viewer's part, picked by the socket
(:mod:`tables.socket_notification`): the notification is server-side, like the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
import uuid
import weakref
from typing import Any, Protocol

import msgpack
import redis.asyncio as aioredis
from django.conf import settings

from config.redis_client import redis_client, redis_key

log = logging.getLogger(__name__)

SUBSCRIBE_WAIT_S = 2.0
"""How long a socket's join waits for its room's subscription to be confirmed (then it goes on:
what it missed meanwhile reaches it through the stream watcher)."""
BACKOFF_FIRST_S, BACKOFF_MAX_S = 0.05, 2.0
"""The subscriber's wait before reconnecting to Redis: 50 ms, doubling up to 2 s."""


class Member(Protocol):
    """A table socket as the hub sees it (:class:`tables.consumers.TableConsumer`)."""

    def hub_deliver(self, message: dict[str, Any]) -> None:
        """Queue ``message`` (a ``table.update`` or ``table.phrase``) for the socket."""
        ...


def channel(room_id: int) -> str:
    """The Redis pub/sub channel of a room's notifications."""
    return redis_key("table", room_id)


_origin: tuple[int, str] | None = None


def origin() -> str:
    """This process's id in what it publishes (its own subscriber skips it: its sockets were
    handed the notification already). Made after a fork too (a child has its own)."""
    global _origin
    pid = os.getpid()
    if _origin is None or _origin[0] != pid:
        _origin = (pid, f"{pid}-{uuid.uuid4().hex}")
    return _origin[1]


def _encode(room_id: int, message: dict[str, Any]) -> bytes:
    packed: bytes = msgpack.packb({"o": origin(), "r": room_id, "m": message})
    return packed


class Hub:
    """The sockets of one event loop (one ASGI process), by room, and its Redis subscriber."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.rooms: dict[int, weakref.WeakSet[Member]] = {}
        self.subscribed: dict[int, asyncio.Future[None]] = {}
        self.pubsub: Any = None
        self.publisher: aioredis.Redis | None = None
        self.outbox: asyncio.Queue[tuple[str, bytes]] | None = None
        self.sender: asyncio.Task[None] | None = None
        self.task: asyncio.Task[None] | None = None
        self.connected = False
        self.wake = asyncio.Event()

    # --- the registry ---------------------------------------------------------------------

    async def join(self, room_id: int, member: Member) -> None:
        """``member`` hears the room from now on (once its subscription is confirmed, or after
        :data:`SUBSCRIBE_WAIT_S`: the stream watcher covers what it missed meanwhile)."""
        members = self.rooms.setdefault(room_id, weakref.WeakSet())
        members.add(member)
        if room_id not in self.subscribed:
            self.subscribed[room_id] = self.loop.create_future()
            self._subscribe_soon(room_id)
        self._ensure_running()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(self.subscribed[room_id]), SUBSCRIBE_WAIT_S)

    def leave(self, room_id: int, member: Member) -> None:
        members = self.rooms.get(room_id)
        if members is None:
            return
        members.discard(member)
        if not members:
            del self.rooms[room_id]
            self.subscribed.pop(room_id, None)
            self._unsubscribe_soon(room_id)
        if not self.rooms and self.task is not None:
            self.task.cancel()
            self.task = None

    def deliver(self, room_id: int, message: dict[str, Any]) -> None:
        """Hand ``message`` to this loop's sockets of the room (on this loop's thread)."""
        for member in list(self.rooms.get(room_id, ())):
            member.hub_deliver(message)

    # --- Redis ------------------------------------------------------------------------------

    def _ensure_running(self) -> None:
        if self.task is None or self.task.done():
            self.task = self.loop.create_task(self._run())

    def _subscribe_soon(self, room_id: int) -> None:
        if self.pubsub is not None and self.connected:
            self.loop.create_task(self._command("subscribe", room_id))

    def _unsubscribe_soon(self, room_id: int) -> None:
        if self.pubsub is not None and self.connected:
            self.loop.create_task(self._command("unsubscribe", room_id))

    async def _command(self, name: str, room_id: int) -> None:
        try:
            await getattr(self.pubsub, name)(channel(room_id))
        except Exception as exc:  # the connection broke: the reader reconnects and resubscribes
            log.info("socket hub: %s %s failed: %r", name, room_id, exc)

    async def _run(self) -> None:
        """Read the subscribed channels; on a broken connection, reconnect with a backoff and
        subscribe again to every room with sockets here."""
        backoff = BACKOFF_FIRST_S
        while self.rooms:
            pubsub = _connect().pubsub()
            try:
                first = set(self.rooms)
                await pubsub.subscribe(*(channel(r) for r in first))
                self.pubsub, self.connected = pubsub, True
                joined = set(self.rooms) - first  # rooms joined while subscribing
                if joined:
                    await pubsub.subscribe(*(channel(r) for r in joined))
                while self.rooms:
                    got = await pubsub.get_message(timeout=5.0)
                    if got is not None:
                        backoff = BACKOFF_FIRST_S
                        self._received(got)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis restarting: sockets stay open, the watcher repairs
                log.warning("socket hub: Redis subscriber lost (%r); again in %.2f s", exc, backoff)
                await asyncio.sleep(backoff)
                backoff = min(BACKOFF_MAX_S, backoff * 2)
            finally:
                self.connected = False
                self.pubsub = None
                with contextlib.suppress(Exception):
                    await pubsub.aclose()

    def _received(self, got: dict[str, Any]) -> None:
        kind = got.get("type")
        if kind == "subscribe":
            room_id = _room_of(got["channel"])
            waiting = self.subscribed.get(room_id)
            if waiting is not None and not waiting.done():
                waiting.set_result(None)
            return
        if kind != "message":
            return
        try:
            data = msgpack.unpackb(got["data"])
        except Exception:
            log.warning("socket hub: a message that is not ours on %r", got.get("channel"))
            return
        if data.get("o") == origin():
            return  # ours: this process's sockets were handed it when it was published
        self.deliver(int(data["r"]), data["m"])

    def publish(self, room_id: int, message: dict[str, Any]) -> None:
        """Queue a PUBLISH to the other processes: sent in order by this loop's one sender
        task, so that the socket that moved (and this process's other sockets, handed the
        notification already) does not wait for Redis."""
        if self.outbox is None:
            self.outbox = asyncio.Queue()
        self.outbox.put_nowait((channel(room_id), _encode(room_id, message)))
        if self.sender is None or self.sender.done():
            self.sender = self.loop.create_task(self._send())

    async def _send(self) -> None:
        assert self.outbox is not None
        while not self.outbox.empty():
            name, payload = self.outbox.get_nowait()
            try:
                if self.publisher is None:
                    self.publisher = _connect()
                await self.publisher.publish(name, payload)
            except Exception as exc:  # lost: the stream watcher repairs the other processes
                log.warning("socket hub: a notification not published: %r", exc)


def _connect() -> aioredis.Redis:
    return aioredis.Redis.from_url(
        settings.REDIS_URL, socket_connect_timeout=1.0, health_check_interval=15
    )


def _room_of(name: bytes | str) -> int:
    text = name.decode() if isinstance(name, bytes) else name
    return int(text.rsplit(":", 1)[1])


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()
_hubs_lock = threading.Lock()


def hub() -> Hub:
    """The hub of the running event loop."""
    loop = asyncio.get_running_loop()
    with _hubs_lock:
        found = _hubs.get(loop)
        if found is None:
            found = _hubs[loop] = Hub(loop)
    return found


def _local_hubs() -> list[Hub]:
    with _hubs_lock:
        return [h for h in _hubs.values() if not h.loop.is_closed()]


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _deliver_locally(room_id: int, message: dict[str, Any]) -> None:
    """This process's sockets of the room: at once on this loop, through ``call_soon_threadsafe``
    on another loop (a database thread's commit, an HTTP view's)."""
    running = _running_loop()
    for local in _local_hubs():
        if room_id not in local.rooms:
            continue
        if local.loop is running:
            local.deliver(room_id, message)
        else:
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                local.loop.call_soon_threadsafe(local.deliver, room_id, message)


def publish(room_id: int, message: dict[str, Any]) -> None:
    """From an event loop: this process's sockets now, the other processes' through Redis
    (queued: sent in order by the loop's sender task, nobody waits for it)."""
    _deliver_locally(room_id, message)
    hub().publish(room_id, message)


def publish_sync(room_id: int, message: dict[str, Any]) -> None:
    """From a thread with no event loop (the clock, a Celery task, an HTTP view, a test):
    this process's sockets, then Redis (this process's synchronous client)."""
    _deliver_locally(room_id, message)
    redis_client().publish(channel(room_id), _encode(room_id, message))
