"""Taiwan 16-tile hand rules beyond the golden cases (taiwan16.md, *Tai*)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import InvalidCase
from rules.hand import Meld
from rules.judge import judge_case
from rules.registry import VARIANTS, judged_variant
from rules.variants.taiwan16 import labels as taiwan16_labels
from rules.variants.taiwan16.wins import TAI_TABLE
from tests.rules.golden import WORKSPACE_SHARED
from tests.rules.wins_helpers import ting_ctx, win_ctx

RULES = judged_variant("taiwan16").rules
WORKSPACE_SPEC = WORKSPACE_SHARED.parent / "spec"
HAND = "123m 456m 789m 234p 55s 678s"


def tw(hand: str, win_tile: str, win_by: str = "self_draw", **fields: object):
    fields.setdefault("ting", False)
    fields.setdefault("opened", [False] * 4)
    return RULES.judge_win(win_ctx("taiwan16", hand, win_tile, win_by, **fields))


def test_a_win_is_five_sets_and_a_pair_and_nothing_else():
    assert RULES.conditions == ("not_complete",)
    assert tw("111z 222z 333z 444z 555z 66z", "6z").legal


def test_kongs_pay_nothing_apart():
    kong = Meld(kind="kong", tiles=(0, 0, 0, 0), concealed=True)
    assert RULES.kong_transfers(konger=0, meld=kong, options={"base": 1}) == ()


def test_a_concealed_kong_keeps_menqing_and_an_exposed_pong_loses_it():
    concealed = tw(
        "123m 456m 789m 55s 678s",
        "6s",
        melds=[{"type": "kong", "tiles": "2222p", "concealed": True}],
    )
    assert "menqing_zimo" in concealed.fan
    exposed = tw("123m 456m 789m 55s 678s", "6s", melds=[{"type": "pong", "tiles": "222p"}])
    assert "menqing_zimo" not in exposed.fan
    assert exposed.fan["zimo"] == 1


def test_the_reading_that_pays_most_is_used():
    # 111222333m: three pongs (三暗刻, 碰碰胡 not: 789p is a chow) or three chows.
    verdict = tw("111m 222m 333m 789p 456s 99s", "9s")
    assert verdict.fan.get("sananke") == 2


# Equal totals once went to the README's wait order (单吊 before 两面) or to the
# first reading found, so 三暗刻 beat 平胡; taiwan16.md: "then the reading whose items come first
# in the table". Each hand reads as chows with a 两面 win (pinghu 2) or as three concealed pongs
# (sananke 2), for the same total.
@pytest.mark.parametrize(
    ("hand", "win_tile", "melds"),
    [
        ("11122233344p 112233s", "4p", []),  # the reported hand: 44p pair (单吊) or 234p (两面)
        ("11122233344555566m", "4m", []),  # both readings' waits are no wait item
        ("44455556666777p", "6p", [{"type": "chow", "tiles": "345s", "from": 0}]),
    ],
)
def test_equal_totals_go_to_the_reading_whose_items_come_first_in_the_table(hand, win_tile, melds):
    case = {
        "kind": "win",
        "variant": "taiwan16",
        "dealer": 0,
        "winner": 1,
        "hand": hand,
        "melds": melds,
        "win_tile": win_tile,
        "win_by": "discard",
        "discarder": 2,
    }
    answer = judge_case(case)
    assert answer["fan"].get("pinghu") == 2
    assert "sananke" not in answer["fan"]


def test_the_tie_order_is_the_spec_table_order():
    """TAI_TABLE lists the keys of taiwan16.md's *Tai* table in its order (plus the two keys the
    table does not list as rows, where the rules put them)."""
    spec = WORKSPACE_SPEC / "taiwan16.md"
    if not spec.is_file():
        pytest.skip("no ../shared/spec beside this clone")
    text = spec.read_text(encoding="utf-8").split("## Tai", 1)[1]
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    keys = [key for row in rows for key in re.findall(r"`(\w+)`", row.split("|")[1])]
    assert [k for k in TAI_TABLE if k not in ("menqing_zimo", "ting_declared")] == keys
    assert set(TAI_TABLE) == set(taiwan16_labels.FAN)


def test_an_all_honours_hand_is_neither_hunyise_nor_qingyise():
    verdict = tw("111z 222z 333z 555z 666z 77z", "7z")
    assert "hunyise" not in verdict.fan
    assert "qingyise" not in verdict.fan
    assert verdict.fan["xiaosanyuan"] == 4
    assert verdict.fan["duiduihu"] == 4


def test_the_seat_wind_comes_from_the_dealer_unless_given():
    assert tw(HAND, "6s", extra={"flowers": "2f"}).fan["flower"] == 1  # seat 1 is 南
    assert "flower" not in tw(HAND, "6s", extra={"flowers": "2f", "seat_wind": "3z"}).fan


@pytest.mark.parametrize(
    "extra",
    [
        {"flowers": "1m"},
        {"flowers": "1f1f"},
        {"flowers": 3},
        {"round_wind": "5z"},
        {"seat_wind": 40},
        {"lianzhuang": -1},
        {"lianzhuang": True},
        {"haidi": "yes"},
    ],
)
def test_a_malformed_extra_is_invalid(extra):
    with pytest.raises(InvalidCase):
        win_ctx("taiwan16", HAND, "6s", extra=extra)


def test_tai_value_must_be_a_non_negative_integer():
    with pytest.raises(InvalidCase):
        VARIANTS["taiwan16"].validate_options({"tai_value": "2"})
    assert VARIANTS["taiwan16"].validate_options({"tai_value": 0})["tai_value"] == 0


def test_ting_queries_wait_on_every_shape_wait():
    verdict = RULES.judge_ting(ting_ctx("taiwan16", "1112345678999m 123p"))
    assert verdict.ting_allowed
    assert len(verdict.waits) == 9


@settings(max_examples=60, deadline=None)
@given(
    winner=st.integers(0, 3),
    dealer=st.integers(0, 3),
    other=st.integers(1, 3),
    self_draw=st.booleans(),
    lianzhuang=st.integers(0, 5),
    base=st.integers(1, 5),
    tai_value=st.integers(0, 5),
)
def test_payments_sum_to_zero_and_each_payer_pays_base_plus_tai(
    winner, dealer, other, self_draw, lianzhuang, base, tai_value
):
    case = {
        "kind": "win",
        "variant": "taiwan16",
        "dealer": dealer,
        "winner": winner,
        "hand": HAND,
        "win_tile": "6s",
        "win_by": "self_draw" if self_draw else "discard",
        "discarder": None if self_draw else (winner + other) % 4,
        "options": {"base": base, "tai_value": tai_value},
        "extra": {"lianzhuang": lianzhuang},
    }
    answer = judge_case(case)
    payments = answer["payments"]
    assert sum(payments) == 0
    total = answer["total"]
    dealer_tai = answer["fan"].get("zhuangjia", 0) + answer["fan"].get("lianzhuang", 0)
    for seat, amount in enumerate(payments):
        if seat == winner or amount == 0:
            continue
        involved = dealer in (seat, winner)
        tai = total if involved else total - dealer_tai
        assert -amount == base + tai * tai_value
    payers = sum(1 for seat, amount in enumerate(payments) if seat != winner and amount < 0)
    assert payers == (3 if self_draw else 1)
