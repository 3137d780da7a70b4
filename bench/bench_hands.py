"""Benchmark: waits of a 13-tile hand and a win check, ours against the ``mahjong`` library.

    .venv/bin/pip install -r bench/requirements.txt
    .venv/bin/python bench/bench_hands.py [--hands 2000] [--repeat 5] [--profile]

Both sides get the same hands (half uniformly random 13-tile draws, half "realistic": a random
complete hand with one tile removed, so that most of them wait). Waits: ours is one
``rules.shapes.shape_waits`` call; theirs is ``Agari.is_agari`` tried on each of the 34 kinds (the
way it is used for waits). Win check: ``rules.shapes.is_complete`` against ``Agari.is_agari`` on
14-tile hands (the 13-tile hand plus a random or a winning tile). The best of ``--repeat`` runs is
reported, warm (after one untimed pass), plus our cold first pass with empty memo tables.

``mahjong`` also accepts seven pairs and thirteen orphans, which no variant here allows, so the
answers are compared only on the standard shape and the differences are counted and shown.
"""

from __future__ import annotations

import argparse
import cProfile
import platform
import pstats
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mahjong.agari import Agari

from rules import shapes
from rules.shapes import is_complete, shape_waits

Counts = list[int]


def random_hand(rng: random.Random) -> Counts:
    wall = [t for t in range(34) for _ in range(4)]
    counts = [0] * 34
    for t in rng.sample(wall, 13):
        counts[t] += 1
    return counts


def complete_hand(rng: random.Random) -> Counts:
    """Four random sets and a pair, at most four of a kind."""
    while True:
        counts = [0] * 34
        for _ in range(4):
            if rng.random() < 0.6:
                suit = rng.randrange(3)
                first = suit * 9 + rng.randrange(7)
                for t in (first, first + 1, first + 2):
                    counts[t] += 1
            else:
                counts[rng.randrange(34)] += 3
        counts[rng.randrange(34)] += 2
        if max(counts) <= 4:
            return counts


def realistic_hand(rng: random.Random) -> Counts:
    counts = complete_hand(rng)
    tiles = [t for t in range(34) for _ in range(counts[t])]
    counts[rng.choice(tiles)] -= 1
    return counts


def make_hands(n: int, seed: int) -> tuple[list[Counts], list[Counts]]:
    """13-tile hands and, for each, a 14-tile hand (a random tile added, or a winning one)."""
    rng = random.Random(seed)
    hands13 = [random_hand(rng) if i % 2 else realistic_hand(rng) for i in range(n)]
    hands14 = []
    for hand in hands13:
        candidates = [t for t in range(34) if hand[t] < 4]
        waits = shape_waits(hand)
        extra = rng.choice(waits) if waits and rng.random() < 0.5 else rng.choice(candidates)
        full = hand[:]
        full[extra] += 1
        hands14.append(full)
    return hands13, hands14


def their_waits(counts: Counts) -> tuple[int, ...]:
    waits = []
    for t in range(34):
        if counts[t] >= 4:
            continue
        counts[t] += 1
        if Agari.is_agari(counts):
            waits.append(t)
        counts[t] -= 1
    return tuple(waits)


def best_time(func: Callable[[Counts], object], hands: Sequence[Counts], repeat: int) -> float:
    """Best µs per call over ``repeat`` timed passes."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for hand in hands:
            func(hand)
        best = min(best, time.perf_counter() - start)
    return best / len(hands) * 1e6


def clear_memo() -> None:
    for table in (shapes._SUIT, shapes._HONOURS, *shapes._WAITS, shapes._HONOUR_WAITS):
        table.clear()
    shapes._readings_memo.clear()


def is_seven_pairs_or_orphans(counts: Counts) -> bool:
    return sum(1 for c in counts if c == 2) == 7 or (
        all(counts[t] for t in (0, 8, 9, 17, 18, 26, *range(27, 34))) and sum(counts) == 14
    )


def check_agreement(hands13: list[Counts], hands14: list[Counts]) -> tuple[int, int]:
    """(hands whose waits differ only by seven pairs / orphans, hands that differ otherwise)."""
    special = other = 0
    for hand in hands13:
        ours, theirs = set(shape_waits(hand)), set(their_waits(hand))
        if ours == theirs:
            continue
        extra = theirs - ours
        only_special = not (ours - theirs) and all(
            is_seven_pairs_or_orphans([c + (t == k) for k, c in enumerate(hand)]) for t in extra
        )
        special, other = (special + 1, other) if only_special else (special, other + 1)
    for hand in hands14:
        if is_complete(hand) != Agari.is_agari(hand) and not is_seven_pairs_or_orphans(hand):
            other += 1
    return special, other


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--seed", type=int, default=20261202)
    parser.add_argument("--profile", action="store_true", help="cProfile our waits and wins")
    args = parser.parse_args()

    hands13, hands14 = make_hands(args.hands, args.seed)
    clear_memo()
    cold_waits = best_time(shape_waits, hands13, 1)
    cold_win = best_time(is_complete, hands14, 1)
    # Steady state: back-to-back passes of one function (best of ``repeat``), the whole set of
    # four measured in three rounds so that load from other processes hits both sides alike.
    ours_waits = ours_win = theirs_waits = theirs_win = float("inf")
    for _ in range(3):
        ours_waits = min(ours_waits, best_time(shape_waits, hands13, args.repeat))
        theirs_waits = min(theirs_waits, best_time(their_waits, hands13, max(2, args.repeat // 5)))
        ours_win = min(ours_win, best_time(is_complete, hands14, args.repeat))
        theirs_win = min(theirs_win, best_time(Agari.is_agari, hands14, args.repeat))
    # The first pass right after other work: our memo tables are no longer in the CPU caches.
    best_time(their_waits, hands13, 1)
    after_other_work = best_time(is_complete, hands14, 1)
    special, other = check_agreement(hands13, hands14)
    waiting = sum(1 for h in hands13 if shape_waits(h))

    print(
        f"python {platform.python_version()} on {platform.machine()}, hands={args.hands}, "
        f"{waiting} of them waiting, repeat={args.repeat}, seed={args.seed}"
    )
    print(f"{'check':<34} {'rules.shapes µs':>16} {'mahjong µs':>12} {'ratio':>8}")
    rows = [
        ("waits of 13 tiles (34× is_agari)", ours_waits, theirs_waits),
        ("win check of 14 tiles", ours_win, theirs_win),
    ]
    for name, ours, theirs in rows:
        print(f"{name:<34} {ours:>16.2f} {theirs:>12.2f} {theirs / ours:>7.1f}x")
    print(f"cold first pass (empty memo): waits {cold_waits:.2f} µs, win {cold_win:.2f} µs")
    print(f"win check, one pass right after 100 ms of other work: {after_other_work:.2f} µs")
    waits_entries = sum(len(table) for table in shapes._WAITS)
    print(f"memo sizes: suit values {len(shapes._SUIT)}, suit waits {waits_entries}")
    print(
        f"disagreements: {special} hands differ only by seven pairs/orphans (not a shape "
        f"here), {other} other"
    )
    if args.profile:
        clear_memo()
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(args.repeat):
            for hand in hands13:
                shape_waits(hand)
            for hand in hands14:
                is_complete(hand)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(8)
    return 1 if other else 0


if __name__ == "__main__":
    sys.exit(main())
