"""Tiles and the compact "mpsz" notation (spec: ``judge.md``, section *Tiles*).

A tile kind is a small ``int`` so that hands can be counted in flat tuples and analysed
with table look-ups:

=========  ===========  ==========================================
kinds      ints         notation
=========  ===========  ==========================================
万 1–9     0–8          ``1m``…``9m``
筒 1–9     9–17         ``1p``…``9p``
条 1–9     18–26        ``1s``…``9s``
风 东南西北 27–30        ``1z``…``4z``
箭 白发中   31–33        ``5z``…``7z``
花 1–8     34–41        ``1f``…``8f`` (Taiwan 16-tile only)
=========  ===========  ==========================================

>>> parse_tiles("123m 456p 11z")
[0, 1, 2, 12, 13, 14, 27, 27]
>>> format_tiles([27, 0, 2, 1])
'123m1z'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from rules.errors import NotationError

Tile = int
"""A tile kind, 0–41 (see the module docstring)."""

SUITS: Final = "mpsz"
NUM_KINDS: Final = 34
"""Kinds that can form sets (suits and honours); flowers are counted apart."""
NUM_KINDS_WITH_FLOWERS: Final = 42
COPIES: Final = 4

MAN: Final = 0
PIN: Final = 9
SOU: Final = 18
HONOR: Final = 27
FLOWER: Final = 34

EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30
WHITE, GREEN, RED = 31, 32, 33
"""白 (5z), 发 (6z), 中 (7z)."""

WINDS: Final = (EAST, SOUTH, WEST, NORTH)
DRAGONS: Final = (WHITE, GREEN, RED)
SUITED: Final = tuple(range(27))
HONOURS: Final = tuple(range(27, 34))
FLOWERS: Final = tuple(range(34, 42))
ALL_136: Final = tuple(range(34))
TERMINALS: Final = (0, 8, 9, 17, 18, 26)
"""The 1s and 9s of the three suits (幺九)."""

_LETTER_OF_GROUP: Final = "mpszf"


def is_suited(tile: Tile) -> bool:
    """True for 万, 筒 and 条 (the kinds that can form chows)."""
    return 0 <= tile < HONOR


def is_flower(tile: Tile) -> bool:
    return FLOWER <= tile < NUM_KINDS_WITH_FLOWERS


def suit_of(tile: Tile) -> int:
    """0 万, 1 筒, 2 条, 3 honours, 4 flowers."""
    return 4 if tile >= FLOWER else tile // 9


def rank_of(tile: Tile) -> int:
    """1–9 for suited tiles, 1–7 for honours, 1–8 for flowers."""
    if tile >= FLOWER:
        return tile - FLOWER + 1
    return tile % 9 + 1 if tile < HONOR else tile - HONOR + 1


def tile_of(rank: int, suit: str) -> Tile:
    """The tile written ``f"{rank}{suit}"``; raises :class:`NotationError` if there is none."""
    limits = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8}
    if suit not in limits:
        raise NotationError(f"unknown suit letter {suit!r} (use m, p, s, z or f)")
    if not 1 <= rank <= limits[suit]:
        raise NotationError(f"there is no tile {rank}{suit}")
    if suit == "f":
        return FLOWER + rank - 1
    return "mpsz".index(suit) * 9 + rank - 1


def tile_name(tile: Tile) -> str:
    """The tile in notation, e.g. ``'5p'``."""
    return _NAMES[tile]


def _name_of(tile: Tile) -> str:
    return f"{rank_of(tile)}{_LETTER_OF_GROUP[suit_of(tile)]}"


_NAMES: Final = tuple(_name_of(tile) for tile in range(NUM_KINDS_WITH_FLOWERS))
"""Every tile's notation, looked up (the judge names every wait of every answer)."""

_DIGITS = frozenset("0123456789")


def parse_tiles(text: str, *, max_copies: int | None = COPIES) -> list[Tile]:
    """Parse mpsz notation into tiles, in the order written.

    Digits before a suit letter share it (``123m`` is 1m 2m 3m); spaces are ignored.
    Raises :class:`NotationError` on a stray digit, an unknown letter, a tile that does not
    exist (``8z``) or more than ``max_copies`` of one kind (pass ``None`` to allow any count).

    Only the ASCII digits 0–9 are ranks: ``str.isdigit`` would also take "²" or "١", which
    ``int`` cannot read (a judge case such as ``"²m"`` crashed the calculator's API).

    >>> parse_tiles("5x")
    Traceback (most recent call last):
    ...
    rules.errors.NotationError: unknown suit letter 'x' (use m, p, s, z or f)
    >>> parse_tiles("²m")
    Traceback (most recent call last):
    ...
    rules.errors.NotationError: suit letter '²' has no digits before it
    """
    tiles = parse_plain_tiles(text)
    if tiles is None:
        tiles = _parse_slow(text)
    if max_copies is not None:
        check_copies(tiles, max_copies=max_copies)
    return tiles


_PLAIN = re.compile(r"(?:[1-9]+[mps]|[1-7]+z|[1-8]+f)*")
"""Well-formed notation without spaces: every digit group ends in a letter that has its ranks."""
_GROUP = re.compile(r"[1-9]+[mpszf]")
_GROUP_TILES: dict[str, tuple[Tile, ...]] = {}
"""The tiles of each digit group seen (``"345m"``), so that a hand costs a few look-ups."""
_GROUP_MEMO_SIZE = 8192
_BEFORE_FIRST = {"m": -1, "p": 8, "s": 17, "z": 26, "f": FLOWER - 1}
"""The tile just before rank 1 of each suit letter: ``7z`` is ``26 + 7``."""


def parse_plain_tiles(text: str) -> list[Tile] | None:
    """The tiles of well-formed notation without spaces, or None for anything else (a space, a
    stray digit, an unknown letter, a rank the suit lacks): the judge reads tens of thousands
    of hands a second, and :func:`_parse_slow` then says exactly what is wrong."""
    if _PLAIN.fullmatch(text) is None:
        return None
    tiles: list[Tile] = []
    for group in _GROUP.findall(text):
        known = _GROUP_TILES.get(group)
        if known is None:
            before = _BEFORE_FIRST[group[-1]]
            known = tuple(before + int(digit) for digit in group[:-1])
            if len(_GROUP_TILES) < _GROUP_MEMO_SIZE:
                _GROUP_TILES[group] = known
        tiles.extend(known)
    return tiles


def _parse_slow(text: str) -> list[Tile]:
    """Parse notation one character at a time, raising :class:`NotationError` on the first
    thing that is wrong (spaces are skipped)."""
    tiles: list[Tile] = []
    pending: list[int] = []
    for ch in text:
        if ch.isspace():
            continue
        if ch in _DIGITS:
            pending.append(int(ch))
            continue
        if not pending:
            raise NotationError(f"suit letter {ch!r} has no digits before it")
        tiles.extend(tile_of(rank, ch) for rank in pending)
        pending = []
    if pending:
        raise NotationError(f"digits {''.join(map(str, pending))!r} have no suit letter after them")
    return tiles


def parse_tile(text: str) -> Tile:
    """Parse exactly one tile, e.g. ``'7z'``."""
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise NotationError(f"expected one tile, got {text!r}")
    return tiles[0]


def check_copies(tiles: Iterable[Tile], *, max_copies: int = COPIES) -> None:
    """Raise :class:`NotationError` when a kind occurs more than ``max_copies`` times."""
    counts = count_tiles(tiles)
    for tile, n in enumerate(counts):
        limit = 1 if is_flower(tile) else max_copies
        if n > limit:
            raise NotationError(f"{n} copies of {tile_name(tile)}; a set has only {limit}")


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Canonical notation: sorted m, p, s, z, f, digits ascending, no spaces."""
    out: list[str] = []
    group: list[str] = []
    letter = ""
    for tile in sorted(tiles):
        this_letter = _LETTER_OF_GROUP[suit_of(tile)]
        if this_letter != letter and group:
            out.append("".join(group) + letter)
            group = []
        letter = this_letter
        group.append(str(rank_of(tile)))
    if group:
        out.append("".join(group) + letter)
    return "".join(out)


def count_tiles(tiles: Iterable[Tile]) -> list[int]:
    """Counts per kind, a list of length :data:`NUM_KINDS_WITH_FLOWERS`."""
    counts = [0] * NUM_KINDS_WITH_FLOWERS
    for tile in tiles:
        counts[tile] += 1
    return counts


def full_set(kinds: Iterable[Tile]) -> list[Tile]:
    """Four of each kind in ``kinds`` (one of each flower), sorted: the tiles of a wall."""
    return sorted(t for kind in kinds for t in [kind] * (1 if is_flower(kind) else COPIES))
