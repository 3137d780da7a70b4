"""A/B of the round engine: CPU µs per action of two source trees, runs alternated.

    git archive main | tar -x -C /tmp/before        # the tree to compare against
    .venv/bin/python bench/ab_simulate.py /tmp/before --variant harbin --runs 5

Each run is a fresh interpreter in one tree (``before`` first, then this repository), playing
``--rounds`` bare rounds (random bots, no invariant check unless ``--replay``) after a warm-up,
and printing the process CPU time per action. Alternating the trees run by run lets a busy
machine slow both alike; min and median are reported. Either tree's ``rules`` may take a variant
key (older engines) or the registry's object.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
RUN = r"""
import sys, time
sys.path.insert(0, ".")
from rules.simulate import simulate_rounds
try:
    from rules.registry import VARIANTS
    variant = VARIANTS[sys.argv[1]]
except ImportError:  # an engine from before the registry: variants by key
    variant = sys.argv[1]
replay = sys.argv[3] == "1"
simulate_rounds(variant, 30, "warm", check_replay=False)
start = time.process_time()
report = simulate_rounds(variant, int(sys.argv[2]), "ab", check_replay=replay)
assert report.invariants == "ok", report.invariants
print((time.process_time() - start) / report.actions * 1e6)
"""


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("before", type=Path, help="the other source tree (its rules/)")
    parser.add_argument("--variant", default="changchun")
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--replay", action="store_true", help="check invariants and replay")
    args = parser.parse_args()
    trees = {"before": args.before.resolve(), "after": HERE}
    found: dict[str, list[float]] = {name: [] for name in trees}
    for _ in range(args.runs):
        for name, tree in trees.items():
            argv = [args.variant, str(args.rounds), "1" if args.replay else "0"]
            out = subprocess.run(
                [sys.executable, "-c", RUN, *argv], cwd=tree, capture_output=True, text=True
            )
            if out.returncode:
                sys.exit(out.stderr)
            found[name].append(float(out.stdout))
    for name, values in found.items():
        runs = " ".join(f"{v:.1f}" for v in values)
        print(f"{name:6} min {min(values):.2f}  median {statistics.median(values):.2f}  ({runs})")
    ratio = statistics.median(found["after"]) / statistics.median(found["before"])
    print(f"after / before (medians): {ratio:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
