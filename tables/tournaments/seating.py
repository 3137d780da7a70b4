"""Who sits where in a round of a four-player Swiss event (*Seating, four per table*).

The brief asks for "round 1 random (or seeded by rating); later rounds grouped by standings with the
fewest repeat meetings and balanced seat winds (the "club Swiss" used by 4-player riichi tournament
software); each player sits out at most once when the count is not a multiple of 4 (lowest-ranked
first), or bots fill". :func:`seating_make` does one round; the caller keeps the history.

The steps, in order:

1. **Sit-outs.** When ``len(ranking) % 4 == k != 0``, ``k`` players sit out: the lowest-ranked of
   those who have not sat out before (``sat_out_before``). Only when fewer than ``k`` such players
   remain (everyone else has already sat out once) do the lowest-ranked of those who have sat out
   sit out again. (The caller who fills with bots passes a ranking whose length is a multiple of
   four, and nobody sits out.) The sit-outs are fixed first: a forbidden pair is kept apart among
   the players who play, not by choosing other sit-outs.
2. **The target grouping.** Round 1, ``round1="random"``: the players shuffled by ``rng``, four by
   four. Round 1, ``round1="ranked"``: the ranking cut into four quartiles (seed groups), and each
   table gets one player of each quartile, in a snake: quartile 1 and 3 fill tables 1…T in order,
   quartiles 2 and 4 in reverse, so that the sums of seeds per table are as even as they can be (the
   "split" seeding of Swiss and riichi tournament software: the strongest players do not meet in
   round 1). Later rounds: the ranking (standings, best first) four by four (table 1: the top four).
3. **Improvement** by swapping players between tables, nearest tables first (the Swiss grouping of
   MahjongPantheon's seating and the like: build tables from the standings, then swap to avoid the
   players who already played together). The cost, compared lexicographically:

   a. forbidden pairs at one table (never, when any arrangement of the playing players avoids it);
   b. repeat meetings: for every pair at one table, the number of earlier tables they shared (a pair
      that met twice counts twice);
   c. the squares of those numbers (of two arrangements with as many repeats, the one that spreads
      them over more pairs);
   d. the distance from the target grouping: for every player, the square of the number of tables
      between their table and their target table (in Swiss rounds: stay with one's standings
      group; in round 1: keep the draw).

   The search is bounded and deterministic for a given ``rng``: a hill climb over single swaps,
   perturbed and climbed again a fixed number of times (iterated local search), then a
   branch-and-bound over all arrangements with a fixed budget of nodes, which completes on fields up
   to 12 players (the result is then the exact optimum), and on larger fields improves what the
   climb found while its budget lasts. When the best arrangement still seats a forbidden pair, a
   backtracking search for an arrangement without one runs too (such an arrangement always exists
   when no player has as many forbidden partners as there are tables: Hajnal–Szemerédi).
4. **Seat winds.** Within each table the seats East, South, West, North are assigned so that each
   player's counts of the four winds over the event stay as even as possible: the permutation that
   minimises the largest count any of the four will have, then the sum of the counts of the seats
   they get; ties are broken by ``rng``.

Same inputs and the same ``rng`` state give the same :class:`Seating`.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal

__all__ = ["Seating", "seating_make"]

TABLE_SIZE = 4
# Bounds of the search (module docstring); module constants so that tests can force one path.
CLIMB_PASSES = 60
PERTURB_ROUNDS = 30
EXACT_NODE_BUDGET = 250_000
FORBIDDEN_NODE_BUDGET = 100_000
# Swaps consider tables at most this many places apart (all of them on fields up to 24 players).
SWAP_WINDOW = 5

_PERMUTATIONS: tuple[tuple[int, ...], ...] = tuple(itertools.permutations(range(TABLE_SIZE)))


@dataclass(frozen=True)
class Seating:
    """One round's seating: ``tables`` in table order (table 1 first), each four entrant ids in seat
    order East, South, West, North; ``sitting_out`` in ranking order."""

    tables: tuple[tuple[int, int, int, int], ...]
    sitting_out: tuple[int, ...]


def seating_make(
    *,
    round_no: int,
    ranking: Sequence[int],
    history: Sequence[Sequence[Sequence[int]]],
    sat_out_before: Collection[int],
    forbidden_pairs: Collection[frozenset[int]],
    rng: random.Random,
    round1: Literal["random", "ranked"] = "random",
) -> Seating:
    """Seat round ``round_no`` (1-based) of an event.

    ``ranking``: every entrant who plays this round, best first (round 1: registration or rating
    order; later rounds: the standings). ``history``: the earlier rounds' tables, each the ids in
    seat order (ids no longer in ``ranking`` are ignored). ``sat_out_before``: who has sat out a
    round already. ``forbidden_pairs``: pairs who must not share a table when it can be avoided.
    Raises ``ValueError`` on fewer than four players, a repeated id, a bad ``round_no`` or
    ``round1``.
    """
    if round_no < 1:
        raise ValueError(f"round_no must be 1 or more, not {round_no}")
    if round1 not in ("random", "ranked"):
        raise ValueError(f"round1 must be 'random' or 'ranked', not {round1!r}")
    if len(set(ranking)) != len(ranking):
        raise ValueError("ranking repeats an entrant")
    if len(ranking) < TABLE_SIZE:
        raise ValueError(f"a round needs at least {TABLE_SIZE} players, not {len(ranking)}")

    sitting_out = _sit_outs(ranking=ranking, sat_out_before=sat_out_before)
    out = set(sitting_out)
    playing = [entrant for entrant in ranking if entrant not in out]
    target = _target_tables(count=len(playing), round_no=round_no, round1=round1, rng=rng)
    problem = _Problem.build(
        playing=playing, target=target, history=history, forbidden_pairs=forbidden_pairs
    )
    groups = problem.solve(rng)
    winds = _wind_counts(history)
    tables = tuple(_seat_winds([playing[i] for i in group], winds, rng) for group in groups)
    return Seating(tables=tables, sitting_out=sitting_out)


def _sit_outs(*, ranking: Sequence[int], sat_out_before: Collection[int]) -> tuple[int, ...]:
    """The lowest-ranked who have not sat out yet; then, only if too few are left, the
    lowest-ranked of those who have (module docstring, step 1). In ranking order."""
    count = len(ranking) % TABLE_SIZE
    if count == 0:
        return ()
    fresh = [entrant for entrant in ranking if entrant not in sat_out_before]
    chosen = fresh[-count:] if len(fresh) >= count else list(fresh)
    if len(chosen) < count:
        again = [entrant for entrant in ranking if entrant in sat_out_before]
        chosen += again[len(again) - (count - len(chosen)) :]
    picked = set(chosen)
    return tuple(entrant for entrant in ranking if entrant in picked)


def _target_tables(*, count: int, round_no: int, round1: str, rng: random.Random) -> list[int]:
    """For each playing player (by ranking position), the table the grouping aims at."""
    tables = count // TABLE_SIZE
    if round_no > 1:
        return [position // TABLE_SIZE for position in range(count)]
    if round1 == "ranked":
        target = []
        for position in range(count):
            quartile, place = divmod(position, tables)
            target.append(place if quartile % 2 == 0 else tables - 1 - place)
        return target
    order = list(range(count))
    rng.shuffle(order)
    target = [0] * count
    for slot, position in enumerate(order):
        target[position] = slot // TABLE_SIZE
    return target


class _Problem:
    """The arrangement search of step 3 on players ``0…n-1`` (ranking positions). The four costs
    are folded into one integer by weights that keep them lexicographic."""

    def __init__(
        self,
        *,
        pair: list[list[int]],
        deviation: list[list[int]],
        target: list[int],
        w_forbidden: int,
    ) -> None:
        self.size = len(pair)
        self.tables = self.size // TABLE_SIZE
        self.pair = pair  # pair[i][j]: the cost of i and j sharing a table
        self.deviation = deviation  # deviation[i][t]: the cost of i sitting at table t
        self.target = target  # target[i]: the table the grouping aims at for i
        self.w_forbidden = w_forbidden  # a pair cost this high or higher is a forbidden pair

    @classmethod
    def build(
        cls,
        *,
        playing: Sequence[int],
        target: Sequence[int],
        history: Sequence[Sequence[Sequence[int]]],
        forbidden_pairs: Collection[frozenset[int]],
    ) -> _Problem:
        size = len(playing)
        tables = size // TABLE_SIZE
        index = {entrant: position for position, entrant in enumerate(playing)}
        meet = [[0] * size for _ in range(size)]
        for round_tables in history:
            for table in round_tables:
                present = sorted({index[e] for e in table if e in index})
                for i, j in itertools.combinations(present, 2):
                    meet[i][j] += 1
                    meet[j][i] += 1
        forbidden = [[False] * size for _ in range(size)]
        for apart in forbidden_pairs:
            members = [index[e] for e in apart if e in index]
            if len(members) == 2:
                i, j = members
                forbidden[i][j] = forbidden[j][i] = True
        most = max((max(row) for row in meet), default=0)
        pairs_seated = 6 * tables
        w_spread = size * max(tables - 1, 0) ** 2 + 1
        w_repeat = w_spread * (pairs_seated * most * most + 1)
        w_forbidden = w_repeat * (pairs_seated * most + 1)
        pair = [
            [
                (w_forbidden if forbidden[i][j] else 0)
                + w_repeat * meet[i][j]
                + w_spread * meet[i][j] * meet[i][j]
                for j in range(size)
            ]
            for i in range(size)
        ]
        deviation = [[(t - target[i]) ** 2 for t in range(tables)] for i in range(size)]
        return cls(pair=pair, deviation=deviation, target=list(target), w_forbidden=w_forbidden)

    # -- costs ---------------------------------------------------------------------------------

    def cost(self, groups: Sequence[Sequence[int]]) -> int:
        total = 0
        for table, group in enumerate(groups):
            for i, j in itertools.combinations(group, 2):
                total += self.pair[i][j]
            for i in group:
                total += self.deviation[i][table]
        return total

    def has_forbidden(self, groups: Sequence[Sequence[int]]) -> bool:
        return any(
            self.pair[i][j] >= self.w_forbidden
            for group in groups
            for i, j in itertools.combinations(group, 2)
        )

    # -- the search ----------------------------------------------------------------------------

    def solve(self, rng: random.Random) -> list[list[int]]:
        start: list[list[int]] = [[] for _ in range(self.tables)]
        # Fill the target tables; a position-stable order keeps the result deterministic.
        for i in range(self.size):
            start[self.target[i]].append(i)
        best = self._climb(start)
        best_cost = self.cost(best)
        for _ in range(PERTURB_ROUNDS if self.tables > 1 else 0):
            trial = [list(group) for group in best]
            for _ in range(rng.randint(2, 4)):
                ta, tb = rng.sample(range(self.tables), 2)
                ia, ib = rng.randrange(TABLE_SIZE), rng.randrange(TABLE_SIZE)
                trial[ta][ia], trial[tb][ib] = trial[tb][ib], trial[ta][ia]
            trial = self._climb(trial)
            trial_cost = self.cost(trial)
            if trial_cost < best_cost:
                best, best_cost = trial, trial_cost
        if self.has_forbidden(best):
            apart = self._apart()
            if apart is not None:
                apart = self._climb(apart)
                if self.cost(apart) < best_cost:
                    best, best_cost = apart, self.cost(apart)
        exact = self._branch_and_bound(best_cost)
        if exact is not None:
            best = exact
        return [sorted(group) for group in best]

    def _climb(self, groups: list[list[int]]) -> list[list[int]]:
        """First-improvement hill climb over swaps of two players, nearest tables first."""
        pair, deviation = self.pair, self.deviation
        window = min(SWAP_WINDOW, self.tables - 1)
        for _ in range(CLIMB_PASSES):
            improved = False
            for distance in range(1, window + 1):
                for ta in range(self.tables - distance):
                    tb = ta + distance
                    group_a, group_b = groups[ta], groups[tb]
                    for ia in range(TABLE_SIZE):
                        for ib in range(TABLE_SIZE):
                            a, b = group_a[ia], group_b[ib]
                            delta = (
                                deviation[a][tb]
                                + deviation[b][ta]
                                - deviation[a][ta]
                                - deviation[b][tb]
                            )
                            for x in group_a:
                                if x != a:
                                    delta += pair[b][x] - pair[a][x]
                            for y in group_b:
                                if y != b:
                                    delta += pair[a][y] - pair[b][y]
                            if delta < 0:
                                group_a[ia], group_b[ib] = b, a
                                improved = True
            if not improved:
                break
        return groups

    def _apart(self) -> list[list[int]] | None:
        """Backtracking for an arrangement with no forbidden pair, most-constrained players
        first; ``None`` if there is none or the budget runs out."""
        forbidden = [
            [j for j in range(self.size) if self.pair[i][j] >= self.w_forbidden]
            for i in range(self.size)
        ]
        order = sorted(range(self.size), key=lambda i: (-len(forbidden[i]), i))
        groups: list[list[int]] = [[] for _ in range(self.tables)]
        budget = [FORBIDDEN_NODE_BUDGET]

        def place(k: int) -> bool:
            if k == len(order):
                return True
            i = order[k]
            tried_empty = False
            for group in groups:
                if len(group) == TABLE_SIZE or any(j in group for j in forbidden[i]):
                    continue
                if not group:
                    if tried_empty:  # empty tables are interchangeable
                        continue
                    tried_empty = True
                budget[0] -= 1
                if budget[0] < 0:
                    return False
                group.append(i)
                if place(k + 1):
                    return True
                group.pop()
            return False

        if not place(0):
            return None
        # Put each table where its players' target tables point (a cheap start for the climb).
        groups.sort(key=lambda group: sum(self.target[i] for i in group))
        return groups

    def _branch_and_bound(self, bound: int) -> list[list[int]] | None:
        """Tables filled in order, each from every four of the players left, cheapest first,
        pruned on the cost so far; an arrangement strictly cheaper than ``bound``, the cheapest
        found within the budget, or ``None``."""
        pair, deviation = self.pair, self.deviation
        budget = [EXACT_NODE_BUDGET]
        best: list[list[list[int]] | None] = [None]
        best_cost = [bound]
        chosen: list[list[int]] = []

        def fill(table: int, left: list[int], so_far: int) -> None:
            if table == self.tables:
                if so_far < best_cost[0]:
                    best_cost[0] = so_far
                    best[0] = [list(group) for group in chosen]
                return
            children: list[tuple[int, tuple[int, ...]]] = []
            for group in itertools.combinations(left, TABLE_SIZE):
                budget[0] -= 1
                a, b, c, d = group
                step = (
                    pair[a][b]
                    + pair[a][c]
                    + pair[a][d]
                    + pair[b][c]
                    + pair[b][d]
                    + pair[c][d]
                    + deviation[a][table]
                    + deviation[b][table]
                    + deviation[c][table]
                    + deviation[d][table]
                )
                if so_far + step < best_cost[0]:
                    children.append((step, group))
            children.sort()
            for step, group in children:
                if budget[0] < 0 or so_far + step >= best_cost[0]:
                    return
                chosen.append(list(group))
                members = set(group)
                fill(table + 1, [i for i in left if i not in members], so_far + step)
                chosen.pop()

        fill(0, list(range(self.size)), 0)
        return best[0]


def _wind_counts(history: Sequence[Sequence[Sequence[int]]]) -> dict[int, list[int]]:
    """How many times each entrant sat East, South, West and North in the earlier rounds."""
    counts: dict[int, list[int]] = {}
    for round_tables in history:
        for table in round_tables:
            for seat, entrant in enumerate(table[:TABLE_SIZE]):
                counts.setdefault(entrant, [0] * TABLE_SIZE)[seat] += 1
    return counts


def _seat_winds(
    players: Sequence[int], winds: dict[int, list[int]], rng: random.Random
) -> tuple[int, int, int, int]:
    """The table's four players in seat order East, South, West, North (module docstring,
    step 4)."""
    zero = [0] * TABLE_SIZE
    counts = [winds.get(entrant, zero) for entrant in players]
    best_key: tuple[int, int] | None = None
    best: list[tuple[int, ...]] = []
    for seats in _PERMUTATIONS:  # seats[k]: the seat of players[k]
        largest = max(max(max(c), c[s] + 1) for c, s in zip(counts, seats, strict=True))
        key = (largest, sum(c[s] for c, s in zip(counts, seats, strict=True)))
        if best_key is None or key < best_key:
            best_key, best = key, [seats]
        elif key == best_key:
            best.append(seats)
    seats = best[rng.randrange(len(best))]
    order = [0] * TABLE_SIZE
    for k, seat in enumerate(seats):
        order[seat] = players[k]
    return (order[0], order[1], order[2], order[3])
