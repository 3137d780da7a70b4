"""Players and clubs (亲友圈).

A club is the private circle of friends a table is opened in: every room belongs to one club, and a
player may belong to several clubs. Membership has a role (owner / admin / member) and a status
(active / pending, the latter when the club admits by approval).
"""

from __future__ import annotations

import hashlib
import unicodedata
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.codes import unique_code

# A pleasant palette for avatars; the default colour is picked from it by a hash of the username so
# that a player keeps the same colour everywhere until they choose another.
AVATAR_PALETTE = (
    "#c0392b",
    "#d35400",
    "#b7950b",
    "#27ae60",
    "#16a085",
    "#2980b9",
    "#8e44ad",
    "#2c3e50",
    "#7f8c8d",
    "#a93226",
    "#1e8449",
    "#6c3483",
)

hex_colour_validator = RegexValidator(
    r"^#[0-9a-fA-F]{6}$", _("请输入 #RRGGBB 形式的颜色，例如 #2980b9。")
)


def default_avatar_colour(username: str) -> str:
    """The avatar colour a player gets until they choose one: stable for a given username."""
    digest = hashlib.sha256(username.encode("utf-8")).digest()
    return AVATAR_PALETTE[digest[0] % len(AVATAR_PALETTE)]


def _is_cjk(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in {"W", "F"}


def initials_of(name: str) -> str:
    """Letters shown in an avatar circle.

    A Chinese name shows its first character (as in 微信 group avatars); a Latin name shows
    the first letters of its first two words, upper case ("li wei" -> "LW").
    """
    name = name.strip()
    if not name:
        return "?"
    if _is_cjk(name[0]):
        return name[0]
    words = name.replace("_", " ").replace(".", " ").split()
    return "".join(word[0] for word in words[:2]).upper()


class User(AbstractUser):
    """A player (玩家). Profile fields live on the user: there is one profile per player."""

    class Language(models.TextChoices):
        ZH_HANS = "zh-hans", "简体中文"
        EN = "en", "English"

    display_name = models.CharField(
        _("昵称"), max_length=40, blank=True, help_text=_("牌桌上显示的名字；留空则显示用户名。")
    )
    avatar_color = models.CharField(
        _("头像颜色"), max_length=7, blank=True, validators=[hex_colour_validator]
    )
    language = models.CharField(
        _("界面语言"), max_length=10, choices=Language.choices, default=Language.ZH_HANS
    )

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
        verbose_name = _("玩家")  # type: ignore[assignment]  # the stubs expect a plain str
        verbose_name_plural = _("玩家")  # type: ignore[assignment]

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self.avatar_color:
            self.avatar_color = default_avatar_colour(self.username)
        super().save(*args, **kwargs)

    def clean(self) -> None:
        """The display name check (``accounts.display_names``), for every model form that edits
        a player: sign-up, profile, the admin's user forms."""
        super().clean()
        from accounts.display_names import display_name_validate  # it reads these models

        try:
            self.display_name = display_name_validate(user=self, name=self.display_name)
        except ValidationError as error:
            # A blank display name shows the username: its refusal belongs to no one field
            # (the profile form has no username, the admin's add form no display name).
            raise (
                ValidationError({"display_name": error}) if self.display_name else error
            ) from None

    @property
    def public_name(self) -> str:
        """The name other players see: the display name, or the username when none is set."""
        return self.display_name or self.username

    @property
    def initials(self) -> str:
        return initials_of(self.public_name)

    def __str__(self) -> str:
        return self.public_name


class Club(models.Model):
    """亲友圈: a private circle of players who open rooms together."""

    class JoinPolicy(models.TextChoices):
        OPEN = "open", _("凭邀请码直接加入")
        APPROVAL = "approval", _("需管理员审核")

    name = models.CharField(_("名称"), max_length=60)
    description = models.TextField(_("简介"), blank=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("圈主"),
        on_delete=models.PROTECT,
        related_name="owned_clubs",
    )
    invite_code = models.CharField(_("邀请码"), max_length=16, unique=True, editable=False)
    join_policy = models.CharField(
        _("加入方式"), max_length=10, choices=JoinPolicy.choices, default=JoinPolicy.OPEN
    )
    created_at = models.DateTimeField(_("创建时间"), auto_now_add=True)

    class Meta:
        verbose_name = _("亲友圈")
        verbose_name_plural = _("亲友圈")
        ordering = ("name", "pk")

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self.invite_code:
            self.invite_code = new_club_code()
        super().save(*args, **kwargs)


def new_club_code() -> str:
    """A club invite code not used by any other club."""
    return unique_code(lambda code: Club.objects.filter(invite_code=code).exists())


class Membership(models.Model):
    """A player's place in a club: role 角色 (圈主 / 管理员 / 成员) and status 状态."""

    class Role(models.TextChoices):
        OWNER = "owner", _("圈主")
        ADMIN = "admin", _("管理员")
        MEMBER = "member", _("成员")

    class Status(models.TextChoices):
        ACTIVE = "active", _("正式成员")
        PENDING = "pending", _("待审核")

    club = models.ForeignKey(
        Club, verbose_name=_("亲友圈"), on_delete=models.CASCADE, related_name="memberships"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("玩家"),
        on_delete=models.CASCADE,
        related_name="memberships",
    )
    role = models.CharField(_("角色"), max_length=10, choices=Role.choices, default=Role.MEMBER)
    status = models.CharField(
        _("状态"), max_length=10, choices=Status.choices, default=Status.ACTIVE
    )
    joined_at = models.DateTimeField(_("加入时间"), auto_now_add=True)

    class Meta:
        verbose_name = _("成员资格")
        verbose_name_plural = _("成员资格")
        ordering = ("club", "joined_at", "pk")
        constraints = (
            models.UniqueConstraint(fields=("club", "user"), name="membership_unique_club_user"),
        )

    def __str__(self) -> str:
        return f"{self.user} @ {self.club}"

    @property
    def is_active(self) -> bool:
        """The request was admitted (not pending). Whether its holder is an active member, or
        a manager, is the membership policy's (``accounts.membership``): the account counts too."""
        return self.status == self.Status.ACTIVE
