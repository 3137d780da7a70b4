"""Standings of four-player Swiss events (*Standings*), against hand-computed tables."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.tournaments.standings import (
    TIEBREAKS,
    StandingRow,
    TableResult,
    standings_compute,
    table_points,
)


def row(entrant: int, rank: int, points: Any, score: int, firsts: int, played: int, best: Any):
    return StandingRow(
        entrant_id=entrant,
        rank=rank,
        points=Fraction(points),
        score=score,
        firsts=firsts,
        tables_played=played,
        best_table_score=best,
    )


def test_two_rounds_of_eight_by_hand() -> None:
    results = [
        TableResult(round_no=1, table_no=1, seats=(1, 2, 3, 4), scores=(30, 10, -10, -30)),
        # 5 and 6 tie for first: (3 + 1) / 2 = 2 points each, and a first each.
        TableResult(round_no=1, table_no=2, seats=(5, 6, 7, 8), scores=(20, 20, -15, -25)),
        TableResult(round_no=2, table_no=1, seats=(1, 5, 6, 2), scores=(-5, 40, -15, -20)),
        # Four-way tie: (3 + 1 - 1 - 3) / 4 = 0 each, a first each.
        TableResult(round_no=2, table_no=2, seats=(3, 7, 4, 8), scores=(0, 0, 0, 0)),
    ]
    assert standings_compute(entrants=range(1, 9), results=results) == [
        row(5, 1, 5, 60, 2, 2, 40),
        row(1, 2, 4, 25, 1, 2, 30),
        row(6, 3, 1, 5, 1, 2, 20),
        row(3, 4, -1, -10, 1, 2, 0),  # 3 and 7: -1 point each, 3 scored more
        row(7, 5, -1, -15, 1, 2, 0),
        row(2, 6, -2, -10, 0, 2, 10),
        row(8, 7, -3, -25, 1, 2, 0),  # 8 and 4: -3 points each, 8 scored more
        row(4, 8, -3, -30, 1, 2, 0),
    ]


def test_three_way_tie_shares_the_average_as_a_fraction() -> None:
    assert table_points(scores=(10, 10, 10, -30)) == [Fraction(1, 1)] * 3 + [Fraction(-3)]
    assert table_points(scores=(5, 0, 0, 0)) == [Fraction(3), Fraction(-1), Fraction(-1), -1]
    assert table_points(scores=(9, 9, 0, 0), placement_points=(4, 1, 0, -2)) == [
        Fraction(5, 2),
        Fraction(5, 2),
        Fraction(-1),
        Fraction(-1),
    ]
    assert table_points(scores=(9, 3, 3, 0), placement_points=(4, 1, 0, -2)) == [
        Fraction(4),
        Fraction(1, 2),
        Fraction(1, 2),
        Fraction(-2),
    ]


def test_firsts_break_a_tie_on_points_and_score() -> None:
    results = [
        TableResult(round_no=1, table_no=1, seats=(1, 11, 12, 13), scores=(10, 5, -5, -10)),
        TableResult(round_no=1, table_no=2, seats=(2, 14, 15, 16), scores=(10, 20, -10, -20)),
        TableResult(round_no=2, table_no=1, seats=(1, 11, 13, 15), scores=(-5, 30, 20, 10)),
        TableResult(round_no=2, table_no=2, seats=(2, 12, 14, 16), scores=(-5, 40, 30, -20)),
    ]
    rows = {
        r.entrant_id: r for r in standings_compute(entrants=[2, 1, *range(11, 17)], results=results)
    }
    # Both: 0 points (3 - 3 and 1 - 1), score 5, best table 10; 1 has a first, 2 none.
    assert (rows[1].points, rows[1].score, rows[1].firsts) == (0, 5, 1)
    assert (rows[2].points, rows[2].score, rows[2].firsts) == (0, 5, 0)
    assert rows[1].rank == rows[2].rank - 1


def test_best_table_score_breaks_a_tie_on_points_score_and_firsts() -> None:
    results = [
        TableResult(round_no=1, table_no=1, seats=(1, 11, 12, 13), scores=(30, 0, -10, -20)),
        TableResult(round_no=1, table_no=2, seats=(2, 14, 15, 16), scores=(20, 0, -5, -15)),
        TableResult(round_no=2, table_no=1, seats=(1, 11, 13, 15), scores=(-20, 0, 10, 10)),
        TableResult(round_no=2, table_no=2, seats=(2, 12, 14, 16), scores=(-10, 0, 5, 5)),
    ]
    rows = standings_compute(entrants=[2, 1, *range(11, 17)], results=results)
    order = [r.entrant_id for r in rows]
    one, two = rows[order.index(1)], rows[order.index(2)]
    assert (one.points, one.score, one.firsts, one.best_table_score) == (0, 10, 1, 30)
    assert (two.points, two.score, two.firsts, two.best_table_score) == (0, 10, 1, 20)
    assert order.index(1) < order.index(2)
    assert one.rank < two.rank


def test_equal_on_everything_shares_the_rank_in_registration_order() -> None:
    results = [TableResult(round_no=1, table_no=1, seats=(4, 3, 2, 1), scores=(0, 0, 0, 0))]
    # 5 sat the round out: 0 points, 0 score, no table; below the four who played and tied.
    assert standings_compute(entrants=[3, 1, 5, 4, 2], results=results) == [
        row(3, 1, 0, 0, 1, 1, 0),
        row(1, 1, 0, 0, 1, 1, 0),
        row(4, 1, 0, 0, 1, 1, 0),
        row(2, 1, 0, 0, 1, 1, 0),
        row(5, 5, 0, 0, 0, 0, None),
    ]


def test_a_sit_out_round_gives_nothing() -> None:
    results = [
        TableResult(round_no=1, table_no=1, seats=(1, 2, 3, 4), scores=(10, 5, -5, -10)),
        TableResult(round_no=2, table_no=1, seats=(1, 2, 3, 5), scores=(10, 5, -5, -10)),
    ]
    rows = {r.entrant_id: r for r in standings_compute(entrants=[1, 2, 3, 4, 5], results=results)}
    assert rows[4] == row(4, 4, -3, -10, 0, 1, -10)
    assert rows[5] == row(5, 4, -3, -10, 0, 1, -10)  # equal to 4: shared rank
    assert rows[1].tables_played == 2


def test_no_results_everyone_first_equal() -> None:
    rows = standings_compute(entrants=[7, 8], results=[])
    assert rows == [row(7, 1, 0, 0, 0, 0, None), row(8, 1, 0, 0, 0, 0, None)]


def test_tiebreaks_listed_in_the_order_used() -> None:
    assert TIEBREAKS == ("顺位点", "总分", "一位次数", "单桌最高分", "报名顺序（名次并列）")


@pytest.mark.parametrize(
    "results",
    [
        [TableResult(round_no=1, table_no=1, seats=(1, 2, 3), scores=(1, 2, 3))],
        [TableResult(round_no=1, table_no=1, seats=(1, 2, 3, 4), scores=(1, 2, 3))],
        [TableResult(round_no=1, table_no=1, seats=(1, 2, 3, 9), scores=(1, 2, 3, 4))],
        [
            TableResult(round_no=1, table_no=1, seats=(1, 2, 3, 4), scores=(1, 2, 3, 4)),
            TableResult(round_no=1, table_no=1, seats=(5, 6, 7, 8), scores=(1, 2, 3, 4)),
        ],
        [
            TableResult(round_no=1, table_no=1, seats=(1, 2, 3, 4), scores=(1, 2, 3, 4)),
            TableResult(round_no=1, table_no=2, seats=(1, 6, 7, 8), scores=(1, 2, 3, 4)),
        ],
    ],
)
def test_inconsistent_results_are_refused(results: list[TableResult]) -> None:
    with pytest.raises(ValueError, match=r"table|entrant|round"):
        standings_compute(entrants=range(1, 9), results=results)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.permutations(range(1, 9)), st.lists(st.integers(-50, 50), min_size=8, max_size=8)
        ),
        max_size=4,
    )
)
def test_points_sum_to_zero_and_ranks_follow_the_order(rounds: list[Any]) -> None:
    results = [
        TableResult(
            round_no=round_no,
            table_no=table,
            seats=tuple(seats[4 * table : 4 * table + 4]),
            scores=tuple(scores[4 * table : 4 * table + 4]),
        )
        for round_no, (seats, scores) in enumerate(rounds, start=1)
        for table in (0, 1)
    ]
    rows = standings_compute(entrants=range(1, 9), results=results)
    assert sum(r.points for r in rows) == 0
    assert sum(r.score for r in rows) == sum(sum(scores) for _, scores in rounds)
    assert all(r.tables_played == len(rounds) for r in rows)
    assert rows[0].rank == 1
    for before, after in itertools.pairwise(rows):
        assert (before.points, before.score) >= (after.points, after.score)
        assert after.rank == before.rank or after.rank == rows.index(after) + 1
