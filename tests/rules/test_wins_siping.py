"""Siping hand rules beyond the golden cases."""

from __future__ import annotations

import pytest

from rules.errors import InvalidCase
from rules.hand import Meld
from rules.registry import judged_variant
from rules.tiles import parse_tiles
from tests.rules.wins_helpers import win_ctx

RULES = judged_variant("siping").rules


def meld(tiles: str, kind: str = "kong", *, concealed: bool = False, name=None) -> Meld:
    return Meld(kind=kind, tiles=tuple(parse_tiles(tiles)), concealed=concealed, name=name)


@pytest.mark.parametrize(
    ("m", "each"),
    [
        (meld("2222m"), 1),
        (meld("2222m", concealed=True), 2),
        (meld("1111p", concealed=True), 4),
        (meld("1111s"), 2),
        (meld("1234z", "special_kong", name="xuanfeng"), 2),
        (meld("12344z", "special_kong", name="xuanfeng"), 3),
        (meld("567z", "special_kong", name="xi"), 1),
    ],
)
def test_kong_payments(m, each):
    transfers = RULES.kong_transfers(konger=0, meld=m, options={"base": 1})
    assert [t.amount for t in transfers] == [each] * 3


def test_a_wind_kong_does_not_open_the_hand():
    assert not RULES.meld_opens(meld("1234z", "special_kong", name="xuanfeng"))
    assert RULES.meld_opens(meld("2222m"))


def test_round_wind_comes_from_extra():
    chow = [{"type": "chow", "tiles": "234p", "concealed": False, "from": 0}]
    south = win_ctx(
        "siping",
        "345m 789s 123s 22z",
        "2z",
        "discard",
        discarder=2,
        melds=chow,
        ting=False,
        extra={"round_wind": "2z"},
    )
    assert RULES.judge_win(south).legal
    with pytest.raises(InvalidCase):
        RULES.judge_win(
            win_ctx("siping", "345m 789s 123s 22z", "2z", melds=chow, extra={"round_wind": "5z"})
        )


def test_siguiyi_counts_each_kind_with_four_copies():
    # An exposed 111m pong with a concealed 1m, and four concealed 4s.
    pong = [{"type": "pong", "tiles": "111m", "concealed": False, "from": 0}]
    verdict = RULES.judge_win(win_ctx("siping", "1m 23m 4444s 56s 99p", "2m", melds=pong))
    assert verdict.legal
    assert verdict.fan["siguiyi"] == 2
