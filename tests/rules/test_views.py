"""Redaction: over whole simulated rounds of every variant of the registry, no event or view for
a seat (or a spectator) holds another seat's concealed tiles, the wall order, the salt, or a
treasure it may not see; a 成麻 concealed kong's tile is its owner's until the end."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from rules.engine import (
    ChooseVoid,
    ConcealedKong,
    Discard,
    RoundState,
    apply,
    legal_actions,
    new_round,
)
from rules.engine.arrange import arrange_round
from rules.engine.events import Event, KongPaid, RoundEnded
from rules.registry import VARIANTS
from rules.simulate import random_bot, seats_to_act
from rules.tiles import tile_name
from rules.views import event_for, seat_view
from rules.wall import seed_from_text
from tests.rules.engine_helpers import T, act, eager_bot, pass_claims, table

VIEWERS = (0, 1, 2, 3, None)
SECRET_KEYS = {"wall", "salt", "seed"}


def walk(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict):
        for key, inner in value.items():
            yield f"{path}.{key}", inner
            yield from walk(inner, f"{path}.{key}")
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield from walk(inner, f"{path}[{i}]")


def keys_of(value: Any) -> set[str]:
    return {p.rsplit(".", 1)[-1] for p, _ in walk(value)}


def play(variant: str, seed: str) -> Iterator[tuple[RoundState, list[Event]]]:
    # Eager bots (wins, kongs, ting first) reach treasures, special kongs and robbed kongs.
    rng = random.Random(seed)
    bot = eager_bot(rng) if seed.startswith("eager") else random_bot(rng)
    state, events = new_round(variant=VARIANTS[variant], seed=seed_from_text(seed), dealer=0)
    yield state, events
    while state.result is None:
        seat = seats_to_act(state)[0]
        state, events = apply(state, bot(legal_actions(state, seat)))
        yield state, events


def check_event(event: Event, viewer: int | None, state: RoundState) -> None:
    data = event_for(event, viewer)
    if data is None or isinstance(event, RoundEnded):
        return
    json.dumps(data)  # plain JSON
    assert not keys_of(data) & SECRET_KEYS, data
    seat = data.get("seat")
    if data["kind"] == "dealt":
        assert ("tiles" in data) == (seat == viewer)
    if data["kind"] == "draw":
        assert ("tile" in data) == (seat == viewer)
    if data["kind"] == "treasure_seen":
        assert ("tile" in data) == (seat == viewer)
    assert data["kind"] != "claim_answered"  # answers are not events
    if data["kind"] == "claim_window":
        assert "asked" not in data
    if data["kind"] == "meld" and data["meld"].get("concealed"):
        assert ("tiles" in data["meld"]) == (seat == viewer)
    if data["kind"] == "kong_paid" and data["kong"] == "concealed":
        assert ("tile" in data) == (seat == viewer)  # 成麻 下雨
    if data["kind"] == "tiles_swapped":
        assert ("given" in data) == ("received" in data) == (seat == viewer)


def check_view(state: RoundState, viewer: int | None) -> None:
    view = seat_view(state, viewer)
    json.dumps(view)
    if state.result is not None:
        assert view["result"]["salt"] == state.salt.hex()
        return
    assert not keys_of(view) & SECRET_KEYS
    for seat in view["seats"]:
        hidden = seat["seat"] != viewer
        assert ("concealed" in seat) != hidden
        assert ("drawn" in seat) != hidden
        assert ("waits" in seat) != hidden
        for meld in seat["melds"]:
            assert ("tiles" in meld) or (hidden and meld["concealed"])
    treasure = view["treasure"]
    if treasure is not None:
        entitled = viewer is not None and (
            state.seats[viewer].treasure_seen == state.treasure.version  # type: ignore[union-attr]
        )
        assert ("tile" in treasure) == entitled
    if viewer is None:
        assert view["legal_actions"] == []
    check_hint(view, viewer)


def check_hint(view: dict[str, Any], viewer: int | None) -> None:
    """听牌提示 is the viewer's own: never for a spectator, never about another seat's hand, and
    only at the top of the view (no seat entry carries one)."""
    assert "hint" not in keys_of(view["seats"])
    if "hint" not in view:
        return
    assert viewer is not None
    hint = view["hint"]
    if hint is None:
        return
    assert hint["seat"] == viewer
    me = view["seats"][viewer]
    held = set(me["concealed"]) | ({me["drawn"]} if me["drawn"] else set())
    for entry in hint.get("discards", []):
        assert entry["tile"] in held


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize(
    "seed", [f"views-{i}" for i in range(4)] + [f"eager-{i}" for i in range(16)]
)
def test_no_event_or_view_leaks_hidden_tiles(variant: str, seed: str) -> None:
    for state, events in play(variant, seed):
        for viewer in VIEWERS:
            for event in events:
                check_event(event, viewer, state)
            check_view(state, viewer)


def test_a_seat_sees_its_own_hand_with_the_drawn_tile_apart() -> None:
    state = table(live="9m")
    state = pass_claims(act(state, Discard(seat=0, tile=T("5z"))))
    view = seat_view(state, 1)
    me = view["seats"][1]
    assert me["drawn"] == "9m"
    assert len(me["concealed"]) == 13
    assert "9m" not in me["concealed"]
    assert view["phase"] == {"kind": "turn", "seat": 1, "drawn": True, "source": "draw"}
    assert {"kind": "discard", "seat": 1, "tile": "9m", "ting": False} in view["legal_actions"]
    assert seat_view(state, 2)["legal_actions"] == []


def test_the_treasure_tile_goes_only_to_the_ready_seat() -> None:
    state = table(hands=["123m456p789s234s7z5z", "", "", ""], live="2z3z4z9m")
    state = pass_claims(act(state, Discard(seat=0, tile=T("5z"), ting=True)))
    seen: dict[int | None, list[dict[str, Any]]] = {v: [] for v in VIEWERS}
    for _ in range(3):
        seat = state.phase.seat  # type: ignore[union-attr]
        state, events = apply(state, Discard(seat=seat, tile=state.seats[seat].drawn))
        state = pass_claims(state)
        for viewer in VIEWERS:
            seen[viewer] += [d for e in events if (d := event_for(e, viewer)) is not None]
    assert state.treasure is not None
    name = tile_name(state.treasure.tile)
    assert any(d["kind"] == "treasure_seen" and d["tile"] == name for d in seen[0])
    for viewer in (1, 2, 3, None):
        # The others are told that seat 0 looked (it declared ting, a public fact), not what.
        assert [d.get("seat") for d in seen[viewer] if d["kind"] == "treasure_seen"] == [0]
        assert all("tile" not in d for d in seen[viewer] if d["kind"] == "treasure_seen")
        assert all("tile" not in d for d in seen[viewer] if d["kind"] == "treasure_placed")


def _values(data: Any) -> list[Any]:
    """Every leaf value of a JSON value (list items included)."""
    if isinstance(data, dict):
        return [v for inner in data.values() for v in _values(inner)]
    if isinstance(data, list):
        return [v for inner in data for v in _values(inner)]
    return [data]


def test_a_chengma_concealed_kong_names_its_tile_to_its_owner_only() -> None:
    """The 暗杠 (下雨) is hidden in its ``meld`` event and in the views, and its
    payment (``kong_paid``) must not name the tile to the others either. Nobody else holds a 4m,
    so no event or view of another seat or a spectator may name one before the round ends."""
    hands = [
        "4444m111p999p2p3p6p7p",
        "567m789m99m345p67p",
        "1111s2222s3333s9s",
        "5555s6666s7777s8s",
    ]
    state = arrange_round(VARIANTS["chengma"], hands=hands, far="8p", live="9s")
    for seat, suit in enumerate("ssmm"):
        state, _ = apply(state, ChooseVoid(seat=seat, suit=suit))
    state, events = apply(state, ConcealedKong(seat=0, tile=T("4m")))
    assert any(isinstance(e, KongPaid) and e.kong == "concealed" for e in events)
    for viewer in (1, 2, 3, None):
        for event in events:
            check_event(event, viewer, state)
            assert "4m" not in _values(event_for(event, viewer)), (viewer, event)
        assert "4m" not in _values(seat_view(state, viewer, hints=False)), viewer
    paid = next(event_for(e, 0) for e in events if isinstance(e, KongPaid))
    assert paid["tile"] == "4m"  # the owner sees its own kong, as in its meld event
    seen_by_others = next(event_for(e, 2) for e in events if isinstance(e, KongPaid))
    assert seen_by_others == {
        "kind": "kong_paid",
        "seat": 0,
        "kong": "concealed",
        "transfers": paid["transfers"],
    }
