"""Benchmark: the judge CLI end to end against the ``mahjong`` library doing the same job.

    .venv/bin/pip install -r bench/requirements.txt
    .venv/bin/python bench/bench_judge_cli.py [--lines 20000] [--runs 7] [--variant shape]

Both sides are whole processes reading the same file of ``kind: ting`` JSON lines (13-tile
hands: half uniformly random draws, half a random complete hand with one tile removed, so that
most of those wait; in canonical notation, ``"344567m15p368s16z"``) and writing one JSON
answer line per input line: ours is
``python -m rules judge FILE``, theirs ``bench/judge_cli_mahjong.py FILE`` (``Agari.is_agari`` on
each of the 34 kinds). Runs alternate (ours, theirs, ours, …) so that a busy machine slows both
alike; the medians and their ratio are reported, with the machine's load average. With
``--before OLD`` (a checkout of an earlier commit) that commit's judge runs in the same rounds
(before, ours, theirs, before, …), so a before/after pair is measured under the same load. The
answers' waits are compared line by line (``shape``: the bare four-sets-and-a-pair test, which
is what ``mahjong`` computes apart from seven pairs and thirteen orphans, counted separately),
and ours with the earlier commit's byte for byte.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NAMES = [f"{d}{s}" for s in "mps" for d in range(1, 10)] + [f"{d}z" for d in range(1, 8)]


def random_hand(rng: random.Random) -> list[int]:
    wall = [t for t in range(34) for _ in range(4)]
    return sorted(rng.sample(wall, 13))


def waiting_hand(rng: random.Random) -> list[int]:
    """A random complete hand (four sets and a pair, at most four of a kind), one tile removed."""
    while True:
        counts = [0] * 34
        for _ in range(4):
            if rng.random() < 0.6:
                first = rng.randrange(3) * 9 + rng.randrange(7)
                for t in (first, first + 1, first + 2):
                    counts[t] += 1
            else:
                counts[rng.randrange(34)] += 3
        counts[rng.randrange(34)] += 2
        if max(counts) <= 4:
            tiles = [t for t in range(34) for _ in range(counts[t])]
            tiles.remove(rng.choice(tiles))
            return tiles


def notation(tiles: list[int]) -> str:
    """Canonical mpsz notation (judge.md): ``"344567m15p368s16z"``."""
    groups: dict[str, str] = {}
    for t in sorted(tiles):
        letter = "mpsz"[t // 9]
        groups[letter] = groups.get(letter, "") + str(t % 9 + 1)
    return "".join(digits + letter for letter, digits in groups.items())


def write_cases(path: Path, lines: int, variant: str, seed: int) -> None:
    rng = random.Random(seed)
    with path.open("w", encoding="utf-8") as out:
        for i in range(lines):
            tiles = random_hand(rng) if i % 2 else waiting_hand(rng)
            case = {
                "id": i,
                "kind": "ting",
                "variant": variant,
                "dealer": 0,
                "winner": 0,
                "hand": notation(tiles),
            }
            out.write(json.dumps(case) + "\n")


def timed(command: list[str], output: Path, cwd: Path = ROOT) -> float:
    start = time.perf_counter()
    with output.open("w", encoding="utf-8") as out:
        subprocess.run(command, stdout=out, check=True, cwd=cwd)
    return time.perf_counter() - start


def compare(ours: Path, theirs: Path) -> tuple[int, int]:
    """(lines whose waits differ, of which seven pairs/thirteen orphans only `mahjong` takes)."""
    differ = special = 0
    with ours.open(encoding="utf-8") as a, theirs.open(encoding="utf-8") as b:
        for line_a, line_b in zip(a, b, strict=True):
            waits_a, waits_b = json.loads(line_a)["waits"], json.loads(line_b)["waits"]
            if waits_a != waits_b:
                differ += 1
                special += set(waits_a) <= set(waits_b)
    return differ, special


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--variant", default="shape")
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument(
        "--rules-from",
        type=Path,
        default=ROOT,
        help="a checkout whose rules/ is ours (another commit's, for a before/after)",
    )
    parser.add_argument(
        "--before",
        type=Path,
        default=None,
        help="also run this checkout's judge in the same rounds (before, ours, theirs, …)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cases, ours_out, theirs_out, before_out = (
            Path(tmp) / n for n in ("in", "ours", "theirs", "before")
        )
        write_cases(cases, args.lines, args.variant, args.seed)
        ours_cmd = [sys.executable, "-m", "rules", "judge", str(cases)]
        theirs_cmd = [sys.executable, str(ROOT / "bench" / "judge_cli_mahjong.py"), str(cases)]
        load_before = os.getloadavg()
        ours, theirs, before = [], [], []
        for _ in range(args.runs):
            if args.before is not None:
                before.append(timed(ours_cmd, before_out, args.before))
            ours.append(timed(ours_cmd, ours_out, args.rules_from))
            theirs.append(timed(theirs_cmd, theirs_out))
        load_after = os.getloadavg()
        differ, special = compare(ours_out, theirs_out)
        same_as_before = args.before is None or before_out.read_bytes() == ours_out.read_bytes()
    theirs_med = statistics.median(theirs)
    print(f"lines {args.lines}, variant {args.variant}, runs {args.runs} (alternated)")
    print(f"ours from {args.rules_from}" + (f", before from {args.before}" if before else ""))
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f}")
    for name, times in (("before", before), ("ours", ours), ("mahjong", theirs)):
        if times:
            all_times = ", ".join(f"{t:.3f}" for t in times)
            print(f"{name:7} median {statistics.median(times):.3f} s  (all: {all_times})")
    if before:
        print(f"ratio before / mahjong: {statistics.median(before) / theirs_med:.2f}")
    print(f"ratio ours / mahjong: {statistics.median(ours) / theirs_med:.2f}")
    if before:
        print(f"answers byte for byte as before: {'yes' if same_as_before else 'NO'}")
    print(f"answers whose waits differ: {differ} (mahjong's seven pairs / 13 orphans: {special})")


if __name__ == "__main__":
    main()
