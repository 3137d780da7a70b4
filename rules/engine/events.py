"""What happened, as the engine tells it (one list per ``apply``). Each event is a frozen dataclass
with a ``kind`` and a ``to_json()``; :func:`rules.views.event_for` decides what each seat (or a
spectator) may see of it (spec ``README.md``, *The round*, item 8).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from rules.hand import Meld, Transfer
from rules.tiles import Tile, parse_tile, tile_name

_TILE_FIELDS = frozenset(
    {
        "tile",
        "tiles",
        "wall",
        "hands",
        "dealt",
        "waits",
        "round_wind",
        "treasure",
        "given",
        "received",
    }
)


def meld_json(meld: Meld) -> dict[str, Any]:
    """A meld as in the judge's case format (``judge.md``), plus ``added``."""
    out: dict[str, Any] = {
        "type": meld.kind,
        "tiles": [tile_name(t) for t in meld.tiles],
        "concealed": meld.concealed,
        "from": meld.from_seat,
        "added": meld.added,
    }
    if meld.name is not None:
        out["name"] = meld.name
    return out


def meld_from_json(data: Mapping[str, Any]) -> Meld:
    """The meld :func:`meld_json` wrote, exactly (``meld_from_json(meld_json(m)) == m``): the
    ledger reads the kong of each logged kong payment back (``scoring.services``)."""
    name = data.get("name")
    return Meld(
        kind=data["type"],
        tiles=tuple(parse_tile(t) for t in data["tiles"]),
        concealed=bool(data["concealed"]),
        from_seat=data["from"],
        added=bool(data["added"]),
        name=name,
    )


def encode(name: str, value: Any) -> Any:
    """JSON for a field: tiles (by field name) as mpsz names, melds and transfers as objects."""
    if isinstance(value, Meld):
        return meld_json(value)
    if isinstance(value, Transfer):
        return {"payer": value.payer, "payee": value.payee, "amount": value.amount}
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, tuple | list):
        return [encode(name, v) for v in value]
    if isinstance(value, dict):
        return {str(k): encode(str(k), v) for k, v in value.items()}
    if name in _TILE_FIELDS and isinstance(value, int) and not isinstance(value, bool):
        return tile_name(value)
    return value


@dataclass(frozen=True, slots=True)
class Event:
    kind: ClassVar[str] = "event"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            out[f.name] = encode(f.name, getattr(self, f.name))
        return out


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    """The deal begins: dealer, winds, dice, break point and the fairness commitment (public)."""

    variant: str
    dealer: int
    round_wind: int
    dice: tuple[int, int]
    break_seat: int
    break_stack: int
    commitment: str
    wall_size: int
    kind: ClassVar[str] = "round_started"


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """A seat's starting tiles, in deal order (seen by that seat only)."""

    seat: int
    tiles: tuple[Tile, ...]
    kind: ClassVar[str] = "dealt"


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    seat: int
    kind: ClassVar[str] = "turn_started"


@dataclass(frozen=True, slots=True)
class Drew(Event):
    """A draw (摸牌); ``replacement``: from the far end after a kong. Only the drawer sees it."""

    seat: int
    tile: Tile
    replacement: bool = False
    kind: ClassVar[str] = "draw"


@dataclass(frozen=True, slots=True)
class FlowerShown(Event):
    """补花 (Taiwan): ``seat`` sets flower ``tile`` aside, face up for everyone; a replacement
    from the far end follows (a :class:`Drew` with ``replacement``)."""

    seat: int
    tile: Tile
    kind: ClassVar[str] = "flower"


@dataclass(frozen=True, slots=True)
class Discarded(Event):
    """打牌. ``ting``: it declared ting; ``face_down``: hidden from the others (Li-Si)."""

    seat: int
    tile: Tile
    ting: bool = False
    face_down: bool = False
    kind: ClassVar[str] = "discard"


@dataclass(frozen=True, slots=True)
class ClaimWindowOpened(Event):
    """A claim window on a discard (or on an added kong, ``rob_kong``). Seats in ``asked`` must
    answer; only each asked seat is told it is asked.

    It opens after every discard that the rules let anyone claim, and on every added kong that
    may be robbed, even when nobody holds a claim (``asked`` empty: it closes at once). The
    others must not learn what the hands hold from whether a window opened (issue 14, item 7).
    Answers are not events: they would tell the others, one by one, how many were asked."""

    discarder: int
    tile: Tile
    asked: tuple[int, ...]
    rob_kong: bool = False
    kind: ClassVar[str] = "claim_window"


@dataclass(frozen=True, slots=True)
class Melded(Event):
    """A chow, pong or kong laid down (a concealed kong's tiles are the owner's until the end)."""

    seat: int
    meld: Meld
    action: str
    kind: ClassVar[str] = "meld"


@dataclass(frozen=True, slots=True)
class KongRobbed(Event):
    """抢杠: ``robber`` took the tile ``konger`` added (by a win, or Changchun's 抢叉 pong)."""

    robber: int
    konger: int
    tile: Tile
    by: str
    kind: ClassVar[str] = "kong_robbed"


@dataclass(frozen=True, slots=True)
class DiceRolled(Event):
    purpose: str
    dice: tuple[int, ...]
    kind: ClassVar[str] = "dice"


@dataclass(frozen=True, slots=True)
class TreasurePlaced(Event):
    """A treasure indicator (宝牌) is chosen in the wall, face down: the position is public, the
    tile is not part of this event (see :class:`TreasureSeen`). ``change``: a 换宝."""

    position: int
    stacks_from_far: int
    version: int
    change: bool = False
    kind: ClassVar[str] = "treasure_placed"


@dataclass(frozen=True, slots=True)
class TreasureRetired(Event):
    """换宝 (Harbin): the old treasure ``tile`` is put face up into ``seat``'s (the dealer's)
    discard row; it is public from now on."""

    seat: int
    tile: Tile
    version: int
    kind: ClassVar[str] = "treasure_retired"


@dataclass(frozen=True, slots=True)
class TreasureSeen(Event):
    """A seat entitled to the treasure looks at it (that seat only)."""

    seat: int
    tile: Tile
    version: int
    kind: ClassVar[str] = "treasure_seen"


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """The result, with every hand, the wall and the salt revealed (public)."""

    winner: int | None
    win_by: str | None
    discarder: int | None
    tile: Tile | None
    fan: dict[str, int]
    total: int
    nets: tuple[int, int, int, int]
    transfers: tuple[Transfer, ...]
    next_dealer: int
    hands: tuple[tuple[Tile, ...], ...]
    wall: tuple[Tile, ...]
    salt: bytes
    commitment: str
    treasure: Tile | None
    kind: ClassVar[str] = "round_ended"


@dataclass(frozen=True, slots=True)
class PrivateEvent(Event):
    """An event only ``seat`` sees whole; the others are told only that it happened to ``seat``
    (:func:`rules.views.event_for`)."""

    seat: int


@dataclass(frozen=True, slots=True)
class VoidsChosen(Event):
    """成麻 定缺: every seat has chosen; the four void suits, public from now on."""

    voids: tuple[str, ...]
    kind: ClassVar[str] = "voids_chosen"


@dataclass(frozen=True, slots=True)
class TilesExchanged(Event):
    """成麻 换三张: all have picked; the direction drawn (1 the next seat, 2 the opposite, 3 the
    previous seat receives each player's three tiles)."""

    direction: int
    kind: ClassVar[str] = "tiles_exchanged"


@dataclass(frozen=True, slots=True)
class TilesSwapped(PrivateEvent):
    """成麻 换三张, one seat's side: the tiles it gave and the tiles it received (its own)."""

    given: tuple[Tile, ...]
    received: tuple[Tile, ...]
    kind: ClassVar[str] = "tiles_swapped"


@dataclass(frozen=True, slots=True)
class SeatWon(Event):
    """成麻 血战到底: ``seat`` won and is out; its hand is laid down (public). ``payments`` are
    the win's nets (capped), ``transfers`` its payments; the round goes on."""

    seat: int
    tile: Tile
    win_by: str
    discarder: int | None
    fan: dict[str, int]
    total: int
    tiles: tuple[Tile, ...]
    melds: tuple[Meld, ...]
    payments: tuple[int, int, int, int]
    transfers: tuple[Transfer, ...]
    kind: ClassVar[str] = "seat_won"


@dataclass(frozen=True, slots=True)
class KongPaid(Event):
    """成麻 刮风下雨: a kong's payments, settled at once (``kong``: concealed, added, exposed).
    Public, but a concealed kong's ``tile`` is its owner's, as in its :class:`Melded`
    (:func:`rules.views.event_for`)."""

    seat: int
    kong: str
    tile: Tile
    transfers: tuple[Transfer, ...]
    kind: ClassVar[str] = "kong_paid"


@dataclass(frozen=True, slots=True)
class MoneyMoved(Event):
    """成麻 呼叫转移: the kong money of a 杠上炮 passes from the konger to the winner."""

    transfers: tuple[Transfer, ...]
    kind: ClassVar[str] = "money_moved"


@dataclass(frozen=True, slots=True)
class WallChecked(Event):
    """成麻 end of the wall: 查花猪, 查大叫, 退税 (public, with every hand still in shown by the
    round's end)."""

    status: tuple[str, ...]
    dajiao: tuple[int | None, ...]
    huazhu: tuple[Transfer, ...]
    chajiao: tuple[Transfer, ...]
    tuishui: tuple[Transfer, ...]
    kind: ClassVar[str] = "wall_checked"
