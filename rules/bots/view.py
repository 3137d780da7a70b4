"""What a bot knows: its seat's redacted view (:func:`rules.views.seat_view`), read into tile
kinds once per decision.

Only the view's JSON is read here, never a round state: the hand and drawn tile of the bot's own
seat, every seat's public table (discards with their tiles where shown, exposed melds, ting
declarations, opened flags), the wall count, winds, the treasure when the seat may see it, the
phase, and the legal actions the view lists. The room options are public (every seat knows the
rules it plays) and are passed beside the view.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.engine.actions import ACTION_TYPES, Action
from rules.hand import Meld, MeldKind, SpecialKongName
from rules.registry import get_variant
from rules.tiles import NUM_KINDS, NUM_KINDS_WITH_FLOWERS, Tile, tile_name
from rules.variant import BotFacts

TILE_OF: Mapping[str, Tile] = {tile_name(t): t for t in range(NUM_KINDS_WITH_FLOWERS)}
"""Tile name (``"5m"``) → kind: the view's notation read without the parser's generality."""


@dataclass(frozen=True, slots=True)
class Opponent:
    """What the bot sees of another seat."""

    seat: int
    discards: tuple[Tile, ...]
    """Every discard whose face is shown, claimed ones included (their tile was seen)."""
    melds: int
    opened: bool
    ting: bool
    concealed_count: int
    out: bool = False
    """Out of the hand (成麻 血战到底: a seat that has won plays no more)."""
    void: int | None = None
    """Its void suit (成麻 定缺: 0 m, 1 p, 2 s) once shown; it can never win on such a tile."""
    passed: frozenset[Tile] = frozenset()
    """Where a declared ting locks the hand (:attr:`~rules.variant.BotFacts.ting_locks`): the
    kinds discarded by anyone after this seat's ting discard, which its locked hand let go by
    (a win is always claimed first), so none of them wins for it. Empty otherwise."""


@dataclass(frozen=True, slots=True)
class BotView:
    """A seat's view as kinds: ``hand`` is every concealed tile (the drawn tile included)."""

    variant: str
    facts: BotFacts
    """What the bots estimate of the variant's rules (its :attr:`~rules.variant.Variant.bots`)."""
    seat: int
    dealer: int
    round_wind: Tile
    seat_wind: Tile
    hand: tuple[Tile, ...]
    drawn: Tile | None
    melds: tuple[Meld, ...]
    ting: bool
    opened: tuple[bool, bool, bool, bool]
    opponents: tuple[Opponent, ...]
    unseen: tuple[int, ...]
    """Per kind (34), the copies this seat has not seen (4 − own hand, melds shown, discards
    shown, the treasure indicator if seen)."""
    wall_left: int
    treasure: Tile | None
    phase: Mapping[str, Any]
    legal: tuple[Action, ...]
    extra: Mapping[str, Any]
    """Facts of the view a variant's hand rules read (winds, flowers, 連莊)."""
    options: Mapping[str, Any]
    my_discards: tuple[Tile, ...]


def _meld(data: Mapping[str, Any]) -> Meld:
    kind: MeldKind = data["type"]
    name: SpecialKongName | None = data.get("name")
    return Meld(
        kind=kind,
        tiles=tuple(TILE_OF[t] for t in data["tiles"]),
        concealed=bool(data.get("concealed", False)),
        from_seat=data.get("from"),
        added=bool(data.get("added", False)),
        name=name,
    )


def read_view(view: Mapping[str, Any], options: Mapping[str, Any]) -> BotView:
    """The bot's reading of ``view`` (a seat's own :func:`~rules.views.seat_view`)."""
    me = int(view["you"])
    seen = [0] * NUM_KINDS_WITH_FLOWERS
    seats = view["seats"]
    mine = seats[me]
    hand = [TILE_OF[t] for t in mine["concealed"]]
    drawn = TILE_OF[mine["drawn"]] if mine.get("drawn") else None
    if drawn is not None:
        hand.append(drawn)
    hand.sort()
    for t in hand:
        seen[t] += 1
    facts = get_variant(str(view["variant"])).bots
    passed = passed_after_ting(seats, int(view["dealer"])) if facts.ting_locks else {}
    opponents: list[Opponent] = []
    my_melds: tuple[Meld, ...] = ()
    my_discards: tuple[Tile, ...] = ()
    for index, seat in enumerate(seats):
        discards = tuple(TILE_OF[d["tile"]] for d in seat["discards"] if "tile" in d)
        for d in seat["discards"]:
            if "tile" in d and not d["claimed"]:
                seen[TILE_OF[d["tile"]]] += 1
        melds = [m for m in seat["melds"] if "tiles" in m]
        for m in melds:
            for t in m["tiles"]:
                seen[TILE_OF[t]] += 1
        if index == me:
            my_melds = tuple(_meld(m) for m in melds)
            my_discards = discards
            continue
        opponents.append(
            Opponent(
                seat=index,
                discards=discards,
                melds=len(seat["melds"]),
                opened=bool(seat["opened"]),
                ting=bool(seat["ting"]),
                concealed_count=int(seat["concealed_count"]),
                out=bool(seat.get("out", False)),
                void=_suit_index(seat.get("que")),
                passed=passed.get(index, frozenset()),
            )
        )
    treasure_data = view.get("treasure")
    treasure = None
    if treasure_data and treasure_data.get("tile"):
        treasure = TILE_OF[treasure_data["tile"]]
        seen[treasure] += 1
    for laid in view.get("wins") or ():  # 成麻: a winner's hand is laid down for all to see
        for t in laid.get("tiles", ()):
            seen[TILE_OF[t]] += 1
    unseen = tuple(max(0, 4 - n) for n in seen[:NUM_KINDS])
    round_wind = TILE_OF[view["round_wind"]]
    seat_wind = TILE_OF[view["seat_winds"][me]]
    extra: dict[str, Any] = {"round_wind": round_wind, "seat_wind": seat_wind}
    if "lianzhuang" in view:
        extra["lianzhuang"] = int(view["lianzhuang"])
    if "flowers" in mine:
        extra["flowers"] = [TILE_OF[t] for t in mine["flowers"]]
    que = mine.get("que") or mine.get("que_chosen")
    if _suit_index(que) is not None:
        extra["que"] = que  # as 成麻's hand rules read it (their context's ``extra.que``)
    opened = tuple(bool(s["opened"]) for s in seats)
    variant = str(view["variant"])
    return BotView(
        variant=variant,
        facts=facts,
        seat=me,
        dealer=int(view["dealer"]),
        round_wind=round_wind,
        seat_wind=seat_wind,
        hand=tuple(hand),
        drawn=drawn,
        melds=my_melds,
        ting=bool(mine["ting"]),
        opened=(opened[0], opened[1], opened[2], opened[3]),
        opponents=tuple(opponents),
        unseen=unseen,
        wall_left=int(view["wall_left"]),
        treasure=treasure,
        phase=view["phase"],
        legal=tuple(action_of(a) for a in view["legal_actions"]),
        extra=extra,
        options=options,
        my_discards=my_discards,
    )


def discard_order(seats: Sequence[Mapping[str, Any]], dealer: int) -> list[tuple[int, int]]:
    """Every discard of the round so far as (seat, index in its row), in the order they were
    made, rebuilt from the public rows: the dealer discards first; after a discard that nobody
    claimed the next seat discards, after a claimed one the claimant (a seat whose next meld
    taken from another seat names the discarder and holds the tile; where two could be, each is
    tried). Empty when the rows do not replay."""
    rows = [seat["discards"] for seat in seats]
    taken = [
        [
            (int(m["from"]), m.get("tiles", ()))
            for m in seat["melds"]
            if m.get("from") is not None and m.get("from") != s
        ]
        for s, seat in enumerate(seats)
    ]
    total = sum(len(r) for r in rows)
    order: list[tuple[int, int]] = []

    def replay(current: int, at: list[int], took: list[int]) -> bool:
        while len(order) < total:
            if at[current] >= len(rows[current]):
                return False
            record = rows[current][at[current]]
            order.append((current, at[current]))
            at[current] += 1
            if not record.get("claimed"):
                current = (current + 1) % 4
                continue
            claimants = [
                k
                for k in ((current + step) % 4 for step in (1, 2, 3))
                if took[k] < len(taken[k])
                and taken[k][took[k]][0] == current
                and record.get("tile") in taken[k][took[k]][1]
            ]
            if not claimants:
                return False  # claimed by a win (the round is over) or rows that do not replay
            for k in claimants[1:]:
                mark = len(order)
                branch = took[:]
                branch[k] += 1
                if replay(k, at[:], branch):
                    return True
                del order[mark:]
            took[claimants[0]] += 1
            current = claimants[0]
        return True

    return order if replay(dealer, [0, 0, 0, 0], [0, 0, 0, 0]) else []


def passed_after_ting(
    seats: Sequence[Mapping[str, Any]], dealer: int
) -> dict[int, frozenset[Tile]]:
    """Per seat that declared ting, the kinds discarded after its ting discard
    (:func:`discard_order`; where the order cannot be rebuilt, its own later discards only:
    tiles its locked hand drew and let go)."""
    order = discard_order(seats, dealer)
    out: dict[int, frozenset[Tile]] = {}
    for s, seat in enumerate(seats):
        row = seat["discards"]
        mark = next((i for i, d in enumerate(row) if d.get("ting")), None)
        if mark is None:
            continue
        if order:
            position = order.index((s, mark))
            later = [seats[k]["discards"][i] for k, i in order[position + 1 :]]
        else:
            later = row[mark + 1 :]
        out[s] = frozenset(TILE_OF[d["tile"]] for d in later if "tile" in d)
    return out


def action_of(data: Mapping[str, Any]) -> Action:
    """An action of the view's ``legal_actions`` (written by the engine, so well formed: no
    validation beyond reading its tiles)."""
    fields: dict[str, Any] = {}
    for key, value in data.items():
        if key == "kind":
            continue
        if key == "tile":
            value = TILE_OF[value]
        elif key == "tiles":
            value = tuple(TILE_OF[t] for t in value)
        fields[key] = value
    return ACTION_TYPES[data["kind"]](**fields)


def _suit_index(suit: Any) -> int | None:
    """``"m"``/``"p"``/``"s"`` → 0/1/2 (成麻's void suit), None otherwise."""
    return "mps".index(suit) if suit in ("m", "p", "s") else None
