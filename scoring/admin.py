"""The ledgers in the admin: read-only for everyone (a settlement is never edited by hand),
scoped to the clubs a manager runs."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db import models
from django.http import HttpRequest
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.admin_filters import club_filter
from accounts.admin_scoping import ClubScopedModelAdmin
from scoring import ratings, selectors
from scoring.labels import win_by_label
from scoring.models import (
    FanItem,
    KongPayment,
    LedgerEntry,
    PaymentLine,
    RatingState,
    ReviewFailure,
    RoundReview,
    RoundSettlement,
    SettlementFailure,
)
from tables import bot_names


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


class ReadOnlyLedgerAdmin(ClubScopedModelAdmin):
    """View only: nobody adds, changes or deletes ledger rows through the admin."""

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: models.Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: models.Model | None = None) -> bool:
        return False


class SettlementLinesMixin:
    """Lines shown on a settlement page, which the settlement's own admin has scoped already.

    Without this a club manager (who holds no model permissions) would see the settlement but
    none of its ledger lines, fan items or kong payments.
    """

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return True


class LedgerEntryInline(SettlementLinesMixin, admin.TabularInline):  # type: ignore[type-arg]
    model = LedgerEntry
    fields = (
        "seat",
        "user",
        "won",
        "fan_total",
        "win_amount",
        "kong_amount",
        "settle_amount",
        "cap_adjustment",
        "net",
    )
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class FanItemInline(SettlementLinesMixin, admin.TabularInline):  # type: ignore[type-arg]
    model = FanItem
    fields = ("winner", "key", "value")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class KongPaymentInline(SettlementLinesMixin, admin.TabularInline):  # type: ignore[type-arg]
    model = KongPayment
    fields = ("kong_index", "konger", "kind", "tiles", "payer", "amount")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class PaymentLineInline(SettlementLinesMixin, admin.TabularInline):  # type: ignore[type-arg]
    """成麻's labelled payments: each win, kong payment, 呼叫转移 and end-of-wall check."""

    model = PaymentLine
    fields = ("position", "kind", "payer", "payee", "amount", "winner", "detail")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(RoundSettlement)
class RoundSettlementAdmin(ReadOnlyLedgerAdmin):
    """结算: one row per round — where, who won how, and what each player won or paid."""

    list_display = (
        "ended_at",
        "club",
        "room_round",
        "variant",
        "outcome",
        "amounts",
        "fan_total",
        "capped",
    )
    list_filter = ("variant", "capped", club_filter("club"))
    list_select_related = ("club", "round", "match__room")
    search_fields = ("match__room__name", "club__name")
    date_hierarchy = "ended_at"
    inlines = (LedgerEntryInline, FanItemInline, KongPaymentInline, PaymentLineInline)

    def get_queryset(self, request: HttpRequest) -> models.QuerySet[RoundSettlement]:
        # The players' names come from the ledger lines, fetched once for the whole page.
        return super().get_queryset(request).prefetch_related("entries__user")

    @admin.display(description=_("房间 · 盘"), ordering="number")
    def room_round(self, obj: RoundSettlement) -> str:
        return gettext("%(room)s 第 %(n)s 盘") % {"room": obj.match.room.name, "n": obj.number}

    @staticmethod
    def _names(obj: RoundSettlement) -> list[str]:
        players = {e.seat: e.user_id for e in obj.entries.all()}
        names = {e.user.pk: str(e.user.public_name) for e in obj.entries.all() if e.user}
        seats = [players.get(seat) for seat in range(4)]
        return bot_names.seat_names(seats, names, obj.match.bot_levels or ())

    @admin.display(description=_("结果"))
    def outcome(self, obj: RoundSettlement) -> str:
        names = self._names(obj)
        if obj.winner is None:
            return win_by_label(None)  # the rules' 荒庄 mark
        won = [entry for entry in obj.entries.all() if entry.won]
        if len(won) > 1:  # 成麻 (血战到底): every winner, not only the first
            return "，".join(
                (gettext("%(who)s 自摸") if entry.self_drawn else gettext("%(who)s 胡"))
                % {"who": names[entry.seat]}
                for entry in won
            )
        if obj.discarder is not None:
            return gettext("%(winner)s 胡，%(discarder)s 点炮") % {
                "winner": names[obj.winner],
                "discarder": names[obj.discarder],
            }
        return f"{names[obj.winner]} {win_by_label(obj.win_by)}"

    @admin.display(description=_("输赢"))
    def amounts(self, obj: RoundSettlement) -> str:
        names = self._names(obj)
        pairs = zip(names, obj.nets, strict=True)
        return "，".join(f"{name} {_signed(net)}" for name, net in pairs)


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyLedgerAdmin):
    """账目 line by line: who won or paid what, searchable by player (added by the api helper);
    the player and the amount first, so a manager reads the ledger at a glance."""

    list_display = (
        "ended_at",
        "player",
        "amount",
        "club",
        "room_round",
        "result",
        "fan_total",
        "win_amount",
        "kong_amount",
        "cap_adjustment",
    )
    list_filter = (club_filter("club"), "variant", "won", "self_drawn", "dealt_in")
    list_select_related = ("club", "user", "settlement__match__room")
    search_fields = ("user__username", "user__display_name")
    date_hierarchy = "ended_at"

    @admin.display(description=_("玩家"), ordering="user__username")
    def player(self, obj: LedgerEntry) -> str:
        if obj.user is not None:
            return str(obj.user.public_name)
        return selectors.bot_seat_name(obj.settlement.match, obj.seat)

    @admin.display(description=_("输赢"), ordering="net")
    def amount(self, obj: LedgerEntry) -> str:
        return _signed(obj.net)

    @admin.display(description=_("房间 · 盘"))
    def room_round(self, obj: LedgerEntry) -> str:
        settlement = obj.settlement
        return gettext("%(room)s 第 %(n)s 盘") % {
            "room": settlement.match.room.name,
            "n": settlement.number,
        }

    @admin.display(description=_("胡牌情况"))
    def result(self, obj: LedgerEntry) -> str:
        if obj.won:
            return gettext("自摸") if obj.self_drawn else gettext("胡")
        return gettext("点炮") if obj.dealt_in else "—"


@admin.register(SettlementFailure)
class SettlementFailureAdmin(ReadOnlyLedgerAdmin):
    """结算失败: rounds whose settlement raised, with the error and when it is tried again."""

    club_field = "round__match__room__club"
    list_display = ("round", "attempts", "failed_at", "next_attempt_at", "last_error")
    list_select_related = ("round",)
    search_fields = ("last_error",)


@admin.register(ReviewFailure)
class ReviewFailureAdmin(SettlementFailureAdmin):
    """牌谱分析失败: rounds whose review raised, with the error and when it is tried again."""


@admin.register(RatingState)
class RatingStateAdmin(ReadOnlyLedgerAdmin):
    """等级分: each player's (and bot level's) rating per club and variant; computed
    from the ledger, never edited: ``manage.py rating_recompute`` rebuilds it."""

    list_display = ("player", "club", "variant", "shown", "games", "mu", "sigma", "updated_at")
    list_filter = (club_filter("club"), "variant", "bot")
    list_select_related = ("club", "user")
    search_fields = ("user__username", "user__display_name")
    ordering = ("club", "variant", "-mu")

    @admin.display(description=_("玩家"), ordering="user__username")
    def player(self, obj: RatingState) -> str:
        if obj.user is not None:
            return str(obj.user.public_name)
        return ratings.bot_level_name(obj.bot)

    @admin.display(description=_("等级分"))
    def shown(self, obj: RatingState) -> str:
        return f"{ratings.display(obj.conservative):.0f}"


@admin.register(RoundReview)
class RoundReviewAdmin(ReadOnlyLedgerAdmin):
    """牌谱分析: the stored review of each seat of a round, read-only (computed by the
    review task, a new version is a new row)."""

    club_field = "round__match__room__club"
    list_display = ("round", "seat", "version", "agreement", "status", "created")
    list_filter = ("version", club_filter("round__match__room__club"))
    list_select_related = ("round",)
    readonly_fields = ("round", "seat", "version", "data", "created")
    ordering = ("-round", "seat", "-version")

    @admin.display(description=_("一致率"))
    def agreement(self, obj: RoundReview) -> str:
        rate = obj.data.get("agreement") if isinstance(obj.data, dict) else None
        if rate is None:
            return "—"
        return f"{float(rate):.0%}"

    @admin.display(description=_("状态"))
    def status(self, obj: RoundReview) -> str:
        """How many decisions are marked ("3 处值得再想"), or none."""
        marked = int(obj.data.get("marked") or 0) if isinstance(obj.data, dict) else 0
        if not marked:
            return gettext("无值得再想之处")
        return gettext("%(n)s 处值得再想") % {"n": marked}
