"""Fast hand analysis: complete hands, waits and readings (spec README, *Hand shapes*).

A winning hand is four sets (chow 123 or pong 111; melds count as sets) and one pair; honours form
pairs and pongs only. All functions here take the **concealed** tiles as a count vector (a list
or tuple of at least 34 counts, indexed by :mod:`rules.tiles` kinds); melds are already sets and
are the caller's business.

Speed matters: the round engine asks for waits on every action for every seat. Each suit is
analysed on its own, keyed by its 9 counts (as ``bytes``), and memoised, so a hand costs three dict
look-ups plus a pass over the 7 honours:

* ``_suit_bits(key)`` says whether the suit splits into sets only (bit 1) and/or sets and one pair
  (bit 2). Sets only is decided greedily: the lowest tile's count modulo 3 must start that many
  chows (three equal chows are three pongs), so no search is needed.
* ``_suit_waits(key)`` lists, per suit, the ranks whose addition makes the suit sets-only or
  sets-and-pair.
* :func:`shape_waits` then combines suits by their residues modulo 3: exactly one group may hold the
  pair, every other group must split into sets.

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

_SETS_ONLY: Final = 1
_WITH_PAIR: Final = 2
_SUIT_STARTS: Final = (0, 9, 18)

_bits_memo: dict[bytes, int] = {}
_waits_memo: dict[bytes, tuple[tuple[int, ...], tuple[int, ...]]] = {}
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


def _suit_bits(key: bytes) -> int:
    """Bit 1: the suit is sets only; bit 2: sets plus exactly one pair. Memoised per suit key."""
    bits = _bits_memo.get(key)
    if bits is not None:
        return bits
    counts = list(key)
    total = sum(counts)
    bits = 0
    if total % 3 == 0 and _sets_only(counts):
        bits |= _SETS_ONLY
    elif total % 3 == 2:
        for i in range(9):
            if counts[i] >= 2:
                counts[i] -= 2
                ok = _sets_only(counts)
                counts[i] += 2
                if ok:
                    bits |= _WITH_PAIR
                    break
    _bits_memo[key] = bits
    return bits


def _suit_waits(key: bytes) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Ranks (0–8) that make the suit sets-only, and ranks that make it sets-and-pair."""
    waits = _waits_memo.get(key)
    if waits is not None:
        return waits
    counts = bytearray(key)
    sets_only: list[int] = []
    with_pair: list[int] = []
    for rank in range(9):
        if counts[rank] >= 4:
            continue
        counts[rank] += 1
        bits = _suit_bits(bytes(counts))
        counts[rank] -= 1
        if bits & _SETS_ONLY:
            sets_only.append(rank)
        if bits & _WITH_PAIR:
            with_pair.append(rank)
    waits = (tuple(sets_only), tuple(with_pair))
    _waits_memo[key] = waits
    return waits


def _honour_state(counts: Sequence[int]) -> tuple[bool, int]:
    """(every honour is 0, 2 or 3, number of honour pairs)."""
    pairs = 0
    for t in range(HONOR, NUM_KINDS):
        n = counts[t]
        if n == 2:
            pairs += 1
        elif n == 1 or n == 4:
            return False, pairs
    return True, pairs


def is_complete(counts: Sequence[int]) -> bool:
    """True when the concealed tiles (3n+2 of them) are n sets and one pair."""
    pairs = 0
    for start in _SUIT_STARTS:
        key = bytes(counts[start : start + 9])
        bits = _suit_bits(key)
        if bits & _WITH_PAIR:
            pairs += 1
        elif not bits & _SETS_ONLY and any(key):
            return False
    ok, honour_pairs = _honour_state(counts)
    return ok and pairs + honour_pairs == 1


def shape_waits(counts: Sequence[int]) -> tuple[Tile, ...]:
    """Every kind that completes the 3n+1 concealed tiles as n sets and a pair, sorted.

    Kinds of which the concealed tiles already hold four are excluded; copies in melds are the
    caller's business (spec: a tile all four copies of which are in the hand is never a wait).
    """
    keys = [bytes(counts[s : s + 9]) for s in _SUIT_STARTS]
    # Per group: residue mod 3 and whether it is complete as it stands (None: it is not).
    totals = [sum(k) for k in keys]
    oks = []
    pairs = 0
    for key, total in zip(keys, totals, strict=True):
        bits = _suit_bits(key)
        if total % 3 == 0 and (bits & _SETS_ONLY or total == 0):
            oks.append(True)
        elif total % 3 == 2 and bits & _WITH_PAIR:
            oks.append(True)
            pairs += 1
        else:
            oks.append(False)
    honour_singles = []
    honour_bad = 0
    honour_pairs = []
    for t in range(HONOR, NUM_KINDS):
        n = counts[t]
        if n == 1:
            honour_singles.append(t)
        elif n == 2:
            honour_pairs.append(t)
        elif n == 4:
            honour_bad += 1
    suits_bad = oks.count(False)
    waits: list[Tile] = []
    for i, start in enumerate(_SUIT_STARTS):
        if honour_singles or honour_bad or suits_bad - (not oks[i]) > 0:
            continue
        other_pairs = pairs - (oks[i] and totals[i] % 3 == 2) + len(honour_pairs)
        sets_only, with_pair = _suit_waits(keys[i])
        residue_after = (totals[i] + 1) % 3
        if residue_after == 0 and other_pairs == 1:
            waits.extend(start + r for r in sets_only)
        elif residue_after == 2 and other_pairs == 0:
            waits.extend(start + r for r in with_pair)
    if not suits_bad and not honour_bad:
        if len(honour_singles) == 1 and pairs + len(honour_pairs) == 0:
            waits.append(honour_singles[0])
        elif not honour_singles and pairs + len(honour_pairs) == 2:
            # 对倒: with two pairs, either honour pair may become the pong.
            waits.extend(honour_pairs)
    return tuple(sorted(waits))


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

    >>> from rules.tiles import count_tiles, parse_tiles
    >>> len(decompositions(count_tiles(parse_tiles("11122233344455m"))))
    4
    """
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
