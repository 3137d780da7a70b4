"""Admin for players, clubs and memberships; clubs and memberships are club-scoped."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from accounts import services
from accounts.admin_scoping import ClubScopedModelAdmin, managed_club_ids
from accounts.errors import ClubError
from accounts.models import Club, Membership, User

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise  # dev-only package: annotations only


def _actor(request: HttpRequest) -> User:
    """The signed-in admin user (the admin site lets no anonymous user this far)."""
    assert isinstance(request.user, User)
    return request.user


@admin.register(User)
class UserAdmin(DjangoUserAdmin):  # type: ignore[type-arg]
    """Django's user admin plus the profile fields (site staff only)."""

    fieldsets = (
        *(DjangoUserAdmin.fieldsets or ()),
        (_("资料"), {"fields": ("display_name", "avatar_color", "language")}),
    )
    list_display = ("username", "display_name", "email", "language", "is_staff", "is_active")
    search_fields = ("username", "display_name", "email")


class MembershipInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Membership
    extra = 0
    fields = ("user", "role", "status", "joined_at")
    readonly_fields = ("user", "role", "status", "joined_at")
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # players join by invite code, never added behind their back

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Staff with the permission, or a manager looking at their own club's page."""
        if super().has_view_permission(request, obj):
            return True
        return obj is not None and obj.pk in managed_club_ids(request)


@admin.register(Club)
class ClubAdmin(ClubScopedModelAdmin):
    """Clubs: a manager edits name, description and join policy of their own clubs."""

    club_field = "pk"
    club_manager_may_add = False  # clubs are opened from the site, where the opener becomes owner
    club_manager_may_delete = False  # deleting a club deletes its rooms: site staff only
    list_display = ("name", "owner", "join_policy", "invite_code", "created_at")
    list_select_related = ("owner",)
    search_fields = ("name", "invite_code", "owner__username")
    list_filter = ("join_policy",)
    readonly_fields = ("invite_code", "created_at")
    inlines = (MembershipInline,)
    actions = ("regenerate_invite_code",)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = tuple(super().get_readonly_fields(request, obj))
        if obj is not None and not self.has_site_wide_permission(request, "change"):
            return (*fields, "owner")
        return fields

    @admin.action(description=_("重新生成邀请码"), permissions=("change",))
    def regenerate_invite_code(self, request: HttpRequest, queryset: QuerySet[Club]) -> None:
        for club in queryset:
            _apply(
                self,
                request,
                lambda club=club: services.club_regenerate_code(  # type: ignore[misc]
                    actor=_actor(request), club=club
                ),
            )


def _apply(
    model_admin: admin.ModelAdmin[Any], request: HttpRequest, work: Callable[[], Any]
) -> bool:
    """Run one service call for an admin action, turning a refusal into an error message."""
    try:
        work()
    except ClubError as error:
        model_admin.message_user(request, str(error), level=messages.ERROR)
        return False
    return True


@admin.register(Membership)
class MembershipAdmin(ClubScopedModelAdmin):
    """Memberships: approve, reject, remove and appoint through actions that go via the services.

    Managers change memberships only through the actions, so the role rules in
    ``accounts.services`` (e.g. an admin cannot remove another admin) always apply.
    """

    club_manager_may_add = False
    club_manager_may_delete = False
    list_display = ("user", "club", "role", "status", "joined_at")
    list_select_related = ("user", "club")
    list_filter = ("status", "role")
    search_fields = ("user__username", "user__display_name", "club__name")
    actions = ("approve", "reject", "remove", "make_admin", "make_member")

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if self.has_site_wide_permission(request, "change"):
            return ("joined_at",)
        return ("club", "user", "role", "status", "joined_at")

    def _run(
        self,
        request: HttpRequest,
        queryset: QuerySet[Membership],
        service: Callable[..., Any],
        done: StrOrPromise,
        **extra: Any,
    ) -> None:
        count = 0
        for membership in queryset.select_related("club"):
            if _apply(
                self,
                request,
                lambda m=membership: service(actor=_actor(request), membership=m, **extra),  # type: ignore[misc]
            ):
                count += 1
        if count:
            self.message_user(request, str(done) % {"count": count}, level=messages.SUCCESS)

    @admin.action(description=_("通过申请"), permissions=("change",))
    def approve(self, request: HttpRequest, queryset: QuerySet[Membership]) -> None:
        self._run(request, queryset, services.membership_approve, _("已通过 %(count)d 个申请。"))

    @admin.action(description=_("拒绝申请"), permissions=("change",))
    def reject(self, request: HttpRequest, queryset: QuerySet[Membership]) -> None:
        self._run(request, queryset, services.membership_reject, _("已拒绝 %(count)d 个申请。"))

    @admin.action(description=_("移出亲友圈"), permissions=("change",))
    def remove(self, request: HttpRequest, queryset: QuerySet[Membership]) -> None:
        self._run(request, queryset, services.membership_remove, _("已移出 %(count)d 名成员。"))

    @admin.action(description=_("设为管理员"), permissions=("change",))
    def make_admin(self, request: HttpRequest, queryset: QuerySet[Membership]) -> None:
        self._run(
            request,
            queryset,
            services.membership_set_role,
            _("已更新 %(count)d 名成员的角色。"),
            role=Membership.Role.ADMIN,
        )

    @admin.action(description=_("设为普通成员"), permissions=("change",))
    def make_member(self, request: HttpRequest, queryset: QuerySet[Membership]) -> None:
        self._run(
            request,
            queryset,
            services.membership_set_role,
            _("已更新 %(count)d 名成员的角色。"),
            role=Membership.Role.MEMBER,
        )
