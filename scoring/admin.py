"""The ledgers in the admin: read-only for everyone (a settlement is never edited by hand),
scoped to the clubs a manager runs."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db import models
from django.http import HttpRequest

from accounts.admin_filters import club_filter
from accounts.admin_scoping import ClubScopedModelAdmin
from scoring.models import FanItem, KongPayment, LedgerEntry, RoundSettlement, SettlementFailure


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
    none of its ledger lines, fan items or kong payments (added by the api helper, issue 7).
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
    fields = ("key", "value")
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


@admin.register(RoundSettlement)
class RoundSettlementAdmin(ReadOnlyLedgerAdmin):
    list_display = (
        "round",
        "club",
        "variant",
        "number",
        "winner",
        "win_by",
        "fan_total",
        "net_0",
        "net_1",
        "net_2",
        "net_3",
        "capped",
        "ended_at",
    )
    list_filter = ("variant", "capped", club_filter("club"))
    list_select_related = ("club", "round")
    search_fields = ("match__room__name", "club__name")
    date_hierarchy = "ended_at"
    inlines = (LedgerEntryInline, FanItemInline, KongPaymentInline)


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyLedgerAdmin):
    """账目 line by line: who won or paid what, searchable by player (added by the api helper)."""

    list_display = (
        "ended_at",
        "club",
        "match",
        "settlement",
        "seat",
        "user",
        "won",
        "self_drawn",
        "dealt_in",
        "fan_total",
        "win_amount",
        "kong_amount",
        "cap_adjustment",
        "net",
    )
    list_filter = (club_filter("club"), "variant", "won", "self_drawn", "dealt_in")
    list_select_related = ("club", "user", "match", "settlement")
    search_fields = ("user__username", "user__display_name")
    date_hierarchy = "ended_at"


@admin.register(SettlementFailure)
class SettlementFailureAdmin(ReadOnlyLedgerAdmin):
    """结算失败: rounds whose settlement raised, with the error and when it is tried again."""

    club_field = "round__match__room__club"
    list_display = ("round", "attempts", "failed_at", "next_attempt_at", "last_error")
    list_select_related = ("round",)
    search_fields = ("last_error",)
