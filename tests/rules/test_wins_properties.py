"""Properties of every variant's hand rules on random complete hands (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.hand import TingContext, WinContext
from rules.payments import nets
from rules.registry import VARIANTS as REGISTRY
from rules.registry import judged_variant
from rules.shapes import shape_waits
from rules.tiles import SUITED

VARIANTS = (*REGISTRY, "shape")
"""Every variant of the registry, and the judge's ``shape`` pseudo-variant."""


def complete_tiles(rng: random.Random, kinds: list[int]) -> list[int]:
    """Four sets and a pair from ``kinds``, at most four of a kind."""
    while True:
        tiles: list[int] = []
        for _ in range(4):
            first = rng.choice(kinds)
            if first in SUITED and first % 9 <= 6 and rng.random() < 0.6:
                tiles += [first, first + 1, first + 2]
            else:
                tiles += [first] * 3
        tiles += [rng.choice(kinds)] * 2
        if all(tiles.count(t) <= 4 for t in tiles) and all(t in kinds for t in tiles):
            return sorted(tiles)


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    variant=st.sampled_from(VARIANTS),
    win_by=st.sampled_from(["discard", "self_draw", "rob_kong"]),
    ting=st.booleans(),
)
def test_a_legal_win_pays_a_zero_sum_in_integers(seed, variant, win_by, ting):
    rng = random.Random(seed)
    rules = judged_variant(variant).rules
    kinds = sorted(rules.tiles_used)
    tiles = complete_tiles(rng, kinds)
    winner, dealer = rng.randrange(4), rng.randrange(4)
    discarder = (winner + rng.randrange(1, 4)) % 4 if win_by != "self_draw" else None
    ctx = WinContext(
        variant=variant,
        dealer=dealer,
        winner=winner,
        concealed=tuple(tiles),
        melds=(),
        win_tile=rng.choice(tiles),
        win_by=win_by,
        discarder=discarder,
        ting=ting,
        opened=tuple(rng.random() < 0.5 for _ in range(4)),
        options=judged_variant(variant).validate_options({"base": rng.choice([1, 2, 100])}),
    )
    verdict = rules.judge_win(ctx)
    if not verdict.legal:
        assert verdict.reason in rules.conditions
        return
    assert sum(verdict.payments) == 0
    assert all(isinstance(p, int) for p in verdict.payments)
    assert sum(nets(verdict.transfers)) == 0
    if variant != "shape":
        assert verdict.payments[winner] > 0
        assert max(verdict.payments) == verdict.payments[winner]
    if variant == "changchun":
        assert verdict.payments[winner] <= 1000


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), variant=st.sampled_from(VARIANTS))
def test_ting_waits_are_exactly_the_legal_winning_tiles(seed, variant):
    rng = random.Random(seed)
    rules = judged_variant(variant).rules
    tiles = complete_tiles(rng, sorted(rules.tiles_used))
    tiles.remove(rng.choice(tiles))
    counts = [tiles.count(t) for t in range(34)]
    ting = TingContext(variant=variant, dealer=0, seat=1, concealed=tuple(tiles), melds=())
    verdict = rules.judge_ting(ting)
    shape = [t for t in shape_waits(counts) if t in rules.tiles_used]
    assert shape, "a complete hand minus a tile always waits"
    for tile in shape:
        win = WinContext(
            variant=variant,
            dealer=0,
            winner=1,
            concealed=tuple(sorted([*tiles, tile])),
            melds=(),
            win_tile=tile,
            win_by="self_draw",
            ting=True,
            options=judged_variant(variant).validate_options({}),
        )
        legal = rules.judge_win(win).legal
        assert (tile in verdict.waits and verdict.ting_allowed) == legal
    if not verdict.ting_allowed:
        assert list(verdict.waits) == shape
        assert verdict.reason in rules.conditions
