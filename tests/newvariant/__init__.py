"""A variant written as a newcomer would write one, outside ``rules/`` altogether: the proof that
adding a variant is its package and one registry line (``docs/architecture.md``, *A variant is
one package and one registry line*).

测试麻将 "toy" is the spec's default round (``rules.engine.flow.Flow`` as it is: no ting, no
treasure, chow pong kong) with one hand rule: any complete hand wins, one point, doubled when the
dealer wins. Its tests register it for the time of a test by adding its registry line
(:func:`registered`) and change nothing else anywhere.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import ClassVar

from rules.engine.flow import Flow
from rules.hand import WinContext
from rules.hand_rules import HandRules, Reading, Scored, WinFacts
from rules.i18n import N_, Label
from rules.options import BASE, HINTS
from rules.payments import Share
from rules.registry import JUDGED, VARIANTS
from rules.variant import Variant

KEY = "toy"
PACKAGE = "tests.newvariant"


class ToyRules(HandRules):
    """Any complete hand wins: 1 point (平胡), one more when the dealer wins (庄); each of the
    three others pays it times the room's base."""

    item_unit: ClassVar[str] = "fen"
    conditions: ClassVar[tuple[str, ...]] = ("not_complete",)

    def failure(self, ctx: WinContext, reading: Reading, facts: WinFacts) -> str | None:
        return None

    def score(self, ctx: WinContext, reading: Reading, facts: WinFacts) -> Scored:
        fan = {"pinghu": 1}
        if ctx.winner == ctx.dealer:
            fan["zhuang"] = 1
        base = int(ctx.options.get("base", 1))
        shares = [
            Share.make("score", payer=seat, payee=ctx.winner, base=base, items=fan.items())
            for seat in range(4)
            if seat != ctx.winner
        ]
        return Scored.of_shares(fan, sum(fan.values()), shares)


VARIANT = Variant(
    key=KEY,
    name=Label(N_("variant", "测试麻将"), N_("toy", "任何和牌都算。")),
    load_flow=Flow,
    rules=ToyRules(),
    options=(BASE, HINTS),
    fan={
        "pinghu": Label(N_("toy", "平胡"), N_("toy", "任何和牌")),
        "zhuang": Label(N_("toy", "庄"), N_("toy", "庄家和牌")),
    },
    reasons={},
)


@contextmanager
def registered() -> Iterator[None]:
    """The toy's one registry line (``rules.registry._PACKAGES``), for the time of a ``with``
    block: both registries built from that dict (the rooms' and the judge's) get it."""
    registries = (VARIANTS, JUDGED)
    before = [(dict(r._packages), dict(r._loaded)) for r in registries]  # type: ignore[attr-defined]
    for registry in registries:
        registry._packages[KEY] = PACKAGE  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for registry, (packages, loaded) in zip(registries, before, strict=True):
            registry._packages = packages  # type: ignore[attr-defined]
            registry._loaded = loaded  # type: ignore[attr-defined]
