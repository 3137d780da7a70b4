"""How a round is stored and read back: the row lock, the round row, its events, its state.

The database is the truth. A round row holds the engine's state after ``version`` actions, and
the seed, dealer and action list it can be replayed from; its events are appended with
consecutive ``seq`` (each stored with its redaction for every viewer). Nothing here decides a
rule or sends anything: :mod:`tables.game.commands` decides, :mod:`tables.notify` sends.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.utils import timezone

from tables import gameplay
from tables.errors import VersionConflict
from tables.models import Match, Room, Round, RoundEvent, Seat


def lock_round(round_id: int) -> Round:
    """The round row, locked for this transaction.

    The row lock serialises every writer of this round: two browsers claiming the same discard
    (win vs pong) are applied one after the other, each on the state the other left, and the
    engine's claim window then picks the winner by priority, never by arrival order.
    ``of=("self",)``: lock the round row only, not the match and room rows it is read with
    (seats and connections of the room change under the room's own lock meanwhile).
    """
    return (
        Round.objects.select_for_update(of=("self",)).select_related("match__room").get(pk=round_id)
    )


def seats_by_index(room: Room) -> dict[int, Seat]:
    return {seat.index: seat for seat in Seat.objects.filter(room=room)}


def match_setup(match: Match, *, before_number: int, dealer: int) -> gameplay.RoundSetup | None:
    """The round wind and 連莊 count of round ``before_number`` of a match played in wind rounds
    (Taiwan 16), from the dealers of its earlier rounds; None for the other variants (their
    rounds are dealt exactly as before: 东, no count)."""
    if not gameplay.has_wind_rounds(match.variant):
        return None
    rounds = list(match.rounds.filter(number__lt=before_number).order_by("number"))
    first = rounds[0].dealer if rounds else dealer
    pairs = [(r.dealer, int(r.result["next_dealer"]) if r.result else r.dealer) for r in rounds]
    return gameplay.round_setup(match.variant, first, pairs)


def round_setup_of(rnd: Round) -> gameplay.RoundSetup | None:
    """The round wind and 連莊 count ``rnd`` was dealt with (Taiwan 16), for anyone replaying it
    from its seed (the settlement, the replay page); None for the other variants."""
    return match_setup(rnd.match, before_number=rnd.number, dealer=rnd.dealer)


def record(
    rnd: Round,
    room: Room,
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


def write_round(rnd: Round, *, old_version: int) -> None:
    """Write the round row's new facts if it is still at ``old_version`` (a compare-and-set,
    which also guards SQLite where the row lock is a no-op); :class:`VersionConflict` if not."""
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


def store_events(
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


def append_notice(rnd: Round, payload: dict[str, Any]) -> None:
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
        setup=match_setup(match, before_number=rnd.number, dealer=rnd.dealer),
    )
