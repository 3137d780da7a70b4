"""Admin forms of the live tables: the room form with one field per room option, and the
action bar that carries the reason of a dissolution (网管解散)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.admin.helpers import ActionForm
from django.core.exceptions import ValidationError
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from tables import room_options as ro
from tables.models import Room, Variant


class RoomAdminForm(forms.ModelForm):  # type: ignore[type-arg]
    """A room with its options as checkboxes and a cap box instead of raw JSON."""

    opt_cap = forms.IntegerField(
        label=_("封顶"), required=False, min_value=1, max_value=1_000_000, help_text=ro.CAP_HELP
    )
    opt_no_cap = forms.BooleanField(label=_("不封顶"), required=False)
    opt_tai_value = forms.IntegerField(
        label=_("每台"), required=False, min_value=0, max_value=1000, help_text=ro.TAI_VALUE_HELP
    )

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
        )
        help_texts = {  # noqa: RUF012  # Django reads a plain dict here
            "variant": _("玩法决定规则与下面哪些选项有效；开局时的玩法与选项随对局保存。"),
            "base_stake": _("底分：每笔胡牌与杠分按它计算（规则选项 base）。"),
            "turn_timeout_s": _(
                "轮到自己摸打时的思考时间，3–600 秒；超时自动出牌，连续两次进入托管。"
            ),
            "claim_timeout_s": _("吃、碰、杠、胡的决定时间，2–600 秒；超时视为过。"),
            "allow_spectators": _("亲友圈成员可以旁观；旁观者看不到任何人的手牌。"),
            "allow_bots": _("入座的玩家可以让机器人补满空位。"),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        current = dict(self.instance.options or {}) if self.instance.pk else {}
        if "cap" in current:
            if current["cap"] is None:
                self.initial["opt_no_cap"] = True
            else:
                self.initial["opt_cap"] = current["cap"]
        for spec in ro.BOOLEAN_OPTIONS:
            self.initial[ro.field_name(spec.key)] = bool(current.get(spec.key, spec.default))
        if "tai_value" in current:
            self.initial["opt_tai_value"] = current["tai_value"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        variant = data.get("variant")
        if not variant:
            return data
        errors: dict[str, Any] = {}
        options = ro.variant_defaults(variant)
        for spec in ro.BOOLEAN_OPTIONS:
            ticked = bool(data.get(ro.field_name(spec.key)))
            if variant in spec.variants:
                options[spec.key] = ticked
            elif ticked:
                errors[ro.field_name(spec.key)] = _("这个选项不属于所选的玩法。")
        if data.get("opt_no_cap"):
            if data.get("opt_cap") is not None:
                errors["opt_cap"] = _("不封顶时请把封顶留空。")
            options["cap"] = None
        elif data.get("opt_cap") is not None:
            options["cap"] = data["opt_cap"]
        if data.get("opt_tai_value") is not None:
            if variant in ro.TAI_VALUE_VARIANTS:
                options["tai_value"] = data["opt_tai_value"]
            else:
                errors["opt_tai_value"] = _("这个选项不属于所选的玩法。")
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


def _option_field(spec: ro.OptionSpec) -> forms.BooleanField:
    labels = [Variant(v).label for v in spec.variants]
    return forms.BooleanField(
        label=spec.label,
        required=False,
        help_text=format_lazy("[{}] {}", format_lazy("{}" * len(labels), *labels), spec.help_text),
    )


# The option checkboxes are declared fields (the admin's fieldsets name them), one per option.
for _spec in ro.BOOLEAN_OPTIONS:
    RoomAdminForm.base_fields[ro.field_name(_spec.key)] = _option_field(_spec)
    RoomAdminForm.declared_fields[ro.field_name(_spec.key)] = RoomAdminForm.base_fields[
        ro.field_name(_spec.key)
    ]


class DissolveActionForm(ActionForm):
    """The admin action bar with a reason box, read by the 解散 action (required there)."""

    reason = forms.CharField(
        label=_("原因"),
        required=False,
        max_length=200,
        help_text=_("解散牌桌时必填：所有玩家和旁观者都会看到。"),
    )
