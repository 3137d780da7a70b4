"""Rooms in the admin, scoped to the clubs the signed-in manager owns or administers."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from accounts.admin_scoping import ClubScopedModelAdmin
from tables.models import Room


@admin.register(Room)
class RoomAdmin(ClubScopedModelAdmin):
    """A club manager opens, edits and closes the rooms of their own clubs."""

    list_display = ("name", "club", "variant", "base_stake", "status", "invite_code", "created_at")
    list_select_related = ("club",)
    list_filter = ("variant", "status")
    search_fields = ("name", "invite_code", "club__name")
    readonly_fields = ("invite_code", "created_by", "created_at")

    def save_model(self, request: HttpRequest, obj: Room, form: Any, change: bool) -> None:
        if not change and obj.created_by_id is None:
            obj.created_by = request.user  # type: ignore[assignment]
        super().save_model(request, obj, form, change)
