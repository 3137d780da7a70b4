"""Benchmark: the cost of 听牌提示 (``rules.hints``) per ``seat_view``, over simulated rounds.

    .venv/bin/python bench/bench_hints.py [--rounds 40] [--passes 3] [--seed bench-hints]

For each variant, whole rounds are played by bots that take a win, else declare ting when they
can, else choose uniformly among their legal actions (so hands get ready, as at a real table).
Every state of every round is recorded; then ``seat_view(state, seat)`` is timed for the four
seats after every action, in the order the server asks (decision messages after each action),
once with ``hints=False`` and once with ``hints=True``, in alternating passes. The hint memo and
the engine's legal-action cache are cleared at the start of each pass, so each pass starts cold
like a fresh server process. Reported per variant: mean µs per view without and with hints, the
difference, the 99th percentile and the worst single view with hints, and how many views had a
hint to show, and the CPU cost of one cold ``seat_hint`` (memo cleared first) for the views that
show a hint: the worst case, a ready hand analysed from scratch. Results are written up in
bench/results/hints.md.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import rules.hints as hints
from rules.engine import Action, RoundState, apply, legal_actions, new_round
from rules.engine.core import seats_to_act
from rules.engine.state import TurnPhase
from rules.registry import get_variant
from rules.views import seat_view
from rules.wall import seed_from_text

VARIANTS = ("changchun", "harbin", "siping", "taiyuan_lisi")
WINS = ("self_draw_win", "declare_win")


def ting_bot(rng: random.Random) -> Callable[[Sequence[Action]], Action]:
    """A win, else a ting declaration, else a uniform choice."""

    def choose(actions: Sequence[Action]) -> Action:
        for action in actions:
            if action.kind in WINS:
                return action
        ting = [a for a in actions if getattr(a, "ting", False)]
        if ting:
            return ting[rng.randrange(len(ting))]
        return actions[rng.randrange(len(actions))]

    return choose


def record_rounds(variant: str, rounds: int, seed: str) -> list[RoundState]:
    """Every state (after each action) of ``rounds`` rounds, ended states left out."""
    states: list[RoundState] = []
    for n in range(rounds):
        rng = random.Random(f"{seed}-{variant}-{n}")
        bot = ting_bot(rng)
        state, _ = new_round(
            variant=get_variant(variant), seed=seed_from_text(f"{seed}-{n}"), dealer=n % 4
        )
        while state.result is None:
            states.append(state)
            seat = seats_to_act(state)[0]
            state, _ = apply(state, bot(legal_actions(state, seat)))
    return states


def clear_caches() -> None:
    hints._analysis_memo.clear()


def to_discard(state: RoundState, seat: int) -> bool:
    """The seat holds 3n+2 tiles on its turn: the costly hint (every discard is analysed)."""
    phase = state.phase
    return isinstance(phase, TurnPhase) and phase.seat == seat and phase.drawn


@dataclass
class Pass:
    cpu: float = 0.0
    timings: list[float] = field(default_factory=list)
    discard_turns: list[float] = field(default_factory=list)
    shown: int = 0


def time_pass(states: Sequence[RoundState], *, with_hints: bool) -> Pass:
    """Each ``seat_view`` call in server order (wall seconds), the pass's CPU seconds, the calls
    on the viewer's own discard turn, and how many views carried a hint."""
    clear_caches()
    out = Pass()
    clock = time.perf_counter
    cpu = time.process_time()
    for state in states:
        for seat in range(4):
            start = clock()
            view = seat_view(state, seat, hints=with_hints)
            took = clock() - start
            out.timings.append(took)
            if to_discard(state, seat):
                out.discard_turns.append(took)
            out.shown += view.get("hint") is not None
    out.cpu = time.process_time() - cpu
    return out


def measure(variant: str, rounds: int, passes: int, seed: str) -> dict[str, Any]:
    states = record_rounds(variant, rounds, seed)
    plain: list[Pass] = []
    hinted: list[Pass] = []
    for _ in range(passes):
        plain.append(time_pass(states, with_hints=False))
        hinted.append(time_pass(states, with_hints=True))
    views = len(states) * 4

    def us(values: Sequence[float]) -> float:
        return round(statistics.median(values) * 1e6, 1)

    shown_at = [
        (state, seat)
        for state in states
        for seat in range(4)
        if hints.seat_hint(state, seat) is not None
    ]
    cold = []
    for _ in range(passes):
        cpu = time.process_time()
        for state, seat in shown_at:
            hints._analysis_memo.clear()  # worst case: nothing memoised
            hints.seat_hint(state, seat)
        cold.append((time.process_time() - cpu) / max(1, len(shown_at)))
    cpu_without = us([p.cpu / views for p in plain])
    cpu_with = us([p.cpu / views for p in hinted])
    last = sorted(hinted[-1].timings)
    return {
        "variant": variant,
        "rounds": rounds,
        "views": views,
        "views_with_a_hint": hinted[-1].shown,
        "cpu_us_without": cpu_without,
        "cpu_us_with": cpu_with,
        "cpu_us_hint_cost": round(cpu_with - cpu_without, 1),
        "wall_us_without": us([statistics.fmean(p.timings) for p in plain]),
        "wall_us_with": us([statistics.fmean(p.timings) for p in hinted]),
        "discard_turn_wall_us_without": us([statistics.fmean(p.discard_turns) for p in plain]),
        "discard_turn_wall_us_with": us([statistics.fmean(p.discard_turns) for p in hinted]),
        "cold_cpu_us_per_shown_hint": us(cold),
        "p99_wall_us_with": round(last[int(len(last) * 0.99)] * 1e6, 1),
        "max_wall_us_with": round(last[-1] * 1e6, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--seed", default="bench-hints")
    parser.add_argument("--variants", nargs="*", default=list(VARIANTS))
    args = parser.parse_args()
    print(f"# {platform.python_implementation()} {platform.python_version()}, {platform.machine()}")
    for variant in args.variants:
        print(json.dumps(measure(variant, args.rounds, args.passes, args.seed)), flush=True)


if __name__ == "__main__":
    main()
