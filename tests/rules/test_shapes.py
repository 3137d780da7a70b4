"""Hand analysis (rules/shapes.py) against an independent brute force."""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.shapes import CHOW, PONG, decompositions, is_complete, shape_waits
from rules.tiles import count_tiles, format_tiles, parse_tiles


@cache
def brute_complete(counts: tuple[int, ...], need_pair: bool = True) -> bool:
    """Plain recursive search over all 34 kinds: remove the first tile as pair, pong or chow."""
    first = next((t for t in range(34) if counts[t]), None)
    if first is None:
        return not need_pair
    c = list(counts)
    if need_pair and c[first] >= 2:
        c[first] -= 2
        if brute_complete(tuple(c), False):
            return True
        c[first] += 2
    if c[first] >= 3:
        c[first] -= 3
        if brute_complete(tuple(c), need_pair):
            return True
        c[first] += 3
    if first < 27 and first % 9 <= 6 and c[first + 1] and c[first + 2]:
        for t in (first, first + 1, first + 2):
            c[t] -= 1
        if brute_complete(tuple(c), need_pair):
            return True
    return False


def brute_waits(counts: list[int]) -> tuple[int, ...]:
    waits = []
    for t in range(34):
        if counts[t] >= 4:
            continue
        c = counts[:34]
        c[t] += 1
        if brute_complete(tuple(c)):
            waits.append(t)
    return tuple(waits)


def counts_of(text: str) -> list[int]:
    return count_tiles(parse_tiles(text))


def random_hand(rng: random.Random, size: int, kinds: int = 34) -> list[int]:
    wall = [t for t in range(kinds) for _ in range(4)]
    return count_tiles(rng.sample(wall, size))


def clustered_hand(rng: random.Random, size: int) -> list[int]:
    """Hands drawn from one or two suits so that waits are frequent (random hands rarely wait)."""
    start = rng.choice((0, 9, 18))
    kinds = [*range(start, min(start + 18, 27)), 27, 33]
    wall = [t for t in kinds for _ in range(4)]
    return count_tiles(rng.sample(wall, size))


@pytest.mark.parametrize(
    ("hand", "waits"),
    [
        ("1112345678999m", "123456789m"),
        ("234m678p345s999s5p", "58p"),
        ("345m678m55s77z", "5s7z"),
        ("1z", "1z"),
        ("11z22z", "12z"),
        ("1111m", ""),
        ("234m678m13s99s777p", "2s"),
        ("1111m3m456s55s", "2m"),
    ],
)
def test_it_finds_the_waits_of_known_hands(hand, waits):
    assert format_tiles(shape_waits(counts_of(hand))) == waits


def test_it_never_waits_on_a_kind_held_four_times():
    assert 0 not in shape_waits(counts_of("1111234m"))
    assert format_tiles(shape_waits(counts_of("1111234m"))) == "4m"


@pytest.mark.parametrize(("size", "seed"), [(13, s) for s in range(4)] + [(10, 9), (7, 8), (4, 7)])
def test_waits_agree_with_brute_force_on_clustered_hands(size, seed):
    rng = random.Random(seed)
    for _ in range(300):
        counts = clustered_hand(rng, size)
        assert shape_waits(counts) == brute_waits(counts), format_tiles(
            t for t in range(34) for _ in range(counts[t])
        )


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 33), min_size=13, max_size=13))
def test_waits_agree_with_brute_force_property(tiles):
    counts = count_tiles(tiles)
    if max(counts) > 4:
        return
    assert shape_waits(counts) == brute_waits(counts)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([2, 5, 8, 11, 14]))
def test_is_complete_agrees_with_brute_force(seed, size):
    counts = clustered_hand(random.Random(seed), size)
    assert is_complete(counts) == brute_complete(tuple(counts[:34]))


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32))
def test_every_decomposition_rebuilds_the_hand(seed):
    counts = clustered_hand(random.Random(seed), 14)
    readings = decompositions(counts)
    assert bool(readings) == is_complete(counts)
    for pair, sets in readings:
        rebuilt = [0] * 34
        rebuilt[pair] += 2
        for kind, tile in sets:
            for t in (tile, tile + 1, tile + 2) if kind == CHOW else (tile,) * 3:
                rebuilt[t] += 1
            assert kind in (CHOW, PONG)
        assert rebuilt == counts[:34]


def test_it_lists_every_reading_of_an_ambiguous_hand():
    readings = decompositions(counts_of("11122233344455m"))
    pairs = sorted(p for p, _ in readings)
    assert pairs == [1, 4, 4, 4]
    assert (4, ((PONG, 0), (PONG, 1), (PONG, 2), (PONG, 3))) in readings


def test_it_has_no_reading_for_seven_pairs():
    assert decompositions(counts_of("1122m3344p5566s77z")) == ()
    assert not is_complete(counts_of("1122m3344p5566s77z"))


def test_honours_only_form_pairs_and_pongs():
    assert not is_complete(counts_of("123z11m"))
    assert is_complete(counts_of("111z22z"))
