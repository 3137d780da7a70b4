"""The settlement explained (rules.settlement): every line labelled, and the lines add up.

Whole rounds of every variant (eager bots, room options that make 包 and the cap happen) are
settled and read back: each seat's lines sum to its net, each win line's amount is its formula's
result, the win lines are exactly the win transfers, and every kong is named.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from rules.engine.state import EndedPhase
from rules.payments import share_amount
from rules.registry import VARIANTS
from rules.settlement import settlement_json
from rules.views import seat_view
from tests.rules.engine_helpers import line_nets
from tests.rules.flow_helpers import play_eager_rounds
from tests.rules.wins_helpers import win_ctx

OPTIONS: dict[str, list[dict[str, Any]]] = {
    "changchun": [{}, {"dianpao_quanbao": True, "cap": 8}],
    "harbin": [{}, {"dianpao_baosan": True, "cap": 6}],
    "siping": [{}, {"fengang": True, "zfbgang": True, "cap": 10}],
    "taiyuan_lisi": [{}, {"cap": 5, "base": 2}],
    "taiwan16": [{}, {"base": 3, "tai_value": 2}],
    "chengma": [{}, {"huansanzhang": True, "zimo": "jiafan", "cap": None}],
}
"""Room options per variant: every variant of the registry (checked below)."""


def test_every_variant_of_the_registry_is_settled_here() -> None:
    assert set(OPTIONS) == set(VARIANTS)


def _ended_rounds(variant: str, options: dict[str, Any], rounds: int) -> list[Any]:
    return [
        state
        for state, _ in play_eager_rounds(
            variant, f"settle/{variant}/{sorted(options)}", rounds=rounds, options=options
        )
        if isinstance(state.phase, EndedPhase)
    ]


def _win_line_amount(line: dict[str, Any]) -> int:
    return share_amount(
        line["rule"],
        line["base"],
        [tuple(i) for i in line["items"]],
        line["offset"],
        [tuple(f) for f in line["factors"]],
        line["tai_value"],
    )


@pytest.mark.parametrize(
    ("variant", "options"), [(v, o) for v, opts in OPTIONS.items() for o in opts]
)
def test_every_line_is_labelled_and_the_lines_add_up_to_the_nets(
    variant: str, options: dict[str, Any]
) -> None:
    seen: Counter[str] = Counter()
    for state in _ended_rounds(variant, options, 30):
        result = state.result
        settlement = settlement_json(state)
        assert settlement is not None
        lines = settlement["lines"]
        assert line_nets(lines) == result.nets
        assert settlement["nets"] == list(result.nets)
        wins: Counter[tuple[int, int]] = Counter()
        for line in lines:
            seen[line["kind"]] += 1
            if line["kind"] == "win":
                assert line["items"], line  # never a bare amount
                assert _win_line_amount(line) == line["amount"]
                wins[line["payer"], line["payee"]] += line["amount"]
            elif line["kind"] == "kong":
                assert line["kong"], line
                assert len(line["tiles"]) >= 3, line
        paid: Counter[tuple[int, int]] = Counter()
        for t in result.win_transfers:
            paid[t.payer, t.payee] += t.amount
        assert wins == paid
        # Every viewer's ended view carries the same settlement.
        for viewer in (0, 1, 2, 3, None):
            assert seat_view(state, viewer)["result"]["settlement"] == settlement
    assert seen["win"], f"no win in 30 {variant} rounds"


def test_the_cap_shows_as_its_own_line_and_keeps_the_round_zero_sum() -> None:
    capped = 0
    for state in _ended_rounds("changchun", {"cap": 2}, 30):
        lines = settlement_json(state)["lines"]
        caps = [line for line in lines if line["kind"] == "cap"]
        assert sum(line["amount"] for line in caps) == 0
        capped += bool(caps)
    assert capped, "a cap of 2 never bit in 30 rounds"


def test_harbin_payer_items_show_in_each_share() -> None:
    """Harbin (harbin.md, *Scoring*; golden case hb-01 with seat 3 closed): base × 2^F per
    payer; 点炮, 庄 and 闭门 are the payer's own items."""
    from rules.registry import get_variant

    ctx = win_ctx(
        "harbin",
        "234m678m123s99s",
        "2s",
        win_by="discard",
        discarder=2,
        melds=[{"type": "pong", "tiles": "777p", "from": 3}],
        opened=[True, True, True, False],
    )
    verdict = get_variant("harbin").rules.judge_win(ctx)
    assert verdict.legal, verdict.reason
    by_payer = {share.payer: dict(share.items) for share in verdict.shares}
    assert by_payer[2] == {"pinghu": 0, "kadang": 1, "dianpao": 1}
    assert by_payer[0] == {"pinghu": 0, "kadang": 1, "zhuang": 1}
    assert by_payer[3] == {"pinghu": 0, "kadang": 1, "bimen": 1}
    assert [s.amount for s in verdict.shares] == [4, 4, 4]
    assert verdict.payments == (-4, 12, -4, -4)


def test_changchun_worked_payment_reads_as_the_spec() -> None:
    """changchun.md, *Worked payments*: a non-dealer wins on a discard with 平胡 and 立胡
    (F = 2): the discarder pays 2^2 = 4, each other pays 2^1 = 2."""
    from rules.registry import get_variant

    ctx = win_ctx(
        "changchun",
        "234m678p345s999s55p",
        "5p",
        win_by="discard",
        discarder=2,
        opened=[True, False, True, True],
        ting=True,
    )
    verdict = get_variant("changchun").rules.judge_win(ctx)
    assert verdict.legal, verdict.reason
    amounts = {share.payer: share.amount for share in verdict.shares}
    fan_of = {share.payer: dict(share.items) for share in verdict.shares}
    assert fan_of[2]["dianpao"] == 1
    assert "dianpao" not in fan_of[0]
    assert all(share.offset == -1 for share in verdict.shares)
    assert amounts[2] == 2 * amounts[0] == 2 * amounts[3]
