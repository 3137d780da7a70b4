"""The table websocket (``/ws/table/<room_id>/``): one socket per browser tab.

The socket is a thin pipe between a viewer and the database. A ``table.update`` from the channel
layer says what changed. After a move it carries the move's events and decision already redacted
for each viewer (:func:`tables.selectors.round_update`): the socket sends its own viewer's part,
when it continues exactly the stream this socket has sent (``prev_seq`` is our cursor) and the
seat is still this user's; anything else (seats or room changed, a new round, a missed or
reordered notification) makes it read the database and send what is new from there, so a lost
notification is repaired by the next one, by the process's stream watcher (a notification lost
with the process that committed the move, :mod:`tables.stream_watch`) or by the client's
``resync``. The viewer's seat is never taken from a client's message.

A spectator of a room with a spectator delay (issue 25, :mod:`tables.delayed`) is shown the
table as it was that long ago, every hand open: its stream never uses a move's notification; it
moves with the clock (a tick through the socket's own channel). A seated player never gets it.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import DatabaseError

from accounts import membership
from tables import (
    delayed,
    gameplay,
    notify,
    phrases,
    presence,
    protocol,
    rooms,
    selectors,
    stream_watch,
)
from tables.errors import TableError
from tables.game import commands, store
from tables.models import Room, Round
from tables.protocol import (  # the close codes' one table: tables.protocol.CLOSE_CODES
    CLOSE_ABUSE,
    CLOSE_FORBIDDEN,
    CLOSE_NOT_FOUND,
    CLOSE_REVOKED,
    CLOSE_TOO_MANY,
    CLOSE_UNAUTHENTICATED,
)
from tables.socket_stream import SocketStream

log = logging.getLogger(__name__)
T = TypeVar("T")

_MAX_REFUSED = 200
DATABASE_THREADS = ThreadPoolExecutor(
    max_workers=settings.TABLES_DATABASE_THREADS, thread_name_prefix="table-db"
)
"""The threads that run the sockets' database work: a fixed set for the whole process (fewer
than the connection pool holds), not the event loop's default executor, whose threads die with
their loop (an event loop per test) and would take their connections with them."""


class Revoked(Exception):
    """The socket's user may no longer see the room: ``(close code, error code, message)``."""


CANCEL_WAIT_S = 5.0
"""How long a finished socket waits for its pending reads to acknowledge their cancellation."""


async def _dispatch_until_stopped(
    sources: Sequence[Callable[[], Awaitable[dict[str, Any]]]],
    dispatch: Callable[[dict[str, Any]], Awaitable[None]],
) -> None:
    """Channels' ``await_many_dispatch`` (the client's messages and the channel layer's, each
    dispatched as it comes), except that at the end the pending reads are cancelled and waited
    for at most :data:`CANCEL_WAIT_S`. A channel layer read cancelled inside its Redis
    ``BZPOPMIN`` sometimes never acknowledges the cancellation (channels_redis 4.3 on redis-py
    8.2; about one socket in three of ``tests/reliability/test_ghost_presence.py``'s flood):
    Channels' own loop then waits for ever and the socket's coroutine never ends."""
    tasks = [asyncio.ensure_future(source()) for source in sources]
    try:
        while True:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            for i, task in enumerate(tasks):
                if task.done():
                    result = task.result()
                    await dispatch(result)
                    tasks[i] = asyncio.ensure_future(sources[i]())
    finally:
        for task in tasks:
            task.cancel()
        _done, stuck = await asyncio.wait(tasks, timeout=CANCEL_WAIT_S)
        if stuck:
            log.info("a socket's %d read(s) did not stop when cancelled: left behind", len(stuck))


class TableConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]
    """A player's (or spectator's) live connection to one room."""

    # What :meth:`_leave` undoes; set by :meth:`connect` (a consumer may end before it runs).
    joined = False
    present = False
    left = False
    keep_present: asyncio.Task[None] | None = None
    delayed_ticker: asyncio.Task[None] | None = None
    leaving: asyncio.Event

    room_id: int
    user: Any
    stream: SocketStream

    async def connect(self) -> None:
        self.user = self.scope.get("user")
        self.room_id = int(self.scope["url_route"]["kwargs"]["room_id"])
        self.stream = SocketStream()
        self.limiter = protocol.RateLimiter()
        self.refused = 0
        self.closed = False
        await self.accept()
        if self.user is None or not self.user.is_authenticated:
            await self._refuse(CLOSE_UNAUTHENTICATED, "not_authenticated", "sign in first")
            return
        allowed = await self._db(self._admit)
        if allowed is not None:
            await self._refuse(*allowed)
            return
        if not await asyncio.to_thread(self._presence_open):
            limit = presence.max_sockets_per_user()
            await self._refuse(
                CLOSE_TOO_MANY, "too_many_sockets", f"close another table first ({limit} at most)"
            )
            return
        self.leaving = asyncio.Event()
        self.keep_present = asyncio.create_task(self._keep_present())
        await self.channel_layer.group_add(notify.room_group(self.room_id), self.channel_name)
        self.joined = True
        stream_watch.socket_watch(self, executor=DATABASE_THREADS)
        if self.stream.seat is not None:
            await self._db(rooms.seat_presence_sync, room_id=self.room_id)
        await self._send_all(await self._db(self._table_if_changed))

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Run the socket, and leave however it ends (issue 24, item 2).

        Channels calls :meth:`disconnect` only for the client's ``websocket.disconnect``. A
        consumer that dies of an error instead (every socket blocked on the channel layer when
        Redis restarts; a send to a client that has just gone) never gets it: before, its
        presence refresher went on for ever, the user was refused everywhere (4408) and the
        seat stayed "connected". The refresher lives and dies with this call."""
        self.scope = scope
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        self.base_send = send
        sources = [receive]
        try:
            if self.channel_layer is not None:
                self.channel_name = await self.channel_layer.new_channel()
                self.channel_receive = functools.partial(
                    self.channel_layer.receive, self.channel_name
                )
                sources.append(self.channel_receive)
            await _dispatch_until_stopped(sources, self.dispatch)
        except StopConsumer:
            pass
        finally:
            await self._leave()

    async def disconnect(self, code: int) -> None:
        await self._leave()

    async def _leave(self) -> None:
        """Stop counting this socket in, once: no more presence refreshes, out of the room's
        group, presence removed and the seat shown offline. Redis or the database may be the
        reason the socket is ending: what cannot be undone now expires
        (:data:`presence.TTL_S`) and the clock's presence sweep shows the seat offline."""
        if self.left:
            return
        self.left = True
        self.closed = True
        if self.keep_present is not None:
            self.leaving.set()
            await asyncio.gather(self.keep_present, return_exceptions=True)
        if self.delayed_ticker is not None:
            self.leaving.set()
            await asyncio.gather(self.delayed_ticker, return_exceptions=True)
        if self.joined:
            stream_watch.socket_unwatch(self)
            try:
                await self.channel_layer.group_discard(
                    notify.room_group(self.room_id), self.channel_name
                )
            except Exception as exc:  # Redis down: the group's entry expires by itself
                log.info("table %s: group not left: %r", self.room_id, exc)
        if self.present:
            await asyncio.to_thread(
                presence.socket_close,
                room_id=self.room_id,
                user_id=self.user.pk,
                channel=self.channel_name,
            )
            if self.stream.seat is not None:
                try:
                    await self._db(rooms.seat_presence_sync, room_id=self.room_id)
                except DatabaseError as exc:  # the clock's presence sweep catches up
                    log.warning("table %s: seat presence not synced: %s", self.room_id, exc)

    def _presence_open(self) -> bool:
        """Count this socket in (presence with a TTL, :mod:`tables.presence`); False when the
        user already holds the most sockets allowed."""
        self.present = presence.socket_open(
            room_id=self.room_id, user_id=self.user.pk, channel=self.channel_name
        )
        return self.present

    def _presence_refresh(self) -> None:
        presence.socket_refresh(
            room_id=self.room_id, user_id=self.user.pk, channel=self.channel_name
        )

    async def _keep_present(self) -> None:
        """Refresh this socket's presence every :data:`presence.REFRESH_S` until it leaves
        (:meth:`_leave` sets ``leaving``, then waits for this task: no refresh lands after the
        socket's entries were removed). A killed worker stops refreshing, and its sockets
        expire by themselves."""
        leaving = self.leaving
        while True:
            try:
                await asyncio.wait_for(leaving.wait(), timeout=presence.REFRESH_S)
                return
            except TimeoutError:
                await asyncio.to_thread(self._presence_refresh)

    async def close(self, code: int | bool | None = None, reason: str | None = None) -> None:
        self.closed = True
        await super().close(code=code, reason=reason)

    async def _db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run ``fn`` in one of the process's database threads, then send from this event loop
        the room notifications its commits produced (the thread does not wait for Redis).

        Not Channels' default single database thread (``thread_sensitive``): with it, one
        table's move waits for every other socket's database work of the worker, one round trip
        at a time. Each thread has its own connection (from the pool, returned after each
        call); a socket still handles one message at a time, and the round's row lock orders
        the moves of one table."""
        outcome: tuple[T, list[notify.Notification]] = await database_sync_to_async(
            self._collecting, thread_sensitive=False, executor=DATABASE_THREADS
        )(fn, args, kwargs)
        await notify.notifications_send(outcome[1])
        return outcome[0]

    @staticmethod
    def _collecting(
        fn: Callable[..., T], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> tuple[T, list[notify.Notification]]:
        with notify.notifications_collected() as notifications:
            result = fn(*args, **kwargs)
        return result, notifications

    async def _refuse(self, close_code: int, code: str, message: str) -> None:
        await self._send_all([protocol.error(code, message)])
        await self.close(code=close_code)

    def _admit(self) -> tuple[int, str, str] | None:
        """Active members of the room's club: its players, or spectators when the room allows
        them; else a refusal. A seat left behind by someone who is no longer a member is
        cleared on the way (:func:`rooms.member_lost`)."""
        room = Room.objects.filter(pk=self.room_id).first()
        if room is None:
            return (CLOSE_NOT_FOUND, "no_room", "no such room")
        self.stream.delay_s = room.spectator_delay_s
        if not membership.is_active_member(self.user, room.club_id):
            if selectors.seat_of(self.room_id, self.user) is not None:
                rooms.member_lost(club_id=room.club_id, user_id=self.user.pk)
            return (CLOSE_FORBIDDEN, "not_allowed", "this room is not open to you")
        seat = selectors.seat_of(self.room_id, self.user)
        if seat is not None:
            self.stream.seat = seat.index
            return None
        if selectors.user_can_watch(self.user, room):
            return None
        return (CLOSE_FORBIDDEN, "not_allowed", "this room is not open to you")

    # --- client -> server ---------------------------------------------------------------------

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
        handler = getattr(self, f"on_{message.type}")
        try:
            await handler(message.fields)
        except DatabaseError as exc:
            # PostgreSQL restarting (issue 14, item 4): the move was not made (its transaction
            # rolled back); the client may send it again with the same id, and resyncs.
            log.warning("table %s: database unavailable: %s", self.room_id, exc)
            extra = {}
            if "client_action_id" in message.fields:
                extra["client_action_id"] = str(message.fields["client_action_id"])
            await self._reply_error("unavailable", "the server is busy; try again", **extra)

    async def _reply_error(self, code: str, message: str, **extra: Any) -> None:
        self.refused += 1
        await self._send_all([protocol.error(code, message, **extra)])
        if self.refused > _MAX_REFUSED:
            await self._refuse(CLOSE_ABUSE, "too_many_refusals", "too many refused messages")

    async def on_ping(self, fields: dict[str, Any]) -> None:
        await self._send_all([{"type": "pong"}])
        await asyncio.to_thread(self._presence_refresh)

    async def on_hello(self, fields: dict[str, Any]) -> None:
        try:
            messages = await self._db(self._hello, fields.get("round_id"), fields.get("last_seq"))
        except Revoked as refused:
            await self._refuse(*refused.args)
            return
        await self._send_all(messages)
        self._tick_if_delayed()

    async def on_resync(self, fields: dict[str, Any]) -> None:
        await self.on_hello({})

    async def on_action(self, fields: dict[str, Any]) -> None:
        reply = await self._db(self._act, fields)
        await self._send_all([reply])
        # Our own move comes back as a ``table.update`` after the commit, like everyone's.

    async def on_ready(self, fields: dict[str, Any]) -> None:
        error = await self._db(self._ready, bool(fields.get("ready", True)))
        if error is not None:
            await self._reply_error(*error)

    async def on_back(self, fields: dict[str, Any]) -> None:
        error = await self._db(self._back)
        if error is not None:
            await self._reply_error(*error)

    async def on_phrase(self, fields: dict[str, Any]) -> None:
        """快捷语: a quick phrase to the table (:func:`tables.phrases.phrase_send` checks it)."""
        error = await self._db(self._phrase, fields["phrase"])
        if error is not None:
            await self._reply_error(*error)

    # --- server -> client ---------------------------------------------------------------------

    async def table_phrase(self, message: dict[str, Any]) -> None:
        """Group message: a seat sent a quick phrase; every viewer of the table is shown it."""
        await self._send_all([message["message"]])

    async def table_update(self, message: dict[str, Any]) -> None:
        """Group message: something changed in the room; send this viewer what is new."""
        if self.user.pk in message.get("revoked", ()):
            # No longer a member of the room's club: the seat is gone, and so is the view.
            await self._refuse(CLOSE_REVOKED, "not_member", "you are no longer in this club")
            return
        messages = self._from_notification(message)
        if messages is None:
            await self._catch_up()
            return
        await self._send_all(messages)

    async def table_behind(self, message: dict[str, Any]) -> None:
        """From this process's stream watcher (:mod:`tables.stream_watch`): the database was
        ahead of this socket and still is after a grace, so a notification was lost (the process
        that committed the move died before sending it); read what is new."""
        await self._catch_up()

    async def _catch_up(self) -> None:
        """Send what is new from the database (:meth:`_changes`)."""
        try:
            messages = await self._db(self._changes)
        except DatabaseError as exc:  # the next notification, tick or resync repairs it
            log.warning("table %s: database unavailable: %s", self.room_id, exc)
            return
        await self._send_all(messages)
        self._tick_if_delayed()

    # --- spectating with a delay (issue 25, tables/delayed.py) ---------------------------------

    @property
    def is_delayed(self) -> bool:
        """A spectator shown the table ``delay_s`` seconds ago, every hand open."""
        return self.stream.is_delayed

    def _tick_if_delayed(self) -> None:
        """Start the clock of a delayed stream (once per socket; it ends with the socket)."""
        if self.is_delayed and self.delayed_ticker is None and not self.closed:
            self.delayed_ticker = asyncio.create_task(self._delayed_ticks())

    async def _delayed_ticks(self) -> None:
        """Every ``TABLES_DELAYED_TICK_MS``, ask this socket (through its own channel, so that the
        read is handled in order with its other messages) to show what has aged past the delay."""
        leaving = self.leaving
        interval = int(settings.TABLES_DELAYED_TICK_MS) / 1000
        while True:
            try:
                await asyncio.wait_for(leaving.wait(), timeout=interval)
                return
            except TimeoutError:
                if self.closed:
                    return
                if not (self.is_delayed or self.stream.shown_delayed):
                    continue
                try:
                    await self.channel_layer.send(self.channel_name, {"type": "table.delayed"})
                except Exception as exc:  # the channel layer is down: the next tick asks again
                    log.info("table %s: delayed tick not sent: %r", self.room_id, exc)

    async def table_delayed(self, message: dict[str, Any]) -> None:
        """A tick of the delayed stream (:meth:`_delayed_ticks`)."""
        if self.closed:
            return
        try:
            messages = await self._db(self._delayed_tick)
        except DatabaseError as exc:  # the next tick tries again
            log.warning("table %s: database unavailable: %s", self.room_id, exc)
            return
        await self._send_all(messages)

    def _delayed_tick(self) -> list[dict[str, Any]]:
        """What has aged past the delay since the last tick; a changed delay (an admin's edit)
        goes through :meth:`_changes`, which switches between the live and the delayed stream."""
        if not self.stream.greeted:
            return []
        delay = (
            Room.objects.filter(pk=self.room_id).values_list("spectator_delay_s", flat=True).first()
        )
        if delay is None:
            return []
        if delay != self.stream.delay_s:
            return self._changes()
        if not self.is_delayed:
            return []
        return self._delayed_changes(fresh=False)

    def _delayed_changes(self, *, fresh: bool) -> list[dict[str, Any]]:
        """Continue (or, ``fresh``, restart with a snapshot) the delayed stream: the events that
        have aged past the delay, every hand open, then the decision at that point."""
        point = delayed.delayed_point(room_id=self.room_id, delay_s=self.stream.delay_s)
        if point is None:
            return []
        rnd = point.round
        if fresh or self.stream.delayed_needs_snapshot(rnd.pk, point.seq):
            messages: list[dict[str, Any]] = []
            shown_id = self.stream.round_id
            if not fresh and self.stream.delayed_round_ends(rnd.pk) and shown_id is not None:
                # A newer round: first the end of the one shown.
                messages += self._delayed_advance(delayed.end_point(shown_id))
            state = delayed.point_state(point)
            self.stream.begin(rnd.pk, last_seq=point.seq, status=point.status)
            self.stream.shown_delayed = True
            return [*messages, delayed.delayed_snapshot(point, state, delay_s=self.stream.delay_s)]
        return self._delayed_advance(point)

    def _delayed_advance(self, point: delayed.Point | None) -> list[dict[str, Any]]:
        """The delayed stream of the round it shows, from its cursor to ``point``."""
        if (
            point is None
            or point.round.pk != self.stream.round_id
            or point.seq < self.stream.cursor
        ):
            return []
        if self.stream.is_at(point.seq, point.status):
            return []
        return self.stream.advance(
            point.round.pk,
            delayed.delayed_events(point, after_seq=self.stream.cursor),
            last_seq=point.seq,
            status=point.status,
            decisions=[delayed.delayed_decision(point, delayed.point_state(point))],
        )

    def is_behind(self, position: stream_watch.Position) -> bool:
        """Whether this socket has shown less of the room than ``position`` (round id, last
        seq), for the stream watcher; a socket not greeted yet is shown nothing before its
        ``hello``."""
        return not self.closed and self.stream.is_live_and_behind(*position)

    def _from_notification(self, message: dict[str, Any]) -> list[dict[str, Any]] | None:
        """What to send from the notification alone, or None when only the database can say
        (the seat changed, or the round stream does not continue what this socket sent)."""
        out: list[dict[str, Any]] = []
        table = message.get("table")
        if table is not None:
            if selectors.viewer_seat(table, self.user.pk) != self.stream.seat:
                return None  # sat down or stood up: the seat count and a snapshot (database)
            if table["room"]["spectator_delay_s"] != self.stream.delay_s:
                return None  # the delay changed: the live or the delayed stream (database)
            out += self.stream.table(selectors.table_message_for(table, self.user.pk))
        if not self.stream.greeted:
            return out  # the client's ``hello`` says where its game stream starts
        if self.is_delayed or self.stream.shown_delayed:
            return out  # never a move's live frames: the delayed stream moves with its clock
        update = message.get("round")
        if update is not None:
            part = self._from_round_update(update)
            return None if part is None else out + part
        if table is not None and table["round"] != self.stream.position():
            return None  # the round moved without a notification we could use
        return out

    def _seat_is_still_mine(self, update: dict[str, Any]) -> bool:
        return self.stream.seat is None or update["seat_users"][self.stream.seat] == self.user.pk

    def _from_round_update(self, update: dict[str, Any]) -> list[dict[str, Any]] | None:
        if not self._seat_is_still_mine(update):
            if "snapshots" in update and (
                self.stream.round_id is not None and update["round_id"] <= self.stream.round_id
            ):
                return []
            return None
        return self.stream.from_round_update(update, gameplay.viewer_key(self.stream.seat))

    async def _send_all(self, messages: list[dict[str, Any]]) -> None:
        """Send in order; nothing once the socket is closing (a notification or a database
        answer that arrives after the client left is dropped, not an error in the log).

        A client that vanished makes the server refuse the send: uvicorn raises
        ``ClientDisconnected`` (an ``OSError``) when the connection drops during the send (a
        flood of resyncs, then the process exits), ``RuntimeError`` when it had already seen
        the connection close. Either way the socket is closing, and the server's
        ``websocket.disconnect`` follows and ends it properly."""
        for message in messages:
            if self.closed:
                return
            try:
                await self.send(text_data=json.dumps(message, ensure_ascii=False))
            except (OSError, RuntimeError) as exc:
                log.info("table %s: the client left mid-answer: %r", self.room_id, exc)
                self.closed = True
                return

    # --- database side (run in a worker thread) -----------------------------------------------

    def _refresh_seat(self) -> bool:
        """Re-read the viewer's seat (they may have sat down or stood up); True if it changed."""
        seat = selectors.seat_of(self.room_id, self.user)
        index = None if seat is None else seat.index
        changed = index != self.stream.seat
        self.stream.seat = index
        if changed and index is not None:
            # Sat down while connected: the seat is online (this socket is present already).
            rooms.seat_presence_sync(room_id=self.room_id)
        return changed

    def _table_if_changed(self) -> list[dict[str, Any]]:
        room = Room.objects.get(pk=self.room_id)
        self.stream.delay_s = room.spectator_delay_s
        return self.stream.table(selectors.table_message(room, self.user.pk))

    def _snapshot(self, rnd: Round) -> list[dict[str, Any]]:
        state = store.load_state(rnd)
        self.stream.begin(rnd.pk, last_seq=rnd.last_seq, status=rnd.status)
        self.stream.shown_delayed = False
        return [selectors.snapshot_message(rnd, state, self.stream.seat)]

    def _hello(self, round_id: int | None, last_seq: int | None) -> list[dict[str, Any]]:
        """Catch a (re)connecting client up: exactly the events after ``last_seq`` of its round
        if it has that round and not too much is missing, else a fresh snapshot. Membership is
        checked again (a revocation notice may have been lost with Redis)."""
        refused = self._admit()
        if refused is not None:
            raise Revoked(*refused)
        self._refresh_seat()
        self.stream.greeted = True
        messages = self._table_if_changed()
        if self.is_delayed:
            return messages + self._delayed_changes(fresh=True)
        rnd = selectors.current_round(self.room_id)
        if rnd is None:
            return messages
        # A delayed stream shown (the delay was lifted, or the spectator sat down), another
        # round, or too much missing: a fresh snapshot.
        client = (round_id, last_seq)
        if last_seq is None or self.stream.hello_needs_snapshot(
            rnd.pk, rnd.last_seq, client=client
        ):
            return messages + self._snapshot(rnd)
        self.stream.begin(rnd.pk, last_seq=last_seq, status=self.stream.round_status)
        return messages + self._events_since(rnd)

    def _events_since(self, rnd: Round) -> list[dict[str, Any]]:
        """The new events this viewer may see, then its current decision."""
        events = selectors.visible_events(
            rnd, self.stream.seat, after_seq=self.stream.cursor, upto_seq=rnd.last_seq
        )
        decision = selectors.decision_message(rnd, store.load_state(rnd), self.stream.seat)
        return self.stream.advance(
            rnd.pk, events, last_seq=rnd.last_seq, status=rnd.status, decisions=[decision]
        )

    def _changes(self) -> list[dict[str, Any]]:
        seat_changed = self._refresh_seat()
        messages = self._table_if_changed()
        if not self.stream.greeted:
            return messages  # the client's ``hello`` says where its game stream starts
        if self.is_delayed:
            return messages + self._delayed_changes(fresh=seat_changed)
        rnd = selectors.current_round(self.room_id)
        if rnd is None:
            return messages
        if self.stream.changes_need_snapshot(rnd.pk, rnd.last_seq, seat_changed=seat_changed):
            return messages + self._snapshot(rnd)
        if self.stream.is_at(rnd.last_seq, rnd.status):
            return messages
        return messages + self._events_since(rnd)

    def _act(self, fields: dict[str, Any]) -> dict[str, Any]:
        """A move, on the round this socket shows (the service re-checks, under the round's
        lock, that it is in play and that this user still holds the seat)."""
        cid = str(fields["client_action_id"])
        if self.stream.seat is None:
            self._refresh_seat()  # a spectator may have sat down since
        if self.stream.seat is None:
            return protocol.error("not_seated", "spectators cannot act", client_action_id=cid)
        round_id, status = self.stream.round_id, self.stream.round_status
        if round_id is None:  # no ``hello`` yet: the socket has not been shown a round
            rnd = selectors.current_round(self.room_id)
            round_id, status = (None, "") if rnd is None else (rnd.pk, rnd.status)
        if round_id is None or status != Round.Status.PLAYING:
            return protocol.error("no_round", "no round is in play", client_action_id=cid)
        if "round_id" in fields and fields["round_id"] != round_id:
            return protocol.error("stale", "that round is over", client_action_id=cid)
        outcome = commands.round_apply_action(
            round_id=round_id,
            seat=self.stream.seat,
            action_json=fields["action"],
            client_action_id=cid,
            expected_version=fields.get("version"),
            user_id=self.user.pk,
            room_id=self.room_id,
        )
        if outcome.code == "not_seated":
            self._refresh_seat()
        if not outcome.ok:
            return protocol.error(
                outcome.code,
                outcome.message,
                client_action_id=cid,
                version=outcome.version,
                seq=outcome.seq,
            )
        return protocol.ack(
            cid, version=outcome.version, seq=outcome.seq, duplicate=outcome.duplicate
        )

    def _ready(self, ready: bool) -> tuple[str, str] | None:
        try:
            rooms.seat_set_ready(
                room=Room.objects.get(pk=self.room_id), user=self.user, ready=ready
            )
        except TableError as exc:
            return (exc.code, str(exc))
        return None

    def _phrase(self, phrase: int) -> tuple[str, str] | None:
        try:
            phrases.phrase_send(room_id=self.room_id, user=self.user, phrase=phrase)
        except TableError as exc:
            return (exc.code, str(exc))
        return None

    def _back(self) -> tuple[str, str] | None:
        try:
            rooms.seat_back(room=Room.objects.get(pk=self.room_id), user=self.user)
        except TableError as exc:
            return (exc.code, str(exc))
        return None
