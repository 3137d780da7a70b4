"""Standings of a four-player Swiss event (*Standings*: "placement points (+3/+1/−1/−3 by
default, configurable) then score, with the tie-breaks shown on the page").

Per table, the seats are placed by their match totals, highest first; each placement earns
``placement_points[place]``. Seats tied on the total share the average of the points of the places
they cover (two tied for first with the default points each get (3 + 1) / 2 = 2), hence
``Fraction``. A seat tied for the top total counts a first ("firsts": shared firsts count for each).

The order, in :data:`TIEBREAKS`: placement points, then total score, then firsts, then the best
single table score (a player with no table yet comes after any who played one), all highest first.
Entrants equal on all four share a rank (competition ranking: 1, 2, 2, 4); among them the rows
follow the registration order (``entrants``), which decides nothing else.

A round an entrant sat out (or missed) earns 0 points and 0 score and is not a table played: it is
simply absent from ``results``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["TIEBREAKS", "StandingRow", "TableResult", "standings_compute"]

DEFAULT_PLACEMENT_POINTS: tuple[int, ...] = (3, 1, -1, -3)

# The order used, for the page (UI text: Chinese, translated by the page through Django i18n).
TIEBREAKS: tuple[str, ...] = (
    "顺位点",
    "总分",
    "一位次数",
    "单桌最高分",
    "报名顺序（名次并列）",
)


@dataclass(frozen=True)
class TableResult:
    """One finished table: ``seats`` the entrant ids, ``scores`` their match totals, by seat."""

    round_no: int
    table_no: int
    seats: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True)
class StandingRow:
    entrant_id: int
    rank: int
    points: Fraction
    score: int
    firsts: int
    tables_played: int
    best_table_score: int | None


def table_points(
    *, scores: Sequence[int], placement_points: Sequence[int] = DEFAULT_PLACEMENT_POINTS
) -> list[Fraction]:
    """Each seat's placement points at one table (ties share the average of their places)."""
    if len(scores) != len(placement_points):
        raise ValueError(
            f"a table of {len(scores)} seats for {len(placement_points)} placement points"
        )
    points: list[Fraction] = []
    for score in scores:
        above = sum(1 for other in scores if other > score)
        tied = sum(1 for other in scores if other == score)
        covered = placement_points[above : above + tied]
        points.append(Fraction(sum(covered), tied))
    return points


def standings_compute(
    *,
    entrants: Sequence[int],
    results: Sequence[TableResult],
    placement_points: Sequence[int] = DEFAULT_PLACEMENT_POINTS,
) -> list[StandingRow]:
    """The standings of every entrant (registration order in ``entrants``), best first.

    Raises ``ValueError`` on a table whose seats and scores do not match the placement points, an
    entrant not in ``entrants``, a table given twice, or an entrant at two tables of one round.
    """
    if len(set(entrants)) != len(entrants):
        raise ValueError("entrants repeats an id")
    order = {entrant: position for position, entrant in enumerate(entrants)}
    points = dict.fromkeys(entrants, Fraction(0))
    score = dict.fromkeys(entrants, 0)
    firsts = dict.fromkeys(entrants, 0)
    played = dict.fromkeys(entrants, 0)
    best: dict[int, int | None] = dict.fromkeys(entrants)
    tables_seen: set[tuple[int, int]] = set()
    seated: set[tuple[int, int]] = set()
    for result in results:
        if len(result.seats) != len(result.scores):
            raise ValueError(f"table {result.table_no}: {result.seats} and {result.scores}")
        if (result.round_no, result.table_no) in tables_seen:
            raise ValueError(f"round {result.round_no} table {result.table_no} given twice")
        tables_seen.add((result.round_no, result.table_no))
        earned = table_points(scores=result.scores, placement_points=placement_points)
        top = max(result.scores)
        for entrant, total, gain in zip(result.seats, result.scores, earned, strict=True):
            if entrant not in order:
                raise ValueError(f"{entrant} is not an entrant")
            if (result.round_no, entrant) in seated:
                raise ValueError(f"{entrant} at two tables of round {result.round_no}")
            seated.add((result.round_no, entrant))
            points[entrant] += gain
            score[entrant] += total
            firsts[entrant] += total == top
            played[entrant] += 1
            previous = best[entrant]
            best[entrant] = total if previous is None or total > previous else previous

    def merit(entrant: int) -> tuple[Fraction, int, int, bool, int]:
        top_table = best[entrant]
        return (
            points[entrant],
            score[entrant],
            firsts[entrant],
            top_table is not None,
            top_table if top_table is not None else 0,
        )

    ranked = sorted(entrants, key=lambda entrant: (_negate(merit(entrant)), order[entrant]))
    rows: list[StandingRow] = []
    for position, entrant in enumerate(ranked):
        if rows and merit(ranked[position - 1]) == merit(entrant):
            rank = rows[-1].rank
        else:
            rank = position + 1
        rows.append(
            StandingRow(
                entrant_id=entrant,
                rank=rank,
                points=points[entrant],
                score=score[entrant],
                firsts=firsts[entrant],
                tables_played=played[entrant],
                best_table_score=best[entrant],
            )
        )
    return rows


def _negate(
    merit: tuple[Fraction, int, int, bool, int],
) -> tuple[Fraction, int, int, bool, int]:
    """Highest first under an ascending sort."""
    points, score, firsts, has_table, top_table = merit
    return (-points, -score, -firsts, not has_table, -top_table)
