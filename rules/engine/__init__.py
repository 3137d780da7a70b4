"""The round engine: an immutable state machine (spec ``README.md``, *The round*).

The engine is handed the variant it plays (a :class:`~rules.variant.Variant` from the registry,
:mod:`rules.registry`) and never imports one; :mod:`rules.persist` writes a state as JSON.

>>> from rules.registry import VARIANTS
>>> from rules.wall import seed_from_text
>>> variant = next(iter(VARIANTS.values()))  # the registry's first
>>> state, events = new_round(variant=variant, seed=seed_from_text("doc"), dealer=0)
>>> len(state.seats[0].concealed) - len(state.seats[1].concealed)  # the dealer's extra tile
1
>>> [a.kind for a in legal_actions(state, 0)][:2]
['discard', 'discard']
"""

from __future__ import annotations

from rules.engine.actions import (
    ACTION_TYPES,
    Action,
    AddedKong,
    AddToSpecialKong,
    Chen,
    ChooseVoid,
    Chow,
    ChowTing,
    ConcealedKong,
    DeclareWin,
    Discard,
    ExchangeThree,
    ExposedKong,
    Pass,
    Pong,
    SelfDrawWin,
    SpecialKong,
    action_from_json,
)
from rules.engine.core import apply, apply_staged, legal_actions, new_round, seats_to_act
from rules.engine.events import Event
from rules.engine.state import RoundResult, RoundState

__all__ = [
    "ACTION_TYPES",
    "Action",
    "AddToSpecialKong",
    "AddedKong",
    "Chen",
    "ChooseVoid",
    "Chow",
    "ChowTing",
    "ConcealedKong",
    "DeclareWin",
    "Discard",
    "Event",
    "ExchangeThree",
    "ExposedKong",
    "Pass",
    "Pong",
    "RoundResult",
    "RoundState",
    "SelfDrawWin",
    "SpecialKong",
    "action_from_json",
    "apply",
    "apply_staged",
    "legal_actions",
    "new_round",
    "seats_to_act",
]
