"""Room options (房间选项): each variant lists its own, with their types, defaults and bounds.

An :class:`Option` is one key of a room's options: a flag (true or false) or a whole number with
a lower and an upper bound (and, for ``cap``, ``null`` for "no cap"). A variant's options are a
tuple of them (``rules/variants/<key>/options.py``); :func:`validate_options` checks a room's (or
a judge case's) options against them and merges the defaults. The web layer builds its form
fields, the admin, the API schema and the calculator's option boxes from the same tuple.

Options shared by every variant are defined here: ``base`` (底分), ``cap`` (封顶, with the
variant's default) and ``hints`` (听牌提示, a display option that changes no rule).

>>> BASE.check(5)
>>> validate_options((BASE, HINTS), {"base": 2, "house": "x"})
{'base': 2, 'hints': True, 'house': 'x'}
>>> validate_options((BASE,), {"base": 0})
Traceback (most recent call last):
rules.errors.InvalidCase: option base must be positive, got 0
>>> cap(1000).check(10**12)
Traceback (most recent call last):
rules.errors.InvalidCase: option cap must be at most 1000000, got 1000000000000
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.errors import InvalidCase
from rules.i18n import N_, Label

OptionValue = bool | int | str | None


@dataclass(frozen=True, slots=True)
class Option:
    """One room option: a flag when ``default`` is a bool, a choice among ``choices`` (strings)
    when it is a string, else a whole number in ``minimum..maximum`` (``nullable``: ``None`` is
    allowed too, e.g. "no cap").

    ``rule``: the option changes the rules (every option but a display one such as ``hints``,
    which the calculator therefore does not offer)."""

    key: str
    default: OptionValue
    label: Label
    minimum: int = 0
    maximum: int = 0
    nullable: bool = False
    rule: bool = True
    choices: tuple[tuple[str, Label], ...] = ()
    """A choice option's values with their labels, the default first or not (成麻's ``zimo``)."""

    @property
    def is_flag(self) -> bool:
        return isinstance(self.default, bool)

    @property
    def is_choice(self) -> bool:
        return bool(self.choices)

    def check(self, value: Any) -> None:
        """Raise :class:`InvalidCase` unless ``value`` is allowed for this option."""
        if self.is_flag:
            if not isinstance(value, bool):
                raise InvalidCase(f"option {self.key} must be true or false, got {value!r}")
            return
        if self.is_choice:
            allowed = [value_ for value_, _ in self.choices]
            if not isinstance(value, str) or value not in allowed:
                raise InvalidCase(
                    f"option {self.key} must be one of {', '.join(allowed)}, got {value!r}"
                )
            return
        if value is None and self.nullable:
            return
        if not isinstance(value, int) or isinstance(value, bool):
            kind = "an integer or null" if self.nullable else "an integer"
            raise InvalidCase(f"option {self.key} must be {kind}, got {value!r}")
        if value < self.minimum:
            word = "positive" if self.minimum == 1 else f"at least {self.minimum}"
            raise InvalidCase(f"option {self.key} must be {word}, got {value!r}")
        if value > self.maximum:
            raise InvalidCase(f"option {self.key} must be at most {self.maximum}, got {value!r}")


def flag(key: str, label: Label, *, default: bool = False, rule: bool = True) -> Option:
    """A true/false option (off unless said)."""
    return Option(key, default, label, rule=rule)


def number(
    key: str,
    label: Label,
    *,
    default: int | None,
    minimum: int,
    maximum: int,
    nullable: bool = False,
) -> Option:
    """A whole-number option within ``minimum..maximum`` (``nullable``: or ``None``)."""
    if default is None and not nullable:
        raise ValueError(f"option {key}: a default of None needs nullable=True")
    return Option(key, default, label, minimum, maximum, nullable)


def choice(
    key: str, label: Label, *, default: str, choices: tuple[tuple[str, Label], ...]
) -> Option:
    """An option taking one of ``choices`` (strings, each with its label)."""
    if default not in [value for value, _ in choices]:
        raise ValueError(f"option {key}: the default {default!r} is not a choice")
    return Option(key, default, label, choices=choices)


def validate_options(
    options: Sequence[Option], given: Any, *, keep_unknown: bool = True
) -> dict[str, Any]:
    """``given`` merged with the defaults of ``options``; a known key with a value of the wrong
    type or out of bounds raises :class:`InvalidCase`. Unknown keys are kept as they are
    (judge.md: "Unknown option keys are ignored") unless ``keep_unknown`` is false, when they
    are refused."""
    if not isinstance(given, Mapping):
        raise InvalidCase("options must be an object")
    known = {option.key: option for option in options}
    merged: dict[str, Any] = {option.key: option.default for option in options}
    for key, value in given.items():
        option = known.get(key)
        if option is not None:
            option.check(value)
        elif not keep_unknown:
            raise InvalidCase(f"unknown option {key!r}")
        merged[key] = value
    return merged


# --- the options every variant has ---------------------------------------------------------

MAX_BASE = 1000
MAX_CAP = 1_000_000
"""Bounds of the integer options (a ``cap`` of 10^12 through the API made every
settlement of its room fail, "integer out of range"). A 底分 of 1000 with a win of 20 fan stays a
64-bit number, and nobody plays for more."""

BASE = number(
    "base",
    Label(N_("option", "底分"), N_("option", "底分：每笔胡牌与杠分按它计算。")),
    default=1,
    minimum=1,
    maximum=MAX_BASE,
)

CAP_LABEL = Label(
    N_("option", "封顶"),
    N_(
        "option",
        "封顶：每人每盘（胡牌与杠分合计）输赢的上限；空为不封顶。封顶后仍保证零和。"
        "(spec changchun.md, Cap)",
    ),
)


def cap(default: int | None) -> Option:
    """封顶 with the variant's default (``None``: no cap)."""
    return number("cap", CAP_LABEL, default=default, minimum=1, maximum=MAX_CAP, nullable=True)


HINTS = flag(
    "hints",
    Label(
        N_("option", "听牌提示"),
        N_(
            "option",
            "出牌时提示打哪张能听、听哪些牌、每张还剩几张没见过（只给自己看）。"
            "默认勾选；正式比赛可关闭。不影响规则。",
        ),
    ),
    default=True,
    rule=False,
)
