"""台湾十六张 Taiwan 16: its room options, with their defaults and bounds (spec ``taiwan16.md``).

The authority on a room's options: the admin form, the API schema, the calculator's option boxes
and :meth:`rules.variant.Variant.validate_options` all read this tuple.
"""

from __future__ import annotations

from rules.i18n import N_, Label
from rules.options import BASE, HINTS, Option, cap, number

MAX_TAI_VALUE = 1000

OPTIONS: tuple[Option, ...] = (
    BASE,
    number(
        "tai_value",
        Label(
            N_("taiwan16", "每台"),
            N_(
                "taiwan16",
                "台湾十六张：每台的分值，每笔付 底分 + 台数 × 每台。(spec taiwan16.md, Tai)",
            ),
        ),
        default=1,
        minimum=0,
        maximum=MAX_TAI_VALUE,
    ),
    cap(None),
    HINTS,
)
