"""Cost of one move at a live table: ``tables.game.commands.round_apply_action`` end to end.

Bots play ``--rounds`` whole Changchun rounds through the real service (the locked read, the
engine, the write of the move: round row, action log, events with their per-viewer redactions;
the commit, and the notification built after it) on the database of ``DATABASE_URL``, which must
be migrated. It creates a throw-away club, room and player. As a socket does, the service runs
with its notifications collected (``tables.notify.notifications_collected``) and they are then
sent to the channel layer (``send``, timed apart). Prints the mean, p50 and p95 per move, the
SQL statements per move, and the bytes a finished round occupies (PostgreSQL: ``pg_column_size``
of its rows: round, events, action log, action records).

    DATABASE_URL=postgres://root@127.0.0.1:5432/queyou_bench REDIS_URL=redis://127.0.0.1:6379/7 \\
        .venv/bin/python bench/bench_table_service.py --rounds 5
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("QUEYOU_TESTING", "1")  # dev secret; tasks are not sent to Celery

import django

django.setup()

from asgiref.sync import async_to_sync  # noqa: E402
from django.db import connection, reset_queries  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from accounts import services as accounts  # noqa: E402
from accounts.models import User  # noqa: E402
from tables import bots, gameplay, notify, rooms  # noqa: E402
from tables.game import commands, store  # noqa: E402
from tables.models import Round  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    user = User.objects.create_user(f"bench{time.time_ns()}", password="x")
    club = accounts.club_create(owner=user, name="bench")
    room = rooms.room_create(user=user, club=club, name="bench", variant="changchun")
    rooms.seat_take(room=room, user=user)
    rooms.seats_fill_with_bots(room=room, user=user)
    rooms.seat_set_ready(room=room, user=user)
    times: list[float] = []
    sends: list[float] = []
    queries = 0
    for _ in range(args.rounds):
        rnd = Round.objects.filter(match__room=room).order_by("-pk").first()
        assert rnd is not None
        while True:
            rnd = Round.objects.select_related("match__room").get(pk=rnd.pk)
            if rnd.status != Round.Status.PLAYING:
                break
            state = store.load_state(rnd)
            seat = gameplay.deciders(state)[0]
            action = gameplay.action_json(bots.choose_action(state, seat))
            reset_queries()
            with CaptureQueriesContext(connection) as captured:
                start = time.perf_counter()
                with notify.notifications_collected() as sent:
                    outcome = commands.round_apply_action(
                        round_id=rnd.pk,
                        seat=seat,
                        action_json=action,
                        client_action_id=f"b{len(times)}",
                    )
                times.append(time.perf_counter() - start)
            # BEGIN and COMMIT are listed by Django too: they are counted apart.
            queries += sum(q["sql"] not in ("BEGIN", "COMMIT") for q in captured.captured_queries)
            start = time.perf_counter()
            async_to_sync(notify.notifications_send)(sent)
            sends.append(time.perf_counter() - start)
            assert outcome.ok, outcome
        assert rnd.ended_at is not None
        # The human presses ready (the bots always are): the next round is dealt at once.
        rooms.seat_set_ready(room=room, user=user)
    ordered = sorted(times)
    vendor = connection.vendor
    print(f"# {vendor}, {args.rounds} rounds, {len(times)} moves")
    print(
        f"mean {1000 * statistics.fmean(times):.1f} ms, p50 {1000 * ordered[len(ordered) // 2]:.1f}"
        f" ms, p95 {1000 * ordered[int(0.95 * len(ordered))]:.1f} ms,"
        f" {queries / len(times):.2f} SQL statements per move (+ BEGIN, COMMIT);"
        f" then the send p50 {1000 * sorted(sends)[len(sends) // 2]:.1f} ms"
    )
    finished = list(
        Round.objects.filter(match__room=room, status=Round.Status.ENDED).values_list(
            "pk", flat=True
        )
    )
    if vendor == "postgresql" and finished:
        total = sum(round_bytes(pk) for pk in finished)
        mean = total / len(finished)
        print(f"storage: {mean:.0f} bytes per finished round (mean of {len(finished)})")


def round_bytes(round_id: int) -> int:
    """The bytes of a round's rows (``pg_column_size`` of each whole row, TOAST-compressed as
    stored): the round, its events, its action log and action records where those tables exist."""
    tables = set(connection.introspection.table_names())
    parts = ["SELECT pg_column_size(r.*) FROM tables_round r WHERE r.id = %(id)s"]
    for table in ("tables_roundevent", "tables_roundaction", "tables_actionrecord"):
        if table in tables:
            parts.append(
                f"SELECT coalesce(sum(pg_column_size(t.*)), 0) FROM {table} t"
                " WHERE t.round_id = %(id)s"
            )
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(f"({p})" for p in parts), {"id": round_id})
        return int(sum(row[0] for row in cursor.fetchall()))


if __name__ == "__main__":
    main()
