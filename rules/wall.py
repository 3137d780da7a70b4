"""The wall (牌墙): random stream, shuffle, dice, break point, stacks, deal and the fairness
commitment (spec ``README.md``, *The round*, items 2 and 3).

Reproducible randomness
-----------------------
Every random choice of a round comes from one deterministic random bit generator (DRBG) keyed by
a secret 32-byte ``seed`` (fresh from ``secrets`` on a live table, a derived seed in the
simulator), so that the same seed and the same actions always give the same round:

* **Blocks.** Block ``i`` (``i = 0, 1, 2, …``) is ``HMAC-SHA256(key=seed, msg=i as 8 bytes
  big-endian)``, 32 bytes.
* **Words.** The stream is the concatenation of the blocks read as unsigned 32-bit big-endian
  words: word ``w`` is bytes ``4*(w % 8) … 4*(w % 8)+3`` of block ``w // 8``. The ``counter`` is
  the number of words consumed so far; the round state stores that integer, not an object.
* **randbelow(n)** (``1 ≤ n ≤ 2**32``): ``limit = (2**32 // n) * n``; take the next word ``x``
  until ``x < limit``; answer ``x % n``. Rejection sampling: no modulo bias.
* **Shuffle** (Fisher–Yates, Durstenfeld): start from the variant's full set **sorted** by tile
  int (``rules.tiles.full_set``); for ``i`` from ``len - 1`` down to ``1``:
  ``j = randbelow(i + 1)``, swap items ``i`` and ``j``. The result is the wall in **draw order**
  from the live end.
* **At the deal**, in this order: the shuffle, two dice (``randbelow(6) + 1`` each), then the
  32-byte commitment salt (the next 8 words, each as 4 bytes big-endian). Later random choices of
  the round (Changchun's treasure dice, re-rolls) continue the same stream.

Layout
------
``wall[0]`` is the first tile drawn from the live end; replacement tiles (杠后补牌) come from the
far end (牌尾): ``wall[-1]``, then ``wall[-2]``, …. Positions ``2k`` and ``2k + 1`` form stack
(墩) ``k``; position ``2k`` is its top tile. The order inside a stack is a convention (nobody sees
it before the round ends); what matters is that reserves and the treasure are counted in stacks
from the far end and that a lone tile left on a stack by a replacement draw is not a stack
(``changchun.md``, *Drawn round*).

The dice and the break point decide nothing the shuffle has not already decided; they are rolled
and recorded because players expect to see them (spec README, item 2).

Fairness commitment
-------------------
At the deal the table publishes ``commitment = sha256(salt ‖ canonical_wall_bytes)`` (hex), where
``canonical_wall_bytes`` is the tiles in draw order written in mpsz notation (``tile_name``)
joined by ``","`` and encoded as ASCII, e.g. ``b"1m,5p,7z,…"``. The round-end event reveals
``salt`` (hex) and the wall, and anyone can check them with :func:`verify` or
``python -m rules verify FILE``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import struct
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from rules.errors import NotationError
from rules.tiles import Tile, full_set, parse_tile, tile_name

SEATS: Final = 4
STACK: Final = 2
"""Tiles per stack (墩)."""
_WORD_SPACE: Final = 1 << 32
_WORDS_PER_BLOCK: Final = 8
_BLOCK_WORDS: Final = struct.Struct(">8I")


def seed_from_text(text: str) -> bytes:
    """A 32-byte seed derived from any string (``sha256``), for simulations and tests."""
    return hashlib.sha256(text.encode("utf-8")).digest()


class Drbg:
    """HMAC-SHA256 in counter mode (see the module docstring for the exact algorithm).

    >>> d = Drbg(bytes(32))
    >>> [d.randbelow(6) + 1 for _ in range(5)] == [d2 for d2 in Drbg(bytes(32)).dice(5)]
    True
    """

    __slots__ = ("_block_index", "_words", "counter", "seed")

    def __init__(self, seed: bytes, counter: int = 0) -> None:
        if len(seed) != 32:
            raise ValueError("a DRBG seed is exactly 32 bytes")
        self.seed = seed
        self.counter = counter
        self._block_index = -1
        self._words: tuple[int, ...] = ()

    def next_word(self) -> int:
        """The next unsigned 32-bit word of the stream."""
        index, offset = divmod(self.counter, _WORDS_PER_BLOCK)
        if index != self._block_index:
            msg = index.to_bytes(8, "big")
            # A block's eight big-endian words, unpacked once (the shuffle reads them all).
            self._words = _BLOCK_WORDS.unpack(hmac.new(self.seed, msg, hashlib.sha256).digest())
            self._block_index = index
        self.counter += 1
        return self._words[offset]

    def randbelow(self, n: int) -> int:
        """Uniform in ``0 … n-1`` by rejection sampling (no modulo bias)."""
        if not 1 <= n <= _WORD_SPACE:
            raise ValueError(f"randbelow needs 1 <= n <= 2**32, got {n}")
        limit = (_WORD_SPACE // n) * n
        while True:
            x = self.next_word()
            if x < limit:
                return x % n

    def dice(self, count: int = 2) -> tuple[int, ...]:
        """``count`` six-sided dice (骰子)."""
        return tuple(self.randbelow(6) + 1 for _ in range(count))

    def token(self, nbytes: int = 32) -> bytes:
        """``nbytes`` (a multiple of 4) raw bytes of the stream, for the commitment salt."""
        return b"".join(self.next_word().to_bytes(4, "big") for _ in range(nbytes // 4))


def shuffle(tiles: Sequence[Tile], drbg: Drbg) -> tuple[Tile, ...]:
    """Fisher–Yates (Durstenfeld) shuffle driven by ``drbg``; returns a new tuple."""
    out = list(tiles)
    for i in range(len(out) - 1, 0, -1):
        j = drbg.randbelow(i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out)


@dataclass(frozen=True, slots=True)
class BreakPoint:
    """Where the wall is broken (开牌): the seat whose wall it is and the stack counted from that
    seat's right (spec README, item 2)."""

    seat: int
    stack: int


def break_point(dealer: int, dice: Sequence[int]) -> BreakPoint:
    """The dice total counted counter-clockwise from the dealer (the dealer counts as 1) picks the
    seat; the same total picks the stack from that seat's right."""
    total = sum(dice)
    return BreakPoint(seat=(dealer + total - 1) % SEATS, stack=total)


@dataclass(frozen=True, slots=True)
class WallSetup:
    """The result of shuffling and rolling at the deal: everything a round needs from randomness."""

    wall: tuple[Tile, ...]
    dice: tuple[int, int]
    break_point: BreakPoint
    salt: bytes
    commitment: str
    drbg_counter: int


def build_wall(seed: bytes, kinds: Sequence[Tile], dealer: int) -> WallSetup:
    """Shuffle the full set of ``kinds``, roll the dealer's dice and commit to the wall."""
    drbg = Drbg(seed)
    wall = shuffle(full_set(kinds), drbg)
    d1, d2 = drbg.dice(2)
    salt = drbg.token(32)
    return WallSetup(
        wall=wall,
        dice=(d1, d2),
        break_point=break_point(dealer, (d1, d2)),
        salt=salt,
        commitment=commitment(salt, wall),
        drbg_counter=drbg.counter,
    )


def canonical_wall_bytes(wall: Sequence[Tile]) -> bytes:
    """The tiles in draw order, mpsz names joined by ``","`` (ASCII)."""
    names = _NAMES
    return ",".join([names.get(t) or tile_name(t) for t in wall]).encode("ascii")


_NAMES: Final = {t: tile_name(t) for t in range(42)}
"""Every tile's mpsz name (the commitment names each tile of every wall); ``tile_name`` still
answers, and refuses, anything else."""


def commitment(salt: bytes, wall: Sequence[Tile]) -> str:
    """``sha256(salt ‖ canonical_wall_bytes)`` as hex: published at the deal."""
    return hashlib.sha256(salt + canonical_wall_bytes(wall)).hexdigest()


def verify(*, commitment: str, salt_hex: str, wall: str | Sequence[Tile]) -> bool:
    """True when the revealed ``salt_hex`` and ``wall`` (``"1m,5p,…"`` or tile ints) match the
    ``commitment`` published at the deal."""
    try:
        salt = bytes.fromhex(salt_hex)
        tiles = [parse_tile(name) for name in wall.split(",")] if isinstance(wall, str) else wall
    except (ValueError, NotationError):
        return False
    digest = hashlib.sha256(salt + canonical_wall_bytes(tiles)).hexdigest()
    return hmac.compare_digest(digest, commitment.lower())


def verify_main(file: str) -> int:
    """``python -m rules verify FILE``: read ``{"commitment", "salt", "wall"}``, print
    ``{"ok": true|false}``; exit status 0 when it matches, 1 otherwise (2 on unreadable input)."""
    try:
        text = sys.stdin.read() if file == "-" else open(file, encoding="utf-8").read()  # noqa: SIM115
        data = json.loads(text)
        ok = verify(
            commitment=str(data["commitment"]), salt_hex=str(data["salt"]), wall=str(data["wall"])
        )
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(json.dumps({"ok": False, "error": str(exc)}))
        return 2 if isinstance(exc, OSError) else 1
    print(json.dumps({"ok": ok}))
    return 0 if ok else 1


# --- stacks -------------------------------------------------------------------------------------


def whole_stacks_left(size: int, far_drawn: int) -> int:
    """Stacks still whole or partly live between position 0 and the far end, counting from the far
    end: a lone tile left by a replacement draw is not a stack."""
    return (size - far_drawn) // STACK


def live_limit(size: int, far_drawn: int, reserve_stacks: int) -> int:
    """The first position the live end may not draw: the reserve is the last ``reserve_stacks``
    whole stacks at the far end (plus any lone tile there)."""
    return STACK * max(0, whole_stacks_left(size, far_drawn) - reserve_stacks)


def stack_top_from_far(size: int, live: int, far_drawn: int, stacks: int) -> int | None:
    """Position of the top tile of the ``stacks``-th whole stack counted from the far end (1 is the
    last whole stack), among the stacks still whole; used to place Changchun's treasure indicator.
    When fewer stacks are left, the one nearest the live end is used; ``None`` if none is whole."""
    last = (size - far_drawn) // STACK - 1
    first = (live + 1) // STACK
    whole = last - first + 1
    if whole <= 0:
        return None
    return STACK * (last - min(stacks, whole) + 1)


def deal_order(dealer: int, hand_size: int = 13) -> list[tuple[int, int]]:
    """The standard deal (spec README, item 3) as ``(seat, count)`` takes in order: from the dealer,
    each takes 4 tiles, three times (for 13 tiles; 4 times for Taiwan's 16), then 1 each, then the
    dealer 1 more."""
    takes: list[tuple[int, int]] = []
    for _ in range(hand_size // 4):
        takes += [((dealer + i) % SEATS, 4) for i in range(SEATS)]
    if hand_size % 4:
        takes += [((dealer + i) % SEATS, hand_size % 4) for i in range(SEATS)]
    takes.append((dealer, 1))
    return takes


def deal(wall: Sequence[Tile], dealer: int, hand_size: int = 13) -> tuple[tuple[Tile, ...], ...]:
    """The tiles each seat is dealt, **in deal order** (so Li-Si's first four 立牌 are
    ``dealt[seat][:4]``). The dealer gets ``hand_size + 1`` tiles, taken from ``wall[0]`` on."""
    hands: list[list[Tile]] = [[] for _ in range(SEATS)]
    pos = 0
    for seat, count in deal_order(dealer, hand_size):
        hands[seat].extend(wall[pos : pos + count])
        pos += count
    return tuple(tuple(h) for h in hands)
