"""比赛: a club's Swiss event for four-player tables, its entrants, rounds, tables,
and the site's notifications.

Imported by :mod:`tables.models` (the ``tables`` app owns these tables). A tournament table is an
ordinary room with an ordinary match: the tournament only decides who sits where (seat order
E, S, W, N), how long the match lasts (``Match.hands_limit``) and, with duplicate walls, the seed
its hands are dealt from (``Match.wall_seed``).
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.models import Club
from tables.gameplay import deal_passes_in_seat_order
from tables.models import BotLevel, Match, Room, TableSettings
from tables.room_options import SPECTATOR_DELAY_MAX_S

DEFAULT_PLACEMENT_POINTS = [3, 1, -1, -3]
"""Placement points: +3/+1/−1/−3 by default, configurable."""


def default_placement_points() -> list[int]:
    return list(DEFAULT_PLACEMENT_POINTS)


class Tournament(TableSettings):
    """比赛: rounds of four-player tables in a club, seated by the club Swiss system."""

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("报名中")
        RUNNING = "running", _("进行中")
        PAUSED = "paused", _("已暂停")
        FINISHED = "finished", _("已结束")

    class RoundLength(models.TextChoices):
        HANDS = "hands", _("按盘数")
        WIND = "wind", _("一圈")

    class Round1(models.TextChoices):
        RANDOM = "random", _("随机")
        RATING = "rating", _("按等级分")

    club = models.ForeignKey(
        Club, verbose_name=_("亲友圈"), on_delete=models.CASCADE, related_name="tournaments"
    )
    name = models.CharField(_("比赛名称"), max_length=60)
    rounds = models.PositiveSmallIntegerField(
        _("轮数"), default=4, validators=[MinValueValidator(1), MaxValueValidator(20)]
    )
    round_length = models.CharField(
        _("每轮长度"),
        max_length=10,
        choices=RoundLength.choices,
        default=RoundLength.HANDS,
        help_text=_("按盘数，或打一圈（东南西北各坐一次庄，连庄照算）。"),
    )
    hands_per_round = models.PositiveSmallIntegerField(
        _("每轮盘数"),
        default=4,
        validators=[MinValueValidator(1), MaxValueValidator(64)],
        help_text=_("每桌每轮打几盘（局）；台湾十六张打满四圈也会结束。"),
    )
    starts_at = models.DateTimeField(_("开始时间"), null=True, blank=True)
    registration_open = models.BooleanField(_("开放报名"), default=True)
    fill_with_bots = models.BooleanField(
        _("机器人补位"), default=True, help_text=_("人数不是 4 的倍数时用机器人补满；否则轮空。")
    )
    bot_level = models.CharField(
        _("机器人水平"), max_length=10, choices=BotLevel.choices, default=BotLevel.NORMAL
    )
    placement_points = models.JSONField(
        _("顺位分"), default=default_placement_points, help_text=_("第一到第四名的顺位分。")
    )
    round_clock_min = models.PositiveSmallIntegerField(
        _("每轮时限（分钟）"),
        default=0,
        validators=[MaxValueValidator(600)],
        help_text=_("0 表示不限时；到时未完成的桌打完当前这盘就结束。"),
    )
    spectator_delay_s = models.PositiveIntegerField(
        _("观战延迟（秒）"), default=180, validators=[MaxValueValidator(SPECTATOR_DELAY_MAX_S)]
    )
    duplicate_walls = models.BooleanField(
        _("复式牌墙"), default=False, help_text=_("同一轮的每张桌打同样的牌墙，运气相互抵消。")
    )
    round1 = models.CharField(
        _("第一轮排位"), max_length=10, choices=Round1.choices, default=Round1.RANDOM
    )
    seed = models.CharField(_("种子"), max_length=64, editable=False, default="")
    status = models.CharField(
        _("状态"), max_length=12, choices=Status.choices, default=Status.REGISTRATION
    )
    current_round = models.PositiveSmallIntegerField(_("当前轮"), default=0)
    paused_at = models.DateTimeField(_("暂停时间"), null=True, blank=True)
    finished_at = models.DateTimeField(_("结束时间"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("创建者"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("创建时间"), auto_now_add=True)

    class Meta:
        verbose_name = _("比赛")
        verbose_name_plural = _("比赛")
        ordering = ("club_id", "-created_at", "pk")
        constraints = (
            models.CheckConstraint(condition=models.Q(rounds__gte=1), name="tournament_rounds_1"),
        )

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self.seed:
            self.seed = secrets.token_hex(32)
        super().save(*args, **kwargs)

    def clean(self) -> None:
        """The admin's save goes through the same checks as the service: the room options by
        the variant's rules, a wind round only where the deal passes in seat order, four
        descending placement points."""
        super().clean()
        if self.variant:
            self.clean_table_settings()
        if (
            self.round_length == self.RoundLength.WIND
            and self.variant
            and not deal_passes_in_seat_order(self.variant)
        ):
            raise ValidationError(
                {
                    "round_length": _(
                        "这个玩法由和牌的人坐庄，庄家不按座位轮转，不能按圈打；请按盘数。"
                    )
                }
            )
        points = self.placement_points
        if (
            not isinstance(points, list)
            or len(points) != 4
            or not all(isinstance(p, int) and not isinstance(p, bool) for p in points)
            or points != sorted(points, reverse=True)
        ):
            raise ValidationError({"placement_points": _("顺位分是四个从大到小的整数。")})


class Entrant(models.Model):
    """参赛者: a registered member, or a bot the event seated to fill a table."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("比赛"), on_delete=models.CASCADE, related_name="entrants"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("玩家"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="tournament_entries",
    )
    is_bot = models.BooleanField(_("机器人"), default=False)
    bot_level = models.CharField(
        _("机器人水平"), max_length=10, choices=BotLevel.choices, blank=True, default=""
    )
    name = models.CharField(_("名字"), max_length=60, blank=True)
    withdrawn = models.BooleanField(
        _("已退出"), default=False, help_text=_("不再排位（缺席被替换或主动退出）。")
    )
    registered_at = models.DateTimeField(_("报名时间"), auto_now_add=True)

    class Meta:
        verbose_name = _("参赛者")
        verbose_name_plural = _("参赛者")
        ordering = ("tournament_id", "pk")
        constraints = (
            models.UniqueConstraint(
                fields=("tournament", "user"),
                condition=models.Q(user__isnull=False),
                name="entrant_unique_user",
            ),
            models.CheckConstraint(
                condition=models.Q(is_bot=True, user__isnull=True)
                | models.Q(is_bot=False, user__isnull=False),
                name="entrant_bot_xor_user",
            ),
        )

    def __str__(self) -> str:
        if self.is_bot:
            return self.name or f"bot {self.pk}"
        return str(self.user)


class ForbiddenPair(models.Model):
    """Two entrants who must never share a table (family, a team, a known pair)."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("比赛"), on_delete=models.CASCADE, related_name="forbidden"
    )
    first = models.ForeignKey(
        Entrant, verbose_name=_("参赛者"), on_delete=models.CASCADE, related_name="+"
    )
    second = models.ForeignKey(
        Entrant, verbose_name=_("参赛者"), on_delete=models.CASCADE, related_name="+"
    )

    class Meta:
        verbose_name = _("不同桌")
        verbose_name_plural = _("不同桌")
        ordering = ("tournament_id", "pk")
        constraints = (
            models.UniqueConstraint(
                fields=("tournament", "first", "second"), name="forbidden_pair_unique"
            ),
        )

    def __str__(self) -> str:
        return f"{self.first} × {self.second}"


class TournamentRound(models.Model):
    """一轮: the tables seated for round ``number``; ``wall_seed`` is the secret every table
    deals from with duplicate walls (empty otherwise)."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("进行中")
        FINISHED = "finished", _("已结束")

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("比赛"), on_delete=models.CASCADE, related_name="round_set"
    )
    number = models.PositiveSmallIntegerField(_("轮次"))
    status = models.CharField(
        _("状态"), max_length=10, choices=Status.choices, default=Status.PLAYING
    )
    sitting_out = models.JSONField(_("轮空"), default=list, blank=True)
    wall_seed = models.CharField(_("牌墙种子"), max_length=64, blank=True, editable=False)
    started_at = models.DateTimeField(_("开始时间"), auto_now_add=True)
    clock_ends_at = models.DateTimeField(_("时限"), null=True, blank=True)
    clock_called = models.BooleanField(_("已到时"), default=False)
    finished_at = models.DateTimeField(_("结束时间"), null=True, blank=True)

    class Meta:
        verbose_name = _("比赛轮次")
        verbose_name_plural = _("比赛轮次")
        ordering = ("tournament_id", "number")
        constraints = (
            models.UniqueConstraint(
                fields=("tournament", "number"), name="tournament_round_unique"
            ),
        )

    def __str__(self) -> str:
        return f"{self.tournament} #{self.number}"


class TournamentTable(models.Model):
    """一桌: four entrants (seat order E, S, W, N) at a room, and the match they play there."""

    round = models.ForeignKey(
        TournamentRound, verbose_name=_("轮次"), on_delete=models.CASCADE, related_name="tables"
    )
    number = models.PositiveSmallIntegerField(_("桌号"))
    seats = models.JSONField(_("座位"), help_text=_("东南西北四个座位的参赛者 id。"))
    room = models.ForeignKey(
        Room, verbose_name=_("房间"), on_delete=models.CASCADE, related_name="tournament_tables"
    )
    match = models.ForeignKey(
        Match,
        verbose_name=_("对局"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournament_tables",
    )

    class Meta:
        verbose_name = _("比赛桌")
        verbose_name_plural = _("比赛桌")
        ordering = ("round_id", "number")
        constraints = (
            models.UniqueConstraint(fields=("round", "number"), name="tournament_table_unique"),
        )

    def __str__(self) -> str:
        return f"{self.round} T{self.number}"


class Notification(models.Model):
    """站内通知: a line for one user (a round's seating), with a link, read or not."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("用户"),
        on_delete=models.CASCADE,
        related_name="notifications",
    )
    text = models.CharField(_("内容"), max_length=300)
    link = models.CharField(_("链接"), max_length=300, blank=True)
    key = models.CharField(
        _("去重键"), max_length=100, blank=True, help_text=_("同一件事只通知一次。")
    )
    read = models.BooleanField(_("已读"), default=False)
    created_at = models.DateTimeField(_("时间"), auto_now_add=True)

    class Meta:
        verbose_name = _("通知")
        verbose_name_plural = _("通知")
        ordering = ("-created_at", "-pk")
        constraints = (
            models.UniqueConstraint(
                fields=("user", "key"), condition=~models.Q(key=""), name="notification_unique_key"
            ),
        )
        indexes = (models.Index(fields=("user", "read"), name="notification_user_read"),)

    def __str__(self) -> str:
        return self.text
