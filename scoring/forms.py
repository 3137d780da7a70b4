"""Filters of the history and leaderboard pages (GET forms: the URL is the shareable state)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import Club
from scoring.selectors import member_club_ids
from tables.models import Variant

PERIOD_CHOICES = (("week", _("近7天")), ("month", _("近30天")), ("all", _("全部")))


def _club_choices(user: Any) -> list[tuple[str, str]]:
    clubs = Club.objects.filter(pk__in=member_club_ids(user)).order_by("name")
    return [(str(c.pk), c.name) for c in clubs]


class MatchFilterForm(forms.Form):
    """我的对局 filters: variant, club and a date range (of the match's start)."""

    variant = forms.ChoiceField(
        label=_("玩法"), required=False, choices=[("", _("全部玩法")), *Variant.choices]
    )
    club = forms.ChoiceField(label=_("亲友圈"), required=False)
    since = forms.DateField(
        label=_("从"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    until = forms.DateField(
        label=_("到"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        club = self.fields["club"]
        assert isinstance(club, forms.ChoiceField)
        club.choices = [("", _("全部亲友圈")), *_club_choices(user)]


class LeaderboardForm(forms.Form):
    """排行榜: one club (or all), one variant (or all), a period, the sort, and whether the bots
    show (hidden by default: players look for people; the bots are rated all the same)."""

    club = forms.ChoiceField(label=_("亲友圈"), required=False)
    variant = forms.ChoiceField(
        label=_("玩法"), required=False, choices=[("", _("全部玩法")), *Variant.choices]
    )
    period = forms.ChoiceField(
        label=_("时间"), required=False, choices=PERIOD_CHOICES, initial="all"
    )
    order = forms.ChoiceField(
        label=_("排序"),
        required=False,
        choices=(("net", _("按积分")), ("rating", _("按等级分"))),
        initial="net",
    )
    bots = forms.BooleanField(label=_("显示机器人"), required=False)

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        club = self.fields["club"]
        assert isinstance(club, forms.ChoiceField)
        club.choices = [("", _("所有亲友圈")), *_club_choices(user)]
