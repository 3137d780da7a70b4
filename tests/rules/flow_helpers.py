"""Helpers for the variant flow tests: whole rounds played by bots that head for a ready hand and
declare ting whenever they can, so that treasures, face-down ting discards, 吃听 and 抻 happen."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

from rules.engine import (
    Action,
    Chen,
    ChowTing,
    DeclareWin,
    Discard,
    Pass,
    RoundState,
    SelfDrawWin,
    apply,
    legal_actions,
    new_round,
    seats_to_act,
)
from rules.engine.core import isolated_tiles
from rules.engine.events import Event
from rules.registry import get_variant
from rules.wall import seed_from_text


def eager_choice(state: RoundState, seat: int, rng: random.Random) -> Action:
    """Win if possible; else declare ting (or 吃听, or 抻); else discard a loose tile (no
    neighbour, no pair); else pass on claims most of the time; else anything."""
    actions = legal_actions(state, seat)
    for action in actions:
        if isinstance(action, DeclareWin | SelfDrawWin):
            return action
    keen = [
        a
        for a in actions
        if (isinstance(a, Discard) and a.ting)
        or isinstance(a, ChowTing)
        or (isinstance(a, Chen) and a.yes)
    ]
    if keen:
        return keen[rng.randrange(len(keen))]
    loose = set(isolated_tiles(state.seats[seat].counts()))
    plain = [a for a in actions if isinstance(a, Discard) and a.tile in loose]
    if plain:
        return plain[rng.randrange(len(plain))]
    if Pass(seat=seat) in actions and rng.random() < 0.5:
        return Pass(seat=seat)
    return actions[rng.randrange(len(actions))]


def play_eager_rounds(
    variant: str, seed: str, *, rounds: int, options: Mapping[str, Any] | None = None
) -> Iterator[tuple[RoundState, list[Event]]]:
    """Every state of ``rounds`` rounds with the events that led to it (the deal first)."""
    rng = random.Random(seed)
    for index in range(rounds):
        state, events = new_round(
            variant=get_variant(variant),
            seed=seed_from_text(f"{seed}/{index}"),
            dealer=index % 4,
            options=options,
        )
        yield state, events
        while state.result is None:
            seat = seats_to_act(state)[0]
            state, events = apply(state, eager_choice(state, seat, rng))
            yield state, events
