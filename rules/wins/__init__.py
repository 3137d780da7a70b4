"""The hand rules of each variant, by variant key: ``hand_rules("changchun")``.

The round engine and the judge ask exactly the same questions of a :class:`HandRules`:

* ``judge_win(WinContext) -> WinVerdict``: legal, fan, total, capped ``payments`` and the
  uncapped pairwise ``transfers`` of the win alone; or the first failing ``reason``;
* ``judge_ting(TingContext) -> TingVerdict``: legal waits if ting were declared now, whether
  ting is allowed, and the reason when it is not; ``ting_ok_after(ctx)`` is its yes/no;
* ``kong_transfers(konger=, meld=, options=)``: what the others pay for a kong (杠分);
* ``default_options`` / ``validate_options(options)``: the room options of the variant;
* Harbin also has ``ting_conditions(ctx)`` (its ting conditions 1–6 for 听 / 吃听).

>>> hand_rules("changchun").default_options["cap"]
1000
"""

from __future__ import annotations

from functools import cache

from rules.errors import InvalidCase
from rules.wins.base import HandRules
from rules.wins.changchun import ChangchunRules
from rules.wins.harbin import HarbinRules
from rules.wins.shape import ShapeRules
from rules.wins.siping import SipingRules
from rules.wins.taiwan16 import Taiwan16Rules
from rules.wins.taiyuan_lisi import TaiyuanLisiRules

_RULES: dict[str, type[HandRules]] = {
    "shape": ShapeRules,
    "changchun": ChangchunRules,
    "harbin": HarbinRules,
    "siping": SipingRules,
    "taiyuan_lisi": TaiyuanLisiRules,
    "taiwan16": Taiwan16Rules,
}

VARIANTS: tuple[str, ...] = tuple(_RULES)
NOT_BUILT: tuple[str, ...] = ()
"""Specified but without hand rules yet (none: ``taiwan16`` is built)."""


@cache
def hand_rules(variant: str) -> HandRules:
    """The (cached) hand rules of ``variant``; raises InvalidCase for an unknown key."""
    try:
        return _RULES[variant]()
    except KeyError:
        if variant in NOT_BUILT:
            raise InvalidCase(f"variant {variant!r} is not built yet") from None
        raise InvalidCase(f"unknown variant {variant!r}") from None


__all__ = ["VARIANTS", "HandRules", "hand_rules"]
