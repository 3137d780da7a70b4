"""Matches of a room: started when four are ready, the next round dealt after the settlement
pause, ended when a player leaves, the table is dissolved, abandoned or (Taiwan 16) complete.

Every function here runs with the room row locked (:func:`lock_room`): seat changes and match
starts of one room are serialised on it.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from tables import presence
from tables.bot_names import seat_level
from tables.game import store
from tables.game.commands import (
    NEXT_ROUND_AFTER_S,
    match_end_at_limit,
    match_hands_done,
    round_start,
)
from tables.models import Match, Room, Round, Seat
from tables.notify import notify_room, transact

ABANDONED_REASON = "abandoned"
"""``Match.end_reason`` when no human player had the table open at the end of a settlement pause."""
MATCH_COMPLETE_REASON = "four_winds"
"""``Match.end_reason`` of a Taiwan 16 match whose four wind rounds (东南西北圈) are played."""


def lock_room(room_id: int) -> Room:
    """The room row, locked: two players taking the last seat, or the fourth "ready" arriving
    twice, must not both win."""
    return Room.objects.select_for_update().get(pk=room_id)


def rounds_in_play(room: Room) -> list[Round]:
    """The room's rounds in play, locked (a leave or a dissolution is about to void them)."""
    return list(
        Round.objects.select_for_update().filter(
            match__room=room, match__status=Match.Status.PLAYING, status=Round.Status.PLAYING
        )
    )


def start_if_ready(room: Room) -> Round | None:
    """Start a match, or its next round, when all four seats are ready (the room is locked).
    A closed room starts nothing, nor does a tournament's table."""
    if room.status == Room.Status.CLOSED:
        return None
    if Match.objects.filter(room=room, hands_limit__isnull=False).exists():
        return None  # a tournament's table plays the one match the event started there
    seats = store.seats_by_index(room)
    if len(seats) < 4 or not all(seat.ready for seat in seats.values()):
        return None
    match = Match.objects.filter(room=room, status=Match.Status.PLAYING).first()
    if match is None:
        match = Match.objects.create(
            room=room,
            variant=room.variant,
            options=room.options,
            players=[seats[i].user_id for i in range(4)],
            bot_levels=[seat_level(seats[i], room.bot_level) for i in range(4)],
            practice=room.practice,
        )
    return _deal_next(room, match)


def match_start_seated(
    *, room: Room, hands_limit: int, wind_round: bool = False, wall_seed: str = ""
) -> Round | None:
    """Start a match of ``hands_limit`` hands at the locked ``room`` whose four seats were
    filled by a tournament: seat 0 (East) deals first; with ``wind_round`` it also
    ends with its wind round (一圈, ``hands_limit`` then being its safety bound); with
    ``wall_seed`` every hand is dealt from it (duplicate walls). None if a match is already in
    play there (idempotent)."""
    if Match.objects.filter(room=room, status=Match.Status.PLAYING).exists():
        return None
    seats = store.seats_by_index(room)
    match = Match.objects.create(
        room=room,
        variant=room.variant,
        options=room.options,
        players=[seats[i].user_id for i in range(4)],
        bot_levels=[seat_level(seats[i], room.bot_level) for i in range(4)],
        hands_limit=hands_limit,
        wind_round=wind_round,
        wall_seed=wall_seed,
    )
    return _deal_next(room, match)


def match_finish_after_hand(*, match_id: int) -> bool:
    """The round clock ran out: the match ends when its hand in play ends, or now if
    it is between hands. Locks the hand in play first, so the move that ends it sees the new
    limit. Idempotent; True if the match is (or will be) over."""

    def run() -> bool:
        match = Match.objects.filter(pk=match_id).select_related("room").first()
        if match is None:
            return False
        room = lock_room(match.room_id)
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            return True
        last = Round.objects.select_for_update().filter(match=match).order_by("-number").first()
        number = last.number if last is not None else 0
        Match.objects.filter(pk=match.pk).update(hands_limit=number)
        match.hands_limit = number
        if last is None or last.status != Round.Status.PLAYING:
            match_end_at_limit(match, room)
        return True

    return transact(run)


def end_match(room: Room, *, reason: str) -> None:
    """End the room's match in play (its round in play is voided: ``aborted``, never settled)."""
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


def _deal_next(room: Room, match: Match) -> Round | None:
    """Deal the match's next round (the first one, or the one after an ended round)."""
    last = match.rounds.order_by("-number").first()
    if last is not None and last.status != Round.Status.ENDED:
        return None
    if last is None:
        # The first dealer of a table is drawn at random (spec README, item 1); seat 0 deals
        # first under the test-only fixed seed.
        fixed = settings.TESTING and getattr(settings, "TABLES_FIXED_SEED", None)
        # A tournament table (a match of fixed length) was seated East, South, West, North:
        # East deals first, which also makes duplicate walls deal alike.
        seated = match.hands_limit is not None
        dealer, number = (0 if fixed or seated else secrets.randbelow(4)), 1
    else:
        dealer = int(last.result["next_dealer"]) if last.result else last.dealer
        number = last.number + 1
    setup = store.match_setup(match, before_number=number, dealer=dealer)
    if setup is not None and setup.match_over:
        # Taiwan 16: the four wind rounds (一將) are played; the match ends (taiwan16.md, *Play*).
        end_match(room, reason=MATCH_COMPLETE_REASON)
        return None
    Seat.objects.filter(room=room, is_bot=False).update(ready=False)
    room.status = Room.Status.PLAYING
    room.save(update_fields=["status"])
    return round_start(match=match, number=number, dealer=dealer, seed=None, setup=setup)


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
        room = lock_room(match.room_id)
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING or len(store.seats_by_index(room)) < 4:
            return None
        last = match.rounds.order_by("-number").first()
        if last is None or last.number != after_number or last.status != Round.Status.ENDED:
            return None
        pause = timedelta(seconds=NEXT_ROUND_AFTER_S - 1)
        if last.ended_at is not None and last.ended_at + pause > moment:
            return None
        if match_hands_done(match, last):
            # A tournament table that has played its hands (or its wind round): normally ended
            # with its last hand; here when the round clock lowered the limit as that hand was
            # ending.
            match_end_at_limit(match, room)
            return None
        humans = Seat.objects.filter(room=room, is_bot=False).values_list("user_id", flat=True)
        if match.hands_limit is None and presence.users_online(room.pk, humans) == set():
            # None: Redis cannot say. A tournament table is never abandoned: its absent
            # players are played by 托管 until its hands are done.
            end_match(room, reason=ABANDONED_REASON)
            notify_room(room.pk)
            return None
        return _deal_next(room, match)

    return transact(run)


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
