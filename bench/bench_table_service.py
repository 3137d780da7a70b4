"""Cost of one move at a live table: ``tables.commands.round_apply_action`` end to end.

Bots play ``--rounds`` whole Changchun rounds through the real service (row lock, engine, state
snapshot, events with their per-viewer redactions, the action record, the commit and the
channel-layer notification after it) on the database of ``DATABASE_URL``, which must be migrated.
It creates a throw-away club, room and player. Prints the mean, p50 and p95 per move, and the
queries per move.

    DATABASE_URL=postgres://root@127.0.0.1:5432/queyou_bench REDIS_URL=redis://127.0.0.1:6379/7 \\
        .venv/bin/python bench/bench_table_service.py --rounds 5
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("QUEYOU_TESTING", "1")  # dev secret; tasks are not sent to Celery

import django

django.setup()

from django.db import connection, reset_queries  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from accounts import services as accounts  # noqa: E402
from accounts.models import User  # noqa: E402
from tables import bots, gameplay, matches, rooms  # noqa: E402
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
                outcome = commands.round_apply_action(
                    round_id=rnd.pk,
                    seat=seat,
                    action_json=action,
                    client_action_id=f"b{len(times)}",
                )
                times.append(time.perf_counter() - start)
            queries += len(captured)
            assert outcome.ok, outcome
        assert rnd.ended_at is not None
        later = rnd.ended_at + timedelta(seconds=commands.NEXT_ROUND_AFTER_S)
        matches.match_next_round(match_id=rnd.match_id, after_number=rnd.number, now=later)
    ordered = sorted(times)
    vendor = connection.vendor
    print(f"# {vendor}, {args.rounds} rounds, {len(times)} moves")
    print(
        f"mean {1000 * statistics.fmean(times):.1f} ms, p50 {1000 * ordered[len(ordered) // 2]:.1f}"
        f" ms, p95 {1000 * ordered[int(0.95 * len(ordered))]:.1f} ms,"
        f" {queries / len(times):.1f} queries per move"
    )


if __name__ == "__main__":
    main()
