"""The engine's fast shape tests only skip work: with them off, every legal action is the same."""

from __future__ import annotations

import random

import pytest

from rules.engine import apply, core, new_round
from rules.engine.core import ting_discard_candidates
from rules.engine.state import ClaimPhase, RoundState, TurnPhase
from rules.registry import VARIANTS
from rules.shapes import shape_waits
from rules.simulate import random_bot, seats_to_act
from rules.tiles import parse_tiles
from rules.variants.changchun.flow import ChangchunFlow
from rules.wall import seed_from_text


def counts(text: str) -> list[int]:
    out = [0] * 34
    for t in parse_tiles(text):
        out[t] += 1
    return out


def test_three_isolated_tiles_rule_out_every_ting_discard() -> None:
    assert ting_discard_candidates(counts("1m5m9m1p5p9p1s5s9s1z2z3z4z5z")) == []


def test_two_isolated_tiles_leave_only_them_as_candidates() -> None:
    assert ting_discard_candidates(counts("123m456p789s23s1z7z")) == parse_tiles("1z7z")


def computed(state: RoundState, seat: int) -> list:
    """The seat's legal actions computed now (not the offers listed when the state was made)."""
    phase = state.phase
    if isinstance(phase, TurnPhase):
        return list(core.turn_offers(state)) if phase.seat == seat else []
    return core.legal_actions(state, seat)


@pytest.mark.parametrize("seed", ["filters-1", "filters-2", "filters-3", "filters-4"])
def test_legal_actions_are_the_same_without_the_fast_shape_tests(seed, monkeypatch) -> None:
    bot = random_bot(random.Random(seed))
    state, _ = new_round(variant=VARIANTS["changchun"], seed=seed_from_text(seed), dealer=0)
    while state.result is None:
        seat = seats_to_act(state)[0]
        fast = [computed(state, s) for s in range(4)]
        assert fast == [core.legal_actions(state, s) for s in range(4)]
        with monkeypatch.context() as m:
            m.setattr(ChangchunFlow, "shape_filters", lambda self, state: False)
            slow = [computed(state, s) for s in range(4)]
            phase = state.phase
            if isinstance(phase, ClaimPhase) and phase.kind == "claims":
                v = state.variant.flow
                offers = [
                    tuple(core.claim_offers(state, s, phase.discarder, phase.tile, v))
                    if s != phase.discarder
                    else ()
                    for s in range(4)
                ]
                assert tuple(offers) == phase.offers
        assert fast == slow
        state, _ = apply(state, bot(fast[seat]))


def near_ready_hands(n: int) -> list[list[int]]:
    """14-tile hands one tile away from complete: four random sets and a pair, one tile swapped."""
    rng = random.Random(20261202)
    hands = []
    while len(hands) < n:
        tiles: list[int] = []
        for _ in range(4):
            if rng.random() < 0.5:
                suit, rank = rng.randrange(3), rng.randrange(7)
                tiles += [suit * 9 + rank + i for i in range(3)]
            else:
                tiles += [rng.randrange(34)] * 3
        tiles += [rng.randrange(34)] * 2
        tiles[rng.randrange(14)] = rng.randrange(34)
        c = [0] * 34
        for t in tiles:
            c[t] += 1
        if max(c) <= 4:
            hands.append(c)
    return hands


def test_the_isolated_tile_filter_never_drops_a_ready_discard() -> None:
    checked = 0
    for c in near_ready_hands(3000):
        candidates = set(ting_discard_candidates(c))
        for t in range(34):
            if not c[t]:
                continue
            c[t] -= 1
            ready = bool(shape_waits(c))
            c[t] += 1
            if ready:
                checked += 1
                assert t in candidates
    assert checked > 1000
