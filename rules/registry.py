"""The registry: the one list of variants, which everything else reads.

Django's choices, the room options and their admin form, the API schema, the calculator and the
page labels are all built from :data:`VARIANTS`. A new variant is a new package under
``rules/variants/`` and one line here (its key and package).

>>> list(VARIANTS)
['changchun', 'harbin', 'siping', 'taiyuan_lisi', 'taiwan16', 'chengma']
>>> get_variant("harbin").options[0].key
'base'
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping

from rules.errors import InvalidCase, RulesError
from rules.variant import Variant


class _Registry(Mapping[str, Variant]):
    """Variants by key, in the order given; each variant's package is imported the first time
    it is asked for, so that ``python -m rules judge`` answering ``shape`` or Changchun cases
    does not import six variants' round flows first (a fifth of its time on 20,000 lines). Iterating
    the keys imports nothing; a value is its package's ``VARIANT``."""

    def __init__(self, packages: Mapping[str, str]) -> None:
        self._packages = dict(packages)
        self._loaded: dict[str, Variant] = {}

    def __getitem__(self, key: str) -> Variant:
        variant = self._loaded.get(key)
        if variant is None:
            variant = importlib.import_module(self._packages[key]).VARIANT
            if variant.key != key:
                raise RulesError(f"{self._packages[key]} holds {variant.key!r}, not {key!r}")
            self._loaded[key] = variant
        return variant

    def __iter__(self) -> Iterator[str]:
        return iter(self._packages)

    def __len__(self) -> int:
        return len(self._packages)

    def __contains__(self, key: object) -> bool:
        return key in self._packages


_PACKAGES = {
    "changchun": "rules.variants.changchun",
    "harbin": "rules.variants.harbin",
    "siping": "rules.variants.siping",
    "taiyuan_lisi": "rules.variants.taiyuan_lisi",
    "taiwan16": "rules.variants.taiwan16",
    "chengma": "rules.variants.chengma",
}

VARIANTS: Mapping[str, Variant] = _Registry(_PACKAGES)
"""Every variant a room can be played with, by key, in the order the site lists them."""

JUDGED: Mapping[str, Variant] = _Registry({**_PACKAGES, "shape": "rules.variants.shape"})
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
