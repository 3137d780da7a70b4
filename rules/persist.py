"""A round state as JSON and back, exactly: ``state_from_json(state_to_json(s)) == s``.

For the persistence layer, which may store a snapshot instead of replaying every action from the
seed (replay gives the same state; this is only faster). The snapshot holds the seed, the salt
and the wall: it is server-side data, never sent to a player (send :func:`rules.views.seat_view`).

Encoding: a dataclass becomes ``{"$": "<ClassName>", <field>: …}``; a tuple ``{"$t": [...]}``;
a frozenset ``{"$s": [...]}`` (sorted); bytes ``{"$b": "<hex>"}``; a dict with string keys
stays a dict (its values encoded); ints, strings, booleans and None as they are. The round's
variant is stored as its key and read back from the registry (:mod:`rules.registry`); a turn's
offers are not stored (they follow from the state) and are listed again when a state is read.
This module sits above the engine and the registry: the engine never imports it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from rules.engine import actions, core, state
from rules.errors import RulesError
from rules.hand import Meld, Transfer, WinVerdict
from rules.payments import Share
from rules.registry import get_variant
from rules.variant import Variant
from rules.wall import BreakPoint

_CLASSES: dict[str, type] = {
    cls.__name__: cls
    for cls in (
        state.RoundState,
        state.SeatState,
        state.DiscardRecord,
        state.Treasure,
        state.TurnPhase,
        state.ClaimPhase,
        state.ChoicePhase,
        state.EndedPhase,
        state.RoundResult,
        Meld,
        Transfer,
        Share,
        WinVerdict,
        BreakPoint,
        *actions.ACTION_TYPES.values(),
    )
}


def state_to_json(round_state: state.RoundState) -> dict[str, Any]:
    """The whole state as plain JSON (server side: it includes the wall, seed and salt)."""
    encoded = _encode(round_state)
    assert isinstance(encoded, dict)
    return encoded


def state_from_json(data: dict[str, Any]) -> state.RoundState:
    """The state :func:`state_to_json` wrote; raises :class:`RulesError` on anything else."""
    try:
        decoded = _decode(data)
    except (KeyError, TypeError, ValueError) as exc:
        raise RulesError(f"not a stored round state: {exc}") from exc
    if not isinstance(decoded, state.RoundState):
        raise RulesError("not a stored round state")
    return core.with_offers(decoded)


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
_PLAIN = (int, str, bool, type(None))
_NOT_STORED: dict[type, frozenset[str]] = {state.RoundState: frozenset({"offers"})}
"""Fields that follow from the rest of the state (listed again on reading)."""


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        skip = _NOT_STORED.get(cls, frozenset())
        names = _FIELD_NAMES[cls] = tuple(
            f.name for f in dataclasses.fields(cls) if f.name not in skip
        )
    return names


def _encode(value: Any) -> Any:
    # The live tables write a snapshot after every move: the common cases (plain values, tuples
    # of tiles, our dataclasses) are tested first and without ``dataclasses.fields`` each time.
    if isinstance(value, _PLAIN):
        return value
    cls = type(value)
    if cls is tuple:
        if all(type(v) is int for v in value):
            return {"$t": list(value)}
        return {"$t": [_encode(v) for v in value]}
    if cls is Variant:
        return value.key
    if dataclasses.is_dataclass(cls):  # an instance (``cls`` is its class, never a class's)
        out = {"$": cls.__name__}
        for name in _field_names(cls):
            out[name] = _encode(getattr(value, name))
        return out
    if isinstance(value, tuple):
        return {"$t": [_encode(v) for v in value]}
    if isinstance(value, frozenset):
        return {"$s": sorted(_encode(v) for v in value)}
    if isinstance(value, bytes):
        return {"$b": value.hex()}
    if isinstance(value, Mapping):
        return {str(k): _encode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    return value


def _decode(value: Any) -> Any:
    if isinstance(value, list):
        return [_decode(v) for v in value]
    if not isinstance(value, dict):
        return value
    if "$" in value:
        cls = _CLASSES[value["$"]]
        kwargs = {k: _decode(v) for k, v in value.items() if k != "$"}
        if cls is state.RoundState:
            kwargs["variant"] = get_variant(kwargs["variant"])
        return cls(**kwargs)
    if "$t" in value:
        return tuple(_decode(v) for v in value["$t"])
    if "$s" in value:
        return frozenset(_decode(v) for v in value["$s"])
    if "$b" in value:
        return bytes.fromhex(value["$b"])
    return {k: _decode(v) for k, v in value.items()}
