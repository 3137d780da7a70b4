"""哈尔滨麻将 Harbin: its room options, with their defaults and bounds (spec ``harbin.md``).

The authority on a room's options: the admin form, the API schema, the calculator's option boxes
and :meth:`rules.variant.Variant.validate_options` all read this tuple.
"""

from __future__ import annotations

from rules.i18n import N_, Label
from rules.options import BASE, HINTS, Option, cap, flag

OPTIONS: tuple[Option, ...] = (
    BASE,
    cap(None),
    flag(
        "dianpao_baosan",
        Label(
            N_("harbin", "点炮包三家"),
            N_(
                "harbin",
                "哈尔滨：点炮者付全部三份。默认不勾选：三家都付。(spec harbin.md, Scoring)",
            ),
        ),
    ),
    HINTS,
)
