"""Fast hand analysis: complete hands, waits and readings (spec README, *Hand shapes*).

A winning hand is four sets (chow 123 or pong 111; melds count as sets) and one pair; honours form
pairs and pongs only. All functions here take the **concealed** tiles as a count vector (a list
or tuple of at least 34 counts, indexed by :mod:`rules.tiles` kinds); melds are already sets and
are the caller's business.

Speed matters: the round engine asks for waits on every action for every seat. Each suit is
analysed on its own, keyed by its 9 counts (a tuple), and memoised, so a hand costs four dict
look-ups:

* ``_SUIT[key]`` is a suit's *value*: 0 when it splits into sets only, 1 for sets and one pair,
  9 when neither (so any sum with it exceeds 1). Sets only is decided greedily: the lowest tile's
  count modulo 3 must start that many chows (three equal chows are three pongs). Honours have
  their own table (pairs and pongs only). A hand is complete when the four values add up to 1.
* ``_WAITS[suit][key]`` lists the kinds whose addition makes the suit sets only or sets and a
  pair; :func:`shape_waits` combines them with the other groups' values.

The memo tables are ``dict`` subclasses with ``__missing__``, so a warm look-up is one C call.

:func:`decompositions` lists every reading (pair + concealed sets), per suit memoised and combined
across suits; the win rules evaluate their conditions per reading.

>>> from rules.tiles import count_tiles, parse_tiles, format_tiles
>>> format_tiles(shape_waits(count_tiles(parse_tiles("1112345678999m"))))
'123456789m'
>>> is_complete(count_tiles(parse_tiles("11122233344455m")))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import product
from typing import Final

from rules.tiles import HONOR, NUM_KINDS, Tile

CHOW: Final = 0
"""Set kind in a :data:`Decomposition`: a chow starting at the given tile."""
PONG: Final = 1
"""Set kind in a :data:`Decomposition`: a pong of the given tile."""

ConcealedSet = tuple[int, Tile]
"""``(CHOW, first tile)`` or ``(PONG, tile)``."""
Decomposition = tuple[Tile, tuple[ConcealedSet, ...]]
"""One reading of complete concealed tiles: ``(pair tile, sets sorted)``."""

_SUIT_STARTS: Final = (0, 9, 18)
_BAD: Final = 9
"""Group value of a group that is neither sets alone nor sets and one pair: any sum with it > 1."""

_readings_memo: dict[bytes, tuple[tuple[int, tuple[ConcealedSet, ...]], ...]] = {}


def _sets_only(counts: list[int]) -> bool:
    """True when one suit's 9 counts split into chows and pongs alone (greedy; see module doc)."""
    c = counts[:]
    for i in range(9):
        r = c[i] % 3
        if r:
            if i > 6 or c[i + 1] < r or c[i + 2] < r:
                return False
            c[i + 1] -= r
            c[i + 2] -= r
    return True


def _suit_value(key: tuple[int, ...]) -> int:
    """0: the suit is sets only (or empty); 1: sets and exactly one pair; :data:`_BAD` otherwise."""
    counts = list(key)
    total = sum(counts)
    if total % 3 == 0:
        return 0 if _sets_only(counts) else _BAD
    if total % 3 == 2:
        for i in range(9):
            if counts[i] >= 2:
                counts[i] -= 2
                ok = _sets_only(counts)
                counts[i] += 2
                if ok:
                    return 1
    return _BAD


def _honour_value(key: tuple[int, ...]) -> int:
    """Honours form pairs and pongs only: the number of pairs, or :data:`_BAD`."""
    if any(n == 1 or n == 4 for n in key):
        return _BAD
    return sum(1 for n in key if n == 2)


class _SuitValues(dict[tuple[int, ...], int]):
    """Memo of :func:`_suit_value`, filled on first use (one C-level look-up when warm)."""

    def __missing__(self, key: tuple[int, ...]) -> int:
        value = self[key] = _suit_value(key)
        return value


class _HonourValues(dict[tuple[int, ...], int]):
    def __missing__(self, key: tuple[int, ...]) -> int:
        value = self[key] = _honour_value(key)
        return value


_SUIT = _SuitValues()
_HONOURS = _HonourValues()

SuitWaits = tuple[int, tuple[Tile, ...], tuple[Tile, ...]]
"""(residue of the suit's count + 1 modulo 3, kinds that make it sets only, kinds that make it
sets and a pair)."""


class _SuitWaits(dict[tuple[int, ...], SuitWaits]):
    """Per suit position (``start`` 0, 9 or 18): the kinds whose addition completes the suit."""

    def __init__(self, start: int) -> None:
        super().__init__()
        self.start = start

    def __missing__(self, key: tuple[int, ...]) -> SuitWaits:
        counts = list(key)
        sets_only: list[Tile] = []
        with_pair: list[Tile] = []
        for rank in range(9):
            if counts[rank] >= 4:
                continue
            counts[rank] += 1
            value = _SUIT[tuple(counts)]
            counts[rank] -= 1
            if value == 0:
                sets_only.append(self.start + rank)
            elif value == 1:
                with_pair.append(self.start + rank)
        waits = self[key] = ((sum(key) + 1) % 3, tuple(sets_only), tuple(with_pair))
        return waits


class _HonourWaits(dict[tuple[int, ...], tuple[tuple[Tile, int], ...]]):
    """Per honour key: (kind, honour value after adding it) for each addable kind."""

    def __missing__(self, key: tuple[int, ...]) -> tuple[tuple[Tile, int], ...]:
        counts = list(key)
        found: list[tuple[Tile, int]] = []
        for i in range(7):
            if counts[i] in (1, 2):
                counts[i] += 1
                value = _HONOURS[tuple(counts)]
                counts[i] -= 1
                if value < _BAD:
                    found.append((HONOR + i, value))
        waits = self[key] = tuple(found)
        return waits


_WAITS = (_SuitWaits(0), _SuitWaits(9), _SuitWaits(18))
_HONOUR_WAITS = _HonourWaits()


def is_complete(counts: Sequence[int]) -> bool:
    """True when the concealed tiles (3n+2 of them) are n sets and one pair."""
    # Honours first (a single or a fourth honour rejects most hands at once), then each suit:
    # stop as soon as the values add up to more than one pair.
    value = _HONOURS[tuple(counts[27:34])]
    if value > 1:
        return False
    suit = _SUIT
    value += suit[tuple(counts[:9])]
    if value > 1:
        return False
    value += suit[tuple(counts[9:18])]
    if value > 1:
        return False
    return value + suit[tuple(counts[18:27])] == 1


def shape_waits(counts: Sequence[int]) -> tuple[Tile, ...]:
    """Every kind that completes the 3n+1 concealed tiles as n sets and a pair, sorted.

    Kinds of which the concealed tiles already hold four are excluded; copies in melds are the
    caller's business (spec: a tile all four copies of which are in the hand is never a wait).
    A suit receiving the tile must become sets only while exactly one pair is elsewhere, or sets
    and a pair while every other group is sets only: with group values 0 / 1 / bad, "the others
    add up to 1 (or 0)".
    """
    keys = (tuple(counts[:9]), tuple(counts[9:18]), tuple(counts[18:27]))
    suit = _SUIT
    values = (suit[keys[0]], suit[keys[1]], suit[keys[2]])
    honour_key = tuple(counts[27:34])
    honours = _HONOURS[honour_key]
    total = values[0] + values[1] + values[2] + honours
    waits: list[Tile] = []
    for i in (0, 1, 2):
        others = total - values[i]
        if others > 1:
            continue
        residue, sets_only, with_pair = _WAITS[i][keys[i]]
        if residue == 0 and others == 1:
            waits.extend(sets_only)
        elif residue == 2 and others == 0:
            waits.extend(with_pair)
    suits = total - honours
    if suits <= 1:
        waits.extend(t for t, value in _HONOUR_WAITS[honour_key] if suits + value == 1)
    return tuple(waits)


def _suit_readings(key: bytes) -> tuple[tuple[int, tuple[ConcealedSet, ...]], ...]:
    """Every split of one suit into sets and at most one pair: ``(pair rank or -1, sets)``."""
    cached = _readings_memo.get(key)
    if cached is not None:
        return cached
    found: set[tuple[int, tuple[ConcealedSet, ...]]] = set()
    counts = list(key)

    def walk(i: int, pair: int, sets: tuple[ConcealedSet, ...]) -> None:
        while i < 9 and counts[i] == 0:
            i += 1
        if i == 9:
            found.add((pair, tuple(sorted(sets))))
            return
        if counts[i] >= 3:
            counts[i] -= 3
            walk(i, pair, (*sets, (PONG, i)))
            counts[i] += 3
        if counts[i] >= 2 and pair < 0:
            counts[i] -= 2
            walk(i, i, sets)
            counts[i] += 2
        if i <= 6 and counts[i + 1] and counts[i + 2]:
            for j in (i, i + 1, i + 2):
                counts[j] -= 1
            walk(i, pair, (*sets, (CHOW, i)))
            for j in (i, i + 1, i + 2):
                counts[j] += 1

    walk(0, -1, ())
    readings = tuple(sorted(found))
    _readings_memo[key] = readings
    return readings


def decompositions(counts: Sequence[int]) -> tuple[Decomposition, ...]:
    """Every reading of complete concealed tiles as sets plus one pair (empty if none).

    Memoised per whole hand (bounded LRU): the win rules ask for the same hand several times.

    >>> from rules.tiles import count_tiles, parse_tiles
    >>> len(decompositions(count_tiles(parse_tiles("11122233344455m"))))
    4
    """
    return _decompositions(tuple(counts[:NUM_KINDS]))


@lru_cache(maxsize=8192)
def _decompositions(counts: tuple[int, ...]) -> tuple[Decomposition, ...]:
    groups: list[list[tuple[Tile, tuple[ConcealedSet, ...]]]] = []
    for start in _SUIT_STARTS:
        key = bytes(counts[start : start + 9])
        if not any(key):
            continue
        options = [
            (start + pair if pair >= 0 else -1, tuple((k, start + r) for k, r in sets))
            for pair, sets in _suit_readings(key)
        ]
        if not options:
            return ()
        groups.append(options)
    honour_pair = -1
    honour_sets: list[ConcealedSet] = []
    for t in range(HONOR, NUM_KINDS):
        n = counts[t]
        if n == 3:
            honour_sets.append((PONG, t))
        elif n == 2:
            if honour_pair >= 0:
                return ()
            honour_pair = t
        elif n:
            return ()
    groups.append([(honour_pair, tuple(honour_sets))])
    result: list[Decomposition] = []
    for combo in product(*groups):
        pairs = [p for p, _ in combo if p >= 0]
        if len(pairs) != 1:
            continue
        sets = tuple(sorted(s for _, group_sets in combo for s in group_sets))
        result.append((pairs[0], sets))
    return tuple(sorted(set(result)))
