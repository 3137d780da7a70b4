"""Forms of the account and club pages."""

from __future__ import annotations

from typing import Any, ClassVar

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from accounts.models import Club, User


class SignUpForm(UserCreationForm):  # type: ignore[type-arg]
    """Username, optional nickname and e-mail (needed only to reset a forgotten password)."""

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "display_name", "email")
        help_texts: ClassVar[dict[str, Any]] = {"email": _("可选；忘记密码时用来重置。")}


class ProfileForm(forms.ModelForm):  # type: ignore[type-arg]
    """What a player may change about themselves."""

    class Meta:
        model = User
        fields = ("display_name", "avatar_color", "language")
        widgets: ClassVar[dict[str, Any]] = {
            "avatar_color": forms.TextInput(attrs={"type": "color"})
        }


class ClubForm(forms.ModelForm):  # type: ignore[type-arg]
    """Name, description and join policy of a club (create and edit)."""

    class Meta:
        model = Club
        fields = ("name", "description", "join_policy")
        widgets: ClassVar[dict[str, Any]] = {"description": forms.Textarea(attrs={"rows": 3})}


class JoinClubForm(forms.Form):
    """An invite code, as a friend sent it (any case, dashes and blanks ignored)."""

    code = forms.CharField(
        label=_("邀请码"),
        max_length=24,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters"}),
    )
