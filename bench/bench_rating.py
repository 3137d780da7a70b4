"""Benchmark: recompute the ratings from a seeded ledger; time and peak memory.

    nice -n 10 .venv/bin/python bench/bench_rating.py [--rounds 100000] [--db queyou_bench_rating]
        [--reuse] [--incremental 50]

Seeds a PostgreSQL database the way ``bench/seed_ledgers.py`` does (``--rounds`` settled rounds,
four ledger rows each: 24 clubs, 480 players, matches of 8 rounds, one match in ten with a bot in
seat 3, spread over a year and four variants, so 96 club-and-variant scopes), unless ``--reuse``
finds it seeded. Then, each in a fresh child process so that its peak RSS is its own:

1. ``manage.py rating_recompute``'s work over every scope (``scoring.ratings.ratings_recompute``):
   wall time, CPU time and peak RSS (``ru_maxrss``);
2. under ``tracemalloc`` (about ten times slower), the recompute of the club with the most
   rounds (all its variants): the peak of Python allocations (a rebuild holds one scope's
   settlements and one batch of history at a time, so the peak does not grow with the clubs);
3. the incremental path: ``--incremental`` times, one new round settled at the end of a scope,
   then ``ratings_update`` (what follows every settlement): median and worst latency; and one
   round settled late (before the last rated one), which rebuilds its scope.

Prints a Markdown report for ``bench/results/rating.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
import tracemalloc
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def _peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _rss_mib() -> float:
    """The process's resident set now (``VmRSS``)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _recompute(traced: bool) -> dict[str, Any]:
    from django.db.models import Count

    from scoring import ratings
    from scoring.models import RatingHistory, RatingState, RoundSettlement

    club_id = None
    if traced:  # tracemalloc makes it ~10 times slower: the club with the most rounds only
        biggest = (
            RoundSettlement.objects.values("club_id").annotate(n=Count("id")).order_by("-n")
        ).first()
        assert biggest is not None
        club_id = biggest["club_id"]
    rss_before = _peak_rss_mib()
    if traced:
        tracemalloc.start()
    cpu, wall = time.process_time(), time.perf_counter()
    rounds = ratings.ratings_recompute(club_id=club_id)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    peak = tracemalloc.get_traced_memory()[1] / 2**20 if traced else None
    if traced:
        tracemalloc.stop()
    return {
        "rounds": rounds,
        "wall_s": wall,
        "cpu_s": cpu,
        "rss_before_mib": rss_before,
        "rss_peak_mib": _peak_rss_mib(),
        "rss_after_mib": _rss_mib(),
        "traced_peak_mib": peak,
        "states": RatingState.objects.count(),
        "history": RatingHistory.objects.count(),
    }


def _incremental(times: int) -> dict[str, Any]:
    from django.db.models import Count

    from scoring import ratings, selectors
    from scoring.models import RatingState, RoundSettlement
    from tables.models import Match, Round

    scope = (
        RoundSettlement.objects.values("club_id", "variant")
        .annotate(n=Count("id"))
        .order_by("-n")
        .first()
    )
    assert scope is not None
    club_id, variant = scope["club_id"], scope["variant"]
    template = RoundSettlement.objects.filter(club_id=club_id, variant=variant).latest("ended_at")
    match = template.match

    def settle_one(ended: Any) -> RoundSettlement:
        copy = Match.objects.create(
            room_id=match.room_id,
            variant=variant,
            players=match.players,
            bot_levels=match.bot_levels,
            status=Match.Status.FINISHED,
        )
        rnd = Round.objects.create(
            match=copy, number=1, seed="00" * 32, status=Round.Status.ENDED, ended_at=ended
        )
        return RoundSettlement.objects.create(
            round=rnd,
            match=copy,
            club_id=club_id,
            variant=variant,
            number=1,
            ended_at=ended,
            dealer=0,
            next_dealer=0,
            net_0=template.net_0,
            net_1=template.net_1,
            net_2=template.net_2,
            net_3=template.net_3,
        )

    latencies = []
    last = template.ended_at
    for i in range(times):
        settle_one(last + timedelta(minutes=i + 1))
        start = time.perf_counter()
        assert ratings.ratings_update(club_id=club_id, variant=variant) == 1
        latencies.append((time.perf_counter() - start) * 1000)
    late = settle_one(last - timedelta(days=30))
    start = time.perf_counter()
    rebuilt = ratings.ratings_update(club_id=club_id, variant=variant)
    late_ms = (time.perf_counter() - start) * 1000
    late.refresh_from_db()
    assert late.rated
    board_start = time.perf_counter()
    board = selectors.leaderboard_rows(club=club_id, variant=variant, order="rating")
    board_ms = (time.perf_counter() - board_start) * 1000
    shown = sorted(
        ratings.display(s.conservative)
        for s in RatingState.objects.filter(user__isnull=False, games__gte=20)
    )
    return {
        "scope_rounds": rebuilt,
        "median_ms": statistics.median(latencies),
        "worst_ms": max(latencies),
        "late_rebuild_ms": late_ms,
        "board_ms": board_ms,
        "board_rows": len(board),
        "final_ratings": {
            "count": len(shown),
            "min": shown[0] if shown else None,
            "p10": shown[len(shown) // 10] if shown else None,
            "median": statistics.median(shown) if shown else None,
            "p90": shown[len(shown) * 9 // 10] if shown else None,
            "max": shown[-1] if shown else None,
        },
    }


def _child(args: argparse.Namespace) -> int:
    # Django alone (the parent has migrated): ``migrate`` would raise the peak RSS before the
    # measured work starts.
    os.environ["DATABASE_URL"] = f"postgres://root@127.0.0.1:5432/{args.db}"
    os.environ.setdefault("SECRET_KEY", "bench-" + "x" * 60)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    if args.child == "recompute":
        result = _recompute(traced=False)
    elif args.child == "traced":
        result = _recompute(traced=True)
    else:
        result = _incremental(args.incremental)
    print("RESULT " + json.dumps(result, default=str))
    return 0


def _run_child(kind: str, args: argparse.Namespace) -> dict[str, Any]:
    command = [sys.executable, __file__, "--child", kind, "--db", args.db]
    command += ["--incremental", str(args.incremental)]
    out = subprocess.run(command, check=True, capture_output=True, text=True, cwd=ROOT).stdout
    line = next(x for x in out.splitlines() if x.startswith("RESULT "))
    parsed: dict[str, Any] = json.loads(line[len("RESULT ") :])
    return parsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100_000)
    parser.add_argument("--db", default="queyou_bench_rating")
    parser.add_argument("--reuse", action="store_true", help="keep an already seeded database")
    parser.add_argument("--incremental", type=int, default=50)
    parser.add_argument("--child", choices=("recompute", "traced", "incremental"))
    args = parser.parse_args()
    if args.child:
        return _child(args)

    import seed_ledgers

    seed_ledgers._setup(args.db)
    from django.core.management import call_command
    from django.db import connection

    from scoring.models import LedgerEntry, RoundSettlement

    if not (args.reuse and RoundSettlement.objects.exists()):
        call_command("flush", interactive=False, verbosity=0)
        seed_ledgers.seed(args.rounds)
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    counts = (RoundSettlement.objects.count(), LedgerEntry.objects.count())
    connection.close()
    load = os.getloadavg()
    print(f"\nsettled rounds: {counts[0]} · ledger rows: {counts[1]}")
    cpus = os.cpu_count()
    print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} · cpus: {cpus}")
    plain = _run_child("recompute", args)
    traced = _run_child("traced", args)
    incremental = _run_child("incremental", args)
    load = os.getloadavg()
    print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}\n")
    print("| measure | value |\n|---|---:|")
    print(f"| rounds rated (all scopes) | {plain['rounds']} |")
    print(f"| rating states / history rows written | {plain['states']} / {plain['history']} |")
    print(f"| recompute wall time | {plain['wall_s']:.1f} s |")
    print(f"| recompute CPU time (this process) | {plain['cpu_s']:.1f} s |")
    print(f"| rounds per second (wall) | {plain['rounds'] / plain['wall_s']:.0f} |")
    print(
        f"| peak RSS of the process: after Django's start-up → after the recompute | "
        f"{plain['rss_before_mib']:.0f} → {plain['rss_peak_mib']:.0f} MiB |"
    )
    print(f"| RSS at the end of the recompute | {plain['rss_after_mib']:.0f} MiB |")
    print(
        f"| tracemalloc peak, recompute of the biggest club ({traced['rounds']} rounds, "
        f"{traced['wall_s']:.0f} s traced) | {traced['traced_peak_mib']:.1f} MiB |"
    )
    print(
        f"| one new round, `ratings_update` (median / worst of {args.incremental}) | "
        f"{incremental['median_ms']:.1f} / {incremental['worst_ms']:.1f} ms |"
    )
    print(
        f"| a late round: scope of {incremental['scope_rounds']} rounds rebuilt | "
        f"{incremental['late_rebuild_ms']:.0f} ms |"
    )
    print(
        f"| board by rating, one club and variant ({incremental['board_rows']} rows) | "
        f"{incremental['board_ms']:.1f} ms |"
    )
    final = incremental["final_ratings"]
    print(
        f"\nshown ratings of players with ≥ 20 rated rounds ({final['count']}): min "
        f"{final['min']}, p10 {final['p10']}, median {final['median']}, p90 {final['p90']}, "
        f"max {final['max']}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
