"""Rooms (房间): a table opened in a club with a variant and its room options.

A room is self-contained: seats, matches and rounds will point at it (another issue adds them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.codes import unique_code
from accounts.models import Club


class Variant(models.TextChoices):
    """The regional rule sets a room can be played with; keys match ``rules.wins.hand_rules``."""

    CHANGCHUN = "changchun", _("长春麻将")
    HARBIN = "harbin", _("哈尔滨麻将")
    SIPING = "siping", _("四平麻将")
    TAIYUAN_LISI = "taiyuan_lisi", _("太原立四")


def validate_room_options(variant: str, options: object) -> dict[str, Any]:
    """Check a room's options against its variant and return them merged with the defaults.

    The variant's own checker (``rules.wins.hand_rules(variant).validate_options``) is the
    authority. While the rules package does not yet provide it for a variant, only the shape is
    checked: the options must be a JSON object (string keys), and they are kept as given.
    """
    if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
        raise ValidationError({"options": _("房间选项必须是一个 JSON 对象。")})
    checker = _options_checker(variant)
    if checker is None:
        return dict(options)
    try:
        return dict(checker(options))
    except ValueError as exc:  # rules.errors.InvalidCase is a ValueError
        raise ValidationError({"options": str(exc)}) from exc


def _options_checker(variant: str) -> Any:
    try:
        from rules.wins import hand_rules  # the rules helper provides this; see the docstring above
    except ImportError:
        return None
    try:
        return hand_rules(variant).validate_options
    except (KeyError, ValueError, AttributeError):
        return None


def new_room_code() -> str:
    """A room invite code not used by any other room."""
    return unique_code(lambda code: Room.objects.filter(invite_code=code).exists())


class Room(models.Model):
    """房间: where four players (and perhaps bots and spectators) play a variant at a stake."""

    class Status(models.TextChoices):
        OPEN = "open", _("等待开局")
        PLAYING = "playing", _("对局中")
        CLOSED = "closed", _("已关闭")

    club = models.ForeignKey(
        Club, verbose_name=_("亲友圈"), on_delete=models.CASCADE, related_name="rooms"
    )
    name = models.CharField(_("房间名"), max_length=60)
    variant = models.CharField(_("玩法"), max_length=20, choices=Variant.choices)
    options = models.JSONField(_("房间选项"), default=dict, blank=True)
    base_stake = models.PositiveIntegerField(
        _("底分"), default=1, validators=[MinValueValidator(1)]
    )
    turn_timeout_s = models.PositiveSmallIntegerField(
        _("出牌时限（秒）"), default=15, validators=[MinValueValidator(3), MaxValueValidator(600)]
    )
    claim_timeout_s = models.PositiveSmallIntegerField(
        _("吃碰杠时限（秒）"), default=8, validators=[MinValueValidator(2), MaxValueValidator(600)]
    )
    allow_spectators = models.BooleanField(_("允许观战"), default=True)
    allow_bots = models.BooleanField(_("允许机器人"), default=True)
    invite_code = models.CharField(_("邀请码"), max_length=16, unique=True, editable=False)
    status = models.CharField(_("状态"), max_length=10, choices=Status.choices, default=Status.OPEN)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("创建者"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="created_rooms",
    )
    created_at = models.DateTimeField(_("创建时间"), auto_now_add=True)

    class Meta:
        verbose_name = _("房间")
        verbose_name_plural = _("房间")
        ordering = ("club", "-created_at", "pk")
        constraints = (
            models.CheckConstraint(
                condition=models.Q(base_stake__gte=1), name="room_stake_positive"
            ),
        )

    def __str__(self) -> str:
        return f"{self.name} ({self.get_variant_display()})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self.invite_code:
            self.invite_code = new_room_code()
        super().save(*args, **kwargs)

    def clean(self) -> None:
        super().clean()
        self.options = validate_room_options(self.variant, self.options)
