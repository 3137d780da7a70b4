"""Shanten (向听数) and effective tiles (进张) of a concealed hand, fast enough for a bot's every
decision (issue 19: ≤ 20 ms p99 per decision, ``bench/bench_bots.py``).

The shanten of the regular form (``need`` sets and a pair among the concealed tiles; melds are
already sets) is ``2 × need − 2 × sets − partials − pair``, with ``sets + partials ≤ need``; -1
is a complete hand, 0 a ready one (听牌). Each suit is analysed once per 9-count key and memoised
(a small Pareto front of (sets, partials, pair) readings), honours by a rule, so a whole hand is
four look-ups and a short product; whole hands are memoised as well (a bounded dict keyed by the
counts' bytes), because a bot asks about the same neighbours of a hand many times.

This is the shape only: each variant's own winning conditions are checked exactly, by its hand
rules, once a hand is ready (:mod:`rules.bots.evaluate`).

>>> from rules.tiles import count_tiles, parse_tiles
>>> shanten(count_tiles(parse_tiles("123456789m1234p")), 4)
0
>>> shanten(count_tiles(parse_tiles("147m258p369s1234z")), 4)
8
"""

from __future__ import annotations

from collections.abc import Sequence

Front = tuple[tuple[int, int, int], ...]
"""Readings (sets, partials, pair 0/1) of one group, none dominated by another."""

_SUIT_MEMO: dict[tuple[int, ...], Front] = {}
_HAND_MEMO: dict[tuple[bytes, int], int] = {}
_HAND_MEMO_LIMIT = 200_000


def _pareto(found: set[tuple[int, int, int]]) -> Front:
    """The readings of ``found`` that no other reading beats in every count."""
    keep = [
        r
        for r in found
        if not any(o != r and o[0] >= r[0] and o[1] >= r[1] and o[2] >= r[2] for o in found)
    ]
    return tuple(sorted(keep, reverse=True))


def _suit_front(key: tuple[int, ...]) -> Front:
    """Every useful reading of one suit's 9 counts into sets, partials (two tiles of a set:
    a pair, 12 or 13) and at most one pair kept as the hand's pair.

    Dynamic programming on the key: the lowest held tile is used in a pong, a chow, a pair (as
    a partial or as the hand's pair), a partial 12 or 13, or left alone, and the rest of the
    suit is itself a (memoised) key."""
    front = _SUIT_MEMO.get(key)
    if front is not None:
        return front
    i = 0
    while i < 9 and key[i] == 0:
        i += 1
    if i == 9:
        front = ((0, 0, 0),)
        _SUIT_MEMO[key] = front
        return front
    found: set[tuple[int, int, int]] = set()

    def take(removed: tuple[tuple[int, int], ...], sets: int, partials: int, pair: int) -> None:
        rest = list(key)
        for index, n in removed:
            rest[index] -= n
        for s, p, q in _suit_front(tuple(rest)):
            if q + pair <= 1:
                found.add((s + sets, p + partials, q + pair))

    n = key[i]
    if n >= 3:
        take(((i, 3),), 1, 0, 0)
    if i <= 6 and key[i + 1] and key[i + 2]:
        take(((i, 1), (i + 1, 1), (i + 2, 1)), 1, 0, 0)
    if n >= 2:
        take(((i, 2),), 0, 1, 0)
        take(((i, 2),), 0, 0, 1)
    if i <= 7 and key[i + 1]:
        take(((i, 1), (i + 1, 1)), 0, 1, 0)
    if i <= 6 and key[i + 2]:
        take(((i, 1), (i + 2, 1)), 0, 1, 0)
    take(((i, 1),), 0, 0, 0)
    front = _pareto(found)
    _SUIT_MEMO[key] = front
    return front


def _honour_front(key: Sequence[int]) -> Front:
    """Honours form pongs and pairs only (no chows)."""
    sets = sum(1 for n in key if n >= 3)
    pairs = sum(1 for n in key if n == 2)
    if pairs:
        return ((sets, pairs, 0), (sets, pairs - 1, 1))
    return ((sets, 0, 0),)


def _merge(a: Front, b: Front) -> Front:
    """The readings of two groups together (one pair at most), none dominated."""
    found = {(x[0] + y[0], x[1] + y[1], x[2] + y[2]) for x in a for y in b if x[2] + y[2] <= 1}
    return found_front(found)


def found_front(found: set[tuple[int, int, int]]) -> Front:
    if len(found) == 1:
        return tuple(found)
    return _pareto(found)


def _best(front: Front, other: Front, need: int) -> int:
    """The shanten of two fronts together (the regular form needing ``need`` sets)."""
    best = 2 * need
    for x in front:
        for y in other:
            pair = x[2] + y[2]
            if pair > 1:
                continue
            sets = x[0] + y[0]
            if sets > need:
                sets = need
            partials = x[1] + y[1]
            if sets + partials > need:
                partials = need - sets
            value = 2 * need - 2 * sets - partials - pair
            if value < best:
                best = value
    return best


def _fronts(raw: bytes) -> list[Front]:
    return [
        _suit_front(tuple(raw[0:9])),
        _suit_front(tuple(raw[9:18])),
        _suit_front(tuple(raw[18:27])),
        _honour_front(raw[27:34]),
    ]


def shanten(counts: Sequence[int], need: int) -> int:
    """Shanten of the concealed ``counts`` (34 kinds) needing ``need`` sets and a pair."""
    raw = bytes(counts[:34])
    key = (raw, need)
    found = _HAND_MEMO.get(key)
    if found is not None:
        return found
    f = _fronts(raw)
    best = _best(_merge(f[0], f[1]), _merge(f[2], f[3]), need)
    if len(_HAND_MEMO) > _HAND_MEMO_LIMIT:
        _HAND_MEMO.clear()
    _HAND_MEMO[key] = best
    return best


def useful_kinds(counts: Sequence[int]) -> list[int]:
    """Kinds that can lower a hand's shanten: held kinds and suited kinds within two of one."""
    out: list[int] = []
    for t in range(34):
        if counts[t] >= 4:
            continue
        if counts[t]:
            out.append(t)
            continue
        if t >= 27:
            continue
        rank = t % 9
        base = t - rank
        for d in (-2, -1, 1, 2):
            r = rank + d
            if 0 <= r < 9 and counts[base + r]:
                out.append(t)
                break
    return out


def effective_tiles(
    counts: list[int], need: int, unseen: Sequence[int], base: int | None = None
) -> tuple[int, int]:
    """(shanten, unseen copies of the kinds that lower it) of a 3n+1 hand (进张).

    A drawn tile changes one group only: the other three are merged once per group, and each
    candidate costs one group look-up and a short product."""
    if base is None:
        base = shanten(counts, need)
    raw = bytes(counts[:34])
    f = _fronts(raw)
    others = [
        _merge(_merge(f[1], f[2]), f[3]),
        _merge(_merge(f[0], f[2]), f[3]),
        _merge(_merge(f[0], f[1]), f[3]),
        _merge(_merge(f[0], f[1]), f[2]),
    ]
    total = 0
    for t in useful_kinds(counts):
        left = unseen[t]
        if not left:
            continue
        g = t // 9 if t < 27 else 3
        counts[t] += 1
        if g < 3:
            start = g * 9
            front = _suit_front(tuple(counts[start : start + 9]))
        else:
            front = _honour_front(counts[27:34])
        counts[t] -= 1
        if _best(front, others[g], need) < base:
            total += left
    return base, total
