"""The rules' words in the request's language: one translation system, Django's catalogs.

``rules/`` marks what players read with ``N_(context, text)`` (:mod:`rules.i18n`) and never
translates; this module translates those marks with ``pgettext`` (the English is in
``config/locale/en``, found by ``makemessages`` through the keyword ``N_:1c,2``) and builds the
JSON the pages receive (``json_script``): the table page gets its variant's labels
(:func:`table_labels`), the calculator every variant's (:func:`calculator_labels`). Every key a
page can meet is in that JSON, so no page keeps a list of names of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import pgettext, pgettext_lazy

from rules.i18n import Label, Msg
from rules.labels import TILE_NAMES, WIN_BY
from rules.registry import JUDGED, VARIANTS, get_variant
from rules.tiles import tile_name
from rules.variant import Variant

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise  # dev-only package: annotations only


def text(msg: Msg) -> str:
    """A marked text in the active language."""
    return pgettext(msg.context, msg.text)


def lazy(msg: Msg) -> StrOrPromise:
    """A marked text translated when it is shown (model choices, form labels)."""
    return pgettext_lazy(msg.context, msg.text)


def label_json(label: Label) -> dict[str, str]:
    """``{"name": …, "rule": …}`` in the active language."""
    return {"name": text(label.name), "rule": text(label.rule)}


def tile_names() -> dict[str, str]:
    """Every tile's name by its mpsz notation (``"1m"`` → 一万 / "1 Character"), flowers too."""
    return {tile_name(tile): text(msg) for tile, msg in enumerate(TILE_NAMES)}


def win_by_labels() -> dict[str, dict[str, str]]:
    return {key: label_json(label) for key, label in WIN_BY.items()}


def variant_labels(variant: Variant) -> dict[str, Any]:
    """A variant's name, fan items, reasons and room options, in the active language."""
    return {
        "name": label_json(variant.name),
        "fan": {key: label_json(label) for key, label in variant.fan.items()},
        "reasons": {key: label_json(label) for key, label in variant.reasons.items()},
        "options": {option.key: label_json(option.label) for option in variant.options},
    }


def table_labels(variant_key: str) -> dict[str, Any]:
    """What the table page shows of the rules, for the room's variant: tile names (winds and
    dragons included), the ways of winning, the variant's fan items, reasons and options."""
    return {
        "tiles": tile_names(),
        "win_by": win_by_labels(),
        **variant_labels(get_variant(variant_key)),
    }


def calculator_labels() -> dict[str, Any]:
    """Every judged variant's labels (``shape`` included), by variant, for the calculator."""
    labels = {key: variant_labels(variant) for key, variant in JUDGED.items()}
    return {
        "tiles": tile_names(),
        "win_by": win_by_labels(),
        "variants": {key: entry["name"] for key, entry in labels.items()},
        "fan": {key: entry["fan"] for key, entry in labels.items()},
        "reasons": {key: entry["reasons"] for key, entry in labels.items()},
        "options": {key: entry["options"] for key, entry in labels.items()},
    }


def variant_name(key: str) -> str:
    """A variant's name in the active language (the key itself for an unknown one)."""
    variant = VARIANTS.get(key)
    return key if variant is None else text(variant.name.name)


def fan_name(key: str, variant_key: str | None = None) -> str:
    """A fan item's name in the active language (the key itself if unknown). A key means the
    same item in every variant that has it, so without ``variant_key`` the first variant naming
    it is used."""
    own = VARIANTS.get(variant_key) if variant_key is not None else None
    candidates = [own] if own is not None else list(VARIANTS.values())
    for variant in candidates:
        label = variant.fan.get(key)
        if label is not None:
            return text(label.name)
    return key


def win_by_name(win_by: str) -> str:
    label = WIN_BY.get(win_by)
    return win_by if label is None else text(label.name)
