"""The bare shape test (``variant: "shape"`` in ``judge.md``): four sets and a pair, no scoring.

A legal win answers ``fan: {}``, ``total: 0``, payments all zero; a ting query is allowed whenever
the hand has a wait.
"""

from __future__ import annotations

from typing import ClassVar

from rules.wins.base import HandRules


class ShapeRules(HandRules):
    """Only ``not_complete`` can fail; nothing scores and nothing pays."""

    key: ClassVar[str] = "shape"
    conditions: ClassVar[tuple[str, ...]] = ("not_complete",)
