"""Bots that fill empty seats (三缺一) and play for absent players (托管), issue 19.

A bot sees exactly what its seat sees: it is handed the seat's redacted view
(:func:`rules.views.seat_view`, whose ``legal_actions`` are the engine's offers) and the room's
options (public), never a round state, and it answers one of the listed actions. Its only
randomness is the :class:`random.Random` it is passed, so a seeded generator makes it
deterministic.

>>> LEVELS
('easy', 'normal', 'hard')
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules.bots.hard import hard
from rules.bots.policy import POLICIES as _DECIDED_HERE
from rules.bots.policy import Policy
from rules.bots.view import read_view
from rules.engine.actions import Action

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
"""The levels a room owner chooses from: 简单, 普通, 困难 (strongest last)."""
BASELINE = "basic"
"""The pre-issue-19 bot (never claims), kept as the arena's baseline."""
ALL_LEVELS: tuple[str, ...] = (BASELINE, *LEVELS)
DEFAULT_LEVEL = "normal"
POLICIES: dict[str, Policy] = {**_DECIDED_HERE, "hard": hard}
"""Every level's decision function, by name."""


def choose_action(
    view: Mapping[str, Any],
    *,
    level: str,
    rng: random.Random,
    options: Mapping[str, Any] | None = None,
) -> Action:
    """The bot's move for the seat whose own view ``view`` is: one of ``view["legal_actions"]``.

    ``level`` is one of :data:`ALL_LEVELS`; ``options`` the room options (rules, all public)."""
    try:
        policy = POLICIES[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r} (known: {', '.join(ALL_LEVELS)})") from None
    return policy(read_view(view, options or {}), rng)


__all__ = ["ALL_LEVELS", "BASELINE", "DEFAULT_LEVEL", "LEVELS", "choose_action"]
