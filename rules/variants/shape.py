"""The bare shape test (``variant: "shape"`` in ``judge.md``): four sets and a pair, no scoring.

A legal win answers ``fan: {}``, ``total: 0``, payments all zero; a ting query is allowed whenever
the hand has a wait. ``shape`` is the judge's pseudo-variant: :data:`SHAPE` is judged like a
variant (:func:`rules.registry.judged_variant`) but is no room's variant (it is not in
:data:`rules.registry.VARIANTS`); its flow is the spec README's common round, never dealt.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rules.hand import TingContext, TingVerdict
from rules.hand_rules import HandRules, meld_counts
from rules.i18n import N_, Label
from rules.labels import COMMON_REASONS
from rules.shapes import shape_waits
from rules.tiles import NUM_KINDS
from rules.variant import Variant

if TYPE_CHECKING:
    from rules.engine.flow import Flow


class ShapeRules(HandRules):
    """Only ``not_complete`` can fail; nothing scores and nothing pays."""

    conditions: ClassVar[tuple[str, ...]] = ("not_complete",)
    has_cap: ClassVar[bool] = False

    def hand_sizes(self) -> tuple[int, ...]:
        """A 13-tile hand, or a 16-tile one (five sets and a pair), as judge.md says."""
        return (13, 16)

    def judge_ting(self, ctx: TingContext) -> TingVerdict:
        """Every shape wait is a legal win here (only ``not_complete`` can fail, and a wait
        completes the hand), so the waits are the answer without asking each one again as a
        win (:meth:`HandRules.judge_ting` does, for variants with conditions)."""
        counts = [0] * NUM_KINDS
        for tile in ctx.concealed:
            counts[tile] += 1
        waits = tuple(sorted(shape_waits(counts)))
        if ctx.melds:
            in_melds = meld_counts(ctx.melds)
            waits = tuple(t for t in waits if counts[t] + in_melds[t] < 4)
        else:
            waits = tuple(t for t in waits if counts[t] < 4)
        if not waits:
            return TingVerdict(waits=(), ting_allowed=False, reason="not_ready")
        return TingVerdict(waits=waits, ting_allowed=True)


def _load_flow() -> Flow:
    """The common round's flow, imported when first asked for (the judge never asks)."""
    from rules.engine.flow import Flow

    return Flow()


SHAPE = Variant(
    key="shape",
    name=Label(N_("variant", "牌型"), N_("variant", "只看四组加一对，不计番。")),
    load_flow=_load_flow,
    rules=ShapeRules(),
    options=(),
    reasons=COMMON_REASONS,
)

VARIANT = SHAPE
"""The name the registry reads in a variant's package (:mod:`rules.registry`)."""
