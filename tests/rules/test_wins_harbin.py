"""Harbin hand rules beyond the golden cases."""

from __future__ import annotations

from rules.hand import Meld, Transfer
from rules.registry import VARIANTS, judged_variant
from rules.tiles import parse_tiles
from tests.rules.wins_helpers import ting_ctx, win_ctx

RULES = judged_variant("harbin").rules
PONG_777P = [{"type": "pong", "tiles": "777p", "concealed": False, "from": 3}]


def test_ting_conditions_name_the_first_that_fails():
    closed = ting_ctx("harbin", "234m 678m 13s 99s 777p")
    assert RULES.ting_conditions(closed) == "not_opened"
    ready = ting_ctx("harbin", "234m 678m 13s 99s", melds=PONG_777P)
    assert RULES.ting_conditions(ready) is None


def test_a_duidao_wait_satisfies_the_triplet_condition():
    chow = [{"type": "chow", "tiles": "234p", "concealed": False, "from": 0}]
    verdict = RULES.judge_ting(ting_ctx("harbin", "345m 678m 55s 77z", melds=chow))
    assert verdict.ting_allowed
    assert verdict.waits == tuple(parse_tiles("5s7z"))


def test_baozhongbao_when_the_treasure_is_drawn_and_read_as_itself():
    ctx = win_ctx(
        "harbin",
        "234m 678m 123s 99s",
        "2s",
        winner=2,
        melds=PONG_777P,
        treasure="2s",
        treasure_win=True,
    )
    verdict = RULES.judge_win(ctx)
    assert verdict.fan == {"pinghu": 0, "zimo": 1, "kadang": 1, "baozhongbao": 2}


def test_kongs_pay_one_exposed_and_two_concealed():
    exposed = Meld(kind="kong", tiles=(9, 9, 9, 9))
    concealed = Meld(kind="kong", tiles=(9, 9, 9, 9), concealed=True)
    assert RULES.kong_transfers(konger=1, meld=exposed, options={"base": 1}) == tuple(
        Transfer(p, 1, 1) for p in (0, 2, 3)
    )
    assert {t.amount for t in RULES.kong_transfers(konger=1, meld=concealed, options={})} == {2}


def test_harbin_has_no_cap_by_default():
    assert VARIANTS["harbin"].default_options["cap"] is None
    ctx = win_ctx("harbin", "234m 678m 123s 99s", "2s", melds=PONG_777P, options={"base": 1000})
    assert RULES.judge_win(ctx).payments == (-8000, 16000, -4000, -4000)
