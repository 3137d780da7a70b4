"""The flow side of each variant (:mod:`rules.variants.base`), by key: ``get_variant("changchun")``.

A variant registers itself in :data:`VARIANTS` below; win conditions and scoring are in
:mod:`rules.wins`.
"""

from __future__ import annotations

from functools import cache

from rules.errors import RulesError
from rules.variants.base import Variant
from rules.variants.changchun import Changchun
from rules.variants.harbin import Harbin
from rules.variants.siping import Siping
from rules.variants.taiwan16 import Taiwan16
from rules.variants.taiyuan_lisi import TaiyuanLisi

VARIANTS: dict[str, type[Variant]] = {
    Changchun.key: Changchun,
    Harbin.key: Harbin,
    Siping.key: Siping,
    TaiyuanLisi.key: TaiyuanLisi,
    Taiwan16.key: Taiwan16,
}


@cache
def get_variant(key: str) -> Variant:
    """The (cached) flow of variant ``key``; raises :class:`RulesError` for an unknown one."""
    try:
        return VARIANTS[key]()
    except KeyError:
        raise RulesError(f"unknown variant {key!r} (known: {', '.join(VARIANTS)})") from None


__all__ = ["VARIANTS", "Variant", "get_variant"]
