"""Forms of the event pages: create an event, add bots, forbid a pair, re-seat."""

from __future__ import annotations

from typing import Any, ClassVar

from django import forms
from django.utils.translation import gettext_lazy as _

from tables.models import BotLevel, Entrant, Tournament


class TournamentForm(forms.ModelForm):  # type: ignore[type-arg]
    """建比赛: the room options the tables are opened with, and the event's schedule."""

    placement = forms.CharField(
        label=_("顺位分"),
        initial="3,1,-1,-3",
        help_text=_("第一到第四名，用逗号分隔。"),
        max_length=40,
    )

    class Meta:
        model = Tournament
        fields: ClassVar[list[str]] = [
            "name",
            "variant",
            "base_stake",
            "turn_timeout_s",
            "claim_timeout_s",
            "rounds",
            "round_length",
            "hands_per_round",
            "starts_at",
            "registration_open",
            "fill_with_bots",
            "bot_level",
            "round_clock_min",
            "spectator_delay_s",
            "duplicate_walls",
            "round1",
        ]
        widgets: ClassVar[dict[str, Any]] = {
            "starts_at": forms.DateTimeInput(attrs={"type": "datetime-local"}),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Left out (an older page, a script): the round is N hands, as before wind rounds.
        self.fields["round_length"].required = False

    def clean_round_length(self) -> str:
        return str(self.cleaned_data.get("round_length") or Tournament.RoundLength.HANDS)

    def clean_placement(self) -> list[int]:
        raw = self.cleaned_data["placement"]
        try:
            return [int(part) for part in str(raw).replace("，", ",").split(",")]
        except ValueError as exc:
            raise forms.ValidationError(_("顺位分是四个整数。")) from exc


class BotsForm(forms.Form):
    count = forms.IntegerField(label=_("机器人数量"), min_value=1, max_value=64, initial=4)
    level = forms.ChoiceField(label=_("机器人水平"), choices=BotLevel.choices, initial="normal")


class PairForm(forms.Form):
    first = forms.ModelChoiceField(label=_("参赛者"), queryset=Entrant.objects.none())
    second = forms.ModelChoiceField(label=_("参赛者"), queryset=Entrant.objects.none())

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        rows = Entrant.objects.filter(tournament=tournament).select_related("user")
        for name in ("first", "second"):
            field = self.fields[name]
            assert isinstance(field, forms.ModelChoiceField)
            field.queryset = rows


class ReseatForm(forms.Form):
    entrant = forms.ModelChoiceField(label=_("缺席的参赛者"), queryset=Entrant.objects.none())
    reserve = forms.ModelChoiceField(
        label=_("替补（空：机器人）"), queryset=Entrant.objects.none(), required=False
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        rows = Entrant.objects.filter(tournament=tournament, withdrawn=False).select_related("user")
        for name in ("entrant", "reserve"):
            field = self.fields[name]
            assert isinstance(field, forms.ModelChoiceField)
            field.queryset = rows
