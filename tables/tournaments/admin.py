"""Events in the admin, scoped to the clubs the signed-in manager runs; the schedule's
buttons (start, advance, pause, resume, end) call the same services as the event pages."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from accounts.admin_scoping import ClubScopedModelAdmin
from tables.errors import TableError
from tables.models import (
    Entrant,
    ForbiddenPair,
    Notification,
    Tournament,
    TournamentRound,
    TournamentTable,
)
from tables.tournaments import services


def _each(
    model_admin: admin.ModelAdmin[Any],
    request: HttpRequest,
    items: QuerySet[Tournament],
    work: Callable[[Tournament], Any],
) -> None:
    for item in items:
        try:
            work(item)
        except TableError as error:
            model_admin.message_user(request, f"{item}: {error}", level=messages.ERROR)
        else:
            model_admin.message_user(request, f"{item}: OK", level=messages.SUCCESS)


class EntrantInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Entrant
    extra = 0
    fields = ("user", "is_bot", "bot_level", "name", "withdrawn")
    readonly_fields = ("user", "is_bot", "bot_level", "name")


@admin.register(Tournament)
class TournamentAdmin(ClubScopedModelAdmin):
    list_display = (
        "name",
        "club",
        "variant",
        "rounds",
        "round_length",
        "status",
        "current_round",
        "starts_at",
    )
    list_filter = ("status", "variant")
    search_fields = ("name",)
    readonly_fields = ("status", "current_round", "paused_at", "finished_at", "created_by")
    inlines = (EntrantInline,)
    actions = ("start", "advance", "pause", "resume", "end")

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)

    @admin.action(description=_("开始比赛"))
    def start(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        _each(
            self,
            request,
            queryset,
            lambda t: services.tournament_start(tournament=t, actor=request.user),
        )

    @admin.action(description=_("检查并进入下一轮"))
    def advance(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        _each(self, request, queryset, lambda t: services.tournament_advance(tournament_id=t.pk))

    @admin.action(description=_("暂停"))
    def pause(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        _each(
            self,
            request,
            queryset,
            lambda t: services.tournament_pause(tournament=t, actor=request.user),
        )

    @admin.action(description=_("继续"))
    def resume(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        _each(
            self,
            request,
            queryset,
            lambda t: services.tournament_resume(tournament=t, actor=request.user),
        )

    @admin.action(description=_("结束比赛"))
    def end(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        _each(
            self,
            request,
            queryset,
            lambda t: services.tournament_end(tournament=t, actor=request.user),
        )


@admin.register(Entrant)
class EntrantAdmin(ClubScopedModelAdmin):
    club_field = "tournament__club"
    list_display = ("__str__", "tournament", "is_bot", "withdrawn", "registered_at")
    list_filter = ("is_bot", "withdrawn")


@admin.register(ForbiddenPair)
class ForbiddenPairAdmin(ClubScopedModelAdmin):
    club_field = "tournament__club"
    list_display = ("__str__", "tournament")


class TableInline(admin.TabularInline):  # type: ignore[type-arg]
    model = TournamentTable
    extra = 0
    fields = ("number", "seats", "room", "match")
    readonly_fields = fields
    can_delete = False


@admin.register(TournamentRound)
class TournamentRoundAdmin(ClubScopedModelAdmin):
    """Rounds are seated by the schedule; the admin reads them (the wall seed stays hidden)."""

    club_field = "tournament__club"
    club_manager_may_add = False
    club_manager_may_delete = False
    list_display = ("__str__", "status", "started_at", "clock_ends_at", "finished_at")
    exclude = ("wall_seed",)
    readonly_fields = ("tournament", "number", "status", "sitting_out", "started_at", "finished_at")
    inlines = (TableInline,)


@admin.register(TournamentTable)
class TournamentTableAdmin(ClubScopedModelAdmin):
    club_field = "round__tournament__club"
    club_manager_may_add = False
    club_manager_may_delete = False
    list_display = ("__str__", "room", "match")
    readonly_fields = ("round", "number", "seats", "room", "match")


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("user", "text", "read", "created_at")
    list_filter = ("read",)
    search_fields = ("text", "user__username")
    raw_id_fields = ("user",)
