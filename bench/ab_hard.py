"""A/B of ``hard`` against itself with some of the variant's bot facts switched off, both
measured against ``normal`` on the same duplicate deals (issue 26, Taiwan).

    nice -n 10 .venv/bin/python bench/ab_hard.py --variant taiwan16 --off ting_locks \\
        --rounds 1000 --seed dev-x

Plays ``hard,normal,hard,normal`` (``rules.arena``) twice per deal: once with today's ``hard``
(``new``), once with ``hard`` on a view whose :class:`~rules.variant.BotFacts` have the ``--off``
fields set false (``old``; an opponent's ``passed`` kinds emptied with ``ting_locks``). The line
``delta`` is the per-deal difference of the two margins (new − old) with its 95% interval:
the deals where both play alike add nothing to its noise, so it resolves a change of a bot far
better than the two margins apart. Also per side: win rate, deal-in rate, mean points of a win
and of a deal-in (``--profile``).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.arena import deal_seeds, interval, play_deal, rotations, wins_of
from rules.bots import POLICIES
from rules.bots.hard import hard
from rules.bots.view import BotView
from rules.registry import get_variant


def old_hard(off: tuple[str, ...]):  # type: ignore[no-untyped-def]
    def policy(bv: BotView, rng: random.Random):  # type: ignore[no-untyped-def]
        facts = dataclasses.replace(bv.facts, **dict.fromkeys(off, False))
        opponents = bv.opponents
        if "ting_locks" in off:
            opponents = tuple(dataclasses.replace(o, passed=frozenset()) for o in opponents)
        return hard(dataclasses.replace(bv, facts=facts, opponents=opponents), rng)

    return policy


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--variant", default="taiwan16")
    parser.add_argument("--off", default="ting_locks")
    parser.add_argument("--rounds", type=int, default=500)
    parser.add_argument("--seed", required=True)
    parser.add_argument("--every", type=int, default=250)
    args = parser.parse_args()
    variant = get_variant(args.variant)
    POLICIES["hard_old"] = old_hard(tuple(f for f in args.off.split(",") if f))
    sides = {"new": ("hard", "normal"), "old": ("hard_old", "normal")}
    margins: dict[str, list[float]] = {"new": [], "old": []}
    tally = {
        side: {"rounds": 0, "wins": 0, "win_pts": 0, "deal_ins": 0, "deal_in_pts": 0, "draws": 0}
        for side in sides
    }
    start = time.perf_counter()
    for deal in range(args.rounds):
        wall_seed, dealer = deal_seeds(args.seed, variant, deal)
        for side, (a, b) in sides.items():
            points = {a: 0, b: 0}
            plays = {a: 0, b: 0}
            for r, seating in enumerate(rotations([a, b, a, b])):
                times: dict[str, tuple[list[float], list[float]]] = {
                    a: ([], []),
                    b: ([], []),
                }
                end = play_deal(
                    variant,
                    seed=wall_seed,
                    dealer=dealer,
                    seating=seating,
                    rng_seed=f"{args.seed}/{deal}/{r}",
                    times=times,
                )
                result = end.result
                assert result is not None
                won = wins_of(end)
                t = tally[side]
                if not won:
                    t["draws"] += 1
                for s, name in enumerate(seating):
                    points[name] += result.nets[s]
                    plays[name] += 1
                    if name != a:
                        continue
                    t["rounds"] += 1
                    for winner, discarder in won:
                        if winner == s:
                            t["wins"] += 1
                            t["win_pts"] += result.nets[s]
                        if discarder == s:
                            t["deal_ins"] += 1
                            t["deal_in_pts"] += result.nets[s]
            margins[side].append(points[a] / plays[a] - points[b] / plays[b])
        done = deal + 1
        if done % args.every == 0 or done == args.rounds:
            out: dict[str, object] = {"deals": done, "seconds": round(time.perf_counter() - start)}
            for side in sides:
                mean, half = interval(margins[side])
                t = tally[side]
                out[side] = {
                    "margin": round(mean, 3),
                    "ci95": [round(mean - half, 3), round(mean + half, 3)],
                    "win_rate": round(t["wins"] / t["rounds"], 4),
                    "deal_in_rate": round(t["deal_ins"] / t["rounds"], 4),
                    "pts_per_win": round(t["win_pts"] / max(1, t["wins"]), 2),
                    "pts_per_deal_in": round(t["deal_in_pts"] / max(1, t["deal_ins"]), 2),
                }
            diff = [n - o for n, o in zip(margins["new"], margins["old"], strict=True)]
            mean, half = interval(diff)
            out["delta"] = {
                "new_minus_old": round(mean, 3),
                "ci95": [round(mean - half, 3), round(mean + half, 3)],
                "deals_differing": sum(1 for d in diff if d),
            }
            print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
