"""Helpers of the scoring tests: whole rounds played by random bots through the real engine."""

from __future__ import annotations

import random
from typing import Any

from rules.engine import DeclareWin, SelfDrawWin, apply, legal_actions, new_round
from rules.engine.core import seats_to_act
from rules.registry import VARIANTS


def play(
    variant: str, *, seed: bytes, dealer: int, options: dict[str, Any] | None = None, bot: int = 0
) -> tuple[Any, list[Any], list[Any]]:
    """A whole round by random bots that always take a win: (final state, actions, events)."""
    rng = random.Random(bot)
    state, events = new_round(
        variant=VARIANTS[variant], seed=seed, dealer=dealer, options=options or {}
    )
    all_events = list(events)
    actions = []
    while state.phase.kind != "ended":
        seat = seats_to_act(state)[0]
        legal = legal_actions(state, seat)
        wins = [a for a in legal if isinstance(a, SelfDrawWin | DeclareWin)]
        action = wins[0] if wins else legal[rng.randrange(len(legal))]
        state, events = apply(state, action)
        all_events += events
        actions.append(action)
    return state, actions, all_events
