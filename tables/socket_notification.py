"""What a room's ``table.update`` means for one socket: the messages it sends from the
notification alone, or ``None`` when only the database can say (the socket then reads it).

Pure: the socket's :class:`~tables.socket_stream.SocketStream` and the notification in, the
messages out (the stream moves along). The notification's shape is :func:`tables.notify`'s
(``docs/protocol.md``, "Notifications"); the viewer's seat is never taken from a client.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

from tables import gameplay, selectors
from tables.socket_stream import Message, SocketStream


class RoundUpdate(TypedDict):
    """A round's part of a notification: a move's frames for every viewer
    (:func:`tables.selectors.round_update`), or a new round's snapshots
    (:func:`tables.selectors.round_start_update`)."""

    round_id: int
    last_seq: int
    status: str
    seat_users: list[int | None]
    prev_seq: NotRequired[int]
    views: NotRequired[dict[str, Any]]
    snapshots: NotRequired[dict[str, Message]]


class TableUpdate(TypedDict):
    """A room's ``table.update`` (:mod:`tables.notify`, delivered by :mod:`tables.socket_hub`)."""

    type: Literal["table.update"]
    table: dict[str, Any] | None
    """The room's state for every viewer (:func:`tables.selectors.table_state`), or None."""
    round: NotRequired[RoundUpdate]
    revoked: NotRequired[list[int]]
    """Users no longer in the room's club: their sockets close."""


def from_notification(
    stream: SocketStream, message: TableUpdate, *, user_id: int
) -> list[Message] | None:
    """What to send ``user_id``'s socket from the notification alone, or None when only the
    database can say (the seat changed, the delay changed, or the round stream does not
    continue what this socket sent)."""
    out: list[Message] = []
    table = message.get("table")
    if table is not None:
        if selectors.viewer_seat(table, user_id) != stream.seat:
            return None  # sat down or stood up: the seat count and a snapshot (database)
        if table["room"]["spectator_delay_s"] != stream.delay_s:
            return None  # the delay changed: the live or the delayed stream (database)
        out += stream.table(selectors.table_message_for(table, user_id))
    if not stream.greeted:
        return out  # the client's ``hello`` says where its game stream starts
    if stream.on_clock:
        return out  # never a move's live frames: the delayed stream moves with its clock
    update = message.get("round")
    if update is not None:
        part = _from_round_update(stream, update, user_id=user_id)
        return None if part is None else out + part
    if table is not None and table["round"] != stream.position():
        return None  # the round moved without a notification we could use
    return out


def _from_round_update(
    stream: SocketStream, update: RoundUpdate, *, user_id: int
) -> list[Message] | None:
    if stream.seat is not None and update["seat_users"][stream.seat] != user_id:
        # The seat changed hands: a new round already shown needs nothing, else the database.
        if "snapshots" in update and (
            stream.round_id is not None and update["round_id"] <= stream.round_id
        ):
            return []
        return None
    return stream.from_round_update(update, gameplay.viewer_key(stream.seat))
