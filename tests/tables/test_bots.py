"""Bots and the timeout default pick only legal actions (no database)."""

from __future__ import annotations

import pytest

from rules.engine import Discard, Pass
from rules.registry import VARIANTS
from rules.wall import seed_from_text
from tables import bots, gameplay


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_bots_and_defaults_only_choose_legal_actions_through_whole_rounds(variant: str) -> None:
    for k in range(3):
        state, _ = gameplay.new_round(
            variant=variant, options={}, seed=seed_from_text(f"bots{k}"), dealer=k % 4
        )
        for _ in range(2000):
            if gameplay.is_ended(state):
                break
            for seat in gameplay.deciders(state):
                legal = gameplay.legal_actions(state, seat)
                assert bots.choose_action(state, seat) in legal
                assert gameplay.default_action(state, seat) in legal
            seat = gameplay.deciders(state)[0]
            state, _ = gameplay.apply(state, bots.choose_action(state, seat))
        assert gameplay.is_ended(state)


def test_a_timeout_passes_on_a_claim_and_discards_the_drawn_tile() -> None:
    state, _ = gameplay.new_round(
        variant="changchun", options={}, seed=seed_from_text("timeouts"), dealer=0
    )
    seen_claim = False
    for _ in range(400):
        if gameplay.is_ended(state):
            break
        seat = gameplay.deciders(state)[0]
        action = gameplay.default_action(state, seat)
        legal = gameplay.legal_actions(state, seat)
        if any(isinstance(a, Pass) for a in legal):
            assert isinstance(action, Pass)
            seen_claim = seen_claim or gameplay.phase_kind(state) == "claims"
        elif any(isinstance(a, Discard) for a in legal):
            drawn = state.seats[seat].drawn
            if any(isinstance(a, Discard) and a.tile == drawn for a in legal):
                assert action == Discard(seat=seat, tile=drawn)
        state, _ = gameplay.apply(state, action)
    assert seen_claim
