"""The room options (房间选项) as the admin and the API show them, built from the registry.

Every variant lists its own options with their types, defaults and bounds
(``rules/variants/<key>/options.py``, :mod:`rules.options`); this module gathers them by key for
the web layer: which variants have each option, its label and rule text (translated), its form
field and its piece of the API schema. :meth:`rules.variant.Variant.validate_options` stays the
authority on values.

Decisions (the spec does not cover room editing):

* The room's 底分 ``base_stake`` is written into option ``base`` (the rules' name for 底分), so
  the two can never disagree; ``base`` therefore has no field of its own.
* A number that may be null (``cap``: "no cap") has a box and a "no …" tick. Left empty it
  takes the variant's default (1000 for Changchun, no cap elsewhere), because an empty box
  meaning "no cap" would silently uncap a Changchun room.
* An option of another variant may not be set: it would be stored and do nothing, which is
  exactly the kind of silent misconfiguration that makes players distrust a room.
* Every path that stores a room's options (lobby form, API, admin, ``manage.py demo``) goes
  through :func:`room_options_validate`: the keys must be the variant's (its rule options and
  ``hints``), every value of the right type and within its bounds, ``base`` is the room's
  ``base_stake`` (底分), and the whole is small. An unknown key is refused, not stored (a 2 MB
  unknown key was stored once; the lobby form's 底分 5 was scored 1).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from rules.errors import RulesError
from rules.options import Option
from rules.registry import VARIANTS
from tables.labels import lazy

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise  # dev-only package: annotations only

FORM_EXCLUDED = frozenset({"base"})
"""Options with no field of their own (``base`` is the room's 底分)."""
NULL_LABELS: Mapping[str, StrOrPromise] = {"cap": _("不封顶")}
"""The tick of a nullable number (its "no …" choice)."""
EMPTY_HELP = _("留空取该玩法的默认值。")


@dataclass(frozen=True)
class RoomOption:
    """One option key across the variants that have it (``option``: the first one's spec)."""

    key: str
    option: Option
    variants: tuple[str, ...]

    @property
    def label(self) -> StrOrPromise:
        return lazy(self.option.label.name)

    @property
    def help_text(self) -> StrOrPromise:
        return lazy(self.option.label.rule)

    @property
    def is_flag(self) -> bool:
        return self.option.is_flag

    @property
    def is_choice(self) -> bool:
        return self.option.is_choice

    @property
    def choices(self) -> tuple[tuple[str, Any], ...]:
        """A choice option's values with their labels (成麻's ``zimo``)."""
        return self.option.choices

    @property
    def minimum(self) -> int:
        """The lowest bound any of its variants allows (each variant checks its own)."""
        return min(spec.minimum for spec in self.specs())

    @property
    def maximum(self) -> int:
        return max(spec.maximum for spec in self.specs())

    @property
    def nullable(self) -> bool:
        return any(spec.nullable for spec in self.specs())

    def specs(self) -> list[Option]:
        """The option as each of its variants defines it."""
        return [spec for v in self.variants if (spec := VARIANTS[v].option(self.key)) is not None]


def _gather() -> tuple[RoomOption, ...]:
    found: dict[str, RoomOption] = {}
    for key, variant in VARIANTS.items():
        for option in variant.options:
            known = found.get(option.key)
            if known is None:
                found[option.key] = RoomOption(option.key, option, (key,))
            else:
                found[option.key] = RoomOption(known.key, known.option, (*known.variants, key))
    return tuple(found.values())


ROOM_OPTIONS: tuple[RoomOption, ...] = _gather()
"""Every option of every variant, once per key, in the order the variants list them."""
FORM_OPTIONS: tuple[RoomOption, ...] = tuple(o for o in ROOM_OPTIONS if o.key not in FORM_EXCLUDED)
OPTION_KEYS = frozenset(o.key for o in ROOM_OPTIONS)


def field_name(key: str) -> str:
    """The form field of an option (prefixed so it never clashes with a model field)."""
    return f"opt_{key}"


def null_field_name(key: str) -> str:
    """The "no …" tick of a nullable number."""
    return f"opt_no_{key}"


def form_field_names() -> tuple[str, ...]:
    """The option fields of the room form, in order (the admin's fieldset lists them)."""
    names: list[str] = []
    for room_option in FORM_OPTIONS:
        names.append(field_name(room_option.key))
        if room_option.nullable:
            names.append(null_field_name(room_option.key))
    return tuple(names)


def variant_defaults(variant: str) -> dict[str, Any]:
    """The variant's defaults from the rules (empty for a variant the rules do not know)."""
    found = VARIANTS.get(variant)
    return {} if found is None else found.default_options


MAX_OPTIONS_BYTES = 1024
"""A room's options as JSON: a dozen flags and numbers take a few hundred bytes."""


SPECTATOR_DELAY_MAX_S = 1800
"""The longest spectator delay a room may have (3 minutes by default for an event)."""


def room_options_validate(
    *, variant: str, options: object, base_stake: int, spectator_delay_s: object = 0
) -> dict[str, Any]:
    """A room's options, checked and merged with the variant's defaults; ``ValidationError``
    ({"options": …}, {"base_stake": …}, {"spectator_delay_s": …} or {"variant": …}) names what
    is wrong.

    The one checker of every path (see the module docstring). The variant's option specs
    (:meth:`rules.variant.Variant.validate_options`: types, bounds, unknown keys refused) are the
    authority; ``base`` is the room's ``base_stake`` (底分), within the bounds of ``base``;
    ``spectator_delay_s`` (delayed spectating) is a whole number of seconds from 0 to
    :data:`SPECTATOR_DELAY_MAX_S`.
    """
    if (
        isinstance(spectator_delay_s, bool)
        or not isinstance(spectator_delay_s, int)
        or not 0 <= spectator_delay_s <= SPECTATOR_DELAY_MAX_S
    ):
        raise ValidationError(
            {
                "spectator_delay_s": _("观战延迟必须在 %(low)s 到 %(high)s 秒之间。")
                % {"low": 0, "high": SPECTATOR_DELAY_MAX_S}
            }
        )
    if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
        raise ValidationError({"options": _("房间选项必须是一个 JSON 对象。")})
    if len(json.dumps(options, ensure_ascii=False, default=str)) > MAX_OPTIONS_BYTES:
        raise ValidationError({"options": _("房间选项太长。")})
    found = VARIANTS.get(variant)
    if found is None:
        raise ValidationError({"variant": _("没有这个玩法。")})
    base = found.option("base")
    assert base is not None, "every variant has the option base (rules.options.BASE)"
    if (
        isinstance(base_stake, bool)
        or not isinstance(base_stake, int)
        or not base.minimum <= base_stake <= base.maximum
    ):
        raise ValidationError(
            {
                "base_stake": _("底分必须在 %(low)s 到 %(high)s 之间。")
                % {"low": base.minimum, "high": base.maximum}
            }
        )
    if options.get("base", base_stake) != base_stake:
        raise ValidationError({"options": _("选项 base 就是底分，请只填底分。")})
    try:
        return found.validate_options({**options, "base": base_stake}, keep_unknown=False)
    except RulesError as exc:  # an unknown key, a wrong type, a value out of bounds
        raise ValidationError({"options": str(exc)}) from exc


def options_schema(*, keep_unknown: bool) -> dict[str, Any]:
    """The OpenAPI schema of a room's (or a judge case's) ``options``: every option of every
    variant, with its type, bounds and the variants that have it (each has its own defaults).
    A room refuses unknown keys; the judge ignores them (judge.md)."""
    properties: dict[str, Any] = {}
    for room_option in ROOM_OPTIONS:
        option = room_option.option
        entry: dict[str, Any] = {
            "description": f"{option.label.name.text} · {option.label.rule.text} "
            f"(variants: {', '.join(room_option.variants)})",
        }
        if option.is_flag:
            entry["type"] = "boolean"
        elif option.is_choice:
            entry.update(type="string", enum=[value for value, _label in option.choices])
        else:
            entry.update(type="integer", minimum=room_option.minimum, maximum=room_option.maximum)
            if room_option.nullable:
                entry["nullable"] = True
        properties[room_option.key] = entry
    unknown = "Unknown keys are ignored." if keep_unknown else "Unknown keys are refused."
    return {
        "type": "object",
        "description": "Room options (房间选项) of the variant; its defaults fill in what is "
        f"left out. {unknown}",
        "properties": properties,
        "additionalProperties": keep_unknown,
    }
