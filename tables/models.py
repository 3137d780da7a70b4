"""The tables' rows: rooms (房间, a table opened in a club with a variant and its room options),
their seats, matches (对局) and rounds (盘) with each round's action log and events, and the
refused actions kept for retries. The club events' models (:mod:`tables.tournaments.models`) are
imported at the end, so that the ``tables`` app owns their tables too.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.codes import unique_code
from accounts.models import Club
from rules.registry import VARIANTS
from tables.labels import lazy
from tables.room_options import room_options_validate

Variant: type[models.TextChoices] = models.TextChoices(  # type: ignore[call-overload]
    "Variant",
    [(key.upper(), (key, lazy(variant.name.name))) for key, variant in VARIANTS.items()],
)
"""The regional rule sets a room can be played with: the registry's (:mod:`rules.registry`),
named in the page's language (``Variant.values``, ``Variant.choices``, ``Variant(key).label``)."""


def variant_choices() -> list[tuple[str, Any]]:
    """The model fields' choices, read from the registry when asked: a new variant needs no
    migration (Django stores a reference to this function, not the list)."""
    return [(key, lazy(variant.name.name)) for key, variant in VARIANTS.items()]


def new_room_code() -> str:
    """A room invite code not used by any other room."""
    return unique_code(lambda code: Room.objects.filter(invite_code=code).exists())


class BotLevel(models.TextChoices):
    """机器人水平: the levels of :mod:`rules.bots` a room owner may seat."""

    EASY = "easy", _("简单")
    NORMAL = "normal", _("普通")
    HARD = "hard", _("困难")


class TableSettings(models.Model):
    """What a table is played with: the variant, its room options, the stake and the clocks.

    A room has them, and so has a tournament, whose tables are rooms opened with its settings;
    one definition keeps the two forms, their bounds and their checks the same."""

    spectator_delay_s: int
    variant = models.CharField(_("玩法"), max_length=20, choices=variant_choices)
    options = models.JSONField(_("房间选项"), default=dict, blank=True)
    base_stake = models.PositiveIntegerField(
        _("底分"), default=1, validators=[MinValueValidator(1), MaxValueValidator(1000)]
    )
    turn_timeout_s = models.PositiveSmallIntegerField(
        _("出牌时限（秒）"), default=15, validators=[MinValueValidator(3), MaxValueValidator(600)]
    )
    claim_timeout_s = models.PositiveSmallIntegerField(
        _("吃碰杠时限（秒）"), default=8, validators=[MinValueValidator(2), MaxValueValidator(600)]
    )

    class Meta:
        abstract = True

    def clean_table_settings(self) -> None:
        """The room options checked and normalised by the variant's rules, with the stake and the
        spectators' delay they depend on (:func:`tables.room_options.room_options_validate`)."""
        self.options = room_options_validate(
            variant=self.variant,
            options=self.options,
            base_stake=self.base_stake,
            spectator_delay_s=self.spectator_delay_s,
        )


class Room(TableSettings):
    """房间: where four players (and perhaps bots and spectators) play a variant at a stake."""

    class Status(models.TextChoices):
        OPEN = "open", _("等待开局")
        PLAYING = "playing", _("对局中")
        CLOSED = "closed", _("已关闭")

    club = models.ForeignKey(
        Club, verbose_name=_("亲友圈"), on_delete=models.CASCADE, related_name="rooms"
    )
    name = models.CharField(_("房间名"), max_length=60)
    allow_spectators = models.BooleanField(_("允许观战"), default=True)
    allow_bots = models.BooleanField(_("允许机器人"), default=True)
    bot_level = models.CharField(
        _("机器人水平"),
        max_length=10,
        choices=BotLevel.choices,
        default=BotLevel.NORMAL,
        help_text=_("补位机器人的默认水平，也是托管代打的水平。"),
    )
    # Bounds (0-1800) are checked by the one checker of room settings,
    # tables.room_options.room_options_validate (delayed spectating).
    spectator_delay_s = models.PositiveIntegerField(
        _("观战延迟（秒）"),
        default=0,
        help_text=_(
            "0 为实时观战（看不到手牌）；大于 0 时旁观者看到的是这么多秒之前的牌桌，"
            "并能看到所有人的手牌。0–1800 秒，只有亲友圈管理员可以设置。"
        ),
    )
    practice = models.BooleanField(
        _("练习房"),
        default=False,
        help_text=_("练习房的对局照常记分、留牌谱，但不计入等级分和排行榜。比赛桌不能是练习房。"),
    )
    bot_hints = models.BooleanField(
        _("机器人提示"),
        default=False,
        help_text=_("只用于练习房：轮到自己决定时，可以问“困难”机器人会怎么打。"),
    )
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
        self.clean_table_settings()
        self.clean_practice()

    def clean_practice(self) -> None:
        """The bot's hint is for practice only (issue 26: "never in rated rooms or events"): a
        room with hints must be a practice room, and a tournament's table is never one."""
        if self.bot_hints and not self.practice:
            raise ValidationError(
                {"bot_hints": gettext("机器人提示只能在练习房打开。")}, code="hints_need_practice"
            )
        if self.practice and self.pk and self.tournament_tables.exists():
            raise ValidationError(
                {"practice": gettext("比赛桌不能设为练习房。")}, code="event_not_practice"
            )


# --- Live tables: seats, matches (局), rounds and their append-only event log ---------------------


class Seat(models.Model):
    """座位: one of the four places at a room's table, held by a player or a bot.

    A seat row exists only while someone sits in it; standing up deletes it. ``auto_play`` is 托管:
    the server plays the seat's default action at once until the player clicks "I'm back"; it is
    switched on after ``AUTO_PLAY_AFTER_TIMEOUTS`` timeouts in a row.
    ``absent_since``: when the player last closed the table (no socket left); outside a match
    the seat is freed after ``TABLES_FREE_ABSENT_SEAT_S`` (:func:`tables.rooms.sweep_absent_seats`).
    """

    room = models.ForeignKey(
        Room, verbose_name=_("房间"), on_delete=models.CASCADE, related_name="seats"
    )
    index = models.PositiveSmallIntegerField(
        _("座位号"), validators=[MinValueValidator(0), MaxValueValidator(3)]
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("玩家"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="seats",
    )
    is_bot = models.BooleanField(_("机器人"), default=False)
    bot_level = models.CharField(
        _("机器人水平"), max_length=10, choices=BotLevel.choices, blank=True, default=""
    )
    ready = models.BooleanField(_("已准备"), default=False)
    auto_play = models.BooleanField(_("托管"), default=False)
    consecutive_timeouts = models.PositiveSmallIntegerField(_("连续超时"), default=0)
    connected = models.BooleanField(_("在线"), default=False)
    absent_since = models.DateTimeField(
        _("离线时间"),
        null=True,
        blank=True,
        help_text=_("玩家关闭牌桌的时间；开局前离线太久的座位会被释放。"),
    )
    joined_at = models.DateTimeField(_("入座时间"), auto_now_add=True)

    class Meta:
        verbose_name = _("座位")
        verbose_name_plural = _("座位")
        # By the column, not the relation: ordering by "room" would follow Room's ordering and
        # join the room and the club into every seat query (and lock them with FOR UPDATE).
        ordering = ("room_id", "index")
        constraints = (
            models.UniqueConstraint(fields=("room", "index"), name="seat_unique_room_index"),
            # One seat per user per table (brief): a player cannot hold two hands at one table.
            models.UniqueConstraint(
                fields=("room", "user"),
                condition=models.Q(user__isnull=False),
                name="seat_unique_room_user",
            ),
            models.CheckConstraint(condition=models.Q(index__lte=3), name="seat_index_0_3"),
            models.CheckConstraint(
                condition=models.Q(is_bot=True, user__isnull=True)
                | models.Q(is_bot=False, user__isnull=False),
                name="seat_bot_xor_user",
            ),
        )

    def __str__(self) -> str:
        who = "bot" if self.is_bot else str(self.user)
        return f"{self.room_id}#{self.index} {who}"


class Match(models.Model):
    """局: a sequence of rounds played by the same four seats; a player leaving ends it."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("进行中")
        FINISHED = "finished", _("已结束")

    room = models.ForeignKey(
        Room, verbose_name=_("房间"), on_delete=models.CASCADE, related_name="matches"
    )
    status = models.CharField(
        _("状态"), max_length=10, choices=Status.choices, default=Status.PLAYING
    )
    players = models.JSONField(
        _("玩家"), default=list, help_text=_("开局时四个座位的玩家（用户 id 或 null 表示机器人）。")
    )
    bot_levels = models.JSONField(
        _("机器人水平"),
        default=list,
        blank=True,
        help_text=_("开局时各座位机器人的水平（玩家的座位为空字符串），用来给机器人起名。"),
    )
    variant = models.CharField(_("玩法"), max_length=20, choices=variant_choices)
    options = models.JSONField(_("房间选项"), default=dict, blank=True)
    started_at = models.DateTimeField(_("开始时间"), auto_now_add=True)
    ended_at = models.DateTimeField(_("结束时间"), null=True, blank=True)
    end_reason = models.CharField(_("结束原因"), max_length=40, blank=True)
    hands_limit = models.PositiveSmallIntegerField(
        _("盘数上限"),
        null=True,
        blank=True,
        help_text=_("打完这么多盘对局就结束（比赛桌）；空表示不限。"),
    )
    wind_round = models.BooleanField(
        _("打一圈"),
        default=False,
        help_text=_(
            "比赛桌打一圈：北家坐庄的一盘结束、庄家离开北家时对局结束（盘数上限仍然有效）。"
        ),
    )
    practice = models.BooleanField(
        _("练习"),
        default=False,
        help_text=_("开局时房间是练习房：对局不计入等级分和排行榜。"),
    )
    wall_seed = models.CharField(
        _("牌墙种子"),
        max_length=64,
        blank=True,
        editable=False,
        help_text=_("复式牌墙：每盘的种子由它和盘号导出，同轮各桌相同；结束前保密。"),
    )

    class Meta:
        verbose_name = _("对局")
        verbose_name_plural = _("对局")
        ordering = ("-started_at", "pk")
        constraints = (
            # At most one match in play per room: the table holds one game at a time.
            models.UniqueConstraint(
                fields=("room",),
                condition=models.Q(status="playing"),
                name="match_one_playing_per_room",
            ),
        )

    def __str__(self) -> str:
        return gettext("对局 #%(id)s") % {"id": self.pk}


class Round(models.Model):
    """一盘: one deal of a match, from the shuffle to the settlement.

    The round's truth is its seed, dealer and action log (:class:`RoundAction`, append-only);
    ``state`` is only a cache: the engine's snapshot after the first ``state_actions`` logged
    actions, written at the deal, every few actions and at the end (:mod:`tables.game.store`).
    ``action_count`` is the length of the log; ``version`` the engine's version after it.
    ``seed`` stays secret until the round has ended (only ``commitment`` is shown during play,
    spec README item 2).
    ``deadline`` is when the pending decision times out; ``decision_version`` is the version at
    which that decision began (a seat's turn, or a claim window: other seats passing inside one
    window do not restart its clock), so a late timeout task for an older decision changes nothing.
    """

    class Status(models.TextChoices):
        PLAYING = "playing", _("进行中")
        ENDED = "ended", _("已结束")
        ABORTED = "aborted", _("已中止")

    match = models.ForeignKey(
        Match, verbose_name=_("对局"), on_delete=models.CASCADE, related_name="rounds"
    )
    number = models.PositiveIntegerField(_("盘号"))
    dealer = models.PositiveSmallIntegerField(_("庄家座位"), default=0)
    seed = models.CharField(_("种子"), max_length=64, help_text=_("十六进制；结束前保密。"))
    commitment = models.CharField(_("承诺值"), max_length=64, blank=True)
    state = models.JSONField(_("引擎状态"), default=dict)
    state_actions = models.PositiveIntegerField(
        _("快照包含的动作数"), default=0, help_text=_("引擎状态快照之后的动作在动作日志中重放。")
    )
    action_count = models.PositiveIntegerField(_("动作数"), default=0)
    version = models.PositiveIntegerField(_("版本"), default=0)
    last_seq = models.PositiveIntegerField(_("最后事件序号"), default=0)
    status = models.CharField(
        _("状态"), max_length=10, choices=Status.choices, default=Status.PLAYING
    )
    deadline = models.DateTimeField(_("决策时限"), null=True, blank=True)
    decision_version = models.PositiveIntegerField(
        _("当前决策开始的版本"),
        default=0,
        help_text=_("当前决策（某家出牌或一个吃碰杠窗口）开始时的版本；超时任务按它判断是否过期。"),
    )
    result = models.JSONField(_("结算结果"), null=True, blank=True)
    started_at = models.DateTimeField(_("开始时间"), auto_now_add=True)
    ended_at = models.DateTimeField(_("结束时间"), null=True, blank=True)

    class Meta:
        verbose_name = _("牌局")
        verbose_name_plural = _("牌局")
        ordering = ("match_id", "number")
        constraints = (
            models.UniqueConstraint(fields=("match", "number"), name="round_unique_match_number"),
        )
        indexes = (models.Index(fields=("status", "deadline"), name="round_status_deadline"),)

    def __str__(self) -> str:
        return gettext("对局 #%(match)s 第 %(n)s 盘") % {"match": self.match_id, "n": self.number}


class RoundEvent(models.Model):
    """An event of a round, append-only, numbered ``seq`` = 1, 2, 3, … without gaps.

    ``payload`` is the engine's full event (secret: never sent as is); ``views`` holds the
    pre-redacted payload for each viewer: the spectator's under ``"spectator"``, and a seat's
    (``"0"``–``"3"``) where it differs from it (older rows hold all five; ``null`` where that
    viewer sees nothing of the event; read with :func:`tables.gameplay.stored_view`). Redaction
    happens once, at write time, with the engine's ``views.event_for``, so every delivery path
    (live, reconnect, resync) sends the same.
    """

    round = models.ForeignKey(
        Round, verbose_name=_("牌局"), on_delete=models.CASCADE, related_name="events"
    )
    seq = models.PositiveIntegerField(_("序号"))
    kind = models.CharField(_("类型"), max_length=40)
    payload = models.JSONField(_("完整事件"))
    views = models.JSONField(_("各座位可见内容"))
    created_at = models.DateTimeField(_("时间"), auto_now_add=True)

    class Meta:
        verbose_name = _("牌局事件")
        verbose_name_plural = _("牌局事件")
        ordering = ("round_id", "seq")
        constraints = (
            models.UniqueConstraint(fields=("round", "seq"), name="roundevent_unique_round_seq"),
        )

    def __str__(self) -> str:
        return f"{self.round_id}:{self.seq} {self.kind}"


class RoundAction(models.Model):
    """The round's log, the truth it is replayed from: one row per applied action, in order
    (``n`` = 1, 2, 3 … without gaps), appended in the transaction that applied it, never changed.

    ``source``: ``player``, ``timeout`` or ``auto`` (bots and 托管; empty for rows migrated from
    the old action list). A player's action carries its ``client_action_id``: a retried id returns
    the first outcome (the decision token ``decision`` and ``last_seq`` after the write) and
    changes nothing. ``last_seq``: the last event number after this action. ``kong_payments``:
    the kong payments this action made, as they happened (``payer``, ``payee``, ``amount``, and
    the kong's meld), so that the settlement need not work out which kong each payment belongs
    to.
    """

    round = models.ForeignKey(
        Round, verbose_name=_("牌局"), on_delete=models.CASCADE, related_name="log"
    )
    n = models.PositiveIntegerField(_("序号"))
    seat = models.PositiveSmallIntegerField(_("座位号"))
    source = models.CharField(_("来源"), max_length=8, blank=True)
    action = models.JSONField(_("动作"))
    client_action_id = models.CharField(_("客户端动作 id"), max_length=64, blank=True)
    last_seq = models.PositiveIntegerField(_("最后事件序号"), default=0)
    decision = models.PositiveIntegerField(_("之后的决策序号"), default=0)
    kong_payments = models.JSONField(_("杠钱"), default=list, blank=True)

    class Meta:
        verbose_name = _("动作日志")
        verbose_name_plural = _("动作日志")
        ordering = ("round_id", "n")
        constraints = (
            models.UniqueConstraint(fields=("round", "n"), name="roundaction_unique_round_n"),
            models.UniqueConstraint(
                fields=("round", "seat", "client_action_id"),
                condition=~models.Q(client_action_id=""),
                name="roundaction_unique_client_id",
            ),
        )

    def __str__(self) -> str:
        return f"{self.round_id}#{self.n} {self.action.get('kind', '')}"


class ActionRecord(models.Model):
    """A client's action that was **refused**, keyed by its ``client_action_id``: a retry gets
    the same refusal (accepted actions are answered from the log, :class:`RoundAction`)."""

    round = models.ForeignKey(
        Round, verbose_name=_("牌局"), on_delete=models.CASCADE, related_name="action_records"
    )
    seat = models.PositiveSmallIntegerField(_("座位号"))
    client_action_id = models.CharField(_("客户端动作 id"), max_length=64)
    action = models.JSONField(_("动作"))
    outcome = models.JSONField(_("结果"))
    created_at = models.DateTimeField(_("时间"), auto_now_add=True)

    class Meta:
        verbose_name = _("动作记录")
        verbose_name_plural = _("动作记录")
        ordering = ("round_id", "pk")
        constraints = (
            models.UniqueConstraint(
                fields=("round", "seat", "client_action_id"), name="actionrecord_unique_client_id"
            ),
        )

    def __str__(self) -> str:
        return f"{self.round_id}/{self.seat}/{self.client_action_id}"


# --- Club events: their models live in their own module, registered with this app ---------------

from tables.tournaments.models import (  # noqa: E402
    Entrant,
    ForbiddenPair,
    Notification,
    Tournament,
    TournamentRound,
    TournamentTable,
)

__all__ = [
    "ActionRecord",
    "BotLevel",
    "Entrant",
    "ForbiddenPair",
    "Match",
    "Notification",
    "Room",
    "Round",
    "RoundAction",
    "RoundEvent",
    "Seat",
    "Tournament",
    "TournamentRound",
    "TournamentTable",
    "Variant",
]
