"""THE replay: a round step by step from its seed, dealer and actions (spec ``README.md``,
*Randomness*: a round is a pure function of those).

One function plays the logged actions again for everyone who needs a round back: the simulator's
replay check (:func:`rules.simulate.replay_differs`), and through ``tables.gameplay.replay`` (which
only reads the log's JSON and the match's setup) the live table's cold loads, the settlement and
the replay page. A step is the action applied (``None`` for the deal), the events it caused and
the state after it: the table shows the events, the settlement reads the kong payments each
action made, the replay page draws each state.

Pure and deterministic like the engine it drives: the variant is handed in, nothing is imported
but the engine.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from rules.engine import Action, Event, RoundState, apply, new_round
from rules.tiles import EAST, Tile
from rules.variant import Variant


@dataclass(frozen=True)
class ReplayStep:
    """One step of a round: the action applied (``None`` for the deal), the events it caused and
    the state after it."""

    action: Action | None
    events: tuple[Event, ...]
    state: RoundState


def replay_onto(state: RoundState, actions: Iterable[Action]) -> Iterator[ReplayStep]:
    """The steps of ``actions`` applied one after the other to ``state`` (a dealt round, or a
    snapshot of one)."""
    for action in actions:
        state, events = apply(state, action)
        yield ReplayStep(action=action, events=tuple(events), state=state)


def replay_steps(
    variant: Variant,
    *,
    seed: bytes,
    dealer: int,
    actions: Iterable[Action],
    options: Mapping[str, Any] | None = None,
    round_wind: Tile = EAST,
    lianzhuang: int = 0,
) -> Iterator[ReplayStep]:
    """Every step of a round, the deal first, then one per action (``round_wind`` and
    ``lianzhuang``: a match of wind rounds, Taiwan 16; the engine's defaults otherwise)."""
    state, events = new_round(
        variant=variant,
        options=options,
        seed=seed,
        dealer=dealer,
        round_wind=round_wind,
        lianzhuang=lianzhuang,
    )
    yield ReplayStep(action=None, events=tuple(events), state=state)
    yield from replay_onto(state, actions)


def replay(
    variant: Variant,
    *,
    seed: bytes,
    dealer: int,
    actions: Iterable[Action],
    options: Mapping[str, Any] | None = None,
    round_wind: Tile = EAST,
    lianzhuang: int = 0,
) -> RoundState:
    """The state reached by applying ``actions`` to a fresh round from ``seed`` (the last step of
    :func:`replay_steps`)."""
    (last,) = deque(
        replay_steps(
            variant,
            seed=seed,
            dealer=dealer,
            actions=actions,
            options=options,
            round_wind=round_wind,
            lianzhuang=lianzhuang,
        ),
        maxlen=1,
    )
    return last.state
