"""Build a round from chosen hands and wall: for tests, puzzles and bug reports.

>>> from rules.registry import VARIANTS
>>> variant = next(iter(VARIANTS.values()))  # the registry's first
>>> state = arrange_round(variant, hands=["123456789m12345p", "", "", ""], live="6p")
>>> state.seats[0].drawn, len(state.seats[1].concealed), state.wall[state.live]
(13, 13, 14)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from rules.engine.core import with_offers
from rules.engine.state import RoundState, SeatState, TurnPhase
from rules.tiles import EAST, Tile, count_tiles, full_set, parse_tiles
from rules.variant import Variant
from rules.wall import break_point, commitment, deal_order


def arrange_round(
    variant: Variant,
    *,
    hands: Sequence[str],
    live: str = "",
    far: str = "",
    dealer: int = 0,
    options: Mapping[str, Any] | None = None,
    seed: bytes = bytes(32),
) -> RoundState:
    """A round just dealt, the dealer to act, with chosen tiles.

    ``hands`` are the four seats' tiles in mpsz notation, in deal order (the dealer's last tile is
    its drawn 14th); a hand given short ("" or fewer tiles) is filled up from the unused tiles in
    tile order. The wall is laid so that the standard deal gives exactly these hands; ``live`` are
    the next tiles drawn from the live end, ``far`` the next replacement tiles (``wall[-1]``
    first); the rest of the wall is the unused tiles in tile order. Later
    random choices (treasure dice) come from ``seed``'s DRBG stream from its start.
    """
    v = variant.flow
    unused = count_tiles(full_set(v.tile_kinds))
    chosen = [parse_tiles(h) for h in hands]
    live_tiles, far_tiles = parse_tiles(live, max_copies=None), parse_tiles(far, max_copies=None)
    for tile in [t for h in chosen for t in h] + live_tiles + far_tiles:
        unused[tile] -= 1
    if min(unused) < 0:
        raise ValueError("more copies of a tile than the set has")
    spare = [t for t, n in enumerate(unused) for _ in range(n)]
    for seat, hand in enumerate(chosen):
        need = v.hand_size + (1 if seat == dealer else 0) - len(hand)
        if need < 0:
            raise ValueError(f"seat {seat} is given {len(hand)} tiles, more than its hand")
        hand += spare[:need]
        del spare[:need]
    dealt: list[Tile] = []
    taken = [0, 0, 0, 0]
    for seat, count in deal_order(dealer, v.hand_size):
        dealt += chosen[seat][taken[seat] : taken[seat] + count]
        taken[seat] += count
    wall = tuple(dealt + live_tiles + spare + far_tiles[::-1])
    state = _state(variant, chosen, wall, dealer, variant.validate_options(options or {}), seed)
    # The variant's own set-up after the deal (Harbin's treasure at the far end, Li-Si's 立牌).
    return with_offers(v.after_deal(replace(state, live=len(dealt)), []))


def _state(
    variant: Variant,
    hands: list[list[Tile]],
    wall: tuple[Tile, ...],
    dealer: int,
    options: dict[str, Any],
    seed: bytes,
) -> RoundState:
    dice = (1, 1)
    return RoundState(
        variant=variant,
        options=options,
        seed=seed,
        drbg_counter=0,
        dealer=dealer,
        round_wind=EAST,
        wall=wall,
        live=0,
        far=0,
        dice=dice,
        break_point=break_point(dealer, dice),
        salt=bytes(32),
        commitment=commitment(bytes(32), wall),
        seats=tuple(
            SeatState(
                concealed=tuple(sorted(h)),
                dealt=tuple(h),
                drawn=h[-1] if seat == dealer else None,
            )
            for seat, h in enumerate(hands)
        ),
        phase=TurnPhase(seat=dealer, drawn=True, source="deal"),
        reserve_stacks=variant.flow.reserve_stacks(0),
    )
