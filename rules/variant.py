"""One variant, one object: everything the engine, the judge and the web layer know about it.

A :class:`Variant` is built once in its package (``rules/variants/<key>/__init__.py``) and listed
in the registry (:mod:`rules.registry`). It holds

* ``flow``: the round flow, a :class:`~rules.engine.flow.Flow` (the hooks the engine core asks);
* ``rules``: the hand rules, a :class:`~rules.wins.base.HandRules` (winning conditions, fan and
  payments: what the judge answers and the engine asks);
* ``options``: its room options with their defaults and bounds (:mod:`rules.options`);
* ``name``, ``fan`` and ``reasons``: the labels players read (:mod:`rules.i18n`).

The engine receives the object itself (``new_round(variant=VARIANTS["changchun"], …)``) and a
round state carries it, so the core never looks a variant up and never imports a variant; the
web layer builds its choices, option forms, schema and page labels from the registry.

Variants are compared by identity (there is one object per variant); a state stores only the
key when it is written as JSON (:mod:`rules.persist`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rules.i18n import Label
from rules.options import Option, validate_options

if TYPE_CHECKING:
    from rules.engine.flow import Flow
    from rules.wins.base import HandRules


@dataclass(frozen=True, eq=False, slots=True)
class Variant:
    """A regional variant: its key, flow, hand rules, room options and labels."""

    key: str
    name: Label
    flow: Flow
    rules: HandRules
    options: tuple[Option, ...]
    fan: Mapping[str, Label] = field(default_factory=dict)
    """Fan (or points, or tai) item key → label, for every key the hand rules can score."""
    reasons: Mapping[str, Label] = field(default_factory=dict)
    """Reason key (a refused win's or ting's ``reason``) → label, the shared ones included."""
    words: Mapping[str, Mapping[str, Label]] = field(default_factory=dict)
    """The variant's own groups of words for its pages (成麻: ``suits`` for 定缺, ``settle``
    for 呼叫转移 and the end-of-wall checks), group → key → label."""

    def __repr__(self) -> str:
        return f"<Variant {self.key}>"

    def __copy__(self) -> Variant:
        return self  # one object per variant: a copied state plays the same variant

    def __deepcopy__(self, memo: dict[int, Any]) -> Variant:
        return self

    @property
    def default_options(self) -> dict[str, Any]:
        """Every room option of the variant with its default."""
        return {option.key: option.default for option in self.options}

    def option(self, key: str) -> Option | None:
        """The room option ``key`` of this variant, if it has one."""
        return next((option for option in self.options if option.key == key), None)

    def validate_options(self, given: Any, *, keep_unknown: bool = True) -> dict[str, Any]:
        """``given`` checked against the variant's options and merged with their defaults
        (:func:`rules.options.validate_options`; raises :class:`~rules.errors.InvalidCase`)."""
        return validate_options(self.options, given, keep_unknown=keep_unknown)

    def label(self, key: str) -> Label | None:
        """The label of a fan item or a reason key of this variant (None if it has none)."""
        return self.fan.get(key) or self.reasons.get(key)
