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
from dataclasses import dataclass
from typing import Literal

from rules.hand import Transfer

SEATS = 4

ShareRule = Literal["doubling", "score", "tai"]
"""How a share is reckoned from its items (:class:`Share`)."""
Item = tuple[str, int]
"""A labelled number: a fan or tai item (``("zimo", 1)``), or a factor (``("zimo", 2)``)."""


@dataclass(frozen=True, slots=True)
class Share:
    """One payer's part of a win and what makes it, so that a settlement can be explained line
    by line instead of as bare transfers (each variant's *Scoring*/*Payment* section).

    ``items`` are the fan (番), tai (台) or score items counted for this payer: the winner's
    items and the payer's own (点炮, 庄, 闭门, 三家闭 …). The amount follows ``rule``:

    - ``doubling``: ``base × 2^(Σ items + offset)`` (Harbin, Siping; Changchun with offset −1);
    - ``score``: ``base × Σ items × Π factors`` (Li-Si: S, doubled on a self-draw, tripled when
      a discarder who had not declared ting pays alone);
    - ``tai``: ``base + Σ items × tai_value`` (Taiwan 16).

    ``covers`` is the seat whose share this is when ``payer`` pays it for them (点炮包三家 /
    点炮全包); None for the payer's own share.

    >>> share = Share.make("doubling", payer=1, payee=0, base=2, items=(("zimo", 1), ("bimen", 1)))
    >>> share.amount
    8
    """

    payer: int
    payee: int
    amount: int
    rule: ShareRule
    base: int
    items: tuple[Item, ...]
    offset: int = 0
    factors: tuple[Item, ...] = ()
    tai_value: int = 1
    covers: int | None = None

    @classmethod
    def make(
        cls,
        rule: ShareRule,
        *,
        payer: int,
        payee: int,
        base: int,
        items: Iterable[Item],
        offset: int = 0,
        factors: Iterable[Item] = (),
        tai_value: int = 1,
        covers: int | None = None,
    ) -> Share:
        """The share with its amount reckoned by ``rule`` from the parts (one formula)."""
        items_t = tuple(items)
        factors_t = tuple(factors)
        return cls(
            payer=payer,
            payee=payee,
            amount=share_amount(rule, base, items_t, offset, factors_t, tai_value),
            rule=rule,
            base=base,
            items=items_t,
            offset=offset,
            factors=factors_t,
            tai_value=tai_value,
            covers=covers,
        )

    def paid_by(self, payer: int) -> Share:
        """This share paid by ``payer`` for its own payer (包: the discarder pays it)."""
        return Share(
            payer=payer,
            payee=self.payee,
            amount=self.amount,
            rule=self.rule,
            base=self.base,
            items=self.items,
            offset=self.offset,
            factors=self.factors,
            tai_value=self.tai_value,
            covers=self.payer,
        )


def share_amount(
    rule: ShareRule,
    base: int,
    items: Sequence[Item],
    offset: int = 0,
    factors: Sequence[Item] = (),
    tai_value: int = 1,
) -> int:
    """A share's amount from its parts (see :class:`Share`)."""
    total = sum(value for _, value in items)
    if rule == "doubling":
        return int(base * 2 ** (total + offset))
    if rule == "tai":
        return base + total * tai_value
    amount = base * total
    for _, factor in factors:
        amount *= factor
    return amount


def share_transfers(shares: Iterable[Share]) -> tuple[Transfer, ...]:
    """The transfers paying ``shares``: one per share; a payer who covers others' shares (包)
    pays its own and theirs as one transfer, where its first share stands. Empty shares pay
    nothing."""
    listed = [share for share in shares if share.amount > 0]
    merged = {(s.payer, s.payee) for s in listed if s.covers is not None}
    out: list[Transfer] = []
    at: dict[tuple[int, int], int] = {}
    for share in listed:
        key = (share.payer, share.payee)
        if key in merged and key in at:
            old = out[at[key]]
            out[at[key]] = Transfer(old.payer, old.payee, old.amount + share.amount)
            continue
        at[key] = len(out)
        out.append(Transfer(share.payer, share.payee, share.amount))
    return tuple(out)


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
