"""Every change to a round in play: a player's move, a timeout, a bot / 托管 move, a deal.

A player's move enters through :func:`round_apply_action`; a timeout (:func:`round_timeout`) or a
bot / 托管 move (:func:`round_autoplay`) enters through its own function with its own idempotence
check, and all three then share the same two steps: :func:`tables.game.store.lock_round`
(``select_for_update`` on the round row) and :func:`_commit_steps` (legal actions applied by the
engine, a ``version`` compare-and-set write, the events appended with consecutive ``seq``, the
transaction retried on conflict by :func:`tables.notify.transact`). Notifications to the browsers
and the tasks are sent only after the commit (:mod:`tables.notify`): nobody ever hears of a move
that was rolled back.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from rules.engine import RoundState
from rules.engine.actions import Action
from rules.engine.events import Event
from tables import bots, gameplay, selectors
from tables.errors import VersionConflict
from tables.game import store
from tables.models import ActionRecord, Match, Room, Round, Seat
from tables.notify import enqueue_after_commit, notify_room, transact
from tables.selectors import Frame
from tables.signals import round_finished

AUTO_PLAY_AFTER_TIMEOUTS = 2
"""Timeouts in a row after which a seat goes into 托管."""
AUTO_PLAY_DELAY_S = 1.0
"""How long a bot or a 托管 seat "thinks": enough for the others to see the move happen."""
NEXT_ROUND_AFTER_S = 20
"""The settlement pause: the next round of a match is dealt this long after the last one ended
(or as soon as all four press ready)."""


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


@dataclass
class _Step:
    seat: int
    action: Action
    source: str  # "player", "timeout" or "auto"
    client_action_id: str = ""


@dataclass
class _Progress:
    """What a write has done so far: the state, the events, the actions, and where the events
    are cut into the frames the viewers are shown (``stages``: the state after each cut and the
    number of events up to it; see :func:`tables.selectors.round_update`)."""

    state: RoundState
    events: list[Event] = field(default_factory=list)
    actions: list[dict[str, Any]] = field(default_factory=list)
    stages: list[tuple[RoundState, int]] = field(default_factory=list)
    actors: set[int] = field(default_factory=set)
    ends: list[int] = field(default_factory=list)  # the number of events after each step
    kongs: list[list[dict[str, Any]]] = field(default_factory=list)  # each step's kong payments


Chooser = Callable[[RoundState, int], Action]


# --- dealing ----------------------------------------------------------------------------------


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
    makes browser tests reproducible. A match with a ``wall_seed`` (a tournament round with
    duplicate walls) deals hand ``number`` from :func:`hand_seed`: every table of the
    round plays the same walls.
    """
    room = match.room
    if seed is None and match.wall_seed:
        seed = hand_seed(match.wall_seed, number)
    if seed is None:
        fixed = getattr(settings, "TABLES_FIXED_SEED", None) if settings.TESTING else None
        seed = bytes.fromhex(fixed) if isinstance(fixed, str) else secrets.token_bytes(32)
    if setup is None:
        setup = store.match_setup(match, before_number=number, dealer=dealer)
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
        state=gameplay.dump_state(state),
        state_actions=0,
        action_count=0,
    )
    seats = store.seats_by_index(room)
    store.record(rnd, room, state, events, previous=None)
    rnd.save()
    store.store_events(rnd, events, first_seq=1)
    store.cache_after_commit(rnd, state)
    notify_room(room.pk, round_update=_round_start_builder(rnd, state, seats))
    _schedule_after_commit(rnd, seats, state)
    return rnd


def hand_seed(wall_seed: str, number: int) -> bytes:
    """The seed of hand ``number`` of a match dealt from ``wall_seed`` (duplicate walls):
    ``HMAC-SHA256(key=wall_seed, msg="hand:<number>")``, so each hand has its own wall and the
    same hand number has the same wall at every table. A secret like any round's seed: the round
    reveals only its own seed when it ends, never the key."""
    return hmac.new(bytes.fromhex(wall_seed), f"hand:{number}".encode(), hashlib.sha256).digest()


# --- moves ----------------------------------------------------------------------------------


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
        read = store.read_for_move(round_id, seat=seat, client_action_id=client_action_id)
        if read.earlier is not None:
            return ActionOutcome.from_json(read.earlier, duplicate=True)
        rnd = read.rnd
        checked = _check_move(
            rnd, read.seats, seat, action_json, expected_version, user_id, room_id
        )
        if isinstance(checked, ActionOutcome):
            _record_refusal(rnd, seat, client_action_id, action_json, checked)
            return checked
        state, action = checked
        return _do_move(rnd, read.seats, seat, client_action_id, state, action)

    return transact(run)


def _record_refusal(
    rnd: Round, seat: int, client_action_id: str, action_json: object, outcome: ActionOutcome
) -> None:
    """Keep a refusal for a retry of the same client action id. The same id refused at the same
    moment by another transaction (whose record our read could not see yet) makes the unique
    constraint fail: the decision is made again, and then answered from that record."""
    try:
        with transaction.atomic():
            ActionRecord.objects.create(
                round=rnd,
                seat=seat,
                client_action_id=client_action_id,
                action=action_json if isinstance(action_json, dict) else {"raw": repr(action_json)},
                outcome=outcome.to_json(),
            )
    except IntegrityError as exc:
        raise VersionConflict(f"{client_action_id} was answered meanwhile") from exc


def _refuse(rnd: Round, code: str, message: str) -> ActionOutcome:
    return ActionOutcome(
        ok=False, version=rnd.decision_version, seq=rnd.last_seq, code=code, message=message
    )


def _check_move(
    rnd: Round,
    seats: Mapping[int, Seat],
    seat: int,
    action_json: object,
    expected_version: int | None,
    user_id: int | None,
    room_id: int | None,
) -> ActionOutcome | tuple[RoundState, Action]:
    """The check half of a move, which changes nothing: the refusal to record and answer, or
    the current state and the parsed action, legal in it, for :func:`_do_move`."""
    if rnd.status != Round.Status.PLAYING:
        return _refuse(rnd, "round_over", "the round is over")
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
    state = store.load_state(rnd)
    if action not in gameplay.legal_actions(state, seat):
        return _refuse(rnd, "illegal", gameplay.why_illegal(state, action))
    return state, action


def _do_move(
    rnd: Round,
    seats: Mapping[int, Seat],
    seat: int,
    client_action_id: str,
    state: RoundState,
    action: Action,
) -> ActionOutcome:
    """The do half: apply the checked action, write it and answer it (from the log, should the
    same client action id come again)."""
    progress = _Progress(state=state)
    steps = [_Step(seat, action, "player", client_action_id)]
    _apply_steps(steps, progress)
    _commit_steps(rnd, state, steps, progress, seats=seats)
    return ActionOutcome(ok=True, version=rnd.decision_version, seq=rnd.last_seq)


def round_timeout(*, round_id: int, decision_version: int, now: datetime | None = None) -> bool:
    """The clock of a decision ran out: every seat still to decide gets its default action.

    Idempotent: does nothing unless the round is still in play at the same decision and its
    deadline has passed (a late or duplicated task, or the sweeper racing the task, is harmless).
    """

    def run() -> bool:
        rnd = store.lock_round(round_id)
        moment = now or timezone.now()
        if rnd.status != Round.Status.PLAYING or rnd.decision_version != decision_version:
            return False
        if rnd.deadline is None or rnd.deadline > moment:
            return False
        state = store.load_state(rnd)
        progress = _Progress(state=state)
        choosers = {s: (gameplay.default_action, "timeout") for s in gameplay.deciders(state)}
        steps = _play_for(choosers, progress)
        if not steps:
            return False
        _commit_steps(rnd, state, steps, progress)
        return True

    return transact(run)


def round_autoplay(*, round_id: int, version: int) -> bool:
    """Bots and 托管 seats that must decide at ``version`` act now (idempotent like timeouts)."""

    def run() -> bool:
        rnd = store.lock_round(round_id)
        if rnd.status != Round.Status.PLAYING or rnd.version != version:
            return False
        seats = store.seats_by_index(rnd.match.room)
        state = store.load_state(rnd)
        choosers: dict[int, tuple[Chooser, str]] = {}
        for s in gameplay.deciders(state):
            seat = seats.get(s)
            if seat is not None and seat.is_bot:
                level = seat.bot_level or rnd.match.room.bot_level
                choosers[s] = (partial(bots.choose_action, level=level), "auto")
            elif seat is not None and seat.auto_play:
                # 托管 plays at the room's bot level; it too takes every legal win.
                level = rnd.match.room.bot_level
                choosers[s] = (partial(bots.choose_action, level=level), "auto")
        progress = _Progress(state=state)
        steps = _play_for(choosers, progress)
        if not steps:
            return False
        _commit_steps(rnd, state, steps, progress, seats=seats)
        return True

    return transact(run)


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


def _play_for(choosers: Mapping[int, tuple[Chooser, str]], progress: _Progress) -> list[_Step]:
    """Let each seat in ``choosers`` that still has to decide act, one after the other, each on
    the state the previous one left (the first answer may close a claim window for the rest)."""
    steps: list[_Step] = []
    for seat, (choose, source) in choosers.items():
        if seat not in gameplay.deciders(progress.state):
            continue
        step = _Step(seat=seat, action=choose(progress.state, seat), source=source)
        _apply_steps([step], progress)
        steps.append(step)
    return steps


def _apply_steps(steps: list[_Step], progress: _Progress) -> None:
    for step in steps:
        before, first = progress.state, len(progress.events)
        for stage, events in gameplay.apply_staged(progress.state, step.action):
            progress.events.extend(events)
            progress.stages.append((stage, len(progress.events)))
            progress.state = stage
        progress.actions.append(gameplay.action_json(step.action))
        progress.actors.add(step.seat)
        progress.ends.append(len(progress.events))
        made = progress.events[first:]
        progress.kongs.append(gameplay.kong_payments(before, progress.state, made))


# --- the write and what follows it ------------------------------------------------------------


def _commit_steps(
    rnd: Round,
    start: RoundState,
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
        seats = store.seats_by_index(room)
    old_version, old_count, first_seq = rnd.version, rnd.action_count, rnd.last_seq + 1
    store.record(rnd, room, progress.state, progress.events, previous=start)
    rnd.action_count = old_count + len(steps)
    snapshot = None
    if (
        rnd.status == Round.Status.ENDED
        or rnd.action_count - rnd.state_actions >= store.SNAPSHOT_EVERY
    ):
        snapshot = gameplay.dump_state(progress.state)
        rnd.state_actions = rnd.action_count
    events = store.event_rows(progress.events, first_seq=first_seq)
    logged = [
        store.LoggedAction(
            seat=step.seat,
            source=step.source,
            action=action,
            client_action_id=step.client_action_id,
            last_seq=first_seq - 1 + end,
            kong_payments=kongs,
        )
        for step, action, end, kongs in zip(
            steps, progress.actions, progress.ends, progress.kongs, strict=True
        )
    ]
    store.write_move(
        rnd,
        old_version=old_version,
        old_count=old_count,
        actions=logged,
        events=events,
        snapshot=snapshot,
    )
    rows = [(seq, views) for seq, _kind, _payload, views in events]
    seats_changed = _update_seat_clocks(seats, steps)
    store.cache_after_commit(rnd, progress.state)
    ended = rnd.status == Round.Status.ENDED
    if rows or seats_changed or ended or progress.actors:
        # A pass that leaves a claim window open changes no event: only its seat is told (its
        # own decision), nobody else hears of it.
        notify_room(
            room.pk,
            table=seats_changed or ended,
            round_update=_round_update_builder(rnd, progress, rows, seats, first_seq - 1),
        )
    if ended:
        _after_round(rnd, room)
    else:
        _schedule_after_commit(rnd, seats, progress.state)


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
    rnd: Round, state: RoundState, seats: Mapping[int, Seat]
) -> Callable[[], dict[str, Any]]:
    """A new round's per-viewer snapshots, built after the commit from values fixed now."""
    fixed, seat_users = copy.copy(rnd), _seat_users(seats)
    return lambda: selectors.round_start_update(fixed, state, seat_users=seat_users)


def _update_seat_clocks(seats: Mapping[int, Seat], steps: list[_Step]) -> bool:
    """Count timeouts in a row (托管 after :data:`AUTO_PLAY_AFTER_TIMEOUTS`); True when a seat
    went into 托管 (the ``table`` message shows it).

    Conditional ``UPDATE``s on the current row, never a save of the copy read earlier: the seat
    row is not locked by the round's transaction, and a player's "I'm back"
    (:func:`tables.rooms.seat_back`) committed meanwhile must not be overwritten by a stale
    ``auto_play``."""
    auto_play_changed = False
    for step in steps:
        seat = seats.get(step.seat)
        if seat is None or seat.is_bot:
            continue
        rows = Seat.objects.filter(pk=seat.pk)
        if step.source == "player":
            # Only after a timeout (the seat was read in this transaction): a move costs no
            # statement for a counter that is already 0.
            if seat.consecutive_timeouts > 0:
                rows.filter(consecutive_timeouts__gt=0).update(consecutive_timeouts=0)
        elif step.source == "timeout":
            rows.update(consecutive_timeouts=F("consecutive_timeouts") + 1)
            into_auto = rows.filter(
                consecutive_timeouts__gte=AUTO_PLAY_AFTER_TIMEOUTS, auto_play=False
            ).update(auto_play=True)
            auto_play_changed = auto_play_changed or bool(into_auto)
    return auto_play_changed


def _schedule_after_commit(rnd: Round, seats: Mapping[int, Seat], state: RoundState) -> None:
    """After the commit: a quick auto-play task when a bot or a 托管 seat must act.

    A decision's clock needs no task of its own: the clock (config/clock.py) runs
    :func:`sweep_deadlines` every second and times out every decision whose ``deadline`` has
    passed (the index on ``(status, deadline)`` makes that one cheap query). A task per decision
    would cost every move a message to the broker and the Celery worker a held ETA task, almost
    always for nothing. A lost auto-play task is repaired by the decision's deadline.
    """
    if rnd.status != Round.Status.PLAYING:
        return
    deciders = gameplay.deciders(state)
    if not any(s in seats and (seats[s].is_bot or seats[s].auto_play) for s in deciders):
        return
    enqueue_after_commit(
        "tables.round_autoplay", (rnd.pk, rnd.version), countdown=AUTO_PLAY_DELAY_S
    )


def _after_round(rnd: Round, room: Room) -> None:
    """A round ended: the next one is dealt after the settlement pause (or when all four press
    ready; a lost task is repaired by the clock's sweep); ``round_finished`` is sent after the
    commit for the settlement ledgers."""
    Seat.objects.filter(room=room, is_bot=False).update(ready=False)
    transaction.on_commit(lambda: round_finished.send(sender=Round, round=rnd))
    match = rnd.match
    if match_hands_done(match, rnd):
        # A tournament table has played its hands or its wind round: the match ends
        # now, not after the settlement pause, and the event's clock sweep sees it finished.
        match_end_at_limit(match, room)
        return
    enqueue_after_commit(
        "tables.match_next_round", (rnd.match_id, rnd.number), countdown=NEXT_ROUND_AFTER_S
    )


HANDS_LIMIT_REASON = "hands_limit"
"""``Match.end_reason`` of a match that played its ``hands_limit`` hands (a tournament table)."""
WIND_ROUND_LAST_DEALER = 3
"""Seat 3 (North) deals last in a wind round: a tournament table is seated E, S, W, N and seat 0
deals first."""
WIND_ROUND_MAX_HANDS = 16
"""The safety bound of a wind-round match (``Match.hands_limit``): it ends after this many hands
even if the wind round is not over, so a long run of 连庄 cannot hold the event's round up. Four
dealers with three 连庄 each on average fit in it."""


def wind_round_over(rnd: Round) -> bool:
    """Whether the ended ``rnd`` ends its wind round (一圈): its dealer was the last seat and the
    deal leaves it (the next dealer is another seat): an event's "round = N hands or a wind
    round"; only variants whose deal passes in seat order play one
    (:func:`tables.gameplay.deal_passes_in_seat_order`)."""
    if rnd.dealer != WIND_ROUND_LAST_DEALER:
        return False
    following = int(rnd.result["next_dealer"]) if rnd.result else rnd.dealer
    return following != WIND_ROUND_LAST_DEALER


def match_hands_done(match: Match, last: Round) -> bool:
    """Whether ``match`` (a tournament table) is over after its ended round ``last``: its
    ``hands_limit`` is reached (the event's hands per round, a wind round's safety bound, or the
    round clock's lowered limit), or it is a wind-round match and ``last`` ends the wind round.
    False for an ordinary room's match (no limit, no wind round)."""
    if match.hands_limit is not None and last.number >= match.hands_limit:
        return True
    return match.wind_round and wind_round_over(last)


def match_end_at_limit(match: Match, room: Room) -> None:
    """End ``match`` (its last round has ended) because it has played its hands.
    Idempotent: a finished match is left alone."""
    updated = Match.objects.filter(pk=match.pk, status=Match.Status.PLAYING).update(
        status=Match.Status.FINISHED, ended_at=timezone.now(), end_reason=HANDS_LIMIT_REASON
    )
    if updated:
        # Only the match row: the room row is not locked by a move, and a move must not wait
        # for it (a seat change holds the room, then the round). No new match starts at a
        # table of an event (:func:`tables.matches.start_if_ready`); the event closes the room.
        match.status = Match.Status.FINISHED
        match.end_reason = HANDS_LIMIT_REASON
        notify_room(room.pk)
