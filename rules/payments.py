"""Payments as pairwise transfers, their nets, and the cap (封顶) shared by every variant.

A win or a kong pays as :class:`~rules.hand.Transfer` records (payer → payee, points). The round's
result per seat is :func:`nets`. A room cap is applied by :func:`cap_transfers`, exactly as
``changchun.md`` *Cap* describes, so that the round stays zero-sum:

1. each payer whose total **outgoing** exceeds the cap has their transfers scaled down to the cap;
2. then each receiver whose **net gain** exceeds the cap has their incoming transfers scaled down
   so that the net gain is the cap.

A scaling floors every amount to an integer and gives the remainder back one point at a time to
the scaled transfers, taking the other party's seats in turn order after the capped player's own
seat, until the capped total is exact.

>>> from rules.hand import Transfer
>>> capped = cap_transfers([Transfer(p, 0, 800) for p in (1, 2, 3)], 1000)
>>> [t.amount for t in capped]
[334, 333, 333]
>>> nets(capped)
(1000, -334, -333, -333)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules.hand import Transfer

SEATS = 4


def nets(transfers: Iterable[Transfer]) -> tuple[int, int, int, int]:
    """Net points per seat: what each seat received minus what it paid."""
    net = [0, 0, 0, 0]
    for t in transfers:
        net[t.payer] -= t.amount
        net[t.payee] += t.amount
    return net[0], net[1], net[2], net[3]


def _scale(amounts: list[int], order: Sequence[int], target: int) -> list[int]:
    """Scale ``amounts`` (indexed like ``order``'s positions) down to sum exactly ``target``.

    Floors each share, then gives one point back at a time following ``order`` (indices into
    ``amounts``, the counterparts' seats in turn order after the capped seat).
    """
    total = sum(amounts)
    scaled = [a * target // total for a in amounts]
    remainder = target - sum(scaled)
    eligible = [i for i in order if amounts[i] > 0]
    while remainder > 0 and eligible:
        for i in eligible:
            if remainder == 0:
                break
            scaled[i] += 1
            remainder -= 1
    return scaled


def _turn_order(indices: list[int], seat_of: list[int], capped: int) -> list[int]:
    """``indices`` sorted by their counterpart's seat in turn order after ``capped``."""
    return sorted(indices, key=lambda i: ((seat_of[i] - capped - 1) % SEATS, i))


def cap_transfers(transfers: Iterable[Transfer], cap: int | None) -> tuple[Transfer, ...]:
    """The transfers with each player's loss and gain capped at ``cap`` (``None``: unchanged)."""
    result = list(transfers)
    if cap is None:
        return tuple(result)
    amounts = [t.amount for t in result]
    for seat in range(SEATS):
        outgoing = [i for i, t in enumerate(result) if t.payer == seat and amounts[i] > 0]
        if sum(amounts[i] for i in outgoing) > cap:
            _apply_scaled(amounts, outgoing, [t.payee for t in result], seat, cap)
    for seat in range(SEATS):
        incoming = [i for i, t in enumerate(result) if t.payee == seat and amounts[i] > 0]
        paid = sum(amounts[i] for i, t in enumerate(result) if t.payer == seat)
        if sum(amounts[i] for i in incoming) - paid > cap:
            _apply_scaled(amounts, incoming, [t.payer for t in result], seat, cap + paid)
    return tuple(
        Transfer(t.payer, t.payee, amount) for t, amount in zip(result, amounts, strict=True)
    )


def _apply_scaled(
    amounts: list[int], indices: list[int], counterpart: list[int], seat: int, target: int
) -> None:
    ordered = _turn_order(indices, counterpart, seat)
    sub = [amounts[i] for i in ordered]
    scaled = _scale(sub, list(range(len(sub))), target)
    for i, value in zip(ordered, scaled, strict=True):
        amounts[i] = value
