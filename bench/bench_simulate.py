"""Benchmark: Changchun rounds per second with random bots, against RLCard's mahjong environment
(``rlcard.make("mahjong")``, random agents, games per second), measured in the same run.

    .venv/bin/pip install -r bench/requirements.txt
    .venv/bin/python bench/bench_simulate.py [--rounds 600] [--games 60] [--blocks 6] [--profile]

Both sides are timed in alternating blocks (so a busy machine slows both alike), by wall clock
and by process CPU time. Our side is timed twice: the bare round loop (bots + engine), and the
full ``python -m rules simulate`` loop (invariants and the replay check after every round), and
that loop with ``--replay-every 10`` (the replay check on every tenth round).
Also reported: the peak memory of one simulated round (tracemalloc). ``--profile`` prints the
cProfile top functions of the bare loop. Results are written up in bench/results/simulate.md.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import platform
import pstats
import random
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.registry import VARIANTS
from rules.simulate import play_round, random_bot, simulate_rounds
from rules.wall import seed_from_text

CHANGCHUN = VARIANTS["changchun"]


def time_ours(rounds: int, seed: str, *, check: bool, every: int = 1) -> tuple[float, float, int]:
    wall, cpu = time.perf_counter(), time.process_time()
    report = simulate_rounds(CHANGCHUN, rounds, seed, check_replay=check, replay_every=every)
    assert report.invariants == "ok", report.invariants
    return time.perf_counter() - wall, time.process_time() - cpu, report.actions


def make_rlcard():  # type: ignore[no-untyped-def]
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("mahjong", config={"seed": 0})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    return env


def time_rlcard(env, games: int) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(games):
        env.run(is_training=False)
    return time.perf_counter() - wall, time.process_time() - cpu


def peak_round_memory() -> int:
    bot = random_bot(random.Random(1))
    play_round(CHANGCHUN, seed=seed_from_text("memory-warmup"), dealer=0, bot=bot)
    tracemalloc.start()
    play_round(CHANGCHUN, seed=seed_from_text("memory"), dealer=0, bot=bot)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=600, help="our rounds per block")
    parser.add_argument("--games", type=int, default=60, help="RLCard games per block")
    parser.add_argument("--blocks", type=int, default=6)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()

    env = make_rlcard()
    time_ours(20, "warmup", check=False)
    time_rlcard(env, 3)
    ours = [0.0, 0.0]
    full = [0.0, 0.0]
    tenth = [0.0, 0.0]
    theirs = [0.0, 0.0]
    actions = 0
    for block in range(args.blocks):
        w, c, n = time_ours(args.rounds, f"bench-{block}", check=False)
        ours[0] += w
        ours[1] += c
        actions += n
        w, c, _ = time_ours(args.rounds // 4, f"bench-full-{block}", check=True)
        full[0] += w
        full[1] += c
        w, c, _ = time_ours(args.rounds // 4, f"bench-tenth-{block}", check=True, every=10)
        tenth[0] += w
        tenth[1] += c
        w, c = time_rlcard(env, args.games)
        theirs[0] += w
        theirs[1] += c
    our_rounds = args.rounds * args.blocks
    full_rounds = args.rounds // 4 * args.blocks
    their_games = args.games * args.blocks
    result = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "ours_rounds": our_rounds,
        "ours_rounds_per_s_wall": round(our_rounds / ours[0], 1),
        "ours_rounds_per_s_cpu": round(our_rounds / ours[1], 1),
        "ours_actions_per_round": round(actions / our_rounds, 1),
        "ours_us_per_action_cpu": round(ours[1] / actions * 1e6, 1),
        "simulate_cli_rounds_per_s_cpu": round(full_rounds / full[1], 1),
        "simulate_cli_replay_every_10_rounds_per_s_cpu": round(full_rounds / tenth[1], 1),
        "rlcard_games": their_games,
        "rlcard_games_per_s_wall": round(their_games / theirs[0], 1),
        "rlcard_games_per_s_cpu": round(their_games / theirs[1], 1),
        "ratio_cpu": round((our_rounds / ours[1]) / (their_games / theirs[1]), 1),
        "ratio_wall": round((our_rounds / ours[0]) / (their_games / theirs[0]), 1),
        "ratio_cli_cpu": round((full_rounds / full[1]) / (their_games / theirs[1]), 1),
        "ratio_cli_replay_every_10_cpu": round(
            (full_rounds / tenth[1]) / (their_games / theirs[1]), 1
        ),
        "peak_round_memory_kib": round(peak_round_memory() / 1024, 1),
    }
    print(json.dumps(result, indent=2))
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(simulate_rounds, CHANGCHUN, 200, "profile", check_replay=False)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
    return 0


if __name__ == "__main__":
    sys.exit(main())
