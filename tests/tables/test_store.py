"""The hand-written SQL of a move (``tables.game.store``) reads and writes the models' columns.

On PostgreSQL a move is one read and one write statement of raw SQL. The read must give the
same instances the ORM would (every column but the round's engine snapshot, JSON decoded) so
that nothing is lazily fetched again or read as text; the write must fill every column of the
log and event rows, as the ORM path does.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, transaction
from django.db.models import Model

from tables.game import store
from tables.models import Match, Room, Round, RoundAction, RoundEvent, Seat

pytestmark = pytest.mark.django_db


def _same_instance(read: Model, orm: Model, *, deferred: frozenset[str] = frozenset()) -> None:
    assert read.get_deferred_fields() == set(deferred)
    for field in type(orm)._meta.concrete_fields:
        if field.attname in deferred:
            continue
        got, want = getattr(read, field.attname), getattr(orm, field.attname)
        assert (field.attname, got, type(got)) == (field.attname, want, type(want))


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the raw read is PostgreSQL's")
def test_a_move_reads_every_column_of_its_rows_as_the_orm_does(playing: Any) -> None:
    rnd = playing
    Match.objects.filter(pk=rnd.match_id).update(options={"base": 2, "cap": None, "k": [1, "x"]})
    with transaction.atomic():
        read = store.read_for_move(rnd.pk, seat=0, client_action_id="fresh")
    assert read.earlier is None
    _same_instance(read.rnd, Round.objects.get(pk=rnd.pk), deferred=frozenset({"state"}))
    _same_instance(read.rnd.match, Match.objects.get(pk=rnd.match_id))
    assert read.rnd.match.options == {"base": 2, "cap": None, "k": [1, "x"]}
    _same_instance(read.rnd.match.room, Room.objects.get(pk=rnd.match.room_id))
    seats = {seat.index: seat for seat in Seat.objects.filter(room_id=rnd.match.room_id)}
    assert sorted(read.seats) == sorted(seats) == [0, 1, 2, 3]
    for index, seat in seats.items():
        _same_instance(read.seats[index], seat)


def _columns_but_the_key(model: type[Model]) -> tuple[str, ...]:
    return tuple(f.column for f in model._meta.concrete_fields if not f.primary_key)


def test_a_move_writes_every_column_of_its_log_and_event_rows() -> None:
    assert _columns_but_the_key(RoundAction) == store.ACTION_COLUMNS
    assert _columns_but_the_key(RoundEvent) == store.EVENT_COLUMNS
