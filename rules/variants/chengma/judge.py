"""The judge's ``kind: settle`` (``chengma.md``, *Judge: kind settle*): the end-of-wall checks
(查花猪, 查大叫, 退税) of the seats still in. The variant lists it in its
:attr:`~rules.variant.Variant.judge_kinds`; :func:`rules.judge.judge_case` finds it there, and the
case's fields are read with the judge's own readers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from rules.errors import InvalidCase
from rules.hand import Transfer
from rules.judge import case_field, case_meld, case_seat, case_tiles, check_tiles_exist
from rules.variant import Variant
from rules.variants.chengma.wins import ChengmaRules, SettleSeat, suit_index


def judge_settle(variant: Variant, case: Mapping[str, Any]) -> dict[str, Any]:
    """The answer to a ``kind: settle`` case: each seat's status and what the checks move."""
    rules = cast(ChengmaRules, variant.rules)
    options = variant.validate_options(case_field(case, "options", dict, {}))
    dealer = cast(int, case_seat(case, "dealer"))
    raw = case.get("seats")
    if not isinstance(raw, list) or len(raw) != 4:
        raise InvalidCase("seats must be a list of exactly four objects")
    seats = [
        _settle_seat(rules, variant.key, index, item, options) for index, item in enumerate(raw)
    ]
    if sum(1 for seat in seats if not seat.won) < 2:
        raise InvalidCase("fewer than two seats still in: the hand has no checks")
    every = [
        t for seat in seats for t in (*seat.concealed, *(x for m in seat.melds for x in m.tiles))
    ]
    check_tiles_exist(rules, every, variant.key)
    answer: dict[str, Any] = rules.settle(seats, options, dealer).as_json()
    return answer


def _settle_seat(
    rules: ChengmaRules, variant: str, index: int, raw: Any, options: Mapping[str, Any]
) -> SettleSeat:
    """The case's ``seats[index]``: a seat that won, or one still in with its hand, melds, void
    suit and kong money."""
    if not isinstance(raw, Mapping):
        raise InvalidCase(f"seat {index} must be an object")
    won = case_field(raw, "won", bool, False)
    que_raw = raw.get("que")
    # A won seat may omit everything but ``won``; what it gives is checked like any seat's, and
    # its hand and melds count in the four-copies check (chengma.md, *kind settle*, ``won``).
    has_que = que_raw is not None or not won
    que = suit_index(que_raw, f"seats[{index}].que") if has_que else 0
    hand = case_tiles(raw.get("hand"), f"seats[{index}].hand") if "hand" in raw or not won else []
    melds = tuple(
        case_meld(m, variant=variant, rules=rules, winner=index, options=options, of_winner=False)
        for m in case_field(raw, "melds", list, [])
    )
    if not won and len(hand) != rules.hand_size - 3 * len(melds):
        raise InvalidCase(
            f"seat {index} holds {len(hand)} tiles; {len(melds)} melds need "
            f"{rules.hand_size - 3 * len(melds)}"
        )
    if has_que and any(m.tiles[0] // 9 == que for m in melds):
        raise InvalidCase(f"seat {index} has a meld of its void suit")
    income: list[Transfer] = []
    for entry in case_field(raw, "kong_income", list, []):
        if not isinstance(entry, Mapping):
            raise InvalidCase("a kong_income entry must be an object")
        payer = entry.get("from")
        amount = entry.get("amount")
        if not isinstance(payer, int) or isinstance(payer, bool) or not 0 <= payer <= 3:
            raise InvalidCase(f"kong_income from must be a seat 0–3, got {payer!r}")
        if payer == index:
            raise InvalidCase("kong_income from the seat itself")
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise InvalidCase(f"kong_income amount must be a positive integer, got {amount!r}")
        income.append(Transfer(payer, index, amount))
    return SettleSeat(
        won=won,
        que=que,
        concealed=tuple(sorted(hand)),
        melds=melds,
        kong_income=tuple(income),
    )
