"""The table socket's database work: what the consumer (:mod:`tables.consumers`) asks when a
client speaks, a notification cannot be used or a delayed stream's clock ticks.

Each service is a typed, keyword-only function of the room, the socket's user and its
:class:`~tables.socket_stream.SocketStream` (where its stream stands, moved along by what the
service answers), run in one of :data:`DATABASE_THREADS` by :func:`service_run`. The viewer's
seat is always the database's, never the client's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any, NotRequired, TypedDict, TypeVar

from channels.db import database_sync_to_async
from django.conf import settings

from accounts import membership
from accounts.models import User
from tables import delayed, notify, phrases, protocol, rooms, selectors
from tables.errors import TableError
from tables.game import commands, store
from tables.models import Room, Round
from tables.protocol import CLOSE_FORBIDDEN, CLOSE_NOT_FOUND
from tables.socket_stream import Message, SocketStream

T = TypeVar("T")

Refusal = tuple[int, str, str]
"""Why a socket may not see the room: (close code, error code, message)."""
Rejection = tuple[str, str]
"""Why a request was refused, the socket staying open: (error code, message)."""

DATABASE_THREADS = ThreadPoolExecutor(
    max_workers=settings.TABLES_DATABASE_THREADS, thread_name_prefix="table-db"
)
"""The threads that run the sockets' database work: a fixed set for the whole process (fewer
than the connection pool holds), not the event loop's default executor, whose threads die with
their loop (an event loop per test) and would take their connections with them."""


class Revoked(Exception):
    """The socket's user may no longer see the room: the :data:`Refusal`'s three parts."""


class HelloFields(TypedDict):
    """``hello``: where the client's stream stands (nothing: a fresh page)."""

    round_id: NotRequired[int | None]
    last_seq: NotRequired[int | None]


class ActionFields(TypedDict):
    """``action``: a move, idempotent by its ``client_action_id``."""

    client_action_id: str
    action: dict[str, Any]
    round_id: NotRequired[int]
    version: NotRequired[int]


async def service_run(fn: Callable[..., T], **kwargs: Any) -> T:
    """Run ``fn`` in one of :data:`DATABASE_THREADS`, then send from this event loop the room
    notifications its commits produced (the thread does not wait for Redis).

    Not Channels' default single database thread (``thread_sensitive``): with it, one table's
    move waits for every other socket's database work of the worker, one round trip at a time.
    Each thread has its own connection (from the pool, returned after each call); a socket
    still handles one message at a time, and the round's row lock orders the moves of one
    table."""
    outcome: tuple[T, list[notify.Notification]] = await database_sync_to_async(
        _collecting, thread_sensitive=False, executor=DATABASE_THREADS
    )(fn, kwargs)
    await notify.notifications_send(outcome[1])
    return outcome[0]


def _collecting(
    fn: Callable[..., T], kwargs: dict[str, Any]
) -> tuple[T, list[notify.Notification]]:
    with notify.notifications_collected() as notifications:
        result = fn(**kwargs)
    return result, notifications


# --- admission and the seat --------------------------------------------------------------------


def socket_admit(*, room_id: int, user: User, stream: SocketStream) -> Refusal | None:
    """Active members of the room's club: its players, or spectators when the room allows
    them; else a refusal. A seat left behind by someone who is no longer a member is cleared
    on the way (:func:`rooms.member_lost`)."""
    room = Room.objects.filter(pk=room_id).first()
    if room is None:
        return (CLOSE_NOT_FOUND, "no_room", "no such room")
    stream.delay_s = room.spectator_delay_s
    if not membership.is_active_member(user, room.club_id):
        if selectors.seat_of(room_id, user) is not None:
            rooms.member_lost(club_id=room.club_id, user_id=user.pk)
        return (CLOSE_FORBIDDEN, "not_allowed", "this room is not open to you")
    seat = selectors.seat_of(room_id, user)
    if seat is not None:
        stream.seat = seat.index
        return None
    if selectors.user_can_watch(user, room):
        return None
    return (CLOSE_FORBIDDEN, "not_allowed", "this room is not open to you")


def seat_refresh(*, room_id: int, user: User, stream: SocketStream) -> bool:
    """Re-read the viewer's seat (they may have sat down or stood up); True if it changed."""
    seat = selectors.seat_of(room_id, user)
    index = None if seat is None else seat.index
    changed = index != stream.seat
    stream.seat = index
    if changed and index is not None:
        # Sat down while connected: the seat is online (this socket is present already).
        rooms.seat_presence_sync(room_id=room_id)
    return changed


def socket_table(*, room_id: int, user: User, stream: SocketStream) -> list[Message]:
    """The room's ``table`` for this viewer, unless the one sent last; the delay is re-read."""
    room = Room.objects.get(pk=room_id)
    stream.delay_s = room.spectator_delay_s
    return stream.table(selectors.table_message(room, user.pk))


# --- the game stream ---------------------------------------------------------------------------


def socket_hello(
    *,
    room_id: int,
    user: User,
    stream: SocketStream,
    round_id: int | None = None,
    last_seq: int | None = None,
) -> list[Message]:
    """Catch a (re)connecting client up: exactly the events after ``last_seq`` of its round
    if it has that round and not too much is missing, else a fresh snapshot. Membership is
    checked again (a revocation notice may have been lost with Redis): :class:`Revoked`."""
    refused = socket_admit(room_id=room_id, user=user, stream=stream)
    if refused is not None:
        raise Revoked(*refused)
    seat_refresh(room_id=room_id, user=user, stream=stream)
    stream.greeted = True
    messages = socket_table(room_id=room_id, user=user, stream=stream)
    if stream.is_delayed:
        return messages + _delayed_changes(room_id=room_id, stream=stream, fresh=True)
    rnd = selectors.current_round(room_id)
    if rnd is None:
        return messages
    # A delayed stream shown (the delay was lifted, or the spectator sat down), another
    # round, or too much missing: a fresh snapshot.
    client = (round_id, last_seq)
    if last_seq is None or stream.hello_needs_snapshot(rnd.pk, rnd.last_seq, client=client):
        return messages + _snapshot(rnd, stream=stream)
    stream.begin(rnd.pk, last_seq=last_seq, status=stream.round_status)
    return messages + _events_since(rnd, stream=stream)


def socket_changes(*, room_id: int, user: User, stream: SocketStream) -> list[Message]:
    """What is new for this socket in the database (a notification it could not use, a lost
    one, a changed delay): the table if changed, then the stream continued or a snapshot."""
    seat_changed = seat_refresh(room_id=room_id, user=user, stream=stream)
    messages = socket_table(room_id=room_id, user=user, stream=stream)
    if not stream.greeted:
        return messages  # the client's ``hello`` says where its game stream starts
    if stream.is_delayed:
        return messages + _delayed_changes(room_id=room_id, stream=stream, fresh=seat_changed)
    rnd = selectors.current_round(room_id)
    if rnd is None:
        return messages
    if stream.changes_need_snapshot(rnd.pk, rnd.last_seq, seat_changed=seat_changed):
        return messages + _snapshot(rnd, stream=stream)
    if stream.is_at(rnd.last_seq, rnd.status):
        return messages
    return messages + _events_since(rnd, stream=stream)


def _snapshot(rnd: Round, *, stream: SocketStream) -> list[Message]:
    state = store.load_state(rnd)
    stream.begin(rnd.pk, last_seq=rnd.last_seq, status=rnd.status)
    stream.shown_delayed = False
    return [selectors.snapshot_message(rnd, state, stream.seat)]


def _events_since(rnd: Round, *, stream: SocketStream) -> list[Message]:
    """The new events this viewer may see, then its current decision."""
    events = selectors.visible_events(
        rnd, stream.seat, after_seq=stream.cursor, upto_seq=rnd.last_seq
    )
    decision = selectors.decision_message(rnd, store.load_state(rnd), stream.seat)
    return stream.advance(
        rnd.pk, events, last_seq=rnd.last_seq, status=rnd.status, decisions=[decision]
    )


# --- spectating with a delay (tables/delayed.py) -----------------------------------------------


def socket_delayed_tick(*, room_id: int, user: User, stream: SocketStream) -> list[Message]:
    """What has aged past the delay since the last tick; a changed delay (an admin's edit)
    goes through :func:`socket_changes`, which switches between the live and delayed streams."""
    if not stream.greeted:
        return []
    delay = Room.objects.filter(pk=room_id).values_list("spectator_delay_s", flat=True).first()
    if delay is None:
        return []
    if delay != stream.delay_s:
        return socket_changes(room_id=room_id, user=user, stream=stream)
    if not stream.is_delayed:
        return []
    return _delayed_changes(room_id=room_id, stream=stream, fresh=False)


def _delayed_changes(*, room_id: int, stream: SocketStream, fresh: bool) -> list[Message]:
    """Continue (or, ``fresh``, restart with a snapshot) the delayed stream: the events that
    have aged past the delay, every hand open, then the decision at that point."""
    point = delayed.delayed_point(room_id=room_id, delay_s=stream.delay_s)
    if point is None:
        return []
    rnd = point.round
    if fresh or stream.delayed_needs_snapshot(rnd.pk, point.seq):
        messages: list[Message] = []
        shown_id = stream.round_id
        if not fresh and stream.delayed_round_ends(rnd.pk) and shown_id is not None:
            # A newer round: first the end of the one shown.
            messages += _delayed_advance(delayed.end_point(shown_id), stream=stream)
        state = delayed.point_state(point)
        stream.begin(rnd.pk, last_seq=point.seq, status=point.status)
        stream.shown_delayed = True
        return [*messages, delayed.delayed_snapshot(point, state, delay_s=stream.delay_s)]
    return _delayed_advance(point, stream=stream)


def _delayed_advance(point: delayed.Point | None, *, stream: SocketStream) -> list[Message]:
    """The delayed stream of the round it shows, from its cursor to ``point``."""
    if point is None or point.round.pk != stream.round_id or point.seq < stream.cursor:
        return []
    if stream.is_at(point.seq, point.status):
        return []
    return stream.advance(
        point.round.pk,
        delayed.delayed_events(point, after_seq=stream.cursor),
        last_seq=point.seq,
        status=point.status,
        decisions=[delayed.delayed_decision(point, delayed.point_state(point))],
    )


# --- what the client asks ----------------------------------------------------------------------


def socket_act(*, room_id: int, user: User, stream: SocketStream, fields: ActionFields) -> Message:
    """A move, on the round this socket shows (the service re-checks, under the round's
    lock, that it is in play and that this user still holds the seat): an ``ack`` or an
    ``error``."""
    cid = str(fields["client_action_id"])
    if stream.seat is None:
        seat_refresh(room_id=room_id, user=user, stream=stream)  # may have sat down since
    if stream.seat is None:
        return protocol.error("not_seated", "spectators cannot act", client_action_id=cid)
    round_id, status = stream.round_id, stream.round_status
    if round_id is None:  # no ``hello`` yet: the socket has not been shown a round
        rnd = selectors.current_round(room_id)
        round_id, status = (None, "") if rnd is None else (rnd.pk, rnd.status)
    if round_id is None or status != Round.Status.PLAYING:
        return protocol.error("no_round", "no round is in play", client_action_id=cid)
    if "round_id" in fields and fields["round_id"] != round_id:
        return protocol.error("stale", "that round is over", client_action_id=cid)
    outcome = commands.round_apply_action(
        round_id=round_id,
        seat=stream.seat,
        action_json=fields["action"],
        client_action_id=cid,
        expected_version=fields.get("version"),
        user_id=user.pk,
        room_id=room_id,
    )
    if outcome.code == "not_seated":
        seat_refresh(room_id=room_id, user=user, stream=stream)
    if not outcome.ok:
        return protocol.error(
            outcome.code,
            outcome.message,
            client_action_id=cid,
            version=outcome.version,
            seq=outcome.seq,
        )
    return protocol.ack(cid, version=outcome.version, seq=outcome.seq, duplicate=outcome.duplicate)


def socket_request(
    *, room_id: int, user: User, kind: str, fields: Mapping[str, Any]
) -> Rejection | None:
    """``ready``, ``back`` or ``phrase`` (``kind``): None when done, else why not (the socket
    stays open)."""
    if kind == "ready":
        return socket_ready(room_id=room_id, user=user, ready=bool(fields.get("ready", True)))
    if kind == "back":
        return socket_back(room_id=room_id, user=user)
    if kind == "phrase":
        return socket_phrase(room_id=room_id, user=user, phrase=fields["phrase"])
    raise ValueError(f"not a request: {kind!r}")


def socket_ready(*, room_id: int, user: User, ready: bool) -> Rejection | None:
    """Ready (or not) for the next round (:func:`rooms.seat_set_ready` checks the seat)."""
    room = Room.objects.get(pk=room_id)
    return _rejection(lambda: rooms.seat_set_ready(room=room, user=user, ready=ready))


def socket_back(*, room_id: int, user: User) -> Rejection | None:
    """Back from 托管 (:func:`rooms.seat_back`)."""
    room = Room.objects.get(pk=room_id)
    return _rejection(lambda: rooms.seat_back(room=room, user=user))


def socket_phrase(*, room_id: int, user: User, phrase: int) -> Rejection | None:
    """快捷语: a quick phrase to the table (:func:`tables.phrases.phrase_send` checks it)."""
    return _rejection(lambda: phrases.phrase_send(room_id=room_id, user=user, phrase=phrase))


def _rejection(change: Callable[[], object]) -> Rejection | None:
    """A service's :class:`TableError` as the socket's ``error`` (the socket stays open)."""
    try:
        change()
    except TableError as exc:
        return (exc.code, str(exc))
    return None
