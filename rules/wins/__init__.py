"""The hand rules of each variant, by variant key: ``hand_rules("changchun")``.

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
from rules.wins.taiyuan_lisi import TaiyuanLisiRules

_RULES: dict[str, type[HandRules]] = {
    "shape": ShapeRules,
    "changchun": ChangchunRules,
    "harbin": HarbinRules,
    "siping": SipingRules,
    "taiyuan_lisi": TaiyuanLisiRules,
}

VARIANTS: tuple[str, ...] = tuple(_RULES)
NOT_BUILT: tuple[str, ...] = ("taiwan16",)
"""Specified (spec ``taiwan16.md``) but without hand rules yet."""


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
