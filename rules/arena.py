"""``python -m rules arena``: bots against bots in the duplicate format.

Each *deal* (a wall: a round seed and a first dealer, both from ``--seed``) is played once per
distinct rotation of the line-up over the seats, so every bot sits in every seat of the same wall
and the luck of the tiles cancels: with ``--bots hard,basic,basic,basic`` a deal is played four
times, with ``hard,basic,hard,basic`` twice (the other two rotations would replay the same
games). A bot sees only its seat's view (:func:`rules.views.seat_view`, hints off) and the room's
options; its generator is seeded from the seed, the deal, the rotation and the seat.

Reported per bot name: points per round (mean of its seats' nets over every round it played) with
a 95% interval taken over the deals (each deal's mean is one sample, so the luck shared by a
deal's rotations is not counted twice), win rate, deal-in rate (its discards that paid a win),
and its decision times (mean and p99, view included, wall clock and process CPU; a decision with
one legal action is not a decision). With exactly two bot names the line ``margin`` is the
first's points per round minus the second's, per deal, with its interval.
"""

from __future__ import annotations

import json
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rules.bots import ALL_LEVELS, choose_action
from rules.engine import apply, legal_actions, new_round
from rules.engine.core import seats_to_act
from rules.engine.state import EndedPhase, RoundState
from rules.registry import get_variant
from rules.tiles import EAST
from rules.variant import Variant
from rules.views import seat_view
from rules.wall import Drbg, seed_from_text

Z95 = 1.959964


@dataclass
class BotStats:
    """Totals for one bot name over the arena."""

    name: str
    rounds: int = 0
    points: int = 0
    wins: int = 0
    deal_ins: int = 0
    decisions: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    """Process CPU seconds per decision (the machine is shared: wall time counts the others)."""
    per_deal: list[float] = field(default_factory=list)

    def summary(self) -> dict[str, object]:
        mean, half = interval(self.per_deal)
        times = sorted(self.decisions)
        cpu = sorted(self.cpu)
        return {
            "bot": self.name,
            "seat_rounds": self.rounds,
            "points_per_round": round(mean, 3),
            "ci95": [round(mean - half, 3), round(mean + half, 3)],
            "win_rate": round(self.wins / self.rounds, 4) if self.rounds else 0.0,
            "deal_in_rate": round(self.deal_ins / self.rounds, 4) if self.rounds else 0.0,
            "decisions": len(times),
            "decision_ms_mean": _ms(statistics.fmean(times)) if times else 0.0,
            "decision_ms_p99": _ms(percentile(times, 0.99)),
            "decision_cpu_ms_mean": _ms(statistics.fmean(cpu)) if cpu else 0.0,
            "decision_cpu_ms_p99": _ms(percentile(cpu, 0.99)),
        }


def _ms(seconds: float) -> float:
    return round(1000 * seconds, 3)


def percentile(ordered: Sequence[float], q: float) -> float:
    """The ``q`` quantile of sorted samples (nearest rank); 0 for none."""
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def interval(samples: Sequence[float]) -> tuple[float, float]:
    """Mean and half-width of the normal 95% interval of the mean."""
    if not samples:
        return 0.0, 0.0
    mean = statistics.fmean(samples)
    if len(samples) < 2:
        return mean, math.inf
    return mean, Z95 * statistics.stdev(samples) / math.sqrt(len(samples))


def wins_of(state: RoundState) -> list[tuple[int, int | None]]:
    """(winner, discarder or None) of every win of an ended round: one at most, or several in
    成麻's 血战到底 (the variant keeps them in ``extra["wins"]``)."""
    records = state.extra.get("wins")
    if records:
        return [(int(r["seat"]), r.get("discarder")) for r in records]
    result = state.result
    if result is None or result.winner is None:
        return []
    return [(result.winner, result.discarder)]


def rotations(lineup: Sequence[str]) -> list[tuple[str, ...]]:
    """The distinct seatings of ``lineup`` by rotation: seat s gets ``lineup[(s + r) % 4]``."""
    seen: list[tuple[str, ...]] = []
    for r in range(4):
        seating = tuple(lineup[(s + r) % 4] for s in range(4))
        if seating not in seen:
            seen.append(seating)
    return seen


def deal_seeds(seed: str, variant: Variant, deal: int) -> tuple[bytes, int]:
    """The wall seed and the dealer of duplicate deal ``deal``: the same for every lineup, so
    that whoever replays an arena's deals (``bench/ab_hard.py``) plays the very same walls."""
    wall_seed = seed_from_text(f"{seed}/arena/{variant.key}/{deal}")
    dealer = Drbg(seed_from_text(f"{seed}/arena/{deal}/dealer")).randbelow(4)
    return wall_seed, dealer


def play_deal(
    variant: Variant,
    *,
    seed: bytes,
    dealer: int,
    seating: Sequence[str],
    rng_seed: str,
    times: dict[str, tuple[list[float], list[float]]],
) -> RoundState:
    """One round of the wall ``seed`` with bot ``seating[s]`` in seat s; returns the end."""
    state, _ = new_round(variant=variant, seed=seed, dealer=dealer, round_wind=EAST)
    rngs = [random.Random(f"{rng_seed}/{s}") for s in range(4)]
    options = state.options
    clock = time.perf_counter
    cpu_clock = time.process_time
    while not isinstance(state.phase, EndedPhase):
        seat = seats_to_act(state)[0]
        legal = legal_actions(state, seat)
        if len(legal) == 1:
            action = legal[0]
        else:
            start, cpu_start = clock(), cpu_clock()
            view = seat_view(state, seat, hints=False)
            action = choose_action(view, level=seating[seat], rng=rngs[seat], options=options)
            wall, cpu = times[seating[seat]]
            wall.append(clock() - start)
            cpu.append(cpu_clock() - cpu_start)
        state, _ = apply(state, action)
    return state


Progress = Callable[[int, dict[str, BotStats], list[float]], None]


def run_arena(
    variant: Variant,
    lineup: Sequence[str],
    deals: int,
    seed: str,
    *,
    every: int = 0,
    progress: Progress | None = None,
) -> tuple[dict[str, BotStats], list[float]]:
    """Play ``deals`` deals in every distinct rotation; per-name stats and per-deal margins.
    ``progress`` is called with the deals done so far after every ``every`` deals."""
    names = list(dict.fromkeys(lineup))
    stats = {name: BotStats(name) for name in names}
    times = {name: (stats[name].decisions, stats[name].cpu) for name in names}
    seatings = rotations(lineup)
    margins: list[float] = []
    for deal in range(deals):
        wall_seed, dealer = deal_seeds(seed, variant, deal)
        points = dict.fromkeys(names, 0)
        plays = dict.fromkeys(names, 0)
        for r, seating in enumerate(seatings):
            end = play_deal(
                variant,
                seed=wall_seed,
                dealer=dealer,
                seating=seating,
                rng_seed=f"{seed}/{deal}/{r}",
                times=times,
            )
            result = end.result
            assert result is not None
            won = wins_of(end)
            for s, name in enumerate(seating):
                st = stats[name]
                st.rounds += 1
                st.points += result.nets[s]
                points[name] += result.nets[s]
                plays[name] += 1
                st.wins += sum(1 for winner, _ in won if winner == s)
                st.deal_ins += sum(1 for _, discarder in won if discarder == s)
        means = {name: points[name] / plays[name] for name in names}
        for name in names:
            stats[name].per_deal.append(means[name])
        if len(names) == 2:
            margins.append(means[names[0]] - means[names[1]])
        if progress is not None and every and (deal + 1) % every == 0 and deal + 1 < deals:
            progress(deal + 1, stats, margins)
    return stats, margins


def arena_main(*, variant: str, bots: str, rounds: int, seed: str, every: int = 0) -> int:
    """The CLI: one JSON line per bot, then a summary line (the margin with two bot names);
    with ``every`` the same lines also after every ``every`` deals (``"partial": true``)."""
    lineup = [b.strip() for b in bots.split(",")]
    if len(lineup) != 4 or any(b not in ALL_LEVELS for b in lineup):
        raise SystemExit(f"--bots needs four of {', '.join(ALL_LEVELS)}, got {bots!r}")
    if rounds < 1:
        raise SystemExit("--rounds must be at least 1")
    start = time.perf_counter()

    def report(done: int, stats: dict[str, BotStats], margins: list[float]) -> None:
        partial = done < rounds
        for st in stats.values():
            line = {"variant": variant, **st.summary()}
            if partial:
                line["partial"] = True
            print(json.dumps(line))
        summary: dict[str, object] = {
            "variant": variant,
            "bots": lineup,
            "deals": done,
            "rotations": len(rotations(lineup)),
            "games": done * len(rotations(lineup)),
            "seed": seed,
            "seconds": round(time.perf_counter() - start, 1),
        }
        if partial:
            summary["partial"] = True
        if margins:
            mean, half = interval(margins)
            names = list(stats)
            summary["margin"] = {
                "of": f"{names[0]} - {names[1]}",
                "points_per_round": round(mean, 3),
                "ci95": [round(mean - half, 3), round(mean + half, 3)],
            }
        print(json.dumps(summary), flush=True)

    stats, margins = run_arena(
        get_variant(variant), lineup, rounds, seed, every=every, progress=report
    )
    report(rounds, stats, margins)
    return 0
