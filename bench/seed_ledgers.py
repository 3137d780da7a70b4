"""Benchmark: seed a PostgreSQL database with settled rounds, then time the scoring queries.

    .venv/bin/python bench/seed_ledgers.py [--rounds 100000] [--db queyou_bench] [--reuse]
        [--repeat 5]

Creates the database ``--db`` on the local PostgreSQL (127.0.0.1:5432, user root) if needed,
migrates it, and (unless ``--reuse`` finds it already seeded) fills it with ``--rounds`` settled
rounds: 24 clubs, 480 players (each in one or two clubs), matches of 8 rounds between four
members of a club (one match in ten has a bot in seat 3), spread over the last 365 days and the
four variants. The ledgers are real: a pool of rounds played by random bots through the engine is
settled with ``scoring.services.draft_ledger`` (Changchun's engine, whose flow is the one that
exists today; the variant column is spread over the four variants so per-variant boards have
work to do) and written by ``scoring.services.write_ledger``'s bulk form.

Then each query is run ``--repeat`` times cold (the ratings cache cleared before each run) and
``--repeat`` times warm; the median and best wall-clock times are printed as a Markdown table for
``bench/results/leaderboards.md``, with the PostgreSQL plan of a club board's grouped query.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _setup(db: str) -> None:
    import psycopg

    with psycopg.connect(
        "host=127.0.0.1 port=5432 user=root dbname=postgres", autocommit=True
    ) as c:
        if not c.execute("SELECT 1 FROM pg_database WHERE datname = %s", (db,)).fetchone():
            c.execute(f'CREATE DATABASE "{db}"')
    os.environ["DATABASE_URL"] = f"postgres://root@127.0.0.1:5432/{db}"
    os.environ.setdefault("SECRET_KEY", "bench-" + "x" * 60)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


VARIANTS = ("changchun", "harbin", "siping", "taiyuan_lisi")
CLUBS, PLAYERS, ROUNDS_PER_MATCH, POOL = 24, 480, 8, 1000


def _draft_pool(size: int) -> list[Any]:
    from rules.registry import VARIANTS
    from rules.simulate import play_round, random_bot
    from rules.wall import seed_from_text
    from scoring.services import draft_ledger
    from tables.gameplay import replay

    rng = random.Random(7)
    bot = random_bot(rng)
    pool = []
    for i in range(size):
        seed = seed_from_text(f"bench/{i}")
        dealer = i % 4
        options = {"cap": 16} if i % 5 == 0 else {}
        _state, actions = play_round(VARIANTS["changchun"], seed=seed, dealer=dealer, bot=bot)
        steps = replay(
            variant="changchun",
            options=options,
            seed=seed,
            dealer=dealer,
            actions=[a.to_json() for a in actions],
        )
        pool.append(draft_ledger(steps))
    return pool


def seed(rounds: int) -> None:
    from django.db import transaction
    from django.utils import timezone

    from accounts.models import Club, Membership, User
    from scoring.models import FanItem, KongPayment, LedgerEntry, RoundSettlement
    from tables.models import Match, Room, Round

    rng = random.Random(2026)
    started = time.perf_counter()
    pool = _draft_pool(POOL)
    print(f"pool of {POOL} engine rounds settled in {time.perf_counter() - started:.1f}s")
    users = User.objects.bulk_create(
        User(username=f"bench{i}", email=f"bench{i}@example.com", password="!")
        for i in range(PLAYERS)
    )
    owners = users[:CLUBS]
    clubs = [Club(name=f"bench club {i}", owner=owners[i]) for i in range(CLUBS)]
    for club in clubs:
        club.save()
    members: dict[int, list[Any]] = {c.pk: [] for c in clubs}
    memberships = []
    for i, user in enumerate(users):
        mine = {clubs[i % CLUBS]} | ({rng.choice(clubs)} if i % 3 == 0 else set())
        for club in mine:
            members[club.pk].append(user)
            role = Membership.Role.OWNER if club.owner_id == user.pk else Membership.Role.MEMBER
            memberships.append(Membership(club=club, user=user, role=role))
    Membership.objects.bulk_create(memberships, ignore_conflicts=True)
    rooms = {
        (c.pk, v): Room.objects.create(club=c, name=f"{v} table", variant=v)
        for c in clubs
        for v in VARIANTS
    }
    now = timezone.now()
    matches_total = rounds // ROUNDS_PER_MATCH
    batch = 500
    for first in range(0, matches_total, batch):
        with transaction.atomic():
            _seed_batch(
                rng,
                min(batch, matches_total - first),
                clubs,
                members,
                rooms,
                pool,
                now,
                (Match, Round, RoundSettlement, LedgerEntry, FanItem, KongPayment),
            )
        done = min(first + batch, matches_total)
        print(f"\r{done * ROUNDS_PER_MATCH} rounds", end="", flush=True)
    _times_from_settlements()
    print(f"\nseeded in {time.perf_counter() - started:.1f}s")


def _times_from_settlements() -> None:
    """``bulk_create`` stamps ``auto_now_add`` fields with the present: give matches and rounds
    the times of their settlements (a match starts 4 minutes before its first round ends)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            """
            UPDATE tables_match m
               SET started_at = s.first - interval '4 minutes', ended_at = s.last
              FROM (SELECT match_id, min(ended_at) AS first, max(ended_at) AS last
                      FROM scoring_roundsettlement GROUP BY match_id) s
             WHERE s.match_id = m.id
            """
        )
        cursor.execute(
            """
            UPDATE tables_round r SET ended_at = s.ended_at, started_at = s.ended_at
              FROM scoring_roundsettlement s WHERE s.round_id = r.id
            """
        )


def _seed_batch(
    rng: random.Random,
    count: int,
    clubs: list[Any],
    members: dict[int, list[Any]],
    rooms: dict[tuple[int, str], Any],
    pool: list[Any],
    now: Any,
    models: tuple[Any, ...],
) -> None:
    Match, Round, RoundSettlement, LedgerEntry, FanItem, KongPayment = models
    plans = []
    for _ in range(count):
        club = rng.choice(clubs)
        variant = rng.choice(VARIANTS)
        four = rng.sample(members[club.pk], 4)
        players: list[Any] = [u.pk for u in four]
        if rng.random() < 0.1:
            players[3] = None
        start = now - timedelta(days=rng.random() * 365)
        plans.append((club, variant, players, start))
    matches = Match.objects.bulk_create(
        Match(
            room=rooms[(club.pk, variant)],
            variant=variant,
            players=players,
            status=Match.Status.FINISHED,
        )
        for club, variant, players, _ in plans
    )
    rounds_ = []
    for match in matches:
        for n in range(1, ROUNDS_PER_MATCH + 1):
            rounds_.append(Round(match=match, number=n, seed="00" * 32, status=Round.Status.ENDED))
    rounds_ = Round.objects.bulk_create(rounds_)
    settlements, drafts, meta = [], [], []
    for i, rnd in enumerate(rounds_):
        club, variant, players, start = plans[i // ROUNDS_PER_MATCH]
        draft = rng.choice(pool)
        ended = start + timedelta(minutes=4 * rnd.number)
        drafts.append(draft)
        meta.append((club, variant, players, ended, rnd))
        settlements.append(
            RoundSettlement(
                round=rnd,
                match_id=rnd.match_id,
                club=club,
                variant=variant,
                number=rnd.number,
                ended_at=ended,
                dealer=draft.dealer,
                next_dealer=draft.next_dealer,
                winner=draft.winner,
                win_by=draft.win_by or "",
                discarder=draft.discarder,
                win_tile=draft.win_tile,
                fan_total=draft.fan_total,
                cap=draft.cap,
                capped=draft.capped,
                net_0=draft.nets[0],
                net_1=draft.nets[1],
                net_2=draft.nets[2],
                net_3=draft.nets[3],
            )
        )
    settlements = RoundSettlement.objects.bulk_create(settlements)
    entries, fans, kongs = [], [], []
    for settlement, draft, (club, variant, players, ended, rnd) in zip(
        settlements, drafts, meta, strict=True
    ):
        for line in draft.seats:
            entries.append(
                LedgerEntry(
                    settlement=settlement,
                    match_id=rnd.match_id,
                    club=club,
                    variant=variant,
                    ended_at=ended,
                    seat=line.seat,
                    user_id=players[line.seat],
                    is_dealer=line.seat == draft.dealer,
                    won=line.seat == draft.winner,
                    self_drawn=line.seat == draft.winner
                    and draft.win_by in ("self_draw", "kong_draw"),
                    dealt_in=line.seat == draft.discarder,
                    fan_total=draft.fan_total if line.seat == draft.winner else 0,
                    win_amount=line.win,
                    kong_amount=line.kong,
                    cap_adjustment=line.cap_adjustment,
                    net=line.net,
                )
            )
        fans += [
            FanItem(
                settlement=settlement,
                winner=item.winner,
                position=i,
                key=item.key,
                value=item.value,
            )
            for i, item in enumerate(draft.fan_items)
        ]
        kongs += [
            KongPayment(
                settlement=settlement,
                kong_index=k.kong_index,
                konger=k.transfer.payee,
                kind=k.kind,
                tiles="",
                payer=k.transfer.payer,
                amount=k.transfer.amount,
            )
            for k in draft.kongs
        ]
    LedgerEntry.objects.bulk_create(entries, batch_size=5000)
    FanItem.objects.bulk_create(fans, batch_size=5000)
    KongPayment.objects.bulk_create(kongs, batch_size=5000)


def _time(fn: Callable[[], Any], repeat: int) -> tuple[float, float, Any]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), min(times), result


def measure(repeat: int) -> None:
    from django.db import connection
    from django.db.models import Count

    from accounts.models import Club, User
    from scoring import selectors
    from scoring.models import LedgerEntry, RoundSettlement

    club = Club.objects.order_by("pk").first()
    player = User.objects.filter(ledger_entries__isnull=False).order_by("pk").first()
    match_id = RoundSettlement.objects.order_by("-pk").values_list("match_id", flat=True).first()
    assert club is not None
    assert player is not None
    assert match_id is not None
    counts = {
        "rounds settled": RoundSettlement.objects.count(),
        "ledger entries": LedgerEntry.objects.count(),
    }
    print(" · ".join(f"{k}: {v}" for k, v in counts.items()))
    cases: list[tuple[str, Callable[[], Any]]] = [
        ("board: all clubs, all variants, all time", lambda: selectors.leaderboard_rows()),
        (
            "board: all clubs, one variant, month",
            lambda: selectors.leaderboard_rows(variant="harbin", period="month"),
        ),
        (
            "board: all clubs, one variant, week",
            lambda: selectors.leaderboard_rows(variant="harbin", period="week"),
        ),
        ("board: one club, all time", lambda: selectors.leaderboard_rows(club=club)),
        (
            "board: one club, one variant, month",
            lambda: selectors.leaderboard_rows(club=club, variant="siping", period="month"),
        ),
        (
            "board: one club, sorted by rating",
            lambda: selectors.leaderboard_rows(club=club, order="rating"),
        ),
        (
            "board: one club, one variant, sorted by rating",
            lambda: selectors.leaderboard_rows(club=club, variant="siping", order="rating"),
        ),
        (
            "my matches: first page of 20",
            lambda: list(selectors.matches_for_user(player)[:20]),
        ),
        ("match page rows (8 rounds)", lambda: selectors.ledger_rows_for_match(match_id)),
        ("match totals", lambda: selectors.match_totals(match_id)),
    ]
    from django.core.cache import cache

    print("\n| query | cold median ms | cold best ms | warm median ms | rows |")
    print("|---|---:|---:|---:|---:|")
    for name, fn in cases:

        def cold(fn: Callable[[], Any] = fn) -> Any:
            cache.clear()  # the ratings cache: time the whole computation
            return fn()

        median, best, result = _time(cold, repeat)
        warm, _best, _ = _time(fn, repeat)
        size = len(result) if hasattr(result, "__len__") else 1
        print(f"| {name} | {median:.1f} | {best:.1f} | {warm:.1f} | {size} |")
    qs = (
        LedgerEntry.objects.filter(user__isnull=False, club=club, variant="siping")
        .values("user_id")
        .annotate(n=Count("id"))
        .order_by()
    )
    sql, params = qs.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) " + sql, params)
        print("\nplan of a club+variant board's grouped query:")
        for (line,) in cursor.fetchall():
            print("    " + line)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100_000)
    parser.add_argument("--db", default="queyou_bench")
    parser.add_argument("--reuse", action="store_true", help="keep an already seeded database")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    _setup(args.db)
    from scoring.models import RoundSettlement

    if args.reuse and RoundSettlement.objects.exists():
        from tables.models import Match

        if Match.objects.filter(ended_at__isnull=True).exists():  # seeded by an older version
            _times_from_settlements()
    else:
        from django.core.management import call_command

        call_command("flush", interactive=False, verbosity=0)
        seed(args.rounds)
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    measure(args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
