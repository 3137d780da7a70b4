"""长春麻将 Changchun: its room options, with their defaults and bounds (spec ``changchun.md``).

The authority on a room's options: the admin form, the API schema, the calculator's option boxes
and :meth:`rules.variant.Variant.validate_options` all read this tuple.
"""

from __future__ import annotations

from rules.i18n import N_, Label
from rules.options import BASE, HINTS, Option, cap, flag

OPTIONS: tuple[Option, ...] = (
    BASE,
    cap(1000),
    flag(
        "ting_required",
        Label(
            N_("changchun", "必须报听才能胡"),
            N_(
                "changchun",
                "长春：默认不勾选——胡牌不要求先上听（种子未列此条件，2024 比赛规则允许）；"
                "摸宝、对宝的胡牌无论如何都要先上听。(spec changchun.md, Ting)",
            ),
        ),
    ),
    flag(
        "dianpao_quanbao",
        Label(
            N_("changchun", "点炮全包"),
            N_(
                "changchun",
                "长春：点炮者替另外两家付他们那份，另外两家不付；杠分不包。"
                "默认不勾选：三家都付，点炮者多付一番。(spec changchun.md, Payment)",
            ),
        ),
    ),
    HINTS,
)
