"""A round's settlement explained line by line: what each seat paid or received, and why.

The engine settles a round as transfers (:class:`~rules.engine.state.RoundResult`); players want
to read them as their game hall does: the win's share from each payer with its 底 and every
番/台 item (点炮, 自摸, 庄, 闭门 … counted for that payer), each kong's payment, and what the cap
(封顶) took back. Every line is one of those, and the lines of a seat add up to its net:

- ``win``: one payer's share of the win (:class:`rules.payments.Share`: base, items, rule);
- ``kong``: one payer's payment for one kong (杠分), with the kong's kind and tile;
- ``cap``: the change the cap made to one seat's net (封顶), zero-sum over the seats.

Nothing here decides a payment: the shares are the hand rules' own (the ones that made the
transfers) and the kong lines are the hand rules' ``kong_transfers`` of each kong laid, checked
against the round's kong payments.

>>> from rules.engine import new_round
>>> from rules.registry import get_variant
>>> state, _ = new_round(variant=get_variant("changchun"), seed=bytes(32), dealer=0)
>>> settlement_json(state) is None
True
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from rules.engine.state import RoundState
from rules.hand import Meld, Transfer
from rules.payments import Share, nets
from rules.tiles import tile_name


def settlement_json(state: RoundState) -> dict[str, Any] | None:
    """The ended round's settlement as JSON lines (see the module), or None while in play."""
    result = state.result
    if result is None:
        return None
    rules_ = state.variant.rules
    own = state.variant.flow.settlement_lines(state)
    if own is not None:
        return {
            "unit": rules_.item_unit,
            "base": int(state.options.get("base", 1)),
            "cap": state.options.get("cap"),
            "lines": own,
            "nets": list(result.nets),
        }
    lines: list[dict[str, Any]] = []
    verdict = result.verdict
    shares: tuple[Share, ...] = verdict.shares if verdict is not None else ()
    if shares:
        lines.extend(share_json(share) for share in shares)
    else:  # a round stored before shares were kept: its win transfers, unexplained
        lines.extend(_transfer_json("win", t) for t in result.win_transfers)
    lines.extend(_kong_lines(state, result.kong_transfers))
    before = nets(result.win_transfers + result.kong_transfers)
    for seat in range(4):
        change = result.nets[seat] - before[seat]
        if change:
            lines.append({"kind": "cap", "seat": seat, "amount": change})
    return {
        "unit": rules_.item_unit,
        "base": int(state.options.get("base", 1)),
        "cap": state.options.get("cap"),
        "lines": lines,
        "nets": list(result.nets),
    }


def share_json(share: Share) -> dict[str, Any]:
    return {
        "kind": "win",
        "payer": share.payer,
        "payee": share.payee,
        "amount": share.amount,
        "rule": share.rule,
        "base": share.base,
        "items": [[key, value] for key, value in share.items],
        "offset": share.offset,
        "factors": [[key, value] for key, value in share.factors],
        "tai_value": share.tai_value,
        "covers": share.covers,
    }


def _transfer_json(kind: str, transfer: Transfer) -> dict[str, Any]:
    return {
        "kind": kind,
        "payer": transfer.payer,
        "payee": transfer.payee,
        "amount": transfer.amount,
    }


def kong_name(meld: Meld) -> str:
    """``concealed``, ``added``, ``exposed`` or a special kong's own name (旋风杠 …)."""
    if meld.kind == "special_kong":
        return meld.name or "special"
    if meld.concealed:
        return "concealed"
    return "added" if meld.added else "exposed"


def _kong_lines(state: RoundState, paid: tuple[Transfer, ...]) -> list[dict[str, Any]]:
    """One line per payer and kong laid, from the hand rules' kong payments of each kong; when
    they do not account for the round's kong transfers exactly (never, as the engine pays them
    from the same function), the round's transfers are listed plainly instead."""
    rules_ = state.variant.rules
    lines: list[dict[str, Any]] = []
    for seat, me in enumerate(state.seats):
        for meld in me.melds:
            if not meld.is_kong:
                continue
            for t in rules_.kong_transfers(konger=seat, meld=meld, options=state.options):
                line = _transfer_json("kong", t)
                line["kong"] = kong_name(meld)
                line["tiles"] = [tile_name(tile) for tile in meld.tiles]
                lines.append(line)
    if _sums(lines) != _sums(_transfer_json("kong", t) for t in paid):
        return [_transfer_json("kong", t) for t in paid]
    return lines


def _sums(lines: Any) -> Counter[tuple[int, int]]:
    total: Counter[tuple[int, int]] = Counter()
    for line in lines:
        total[line["payer"], line["payee"]] += line["amount"]
    return total
