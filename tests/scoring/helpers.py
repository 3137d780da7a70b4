"""Helpers of the scoring tests: whole rounds played by bots through the real engine."""

from __future__ import annotations

import random
from typing import Any

from rules.bots import choose_action
from rules.engine import DeclareWin, SelfDrawWin, apply, legal_actions, new_round
from rules.engine.core import seats_to_act
from rules.registry import VARIANTS
from rules.views import seat_view


def play(
    variant: str,
    *,
    seed: bytes,
    dealer: int,
    options: dict[str, Any] | None = None,
    bot: int = 0,
    level: str | None = None,
) -> tuple[Any, list[Any], list[Any]]:
    """A whole round by random bots that always take a win, or by the table's bots of ``level``
    (``rules.bots``, each seeing its seat's view, as in ``rules.arena``): (final state, actions,
    events)."""
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
        if level is not None and len(legal) > 1:
            view = seat_view(state, seat, hints=False)
            action = choose_action(view, level=level, rng=rng, options=state.options)
        else:
            action = wins[0] if wins else legal[rng.randrange(len(legal))]
        state, events = apply(state, action)
        all_events += events
        actions.append(action)
    return state, actions, all_events
