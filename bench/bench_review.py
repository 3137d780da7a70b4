"""Benchmark: the CPU time of reviewing a round (牌谱分析; target: < 1 s per round).

    nice -n 10 .venv/bin/python bench/bench_review.py [--rounds 20] [--seed bench-review]
                                                       [--variants a,b]

For each variant, ``--rounds`` rounds are played by bots (seats: ``normal``, ``easy``,
``hard``, ``easy``, so the played moves often differ from the ``hard`` bot's and the deal-in
and candidate paths all run) from seeded walls, then each round is reviewed for **all four
seats** the way the task does it: one replay from the seed and the actions
(:func:`rules.review.review_round`), then every decision of each seat with the ``hard`` bot's
choice and, on each discard, every candidate's shanten and effective tiles. The first round of
the first variant runs with the memos empty (a cold worker). Reported per variant: rounds,
decisions reviewed per round, and the process CPU seconds per round (mean, median, worst), plus
the share of that spent asking the bot. Results in bench/results/review.md.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import rules.review as review_module
from rules.bots import choose_action
from rules.engine import apply, legal_actions, new_round
from rules.engine.core import seats_to_act
from rules.engine.state import EndedPhase
from rules.registry import VARIANTS
from rules.review import review_round
from rules.views import seat_view
from rules.wall import seed_from_text

SEATING = ("normal", "easy", "hard", "easy")


def played_round(key: str, seed_text: str, n: int) -> tuple[bytes, int, list]:  # type: ignore[type-arg]
    variant = VARIANTS[key]
    seed = seed_from_text(f"{seed_text}/{key}/{n}")
    dealer = n % 4
    state, _ = new_round(variant=variant, seed=seed, dealer=dealer)
    rngs = [random.Random(f"{seed_text}/{key}/{n}/{s}") for s in range(4)]
    actions = []
    while not isinstance(state.phase, EndedPhase):
        seat = seats_to_act(state)[0]
        legal = legal_actions(state, seat)
        if len(legal) == 1:
            action = legal[0]
        else:
            view = seat_view(state, seat, hints=False)
            action = choose_action(view, level=SEATING[seat], rng=rngs[seat], options=state.options)
        actions.append(action)
        state, _ = apply(state, action)
    return seed, dealer, actions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--seed", default="bench-review")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}")
    print(
        "| variant | rounds | decisions / round | CPU s / round mean | median | worst | bot share |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    bot_time = [0.0]
    original = review_module.bot_choice

    def timed_bot(state, seat):  # type: ignore[no-untyped-def]
        start = time.process_time()
        try:
            return original(state, seat)
        finally:
            bot_time[0] += time.process_time() - start

    review_module.bot_choice = timed_bot  # type: ignore[assignment]
    worst_overall = (0.0, "")
    for key in args.variants.split(","):
        played = [played_round(key, args.seed, n) for n in range(args.rounds)]
        times: list[float] = []
        decisions = 0
        bot_time[0] = 0.0
        for n, (seed, dealer, actions) in enumerate(played):
            start = time.process_time()
            reviews = review_round(VARIANTS[key], seed=seed, dealer=dealer, actions=actions)
            spent = time.process_time() - start
            times.append(spent)
            decisions += sum(r["count"] for r in reviews.values())
            if spent > worst_overall[0]:
                worst_overall = (spent, f"{key} round {n} ({len(actions)} actions)")
        total = sum(times)
        print(
            f"| {key} | {len(times)} | {decisions / len(times):.1f} | {total / len(times):.3f} "
            f"| {statistics.median(times):.3f} | {max(times):.3f} "
            f"| {100 * bot_time[0] / total:.0f}% |"
        )
    print(f"worst round: {worst_overall[0]:.3f} s CPU, {worst_overall[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
