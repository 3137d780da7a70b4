"""How a round is stored and read back: the row lock, the round row, its events, its state.

The database is the truth, and of a round the truth is its seed, dealer and **action log**
(:class:`tables.models.RoundAction`, append-only). Its events are appended with consecutive
``seq`` (each stored with its redaction for every viewer). The round row holds the counters a
writer compares and sets (``version``, ``last_seq``, ``action_count``, the decision and its
deadline) and, as a cache, an engine snapshot written at the deal, every
:data:`SNAPSHOT_EVERY` actions and at the end; committed states are also cached in the process.

One move is two SQL statements on PostgreSQL (:func:`read_for_move`: the locked round with its
match, room, seats and any earlier answer to the same client action id; :func:`write_move`: the
compare-and-set ``UPDATE`` of the round, the log rows and the events in one statement). Nothing
here decides a rule or sends anything: :mod:`tables.game.commands` decides, :mod:`tables.notify`
sends.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, TypeVar

from django.db import connection, transaction
from django.db.models import Field, JSONField, Model
from django.utils import timezone

from rules.engine import RoundState
from rules.engine.events import Event
from tables import gameplay
from tables.errors import VersionConflict
from tables.models import ActionRecord, Match, Room, Round, RoundAction, RoundEvent, Seat


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


_M = TypeVar("_M", bound=Model)


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
    from its seed (:func:`replay_steps`); None for the other variants."""
    return match_setup(rnd.match, before_number=rnd.number, dealer=rnd.dealer)


def record(
    rnd: Round,
    room: Room,
    state: RoundState,
    events: list[Event],
    *,
    previous: RoundState | None,
) -> None:
    """Copy the new state's facts onto the round row (not saved here)."""
    rnd.version = state.version
    rnd.last_seq = rnd.last_seq + len(events)
    if gameplay.is_ended(state):
        rnd.status = Round.Status.ENDED
        rnd.result = gameplay.result_json(state)
        rnd.deadline = None
        rnd.ended_at = timezone.now()
        return
    if previous is None or gameplay.decision_key(previous) != gameplay.decision_key(state):
        # The decision's token is the number of the last event before it, not the state's
        # version: versions count every pass in a claim window and would tell the others how
        # many seats were asked; events are the same for every viewer.
        rnd.decision_version = rnd.last_seq
        # A turn and a secret choice of every seat (成麻 定缺) get the turn's time.
        slow = gameplay.phase_kind(state) in ("turn", "choice")
        timeout = room.turn_timeout_s if slow else room.claim_timeout_s
        rnd.deadline = timezone.now() + timedelta(seconds=timeout)


def event_rows(events: Iterable[Event], *, first_seq: int) -> list[EventRow]:
    """The engine's events numbered from ``first_seq``, each with its full payload and its
    redaction for every viewer (:func:`tables.gameplay.event_views`)."""
    return [
        (first_seq + i, str(event.kind), gameplay.event_json(event), gameplay.event_views(event))
        for i, event in enumerate(events)
    ]


def store_events(rnd: Round, events: Iterable[Event], *, first_seq: int) -> None:
    """Append the engine's events with consecutive ``seq`` (a deal's; a move's go with
    :func:`write_move`)."""
    store_event_rows(rnd, event_rows(events, first_seq=first_seq))


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
        views=gameplay.views_to_store({gameplay.SPECTATOR: payload}),
    )
    Round.objects.filter(pk=rnd.pk).update(last_seq=seq)


SNAPSHOT_EVERY = 16
"""Actions between two engine snapshots on the round row: loading a state the process has not
cached replays at most this many logged actions; writing the snapshot (a few kB) on every move
was most of a move's bytes."""


# --- reading --------------------------------------------------------------------------------


@dataclass
class MoveContext:
    """What a move reads, in one statement on PostgreSQL: the locked round (with its match and
    room), the room's seats by index, and the outcome already given to this client action id
    (``None`` if it is new)."""

    rnd: Round
    seats: dict[int, Seat]
    earlier: dict[str, Any] | None


def _fields(model: type[Model], *, leave_out: tuple[str, ...] = ()) -> tuple[Field[Any, Any], ...]:
    """The model's columns in its field order, which is the order ``from_db`` takes values in
    (an abstract base, like ``TableSettings``, puts its fields first)."""
    return tuple(f for f in model._meta.concrete_fields if f.attname not in leave_out)


_ROUND_FIELDS = _fields(Round, leave_out=("state",))
"""Every column of the round but its engine snapshot (a few kB, which :func:`load_state` reads
only when the process has not cached the state); the match, room and seat rows are read whole,
so that a move fetches nothing of them again."""
_MATCH_FIELDS = _fields(Match)
_ROOM_FIELDS = _fields(Room)
_SEAT_FIELDS = _fields(Seat)


def _select(alias: str, fields: tuple[Field[Any, Any], ...]) -> str:
    return ", ".join(f'{alias}."{f.column}"' for f in fields)


def read_for_move(round_id: int, *, seat: int, client_action_id: str) -> MoveContext:
    """The round, locked (:func:`lock_round`), its seats, and any earlier outcome of
    ``client_action_id`` from ``seat`` (accepted: from the log; refused: ``ActionRecord``)."""
    if connection.vendor != "postgresql":
        rnd = lock_round(round_id)
        earlier = (
            RoundAction.objects.filter(round=rnd, seat=seat, client_action_id=client_action_id)
            .values_list("decision", "last_seq")
            .first()
        )
        if earlier is not None:
            return MoveContext(rnd, {}, _accepted(*earlier))
        refused = (
            ActionRecord.objects.filter(round=rnd, seat=seat, client_action_id=client_action_id)
            .values_list("outcome", flat=True)
            .first()
        )
        return MoveContext(rnd, seats_by_index(rnd.match.room), refused)
    return _read_for_move_pg(round_id, seat=seat, client_action_id=client_action_id)


def _accepted(decision: int, last_seq: int) -> dict[str, Any]:
    return {"ok": True, "version": decision, "seq": last_seq}


_PG_READ = f"""
SELECT {_select("r", _ROUND_FIELDS)},
       {_select("m", _MATCH_FIELDS)},
       {_select("rm", _ROOM_FIELDS)},
       (SELECT json_agg(json_build_array({_select("s", _SEAT_FIELDS)}))
          FROM tables_seat s WHERE s.room_id = m.room_id),
       (SELECT json_build_array(a.decision, a.last_seq) FROM tables_roundaction a
         WHERE a.round_id = r.id AND a.seat = %(seat)s AND a.client_action_id = %(cid)s),
       (SELECT ar.outcome FROM tables_actionrecord ar
         WHERE ar.round_id = r.id AND ar.seat = %(seat)s AND ar.client_action_id = %(cid)s
         LIMIT 1),
       (SELECT coalesce(max(a.n), 0) FROM tables_roundaction a WHERE a.round_id = r.id)
  FROM tables_round r
  JOIN tables_match m ON m.id = r.match_id
  JOIN tables_room rm ON rm.id = m.room_id
 WHERE r.id = %(round)s
   FOR UPDATE OF r
"""
_ACTION_COUNT_AT = [f.attname for f in _ROUND_FIELDS].index("action_count")


def _read_for_move_pg(round_id: int, *, seat: int, client_action_id: str) -> MoveContext:
    """One statement; a second one only after waiting for another writer's lock.

    Under READ COMMITTED a ``SELECT … FOR UPDATE`` that waited for another writer returns the
    round row as that writer committed it, but its subqueries still see the statement's older
    snapshot: the log's last number (``logged``) then lags the row's ``action_count``, and the
    read is made again (the lock is held now, so the new snapshot sees everything), else the
    same client action id, applied by the writer we waited for, would look new."""
    params: dict[str, int | str] = {"round": round_id, "seat": seat, "cid": client_action_id}
    with connection.cursor() as cursor:
        cursor.execute(_PG_READ, params)
        row = cursor.fetchone()
        if row is not None and row[-1] != row[_ACTION_COUNT_AT]:
            cursor.execute(_PG_READ, params)
            row = cursor.fetchone()
    if row is None:
        raise Round.DoesNotExist(f"round {round_id}")
    values = iter(row)
    rnd = _from_columns(Round, _ROUND_FIELDS, values)
    rnd.match = _from_columns(Match, _MATCH_FIELDS, values)
    rnd.match.room = _from_columns(Room, _ROOM_FIELDS, values)
    seat_rows, accepted, refused, _logged = values
    seats = {}
    for seat_values in _json(seat_rows) or []:
        made = _from_json_array(Seat, _SEAT_FIELDS, seat_values)
        seats[made.index] = made
    accepted, refused = _json(accepted), _json(refused)
    earlier = _accepted(*accepted) if accepted is not None else refused
    return MoveContext(rnd, seats, earlier)


def _from_columns(
    model: type[_M], fields: tuple[Field[Any, Any], ...], values: Iterator[Any]
) -> _M:
    """An instance of the next ``len(fields)`` values of a raw row. The driver hands ``jsonb``
    columns over as text (Django decodes them in ``JSONField.from_db_value``): decoded here."""
    row = [next(values) for _ in fields]
    decoded = [
        _json(value) if isinstance(field, JSONField) else value
        for field, value in zip(fields, row, strict=True)
    ]
    return model.from_db(connection.alias, [f.attname for f in fields], decoded)


def _from_json_array(model: type[_M], fields: tuple[Field[Any, Any], ...], values: list[Any]) -> _M:
    """An instance of a ``json_build_array`` of its columns: JSON values arrive decoded, the
    others as JSON writes them (a timestamp as ISO text), made Python values by the field."""
    decoded = [
        value if isinstance(field, JSONField) else field.to_python(value)
        for field, value in zip(fields, values, strict=True)
    ]
    return model.from_db(connection.alias, [f.attname for f in fields], decoded)


def _json(value: Any) -> Any:
    """A ``json``/``jsonb`` value of a raw query: decoded once whatever the driver's loader."""
    return json.loads(value) if isinstance(value, str | bytes) else value


def round_actions(rnd: Round, *, after: int = 0) -> list[dict[str, Any]]:
    """The round's logged actions after the first ``after`` and up to the row's
    ``action_count``, in order. The bound keeps a read without the round's lock (a resync, a
    page) at the version of the row it read when a move commits in between: the log is
    append-only, so its first ``action_count`` actions are exactly that state."""
    rows = RoundAction.objects.filter(
        round_id=rnd.pk, n__gt=after, n__lte=rnd.action_count
    ).order_by("n")
    return [dict(action) for action in rows.values_list("action", flat=True)]


def round_kong_payments(rnd: Round) -> list[list[dict[str, Any]]]:
    """Each logged action's kong payments, in log order (the facts the ledger's kong lines are
    made of: ``scoring.services.settle_round``)."""
    rows = RoundAction.objects.filter(round_id=rnd.pk).order_by("n")
    return [list(made) for made in rows.values_list("kong_payments", flat=True)]


def load_state(rnd: Round) -> RoundState:
    """The engine state of a round at its stored version: cached in the process, else the stored
    snapshot with the logged actions after it, else replayed from the seed and the whole log."""
    cached = gameplay.cached_state(rnd.pk, rnd.version)
    if cached is not None:
        return cached
    snapshot = Round.objects.filter(pk=rnd.pk).values_list("state", "state_actions").first()
    if snapshot is not None and snapshot[0]:
        data, count = snapshot
        state = gameplay.replay_onto(gameplay.load_state(data), round_actions(rnd, after=count))
        if state.version == rnd.version:
            return state
    return replay_state(rnd)


def replay_state(rnd: Round) -> RoundState:
    """The state rebuilt from the round's seed, dealer and whole log (never from the snapshot)."""
    steps = replay_steps(rnd)
    state = steps[-1].state
    if state.version != rnd.version:
        raise RuntimeError(
            f"replay of round {rnd.pk} reached version {state.version}, not {rnd.version}"
        )
    return state


def replay_steps(
    rnd: Round, *, actions: list[dict[str, Any]] | None = None
) -> list[gameplay.ReplayStep]:
    """Every step of a stored round (:func:`tables.gameplay.replay` of its seed and log, or of
    ``actions`` given instead, e.g. a prefix of the log for the delayed view)."""
    match = rnd.match
    return gameplay.replay(
        variant=match.variant,
        options=match.options,
        seed=bytes.fromhex(rnd.seed),
        dealer=rnd.dealer,
        actions=round_actions(rnd) if actions is None else actions,
        setup=round_setup_of(rnd),
    )


def cache_after_commit(rnd: Round, state: RoundState) -> None:
    """Cache ``state`` for the next move once its transaction has committed."""
    round_id = rnd.pk
    transaction.on_commit(lambda: gameplay.cache_put(round_id, state))


# --- writing ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class LoggedAction:
    """A log row about to be written (see :class:`tables.models.RoundAction`)."""

    seat: int
    source: str
    action: dict[str, Any]
    client_action_id: str
    last_seq: int
    kong_payments: list[dict[str, Any]]


EventRow = tuple[int, str, dict[str, Any], dict[str, Any]]
"""An event about to be written: ``(seq, kind, payload, views)``."""


def write_move(
    rnd: Round,
    *,
    old_version: int,
    old_count: int,
    actions: list[LoggedAction],
    events: list[EventRow],
    snapshot: dict[str, Any] | None,
) -> None:
    """Write one move: the round row's new facts if it is still at ``old_version`` (a
    compare-and-set, which also guards SQLite where the row lock is a no-op; else
    :class:`VersionConflict`), its log rows numbered after ``old_count``, its events, and the
    snapshot when one is due. One statement on PostgreSQL."""
    if connection.vendor == "postgresql":
        written = _write_move_pg(rnd, old_version, old_count, actions, events, snapshot)
    else:
        written = _write_move_orm(rnd, old_version, old_count, actions, events, snapshot)
    if not written:
        raise VersionConflict(f"round {rnd.pk} is no longer at version {old_version}")


def _round_fields(rnd: Round, snapshot: dict[str, Any] | None) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "version": rnd.version,
        "last_seq": rnd.last_seq,
        "action_count": rnd.action_count,
        "status": rnd.status,
        "result": rnd.result,
        "deadline": rnd.deadline,
        "decision_version": rnd.decision_version,
        "ended_at": rnd.ended_at,
    }
    if snapshot is not None:
        fields["state"] = snapshot
        fields["state_actions"] = rnd.state_actions
    return fields


def _write_move_orm(
    rnd: Round,
    old_version: int,
    old_count: int,
    actions: list[LoggedAction],
    events: list[EventRow],
    snapshot: dict[str, Any] | None,
) -> bool:
    fields = _round_fields(rnd, snapshot)
    if Round.objects.filter(pk=rnd.pk, version=old_version).update(**fields) != 1:
        return False
    RoundAction.objects.bulk_create(
        RoundAction(
            round_id=rnd.pk,
            n=old_count + i + 1,
            seat=a.seat,
            source=a.source,
            action=a.action,
            client_action_id=a.client_action_id,
            last_seq=a.last_seq,
            decision=rnd.decision_version,
            kong_payments=a.kong_payments,
        )
        for i, a in enumerate(actions)
    )
    store_event_rows(rnd, events)
    return True


ACTION_COLUMNS = (
    "round_id",
    "n",
    "seat",
    "source",
    "action",
    "client_action_id",
    "last_seq",
    "decision",
    "kong_payments",
)
"""The log row's columns in the order :func:`_write_move_pg` gives their values (every column
of :class:`RoundAction` but its key: a test holds them to the model)."""
EVENT_COLUMNS = ("round_id", "seq", "kind", "payload", "views", "created_at")
"""The event row's columns in the order :func:`_write_move_pg` gives their values (every column
of :class:`RoundEvent` but its key: a test holds them to the model)."""


def _write_move_pg(
    rnd: Round,
    old_version: int,
    old_count: int,
    actions: list[LoggedAction],
    events: list[EventRow],
    snapshot: dict[str, Any] | None,
) -> bool:
    """The move as one data-modifying statement: ``WITH r AS (UPDATE … WHERE version = n
    RETURNING id)`` then the inserts of the log rows and the events from ``r`` (nothing is
    inserted when the compare-and-set found another version)."""
    fields = _round_fields(rnd, snapshot)
    params: list[Any] = []
    sets = []
    for name, value in fields.items():
        if name in ("result", "state"):
            sets.append(f"{name} = %s::jsonb")
            params.append(None if value is None else json.dumps(value))
        else:
            sets.append(f"{name} = %s")
            params.append(value)
    params += [rnd.pk, old_version]
    sql = [f"WITH r AS (UPDATE tables_round SET {', '.join(sets)} WHERE id = %s AND version = %s"]
    sql.append(" RETURNING id)")
    rows = []
    for i, a in enumerate(actions):
        rows.append("(%s, %s, %s, %s::jsonb, %s, %s, %s, %s::jsonb)")
        params += [
            old_count + i + 1,
            a.seat,
            a.source,
            json.dumps(a.action),
            a.client_action_id,
            a.last_seq,
            rnd.decision_version,
            json.dumps(a.kong_payments),
        ]
    sql.append(
        f", a AS (INSERT INTO tables_roundaction ({', '.join(ACTION_COLUMNS)})"
        " SELECT r.id, v.* FROM r, (VALUES " + ", ".join(rows) + ") AS v)"
    )
    if events:
        rows = []
        for seq, kind, payload, views in events:
            rows.append("(%s, %s, %s::jsonb, %s::jsonb)")
            params += [seq, kind, json.dumps(payload), json.dumps(gameplay.views_to_store(views))]
        sql.append(
            f", e AS (INSERT INTO tables_roundevent ({', '.join(EVENT_COLUMNS)})"
            " SELECT r.id, v.*, now() FROM r, (VALUES " + ", ".join(rows) + ") AS v)"
        )
    sql.append(" SELECT count(*) FROM r")
    with connection.cursor() as cursor:
        cursor.execute("".join(sql), params)
        (written,) = cursor.fetchone()
    return bool(written)


def store_event_rows(rnd: Round, events: list[EventRow]) -> None:
    """Append events already numbered and redacted (:data:`EventRow`)."""
    RoundEvent.objects.bulk_create(
        RoundEvent(
            round_id=rnd.pk,
            seq=seq,
            kind=kind,
            payload=payload,
            views=gameplay.views_to_store(views),
        )
        for seq, kind, payload, views in events
    )
