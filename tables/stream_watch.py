"""A move whose notification died with its process still reaches every socket.

A move's notification leaves after its commit, from the process that made it (:mod:`tables.notify`:
the ASGI process of the socket that moved, the clock, a Celery worker). A process killed between
its commit and the channel layer's ``group_send`` (kill -9, out of memory, a host that dies) takes
the notification with it: the move is in the database, and the sockets of the other processes
would wait for their client's idle ``hello`` (15 s, the length of a turn) or the next move.

So each ASGI process watches the rooms it has sockets at. Every ``TABLES_STREAM_WATCH_MS`` (1 s)
it reads where each of those rooms' round streams stands in the database — one statement for all
its rooms (:func:`tables.selectors.stream_positions`), nothing written. A socket short of that
position is given a grace (:func:`grace_s`) for a notification still on its way; still short
after it, it has lost one, and is asked to read what is new (a ``table.behind`` message through
its own channel, so it is handled in order with the socket's other messages; the socket reads
exactly as after any notification it could not use). So the other sockets learn of a move whose
notification was lost within a tick and a grace of its commit (1.5 s at most), and a move costs
nothing more (nothing is added to its transaction).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from concurrent.futures import Executor
from typing import Protocol

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings

from tables import selectors

log = logging.getLogger(__name__)

Position = tuple[int, int]
"""Where a room's round stream stands: (round id, last seq)."""


class Watched(Protocol):
    """A table socket as the watcher sees it (:class:`tables.consumers.TableConsumer`)."""

    room_id: int
    channel_name: str

    def is_behind(self, position: Position) -> bool:
        """True when this socket has shown less of the room than ``position`` (a greeted socket
        on an older round, or short of its last seq)."""
        ...


def interval_s() -> float:
    """Seconds between two checks (``TABLES_STREAM_WATCH_MS``); 0: no watching."""
    return int(settings.TABLES_STREAM_WATCH_MS) / 1000


def grace_s() -> float:
    """How long a socket found behind the database may take to receive the notification on its
    way before it is asked to read: half a tick, at most 0.5 s (a notification takes a few
    milliseconds; hundreds under a saturated worker)."""
    return min(0.5, interval_s() / 2)


class _Watcher:
    """The sockets of one event loop (one ASGI process) and the task that checks them."""

    def __init__(self, executor: Executor) -> None:
        # Weak: a socket whose coroutine died without its disconnect (a ghost) is not kept.
        self.sockets: weakref.WeakSet[Watched] = weakref.WeakSet()
        self.executor = executor
        self.task: asyncio.Task[None] | None = None
        self.failing = False  # the last read failed (an outage is logged once, not every tick)

    async def run(self) -> None:
        while self.sockets and interval_s() > 0:
            await asyncio.sleep(interval_s())
            rooms = {sock.room_id for sock in self.sockets}
            try:
                now = await database_sync_to_async(
                    selectors.stream_positions, thread_sensitive=False, executor=self.executor
                )(rooms)
            except Exception as exc:  # the database is down: the next tick tries again
                (log.debug if self.failing else log.warning)(
                    "stream watch: could not read the rooms' positions: %r", exc
                )
                self.failing = True
                continue
            self.failing = False
            behind = [
                s for s in list(self.sockets) if s.room_id in now and s.is_behind(now[s.room_id])
            ]
            if not behind:
                continue
            # A notification still on its way arrives within milliseconds; one that has not
            # arrived after the grace was lost.
            await asyncio.sleep(grace_s())
            for sock in behind:
                if sock in self.sockets and sock.is_behind(now[sock.room_id]):
                    await _ask_to_catch_up(sock)


async def _ask_to_catch_up(sock: Watched) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        await layer.send(sock.channel_name, {"type": "table.behind"})
    except Exception as exc:  # the channel layer is down: the next tick asks again
        log.warning("stream watch: could not reach socket %s: %r", sock.channel_name, exc)


_watchers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Watcher] = (
    weakref.WeakKeyDictionary()
)


def socket_watch(sock: Watched, *, executor: Executor) -> None:
    """Watch ``sock`` (an open table socket) from now on; its database reads run on
    ``executor`` (the sockets' database threads)."""
    if interval_s() <= 0:
        return
    loop = asyncio.get_running_loop()
    watcher = _watchers.get(loop)
    if watcher is None:
        watcher = _watchers[loop] = _Watcher(executor)
    watcher.sockets.add(sock)
    if watcher.task is None or watcher.task.done():
        watcher.task = loop.create_task(watcher.run())


def socket_unwatch(sock: Watched) -> None:
    """The socket closed; the watcher stops with its process's last socket."""
    for watcher in list(_watchers.values()):
        watcher.sockets.discard(sock)
        if not watcher.sockets and watcher.task is not None:
            watcher.task.cancel()
            watcher.task = None
