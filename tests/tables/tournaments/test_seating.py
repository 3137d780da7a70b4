"""Seating of four-player Swiss events ("every player once per round, sit-outs at most
once, repeat meetings minimal on small fields"). Pure: no database.

The minimality checks search exhaustively here, independently of the module's own search: every
partition of the playing players into tables of four (first free player plus three others), pruned
on the cost of the arrangement under test, so that "nothing strictly better exists" is proved.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Collection, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.tournaments import seating
from tables.tournaments.seating import Seating, seating_make

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

History = list[tuple[tuple[int, int, int, int], ...]]


def meetings(history: Sequence[Sequence[Sequence[int]]]) -> Counter[frozenset[int]]:
    met: Counter[frozenset[int]] = Counter()
    for round_tables in history:
        for table in round_tables:
            for a, b in itertools.combinations(table, 2):
                met[frozenset((a, b))] += 1
    return met


def quality(
    tables: Sequence[Sequence[int]],
    met: Counter[frozenset[int]],
    forbidden: Collection[frozenset[int]],
) -> tuple[int, int]:
    """(forbidden pairs seated together, repeat meetings) of one round's tables."""
    apart = set(forbidden)
    bad = repeats = 0
    for table in tables:
        for a, b in itertools.combinations(table, 2):
            pair = frozenset((a, b))
            bad += pair in apart
            repeats += met[pair]
    return bad, repeats


def better_exists(
    players: Sequence[int],
    met: Counter[frozenset[int]],
    forbidden: Collection[frozenset[int]],
    than: tuple[int, int],
) -> list[list[int]] | None:
    """An arrangement of ``players`` strictly better than ``than`` in (forbidden, repeats), or
    ``None`` when there is none (exhaustive, pruned)."""
    apart = set(forbidden)

    def cost(group: Sequence[int]) -> tuple[int, int]:
        bad = repeats = 0
        for a, b in itertools.combinations(group, 2):
            pair = frozenset((a, b))
            bad += pair in apart
            repeats += met[pair]
        return bad, repeats

    def search(left: list[int], so_far: tuple[int, int]) -> list[list[int]] | None:
        if so_far >= than:
            return None
        if not left:
            return []
        first, rest = left[0], left[1:]
        for others in itertools.combinations(rest, 3):
            group = [first, *others]
            step = cost(group)
            found = search(
                [p for p in rest if p not in others],
                (so_far[0] + step[0], so_far[1] + step[1]),
            )
            if found is not None:
                return [group, *found]
        return None

    return search(sorted(players), (0, 0))


def play(
    *,
    players: int,
    rounds: int,
    seed: int,
    forbidden: Collection[frozenset[int]] = (),
    round1: Any = "random",
) -> tuple[list[Seating], list[list[int]]]:
    """A whole event: each round's ranking a seeded shuffle (any standings must work)."""
    rng = random.Random(seed)
    order = random.Random(seed + 1)
    history: History = []
    sat_out: set[int] = set()
    seatings: list[Seating] = []
    rankings: list[list[int]] = []
    for round_no in range(1, rounds + 1):
        ranking = list(range(100, 100 + players))
        order.shuffle(ranking)
        result = seating_make(
            round_no=round_no,
            ranking=ranking,
            history=history,
            sat_out_before=sat_out,
            forbidden_pairs=forbidden,
            rng=rng,
            round1=round1,
        )
        seatings.append(result)
        rankings.append(ranking)
        history.append(result.tables)
        sat_out |= set(result.sitting_out)
    return seatings, rankings


@st.composite
def events(draw: Any, *, sizes: Sequence[int] = tuple(range(4, 29))) -> dict[str, Any]:
    players = draw(st.sampled_from(sizes))
    ids = list(range(100, 100 + players))
    pairs = draw(
        st.lists(
            st.tuples(st.sampled_from(ids), st.sampled_from(ids)).filter(lambda p: p[0] != p[1]),
            max_size=players // 3,
        )
    )
    return {
        "players": players,
        "rounds": draw(st.integers(1, 5)),
        "seed": draw(st.integers(0, 2**32)),
        "forbidden": [frozenset(pair) for pair in pairs],
        "round1": draw(st.sampled_from(["random", "ranked"])),
    }


@SETTINGS
@given(events())
def test_every_player_once_per_round_and_four_per_table(event: dict[str, Any]) -> None:
    seatings, rankings = play(**event)
    for result, ranking in zip(seatings, rankings, strict=True):
        assert all(len(table) == 4 for table in result.tables)
        seen = [p for table in result.tables for p in table] + list(result.sitting_out)
        assert sorted(seen) == sorted(ranking)
        assert len(result.sitting_out) == len(ranking) % 4


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events())
def test_same_inputs_and_seed_give_the_same_seating(event: dict[str, Any]) -> None:
    assert play(**event) == play(**event)


@SETTINGS
@given(events(sizes=(5, 6, 7, 9, 10, 11, 13, 14, 15, 17, 18, 19, 22, 23)))
def test_sit_outs_lowest_ranked_and_at_most_once_while_possible(event: dict[str, Any]) -> None:
    seatings, rankings = play(**event)
    sat_out: set[int] = set()
    for result, ranking in zip(seatings, rankings, strict=True):
        fresh = [p for p in ranking if p not in sat_out]
        count = len(ranking) % 4
        if len(fresh) >= count:
            # Nobody sits out twice while someone has not sat out yet: the lowest-ranked fresh.
            assert set(result.sitting_out) == set(fresh[-count:])
        else:
            again = [p for p in ranking if p in sat_out]
            expected = set(fresh) | set(again[len(again) - (count - len(fresh)) :])
            assert set(result.sitting_out) == expected
        sat_out |= set(result.sitting_out)


def test_everyone_sat_out_then_the_lowest_ranked_sit_out_again() -> None:
    ranking = [1, 2, 3, 4, 5]
    result = seating_make(
        round_no=6,
        ranking=ranking,
        history=[],
        sat_out_before={1, 2, 3, 4, 5},
        forbidden_pairs=(),
        rng=random.Random(0),
    )
    assert result.sitting_out == (5,)
    result = seating_make(
        round_no=6,
        ranking=[1, 2, 3, 4, 5, 6, 7],
        history=[],
        sat_out_before={1, 2, 3, 4, 5, 7},
        forbidden_pairs=(),
        rng=random.Random(0),
    )
    # 6 has not sat out: it goes first, then the two lowest-ranked of those who have.
    assert result.sitting_out == (5, 6, 7)


@st.composite
def sparse_forbidden(draw: Any) -> dict[str, Any]:
    """Forbidden pairs where no player has as many forbidden partners as there are tables: an
    arrangement without any forbidden pair then always exists (Hajnal–Szemerédi)."""
    players = draw(st.sampled_from([8, 12, 16, 20, 24, 32]))
    tables = players // 4
    ids = list(range(100, 100 + players))
    degree: Counter[int] = Counter()
    forbidden: list[frozenset[int]] = []
    for a, b in draw(st.lists(st.tuples(st.sampled_from(ids), st.sampled_from(ids)))):
        pair = frozenset((a, b))
        if a == b or pair in forbidden or degree[a] + 1 >= tables or degree[b] + 1 >= tables:
            continue
        degree[a] += 1
        degree[b] += 1
        forbidden.append(pair)
    return {
        "players": players,
        "rounds": draw(st.integers(1, 4)),
        "seed": draw(st.integers(0, 2**32)),
        "forbidden": forbidden,
        "round1": draw(st.sampled_from(["random", "ranked"])),
    }


@SETTINGS
@given(sparse_forbidden())
def test_forbidden_pairs_never_together_when_avoidable(event: dict[str, Any]) -> None:
    seatings, _ = play(**event)
    for result in seatings:
        assert quality(result.tables, Counter(), event["forbidden"])[0] == 0


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events(sizes=(8, 12)))
def test_small_fields_forbidden_then_repeats_minimal(event: dict[str, Any]) -> None:
    """Any forbidden pairs (avoidable or not), any standings: no arrangement of a round is better
    in (forbidden pairs together, repeat meetings) than the one made, given the earlier rounds."""
    seatings, _ = play(**event)
    history: History = []
    for result in seatings:
        met = meetings(history)
        got = quality(result.tables, met, event["forbidden"])
        players = [p for table in result.tables for p in table]
        assert better_exists(players, met, event["forbidden"], got) is None, got
        history.append(result.tables)


@pytest.mark.parametrize("players", [8, 12, 16])
@pytest.mark.parametrize("rounds", [2, 3, 4])
@pytest.mark.parametrize("seed", range(4))
def test_repeat_meetings_minimal_on_small_fields(players: int, rounds: int, seed: int) -> None:
    seatings, _ = play(players=players, rounds=rounds, seed=seed)
    history: History = []
    for result in seatings:
        met = meetings(history)
        got = quality(result.tables, met, ())
        assert better_exists(range(100, 100 + players), met, (), got) is None, got
        history.append(result.tables)


def test_eight_players_two_rounds_against_brute_force() -> None:
    """8 players: every split of round 2 keeps at least one round-1 pair per table (4 in all);
    the seating reaches that bound whatever the standings."""
    for seed in range(20):
        seatings, _ = play(players=8, rounds=2, seed=seed)
        met = meetings([seatings[0].tables])
        players = list(range(100, 108))
        brute = min(
            quality([list(group), [p for p in players if p not in group]], met, ())
            for group in itertools.combinations(players, 4)
        )
        assert brute == (0, 4)
        assert quality(seatings[1].tables, met, ()) == brute


@pytest.mark.parametrize("round1", ["random", "ranked"])
def test_twelve_players_round_two_repeats_no_round_one_table(round1: str) -> None:
    for seed in range(30):
        seatings, _ = play(players=12, rounds=2, seed=seed, round1=round1)
        first = {frozenset(table) for table in seatings[0].tables}
        assert not first & {frozenset(table) for table in seatings[1].tables}
        # Four players from three old tables: every new table repeats a pair (3 at least), and
        # no more than that forced minimum.
        met = meetings([seatings[0].tables])
        assert quality(seatings[1].tables, met, ()) == (0, 3)


@pytest.mark.parametrize("players", [8, 12])
def test_local_search_alone_is_minimal_on_small_fields(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without the exact branch-and-bound (budget 0) the climb still reaches the minimum on the
    small fields (what it has to do alone on fields too big for the exact search)."""
    monkeypatch.setattr(seating, "EXACT_NODE_BUDGET", 0)
    for seed in range(15):
        seatings, _ = play(players=players, rounds=4, seed=seed)
        history: History = []
        for result in seatings:
            met = meetings(history)
            got = quality(result.tables, met, ())
            assert better_exists(range(100, 100 + players), met, (), got) is None, (seed, got)
            history.append(result.tables)


def test_swiss_rounds_group_by_standings_when_nothing_repeats() -> None:
    """No pair of the standings groups has met: the tables are the standings four by four."""
    ranking = list(range(1, 17))
    history = [((1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15), (4, 8, 12, 16))]
    result = seating_make(
        round_no=2,
        ranking=ranking,
        history=history,
        sat_out_before=(),
        forbidden_pairs=(),
        rng=random.Random(3),
    )
    assert [sorted(table) for table in result.tables] == [
        [1, 2, 3, 4],
        [5, 6, 7, 8],
        [9, 10, 11, 12],
        [13, 14, 15, 16],
    ]


def test_swiss_rounds_swap_with_the_neighbouring_table() -> None:
    """Only 1 and 2 have met (their table mates have left the event): one of them changes places
    with a player of table 2, the rest of the standings grouping stays."""
    ranking = list(range(1, 17))
    history = [((1, 2, 90, 91),)]
    result = seating_make(
        round_no=2,
        ranking=ranking,
        history=history,
        sat_out_before=(),
        forbidden_pairs=(),
        rng=random.Random(3),
    )
    assert quality(result.tables, meetings(history), ()) == (0, 0)
    top, second = set(result.tables[0]), set(result.tables[1])
    assert {3, 4} < top
    assert len(top & {1, 2}) == 1
    assert len(top & {5, 6, 7, 8}) == 1
    assert len(second & {1, 2}) == 1
    assert [sorted(table) for table in result.tables[2:]] == [[9, 10, 11, 12], [13, 14, 15, 16]]


def test_ranked_round_one_takes_one_player_of_each_quartile_in_a_snake() -> None:
    ranking = list(range(1, 17))  # 1 is the best rated
    result = seating_make(
        round_no=1,
        ranking=ranking,
        history=[],
        sat_out_before=(),
        forbidden_pairs=(),
        rng=random.Random(0),
        round1="ranked",
    )
    assert [sorted(table) for table in result.tables] == [
        [1, 8, 9, 16],
        [2, 7, 10, 15],
        [3, 6, 11, 14],
        [4, 5, 12, 13],
    ]


def test_random_round_one_depends_on_the_seed() -> None:
    def seat(seed: int) -> Seating:
        return seating_make(
            round_no=1,
            ranking=list(range(1, 33)),
            history=[],
            sat_out_before=(),
            forbidden_pairs=(),
            rng=random.Random(seed),
        )

    assert seat(1) == seat(1)
    assert seat(1) != seat(2)
    assert sorted(seat(1).tables[0]) != [1, 2, 3, 4] or sorted(seat(2).tables[0]) != [1, 2, 3, 4]


@SETTINGS
@given(events(sizes=(4, 8, 12, 16, 20)))
def test_seat_winds_assigned_to_minimise_the_largest_count(event: dict[str, Any]) -> None:
    """Within each table no other order of the four gives a smaller largest wind count (then a
    smaller sum of the counts of the seats taken)."""
    seatings, _ = play(**event)
    counts: dict[int, list[int]] = {}
    for result in seatings:
        for table in result.tables:

            def key(order: Sequence[int]) -> tuple[int, int]:
                before = [counts.get(p, [0, 0, 0, 0]) for p in order]
                largest = max(max(max(c), c[s] + 1) for s, c in enumerate(before))
                return largest, sum(c[s] for s, c in enumerate(before))

            assert key(table) == min(key(order) for order in itertools.permutations(table))
        for table in result.tables:
            for seat, player in enumerate(table):
                counts.setdefault(player, [0, 0, 0, 0])[seat] += 1


def test_four_rounds_of_sixteen_seat_nearly_everyone_at_every_wind() -> None:
    for seed in range(10):
        seatings, _ = play(players=16, rounds=4, seed=seed)
        counts: Counter[tuple[int, int]] = Counter()
        for result in seatings:
            for table in result.tables:
                for seat, player in enumerate(table):
                    counts[player, seat] += 1
        assert max(counts.values()) <= 2


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"round_no": 0}, "round_no"),
        ({"ranking": [1, 2, 3]}, "at least 4"),
        ({"ranking": [1, 2, 3, 3, 4]}, "repeats"),
        ({"round1": "seeded"}, "round1"),
    ],
)
def test_bad_input_is_refused(fields: dict[str, Any], message: str) -> None:
    arguments: dict[str, Any] = {
        "round_no": 1,
        "ranking": [1, 2, 3, 4],
        "history": [],
        "sat_out_before": (),
        "forbidden_pairs": (),
        "rng": random.Random(0),
    }
    arguments.update(fields)
    with pytest.raises(ValueError, match=message):
        seating_make(**arguments)
