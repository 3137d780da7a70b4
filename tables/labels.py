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

from django.utils.translation import get_language, pgettext, pgettext_lazy

from rules.case_facts import ExtraFact
from rules.i18n import Label, Msg
from rules.labels import KONG_NAMES as KONG_WORDS
from rules.labels import MARKS as MARK_WORDS
from rules.labels import MELD_NAMES, TILE_NAMES, UNIT_NAMES, WIN_BY
from rules.labels import SETTLEMENT_TERMS as SETTLEMENT_WORDS
from rules.labels import WIND_NAMES as WIND_WORDS
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
        # A choice option's values (成麻's 自摸: 加底, 加番, 不加), by option key and value.
        "choices": {
            option.key: {value: label_json(label) for value, label in option.choices}
            for option in variant.options
            if option.choices
        },
    }


def table_labels(variant_key: str) -> dict[str, Any]:
    """What the table page shows of the rules, for the room's variant: tile names (winds and
    dragons included), the ways of winning, the variant's fan items, reasons and options."""
    return {
        "tiles": tile_names(),
        "win_by": win_by_labels(),
        **variant_labels(get_variant(variant_key)),
    }


def fact_json(fact: ExtraFact) -> dict[str, Any]:
    """An ``extra`` fact's name and rule, and the names of its choices, in the active language."""
    return {**label_json(fact.label), "choices": {v: text(msg) for v, msg in fact.choices}}


def calculator_labels() -> dict[str, Any]:
    """Every judged variant's labels (``shape`` included), by variant, for the calculator: its
    fan items, reasons, options and the ``extra`` facts a case may carry
    (:mod:`rules.case_facts`), plus the names of melds and special kongs and the items' units."""
    labels = {key: variant_labels(variant) for key, variant in JUDGED.items()}
    return {
        "facts": {
            key: {fact.key: fact_json(fact) for fact in variant.rules.extra_facts}
            for key, variant in JUDGED.items()
        },
        "kongs": {key: text(msg) for key, msg in KONG_WORDS.items()},
        "melds": {key: text(msg) for key, msg in MELD_NAMES.items()},
        "units": {key: text(msg) for key, msg in UNIT_NAMES.items()},
        "tiles": tile_names(),
        "win_by": win_by_labels(),
        "variants": {key: entry["name"] for key, entry in labels.items()},
        "fan": {key: entry["fan"] for key, entry in labels.items()},
        "reasons": {key: entry["reasons"] for key, entry in labels.items()},
        "options": {key: entry["options"] for key, entry in labels.items()},
        "choices": {key: entry["choices"] for key, entry in labels.items()},
    }


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


# --- the words a page's scripts show ------------------------------------------------------------

WIND_NAMES: dict[str, StrOrPromise] = {key: lazy(msg) for key, msg in WIND_WORDS.items()}
"""A seat's or round's wind in one character (东 南 西 北; E S W N)."""

KONG_NAMES: dict[str, StrOrPromise] = {key: lazy(msg) for key, msg in KONG_WORDS.items()}
"""A kong by its kind (``rules.settlement.kong_name``)."""

SETTLEMENT_TERMS: dict[str, StrOrPromise] = {
    key: lazy(msg) for key, msg in SETTLEMENT_WORDS.items()
}
"""Words of a settlement line beyond the fan items (:mod:`rules.settlement`)."""

MARKS: dict[str, StrOrPromise] = {key: lazy(msg) for key, msg in MARK_WORDS.items()}
"""A seat's, tile's or round's mark (庄, 胡, 自摸, 点炮, 宝牌, 荒庄; ``rules.labels.MARKS``)."""

UNITS: dict[str, StrOrPromise] = {key: lazy(msg) for key, msg in UNIT_NAMES.items()}
"""What a variant's win items count in (``HandRules.item_unit``); payments are 分."""


def unit_name(variant_key: str) -> str:
    """What ``variant_key``'s win items count in: 番, 台 (Taiwan 16) or 分 (Li-Si's score)."""
    variant = VARIANTS.get(variant_key)
    unit = variant.rules.item_unit if variant is not None else "fan"
    return str(UNITS.get(unit, UNITS["fan"]))


def page_labels(variant_key: str | None = None) -> dict[str, Any]:
    """The rule words a page's scripts show (``{% rule_data %}``, the ``rules-labels`` block):
    the table's labels of the variant (:func:`table_labels`: tiles, ways of winning, fan items,
    reasons, options), or without ``variant_key`` every variant's fan items and reasons (the
    first one naming a key wins), plus the winds, kongs, settlement terms, units, marks and
    variant names, in the active language."""
    if variant_key is not None and variant_key in VARIANTS:
        labels = table_labels(variant_key)
    else:
        fan: dict[str, dict[str, str]] = {}
        reasons: dict[str, dict[str, str]] = {}
        for variant in VARIANTS.values():
            for key, label in variant.fan.items():
                fan.setdefault(key, label_json(label))
            for key, label in variant.reasons.items():
                reasons.setdefault(key, label_json(label))
        labels = {"tiles": tile_names(), "win_by": win_by_labels(), "fan": fan, "reasons": reasons}
    words: dict[str, dict[str, str]] = {}
    found = VARIANTS.get(variant_key) if variant_key is not None else None
    chosen = [found] if found is not None else list(VARIANTS.values())
    for variant in chosen:  # a variant's own word groups (成麻: suits, settle)
        for group, entries in variant.words.items():
            for key, label in entries.items():
                words.setdefault(group, {}).setdefault(key, text(label.name))
    labels.update(words)
    language = get_language() or ""
    labels.update(
        {
            "lang": "en" if language.startswith("en") else "zh",
            "variant": variant_key,
            "variants": {key: text(variant.name.name) for key, variant in VARIANTS.items()},
            "winds": {key: str(name) for key, name in WIND_NAMES.items()},
            "kongs": {key: str(name) for key, name in KONG_NAMES.items()},
            "terms": {key: str(name) for key, name in SETTLEMENT_TERMS.items()},
            "units": {key: str(name) for key, name in UNITS.items()},
            "marks": {key: str(name) for key, name in MARKS.items()},
        }
    )
    return labels
