"""Names of fan items and kongs for people, in Chinese and English (through gettext).

The engine names a fan item by a short pinyin key (``dianpao``, ``zimo`` …, see each variant's
*Scoring* table in ``spec/``); the ledger stores the key and its value, and the label is looked up
here when a page is rendered, so the same ledger reads in either language. An unknown key (a new
item added to the rules later) is shown as the key itself rather than failing. The names are the
rules' (each variant's ``labels.py``, :mod:`rules.labels`), translated by :mod:`tables.labels`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from rules.registry import VARIANTS
from tables.labels import (
    KONG_NAMES,
    MARKS,
    SETTLEMENT_TERMS,
    fan_name,
    lazy,
    unit_name,
    win_by_name,
)

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise  # dev-only package: annotations only

KONG_LABELS: Mapping[str, StrOrPromise] = KONG_NAMES
"""A kong by its kind: the rules' marks (``rules.labels.KONG_NAMES``: one source)."""

PAYMENT_LABELS: Mapping[str, StrOrPromise] = {
    "win": SETTLEMENT_TERMS["win"],
    "kong": SETTLEMENT_TERMS["kong"],
    **{
        key: lazy(label.name)
        for variant in VARIANTS.values()
        for key, label in variant.words.get("settle", {}).items()
    },
}
"""The kinds of a labelled payment line (成麻's ledger): the settlement terms and the variants'
``settle`` words (成麻's 呼叫转移, 查花猪, 查大叫, 退税)."""


def payment_label(kind: str) -> str:
    """A payment line's kind in the active language (the key itself if unknown)."""
    label = PAYMENT_LABELS.get(kind)
    return kind if label is None else str(label)


def fan_label(key: str, variant: str | None = None) -> str:
    """The fan item's name in the active language (the key itself if unknown); without
    ``variant`` the first variant naming the key is used (:func:`tables.labels.fan_name`)."""
    return fan_name(key, variant)


def kong_label(kind: str) -> str:
    """A kong's name (``exposed``, ``added``, ``concealed`` or a special kong's name)."""
    label = KONG_LABELS.get(kind)
    return kind if label is None else str(label)


def win_by_label(win_by: str | None) -> str:
    """How a round was won, or the rules' 荒庄 mark for a round nobody won."""
    if not win_by:
        return str(MARKS["drawn"])
    return win_by_name(win_by)


def unit_label(variant: str) -> str:
    """What ``variant``'s win items count in: 番, 台 (Taiwan 16) or 分 (Li-Si's score)."""
    return unit_name(variant)
