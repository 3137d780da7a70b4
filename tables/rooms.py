"""Rooms and seats: open a room, sit down, stand up, be ready, come back from 托管, presence.

Every change runs in one transaction (:func:`tables.notify.transact`) holding the room's row lock
(:func:`tables.matches.lock_room`); the room is told after the commit.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError
from django.utils import timezone

from accounts import membership
from accounts.models import Club
from tables import bot_names, presence
from tables.errors import TableError
from tables.game import store
from tables.matches import end_match, lock_room, rounds_in_play, start_if_ready
from tables.models import BotLevel, Match, Room, Seat
from tables.notify import notify_room, transact
from tables.room_options import room_options_validate

PLAYER_LEFT = "player_left"
"""``Match.end_reason`` when a seated player stood up during the match."""
LEFT_CLUB = "left_club"
"""``Match.end_reason`` when a seated player stopped being a member of the club."""
PLAYER_REMOVED = "player_removed"
"""``Match.end_reason`` when a manager removed a seated player during a match."""
PLAYER_LEFT_EVENT = "player_left"
"""Appended to the round a player's 离座 voided: every viewer is told who left (seat, name)."""
PLAYER_REMOVED_EVENT = "player_removed"
"""Appended to the round voided by a manager removing a seat: who was removed."""


def room_create(
    *,
    user: Any,
    club: Club,
    name: str,
    variant: str,
    options: Mapping[str, Any] | None = None,
    base_stake: int = 1,
    turn_timeout_s: int = 15,
    claim_timeout_s: int = 8,
    allow_spectators: bool = True,
    allow_bots: bool = True,
    bot_level: object = BotLevel.NORMAL,
    spectator_delay_s: int = 0,
    practice: bool = False,
    bot_hints: bool = False,
) -> Room:
    """Open a room in a club the user is an active member of.

    Every path that opens a room (lobby form, API, admin's own save through the same checker)
    comes here or through :func:`tables.room_options.room_options_validate`: the room's 底分
    ``base_stake`` is written into the rules' option ``base`` there, so it is scored as set.
    A spectator delay (after the delay spectators see every hand) is set only by an
    owner or admin of the club: a player who could set it could open a room whose friends watch
    every hand. A practice room (练习房) is not rated; only there may the bot's hint be on
    (:meth:`tables.models.Room.clean_practice`).
    """
    if not membership.is_active_member(user, club.pk):
        raise TableError("not a member of this club", code="not_member")
    if spectator_delay_s and not membership.may_manage_club(user, club.pk):
        raise TableError(
            "only the club's owner or admins may set a spectator delay", code="not_manager"
        )
    room = Room(
        club=club,
        name=name,
        variant=variant,
        options=room_options_validate(
            variant=variant,
            options=options or {},
            base_stake=base_stake,
            spectator_delay_s=spectator_delay_s,
        ),
        spectator_delay_s=spectator_delay_s,
        base_stake=base_stake,
        turn_timeout_s=turn_timeout_s,
        claim_timeout_s=claim_timeout_s,
        allow_spectators=allow_spectators,
        allow_bots=allow_bots,
        bot_level=bot_level_validate(level=bot_level),
        practice=practice,
        bot_hints=bot_hints,
        created_by=user,
    )
    room.full_clean()
    room.save()
    return room


def seat_take(*, room: Room, user: Any, index: int | None = None) -> Seat:
    """Sit down (入座) at a free seat (the first free one if ``index`` is None)."""

    def run() -> Seat:
        locked = lock_room(room.pk)
        if locked.status == Room.Status.CLOSED:
            raise TableError("the room is closed", code="room_closed")
        if not membership.is_active_member(user, locked.club_id):
            raise TableError("not a member of this club", code="not_member")
        if Match.objects.filter(room=locked, status=Match.Status.PLAYING).exists():
            raise TableError("a match is in play", code="match_in_play")
        mine = Seat.objects.filter(room=locked, user=user).first()
        if mine is not None:
            if index is None or mine.index == index:
                return mine
            raise TableError("you already have a seat here", code="already_seated")
        taken = set(Seat.objects.filter(room=locked).values_list("index", flat=True))
        free = [i for i in range(4) if i not in taken]
        chosen = index if index is not None else (free[0] if free else None)
        if chosen is None or chosen not in free:
            raise TableError("that seat is taken", code="seat_taken")
        seat = Seat.objects.create(room=locked, index=chosen, user=user)
        notify_room(locked.pk)
        return seat

    try:
        return transact(run)
    except IntegrityError as exc:  # the unique constraints are the last line of defence
        raise TableError("that seat is taken", code="seat_taken") from exc


def user_manages_room(user: Any, room: Room) -> bool:
    """Site staff allowed to change rooms, or an active owner/admin of the room's club."""
    if not getattr(user, "is_active", False) or not getattr(user, "is_authenticated", False):
        return False
    if user.is_staff and user.has_perm("tables.change_room"):
        return True
    return membership.may_manage_club(user, room.club_id)


def bot_level_validate(*, level: object) -> str:
    """A bot level a room may seat or play 托管 at (:data:`rules.bots.LEVELS`): the one check
    behind the lobby, the table page, the API and the admin."""
    if isinstance(level, str) and level in BotLevel.values:
        return level
    raise TableError(f"unknown bot level {level!r}", code="bad_bot_level")


def _seat_index(index: object) -> int | None:
    """``index`` of a bot fill: None (every empty seat) or a seat 0–3 (a form's digit too)."""
    if index is None or index == "":
        return None
    if isinstance(index, str) and index.isascii() and index.isdigit():
        index = int(index)
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index <= 3:
        raise TableError("no such seat", code="bad_seat")
    return index


def seats_fill_with_bots(
    *, room: Room, user: Any, level: object = None, index: object = None
) -> list[Seat]:
    """Fill the empty seats (or only seat ``index``) with bots of ``level`` (the room's
    ``bot_level`` when None), in a room that allows bots; bots are always ready. A player
    seated at the table may do it (the lobby and the table page), and so may a manager of the
    room's club (the admin)."""
    chosen = None if level is None or level == "" else bot_level_validate(level=level)
    only = _seat_index(index)

    def run() -> list[Seat]:
        locked = lock_room(room.pk)
        if not locked.allow_bots:
            raise TableError("this room has no bots", code="no_bots")
        seated = Seat.objects.filter(room=locked, user=user).exists()
        if not seated and not user_manages_room(user, locked):
            raise TableError("sit down first", code="not_seated")
        if Match.objects.filter(room=locked, status=Match.Status.PLAYING).exists():
            raise TableError("a match is in play", code="match_in_play")
        taken = set(Seat.objects.filter(room=locked).values_list("index", flat=True))
        if only is not None and only in taken:
            raise TableError("that seat is taken", code="seat_taken")
        wanted = [only] if only is not None else [i for i in range(4) if i not in taken]
        made = [
            Seat.objects.create(
                room=locked, index=i, is_bot=True, ready=True, bot_level=chosen or locked.bot_level
            )
            for i in wanted
        ]
        notify_room(locked.pk)
        start_if_ready(locked)
        return made

    return transact(run)


def seat_leave(*, room: Room, user: Any) -> None:
    """Stand up (离座). Leaving during a match ends the match (spec README, item 1); the bots of
    a room with no human left stand up too."""

    def run() -> None:
        locked = lock_room(room.pk)
        seat = Seat.objects.filter(room=locked, user=user).first()
        if seat is not None:
            stand_up(locked, seat, reason=PLAYER_LEFT)

    transact(run)


def _name(seat: Seat) -> str:
    """The seat's name for a notice: the player's, or its bot's (机器人·简单 1)."""
    room = seat.room
    return bot_names.seated_name(seat, bot_names.table_bots(room.seats.all(), room.bot_level))


def stand_up(room: Room, seat: Seat, *, reason: str) -> None:
    """``seat`` leaves the locked ``room``: a match in play ends (its round voided, spec README
    item 1) with ``reason``; the bots stand up too when no human is left. Everyone at the table
    is told who left (a public notice on the voided round: otherwise a mystery)."""
    voided = rounds_in_play(room)
    end_match(room, reason=reason)
    kind = PLAYER_REMOVED_EVENT if reason == PLAYER_REMOVED else PLAYER_LEFT_EVENT
    for rnd in voided:
        store.append_notice(rnd, {"kind": kind, "seat": seat.index, "name": _name(seat)})
    seat.delete()
    if not Seat.objects.filter(room=room, is_bot=False).exists():
        Seat.objects.filter(room=room, is_bot=True).delete()
    notify_room(room.pk)


def member_lost(*, club_id: int, user_id: int) -> list[int]:
    """A user is no longer an active member of a club (left it, was removed, or the account was
    closed): they stand up from every table of the club as a player who leaves does, and every
    socket of theirs at the club's tables — seat or spectator — is closed.
    Returns the rooms they were seated at. Idempotent."""
    if membership.is_active_member(user_id, club_id):
        return []  # still (or again) a member
    rooms = list(Room.objects.filter(club_id=club_id).values_list("pk", flat=True))
    seated = list(
        Seat.objects.filter(room_id__in=rooms, user_id=user_id).values_list("room_id", flat=True)
    )
    for room_id in seated:

        def run(room_id: int = room_id) -> None:
            locked = lock_room(room_id)
            seat = Seat.objects.filter(room=locked, user_id=user_id).first()
            if seat is not None:
                stand_up(locked, seat, reason=LEFT_CLUB)

        transact(run)
    for room_id in rooms:
        notify_room(room_id, table=room_id in seated, revoke=user_id)
    return seated


def seat_set_ready(*, room: Room, user: Any, ready: bool = True) -> Seat:
    """准备: when all four seats are ready a match (or its next round) starts."""

    def run() -> Seat:
        locked = lock_room(room.pk)
        seat = Seat.objects.filter(room=locked, user=user).first()
        if seat is None:
            raise TableError("sit down first", code="not_seated")
        seat.ready = ready
        seat.save(update_fields=["ready"])
        notify_room(locked.pk)
        start_if_ready(locked)
        return seat

    return transact(run)


def seat_back(*, room: Room, user: Any) -> Seat:
    """Come back ("I am back", 取消托管): the player takes their seat over from auto-play."""

    def run() -> Seat:
        seat = Seat.objects.select_for_update().filter(room_id=room.pk, user=user).first()
        if seat is None:
            raise TableError("sit down first", code="not_seated")
        seat.auto_play = False
        seat.consecutive_timeouts = 0
        seat.save(update_fields=["auto_play", "consecutive_timeouts"])
        notify_room(room.pk)
        return seat

    return transact(run)


def seat_presence_sync(*, room_id: int) -> bool:
    """Bring the room's ``Seat.connected`` flags in line with presence (:mod:`tables.presence`)
    and tell the room when one changed; True if one did.

    Called when a socket opens or closes, and by the clock (:func:`sweep_presence`) for the
    sockets that expired unannounced (a killed ASGI worker). One ``UPDATE`` per changed value,
    conditioned on the old value, so concurrent syncs never fight; unknown presence (Redis
    unreachable) changes nothing. A seat going offline gets ``absent_since`` (the moment its
    player closed the table, :func:`sweep_absent_seats`); coming back clears it."""
    seats = Seat.objects.filter(room_id=room_id, is_bot=False)
    rows = list(seats.values_list("pk", "user_id", "connected"))
    online = presence.users_online(room_id, [user_id for _pk, user_id, _shown in rows])
    if online is None:
        return False
    changed = 0
    for value in (True, False):
        stale = [pk for pk, user, shown in rows if (user in online) == value and shown != value]
        if stale:
            changed += seats.filter(pk__in=stale, connected=not value).update(
                connected=value, absent_since=None if value else timezone.now()
            )
    if changed:
        notify_room(room_id)
    return bool(changed)


def sweep_presence() -> list[int]:
    """The clock, every few seconds: rooms where a seat shown online has no live socket any
    more (or the other way round), then the seats freed for absence (:func:`sweep_absent_seats`);
    returns the ids of the rooms it changed."""
    rooms = Seat.objects.filter(is_bot=False, connected=True).values_list("room_id", flat=True)
    synced = [room_id for room_id in sorted(set(rooms)) if seat_presence_sync(room_id=room_id)]
    return sorted(set(synced) | set(sweep_absent_seats()))


def absent_seat_timeout_s() -> int:
    """``TABLES_FREE_ABSENT_SEAT_S``: how long a seated player may have closed the table before
    the seat is freed (outside a match)."""
    return int(settings.TABLES_FREE_ABSENT_SEAT_S)


def seat_free_if_absent(*, room_id: int, seat_id: int, now: datetime | None = None) -> bool:
    """Free one seat whose player closed the table more than :func:`absent_seat_timeout_s` ago,
    if no match is in play ("a player who closed the tab keeps the seat: the lobby lists
    the room 4/4 人 等待开局 — free the seat of an absent player before the first deal after a
    timeout; 托管 only inside a match"). Everything is checked again under the room's row lock
    and presence is asked once more (a player who came back keeps the seat; Redis unreachable:
    nothing is freed), so running it twice or late changes nothing. True if it freed the seat."""
    moment = now or timezone.now()
    limit = moment - timedelta(seconds=absent_seat_timeout_s())

    def run() -> bool:
        locked = lock_room(room_id)
        seat = Seat.objects.filter(
            pk=seat_id, room=locked, is_bot=False, connected=False, absent_since__lte=limit
        ).first()
        if seat is None or seat.user_id is None:
            return False
        if Match.objects.filter(room=locked, status=Match.Status.PLAYING).exists():
            return False  # inside a match the seat plays on in 托管
        if presence.users_online(room_id, [seat.user_id]) != set():
            return False  # back at the table, or Redis cannot say
        stand_up(locked, seat, reason=PLAYER_LEFT)
        return True

    return transact(run)


def sweep_absent_seats(*, now: datetime | None = None) -> list[int]:
    """The clock: free the seats of players absent for longer than the timeout in rooms with no
    match in play (:func:`seat_free_if_absent`); returns the ids of the rooms it changed."""
    moment = now or timezone.now()
    limit = moment - timedelta(seconds=absent_seat_timeout_s())
    candidates = (
        Seat.objects.filter(is_bot=False, connected=False, absent_since__lte=limit)
        .exclude(room__matches__status=Match.Status.PLAYING)
        .values_list("room_id", "pk")
    )
    freed = {
        room_id
        for room_id, seat_id in list(candidates)
        if seat_free_if_absent(room_id=room_id, seat_id=seat_id, now=moment)
    }
    return sorted(freed)
