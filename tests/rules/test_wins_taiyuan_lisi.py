"""Taiyuan Li-Si hand rules beyond the golden cases."""

from __future__ import annotations

from rules.hand import Meld
from rules.registry import judged_variant
from tests.rules.wins_helpers import ting_ctx, win_ctx

RULES = judged_variant("taiyuan_lisi").rules


def test_kongs_pay_nothing_apart():
    kong = Meld(kind="kong", tiles=(0, 0, 0, 0), concealed=True)
    assert RULES.kong_transfers(konger=0, meld=kong, options={"base": 1}) == ()


def test_a_self_draw_doubles_s():
    verdict = RULES.judge_win(win_ctx("taiyuan_lisi", "123m 456p 789s 222z 55s", "5s"))
    assert verdict.fan["zimo"] == 2
    assert verdict.total == 2 * (verdict.fan["pinghu"] + verdict.fan["diaojiang"])


def test_every_shape_wait_is_legal_once_ting_is_assumed():
    verdict = RULES.judge_ting(ting_ctx("taiyuan_lisi", "1112345678999m"))
    assert verdict.ting_allowed
    assert len(verdict.waits) == 9
