"""The settlement ledger (结算账本): one settlement per ended round, one entry per seat.

What the database itself enforces (tested by trying to break it, ``tests/scoring``):

* one settlement per round (``RoundSettlement.round`` is unique);
* a round is zero-sum: ``net_0 + net_1 + net_2 + net_3 = 0`` (a CHECK constraint);
* no net exceeds the room cap: ``cap IS NULL OR -cap <= net_i <= cap`` (CHECK, one per seat);
* each seat's entry adds up: ``net = win_amount + kong_amount + settle_amount + cap_adjustment``
  (CHECK), and a seat has one entry per settlement (unique);
* a fan item names its win (the winner's seat): one per settlement, win and key, so two wins of a
  成麻 round may both score 平胡 (:class:`FanItem`);
* a payment line (:class:`PaymentLine`, 成麻's ledger: each win, each kong payment, 呼叫转移 and
  each end-of-wall payment) is positive and between two seats.

Nothing is stored twice that can be summed: a match's totals are the sum of its entries
(:func:`scoring.selectors.match_totals`), never a column. The few copied facts on an entry
(``club``, ``variant``, ``ended_at``, ``match``) never change once a round has ended; they are
there so the leaderboards read one indexed table instead of joining four.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Self

from django.conf import settings
from django.db import models, transaction
from django.db.models import F, Q
from django.db.models.lookups import Exact
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.models import Club
from scoring.labels import fan_label, kong_label
from tables.models import Match, Round, variant_choices

NET_FIELDS = ("net_0", "net_1", "net_2", "net_3")


def _cap_respected(net: str) -> Q:
    return Q(cap__isnull=True) | (Q(**{f"{net}__lte": F("cap")}) & Q(**{f"{net}__gte": -F("cap")}))


class RoundSettlement(models.Model):
    """一盘的结算: how a round ended and each seat's net, written once by the settlement task."""

    round = models.OneToOneField(
        Round, verbose_name=_("牌局"), on_delete=models.CASCADE, related_name="settlement"
    )
    match = models.ForeignKey(
        Match, verbose_name=_("对局"), on_delete=models.CASCADE, related_name="settlements"
    )
    club = models.ForeignKey(
        Club, verbose_name=_("亲友圈"), on_delete=models.CASCADE, related_name="+"
    )
    variant = models.CharField(_("玩法"), max_length=20, choices=variant_choices)
    number = models.PositiveIntegerField(_("盘号"))
    ended_at = models.DateTimeField(_("结束时间"))
    dealer = models.PositiveSmallIntegerField(_("庄家座位"))
    next_dealer = models.PositiveSmallIntegerField(_("下一盘庄家"))
    winner = models.PositiveSmallIntegerField(_("胡牌座位"), null=True, blank=True)
    win_by = models.CharField(_("胡法"), max_length=12, blank=True)
    discarder = models.PositiveSmallIntegerField(_("点炮座位"), null=True, blank=True)
    win_tile = models.CharField(_("胡的牌"), max_length=4, blank=True)
    fan_total = models.IntegerField(_("番数"), default=0)
    cap = models.PositiveIntegerField(_("封顶"), null=True, blank=True)
    capped = models.BooleanField(_("封顶生效"), default=False)
    net_0 = models.IntegerField(_("座位0得分"))
    net_1 = models.IntegerField(_("座位1得分"))
    net_2 = models.IntegerField(_("座位2得分"))
    net_3 = models.IntegerField(_("座位3得分"))
    settled_at = models.DateTimeField(_("结算时间"), auto_now_add=True)
    practice = models.BooleanField(
        _("练习"),
        default=False,
        help_text=_("练习房的一盘：留在战绩里，但不计入等级分和排行榜。"),
    )
    rated = models.BooleanField(
        _("已计入等级分"),
        default=False,
        help_text=_("这一盘已计入等级分（scoring.ratings）。"),
    )

    class Meta:
        verbose_name = _("结算")
        verbose_name_plural = _("结算")
        ordering = ("match", "number")
        constraints = (
            models.CheckConstraint(
                condition=Exact(F("net_0") + F("net_1") + F("net_2") + F("net_3"), 0),
                name="settlement_zero_sum",
            ),
            *(
                models.CheckConstraint(condition=_cap_respected(net), name=f"settlement_cap_{net}")
                for net in NET_FIELDS
            ),
            models.CheckConstraint(
                condition=Q(winner__isnull=True) | Q(winner__lte=3), name="settlement_winner_seat"
            ),
        )
        indexes = (
            # Ratings: a match's totals per seat over one club (or all) and variant in a period.
            models.Index(fields=("club", "variant", "ended_at"), name="settle_club_variant_time"),
            models.Index(fields=("variant", "ended_at"), name="settle_variant_time"),
            # Ratings: the settled rounds not yet rated, per club and variant, oldest first.
            models.Index(
                fields=("club", "variant", "ended_at"),
                condition=Q(rated=False),
                name="settle_unrated",
            ),
        )

    def __str__(self) -> str:
        text = gettext("对局 #%(match)s 第 %(n)s 盘的结算")
        return text % {"match": self.match_id, "n": self.number}

    @property
    def nets(self) -> tuple[int, int, int, int]:
        return (self.net_0, self.net_1, self.net_2, self.net_3)


class LedgerEntry(models.Model):
    """账目: one seat's line of a round's settlement (``user`` is null for a bot)."""

    settlement = models.ForeignKey(
        RoundSettlement,
        verbose_name=_("结算"),
        on_delete=models.CASCADE,
        related_name="entries",
    )
    match = models.ForeignKey(
        Match, verbose_name=_("对局"), on_delete=models.CASCADE, related_name="ledger_entries"
    )
    club = models.ForeignKey(
        Club, verbose_name=_("亲友圈"), on_delete=models.CASCADE, related_name="+"
    )
    variant = models.CharField(_("玩法"), max_length=20, choices=variant_choices)
    ended_at = models.DateTimeField(_("结束时间"))
    practice = models.BooleanField(
        _("练习"), default=False, help_text=_("练习房的一盘：不计入排行榜。")
    )
    seat = models.PositiveSmallIntegerField(_("座位号"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("玩家"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="ledger_entries",
    )
    is_dealer = models.BooleanField(_("庄家"), default=False)
    won = models.BooleanField(_("胡牌"), default=False)
    self_drawn = models.BooleanField(_("自摸"), default=False)
    dealt_in = models.BooleanField(_("点炮"), default=False)
    fan_total = models.IntegerField(_("番数"), default=0)
    win_amount = models.IntegerField(_("胡牌得分"), default=0)
    kong_amount = models.IntegerField(_("杠分"), default=0)
    settle_amount = models.IntegerField(
        _("查叫退税"), default=0, help_text=_("成麻流局时的查花猪、查大叫、退税。")
    )
    cap_adjustment = models.IntegerField(_("封顶调整"), default=0)
    net = models.IntegerField(_("净得分"))

    class Meta:
        verbose_name = _("账目")
        verbose_name_plural = _("账目")
        ordering = ("settlement", "seat")
        constraints = (
            models.UniqueConstraint(fields=("settlement", "seat"), name="ledger_unique_seat"),
            models.CheckConstraint(condition=Q(seat__lte=3), name="ledger_seat_0_3"),
            models.CheckConstraint(
                condition=Q(
                    net=F("win_amount")
                    + F("kong_amount")
                    + F("settle_amount")
                    + F("cap_adjustment")
                ),
                name="ledger_net_adds_up",
            ),
        )
        indexes = (
            # Leaderboards: one club (or all clubs) and variant over a period, grouped by player.
            models.Index(fields=("club", "variant", "ended_at"), name="ledger_club_variant_time"),
            models.Index(fields=("variant", "ended_at"), name="ledger_variant_time"),
            # My matches and per-match totals.
            models.Index(fields=("user", "ended_at"), name="ledger_user_time"),
            models.Index(fields=("match", "user"), name="ledger_match_user"),
        )

    def __str__(self) -> str:
        return gettext("座位 %(seat)s：%(net)s") % {"seat": self.seat, "net": f"{self.net:+d}"}


class FanItem(models.Model):
    """番种: one item of a win's fan breakdown (``key`` as the engine names it).

    The items belong to a win, not to the round: 成麻 (血战到底) has up to three wins a round and
    two winners often score the same item (平胡 twice). A seat wins at most once a round, so
    ``winner`` (the seat) names the win; ``position`` orders every item of the settlement, the
    wins in the order they were made.
    """

    settlement = models.ForeignKey(
        RoundSettlement,
        verbose_name=_("结算"),
        on_delete=models.CASCADE,
        related_name="fan_items",
    )
    winner = models.PositiveSmallIntegerField(_("胡牌座位"))
    position = models.PositiveSmallIntegerField(_("顺序"))
    key = models.CharField(_("番种"), max_length=32)
    value = models.IntegerField(_("番数"))

    class Meta:
        verbose_name = _("番种")
        verbose_name_plural = _("番种")
        ordering = ("settlement", "position")
        constraints = (
            models.UniqueConstraint(
                fields=("settlement", "winner", "key"), name="fanitem_unique_key_per_win"
            ),
            models.CheckConstraint(condition=Q(winner__lte=3), name="fanitem_winner_seat"),
        )

    def __str__(self) -> str:
        return f"{self.winner}: {self.key} {self.value}"

    @property
    def label(self) -> str:
        return fan_label(self.key)


class KongPayment(models.Model):
    """杠分: one payment of a kong (``payer`` → ``konger``), before the round's cap.

    ``kong_index`` numbers the kongs of the round in the order they were made; a kong paid by
    three seats has three rows with the same index. ``kind`` is ``exposed``, ``added``,
    ``concealed`` or the name of a Changchun special kong (``xuanfeng``, ``xi``, ``yao``,
    ``jiu``); ``tiles`` is the meld in mpsz notation. The rows are the kong payments logged with
    the actions that made them (``tables.models.RoundAction.kong_payments``, checked against the
    replay by ``scoring.services.settle_round``); a payment logged without a kong (none so far)
    keeps an empty ``kind``.
    """

    settlement = models.ForeignKey(
        RoundSettlement,
        verbose_name=_("结算"),
        on_delete=models.CASCADE,
        related_name="kong_payments",
    )
    kong_index = models.PositiveSmallIntegerField(_("第几杠"))
    konger = models.PositiveSmallIntegerField(_("开杠座位"))
    kind = models.CharField(_("杠的种类"), max_length=16, blank=True)
    tiles = models.CharField(_("杠的牌"), max_length=64, blank=True)
    payer = models.PositiveSmallIntegerField(_("付分座位"))
    amount = models.IntegerField(_("分数"))

    class Meta:
        verbose_name = _("杠分")
        verbose_name_plural = _("杠分")
        ordering = ("settlement", "kong_index", "payer")
        constraints = (
            models.CheckConstraint(condition=Q(amount__gt=0), name="kongpayment_positive"),
            models.CheckConstraint(condition=~Q(payer=F("konger")), name="kongpayment_not_to_self"),
        )

    def __str__(self) -> str:
        return f"kong {self.kong_index}: {self.payer}→{self.konger} {self.amount}"

    @property
    def label(self) -> str:
        return kong_label(self.kind) if self.kind else "?"


class FailureBackoff(models.Model):
    """A job that failed (a settlement, a review): how often, the last error, and when the sweep
    may try it again. Each failure doubles the wait, from a minute up to a day, so a job that can
    never succeed neither runs every minute for ever nor holds the head of the sweep's window."""

    RETRY_FIRST_S = 60
    RETRY_MAX_S = 24 * 3600

    attempts = models.PositiveIntegerField(_("失败次数"), default=0)
    last_error = models.TextField(_("最后的错误"), blank=True)
    failed_at = models.DateTimeField(_("最后失败时间"))
    next_attempt_at = models.DateTimeField(_("下次重试时间"), db_index=True)

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return f"round {getattr(self, 'round_id', '?')}: {self.attempts} failures"

    @classmethod
    def record(cls, *, round_id: int, error: BaseException, moment: datetime) -> Self:
        """Count one more failure of ``round_id`` at ``moment`` (its row created on the first,
        locked while counted): the next try waits 1, 2, 4 … minutes (≤ a day)."""
        with transaction.atomic():
            failure, _created = cls._default_manager.select_for_update().get_or_create(
                round_id=round_id, defaults={"failed_at": moment, "next_attempt_at": moment}
            )
            failure.attempts += 1
            wait = min(cls.RETRY_FIRST_S * 2 ** (failure.attempts - 1), cls.RETRY_MAX_S)
            failure.failed_at = moment
            failure.next_attempt_at = moment + timedelta(seconds=wait)
            failure.last_error = f"{type(error).__name__}: {error}"[:2000]
            failure.save()
        return failure


class SettlementFailure(FailureBackoff):
    """A round whose settlement raised: when it may be tried again, and what went wrong.

    The sweeper skips a failed round until ``next_attempt_at``, so one round that can never be
    settled no longer sits at the head of the sweeper's window forever, keeping the rounds behind
    it unsettled. The row goes when the round is settled; staff see the rest in the admin.
    """

    round = models.OneToOneField(
        Round, verbose_name=_("牌局"), on_delete=models.CASCADE, related_name="settlement_failure"
    )

    class Meta:
        verbose_name = _("结算失败")
        verbose_name_plural = _("结算失败")
        ordering = ("next_attempt_at",)


class PaymentLine(models.Model):
    """One labelled payment of a round (``payer`` → ``payee``), as the variant's own ledger lists
    them (成麻, where a round has several wins, kongs paid at once and end-of-wall checks):
    ``kind`` is ``win`` (``winner`` names the win), ``kong``, ``zhuanyi`` (呼叫转移),
    ``huazhu`` (查花猪), ``chajiao`` (查大叫) or ``tuishui`` (退税); ``detail`` is the win's way
    and total, or the kong's kind and tile."""

    settlement = models.ForeignKey(
        RoundSettlement,
        verbose_name=_("结算"),
        on_delete=models.CASCADE,
        related_name="payment_lines",
    )
    position = models.PositiveSmallIntegerField(_("顺序"))
    kind = models.CharField(_("种类"), max_length=16)
    payer = models.PositiveSmallIntegerField(_("付分座位"))
    payee = models.PositiveSmallIntegerField(_("收分座位"))
    amount = models.IntegerField(_("分数"))
    winner = models.PositiveSmallIntegerField(_("胡牌座位"), null=True, blank=True)
    detail = models.CharField(_("说明"), max_length=64, blank=True)

    class Meta:
        verbose_name = _("收付")
        verbose_name_plural = _("收付")
        ordering = ("settlement", "position")
        constraints = (
            models.UniqueConstraint(fields=("settlement", "position"), name="paymentline_unique"),
            models.CheckConstraint(condition=Q(amount__gt=0), name="paymentline_positive"),
            models.CheckConstraint(condition=~Q(payer=F("payee")), name="paymentline_two_seats"),
        )

    def __str__(self) -> str:
        return f"{self.kind}: {self.payer}→{self.payee} {self.amount}"


class RoundReview(models.Model):
    """牌谱分析 of one seat of an ended round: every decision of the seat with the
    ``hard`` bot's choice, the candidate discards' shanten and 进张, and the marks
    (:mod:`rules.review`, ``docs/review.md``). Computed once per round, seat and review version
    (``rules.review.REVIEW_VERSION``) by a task after the settlement, or on demand; a new
    version is a new row, never an overwrite."""

    round = models.ForeignKey(
        Round, verbose_name=_("牌局"), on_delete=models.CASCADE, related_name="reviews"
    )
    seat = models.PositiveSmallIntegerField(_("座位"))
    version = models.PositiveSmallIntegerField(_("分析版本"))
    data = models.JSONField(_("分析"))
    created = models.DateTimeField(_("生成时间"), auto_now_add=True)

    class Meta:
        verbose_name = _("牌谱分析")
        verbose_name_plural = _("牌谱分析")
        ordering = ("round", "seat", "-version")
        constraints = (
            models.UniqueConstraint(fields=("round", "seat", "version"), name="roundreview_unique"),
            models.CheckConstraint(condition=Q(seat__lte=3), name="roundreview_seat"),
        )

    def __str__(self) -> str:
        return f"round {self.round_id} seat {self.seat} v{self.version}"


class ReviewFailure(FailureBackoff):
    """A round whose review (牌谱分析) failed to compute. Without it the sweep would send a round
    the review cannot handle to a worker every minute for ever, each time costing a replay; the
    row goes when the review is stored."""

    round = models.OneToOneField(
        Round, verbose_name=_("牌局"), on_delete=models.CASCADE, related_name="review_failure"
    )

    class Meta:
        verbose_name = _("牌谱分析失败")
        verbose_name_plural = _("牌谱分析失败")
        ordering = ("next_attempt_at",)


class RatingState(models.Model):
    """等级分: one player's (or one bot level's) current rating in a club and variant.

    OpenSkill's Plackett–Luce model (``scoring.ratings``): ``mu`` is the estimated skill,
    ``sigma`` its uncertainty; the page shows the conservative value ``mu - 3 sigma`` (scaled).
    A bot is not an account (``Match.players`` holds null for it): every bot of one level plays
    the same program, so a club's 简单 bots share one rating (``bot`` is the level, ``unknown``
    for the bots of matches from before levels were recorded); ``bot`` is empty for a player.
    """

    club = models.ForeignKey(
        Club, verbose_name=_("亲友圈"), on_delete=models.CASCADE, related_name="+"
    )
    variant = models.CharField(_("玩法"), max_length=20, choices=variant_choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("玩家"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="rating_states",
    )
    bot = models.CharField(_("机器人水平"), max_length=10, blank=True)
    mu = models.FloatField(_("技术估计 μ"))
    sigma = models.FloatField(_("不确定度 σ"))
    games = models.PositiveIntegerField(_("计分盘数"), default=0)
    updated_at = models.DateTimeField(_("等级分更新时间"))

    class Meta:
        verbose_name = _("等级分")
        verbose_name_plural = _("等级分")
        ordering = ("club", "variant", "-mu")
        constraints = (
            models.UniqueConstraint(
                fields=("club", "variant", "user"),
                condition=Q(user__isnull=False),
                name="ratingstate_unique_user",
            ),
            models.UniqueConstraint(
                fields=("club", "variant", "bot"),
                condition=Q(user__isnull=True),
                name="ratingstate_unique_bot",
            ),
            models.CheckConstraint(
                condition=(Q(user__isnull=False) & Q(bot="")) | (Q(user__isnull=True) & ~Q(bot="")),
                name="ratingstate_user_xor_bot",
            ),
        )

    def __str__(self) -> str:
        who = self.bot if self.user_id is None else str(self.user_id)
        return f"{self.club_id}/{self.variant}/{who}: {self.mu:.2f}±{self.sigma:.2f}"

    @property
    def conservative(self) -> float:
        return self.mu - 3 * self.sigma


class RatingHistory(models.Model):
    """One player's rating right after one rated round (a row per player per rated round)."""

    state = models.ForeignKey(
        RatingState, verbose_name=_("等级分"), on_delete=models.CASCADE, related_name="history"
    )
    round = models.ForeignKey(
        Round, verbose_name=_("牌局"), on_delete=models.CASCADE, related_name="+"
    )
    ended_at = models.DateTimeField(_("结束时间"))
    mu = models.FloatField(_("技术估计 μ"))
    sigma = models.FloatField(_("不确定度 σ"))
    conservative = models.FloatField(_("保守值 μ−3σ"))
    games = models.PositiveIntegerField(_("计分盘数"))

    class Meta:
        verbose_name = _("等级分记录")
        verbose_name_plural = _("等级分记录")
        ordering = ("state", "games")
        constraints = (
            models.UniqueConstraint(fields=("state", "round"), name="ratinghistory_unique_round"),
        )
        indexes = (models.Index(fields=("state", "games"), name="ratinghistory_state_games"),)

    def __str__(self) -> str:
        return f"{self.state_id} #{self.games}: {self.conservative:.2f}"
