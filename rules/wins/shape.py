"""The bare shape test (``variant: "shape"`` in ``judge.md``): four sets and a pair, no scoring.

A legal win answers ``fan: {}``, ``total: 0``, payments all zero; a ting query is allowed whenever
the hand has a wait. ``shape`` is the judge's pseudo-variant: :data:`SHAPE` is judged like a
variant (:func:`rules.registry.judged_variant`) but is no room's variant (it is not in
:data:`rules.registry.VARIANTS`); its flow is the spec README's common round, never dealt.
"""

from __future__ import annotations

from typing import ClassVar

from rules.engine.flow import Flow
from rules.i18n import N_, Label
from rules.labels import COMMON_REASONS
from rules.variant import Variant
from rules.wins.base import HandRules


class ShapeRules(HandRules):
    """Only ``not_complete`` can fail; nothing scores and nothing pays."""

    conditions: ClassVar[tuple[str, ...]] = ("not_complete",)
    has_cap: ClassVar[bool] = False

    def hand_sizes(self) -> tuple[int, ...]:
        """A 13-tile hand, or a 16-tile one (five sets and a pair), as judge.md says."""
        return (13, 16)


SHAPE = Variant(
    key="shape",
    name=Label(N_("variant", "牌型"), N_("variant", "只看四组加一对，不计番。")),
    flow=Flow(),
    rules=ShapeRules(),
    options=(),
    reasons=COMMON_REASONS,
)
