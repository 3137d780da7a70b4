"""Bots at the live tables: a bot seat (三缺一) or an absent player's 托管 plays through
:mod:`rules.bots`, which is handed that seat's redacted view only (hints off) and the room's
options, never the round state, and answers one of the engine's legal actions.

Levels (``rules.bots.LEVELS``): 简单 ``easy``, 普通 ``normal``, 困难 ``hard``; ``basic`` is the
bot the tables had before the levels (never claims, declares ting whenever allowed, throws the tile
with the fewest neighbours), still the default of :func:`choose_action` for callers that name no
level. A bot's generator is seeded from the round's public commitment, the state's version and
the seat: the same table position always gets the same move, and nothing hidden seeds it.
"""

from __future__ import annotations

import random
from typing import Any

from rules import bots as rules_bots
from rules.views import seat_view

__all__ = ["LEVEL_LABELS", "bot_rng", "choose_action", "level_label"]

LEVEL_LABELS: dict[str, str] = {"easy": "简单", "normal": "普通", "hard": "困难"}
"""The levels' Chinese names (the web layer translates them with gettext)."""


def level_label(level: str) -> str:
    return LEVEL_LABELS.get(level, level)


def bot_rng(state: Any, seat: int) -> random.Random:
    """The bot's generator for this decision: public facts only (commitment, version, seat)."""
    return random.Random(f"{state.commitment}/{state.version}/{seat}")


def choose_action(
    state: Any, seat: int, *, level: str = rules_bots.BASELINE, rng: random.Random | None = None
) -> Any:
    """The bot's move for ``seat`` among ``legal_actions(state, seat)``, from its view only."""
    view = seat_view(state, seat, hints=False)
    return rules_bots.choose_action(
        view, level=level, rng=rng or bot_rng(state, seat), options=state.options
    )
