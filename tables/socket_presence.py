"""One table socket's presence (:mod:`tables.presence`) and the tasks that live and die with
the socket: its presence refresher and, for a delayed spectator, its stream's clock.

The socket opens it once admitted, stops its tasks when it ends (the tasks are awaited, so no
refresh lands after the socket's entries were removed) and closes it then. A killed worker
stops refreshing, and its sockets expire by themselves (:data:`presence.TTL_S`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import DatabaseError

from tables import presence, rooms
from tables.socket_loops import repeat_until
from tables.socket_services import service_run
from tables.socket_stream import SocketStream

log = logging.getLogger(__name__)


@dataclass
class SocketPresence:
    """The presence of the socket ``channel`` of user ``user_id`` at room ``room_id``."""

    room_id: int
    user_id: int
    channel: str
    present: bool = False
    """Counted in (what :meth:`close` removes)."""
    leaving: asyncio.Event = field(default_factory=asyncio.Event)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    clock: bool = False
    """Whether the delayed stream's clock runs (:meth:`clock_start`)."""

    async def open(self) -> bool:
        """Count the socket in and refresh it every :data:`presence.REFRESH_S`; False when the
        user already holds the most sockets allowed."""
        self.present = await asyncio.to_thread(
            presence.socket_open, room_id=self.room_id, user_id=self.user_id, channel=self.channel
        )
        if self.present:
            self.repeat(every_s=presence.REFRESH_S, step=self.refresh)
        return self.present

    async def refresh(self) -> bool:
        await asyncio.to_thread(
            presence.socket_refresh,
            room_id=self.room_id,
            user_id=self.user_id,
            channel=self.channel,
        )
        return True

    def repeat(self, *, every_s: float, step: Callable[[], Awaitable[bool]]) -> None:
        """Run ``step`` every ``every_s`` seconds until the socket leaves (or ``step`` answers
        False)."""
        self.tasks.append(
            asyncio.create_task(repeat_until(self.leaving, every_s=every_s, step=step))
        )

    def clock_start(
        self, channel_layer: Any, stream: SocketStream, closed: Callable[[], bool]
    ) -> None:
        """Start the clock of the socket's delayed stream (once per socket; it ends with the
        socket): every ``TABLES_DELAYED_TICK_MS`` while the stream moves with its clock, a
        ``table.delayed`` through the socket's own channel, so that the read it asks for is
        handled in order with the socket's other messages."""
        if self.clock:
            return
        self.clock = True

        async def tick() -> bool:
            if closed():
                return False
            if stream.on_clock:
                try:
                    await channel_layer.send(self.channel, {"type": "table.delayed"})
                except Exception as exc:  # the channel layer is down: the next tick asks again
                    log.info("table %s: delayed tick not sent: %r", self.room_id, exc)
            return True

        self.repeat(every_s=int(settings.TABLES_DELAYED_TICK_MS) / 1000, step=tick)

    async def stop(self) -> None:
        """Stop the socket's tasks and wait for them (whatever they died of)."""
        self.leaving.set()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    async def close(self, *, seated: bool) -> None:
        """Count the socket out and, for a seat, show it offline if it was the user's last
        socket there. Redis or the database may be why the socket is ending: the entry then
        expires, and the clock's presence sweep shows the seat offline."""
        if not self.present:
            return
        await asyncio.to_thread(
            presence.socket_close, room_id=self.room_id, user_id=self.user_id, channel=self.channel
        )
        if not seated:
            return
        try:
            await service_run(rooms.seat_presence_sync, room_id=self.room_id)
        except DatabaseError as exc:  # the clock's presence sweep catches up
            log.warning("table %s: seat presence not synced: %s", self.room_id, exc)
