"""What leaves the server after a table's transaction commits: room notifications and tasks.

Every table service runs its work through :func:`transact` (one transaction, retried on
conflict). Inside it, :func:`notify_room` does not send anything: it adds to the transaction's
**outbox**, one entry per room (a ``ready`` that deals a round sends one message, not two). When
the work returns, the outbox is handed to ``transaction.on_commit`` as one callback: sent once the
transaction commits, dropped with it when it rolls back (an attempt that failed and is retried
leaves nothing behind). Nobody ever hears of a move that was rolled back.

A :func:`transact` inside another one merges its outbox into the outer one. A :func:`notify_room`
outside any :func:`transact` (a sweep that only reads) is sent after the current transaction, or
at once in autocommit.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.conf import settings
from django.db import transaction

from config.celery import app as celery_app
from config.retry import with_retries
from tables import selectors, socket_hub
from tables.errors import VersionConflict
from tables.models import Room

log = logging.getLogger(__name__)

T = TypeVar("T")
Notification = tuple[str, dict[str, Any]]
RoundUpdate = Callable[[], dict[str, Any]]


def room_group(room_id: int) -> str:
    """The name of a room's sockets (players and spectators) in collected notifications; they
    are delivered by :mod:`tables.socket_hub` (no Channels group any more)."""
    return f"table.{room_id}"


@dataclass
class _RoomNotification:
    """One room's after-commit notification (see :func:`notify_room`)."""

    room_id: int
    table: bool
    round_update: RoundUpdate | None
    revoked: set[int] = field(default_factory=set)

    def merge(self, other: _RoomNotification) -> None:
        self.table = self.table or other.table
        self.round_update = other.round_update or self.round_update
        self.revoked |= other.revoked

    def message(self) -> dict[str, Any] | None:
        """The message of the room's sockets, read after the commit (None: it could not be
        built; the clients' resync repairs a lost notification)."""
        message: dict[str, Any] = {"type": "table.update", "table": None}
        if self.revoked:
            message["revoked"] = sorted(self.revoked)
        try:
            if self.table:
                room = Room.objects.filter(pk=self.room_id).first()
                message["table"] = None if room is None else selectors.table_state(room)
            if self.round_update is not None:
                message["round"] = self.round_update()
        except Exception:  # a lost notification is repaired by the client's resync
            log.exception("could not build the notification of room %s", self.room_id)
            return None
        return message


@dataclass
class _Outbox:
    """The notifications of one :func:`transact`, by room, in the order first notified."""

    rooms: dict[int, _RoomNotification] = field(default_factory=dict)

    def add(self, note: _RoomNotification) -> None:
        pending = self.rooms.get(note.room_id)
        if pending is None:
            self.rooms[note.room_id] = note
        else:
            pending.merge(note)

    def send(self) -> None:
        for note in self.rooms.values():
            message = note.message()
            if message is not None:
                _deliver(room_group(note.room_id), message)


class _Local(threading.local):
    def __init__(self) -> None:
        self.outboxes: list[_Outbox] = []  # the open transacts of this thread, innermost last
        self.collected: list[Notification] | None = None  # see notifications_collected


_local = _Local()


def transact(fn: Callable[[], T]) -> T:
    """Run ``fn`` in one transaction with its own outbox, retried on a version conflict or a
    busy database (:func:`config.retry.with_retries`); the outbox is sent after the commit."""

    def attempt() -> T:
        box = _Outbox()
        _local.outboxes.append(box)
        try:
            result = fn()
        finally:
            _local.outboxes.pop()
        if _local.outboxes:  # an enclosing transact sends it with its own
            for note in box.rooms.values():
                _local.outboxes[-1].add(note)
        elif box.rooms:
            transaction.on_commit(box.send)
        return result

    return with_retries(attempt, retry_on=(VersionConflict,))


def notify_room(
    room_id: int,
    *,
    table: bool = True,
    round_update: RoundUpdate | None = None,
    revoke: int | None = None,
) -> None:
    """Tell the room's sockets, after the commit, what changed.

    ``table``: the room or its seats changed; the room's state (:func:`tables.selectors.
    table_state`) is read once, after the commit, and carried to every socket. ``round_update``
    builds (after the commit, outside the row lock) a move's events and next decision, or a new
    round's snapshot, already redacted for every viewer (:mod:`tables.selectors`). Each socket
    then sends its own viewer's part without touching the database, unless the notification
    does not continue what it has sent (then it reads the database). The notification's path
    (:mod:`tables.socket_hub`: memory, Redis pub/sub) is server-side, like the database; what
    leaves the server is still one viewer's redaction, picked by the socket of that viewer. A
    lost or out-of-order notification is repaired from the database (the socket sees a gap) or
    by the client's ``resync``.

    ``revoke``: a user who may no longer be at the room (they left the club): their sockets
    there close (:func:`tables.rooms.member_lost`).
    """
    note = _RoomNotification(
        room_id,
        table=table,
        round_update=round_update,
        revoked=set() if revoke is None else {revoke},
    )
    if _local.outboxes:
        _local.outboxes[-1].add(note)
    else:
        transaction.on_commit(_Outbox({room_id: note}).send)


def _deliver(group: str, message: dict[str, Any]) -> None:
    collected = _local.collected
    if collected is not None:
        collected.append((group, message))
        return
    try:
        socket_hub.publish_sync(_room_of(group), message)
    except Exception:  # a lost notification is repaired by the stream watcher or a resync
        log.exception("could not notify %s", group)


def _room_of(group: str) -> int:
    """The room id of a :func:`room_group` name."""
    return int(group.rsplit(".", 1)[1])


@contextmanager
def notifications_collected() -> Iterator[list[Notification]]:
    """Within this block, this thread's committed notifications are collected, not sent.

    For a socket: it runs a service in a database thread and then sends what was collected
    from its own event loop (:func:`notifications_send`), instead of making that thread wait
    for the event loop and Redis after every commit (``async_to_sync``), which would hold up the
    other sockets' database work queued for it.
    """
    collected: list[Notification] = []
    _local.collected = collected
    try:
        yield collected
    finally:
        _local.collected = None


def room_broadcast(room_id: int, message: dict[str, Any]) -> None:
    """Send ``message`` (a socket message with its ``type``: ``table.phrase``) to every socket
    of the room now, outside any outbox: for what changes nothing in the database (a quick phrase,
    :mod:`tables.phrases`). From a socket's database thread it is collected and sent by the
    socket's event loop like every notification."""
    _deliver(room_group(room_id), message)


async def notifications_send(notifications: list[Notification]) -> None:
    """Send notifications collected by :func:`notifications_collected` (already committed):
    this process's sockets at once, the others' through Redis (:mod:`tables.socket_hub`)."""
    for group, message in notifications:
        try:
            socket_hub.publish(_room_of(group), message)
        except Exception:  # a lost notification is repaired by the stream watcher or a resync
            log.exception("could not notify %s", group)


def tasks_enabled() -> bool:
    """``TABLES_SCHEDULE_TASKS`` (default: on, except under tests, which call the services)."""
    return bool(getattr(settings, "TABLES_SCHEDULE_TASKS", not settings.TESTING))


def enqueue_after_commit(task_name: str, args: tuple[Any, ...], *, countdown: float) -> None:
    """After the commit, send the Celery task ``task_name`` (by name: the services never import
    :mod:`tables.tasks`, which imports them). A broker that is down loses the message; the
    caller names what repairs it (a deadline, the clock's sweep)."""

    def send() -> None:
        if not tasks_enabled():
            return
        try:
            celery_app.send_task(task_name, args=args, countdown=countdown)
        except Exception:  # the deadline or the clock's sweep acts instead
            log.exception("could not send task %s%r", task_name, args)

    transaction.on_commit(send)
