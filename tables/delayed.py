"""Spectating with a delay ("Spectating an event table with a delay … with every hand
visible to spectators after the delay only; live spectators of ordinary rooms keep today's view").

A room with ``spectator_delay_s`` > 0 shows its spectators (never its seated players: the
consumer decides by the socket user's seat) the table as it was that many seconds ago, with every
hand open (:func:`rules.views.open_view`: what the four seats see together; the wall, the seed and
the salt stay hidden until the round's end is shown). Read only, from the database:

* **Which point.** The cutoff is now − delay. The round shown is the newest of the room's rounds
  (in the order the table shows them) with an event at or before the cutoff. In it, the point
  shown is the end of the last logged action all of whose events are at or before the cutoff
  (the deal when there is none): the state there is a real state of the round, replayed from the
  seed and the first actions of the log (THE replay, :func:`tables.game.store.replay_steps`). An
  action that made no event (a pass in a claim window still open, a 成麻 choice) is shown only
  once an action after it is, as nothing dates it. Events appended after the last action (the
  notice of a voided round) are shown when they are old enough.
* **What is sent.** The same messages as to any viewer: a ``snapshot`` (with ``delay_s``), then
  ``event`` messages chained by ``prev_seq`` and a ``decision`` (no actions, no deadline), each
  built from the point only. An event is shown as the seat it concerns sees it (its deal, draw,
  face-down discard, concealed kong: the stored redaction of that seat), else as a spectator
  sees it (:func:`rules.views.event_open`).
* **When.** The consumer looks every ``TABLES_DELAYED_TICK_MS`` (1 s) whether the point moved,
  through its own channel so that it is handled in order with the socket's other messages.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Max
from django.utils import timezone

from rules.engine import RoundState
from tables import gameplay, selectors
from tables.game import store
from tables.models import Round, RoundAction, RoundEvent


def clock() -> datetime:
    """Now (tests move it)."""
    return timezone.now()


@dataclass(frozen=True)
class Point:
    """Where a delayed spectator's table stands: round ``round``, shown up to event ``seq``
    after the first ``actions`` logged actions; ``status`` as it was then (``playing`` until
    the round's last event is shown)."""

    round: Round
    seq: int
    actions: int
    status: str


def delayed_point(*, room_id: int, delay_s: int, now: datetime | None = None) -> Point | None:
    """The point a spectator ``delay_s`` seconds behind sees (module docstring), or None when no
    round of the room is old enough."""
    cutoff = (now or clock()) - timedelta(seconds=delay_s)
    candidates = (
        Round.objects.filter(match__room_id=room_id, started_at__lte=cutoff)
        .order_by("-match_id", "-number")
        .select_related("match__room")[:2]
    )
    for rnd in candidates:
        seen = RoundEvent.objects.filter(
            round=rnd, seq__lte=rnd.last_seq, created_at__lte=cutoff
        ).aggregate(last=Max("seq"))["last"]
        if not seen:
            continue
        point = _point_in(rnd, seen)
        if point is not None:
            return point
    return None


def _point_in(rnd: Round, seen: int) -> Point | None:
    """The last action boundary of ``rnd`` at or before event ``seen`` (None: not even the
    deal is all shown yet)."""
    dealt = _deal_events(rnd)
    if seen < dealt:
        return None
    logged = RoundAction.objects.filter(round=rnd, n__lte=rnd.action_count).order_by("n")
    actions, shown, previous = 0, dealt, dealt
    for n, last_seq in logged.values_list("n", "last_seq"):
        if last_seq > seen:
            break
        if last_seq > previous:  # an action that made events, all of them old enough
            actions, shown = n, last_seq
        previous = last_seq
    if actions == rnd.action_count and rnd.status != Round.Status.PLAYING:
        shown = max(shown, seen)  # what was appended after the last action (a voided round)
    status = rnd.status if shown >= rnd.last_seq else Round.Status.PLAYING
    return Point(round=rnd, seq=shown, actions=actions, status=status)


def end_point(round_id: int) -> Point | None:
    """The end of a round that is over (None if it is still in play): where a delayed stream
    finishes a round before it shows the next one, which began after it ended (a round whose
    last events had not aged past the delay at one tick, and the next round's deal had at the
    next, would otherwise never be seen to end)."""
    rnd = Round.objects.select_related("match__room").filter(pk=round_id).first()
    if rnd is None or rnd.status == Round.Status.PLAYING:
        return None
    return Point(round=rnd, seq=rnd.last_seq, actions=rnd.action_count, status=rnd.status)


# A process-wide cache of replayed states by (round id, number of actions): the spectators of one
# table, and each tick of one spectator, ask for the same few points.
_CACHE_SIZE = 64
_cache: OrderedDict[tuple[int, int], RoundState] = OrderedDict()
_deals: OrderedDict[int, int] = OrderedDict()
_lock = threading.Lock()


def cache_clear() -> None:
    with _lock:
        _cache.clear()
        _deals.clear()


def _remember(key: tuple[int, int], state: RoundState, round_id: int, dealt: int) -> None:
    with _lock:
        _cache[key] = state
        _cache.move_to_end(key)
        _deals[round_id] = dealt
        _deals.move_to_end(round_id)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
        while len(_deals) > _CACHE_SIZE:
            _deals.popitem(last=False)


def _replayed(rnd: Round, actions: int) -> RoundState:
    """The state after the deal and the first ``actions`` logged actions: from the nearest
    earlier point of the round this process replayed (a delayed stream moves forward a few
    actions at a time), else from the seed."""
    with _lock:
        cached = _cache.get((rnd.pk, actions))
        earlier = max(
            (n for round_id, n in _cache if round_id == rnd.pk and 0 < n < actions), default=None
        )
        start = None if earlier is None else _cache[(rnd.pk, earlier)]
        dealt = _deals.get(rnd.pk)
    if cached is not None:
        return cached
    if actions == rnd.action_count and actions:
        return store.load_state(rnd)  # the round's own state (cached by the process)
    if earlier is not None and start is not None and dealt is not None:
        following = store.round_actions(rnd, after=earlier)[: actions - earlier]
        state = gameplay.replay_onto(start, following)
    else:
        steps = store.replay_steps(rnd, actions=store.round_actions(rnd)[:actions])
        state, dealt = steps[-1].state, len(steps[0].events)
    _remember((rnd.pk, actions), state, rnd.pk, dealt)
    return state


def _deal_events(rnd: Round) -> int:
    """How many events the deal made (the last ``seq`` before the first action's)."""
    with _lock:
        dealt = _deals.get(rnd.pk)
    if dealt is None:
        _replayed(rnd, 0)
        with _lock:
            dealt = _deals[rnd.pk]
    return dealt


def point_state(point: Point) -> RoundState:
    return _replayed(point.round, point.actions)


def open_payload(payload: Mapping[str, Any], views: Mapping[str, Any]) -> Any:
    """A stored event as a delayed spectator sees it (:func:`rules.views.event_open`): the
    redaction stored for the seat it concerns, else the spectator's."""
    seat = payload.get("seat")
    if payload.get("kind") == "claim_window" or seat not in (0, 1, 2, 3):
        return gameplay.stored_view(views, gameplay.SPECTATOR)
    shown = gameplay.stored_view(views, gameplay.viewer_key(seat))
    return shown if shown is not None else gameplay.stored_view(views, gameplay.SPECTATOR)


def delayed_events(point: Point, *, after_seq: int) -> list[tuple[int, Any]]:
    """``(seq, payload)`` of the events in ``(after_seq, point.seq]``, every hand open."""
    rows = RoundEvent.objects.filter(
        round=point.round, seq__gt=after_seq, seq__lte=point.seq
    ).order_by("seq")
    return [
        (seq, open_payload(payload, views))
        for seq, payload, views in rows.values_list("seq", "payload", "views")
    ]


def delayed_decision(point: Point, state: RoundState) -> dict[str, Any]:
    """``decision`` at the point: phase and whose turn, no actions, no deadline, every hand open
    in ``view``; ``version`` is the point's ``seq``."""
    decision = selectors.decision_message(point.round, state, None, token=point.seq, deadline=False)
    view = gameplay.open_view(state)
    view["version"] = point.seq
    decision["view"] = view
    decision["status"] = point.status
    return decision


def delayed_snapshot(point: Point, state: RoundState, *, delay_s: int) -> dict[str, Any]:
    """``snapshot`` of the point (:func:`tables.selectors.snapshot_message`'s fields): the seed and
    the result only once the round's end is shown."""
    rnd = point.round
    ended = point.status == Round.Status.ENDED
    return {
        "type": "snapshot",
        "round_id": rnd.pk,
        "match_id": rnd.match_id,
        "round_number": rnd.number,
        "status": point.status,
        "seq": point.seq,
        "version": point.seq,
        "seat": None,
        "commitment": rnd.commitment,
        "seed": rnd.seed if ended else None,
        "result": rnd.result if ended else None,
        "notice": (selectors.round_notice(rnd) if point.status == Round.Status.ABORTED else None),
        "delay_s": delay_s,
        "decision": delayed_decision(point, state),
    }
