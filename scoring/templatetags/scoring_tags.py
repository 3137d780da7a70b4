"""Small template filters of the scoring pages."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import template

register = template.Library()


@register.filter
def at(values: Sequence[Any], index: Any) -> Any:
    """``names|at:seat``: the item at ``index`` (empty when out of range or None)."""
    try:
        return values[int(index)]
    except (TypeError, ValueError, IndexError):
        return ""


@register.filter
def signed(value: Any) -> str:
    """A score with its sign: ``+3``, ``-2``, ``0``."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return ""
    return f"{number:+d}" if number else "0"


@register.filter
def percent(value: Any) -> str:
    """A rate 0..1 as a whole percentage."""
    try:
        return f"{float(value) * 100:.0f}%"
    except (TypeError, ValueError):
        return ""


@register.filter
def score_class(value: Any) -> str:
    """``pos``, ``neg`` or ``zero`` for colouring a score."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return ""
    return "pos" if number > 0 else "neg" if number < 0 else "zero"


@register.filter
def variant_label(key: Any) -> str:
    """A variant's name in the page's language (the key itself when unknown)."""
    from tables.models import Variant

    return str(Variant(key).label) if key in Variant.values else str(key)
