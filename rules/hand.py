"""Melds and the facts a win or ting query is judged on: the contract between the round engine
(:mod:`rules.engine`), the hand rules of each variant (:mod:`rules.hand_rules`, each variant's
``wins.py``) and the judge CLI.

The fields mirror the judge's case format (``judge.md``, *A case*) one to one, so that the live
round and ``python -m rules judge`` ask the variant exactly the same question.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from rules.tiles import Tile, format_tiles

if TYPE_CHECKING:
    from rules.payments import Share

Seat = int


@dataclass(frozen=True, slots=True)
class Transfer:
    """One payment of ``amount`` points from ``payer`` to ``payee`` (both seats)."""

    payer: Seat
    payee: Seat
    amount: int


MeldKind = Literal["chow", "pong", "kong", "special_kong"]
WinBy = Literal["discard", "self_draw", "kong_draw", "rob_kong"]
SpecialKongName = Literal["xuanfeng", "xi", "yao", "jiu"]
"""Changchun 特殊杠: 旋风杠 (four winds), 喜杠 (中发白), 幺蛋 (1m1p1s), 九蛋 (9m9p9s)."""

SPECIAL_KONGS: Mapping[SpecialKongName, tuple[Tile, ...]] = {
    "xuanfeng": (27, 28, 29, 30),  # 旋风杠: 东南西北
    "xi": (31, 32, 33),  # 喜杠: 中发白
    "yao": (0, 9, 18),  # 幺蛋: 1m 1p 1s
    "jiu": (8, 17, 26),  # 九蛋: 9m 9p 9s
}
"""特殊杠 families (Changchun's four; Siping's 风杠 and 中发白杠 are the first two); a further
tile of the same family may be added (补)."""


def special_kong_family(tile: Tile) -> SpecialKongName | None:
    """The special-kong family a tile can be added to (a wind, a dragon, a 1 or a 9)."""
    for name, tiles in SPECIAL_KONGS.items():
        if tile in tiles:
            return name
    return None


@dataclass(frozen=True, slots=True)
class Meld:
    """An exposed or declared set.

    ``concealed`` is true only for a concealed kong (暗杠). ``added`` marks a kong made by adding
    to one's own pong (补杠 / 加杠). ``from_seat`` is the seat whose discard was claimed, if any.
    A special kong keeps all its tiles, adds included, in ``tiles``.
    """

    kind: MeldKind
    tiles: tuple[Tile, ...]
    concealed: bool = False
    from_seat: int | None = None
    added: bool = False
    name: SpecialKongName | None = None

    @property
    def opens_hand(self) -> bool:
        """开门: every meld but a concealed kong opens the hand (a special kong does too)."""
        return not self.concealed

    @property
    def is_kong(self) -> bool:
        return self.kind in ("kong", "special_kong")

    def notation(self) -> str:
        return format_tiles(self.tiles)


@dataclass(frozen=True, slots=True)
class WinContext:
    """Everything needed to judge one win (``kind: win`` in ``judge.md``).

    ``concealed`` holds the winner's concealed tiles **including** ``win_tile``.
    ``options`` are the room options already merged with the variant's defaults.
    """

    variant: str
    dealer: int
    winner: int
    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...]
    win_tile: Tile
    win_by: WinBy
    discarder: int | None = None
    ting: bool = False
    treasure: Tile | None = None
    treasure_win: bool = False
    opened: tuple[bool, bool, bool, bool] = (False, False, False, False)
    options: Mapping[str, Any] = field(default_factory=dict)
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def self_drawn(self) -> bool:
        """自摸 for scoring: a kong replacement draw counts as a self-draw (spec README)."""
        return self.win_by in ("self_draw", "kong_draw")


@dataclass(frozen=True, slots=True)
class TingContext:
    """A ``kind: ting`` query: which tiles would win for this 3n+1 hand if ting were declared."""

    variant: str
    dealer: int
    seat: int
    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...]
    opened: tuple[bool, bool, bool, bool] = (False, False, False, False)
    options: Mapping[str, Any] = field(default_factory=dict)
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class WinVerdict:
    """The judge's answer to a win: legal with fan and payments, or the first failing ``reason``."""

    legal: bool
    reason: str | None = None
    fan: Mapping[str, int] = field(default_factory=dict)
    total: int = 0
    payments: tuple[int, int, int, int] = (0, 0, 0, 0)
    transfers: tuple[Transfer, ...] = ()
    """The pairwise payments behind ``payments``, **before** any cap, so that the round can add
    kong payments and cap the whole (``changchun.md``, *Cap*)."""
    shares: tuple[Share, ...] = ()
    """Each payer's share of ``transfers`` with the items that make it (the settlement's
    explanation, :mod:`rules.settlement`)."""

    def as_json(self) -> dict[str, Any]:
        if not self.legal:
            return {"legal": False, "reason": self.reason}
        return {
            "legal": True,
            "fan": dict(self.fan),
            "total": self.total,
            "payments": list(self.payments),
        }


@dataclass(frozen=True, slots=True)
class TingVerdict:
    """The judge's answer to a ting query."""

    waits: tuple[Tile, ...]
    ting_allowed: bool
    reason: str | None = None
