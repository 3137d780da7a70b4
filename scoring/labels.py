"""Names of fan items and kongs for people, in Chinese and English (through gettext).

The engine names a fan item by a short pinyin key (``dianpao``, ``zimo`` …, see each variant's
*Scoring* table in ``spec/``); the ledger stores the key and its value, and the label is looked up
here when a page is rendered, so the same ledger reads in either language. An unknown key (a new
item added to the rules later) is shown as the key itself rather than failing. The names are the
rules' (each variant's ``labels.py``), translated by :mod:`tables.labels`.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from tables.labels import fan_name, unit_name, win_by_name

KONG_LABELS: dict[str, Promise] = {
    "exposed": _("明杠"),
    "added": _("补杠"),
    "concealed": _("暗杠"),
    "xuanfeng": _("旋风杠"),
    "xi": _("喜杠"),
    "yao": _("幺蛋"),
    "jiu": _("九蛋"),
}


PAYMENT_LABELS: dict[str, Promise] = {
    "win": _("胡牌"),
    "kong": _("杠分"),
    "zhuanyi": _("呼叫转移"),
    "huazhu": _("查花猪"),
    "chajiao": _("查大叫"),
    "tuishui": _("退税"),
}
"""The kinds of a labelled payment line (成麻's ledger)."""


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
    if not win_by:
        return str(_("荒庄"))
    return win_by_name(win_by)


def unit_label(variant: str) -> str:
    """What ``variant``'s win items count in: 番, 台 (Taiwan 16) or 分 (Li-Si's score)."""
    return unit_name(variant)
