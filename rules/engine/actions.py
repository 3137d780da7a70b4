"""Player actions (spec ``README.md``, *The round*, items 4–6). Each is a frozen dataclass with the
acting ``seat``; each serialises to JSON (:meth:`Action.to_json`, :func:`action_from_json`) because
the web layer stores and replays them.

Draws are not actions: the engine draws inside ``apply`` when a claim window closes unclaimed.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from rules.errors import RulesError
from rules.tiles import Tile, parse_tile, tile_name

_TILE_FIELDS = frozenset({"tile"})
_TILES_FIELDS = frozenset({"tiles"})


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action: ``kind`` is its stable JSON name."""

    seat: int
    kind: ClassVar[str] = "action"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in _TILE_FIELDS:
                value = tile_name(value)
            elif f.name in _TILES_FIELDS:
                value = [tile_name(t) for t in value]
            out[f.name] = value
        return out


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """打牌; ``ting=True`` declares ting (报听) with this discard."""

    tile: Tile
    ting: bool = False
    kind: ClassVar[str] = "discard"


@dataclass(frozen=True, slots=True)
class SelfDrawWin(Action):
    """自摸 (also a win on a kong replacement, 摸宝 and Changchun's 对宝 before the draw)."""

    kind: ClassVar[str] = "self_draw_win"


@dataclass(frozen=True, slots=True)
class DeclareWin(Action):
    """胡: win on the discard in the claim window, or rob the added kong (抢杠胡)."""

    kind: ClassVar[str] = "declare_win"


@dataclass(frozen=True, slots=True)
class Chow(Action):
    """吃: ``tiles`` is the whole chow, sorted, the claimed tile included."""

    tiles: tuple[Tile, Tile, Tile]
    kind: ClassVar[str] = "chow"


@dataclass(frozen=True, slots=True)
class Pong(Action):
    """碰 the discard (or Changchun's 抢叉: pong the tile added to a special kong)."""

    kind: ClassVar[str] = "pong"


@dataclass(frozen=True, slots=True)
class ExposedKong(Action):
    """明杠 on the discard."""

    kind: ClassVar[str] = "exposed_kong"


@dataclass(frozen=True, slots=True)
class ConcealedKong(Action):
    """暗杠 of four held tiles."""

    tile: Tile
    kind: ClassVar[str] = "concealed_kong"


@dataclass(frozen=True, slots=True)
class AddedKong(Action):
    """补杠 / 加杠: add the fourth tile to one's own exposed pong."""

    tile: Tile
    kind: ClassVar[str] = "added_kong"


@dataclass(frozen=True, slots=True)
class SpecialKong(Action):
    """Changchun 特殊杠 from the dealt tiles (``name``: xuanfeng, xi, yao, jiu)."""

    name: str
    kind: ClassVar[str] = "special_kong"


@dataclass(frozen=True, slots=True)
class AddToSpecialKong(Action):
    """Changchun 补: add a tile of the family to one's special kong."""

    tile: Tile
    kind: ClassVar[str] = "add_to_special_kong"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """过: decline every claim in a window, or decline a pre-draw choice (对宝)."""

    kind: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class ChowTing(Action):
    """Harbin 吃听: a chow that makes the hand ready; ting is declared with the next discard."""

    tiles: tuple[Tile, Tile, Tile]
    kind: ClassVar[str] = "chow_ting"


@dataclass(frozen=True, slots=True)
class Chen(Action):
    """Siping 抻: on the turn after a 夹 ting, choose to win by self-draw only (``yes``) or not."""

    yes: bool
    kind: ClassVar[str] = "chen"


@dataclass(frozen=True, slots=True)
class ChooseVoid(Action):
    """成麻 定缺: choose the void suit, ``"m"``, ``"p"`` or ``"s"`` (hidden until all chose)."""

    suit: str
    kind: ClassVar[str] = "choose_void"


@dataclass(frozen=True, slots=True)
class ExchangeThree(Action):
    """成麻 换三张: the three tiles of one suit passed on (hidden until all picked)."""

    tiles: tuple[Tile, Tile, Tile]
    kind: ClassVar[str] = "exchange_three"


ACTION_TYPES: dict[str, type[Action]] = {
    cls.kind: cls
    for cls in (
        Discard,
        SelfDrawWin,
        DeclareWin,
        Chow,
        Pong,
        ExposedKong,
        ConcealedKong,
        AddedKong,
        SpecialKong,
        AddToSpecialKong,
        Pass,
        ChowTing,
        Chen,
        ChooseVoid,
        ExchangeThree,
    )
}


def action_from_json(data: dict[str, Any]) -> Action:
    """The action that :meth:`Action.to_json` wrote; raises :class:`RulesError` on bad input."""
    try:
        cls = ACTION_TYPES[data["kind"]]
        kwargs: dict[str, Any] = {}
        for f in fields(cls):
            if f.name not in data:
                continue
            kwargs[f.name] = _field_from_json(f.name, data[f.name])
        return cls(**kwargs)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise RulesError(f"not a valid action: {data!r} ({exc})") from exc


def _field_from_json(name: str, value: Any) -> Any:
    """One field, type-checked: seats are 0–3, flags booleans, names strings, tiles notation."""
    if name in _TILE_FIELDS:
        return parse_tile(value)
    if name in _TILES_FIELDS:
        if not isinstance(value, list) or len(value) != 3:
            raise TypeError("tiles must be a list of three tiles")
        return tuple(parse_tile(t) for t in value)
    if name == "seat":
        if type(value) is not int or not 0 <= value < 4:
            raise ValueError("seat must be an integer 0-3")
        return value
    if name in ("ting", "yes"):
        if not isinstance(value, bool):
            raise TypeError(f"{name} must be true or false")
        return value
    if name == "suit":
        if value not in ("m", "p", "s"):
            raise ValueError("suit must be m, p or s")
        return value
    if name == "name":
        if not isinstance(value, str):
            raise TypeError("name must be a string")
        return value
    raise TypeError(f"unknown field {name}")
