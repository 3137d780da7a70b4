"""The room options (房间选项) of each variant, as the admin edits them: one form field per option.

``rules.wins.hand_rules(variant).validate_options`` stays the authority on values; this module adds
what a club manager needs to fill a room in without reading the spec: a label, the variant(s) the
option belongs to, its default and a help text taken from the spec section that defines it.

Decisions (the spec does not cover room editing):

* The room's 底分 ``base_stake`` is written into option ``base`` (the rules' name for 底分), so
  the two can never disagree; ``base`` therefore has no field of its own.
* ``cap`` is an integer, or "no cap" (null). Left empty it takes the variant's default (1000 for
  Changchun, no cap elsewhere), because an empty box meaning "no cap" would silently uncap a
  Changchun room.
* An option of another variant may not be ticked: it would be stored and do nothing, which is
  exactly the kind of silent misconfiguration that makes players distrust a room.
* Every path that stores a room's options (lobby form, API, admin, ``manage.py demo``) goes
  through :func:`room_options_validate`: the keys must be the variant's or the table's own
  (:data:`TABLE_OPTIONS`), every value of the right type and within bounds, ``base`` is the
  room's ``base_stake`` (底分), and the whole is small. An unknown key is refused, not stored
  (issue 14, items 5 and 6: a 2 MB unknown key was stored; the lobby form's 底分 5 was scored 1).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise  # dev-only package: annotations only


@dataclass(frozen=True)
class OptionSpec:
    """One room option: its key in ``Room.options``, the variants it applies to, its help."""

    key: str
    label: StrOrPromise
    variants: tuple[str, ...]
    help_text: StrOrPromise
    default: bool = False
    """The value of a room that never set the option (every rules option defaults to off)."""


ALL_VARIANTS = ("changchun", "harbin", "siping", "taiyuan_lisi", "taiwan16")

BOOLEAN_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "ting_required",
        _("必须报听才能胡"),
        ("changchun",),
        _(
            "长春：默认不勾选——胡牌不要求先上听（种子未列此条件，2024 比赛规则允许）；"
            "摸宝、对宝的胡牌无论如何都要先上听。(spec changchun.md, Ting)"
        ),
    ),
    OptionSpec(
        "dianpao_quanbao",
        _("点炮全包"),
        ("changchun",),
        _(
            "长春：点炮者替另外两家付他们那份，另外两家不付；杠分不包。默认不勾选："
            "三家都付，点炮者多付一番。(spec changchun.md, Payment)"
        ),
    ),
    OptionSpec(
        "dianpao_baosan",
        _("点炮包三家"),
        ("harbin",),
        _("哈尔滨：点炮者付全部三份。默认不勾选：三家都付。(spec harbin.md, Scoring)"),
    ),
    OptionSpec(
        "liting",
        _("立听"),
        ("siping",),
        _("四平：没开门的手牌也可报听并胡牌，计 liting 番。默认不勾选。(spec siping.md, 3)"),
    ),
    OptionSpec(
        "fengang",
        _("风杠"),
        ("siping",),
        _(
            "四平：东南西北各一张可作暗杠亮出，不算开门；之后每加一张风按补杠付分。"
            "默认不勾选。(spec siping.md, options)"
        ),
    ),
    OptionSpec(
        "zfbgang",
        _("中发白杠"),
        ("siping",),
        _("四平：中发白各一张同样可杠，按明杠付分。默认不勾选。(spec siping.md, options)"),
    ),
    OptionSpec(
        "chen_zfb",
        _("抻中发白"),
        ("siping",),
        _(
            "四平：手里有中发白中的两张时可听第三张，只能自摸，计 chen 番。"
            "默认不勾选。(spec siping.md, options)"
        ),
    ),
    OptionSpec(
        "no_baoting",
        _("不用报听"),
        ("siping",),
        _("四平：夹胡、飘胡都不要求报听。默认不勾选。(spec siping.md, 2)"),
    ),
    OptionSpec(
        "hints",
        _("听牌提示"),
        ALL_VARIANTS,
        _(
            "出牌时提示打哪张能听、听哪些牌、每张还剩几张没见过（只给自己看）。"
            "默认勾选；正式比赛可关闭。不影响规则。(issue 10)"
        ),
        default=True,
    ),
)

CAP_HELP = _(
    "封顶：每人每盘（胡牌与杠分合计）输赢的上限。留空取该玩法的默认值"
    "（长春 1000，其余不封顶）；勾选“不封顶”则不设上限。封顶后仍保证零和。"
    "(spec changchun.md, Cap)"
)

TAI_VALUE_HELP = _(
    "台湾十六张：每台的分值，每笔付 底分 + 台数 × 每台。留空取默认值 1。(spec taiwan16.md, Tai)"
)
TAI_VALUE_VARIANTS = ("taiwan16",)

OPTION_KEYS = frozenset({"base", "cap", "tai_value", *(o.key for o in BOOLEAN_OPTIONS)})


def field_name(key: str) -> str:
    """The form field of an option (prefixed so it never clashes with a model field)."""
    return f"opt_{key}"


def options_for_variant(variant: str) -> tuple[OptionSpec, ...]:
    return tuple(o for o in BOOLEAN_OPTIONS if variant in o.variants)


def variant_defaults(variant: str) -> dict[str, Any]:
    """The variant's defaults from the rules (empty for a variant the rules do not know)."""
    from rules.errors import RulesError
    from rules.wins import hand_rules

    try:
        return dict(hand_rules(variant).default_options)
    except RulesError:
        return {}


TABLE_OPTIONS = frozenset({"hints"})
"""Options of the table, not of the rules (every variant has them; booleans)."""
MAX_OPTIONS_BYTES = 1024
"""A room's options as JSON: a dozen flags and numbers take a few hundred bytes."""
STAKE_BOUNDS = (1, 1000)
"""底分 ``base_stake``: the bounds of the rules' ``base`` (rules.wins.base.OPTION_BOUNDS)."""


def room_options_validate(*, variant: str, options: object, base_stake: int) -> dict[str, Any]:
    """A room's options, checked and merged with the variant's defaults; ``ValidationError``
    ({"options": …} or {"base_stake": …}) names what is wrong.

    The one checker of every path (see the module docstring); the rules' own
    ``validate_options(strict=True)`` is the authority on the rules' options.
    """
    from rules.errors import RulesError
    from rules.wins import hand_rules

    if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
        raise ValidationError({"options": _("房间选项必须是一个 JSON 对象。")})
    if len(json.dumps(options, ensure_ascii=False, default=str)) > MAX_OPTIONS_BYTES:
        raise ValidationError({"options": _("房间选项太长。")})
    low, high = STAKE_BOUNDS
    if (
        isinstance(base_stake, bool)
        or not isinstance(base_stake, int)
        or not low <= base_stake <= high
    ):
        raise ValidationError({"base_stake": _("底分必须在 1 到 1000 之间。")})
    if options.get("base", base_stake) != base_stake:
        raise ValidationError({"options": _("选项 base 就是底分，请只填底分。")})
    table = {k: v for k, v in options.items() if k in TABLE_OPTIONS}
    for key, value in table.items():
        if not isinstance(value, bool):
            raise ValidationError(
                {"options": _("选项 %(key)s 必须是 true 或 false。") % {"key": key}}
            )
    rules_options = {k: v for k, v in options.items() if k not in TABLE_OPTIONS}
    try:
        merged = hand_rules(variant).validate_options(
            {**rules_options, "base": base_stake}, strict=True
        )
    except RulesError as exc:  # an unknown variant, key, type or bound
        raise ValidationError({"options": str(exc)}) from exc
    return {**merged, **table}
