"""Admin forms of the live tables: the room form with one field per room option (built from the
registry's option specs, :mod:`tables.room_options`), and the action bar that carries the reason
of a dissolution (网管解散)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.admin.helpers import ActionForm
from django.core.exceptions import ValidationError
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from rules.errors import RulesError
from rules.registry import VARIANTS
from tables import room_options as ro
from tables.forms import optional_bot_level, optional_spectator_delay
from tables.labels import lazy
from tables.models import BotLevel, Room, Variant


class RoomAdminForm(forms.ModelForm):  # type: ignore[type-arg]
    """A room with its options as checkboxes and number boxes instead of raw JSON."""

    class Meta:
        model = Room
        fields = (
            "club",
            "name",
            "variant",
            "base_stake",
            "turn_timeout_s",
            "claim_timeout_s",
            "allow_spectators",
            "allow_bots",
            "bot_level",
            "practice",
            "bot_hints",
            "spectator_delay_s",
        )
        help_texts = {  # noqa: RUF012  # Django reads a plain dict here
            "variant": _("玩法决定规则与下面哪些选项有效；开局时的玩法与选项随对局保存。"),
            "base_stake": _("底分：每笔胡牌与杠分按它计算（规则选项 base）。"),
            "turn_timeout_s": _(
                "轮到自己摸打时的思考时间，3–600 秒；超时自动出牌，连续两次进入托管。"
            ),
            "claim_timeout_s": _("吃、碰、杠、胡的决定时间，2–600 秒；超时视为过。"),
            "allow_spectators": _(
                "亲友圈成员可以旁观；实时旁观看不到手牌，设置了观战延迟时旁观者在延迟之后看到所有手牌。"
            ),
            "allow_bots": _("入座的玩家可以让机器人补满空位。"),
            "bot_level": _("补位机器人的默认水平（简单、普通、困难），也是托管代打的水平。"),
        }

    def clean_bot_level(self) -> str:
        return self.cleaned_data.get("bot_level") or BotLevel.NORMAL

    def clean_spectator_delay_s(self) -> int:
        return self.cleaned_data.get("spectator_delay_s") or 0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        optional_bot_level(self)
        optional_spectator_delay(self)
        current = dict(self.instance.options or {}) if self.instance.pk else {}
        for room_option in ro.FORM_OPTIONS:
            key = room_option.key
            if room_option.is_flag:
                self.initial[ro.field_name(key)] = bool(
                    current.get(key, room_option.option.default)
                )
            elif key in current:
                if room_option.is_choice:
                    self.initial[ro.field_name(key)] = current[key]
                elif current[key] is None:
                    self.initial[ro.null_field_name(key)] = True
                else:
                    self.initial[ro.field_name(key)] = current[key]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        variant = data.get("variant")
        if not variant:
            return data
        errors: dict[str, Any] = {}
        options = ro.variant_defaults(variant)  # a key no rule reads is dropped
        for room_option in ro.FORM_OPTIONS:
            _clean_option(room_option, variant, data, options, errors)
        options.pop("base", None)  # the room's base_stake (底分), written in by the checker
        if errors:
            raise ValidationError(errors)
        try:
            data["options"] = ro.room_options_validate(
                variant=variant, options=options, base_stake=data.get("base_stake") or 1
            )
        except ValidationError as exc:
            raise ValidationError({"variant": exc.messages}) from exc
        self.instance.options = data["options"]
        return data


def _clean_option(
    room_option: ro.RoomOption,
    variant: str,
    data: dict[str, Any],
    options: dict[str, Any],
    errors: dict[str, Any],
) -> None:
    """Put one option's field into ``options`` (or an error into ``errors``)."""
    key = room_option.key
    name = ro.field_name(key)
    applies = variant in room_option.variants
    foreign = _("这个选项不属于所选的玩法。")
    if room_option.is_flag:
        ticked = bool(data.get(name))
        if applies:
            options[key] = ticked
        elif ticked:
            errors[name] = foreign
        return
    value = data.get(name)
    if room_option.is_choice:
        if value and applies:
            options[key] = value
        elif value and value != room_option.option.default:
            errors[name] = foreign
        return
    if room_option.nullable and data.get(ro.null_field_name(key)):
        if value is not None:
            errors[name] = _("选了“%(none)s”时请把这一格留空。") % {
                "none": ro.NULL_LABELS.get(key, _("不设"))
            }
        elif applies:
            options[key] = None
        else:
            errors[name] = foreign
    elif value is not None:
        spec = VARIANTS[variant].option(key) if applies else None
        if spec is None:
            errors[name] = foreign
            return
        try:  # the field allows every variant's bounds (成麻's cap is in fan): check this one's
            spec.check(value)
        except RulesError as exc:
            errors[name] = str(exc)
            return
        options[key] = value


def _variant_names(room_option: ro.RoomOption) -> Any:
    """The variants an option belongs to, as the help text's prefix."""
    if len(room_option.variants) == len(VARIANTS):
        return _("全部玩法")
    labels = [Variant(v).label for v in room_option.variants]
    return format_lazy("、".join(["{}"] * len(labels)), *labels)


def _option_fields(room_option: ro.RoomOption) -> dict[str, forms.Field]:
    """The form field(s) of one option: a tick, or a number box (and a "no …" tick)."""
    help_text = format_lazy("[{}] {}", _variant_names(room_option), room_option.help_text)
    key = room_option.key
    if room_option.is_flag:
        return {
            ro.field_name(key): forms.BooleanField(
                label=room_option.label, required=False, help_text=help_text
            )
        }
    if room_option.is_choice:
        choices = [("", "—"), *((value, lazy(label.name)) for value, label in room_option.choices)]
        return {
            ro.field_name(key): forms.ChoiceField(
                label=room_option.label,
                required=False,
                choices=choices,
                help_text=format_lazy("{} {}", help_text, ro.EMPTY_HELP),
            )
        }
    fields: dict[str, forms.Field] = {
        ro.field_name(key): forms.IntegerField(
            label=room_option.label,
            required=False,
            min_value=room_option.minimum,
            max_value=room_option.maximum,
            help_text=format_lazy("{} {}", help_text, ro.EMPTY_HELP),
        )
    }
    if room_option.nullable:
        fields[ro.null_field_name(key)] = forms.BooleanField(
            label=ro.NULL_LABELS.get(key, _("不设")), required=False
        )
    return fields


# The option fields are declared fields (the admin's fieldsets name them), one per option.
for _room_option in ro.FORM_OPTIONS:
    for _name, _field in _option_fields(_room_option).items():
        RoomAdminForm.base_fields[_name] = _field
        RoomAdminForm.declared_fields[_name] = _field


class DissolveActionForm(ActionForm):
    """The admin action bar with a reason box, read by the 解散 action (required there)."""

    reason = forms.CharField(
        label=_("原因"),
        required=False,
        max_length=200,
        help_text=_("解散牌桌时必填：所有玩家和旁观者都会看到。"),
    )
