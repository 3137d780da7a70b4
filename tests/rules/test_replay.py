"""THE replay (``rules.replay``): the steps of a round from its seed, dealer and actions, the one
function the simulator's check and (through ``tables.gameplay.replay``) the table, the settlement
and the replay page use."""

from __future__ import annotations

import random

import pytest

from rules.engine import apply, new_round, seats_to_act
from rules.engine.core import legal_actions
from rules.registry import VARIANTS
from rules.replay import replay, replay_onto, replay_steps
from rules.simulate import play_round, random_bot
from rules.tiles import SOUTH
from rules.wall import seed_from_text


@pytest.mark.parametrize("key", tuple(VARIANTS))
def test_the_steps_are_the_round_as_it_was_played(key):
    variant = VARIANTS[key]
    seed = seed_from_text(f"replay/{key}")
    options = {"cap": variant.option("cap").minimum} if variant.option("cap") else {}
    state, events = new_round(variant=variant, seed=seed, dealer=1, options=options)
    played = [(None, tuple(events), state)]
    rng = random.Random(key)
    while state.phase.kind != "ended":
        legal = legal_actions(state, seats_to_act(state)[0])
        action = legal[rng.randrange(len(legal))]
        state, events = apply(state, action)
        played.append((action, tuple(events), state))
    actions = [a for a, _e, _s in played[1:]]
    steps = list(replay_steps(variant, seed=seed, dealer=1, actions=actions, options=options))
    assert [(s.action, s.events, s.state) for s in steps] == played
    assert replay(variant, seed=seed, dealer=1, actions=actions, options=options) == state
    # From a state in the middle (a snapshot), the rest of the steps are the same.
    middle = len(steps) // 2
    rest = list(replay_onto(steps[middle].state, actions[middle:]))
    assert rest == steps[middle + 1 :]


def test_a_round_of_a_match_in_wind_rounds_replays_with_its_wind_and_count():
    variant = VARIANTS["taiwan16"]
    seed = seed_from_text("replay/wind")
    state, actions = play_round(
        variant,
        seed=seed,
        dealer=2,
        bot=random_bot(random.Random(3)),
        round_wind=SOUTH,
        lianzhuang=2,
    )
    again = replay(variant, seed=seed, dealer=2, actions=actions, round_wind=SOUTH, lianzhuang=2)
    assert again == state
    assert replay(variant, seed=seed, dealer=2, actions=actions[:0]).round_wind != SOUTH
