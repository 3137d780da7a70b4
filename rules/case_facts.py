"""What a judge case of a variant may say, as data for the calculator.

The 算番器 builds a judge case (judge.md, *A case*) from clicks; what it offers depends on the
variant: its tiles and hand size, whether it has a treasure (宝牌), flowers, chows, a cap, which
special kongs a hand may hold under which room option, and the ``extra`` facts "the hand alone
cannot show, named in each variant spec" (judge.md, ``extra``). Each variant's hand rules declare
those facts (:attr:`rules.hand_rules.HandRules.extra_facts`, an :class:`ExtraFact` each);
:func:`case_facts` turns a :class:`~rules.variant.Variant` into the JSON the page receives, so the
page's script never names a variant. The words are the rules' marks (:mod:`rules.i18n`), translated
by the web layer (``tables.labels.calculator_labels``).

>>> ROUND_WIND.key, ROUND_WIND.kind, ROUND_WIND.default, [v for v, _ in ROUND_WIND.choices]
('round_wind', 'choice', '1z', ['1z', '2z', '3z', '4z'])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from rules.i18n import N_, Label, Msg
from rules.tiles import NUM_KINDS

if TYPE_CHECKING:
    from rules.variant import Variant

FactKind = Literal["flag", "count", "tiles", "choice"]

SEATS = 4
"""Seats of a case (``dealer``, ``winner``, ``discarder`` are 0–3; people read 1–4)."""


@dataclass(frozen=True, slots=True)
class ExtraFact:
    """One ``extra`` key of a judge case (judge.md, ``extra``; the variant spec names it).

    ``kind``: ``flag`` (true or false), ``count`` (a whole number ≥ 0), ``tiles`` (mpsz text,
    Taiwan's ``"1f5f"`` flowers) or ``choice`` (one of ``choices``). ``on_ting``: a ting query
    (``kind: "ting"``) carries it too, else only a win. ``win_by``: the fact applies only to a
    win by one of these (成麻's 杠上炮 is a discard). ``requires``: only when that other fact is
    set (成麻's ``kong_money`` goes with ``after_kong``)."""

    key: str
    kind: FactKind
    label: Label
    default: bool | int | str = False
    choices: tuple[tuple[str, Msg], ...] = ()
    on_ting: bool = False
    win_by: tuple[str, ...] = ()
    requires: str = ""

    def as_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "kind": self.kind,
            "default": self.default,
            "choices": [value for value, _msg in self.choices],
            "on_ting": self.on_ting,
            "win_by": list(self.win_by),
            "requires": self.requires,
        }


WIND_CHOICES: tuple[tuple[str, Msg], ...] = (
    ("1z", N_("tile", "东")),
    ("2z", N_("tile", "南")),
    ("3z", N_("tile", "西")),
    ("4z", N_("tile", "北")),
)

ROUND_WIND = ExtraFact(
    "round_wind",
    "choice",
    Label(N_("extra", "圈风"), N_("extra", "这一圈的风（东南西北），默认东。")),
    default="1z",
    choices=WIND_CHOICES,
    on_ting=True,
)
"""``extra.round_wind`` (Siping, Taiwan 16: the round's wind, ``1z``–``4z``)."""

SPECIAL_KONG_NAMES: tuple[str, ...] = ("xuanfeng", "xi", "yao", "jiu")
"""Every special kong a case's meld may name (judge.md, ``melds``)."""


def special_kong_options(variant: Variant) -> list[list[str | None]]:
    """``[[kong, option or None], …]``: the special kongs a hand of ``variant`` may hold, each
    with the room flag that allows it (None: always), read from the hand rules'
    ``special_kongs`` under the defaults and with each flag switched on alone."""
    rules = variant.rules
    flags = [o.key for o in variant.options if o.is_flag]
    off = {**variant.default_options, **{key: False for key in flags}}
    always = rules.special_kongs(off)
    out: list[list[str | None]] = [[name, None] for name in SPECIAL_KONG_NAMES if name in always]
    for key in flags:
        added = rules.special_kongs({**off, key: True}) - always
        out.extend([name, key] for name in SPECIAL_KONG_NAMES if name in added)
    return out


def case_facts(variant: Variant) -> dict[str, Any]:
    """What the calculator needs to build ``variant``'s cases: the options that change a rule
    (defaults, bounds of numbers, values of choices, the numbers that may be empty), the tiles in
    use (no flowers: Taiwan's go in ``extra.flowers``), hand size, seats, treasure, chows, the
    unit of its items, the special kongs and the ``extra`` facts."""
    rules = variant.rules
    options = [o for o in variant.options if o.rule]
    return {
        "options": {o.key: o.default for o in options},
        "bounds": {
            o.key: [o.minimum, o.maximum] for o in options if not (o.is_flag or o.is_choice)
        },
        "choices": {o.key: [v for v, _label in o.choices] for o in options if o.is_choice},
        "nullable": [o.key for o in options if o.nullable],
        "tiles": sorted(t for t in rules.tiles_used if t < NUM_KINDS),
        "hand_size": rules.hand_size,
        "seats": SEATS,
        "treasure": rules.has_treasure,
        "chow": rules.has_chow,
        "unit": rules.item_unit,
        "special_kongs": special_kong_options(variant),
        "extra": [fact.as_json() for fact in rules.extra_facts],
    }
