"""Every change to a live table goes through these functions (seats, matches, rounds).

The rule of the module: **the database is the truth**. A round row holds the engine's state after
``version`` actions, and the seed, dealer and action list it can be replayed from. A player's move
enters through :func:`round_apply_action`; a timeout (:func:`round_timeout`) or a bot / 托管 move
(:func:`round_autoplay`) enters through its own function with its own idempotence check, and all
three then share the same two steps: :func:`_lock_round` (``select_for_update`` on the round row)
and :func:`_commit_steps` (legal actions applied by the engine, a ``version`` compare-and-set
write, which also guards SQLite where the row lock is a no-op, the events appended with
consecutive ``seq``, the transaction retried on conflict). Notifications to the browsers and the
deadline tasks are sent only after the commit (``transaction.on_commit``): nobody ever hears of a
move that was rolled back.
"""

from __future__ import annotations

import copy
import logging
import random
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, TypeVar

from django.conf import settings
from django.db import IntegrityError, OperationalError, transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import Club, Membership
from tables import gameplay, presence
from tables.models import ActionRecord, Match, Room, Round, RoundEvent, Seat
from tables.room_options import room_options_validate
from tables.selectors import Frame
from tables.signals import round_finished

log = logging.getLogger(__name__)

PLAYER_LEFT = "player_left"
"""``Match.end_reason`` when a seated player stood up during the match."""
LEFT_CLUB = "left_club"
"""``Match.end_reason`` when a seated player stopped being a member of the club."""
AUTO_PLAY_AFTER_TIMEOUTS = 2
"""Timeouts in a row after which a seat goes into 托管 (brief, issue 5)."""
AUTO_PLAY_DELAY_S = 1.0
"""How long a bot or a 托管 seat "thinks": enough for the others to see the move happen."""
NEXT_ROUND_AFTER_S = 20
"""The settlement pause: the next round of a match is dealt this long after the last one ended
(or as soon as all four press ready)."""
_MAX_ATTEMPTS = 8

T = TypeVar("T")


class TableError(Exception):
    """A refused table operation; ``code`` is the machine-readable reason sent to the client."""

    code = "table_error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


class VersionConflict(Exception):
    """The round moved on between our read and our write (SQLite path); the transaction retries."""


# --- outcomes -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ActionOutcome:
    """What a client gets back for an action: accepted (with the round's new version and last
    event ``seq``) or refused with an error ``code``. ``duplicate``: a retried client action id."""

    ok: bool
    version: int
    seq: int
    code: str = ""
    message: str = ""
    duplicate: bool = False

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"ok": self.ok, "version": self.version, "seq": self.seq}
        if not self.ok:
            data["code"] = self.code
            data["message"] = self.message
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, duplicate: bool = False) -> ActionOutcome:
        return cls(
            ok=bool(data["ok"]),
            version=int(data["version"]),
            seq=int(data["seq"]),
            code=str(data.get("code", "")),
            message=str(data.get("message", "")),
            duplicate=duplicate,
        )


# --- plumbing: retries, notifications, tasks -------------------------------------------------


def _with_retries(fn: Callable[[], T]) -> T:
    """Run ``fn`` in a transaction, retrying when a concurrent writer got there first.

    On PostgreSQL the row lock makes conflicts impossible and this loop runs once. On SQLite two
    writers can both read version *n*; the loser sees ``VersionConflict`` (or "database is locked")
    and replays the whole decision on the fresh row, which is exactly what the lock would have done.
    """
    for attempt in range(_MAX_ATTEMPTS):
        try:
            with transaction.atomic():
                return fn()
        except (VersionConflict, OperationalError):
            if attempt == _MAX_ATTEMPTS - 1:
                raise
            time.sleep(0.005 * (attempt + 1) + random.random() * 0.01)  # jitter, not a secret
    raise AssertionError("unreachable")


def room_group(room_id: int) -> str:
    """The channel-layer group of a room's sockets (players and spectators)."""
    return f"table.{room_id}"


def notify_room(
    room_id: int,
    *,
    table: bool = True,
    round_update: Callable[[], dict[str, Any]] | None = None,
    revoke: int | None = None,
) -> None:
    """Tell the room's sockets, after the commit, what changed: one notification per room and
    transaction (a ``ready`` that deals a round sends one message, not two).

    ``table``: the room or its seats changed; the room's state (:func:`tables.selectors.
    table_state`) is read once, after the commit, and carried to every socket. ``round_update``
    builds (after the commit, outside the row lock) a move's events and next decision, or a new
    round's snapshot, already redacted for every viewer (:mod:`tables.selectors`). Each socket
    then sends its own viewer's part without touching the database, unless the notification
    does not continue what it has sent (then it reads the database). The channel layer is
    server-side, like the database; what leaves the server is still one viewer's redaction,
    picked by the socket of that viewer. A lost or out-of-order notification is repaired from
    the database (the socket sees a gap) or by the client's ``resync``.

    ``revoke``: a user who may no longer be at the room (they left the club): their sockets
    there close (:func:`member_lost`).
    """
    revoked = set() if revoke is None else {revoke}
    pending = _pending_notification(room_id)
    if pending is not None:
        pending.table = pending.table or table
        pending.round_update = round_update or pending.round_update
        pending.revoked |= revoked
        return
    transaction.on_commit(
        _RoomNotification(room_id, table=table, round_update=round_update, revoked=revoked)
    )


@dataclass
class _RoomNotification:
    """An after-commit notification of one room (see :func:`notify_room`)."""

    room_id: int
    table: bool
    round_update: Callable[[], dict[str, Any]] | None
    revoked: set[int] = field(default_factory=set)

    def __call__(self) -> None:
        from tables import selectors

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
            return
        group = room_group(self.room_id)
        collected = getattr(_outbox, "messages", None)
        if collected is not None:
            collected.append((group, message))
            return
        from asgiref.sync import async_to_sync
        from channels.layers import get_channel_layer

        layer = get_channel_layer()
        if layer is None:
            return
        try:
            async_to_sync(layer.group_send)(group, message)
        except Exception:  # a lost notification is repaired by the client's resync
            log.exception("could not notify room %s", self.room_id)


def _pending_notification(room_id: int) -> _RoomNotification | None:
    """This transaction's notification of the room, not sent yet, registered at the same
    savepoint level (so that it is committed or rolled back with what is merged into it)."""
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        return None
    level = set(connection.savepoint_ids)
    for savepoints, callback, _robust in connection.run_on_commit:
        if isinstance(callback, _RoomNotification) and callback.room_id == room_id:
            return callback if set(savepoints) == level else None
    return None


Notification = tuple[str, dict[str, Any]]
_outbox = threading.local()


@contextmanager
def notifications_collected() -> Iterator[list[Notification]]:
    """Within this block, this thread's committed notifications are collected, not sent.

    For a socket: it runs a service in a database thread and then sends what was collected
    from its own event loop (:func:`notifications_send`), instead of making that thread wait
    for the event loop and Redis after every commit (``async_to_sync``), which would hold up the
    other sockets' database work queued for it.
    """
    collected: list[Notification] = []
    _outbox.messages = collected
    try:
        yield collected
    finally:
        _outbox.messages = None


async def notifications_send(notifications: list[Notification]) -> None:
    """Send notifications collected by :func:`notifications_collected` (already committed)."""
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    if layer is None:
        return
    for group, message in notifications:
        try:
            await layer.group_send(group, message)
        except Exception:  # a lost notification is repaired by the client's resync
            log.exception("could not notify %s", group)


def _tasks_enabled() -> bool:
    return bool(getattr(settings, "TABLES_SCHEDULE_TASKS", not settings.TESTING))


def _schedule_after_commit(rnd: Round, room: Room, seats: Mapping[int, Seat], state: Any) -> None:
    """After the commit: a quick auto-play task when a bot or a 托管 seat must act.

    A decision's clock needs no task of its own: the clock (config/clock.py) runs
    :func:`sweep_deadlines` every second and times out every decision whose ``deadline`` has
    passed (the index on ``(status, deadline)`` makes that one cheap query). A task per decision
    would cost every move a message to the broker and the Celery worker a held ETA task, almost
    always for nothing.
    """
    if rnd.status != Round.Status.PLAYING:
        return
    deciders = gameplay.deciders(state)
    if not any(s in seats and (seats[s].is_bot or seats[s].auto_play) for s in deciders):
        return
    round_id, version = rnd.pk, rnd.version

    def schedule() -> None:
        if not _tasks_enabled():
            return
        from tables import tasks

        try:
            tasks.round_autoplay.apply_async(args=(round_id, version), countdown=AUTO_PLAY_DELAY_S)
        except Exception:  # their deadline acts for them (the default action) instead
            log.exception("could not schedule the auto-play of round %s", round_id)

    transaction.on_commit(schedule)


# --- rooms and seats ------------------------------------------------------------------------


def _active_member(user: Any, club: Club) -> bool:
    return Membership.objects.filter(club=club, user=user, status=Membership.Status.ACTIVE).exists()


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
) -> Room:
    """Open a room in a club the user is an active member of.

    Every path that opens a room (lobby form, API, admin's own save through the same checker)
    comes here or through :func:`tables.room_options.room_options_validate`: the room's 底分
    ``base_stake`` is written into the rules' option ``base`` there, so it is scored as set.
    """
    if not _active_member(user, club):
        raise TableError("not a member of this club", code="not_member")
    room = Room(
        club=club,
        name=name,
        variant=variant,
        options=room_options_validate(
            variant=variant, options=options or {}, base_stake=base_stake
        ),
        base_stake=base_stake,
        turn_timeout_s=turn_timeout_s,
        claim_timeout_s=claim_timeout_s,
        allow_spectators=allow_spectators,
        allow_bots=allow_bots,
        created_by=user,
    )
    room.full_clean()
    room.save()
    return room


def _lock_room(room_id: int) -> Room:
    # Seat changes and match starts of one room are serialised on the room row: two players
    # taking the last seat, or the fourth "ready" arriving twice, must not both win.
    return Room.objects.select_for_update().get(pk=room_id)


def seat_take(*, room: Room, user: Any, index: int | None = None) -> Seat:
    """Sit down (入座) at a free seat (the first free one if ``index`` is None)."""

    def run() -> Seat:
        locked = _lock_room(room.pk)
        if locked.status == Room.Status.CLOSED:
            raise TableError("the room is closed", code="room_closed")
        if not _active_member(user, locked.club):
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
        return _with_retries(run)
    except IntegrityError as exc:  # the unique constraints are the last line of defence
        raise TableError("that seat is taken", code="seat_taken") from exc


def seats_fill_with_bots(*, room: Room, user: Any) -> list[Seat]:
    """Fill every empty seat with a bot (room option ``allow_bots``); bots are always ready."""

    def run() -> list[Seat]:
        locked = _lock_room(room.pk)
        if not locked.allow_bots:
            raise TableError("this room has no bots", code="no_bots")
        if not Seat.objects.filter(room=locked, user=user).exists():
            raise TableError("sit down first", code="not_seated")
        taken = set(Seat.objects.filter(room=locked).values_list("index", flat=True))
        made = [
            Seat.objects.create(room=locked, index=i, is_bot=True, ready=True)
            for i in range(4)
            if i not in taken
        ]
        notify_room(locked.pk)
        _start_if_ready(locked)
        return made

    return _with_retries(run)


def seat_leave(*, room: Room, user: Any) -> None:
    """Stand up (离座). Leaving during a match ends the match (spec README, item 1); the bots of
    a room with no human left stand up too."""

    def run() -> None:
        locked = _lock_room(room.pk)
        seat = Seat.objects.filter(room=locked, user=user).first()
        if seat is not None:
            _stand_up(locked, seat, reason=PLAYER_LEFT)

    _with_retries(run)


def _stand_up(room: Room, seat: Seat, *, reason: str) -> None:
    """``seat`` leaves the locked ``room``: a match in play ends (its round voided, spec README
    item 1) with ``reason``; the bots stand up too when no human is left. Everyone at the table
    is told who left (a public notice on the voided round: otherwise a mystery, issue 17)."""
    voided = _rounds_in_play(room)
    _end_match(room, reason=reason)
    kind = PLAYER_REMOVED_EVENT if reason == PLAYER_REMOVED else PLAYER_LEFT_EVENT
    for rnd in voided:
        _append_notice(rnd, {"kind": kind, "seat": seat.index, "name": _name(seat)})
    seat.delete()
    if not Seat.objects.filter(room=room, is_bot=False).exists():
        Seat.objects.filter(room=room, is_bot=True).delete()
    notify_room(room.pk)


def member_lost(*, club_id: int, user_id: int) -> list[int]:
    """A user is no longer an active member of a club (left it, was removed, or the account was
    closed): they stand up from every table of the club as a player who leaves does, and every
    socket of theirs at the club's tables — seat or spectator — is closed (issue 14, item 8).
    Returns the rooms they were seated at. Idempotent."""
    if Membership.objects.filter(
        club_id=club_id, user_id=user_id, status=Membership.Status.ACTIVE, user__is_active=True
    ).exists():
        return []  # still (or again) a member
    rooms = list(Room.objects.filter(club_id=club_id).values_list("pk", flat=True))
    seated = list(
        Seat.objects.filter(room_id__in=rooms, user_id=user_id).values_list("room_id", flat=True)
    )
    for room_id in seated:

        def run(room_id: int = room_id) -> None:
            locked = _lock_room(room_id)
            seat = Seat.objects.filter(room=locked, user_id=user_id).first()
            if seat is not None:
                _stand_up(locked, seat, reason=LEFT_CLUB)

        _with_retries(run)
    for room_id in rooms:
        notify_room(room_id, table=room_id in seated, revoke=user_id)
    return seated


def seat_set_ready(*, room: Room, user: Any, ready: bool = True) -> Seat:
    """准备: when all four seats are ready a match (or its next round) starts."""

    def run() -> Seat:
        locked = _lock_room(room.pk)
        seat = Seat.objects.filter(room=locked, user=user).first()
        if seat is None:
            raise TableError("sit down first", code="not_seated")
        seat.ready = ready
        seat.save(update_fields=["ready"])
        notify_room(locked.pk)
        _start_if_ready(locked)
        return seat

    return _with_retries(run)


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

    return _with_retries(run)


def seat_presence_sync(*, room_id: int) -> bool:
    """Bring the room's ``Seat.connected`` flags in line with presence (:mod:`tables.presence`)
    and tell the room when one changed; True if one did.

    Called when a socket opens or closes, and by the clock (:func:`sweep_presence`) for the
    sockets that expired unannounced (a killed ASGI worker). One ``UPDATE`` per changed value,
    conditioned on the old value, so concurrent syncs never fight; unknown presence (Redis
    unreachable) changes nothing."""
    seats = Seat.objects.filter(room_id=room_id, is_bot=False)
    rows = list(seats.values_list("pk", "user_id", "connected"))
    online = presence.users_online(room_id, [user_id for _pk, user_id, _shown in rows])
    if online is None:
        return False
    changed = 0
    for value in (True, False):
        stale = [pk for pk, user, shown in rows if (user in online) == value and shown != value]
        if stale:
            changed += seats.filter(pk__in=stale, connected=not value).update(connected=value)
    if changed:
        notify_room(room_id)
    return bool(changed)


def sweep_presence() -> list[int]:
    """The clock, every few seconds: rooms where a seat shown online has no live socket any
    more (or the other way round); returns the ids of the rooms it changed."""
    rooms = Seat.objects.filter(is_bot=False, connected=True).values_list("room_id", flat=True)
    return [room_id for room_id in sorted(set(rooms)) if seat_presence_sync(room_id=room_id)]


def _end_match(room: Room, *, reason: str) -> None:
    match = Match.objects.filter(room=room, status=Match.Status.PLAYING).first()
    if match is None:
        return
    now = timezone.now()
    Round.objects.filter(match=match, status=Round.Status.PLAYING).update(
        status=Round.Status.ABORTED, deadline=None, ended_at=now
    )
    match.status = Match.Status.FINISHED
    match.ended_at = now
    match.end_reason = reason
    match.save(update_fields=["status", "ended_at", "end_reason"])
    Seat.objects.filter(room=room, is_bot=False).update(ready=False)
    room.status = Room.Status.OPEN
    room.save(update_fields=["status"])


# --- matches and rounds ---------------------------------------------------------------------


def _seats_by_index(room: Room) -> dict[int, Seat]:
    return {seat.index: seat for seat in Seat.objects.filter(room=room)}


def _start_if_ready(room: Room) -> Round | None:
    """Start a match, or its next round, when all four seats are ready (the room is locked)."""
    seats = _seats_by_index(room)
    if len(seats) < 4 or not all(seat.ready for seat in seats.values()):
        return None
    match = Match.objects.filter(room=room, status=Match.Status.PLAYING).first()
    if match is None:
        match = Match.objects.create(
            room=room,
            variant=room.variant,
            options=room.options,
            players=[seats[i].user_id for i in range(4)],
        )
    return _deal_next(room, match)


def _deal_next(room: Room, match: Match) -> Round | None:
    """Deal the match's next round (the first one, or the one after an ended round)."""
    last = match.rounds.order_by("-number").first()
    if last is not None and last.status != Round.Status.ENDED:
        return None
    if last is None:
        # The first dealer of a table is drawn at random (spec README, item 1); seat 0 deals
        # first under the test-only fixed seed.
        fixed = settings.TESTING and getattr(settings, "TABLES_FIXED_SEED", None)
        dealer, number = (0 if fixed else secrets.randbelow(4)), 1
    else:
        dealer = int(last.result["next_dealer"]) if last.result else last.dealer
        number = last.number + 1
    setup = _match_setup(match, before_number=number, dealer=dealer)
    if setup is not None and setup.match_over:
        # Taiwan 16: the four wind rounds (一將) are played; the match ends (taiwan16.md, *Play*).
        _end_match(room, reason=MATCH_COMPLETE_REASON)
        return None
    Seat.objects.filter(room=room, is_bot=False).update(ready=False)
    room.status = Room.Status.PLAYING
    room.save(update_fields=["status"])
    return round_start(match=match, number=number, dealer=dealer, seed=None, setup=setup)


def round_setup_of(rnd: Round) -> gameplay.RoundSetup | None:
    """The round wind and 連莊 count ``rnd`` was dealt with (Taiwan 16), for anyone replaying it
    from its seed (the settlement, the replay page); None for the other variants."""
    return _match_setup(rnd.match, before_number=rnd.number, dealer=rnd.dealer)


ABANDONED_REASON = "abandoned"
"""``Match.end_reason`` when no human player had the table open at the end of a settlement pause."""
MATCH_COMPLETE_REASON = "four_winds"
"""``Match.end_reason`` of a Taiwan 16 match whose four wind rounds (东南西北圈) are played."""


def _match_setup(match: Match, *, before_number: int, dealer: int) -> gameplay.RoundSetup | None:
    """The round wind and 連莊 count of round ``before_number`` of a match played in wind rounds
    (Taiwan 16), from the dealers of its earlier rounds; None for the other variants (their
    rounds are dealt exactly as before: 东, no count)."""
    if not gameplay.has_wind_rounds(match.variant):
        return None
    rounds = list(match.rounds.filter(number__lt=before_number).order_by("number"))
    first = rounds[0].dealer if rounds else dealer
    pairs = [(r.dealer, int(r.result["next_dealer"]) if r.result else r.dealer) for r in rounds]
    return gameplay.round_setup(match.variant, first, pairs)


def match_next_round(
    *, match_id: int, after_number: int, now: datetime | None = None
) -> Round | None:
    """The settlement pause is over: deal round ``after_number + 1`` if the match is still on,
    that round ended and all four are still seated (spec README, item 1; nobody needs to press
    ready again, though four ready presses start it sooner). Idempotent.

    A match whose human players have all closed the table (no socket open at the end of the
    pause) is ended instead (``abandoned``): its seats would otherwise play on in 托管, round
    after round, for nobody. They press ready to start a new match when they come back."""
    moment = now or timezone.now()

    def run() -> Round | None:
        match = Match.objects.filter(pk=match_id).select_related("room").first()
        if match is None:
            return None
        room = _lock_room(match.room_id)
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING or len(_seats_by_index(room)) < 4:
            return None
        last = match.rounds.order_by("-number").first()
        if last is None or last.number != after_number or last.status != Round.Status.ENDED:
            return None
        pause = timedelta(seconds=NEXT_ROUND_AFTER_S - 1)
        if last.ended_at is not None and last.ended_at + pause > moment:
            return None
        humans = Seat.objects.filter(room=room, is_bot=False).values_list("user_id", flat=True)
        if presence.users_online(room.pk, humans) == set():  # None: Redis cannot say
            _end_match(room, reason=ABANDONED_REASON)
            notify_room(room.pk)
            return None
        return _deal_next(room, match)

    return _with_retries(run)


def round_start(
    *,
    match: Match,
    number: int,
    dealer: int,
    seed: bytes | None,
    setup: gameplay.RoundSetup | None = None,
) -> Round:
    """Deal a round: a fresh secret seed (``secrets``), the engine's deal, its events stored.

    ``seed`` is only given by tests; a live table always draws it from the operating system's
    CSPRNG. The test-only setting ``TABLES_FIXED_SEED`` (hex, honoured only when ``TESTING``)
    makes browser tests reproducible.
    """
    room = match.room
    if seed is None:
        fixed = getattr(settings, "TABLES_FIXED_SEED", None) if settings.TESTING else None
        seed = bytes.fromhex(fixed) if isinstance(fixed, str) else secrets.token_bytes(32)
    if setup is None:
        setup = _match_setup(match, before_number=number, dealer=dealer)
    state, events = gameplay.new_round(
        variant=match.variant, options=match.options, seed=seed, dealer=dealer, setup=setup
    )
    rnd = Round(
        match=match,
        number=number,
        dealer=dealer,
        seed=seed.hex(),
        commitment=str(state.commitment),
        version=state.version,
        actions=[],
    )
    seats = _seats_by_index(room)
    _record(rnd, room, seats, state, events, previous=None)
    rnd.save()
    _store_events(rnd, events, first_seq=1)
    gameplay.cache_put(rnd.pk, state, rnd.actions)
    notify_room(room.pk, round_update=_round_start_builder(rnd, state, seats))
    _schedule_after_commit(rnd, room, seats, state)
    return rnd


def _record(
    rnd: Round,
    room: Room,
    seats: Mapping[int, Seat],
    state: Any,
    events: list[Any],
    *,
    previous: Any,
) -> None:
    """Copy the new state's facts onto the round row (not saved here)."""
    rnd.version = state.version
    rnd.last_seq = rnd.last_seq + len(events)
    rnd.state = gameplay.dump_state(state)
    if gameplay.is_ended(state):
        rnd.status = Round.Status.ENDED
        rnd.result = gameplay.result_json(state)
        rnd.deadline = None
        rnd.ended_at = timezone.now()
        return
    if previous is None or gameplay.decision_key(previous) != gameplay.decision_key(state):
        # The decision's token is the number of the last event before it, not the state's
        # version: versions count every pass in a claim window and would tell the others how
        # many seats were asked (issue 14, item 7); events are the same for every viewer.
        rnd.decision_version = rnd.last_seq
        timeout = (
            room.turn_timeout_s if gameplay.phase_kind(state) == "turn" else room.claim_timeout_s
        )
        rnd.deadline = timezone.now() + timedelta(seconds=timeout)


def _store_events(
    rnd: Round, events: Iterable[Any], *, first_seq: int
) -> list[tuple[int, dict[str, Any]]]:
    """Append the events with consecutive ``seq``; returns ``(seq, views)`` of each, the views
    being the event redacted for each viewer (:func:`tables.gameplay.event_views`)."""
    rows = [
        RoundEvent(
            round=rnd,
            seq=first_seq + i,
            kind=str(event.kind),
            payload=gameplay.event_json(event),
            views=gameplay.event_views(event),
        )
        for i, event in enumerate(events)
    ]
    RoundEvent.objects.bulk_create(rows)
    return [(row.seq, row.views) for row in rows]


def load_state(rnd: Round) -> Any:
    """The engine state of a round at its stored version: cached, else the stored snapshot, else
    (a row without one) replayed from the seed and the action list."""
    cached = gameplay.cached_state(rnd.pk, rnd.version, rnd.actions)
    if cached is not None:
        return cached
    if rnd.state:
        state = gameplay.load_state(rnd.state)
        if state.version == rnd.version:
            gameplay.cache_put(rnd.pk, state, rnd.actions)
            return state
    return replay_state(rnd)


def replay_state(rnd: Round) -> Any:
    """The state rebuilt from the round's seed, dealer and actions (never from the snapshot)."""
    match = rnd.match
    return gameplay.state_at(
        round_id=rnd.pk,
        version=rnd.version,
        variant=match.variant,
        options=match.options,
        seed=bytes.fromhex(rnd.seed),
        dealer=rnd.dealer,
        actions=rnd.actions,
        use_cache=False,
        setup=_match_setup(match, before_number=rnd.number, dealer=rnd.dealer),
    )


@dataclass
class _Step:
    seat: int
    action: Any
    source: str  # "player", "timeout" or "auto"


@dataclass
class _Progress:
    """What a write has done so far: the state, the events, the actions, and where the events
    are cut into the frames the viewers are shown (``stages``: the state after each cut and the
    number of events up to it; see :func:`tables.selectors.round_update`)."""

    state: Any
    events: list[Any] = field(default_factory=list)
    actions: list[dict[str, Any]] = field(default_factory=list)
    stages: list[tuple[Any, int]] = field(default_factory=list)
    actors: set[int] = field(default_factory=set)


def _commit_steps(
    rnd: Round,
    start: Any,
    steps: list[_Step],
    progress: _Progress,
    *,
    seats: Mapping[int, Seat] | None = None,
) -> None:
    """Write the state reached by ``steps`` (already applied into ``progress``) with a version
    compare-and-set, append the events with consecutive ``seq``, update the seats' timeout
    counters and arrange everything that must happen after the commit. ``seats``: the room's
    seats when the caller has already read them in this transaction."""
    room = rnd.match.room
    if seats is None:
        seats = _seats_by_index(room)
    old_version, first_seq = rnd.version, rnd.last_seq + 1
    rnd.actions = [*rnd.actions, *progress.actions]
    _record(rnd, room, seats, progress.state, progress.events, previous=start)
    written = Round.objects.filter(pk=rnd.pk, version=old_version).update(
        version=rnd.version,
        last_seq=rnd.last_seq,
        actions=rnd.actions,
        state=rnd.state,
        status=rnd.status,
        result=rnd.result,
        deadline=rnd.deadline,
        decision_version=rnd.decision_version,
        ended_at=rnd.ended_at,
    )
    if written != 1:
        raise VersionConflict(f"round {rnd.pk} is no longer at version {old_version}")
    rows = _store_events(rnd, progress.events, first_seq=first_seq)
    seats_changed = _update_seat_clocks(seats, steps)
    gameplay.cache_put(rnd.pk, progress.state, rnd.actions)
    ended = rnd.status == Round.Status.ENDED
    if rows or seats_changed or ended or progress.actors:
        # A pass that leaves a claim window open changes no event: only its seat is told (its
        # own decision), nobody else hears of it (issue 14, item 7).
        notify_room(
            room.pk,
            table=seats_changed or ended,
            round_update=_round_update_builder(rnd, progress, rows, seats, first_seq - 1),
        )
    if ended:
        _after_round(rnd, room)
    else:
        _schedule_after_commit(rnd, room, seats, progress.state)


def _seat_users(seats: Mapping[int, Seat]) -> list[int | None]:
    """Who holds each seat (None: empty or a bot), as the notifications carry it."""
    return [seats[i].user_id if i in seats else None for i in range(4)]


def _round_update_builder(
    rnd: Round,
    progress: _Progress,
    rows: list[tuple[int, dict[str, Any]]],
    seats: Mapping[int, Seat],
    prev_seq: int,
) -> Callable[[], dict[str, Any]]:
    """The move's per-viewer update, built later (after the commit) from values fixed now: its
    frames (:func:`_frames`), and the seats that acted (each is shown its own new decision even
    when nobody else is shown anything)."""
    from tables import selectors

    fixed, seat_users = copy.copy(rnd), _seat_users(seats)
    frames = _frames(fixed, progress, rows, prev_seq)
    actors = frozenset(progress.actors)
    return lambda: selectors.round_update(
        fixed,
        progress.state,
        frames,
        prev_seq=prev_seq,
        seat_users=seat_users,
        actors=actors,
    )


def _frames(
    rnd: Round, progress: _Progress, rows: list[tuple[int, dict[str, Any]]], prev_seq: int
) -> list[Frame]:
    """The write's events cut at the engine's stages, each piece with the state that follows
    it (the last one with the final state) and its decision token: what every viewer is shown,
    frame by frame. A stage without events is nobody's frame (a pass in an open window)."""
    frames: list[Frame] = []
    done = 0
    for state, count in progress.stages:
        if count > done:
            token = prev_seq + count
            frames.append(Frame(state=state, rows=rows[done:count], token=token))
            done = count
    if frames:  # the last frame shows the round as the write left it, with its decision
        frames[-1] = Frame(
            state=progress.state, rows=frames[-1].rows, token=rnd.decision_version, last=True
        )
    return frames


def _round_start_builder(
    rnd: Round, state: Any, seats: Mapping[int, Seat]
) -> Callable[[], dict[str, Any]]:
    """A new round's per-viewer snapshots, built after the commit from values fixed now."""
    from tables import selectors

    fixed, seat_users = copy.copy(rnd), _seat_users(seats)
    return lambda: selectors.round_start_update(fixed, state, seat_users=seat_users)


def _update_seat_clocks(seats: Mapping[int, Seat], steps: list[_Step]) -> bool:
    """Count timeouts in a row (托管 after :data:`AUTO_PLAY_AFTER_TIMEOUTS`); True when a seat
    went into 托管 (the ``table`` message shows it).

    Conditional ``UPDATE``s on the current row, never a save of the copy read earlier: the seat
    row is not locked by the round's transaction, and a player's "I'm back" (:func:`seat_back`)
    committed meanwhile must not be overwritten by a stale ``auto_play`` (issue 14, item 3)."""
    auto_play_changed = False
    for step in steps:
        seat = seats.get(step.seat)
        if seat is None or seat.is_bot:
            continue
        rows = Seat.objects.filter(pk=seat.pk)
        if step.source == "player":
            rows.filter(consecutive_timeouts__gt=0).update(consecutive_timeouts=0)
        elif step.source == "timeout":
            rows.update(consecutive_timeouts=F("consecutive_timeouts") + 1)
            into_auto = rows.filter(
                consecutive_timeouts__gte=AUTO_PLAY_AFTER_TIMEOUTS, auto_play=False
            ).update(auto_play=True)
            auto_play_changed = auto_play_changed or bool(into_auto)
    return auto_play_changed


def _after_round(rnd: Round, room: Room) -> None:
    """A round ended: the next one is dealt after the settlement pause (or when all four press
    ready); ``round_finished`` is sent after the commit for the settlement ledgers (another
    issue)."""
    Seat.objects.filter(room=room, is_bot=False).update(ready=False)
    transaction.on_commit(lambda: round_finished.send(sender=Round, round=rnd))
    match_id, number = rnd.match_id, rnd.number

    def schedule() -> None:
        if not _tasks_enabled():
            return
        from tables import tasks

        try:
            tasks.match_next_round.apply_async(
                args=(match_id, number), countdown=NEXT_ROUND_AFTER_S
            )
        except Exception:  # the clock's sweep deals it
            log.exception("could not schedule the next round of match %s", match_id)

    transaction.on_commit(schedule)


def _apply_steps(state: Any, steps: list[_Step], progress: _Progress) -> None:
    for step in steps:
        for stage, events in gameplay.apply_staged(progress.state, step.action):
            progress.events.extend(events)
            progress.stages.append((stage, len(progress.events)))
            progress.state = stage
        progress.actions.append(gameplay.action_json(step.action))
        progress.actors.add(step.seat)


Chooser = Callable[[Any, int], Any]


def _play_for(
    state: Any, choosers: Mapping[int, tuple[Chooser, str]], progress: _Progress
) -> list[_Step]:
    """Let each seat in ``choosers`` that still has to decide act, one after the other, each on
    the state the previous one left (the first answer may close a claim window for the rest)."""
    steps: list[_Step] = []
    for seat, (choose, source) in choosers.items():
        if seat not in gameplay.deciders(progress.state):
            continue
        step = _Step(seat=seat, action=choose(progress.state, seat), source=source)
        _apply_steps(progress.state, [step], progress)
        steps.append(step)
    return steps


def _lock_round(round_id: int) -> Round:
    # The row lock serialises every writer of this round: two browsers claiming the same discard
    # (win vs pong) are applied one after the other, each on the state the other left, and the
    # engine's claim window then picks the winner by priority, never by arrival order.
    # ``of=("self",)``: lock the round row only, not the match and room rows it is read with
    # (seats and connections of the room change under the room's own lock meanwhile).
    return (
        Round.objects.select_for_update(of=("self",)).select_related("match__room").get(pk=round_id)
    )


def round_apply_action(
    *,
    round_id: int,
    seat: int,
    action_json: object,
    client_action_id: str,
    expected_version: int | None = None,
    user_id: int | None = None,
    room_id: int | None = None,
) -> ActionOutcome:
    """Apply a player's action: the one door through which a human changes a round.

    Checks, in order: a retried ``client_action_id`` returns its first outcome and changes
    nothing; the round is still in play; when ``user_id`` is given (a socket), that user holds
    ``seat`` in room ``room_id`` now, inside the transaction (an admin may have removed them a
    moment ago); the action parses and is the connection's own seat's; ``expected_version``
    (when the client sends it) is not older than the current decision (a stale click); the
    action is in the engine's ``legal_actions``. Refusals are recorded too.
    """

    def run() -> ActionOutcome:
        rnd = _lock_round(round_id)
        earlier = ActionRecord.objects.filter(
            round=rnd, seat=seat, client_action_id=client_action_id
        ).first()
        if earlier is not None:
            return ActionOutcome.from_json(earlier.outcome, duplicate=True)
        outcome = _decide(rnd, seat, action_json, expected_version, user_id, room_id)
        ActionRecord.objects.create(
            round=rnd,
            seat=seat,
            client_action_id=client_action_id,
            action=action_json if isinstance(action_json, dict) else {"raw": repr(action_json)},
            outcome=outcome.to_json(),
        )
        return outcome

    return _with_retries(run)


def _refuse(rnd: Round, code: str, message: str) -> ActionOutcome:
    return ActionOutcome(
        ok=False, version=rnd.decision_version, seq=rnd.last_seq, code=code, message=message
    )


def _decide(
    rnd: Round,
    seat: int,
    action_json: object,
    expected_version: int | None,
    user_id: int | None,
    room_id: int | None,
) -> ActionOutcome:
    if rnd.status != Round.Status.PLAYING:
        return _refuse(rnd, "round_over", "the round is over")
    seats = _seats_by_index(rnd.match.room)
    if user_id is not None and (
        rnd.match.room_id != room_id or seat not in seats or seats[seat].user_id != user_id
    ):
        return _refuse(rnd, "not_seated", "you do not hold that seat")
    try:
        action = gameplay.parse_action(action_json, seat)
    except gameplay.BadAction as exc:
        return _refuse(rnd, "bad_action", str(exc))
    if expected_version is not None and expected_version < rnd.decision_version:
        return _refuse(rnd, "stale", "the table moved on; this click was for an earlier decision")
    state = load_state(rnd)
    if action not in gameplay.legal_actions(state, seat):
        return _refuse(rnd, "illegal", gameplay.why_illegal(state, action))
    progress = _Progress(state=state)
    steps = [_Step(seat=seat, action=action, source="player")]
    _apply_steps(state, steps, progress)
    _commit_steps(rnd, state, steps, progress, seats=seats)
    return ActionOutcome(ok=True, version=rnd.decision_version, seq=rnd.last_seq)


def round_timeout(*, round_id: int, decision_version: int, now: datetime | None = None) -> bool:
    """The clock of a decision ran out: every seat still to decide gets its default action.

    Idempotent: does nothing unless the round is still in play at the same decision and its
    deadline has passed (a late or duplicated task, or the sweeper racing the task, is harmless).
    """

    def run() -> bool:
        rnd = _lock_round(round_id)
        moment = now or timezone.now()
        if rnd.status != Round.Status.PLAYING or rnd.decision_version != decision_version:
            return False
        if rnd.deadline is None or rnd.deadline > moment:
            return False
        state = load_state(rnd)
        progress = _Progress(state=state)
        choosers = {s: (gameplay.default_action, "timeout") for s in gameplay.deciders(state)}
        steps = _play_for(state, choosers, progress)
        if not steps:
            return False
        _commit_steps(rnd, state, steps, progress)
        return True

    return _with_retries(run)


def round_autoplay(*, round_id: int, version: int) -> bool:
    """Bots and 托管 seats that must decide at ``version`` act now (idempotent like timeouts)."""
    from tables import bots

    def run() -> bool:
        rnd = _lock_round(round_id)
        if rnd.status != Round.Status.PLAYING or rnd.version != version:
            return False
        seats = _seats_by_index(rnd.match.room)
        state = load_state(rnd)
        choosers: dict[int, tuple[Chooser, str]] = {}
        for s in gameplay.deciders(state):
            seat = seats.get(s)
            if seat is not None and seat.is_bot:
                choosers[s] = (bots.choose_action, "auto")
            elif seat is not None and seat.auto_play:
                choosers[s] = (gameplay.auto_play_action, "auto")
        progress = _Progress(state=state)
        steps = _play_for(state, choosers, progress)
        if not steps:
            return False
        _commit_steps(rnd, state, steps, progress, seats=seats)
        return True

    return _with_retries(run)


def sweep_deadlines(*, now: datetime | None = None) -> list[int]:
    """The clock's deadline sweep (every second): every decision whose deadline has passed gets its
    default actions (:func:`round_timeout`); returns the ids of the rounds it moved."""
    moment = now or timezone.now()
    overdue = list(
        Round.objects.filter(status=Round.Status.PLAYING, deadline__lte=moment).values_list(
            "pk", "decision_version"
        )
    )
    return [
        round_id
        for round_id, decision_version in overdue
        if round_timeout(round_id=round_id, decision_version=decision_version, now=moment)
    ]


def sweep_overdue(*, now: datetime | None = None, grace_s: float = 2.0) -> list[int]:
    """The clock's slower sweep: deal the next round of matches whose settlement pause ended
    ``grace_s`` ago (its own task was lost, e.g. a worker restart). Returns the ids of the rounds
    it dealt."""
    moment = now or timezone.now()
    waiting = Round.objects.filter(
        match__status=Match.Status.PLAYING,
        status=Round.Status.ENDED,
        ended_at__lt=moment - timedelta(seconds=NEXT_ROUND_AFTER_S + grace_s),
    ).values_list("match_id", "number")
    done = []
    for match_id, number in list(waiting):
        dealt = match_next_round(match_id=match_id, after_number=number, now=moment)
        if dealt is not None:
            done.append(dealt.pk)
    return done


# --- club managers: close a room, remove a player, dissolve a table (issue 7) ----------------
# Added by the "api" helper for the admin and the API; nothing above is changed.

DISSOLVED = "dissolved"
"""``Match.end_reason`` of a table dissolved by a club manager (网管解散)."""
PLAYER_REMOVED = "player_removed"
"""``Match.end_reason`` when a manager removed a seated player during a match."""
TABLE_DISSOLVED_EVENT = "table_dissolved"
"""Kind of the event appended to the voided round: every viewer is sent the reason."""
PLAYER_LEFT_EVENT = "player_left"
"""Appended to the round a player's 离座 voided: every viewer is told who left (seat, name)."""
PLAYER_REMOVED_EVENT = "player_removed"
"""Appended to the round voided by a manager removing a seat: who was removed."""


def user_manages_room(user: Any, room: Room) -> bool:
    """Site staff allowed to change rooms, or an active owner/admin of the room's club."""
    if not getattr(user, "is_active", False) or not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser or (user.is_staff and user.has_perm("tables.change_room")):
        return True
    return Membership.objects.filter(
        club_id=room.club_id,
        user=user,
        status=Membership.Status.ACTIVE,
        role__in=(Membership.Role.OWNER, Membership.Role.ADMIN),
    ).exists()


def _require_room_manager(actor: Any, room: Room) -> None:
    if not user_manages_room(actor, room):
        raise TableError("only the club's owner or admins may do this", code="not_manager")


def _log_on_room(room: Room, actor: Any, message: str) -> None:
    """Record a manager's intervention in the room's admin history (who, when, why).

    The admin log is the audit trail club managers and staff already read (the room's "history"
    page); it needs no new table, so the record works for matches between rounds too.
    """
    from django.contrib.admin.models import CHANGE, LogEntry

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
        locked = _lock_room(room.pk)
        match = Match.objects.filter(room=locked, status=Match.Status.PLAYING).first()
        if match is None:
            raise TableError("no match is in play at this table", code="no_match")
        playing = _rounds_in_play(locked)
        _end_match(locked, reason=DISSOLVED)
        by = getattr(actor, "public_name", str(actor))
        for rnd in playing:
            _append_notice(rnd, {"kind": TABLE_DISSOLVED_EVENT, "reason": reason, "by": by})
        _log_on_room(locked, actor, f"网管解散 (match {match.pk}): {reason}")
        notify_room(locked.pk)
        match.refresh_from_db()
        return match

    return _with_retries(run)


def _rounds_in_play(room: Room) -> list[Round]:
    """The room's rounds in play, locked (a leave or a dissolution is about to void them)."""
    return list(
        Round.objects.select_for_update().filter(
            match__room=room, match__status=Match.Status.PLAYING, status=Round.Status.PLAYING
        )
    )


def _name(seat: Seat) -> str:
    return "🤖" if seat.is_bot or seat.user is None else str(seat.user.public_name)


def _append_notice(rnd: Round, payload: dict[str, Any]) -> None:
    """Append a public notice (``table_dissolved``, ``player_left``, ``player_removed``) to a
    voided round's log, the same for every viewer."""
    rnd.refresh_from_db(fields=["last_seq"])
    seq = rnd.last_seq + 1
    RoundEvent.objects.create(
        round=rnd,
        seq=seq,
        kind=payload["kind"],
        payload=payload,
        views={gameplay.viewer_key(s): payload for s in (0, 1, 2, 3, None)},
    )
    Round.objects.filter(pk=rnd.pk).update(last_seq=seq)


def seat_remove(*, room: Room, actor: Any, index: int, reason: str = "") -> None:
    """A club manager removes whoever sits at seat ``index`` (a player or a bot).

    As with a player who leaves (spec README, item 1), a match in play ends: its round is voided
    (no payments) and the match ends with ``end_reason = "player_removed"``.
    """
    _require_room_manager(actor, room)

    def run() -> None:
        locked = _lock_room(room.pk)
        seat = Seat.objects.filter(room=locked, index=index).select_related("user").first()
        if seat is None:
            raise TableError("nobody sits there", code="seat_empty")
        who = "bot" if seat.is_bot else str(seat.user)
        _stand_up(locked, seat, reason=PLAYER_REMOVED)
        _log_on_room(locked, actor, f"removed {who} from seat {index}: {reason}".strip(": "))

    _with_retries(run)


def room_close(*, room: Room, actor: Any) -> Room:
    """关闭房间: a manager closes a room; everyone stands up and nobody may sit down again.

    A room with a match in play is refused (``match_in_play``): dissolve the table first, so that
    voiding a round is always a deliberate act with a reason.
    """
    _require_room_manager(actor, room)

    def run() -> Room:
        locked = _lock_room(room.pk)
        if Match.objects.filter(room=locked, status=Match.Status.PLAYING).exists():
            raise TableError("a match is in play: dissolve the table first", code="match_in_play")
        Seat.objects.filter(room=locked).delete()
        locked.status = Room.Status.CLOSED
        locked.save(update_fields=["status"])
        _log_on_room(locked, actor, "closed the room")
        notify_room(locked.pk)
        return locked

    return _with_retries(run)


def room_reopen(*, room: Room, actor: Any) -> Room:
    """Open a closed room again (a manager's undo of :func:`room_close`)."""
    _require_room_manager(actor, room)

    def run() -> Room:
        locked = _lock_room(room.pk)
        if locked.status != Room.Status.CLOSED:
            raise TableError("the room is not closed", code="not_closed")
        locked.status = Room.Status.OPEN
        locked.save(update_fields=["status"])
        _log_on_room(locked, actor, "reopened the room")
        notify_room(locked.pk)
        return locked

    return _with_retries(run)
