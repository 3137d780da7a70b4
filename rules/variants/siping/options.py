"""四平麻将 Siping: its room options, with their defaults and bounds (spec ``siping.md``).

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
        "liting",
        Label(
            N_("siping", "立听"),
            N_(
                "siping",
                "四平：没开门的手牌也可报听并胡牌，计 liting 番。默认不勾选。(spec siping.md, 3)",
            ),
        ),
    ),
    flag(
        "fengang",
        Label(
            N_("siping", "风杠"),
            N_(
                "siping",
                "四平：东南西北各一张可作暗杠亮出，不算开门；之后每加一张风按补杠付分。"
                "默认不勾选。(spec siping.md, options)",
            ),
        ),
    ),
    flag(
        "zfbgang",
        Label(
            N_("siping", "中发白杠"),
            N_(
                "siping",
                "四平：中发白各一张同样可杠，按明杠付分。默认不勾选。(spec siping.md, options)",
            ),
        ),
    ),
    flag(
        "chen_zfb",
        Label(
            N_("siping", "抻中发白"),
            N_(
                "siping",
                "四平：手里有中发白中的两张时可听第三张，只能自摸，计 chen 番。默认不勾选。"
                "(spec siping.md, options)",
            ),
        ),
    ),
    flag(
        "no_baoting",
        Label(
            N_("siping", "不用报听"),
            N_(
                "siping",
                "四平：夹胡、飘胡都不要求报听。默认不勾选。(spec siping.md, 2)",
            ),
        ),
    ),
    HINTS,
)
