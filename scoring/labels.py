"""Names of fan items and kongs for people, in Chinese and English (through gettext).

The engine names a fan item by a short pinyin key (``dianpao``, ``zimo`` …, see each variant's
*Scoring* table in ``spec/``); the ledger stores the key and its value, and the label is looked up
here when a page is rendered, so the same ledger reads in either language. An unknown key (a new
item added to the rules later) is shown as the key itself rather than failing.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from rules.labels import FAN, WIN_BY, Lang

KONG_LABELS: dict[str, Promise] = {
    "exposed": _("明杠"),
    "added": _("补杠"),
    "concealed": _("暗杠"),
    "xuanfeng": _("旋风杠"),
    "xi": _("喜杠"),
    "yao": _("幺蛋"),
    "jiu": _("九蛋"),
}


def _language() -> Lang:
    return "en" if (get_language() or "").lower().startswith("en") else "zh"


def fan_label(key: str, variant: str | None = None) -> str:
    """The fan item's name in the active language (the key itself if unknown).

    The names live in :mod:`rules.labels`, beside their rule texts, for every page that shows
    them (the calculator, the table, the ledgers); a key means the same item in every variant
    that has it, so without ``variant`` the first variant naming it is used.
    """
    tables = [FAN[variant]] if variant is not None and variant in FAN else list(FAN.values())
    for table in tables:
        if key in table:
            return table[key].name(_language())
    return key


def kong_label(kind: str) -> str:
    """A kong's name (``exposed``, ``added``, ``concealed`` or a special kong's name)."""
    label = KONG_LABELS.get(kind)
    return kind if label is None else str(label)


def win_by_label(win_by: str | None) -> str:
    if not win_by:
        return str(_("荒庄"))
    label = WIN_BY.get(win_by)
    return win_by if label is None else label.name(_language())
