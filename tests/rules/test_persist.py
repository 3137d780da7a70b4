"""A stored state comes back exactly, and a stored state plays on like the original."""

from __future__ import annotations

import json
import random

import pytest

from rules.engine import apply, legal_actions, new_round
from rules.errors import RulesError
from rules.persist import state_from_json, state_to_json
from rules.registry import VARIANTS
from rules.simulate import random_bot, seats_to_act
from rules.wall import seed_from_text


@pytest.mark.parametrize("seed", ["persist-1", "persist-2", "persist-3"])
def test_every_state_of_a_round_survives_a_json_round_trip(seed: str) -> None:
    bot = random_bot(random.Random(seed))
    state, _ = new_round(variant=VARIANTS["changchun"], seed=seed_from_text(seed), dealer=1)
    while True:
        stored = json.loads(json.dumps(state_to_json(state)))
        restored = state_from_json(stored)
        assert restored == state
        if state.result is not None:
            break
        seat = seats_to_act(state)[0]
        assert legal_actions(restored, seat) == legal_actions(state, seat)
        action = bot(legal_actions(state, seat))
        assert apply(restored, action)[0] == apply(state, action)[0]
        state, _ = apply(state, action)


def test_anything_else_is_refused() -> None:
    with pytest.raises(RulesError):
        state_from_json({"$": "Nonsense"})
    with pytest.raises(RulesError):
        state_from_json({"$": "Pass", "seat": 1})
