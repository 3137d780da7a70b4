"""Club managers at the tables: close or reopen a room, remove a seated player,
dissolve a table (网管解散). The admin and the API call these; each intervention is also written
to the room's admin history."""

from __future__ import annotations

from typing import Any

from django.contrib.admin.models import CHANGE, LogEntry

from tables.errors import TableError
from tables.game import store
from tables.matches import end_match, lock_room, rounds_in_play
from tables.models import Match, Room, Seat
from tables.notify import notify_room, transact
from tables.rooms import PLAYER_REMOVED, stand_up, user_manages_room

DISSOLVED = "dissolved"
"""``Match.end_reason`` of a table dissolved by a club manager (网管解散)."""
TABLE_DISSOLVED_EVENT = "table_dissolved"
"""Kind of the event appended to the voided round: every viewer is sent the reason."""


def _require_room_manager(actor: Any, room: Room) -> None:
    if not user_manages_room(actor, room):
        raise TableError("only the club's owner or admins may do this", code="not_manager")


def _log_on_room(room: Room, actor: Any, message: str) -> None:
    """Record a manager's intervention in the room's admin history (who, when, why).

    The admin log is the audit trail club managers and staff already read (the room's "history"
    page); it needs no new table, so the record works for matches between rounds too.
    """
    if getattr(actor, "pk", None) is None:
        return
    LogEntry.objects.log_actions(
        user_id=actor.pk,
        queryset=[room],
        action_flag=CHANGE,
        change_message=message,
        single_object=True,
    )


def table_dissolve(*, room: Room, actor: Any, reason: str) -> Match:
    """网管解散: a club manager ends the match in play at once.

    The round in play is voided (``aborted``: it is never settled, so nobody pays or is paid for
    it, kongs included), the match ends with ``end_reason = "dissolved"``, the human seats lose
    their ``ready`` and the room opens again. Every viewer (players and spectators) is sent a
    ``table_dissolved`` event with the reason and the manager's name, appended to the voided
    round's log; the intervention is also written to the room's admin history.
    """
    reason = (reason or "").strip()
    if not reason:
        raise TableError("say why the table is dissolved", code="reason_required")
    _require_room_manager(actor, room)

    def run() -> Match:
        locked = lock_room(room.pk)
        match = Match.objects.filter(room=locked, status=Match.Status.PLAYING).first()
        if match is None:
            raise TableError("no match is in play at this table", code="no_match")
        playing = rounds_in_play(locked)
        end_match(locked, reason=DISSOLVED)
        by = getattr(actor, "public_name", str(actor))
        for rnd in playing:
            store.append_notice(rnd, {"kind": TABLE_DISSOLVED_EVENT, "reason": reason, "by": by})
        _log_on_room(locked, actor, f"网管解散 (match {match.pk}): {reason}")
        notify_room(locked.pk)
        match.refresh_from_db()
        return match

    return transact(run)


def seat_remove(*, room: Room, actor: Any, index: int, reason: str = "") -> None:
    """A club manager removes whoever sits at seat ``index`` (a player or a bot).

    As with a player who leaves (spec README, item 1), a match in play ends: its round is voided
    (no payments) and the match ends with ``end_reason = "player_removed"``.
    """
    _require_room_manager(actor, room)

    def run() -> None:
        locked = lock_room(room.pk)
        seat = Seat.objects.filter(room=locked, index=index).select_related("user").first()
        if seat is None:
            raise TableError("nobody sits there", code="seat_empty")
        who = "bot" if seat.is_bot else str(seat.user)
        stand_up(locked, seat, reason=PLAYER_REMOVED)
        _log_on_room(locked, actor, f"removed {who} from seat {index}: {reason}".strip(": "))

    transact(run)


def room_close(*, room: Room, actor: Any) -> Room:
    """关闭房间: a manager closes a room; everyone stands up and nobody may sit down again.

    A room with a match in play is refused (``match_in_play``): dissolve the table first, so that
    voiding a round is always a deliberate act with a reason.
    """
    _require_room_manager(actor, room)

    def run() -> Room:
        locked = lock_room(room.pk)
        if Match.objects.filter(room=locked, status=Match.Status.PLAYING).exists():
            raise TableError("a match is in play: dissolve the table first", code="match_in_play")
        Seat.objects.filter(room=locked).delete()
        locked.status = Room.Status.CLOSED
        locked.save(update_fields=["status"])
        _log_on_room(locked, actor, "closed the room")
        notify_room(locked.pk)
        return locked

    return transact(run)


def room_reopen(*, room: Room, actor: Any) -> Room:
    """Open a closed room again (a manager's undo of :func:`room_close`)."""
    _require_room_manager(actor, room)

    def run() -> Room:
        locked = lock_room(room.pk)
        if locked.status != Room.Status.CLOSED:
            raise TableError("the room is not closed", code="not_closed")
        locked.status = Room.Status.OPEN
        locked.save(update_fields=["status"])
        _log_on_room(locked, actor, "reopened the room")
        notify_room(locked.pk)
        return locked

    return transact(run)
