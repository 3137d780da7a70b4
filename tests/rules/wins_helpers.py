"""Build hand-rule contexts for tests the way the judge does (from a case dict)."""

from __future__ import annotations

from typing import Any

from rules.hand import TingContext, WinContext
from rules.judge import parse_case


def win_ctx(variant: str, hand: str, win_tile: str, win_by: str = "self_draw", **fields: Any):
    case: dict[str, Any] = {
        "kind": "win",
        "variant": variant,
        "dealer": 0,
        "winner": 1,
        "hand": hand,
        "win_tile": win_tile,
        "win_by": win_by,
        "ting": True,
        "opened": [True, True, True, True],
    }
    case.update(fields)
    ctx = parse_case(case)
    assert isinstance(ctx, WinContext)
    return ctx


def ting_ctx(variant: str, hand: str, **fields: Any):
    case: dict[str, Any] = {"kind": "ting", "variant": variant, "dealer": 0, "winner": 1}
    case.update(hand=hand, **fields)
    ctx = parse_case(case)
    assert isinstance(ctx, TingContext)
    return ctx
