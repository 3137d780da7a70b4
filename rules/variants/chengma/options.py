"""成麻 Chengdu: its room options, with their defaults and bounds (spec ``chengma.md``, *Options*).

The authority on a room's options: the admin form, the API schema, the calculator's option boxes
and :meth:`rules.variant.Variant.validate_options` all read this tuple.
"""

from __future__ import annotations

from rules.i18n import N_, Label
from rules.options import BASE, HINTS, Option, choice, flag, number

MAX_CAP_FAN = 20
"""A cap above 20 fan is no cap in practice (the largest hand scores 5 + 2 + 4 + 1 …)."""
MAX_HUAZHU = 1000

OPTIONS: tuple[Option, ...] = (
    BASE,
    number(
        "cap",
        Label(
            N_("chengma", "封顶（番）"),
            N_("chengma", "成麻：每笔胡牌最多按几番付（默认 3 番，即 8 倍底分）；空为不封顶。"),
        ),
        default=3,
        minimum=0,
        maximum=MAX_CAP_FAN,
        nullable=True,
    ),
    choice(
        "zimo",
        Label(
            N_("chengma", "自摸"),
            N_("chengma", "自摸加底（每家多付 1 底，默认）、自摸加番（+1 番）或不加。"),
        ),
        default="jiadi",
        choices=(
            ("jiadi", Label(N_("chengma", "自摸加底"), N_("chengma", "自摸时每家多付 1 底。"))),
            ("jiafan", Label(N_("chengma", "自摸加番"), N_("chengma", "自摸算 1 番。"))),
            ("none", Label(N_("chengma", "不加"), N_("chengma", "自摸不另加。"))),
        ),
    ),
    number(
        "huazhu",
        Label(
            N_("chengma", "查花猪"),
            N_("chengma", "流局时花猪付给每家未胡且不是花猪的玩家的底数（默认 16 底）。"),
        ),
        default=16,
        minimum=0,
        maximum=MAX_HUAZHU,
    ),
    flag(
        "hujiao_zhuanyi",
        Label(
            N_("chengma", "呼叫转移"),
            N_("chengma", "杠后打出的牌被胡（杠上炮），这次杠收的钱转给胡牌者。默认勾选。"),
        ),
        default=True,
    ),
    flag(
        "yaojiu_jiangdui",
        Label(
            N_("chengma", "幺九将对"),
            N_("chengma", "计带幺九（2 番）和将对（3 番）。默认勾选。"),
        ),
        default=True,
    ),
    flag(
        "tiandihu",
        Label(
            N_("chengma", "天地胡"),
            N_("chengma", "计天胡、地胡（5 番，代替其他各项）。默认勾选。"),
        ),
        default=True,
    ),
    flag(
        "huansanzhang",
        Label(
            N_("chengma", "换三张"),
            N_("chengma", "发牌后每家选同一门三张牌，随机方向交换，再定缺。默认不勾选。"),
        ),
    ),
    HINTS,
)
