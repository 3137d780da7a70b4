"""Rooms, seats and matches in the admin, scoped to the clubs the signed-in manager runs.

A club manager (owner/admin of a club) opens, edits, closes and reopens rooms, dissolves a running
table (网管解散) and removes a player from a seat, always through ``tables.club_admin`` so the same
locks and rules apply as at the table. Matches and their rounds are read-only: the round's seed is
shown only once the round is over (it would reveal every hand). Site staff see every club.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin, messages
from django.db.models import Count, Exists, OuterRef, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from accounts.admin_filters import club_filter
from accounts.admin_scoping import ClubScopedModelAdmin
from accounts.models import User
from tables import bot_names, club_admin, room_options, rooms, selectors
from tables.admin_forms import DissolveActionForm, RoomAdminForm
from tables.errors import TableError
from tables.models import BotLevel, Match, Room, Round, Seat


def _run_each(
    model_admin: admin.ModelAdmin[Any],
    request: HttpRequest,
    items: QuerySet[Any],
    work: Callable[[Any], Any],
    done: Any,
) -> int:
    """Call a table service per object; a refusal becomes an error message, not a 500."""
    count = 0
    for item in items:
        try:
            work(item)
        except TableError as error:
            model_admin.message_user(request, f"{item}: {error}", level=messages.ERROR)
        else:
            count += 1
    if count:
        model_admin.message_user(request, str(done) % {"count": count}, level=messages.SUCCESS)
    return count


@admin.register(Room)
class RoomAdmin(ClubScopedModelAdmin):
    """A club manager opens, edits, closes and reopens the rooms of their own clubs, and
    dissolves a running table with a reason."""

    form = RoomAdminForm
    action_form = DissolveActionForm
    # Deleting a room deletes its matches and their ledgers: managers close rooms instead.
    club_manager_may_delete = False
    list_display = (
        "name",
        "club",
        "variant",
        "base_stake",
        "status",
        "seated",
        "in_play",
        "invite_code",
        "created_at",
    )
    list_select_related = ("club",)
    list_filter = (
        "variant",
        "status",
        club_filter("club"),
        "allow_bots",
        "allow_spectators",
        "practice",
    )
    search_fields = ("name", "invite_code", "club__name")
    readonly_fields = ("invite_code", "status", "seats_now", "created_by", "created_at")
    actions = (
        "close_rooms",
        "reopen_rooms",
        "dissolve_tables",
        "fill_with_easy_bots",
        "fill_with_normal_bots",
        "fill_with_hard_bots",
    )
    fieldsets = (
        (None, {"fields": ("club", "name", "variant", "status", "invite_code", "seats_now")}),
        (
            _("牌桌"),
            {
                "fields": (
                    "base_stake",
                    "turn_timeout_s",
                    "claim_timeout_s",
                    "allow_spectators",
                    "allow_bots",
                    "bot_level",
                    "practice",
                    "bot_hints",
                    "spectator_delay_s",
                )
            },
        ),
        (
            _("规则选项"),
            {
                "description": _("只有所选玩法的选项有效；改动从下一个对局开始生效。"),
                "fields": room_options.form_field_names(),
            },
        ),
        (_("记录"), {"fields": ("created_by", "created_at")}),
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[Room]:
        playing = Match.objects.filter(room=OuterRef("pk"), status=Match.Status.PLAYING)
        found: QuerySet[Room] = super().get_queryset(request)
        return found.annotate(
            seat_count=Count("seats", distinct=True), match_in_play=Exists(playing)
        )

    @admin.display(description=_("入座"), ordering="seat_count")
    def seated(self, room: Room) -> str:
        return f"{getattr(room, 'seat_count', 0)}/4"

    @admin.display(description=_("对局中"), boolean=True, ordering="match_in_play")
    def in_play(self, room: Room) -> bool:
        return bool(getattr(room, "match_in_play", False))

    @admin.display(description=_("座位"))
    def seats_now(self, room: Room) -> str:
        """Who sits where; a player is removed with the seat list's action (linked here)."""
        if room.pk is None:
            return "—"
        seats = list(Seat.objects.filter(room=room).select_related("user").order_by("index"))
        bots = bot_names.table_bots(seats, room.bot_level)
        link = reverse("admin:tables_seat_changelist") + f"?room__id__exact={room.pk}"
        listed = ", ".join(f"{seat.index}: {bot_names.seated_name(seat, bots)}" for seat in seats)
        return format_html('{} <a href="{}">{}</a>', listed or "—", link, _("管理座位"))

    def save_model(self, request: HttpRequest, obj: Room, form: Any, change: bool) -> None:
        if not change and obj.created_by_id is None:
            obj.created_by = request.user  # type: ignore[assignment]
        super().save_model(request, obj, form, change)

    @admin.action(description=_("关闭房间"), permissions=("change",))
    def close_rooms(self, request: HttpRequest, queryset: QuerySet[Room]) -> None:
        _run_each(
            self,
            request,
            queryset,
            lambda room: club_admin.room_close(room=room, actor=request.user),
            _("已关闭 %(count)d 个房间。"),
        )

    @admin.action(description=_("重新开放房间"), permissions=("change",))
    def reopen_rooms(self, request: HttpRequest, queryset: QuerySet[Room]) -> None:
        _run_each(
            self,
            request,
            queryset,
            lambda room: club_admin.room_reopen(room=room, actor=request.user),
            _("已重新开放 %(count)d 个房间。"),
        )

    @admin.action(description=_("解散牌桌（本盘作废，不结算）"), permissions=("change",))
    def dissolve_tables(self, request: HttpRequest, queryset: QuerySet[Room]) -> None:
        reason = request.POST.get("reason", "").strip()
        if not reason:
            self.message_user(
                request, _("请在“原因”里写明解散的原因，玩家会看到它。"), level=messages.ERROR
            )
            return
        _run_each(
            self,
            request,
            queryset,
            lambda room: club_admin.table_dissolve(room=room, actor=request.user, reason=reason),
            _("已解散 %(count)d 张牌桌。"),
        )

    def _fill(self, request: HttpRequest, queryset: QuerySet[Room], level: str) -> None:
        _run_each(
            self,
            request,
            queryset,
            lambda room: rooms.seats_fill_with_bots(room=room, user=request.user, level=level),
            _("已为 %(count)d 个房间补上机器人。"),
        )

    @admin.action(description=_("机器人补位（简单）"), permissions=("change",))
    def fill_with_easy_bots(self, request: HttpRequest, queryset: QuerySet[Room]) -> None:
        self._fill(request, queryset, BotLevel.EASY)

    @admin.action(description=_("机器人补位（普通）"), permissions=("change",))
    def fill_with_normal_bots(self, request: HttpRequest, queryset: QuerySet[Room]) -> None:
        self._fill(request, queryset, BotLevel.NORMAL)

    @admin.action(description=_("机器人补位（困难）"), permissions=("change",))
    def fill_with_hard_bots(self, request: HttpRequest, queryset: QuerySet[Room]) -> None:
        self._fill(request, queryset, BotLevel.HARD)


@admin.register(Seat)
class SeatAdmin(ClubScopedModelAdmin):
    """Seats: read-only, with the action that removes a player (or a bot) from the table."""

    club_field = "room__club"
    club_manager_may_add = False
    club_manager_may_delete = False
    list_display = (
        "room",
        "index",
        "user",
        "is_bot",
        "bot_level",
        "ready",
        "auto_play",
        "connected",
    )
    list_select_related = ("room", "room__club", "user")
    list_filter = (club_filter("room__club"), "is_bot", "ready", "auto_play")
    search_fields = ("room__name", "room__invite_code", "user__username", "user__display_name")
    readonly_fields = list_display
    fields = list_display
    actions = ("remove_from_seat",)

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest) -> bool:
        # The room page links here filtered by room; the queryset is club-scoped anyway.
        return lookup == "room__id__exact" or super().lookup_allowed(lookup, value, request)

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # standing someone up goes through the service (it may end the match)

    @admin.action(description=_("请离座位（对局中则本局结束，本盘作废）"), permissions=("change",))
    def remove_from_seat(self, request: HttpRequest, queryset: QuerySet[Seat]) -> None:
        reason = request.POST.get("reason", "").strip()
        _run_each(
            self,
            request,
            queryset,
            lambda seat: club_admin.seat_remove(
                room=seat.room, actor=request.user, index=seat.index, reason=reason
            ),
            _("已请离 %(count)d 个座位。"),
        )

    action_form = DissolveActionForm


class RoundInline(admin.TabularInline):  # type: ignore[type-arg]
    """The match's rounds, read-only; the seed only once the round is over."""

    model = Round
    extra = 0
    fields = ("number", "status", "dealer", "commitment", "revealed_seed", "started_at", "ended_at")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return True  # shown only on a match page, which the match's own admin scoped already

    def get_queryset(self, request: HttpRequest) -> QuerySet[Round]:
        return super().get_queryset(request).defer("state")

    @admin.display(description=_("种子"))
    def revealed_seed(self, rnd: Round) -> str:
        # Secret while the round is played: it decides every tile (spec README, item 2).
        if rnd.status != Round.Status.ENDED or selectors.wall_still_in_play(rnd):
            return "—"  # duplicate walls: another table still plays this seed
        return rnd.seed


@admin.register(Match)
class MatchAdmin(ClubScopedModelAdmin):
    """Match history of the manager's clubs, read-only (rounds inline; ledgers in scoring)."""

    club_field = "room__club"
    club_manager_may_add = False
    club_manager_may_delete = False
    list_display = (
        "pk",
        "room",
        "club_name",
        "variant",
        "status",
        "seat_names",
        "started_at",
        "ended_at",
        "end_reason",
    )
    list_select_related = ("room", "room__club")
    list_filter = (club_filter("room__club"), "status", "variant", "end_reason")
    search_fields = ("room__name", "room__club__name", "end_reason")
    date_hierarchy = "started_at"
    fields = (
        "room",
        "variant",
        "options",
        "status",
        "seat_names",
        "started_at",
        "ended_at",
        "end_reason",
    )
    readonly_fields = fields
    inlines = (RoundInline,)

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_changelist_instance(self, request: HttpRequest) -> Any:
        """Read the players' names of the whole page in one query (no query per row)."""
        changelist = super().get_changelist_instance(request)
        ids = {u for m in changelist.result_list for u in (m.players or []) if u is not None}
        names = {u.pk: u.public_name for u in User.objects.filter(pk__in=ids)}
        for match in changelist.result_list:
            match._seat_names = names
        return changelist

    @admin.display(description=_("亲友圈"), ordering="room__club__name")
    def club_name(self, match: Match) -> str:
        return match.room.club.name

    @admin.display(description=_("玩家"))
    def seat_names(self, match: Match) -> str:
        ids = list(match.players or [])
        names: dict[int, str] | None = getattr(match, "_seat_names", None)
        if names is None:  # the change page: one match, one query
            names = {
                u.pk: u.public_name
                for u in User.objects.filter(pk__in=[u for u in ids if u is not None])
            }
        return " / ".join(bot_names.seat_names(ids, names, match.bot_levels or ()))


from tables.tournaments import admin as _tournament_admin  # noqa: E402,F401  (registers events)
