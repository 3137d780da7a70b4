"""Forms of the lobby: open a room, join one by its code."""

from __future__ import annotations

from typing import Any, ClassVar

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts import membership
from accounts.models import Club
from tables.models import BotLevel, Room


class RoomForm(forms.ModelForm):  # type: ignore[type-arg]
    """开房间: a club of the player's, a variant and the room options players care about."""

    class Meta:
        model = Room
        fields: ClassVar[list[str]] = [
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
        ]

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        club_field = self.fields["club"]
        assert isinstance(club_field, forms.ModelChoiceField)
        clubs = Club.objects.filter(pk__in=membership.active_club_ids(user)).order_by("name")
        club_field.queryset = clubs
        only = list(clubs.values_list("pk", flat=True)[:2])
        if len(only) == 1 and self.initial.get("club") is None:
            # The only club is chosen already: nothing to pick.
            self.initial["club"] = only[0]
        optional_bot_level(self)
        optional_spectator_delay(self)
        self.user = user

    def clean_bot_level(self) -> str:
        return self.cleaned_data.get("bot_level") or BotLevel.NORMAL

    def clean_spectator_delay_s(self) -> int:
        return self.cleaned_data.get("spectator_delay_s") or 0

    def clean(self) -> dict[str, Any]:
        """A spectator delay only from a manager of the chosen club (the service
        :func:`tables.rooms.room_create` checks it again)."""
        data = super().clean() or {}
        club = data.get("club")
        if (
            data.get("spectator_delay_s")
            and club is not None
            and not membership.may_manage_club(self.user, club.pk)
        ):
            self.add_error("spectator_delay_s", _("只有亲友圈的圈主或管理员可以设置观战延迟。"))
        return data


def optional_bot_level(form: forms.ModelForm) -> None:  # type: ignore[type-arg]
    """机器人水平 may be left out of a posted form (older pages, scripts): it is then 普通."""
    field = form.fields["bot_level"]
    field.required = False
    field.initial = field.initial or BotLevel.NORMAL


def optional_spectator_delay(form: forms.ModelForm) -> None:  # type: ignore[type-arg]
    """观战延迟 may be left out of a posted form (older pages, scripts): it is then 0 (live)."""
    field = form.fields["spectator_delay_s"]
    field.required = False
    field.initial = field.initial or 0


class JoinRoomForm(forms.Form):
    code = forms.CharField(
        label=_("房间邀请码"),
        max_length=16,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters"}),
    )
