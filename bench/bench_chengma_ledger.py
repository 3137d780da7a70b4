"""Benchmark: every ended 成麻 round reaches the ledger.

    .venv/bin/python bench/bench_chengma_ledger.py [--rounds 1000] [--level hard] [--seed ledger24]
        [--db var/bench_chengma_ledger.sqlite3]

Plays ``--rounds`` 成麻 (血战到底) rounds with four bots of ``--level`` (the table's bots,
``rules.bots.choose_action`` on each seat's view, as ``rules.arena.play_deal`` drives them; the
walls and first dealers drawn as the arena draws them), stores each round as a finished table
stores it (the round row, its action log with the kong payments: ``tests.stored_rounds.log_played``,
as the scoring tests' fixture does), then settles each one through the real settlement service
(``scoring.services.settle_round_recording``, what the Celery task runs; a failure is recorded for
the sweep as in production), then runs the clock's sweep once (``sweep_unsettled``) for anything
left.

It then counts, in the database, the ended rounds and their settlements, and checks each
settlement against the engine: the ledger's nets are the round's, and every win has its own fan
items (``FanItem.winner``) equal to the engine's verdict. It prints one JSON line and exits 1 if
any ended round lacks its settlement (or a settlement disagrees with the engine), else 0.

The database is a fresh SQLite file (``--db``, removed first) migrated from nothing: never the
development or a shared PostgreSQL database. ``REDIS_URL`` defaults to database 1 of the local
Redis (settling does not use it; Django's settings want one).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

VARIANT = "chengma"
ROUNDS_PER_MATCH = 8


def _setup(db: Path) -> None:
    if db.exists():
        db.unlink()
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/1")
    os.environ.setdefault("SECRET_KEY", "bench-" + "x" * 60)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def play(seed: bytes, dealer: int, level: str, rng_seed: str) -> tuple[Any, list[Any]]:
    """One round by four bots of ``level``: (final state, actions). The loop of
    ``rules.arena.play_deal``, keeping the actions for the log."""
    from rules.bots import choose_action
    from rules.engine import apply, legal_actions, new_round
    from rules.engine.core import seats_to_act
    from rules.engine.state import EndedPhase
    from rules.registry import get_variant
    from rules.tiles import EAST
    from rules.views import seat_view

    state, _ = new_round(variant=get_variant(VARIANT), seed=seed, dealer=dealer, round_wind=EAST)
    rngs = [random.Random(f"{rng_seed}/{s}") for s in range(4)]
    actions = []
    while not isinstance(state.phase, EndedPhase):
        seat = seats_to_act(state)[0]
        legal = legal_actions(state, seat)
        if len(legal) == 1:
            action = legal[0]
        else:
            view = seat_view(state, seat, hints=False)
            action = choose_action(view, level=level, rng=rngs[seat], options=state.options)
        state, _ = apply(state, action)
        actions.append(action)
    return state, actions


def _table() -> tuple[Any, list[Any]]:
    """A club of four with a 成麻 room: (room, players)."""
    from accounts import services
    from accounts.models import Membership, User
    from tables import rooms

    users = [
        User.objects.create(username=f"cm{i}", email=f"cm{i}@example.com", password="!")
        for i in range(4)
    ]
    club = services.club_create(owner=users[0], name="成麻 bench")
    for user in users[1:]:
        Membership.objects.create(club=club, user=user)
    room = rooms.room_create(user=users[0], club=club, name="血战到底", variant=VARIANT)
    return room, users


def store_rounds(count: int, level: str, seed: str) -> tuple[list[int], list[Any], float]:
    """Play and store ``count`` ended rounds: (round ids, final states, seconds)."""
    from django.db import transaction
    from django.utils import timezone

    from rules.wall import Drbg, seed_from_text
    from tables import gameplay
    from tables.models import Match, Round
    from tests.stored_rounds import log_played

    room, users = _table()
    started = time.perf_counter()
    ids, finals = [], []
    match = None
    for i in range(count):
        number = i % ROUNDS_PER_MATCH + 1
        if number == 1:
            match = Match.objects.create(
                room=room,
                variant=VARIANT,
                options=room.options,
                players=[u.pk for u in users],
                status=Match.Status.FINISHED,
            )
        wall_seed = seed_from_text(f"{seed}/arena/{VARIANT}/{i}")
        dealer = Drbg(seed_from_text(f"{seed}/arena/{i}/dealer")).randbelow(4)
        state, actions = play(wall_seed, dealer, level, f"{seed}/{i}")
        with transaction.atomic():
            rnd = Round.objects.create(
                match=match,
                number=number,
                dealer=dealer,
                seed=wall_seed.hex(),
                commitment=state.commitment,
                version=len(actions),
                status=Round.Status.ENDED,
                result=gameplay.result_json(state),
                ended_at=timezone.now(),
            )
            log_played(rnd, [gameplay.action_json(a) for a in actions])
        ids.append(rnd.pk)
        finals.append(state)
        if (i + 1) % 100 == 0:
            print(f"\r{i + 1} rounds played and stored", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return ids, finals, time.perf_counter() - started


def settle_all(ids: list[int]) -> tuple[Counter[str], float]:
    """Each round as its Celery task settles it, then one sweep: (errors by type, seconds)."""
    from datetime import timedelta

    from django.utils import timezone

    from scoring import services

    errors: Counter[str] = Counter()
    started = time.perf_counter()
    for round_id in ids:
        try:
            services.settle_round_recording(round_id)
        except Exception as exc:  # counted: the bench is about rounds that never settle
            errors[type(exc).__name__] += 1
    # The clock's sweep, as if every back-off had run out.
    services.sweep_unsettled(now=timezone.now() + timedelta(days=2), grace_s=0)
    return errors, time.perf_counter() - started


def check(ids: list[int], finals: list[Any]) -> dict[str, Any]:
    """The counts, and the settlements that disagree with the engine."""
    from scoring.models import FanItem, RoundSettlement, SettlementFailure
    from tables.models import Round

    ended = Round.objects.filter(status=Round.Status.ENDED)
    missing = list(ended.filter(settlement__isnull=True).values_list("pk", flat=True))
    settlements = {s.round_id: s for s in RoundSettlement.objects.filter(round_id__in=ids)}
    items: dict[int, list[tuple[int, str, int]]] = {}
    for f in FanItem.objects.filter(settlement__round_id__in=ids).order_by("position"):
        # getattr: the bench also runs on the code before the fix (no winner), to show it fail.
        winner = getattr(f, "winner", None)
        items.setdefault(f.settlement_id, []).append((winner, f.key, f.value))
    wins = Counter[int]()
    shared = 0
    wrong = []
    for round_id, final in zip(ids, finals, strict=True):
        records = final.extra.get("wins", ())
        wins[len(records)] += 1
        keys = Counter(k for r in records for k in r["verdict"].fan)
        shared += any(n > 1 for n in keys.values())
        s = settlements.get(round_id)
        if s is None:
            continue
        expected = [
            (r["seat"], str(k), int(v)) for r in records for k, v in r["verdict"].fan.items()
        ]
        if s.nets != final.result.nets or items.get(s.pk, []) != expected:
            wrong.append(round_id)
    return {
        "ended_rounds": ended.count(),
        "settlements": RoundSettlement.objects.filter(round__status=Round.Status.ENDED).count(),
        "missing": len(missing),
        "missing_ids": missing[:20],
        "failures_left": SettlementFailure.objects.count(),
        "disagree_with_engine": len(wrong),
        "disagree_ids": wrong[:20],
        "rounds_by_wins": {str(k): wins[k] for k in sorted(wins)},
        "rounds_with_a_shared_fan_key": shared,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--seed", default="ledger24")
    parser.add_argument("--db", type=Path, default=ROOT / "var" / "bench_chengma_ledger.sqlite3")
    args = parser.parse_args()
    started = time.perf_counter()
    _setup(args.db.resolve())
    ids, finals, play_s = store_rounds(args.rounds, args.level, args.seed)
    errors, settle_s = settle_all(ids)
    report = {
        "variant": VARIANT,
        "level": args.level,
        "rounds": args.rounds,
        "seed": args.seed,
        **check(ids, finals),
        "settle_errors": dict(errors),
        "play_and_store_s": round(play_s, 1),
        "settle_s": round(settle_s, 1),
        "settle_ms_per_round": round(1000 * settle_s / max(1, len(ids)), 1),
        "total_s": round(time.perf_counter() - started, 1),
        "python": platform.python_version(),
    }
    print(json.dumps(report, ensure_ascii=False))
    if report["missing"] or report["disagree_with_engine"]:
        print(
            f"FAIL: {report['missing']} of {report['ended_rounds']} ended rounds have no "
            f"settlement; {report['disagree_with_engine']} settlements disagree with the engine",
            file=sys.stderr,
        )
        return 1
    print(f"ok: {report['settlements']} settlements for {report['ended_rounds']} ended rounds")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
