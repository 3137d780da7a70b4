"""The registry: the one list of variants, which everything else reads.

Django's choices, the room options and their admin form, the API schema, the calculator and the
page labels are all built from :data:`VARIANTS`. A new variant is a new package under
``rules/variants/`` and one line here (with its name in the import).

>>> list(VARIANTS)
['changchun', 'harbin', 'siping', 'taiyuan_lisi', 'taiwan16', 'chengma']
>>> get_variant("harbin").options[0].key
'base'
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.errors import InvalidCase, RulesError
from rules.variant import Variant
from rules.variants import changchun, chengma, harbin, siping, taiwan16, taiyuan_lisi
from rules.wins.shape import SHAPE


def _by_key(*variants: Variant) -> Mapping[str, Variant]:
    return {variant.key: variant for variant in variants}


VARIANTS: Mapping[str, Variant] = _by_key(
    changchun.VARIANT,
    harbin.VARIANT,
    siping.VARIANT,
    taiyuan_lisi.VARIANT,
    taiwan16.VARIANT,
    chengma.VARIANT,
)
"""Every variant a room can be played with, by key, in the order the site lists them."""

JUDGED: Mapping[str, Variant] = {**VARIANTS, SHAPE.key: SHAPE}
"""What the judge answers for: every variant and the ``shape`` pseudo-variant (judge.md)."""


def get_variant(key: str) -> Variant:
    """The variant ``key``; raises :class:`RulesError` for an unknown one."""
    try:
        return VARIANTS[key]
    except KeyError:
        raise RulesError(f"unknown variant {key!r} (known: {', '.join(VARIANTS)})") from None


def judged_variant(key: str) -> Variant:
    """A variant or ``shape``, for the judge; raises :class:`InvalidCase` for an unknown key."""
    try:
        return JUDGED[key]
    except KeyError:
        raise InvalidCase(f"unknown variant {key!r}") from None
