"""Properties of the round engine over arbitrary sequences of legal actions (hypothesis)."""

from __future__ import annotations

import copy

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engine import Action, RoundState, apply, legal_actions, new_round
from rules.registry import VARIANTS
from rules.simulate import replay, seats_to_act, tile_counts
from rules.tiles import count_tiles, full_set

FULL = count_tiles(full_set(range(34)))
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play(seed: bytes, dealer: int, picks: list[int]) -> tuple[RoundState, list[Action], list]:
    """Follow ``picks`` (indexes into the legal actions, cycled) to the end of the round."""
    state, _ = new_round(variant=VARIANTS["changchun"], seed=seed, dealer=dealer)
    taken: list[Action] = []
    history = [state]
    step = 0
    while state.result is None:
        seat = seats_to_act(state)[0]
        actions = legal_actions(state, seat)
        assert actions, "a seat that must act always has a legal action"
        action = actions[picks[step % len(picks)] % len(actions)]
        state, _ = apply(state, action)
        taken.append(action)
        history.append(state)
        step += 1
    return state, taken, history


rounds = st.tuples(
    st.binary(min_size=32, max_size=32),
    st.integers(0, 3),
    st.lists(st.integers(0, 2**16), min_size=1, max_size=40),
)


@SETTINGS
@given(rounds)
def test_every_tile_is_accounted_for_after_every_action(game) -> None:
    _, _, history = play(*game)
    for state in history:
        assert tile_counts(state) == FULL


@SETTINGS
@given(rounds)
def test_payments_sum_to_zero_and_respect_the_cap(game) -> None:
    state, _, _ = play(*game)
    assert state.result is not None
    assert sum(state.result.nets) == 0
    assert all(abs(n) <= 1000 for n in state.result.nets)
    assert sum(t.amount for t in state.result.transfers if t.amount < 0) == 0


@SETTINGS
@given(rounds)
def test_replaying_the_actions_reproduces_the_round(game) -> None:
    seed, dealer, _ = game
    state, taken, _ = play(*game)
    assert replay(VARIANTS["changchun"], seed=seed, dealer=dealer, actions=taken) == state


@SETTINGS
@given(rounds, st.integers(0, 10**6))
def test_apply_never_changes_its_input(game, which) -> None:
    _, taken, history = play(*game)
    index = which % len(taken)
    before = history[index]
    frozen = copy.deepcopy(before)
    apply(before, taken[index])
    assert before == frozen


@SETTINGS
@given(rounds)
def test_versions_count_the_applied_actions(game) -> None:
    _, taken, history = play(*game)
    assert [s.version for s in history] == list(range(len(taken) + 1))
