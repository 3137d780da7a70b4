"""Benchmark: the time of one bot decision (target: ≤ 20 ms p99 on this machine).

    .venv/bin/python bench/bench_bots.py [--deals 25] [--seed bench-bots] [--variants a,b]

For each variant, ``--deals`` deals are played by the four levels at once (``hard, normal, easy,
basic``) in the arena's duplicate format (every rotation: each level plays every seat of every
wall), in one process started cold (the shanten memo empty, as a fresh server). A decision is
timed from the seat's view (``seat_view``, hints off: what the bot is given) to the action it
returns; a decision with a single legal action is not asked. Reported per variant and level: the
number of decisions, mean, p99 and worst wall-clock milliseconds, and the p99 of process CPU
milliseconds (what the decision itself costs when others share the cores). Results in
bench/results/bots.md.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.arena import percentile, run_arena
from rules.registry import VARIANTS

LINEUP = ["hard", "normal", "easy", "basic"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=25)
    parser.add_argument("--seed", default="bench-bots")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}")
    print("| variant | level | decisions | mean ms | p99 ms | max ms | CPU p99 ms |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    started = time.process_time()
    for key in args.variants.split(","):
        stats, _ = run_arena(VARIANTS[key], LINEUP, args.deals, args.seed)
        for level in LINEUP:
            times = sorted(stats[level].decisions)
            cpu_times = sorted(stats[level].cpu)
            mean = sum(times) / len(times)
            print(
                f"| {key} | {level} | {len(times)} | {1000 * mean:.2f} "
                f"| {1000 * percentile(times, 0.99):.2f} | {1000 * times[-1]:.2f} "
                f"| {1000 * percentile(cpu_times, 0.99):.2f} |"
            )
    print(f"process CPU {time.process_time() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
