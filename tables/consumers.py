"""The table websocket (``/ws/table/<room_id>/``): one socket per browser tab, a thin edge.

It admits the socket, parses what the client sends (:mod:`tables.protocol`), asks a service
(:mod:`tables.socket_services`, in the database threads) or the notification alone
(:mod:`tables.socket_notification`) what to send, and sends it. What it has sent is its
:class:`~tables.socket_stream.SocketStream`; the seat is never taken from a client's message.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any, TypeVar, cast

from django.db import DatabaseError

from tables import presence, protocol, rooms, socket_hub, stream_watch
from tables import socket_services as services

# The close codes' one table is tables.protocol.CLOSE_CODES.
from tables.protocol import CLOSE_ABUSE, CLOSE_REVOKED, CLOSE_TOO_MANY, CLOSE_UNAUTHENTICATED
from tables.socket_loops import LeavingConsumer
from tables.socket_notification import TableUpdate, from_notification
from tables.socket_presence import SocketPresence
from tables.socket_stream import Message, SocketStream

log = logging.getLogger(__name__)
T = TypeVar("T")

_MAX_REFUSED = 200


class TableConsumer(LeavingConsumer):
    """A player's (or spectator's) live connection to one room."""

    # What :meth:`leave` undoes; set by :meth:`connect` (a consumer may end before it runs).
    joined = left = False
    presence: SocketPresence | None = None

    async def connect(self) -> None:
        self.user, self.stream = self.scope.get("user"), SocketStream()
        self.room_id = int(self.scope["url_route"]["kwargs"]["room_id"])
        self.limiter, self.refused, self.closed = protocol.RateLimiter(), 0, False
        await self.accept()
        if self.user is None or not self.user.is_authenticated:
            await self._refuse(CLOSE_UNAUTHENTICATED, "not_authenticated", "sign in first")
            return
        if (refusal := await self._db(services.socket_admit, stream=self.stream)) is not None:
            await self._refuse(*refusal)
            return
        self.presence = SocketPresence(self.room_id, self.user.pk, self.channel_name)
        if not await self.presence.open():
            most = f"close another table first ({presence.max_sockets_per_user()} at most)"
            await self._refuse(CLOSE_TOO_MANY, "too_many_sockets", most)
            return
        self.joined = True
        await socket_hub.hub().join(self.room_id, self)
        stream_watch.socket_watch(self, executor=services.DATABASE_THREADS)
        if self.stream.seat is not None:
            await services.service_run(rooms.seat_presence_sync, room_id=self.room_id)
        await self._send_all(await self._db(services.socket_table, stream=self.stream))

    async def leave(self) -> None:
        """Once: its tasks stopped, out of the room's group, presence removed, seat offline."""
        if self.left:
            return
        self.left = self.closed = True
        if self.presence is not None:
            await self.presence.stop()
        if self.joined:
            stream_watch.socket_unwatch(self)
            socket_hub.hub().leave(self.room_id, self)
        if self.presence is not None:
            await self.presence.close(seated=self.stream.seat is not None)

    async def close(self, code: int | bool | None = None, reason: str | None = None) -> None:
        self.closed = True
        await super().close(code=code, reason=reason)

    async def _db(self, service: Callable[..., T], **kwargs: Any) -> T:
        """A socket service (:mod:`tables.socket_services`) for this room and user."""
        return await services.service_run(service, room_id=self.room_id, user=self.user, **kwargs)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.closed:
            # Refused, or the client is gone (a send failed): what it queued before going (a
            # flood of resyncs) would cost database reads for nobody, and delay the cleanup.
            return
        if not self.limiter.allow():
            await self._reply_error("rate_limited", "too many messages; slow down")
            return
        try:
            message = protocol.parse_client_message(text_data)
        except protocol.ProtocolError as exc:
            await self._reply_error(exc.code, str(exc))
            return
        try:
            await self._answer(message.type, message.fields)
        except DatabaseError as exc:
            # PostgreSQL restarting: the move was not made (its transaction rolled back); the
            # client may send it again with the same id, and resyncs.
            log.warning("table %s: database unavailable: %s", self.room_id, exc)
            cid = message.fields.get("client_action_id")
            extra = {} if cid is None else {"client_action_id": str(cid)}
            await self._reply_error("unavailable", "the server is busy; try again", **extra)

    async def _answer(self, kind: str, fields: dict[str, Any]) -> None:
        """A valid client message (``docs/protocol.md``, "Client → server")."""
        if kind == "ping":
            await self._send_all([{"type": "pong"}])
            if self.presence is not None:  # always: a socket receives once admitted
                await self.presence.refresh()
        elif kind in ("hello", "resync"):
            try:  # ``resync`` is a ``hello`` without a position
                where = cast(services.HelloFields, fields)
                messages = await self._db(services.socket_hello, stream=self.stream, **where)
            except services.Revoked as refused:
                await self._refuse(*refused.args)
                return
            await self._send_all(messages)
            self._tick_if_delayed()
        elif kind == "action":  # our own move comes back as a ``table.update``, like everyone's
            reply = await self._db(services.socket_act, stream=self.stream, fields=fields)
            await self._send_all([reply])
        elif error := await self._db(services.socket_request, kind=kind, fields=fields):
            await self._reply_error(*error)

    async def _reply_error(self, code: str, message: str, **extra: Any) -> None:
        self.refused += 1
        await self._send_all([protocol.error(code, message, **extra)])
        if self.refused > _MAX_REFUSED:
            await self._refuse(CLOSE_ABUSE, "too_many_refusals", "too many refused messages")

    async def _refuse(self, close_code: int, code: str, message: str) -> None:
        await self._send_all([protocol.error(code, message)])
        await self.close(code=close_code)

    async def table_phrase(self, message: dict[str, Any]) -> None:
        """Group message: a seat sent a quick phrase; every viewer of the table is shown it."""
        await self._send_all([message["message"]])

    async def table_update(self, message: TableUpdate) -> None:
        """Group message: something changed in the room; send this viewer what is new."""
        if self.user.pk in message.get("revoked", ()):
            # No longer a member of the room's club: the seat is gone, and so is the view.
            await self._refuse(CLOSE_REVOKED, "not_member", "you are no longer in this club")
            return
        messages = from_notification(self.stream, message, user_id=self.user.pk)
        await (self._catch_up() if messages is None else self._send_all(messages))

    async def table_behind(self, message: dict[str, Any]) -> None:
        """From the stream watcher: a notification was lost (:mod:`tables.stream_watch`)."""
        await self._catch_up()

    async def table_delayed(self, message: dict[str, Any]) -> None:
        """A tick of the delayed stream's clock (:meth:`_tick_if_delayed`)."""
        if not self.closed:
            await self._catch_up(services.socket_delayed_tick)

    async def _catch_up(
        self, service: Callable[..., list[Message]] = services.socket_changes
    ) -> None:
        """Send what is new from the database (after an error, the next read repairs it)."""
        try:
            messages = await self._db(service, stream=self.stream)
        except DatabaseError as exc:
            log.warning("table %s: database unavailable: %s", self.room_id, exc)
            return
        await self._send_all(messages)
        self._tick_if_delayed()

    def _tick_if_delayed(self) -> None:
        """Start the clock of a delayed stream (:meth:`SocketPresence.clock_start`)."""
        if self.stream.is_delayed and not self.closed and self.presence is not None:
            self.presence.clock_start(self.channel_layer, self.stream, lambda: self.closed)

    def is_behind(self, position: stream_watch.Position) -> bool:
        """For the stream watcher; a socket not greeted yet is shown nothing before ``hello``."""
        return not self.closed and self.stream.is_live_and_behind(*position)

    async def _send_all(self, messages: list[Message]) -> None:
        """Send in order; nothing once closing. A client that vanished makes the server refuse
        the send (``OSError``, ``RuntimeError``): its ``websocket.disconnect`` ends the socket."""
        for message in messages:
            if self.closed:
                return
            try:
                await self.send(text_data=json.dumps(message, ensure_ascii=False))
            except (OSError, RuntimeError) as exc:
                log.info("table %s: the client left mid-answer: %r", self.room_id, exc)
                self.closed = True
                return
