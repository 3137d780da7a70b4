"""Bots that fill empty seats (room option ``allow_bots``).

A bot is a plain, predictable player, not a strong one: it always takes a legal win, declares ting
(报听) whenever a discard allows it, never claims a discard (so the humans' game flows), and
otherwise throws the tile that helps its hand least (honours it holds alone first, then the suit
tile with the fewest neighbours). It only ever picks from the engine's ``legal_actions``.
"""

from __future__ import annotations

from typing import Any

from rules.engine import actions as engine_actions
from tables import gameplay


def _usefulness(tile: int, counts: list[int]) -> int:
    """How much a tile is worth keeping: copies held, plus neighbours within two in its suit."""
    score = 3 * (counts[tile] - 1)
    if tile < 27:
        base = tile - tile % 9
        for offset in (-2, -1, 1, 2):
            other = tile + offset
            if base <= other < base + 9 and counts[other]:
                score += 2 if abs(offset) == 1 else 1
    return score


def choose_action(state: Any, seat: int) -> Any:
    """The bot's move among ``legal_actions(state, seat)``."""
    legal = gameplay.legal_actions(state, seat)
    for action in legal:
        if isinstance(action, engine_actions.SelfDrawWin | engine_actions.DeclareWin):
            return action
    for action in legal:
        if isinstance(action, engine_actions.Pass):
            return action
    discards = [a for a in legal if isinstance(a, engine_actions.Discard)]
    ting = [a for a in discards if a.ting]
    if ting:
        return ting[0]
    if discards:
        counts = state.seats[seat].counts()
        return min(discards, key=lambda a: (_usefulness(a.tile, counts), -a.tile))
    return gameplay.default_action(state, seat)
