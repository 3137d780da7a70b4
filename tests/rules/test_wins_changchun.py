"""Changchun hand rules beyond the golden cases: kong payments, options, readings, the API."""

from __future__ import annotations

import pytest

from rules.errors import InvalidCase
from rules.hand import Meld, Transfer
from rules.payments import nets
from rules.registry import VARIANTS, judged_variant
from rules.tiles import parse_tiles
from tests.rules.wins_helpers import ting_ctx, win_ctx

CHANGCHUN = VARIANTS["changchun"]
RULES = judged_variant("changchun").rules


def kong(tiles: str, *, concealed: bool = False, kind: str = "kong", name=None) -> Meld:
    return Meld(kind=kind, tiles=tuple(parse_tiles(tiles)), concealed=concealed, name=name)


def test_the_judge_reaches_the_variants_own_rules():
    assert judged_variant("changchun").rules is RULES
    assert CHANGCHUN.rules is RULES


def test_unknown_variant_is_invalid():
    with pytest.raises(InvalidCase):
        judged_variant("taiwan17")


def test_default_options_list_every_room_option():
    assert CHANGCHUN.default_options == {
        "base": 1,
        "cap": 1000,
        "ting_required": False,
        "dianpao_quanbao": False,
        "hints": True,
    }


def test_validate_options_merges_defaults_and_rejects_wrong_types_and_bounds():
    assert CHANGCHUN.validate_options({"base": 5, "x": 1})["base"] == 5
    assert CHANGCHUN.validate_options({})["cap"] == 1000
    assert CHANGCHUN.validate_options({"cap": None})["cap"] is None
    bad_values = (
        {"ting_required": "yes"},
        {"cap": 1.5},
        {"base": True},
        {"base": 0},
        {"base": 10**6},
        {"cap": 0},
        {"cap": 10**12},
        {"hints": 1},
    )
    for bad in bad_values:
        with pytest.raises(InvalidCase):
            CHANGCHUN.validate_options(bad)
    with pytest.raises(InvalidCase, match="unknown option"):
        CHANGCHUN.validate_options({"x": 1}, keep_unknown=False)


@pytest.mark.parametrize(
    ("meld", "each"),
    [
        (kong("2222m"), 1),
        (kong("2222m", concealed=True), 2),
        (kong("1111m", concealed=True), 2),  # 1m is not a 大蛋
        (kong("1111s"), 2),  # 幺鸡 大蛋 exposed
        (kong("1111p", concealed=True), 4),
        (kong("7777z", concealed=True), 4),
        (kong("1234z", kind="special_kong", name="xuanfeng"), 1),
        (kong("11234z", kind="special_kong", name="xuanfeng"), 2),
        (kong("1m1p1s1s", kind="special_kong", name="yao"), 2),
    ],
)
def test_kong_payments_each_other_player_pays(meld, each):
    transfers = RULES.kong_transfers(konger=2, meld=meld, options={"base": 1})
    assert transfers == tuple(Transfer(p, 2, each) for p in (0, 1, 3))


def test_kong_payments_scale_with_base_and_ignore_the_dealer():
    transfers = RULES.kong_transfers(konger=0, meld=kong("5555p"), options={"base": 3})
    assert nets(transfers) == (9, -3, -3, -3)


def test_the_reading_that_pays_most_is_used():
    # 111222333m reads as three pongs (飘胡) or three chows; the pongs pay more.
    verdict = RULES.judge_win(win_ctx("changchun", "111222333m 999p 55s", "3m", opened=[False] * 4))
    assert verdict.legal
    assert verdict.fan == {"pinghu": 1, "zimo": 1, "piaohu": 2, "lihu": 1}
    assert verdict.total == 5


def test_the_win_transfers_are_uncapped_and_the_payments_capped():
    ctx = win_ctx("changchun", "123m 99m 456p 789s 111z", "3m", winner=0, options={"base": 100})
    verdict = RULES.judge_win(ctx)
    assert verdict.payments == (1000, -334, -333, -333)
    assert sum(t.amount for t in verdict.transfers) == 4800


def test_the_merged_options_of_a_context_carry_the_default_cap():
    ctx = win_ctx("changchun", "123m 99m 456p 789s 111z", "3m", winner=0, options={"base": 100})
    assert ctx.options["cap"] == 1000
    assert RULES.judge_win(ctx).payments == (1000, -334, -333, -333)


def test_ting_ok_after_needs_a_legal_wait():
    assert RULES.ting_ok_after(ting_ctx("changchun", "234m 678p 345s 999s 5p"))
    assert not RULES.ting_ok_after(ting_ctx("changchun", "234m 678m 345s 999s 5s"))


def test_ting_required_option_is_assumed_met_by_a_ting_query():
    ctx = ting_ctx("changchun", "234m 678p 345s 999s 5p", options={"ting_required": True})
    assert RULES.judge_ting(ctx).waits == tuple(parse_tiles("58p"))


def test_a_wildcard_is_never_read_as_a_fifth_copy():
    # Without the wildcard the hand waits on 5p and 8p; the pong holds the other three 8p.
    ctx = win_ctx(
        "changchun",
        "234m 5678p 345s 7z",
        "7z",
        winner=2,
        melds=[{"type": "pong", "tiles": "888p", "concealed": False, "from": 0}],
        treasure="7z",
        treasure_win=True,
    )
    assert {r.win_tile for r in RULES.readings(ctx)} == set(parse_tiles("5p"))
