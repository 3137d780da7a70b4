"""Club-scoped admin: a club's owner and admins manage that club's objects and nothing else.

Two kinds of admin users:

* **site-wide**: staff holding the Django model permission (superusers hold them all) see and edit
  every object, as in a stock Django admin;
* **club managers**: any active owner/admin of a club (staff or not, see ``accounts.admin_site``)
  see only objects of the clubs they manage — in changelists, by direct URL (the object is simply
  not found, so the admin redirects to its index), and in ``club`` choices on forms, so an object
  cannot be moved into a club they do not manage.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth import get_permission_codename
from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.db.models import QuerySet
from django.forms import ModelChoiceField
from django.http import HttpRequest

from accounts import membership
from accounts.models import Club, User


def managed_club_ids(request: HttpRequest) -> frozenset[int]:
    """Ids of the clubs the signed-in user owns or administers (``accounts.membership``: an
    active membership and an active account), read once per request.

    An admin page asks "may they?" many times (every model on the index, every action); caching
    on the request keeps that to one query.
    """
    cached: frozenset[int] | None = getattr(request, "_managed_club_ids", None)
    if cached is None:
        user = request.user
        if isinstance(user, User):
            ids = membership.managed_club_ids(user).values_list("club", flat=True)
            cached = frozenset(ids)
        else:
            cached = frozenset()
        request._managed_club_ids = cached  # type: ignore[attr-defined]
    return cached


def _managed_clubs(request: HttpRequest) -> QuerySet[Club]:
    return Club.objects.filter(pk__in=managed_club_ids(request))


def scoped_choices(model: Any, request: HttpRequest) -> QuerySet[Any] | None:
    """The objects of ``model`` a club manager may pick in a form, or None if not club-bound.

    Clubs: those they manage. A model with a ``club`` foreign key (a room): its objects in those
    clubs. Anything else (e.g. users) is left alone.
    """
    if model is Club:
        return _managed_clubs(request)
    try:
        field = model._meta.get_field("club")
    except (AttributeError, FieldDoesNotExist):
        return None
    if getattr(field, "related_model", None) is not Club:
        return None
    queryset: QuerySet[Any] = model._default_manager.filter(club__in=managed_club_ids(request))
    return queryset


class ClubScopedAdminMixin:
    """Mix into a ``ModelAdmin`` of a model that belongs to a club.

    ``club_field`` is the lookup from the model to its club (``"club"`` for a room, ``"pk"`` for
    the club itself, ``"room__club"`` for a seat). Club managers get view/add/change/delete on
    objects of their clubs; set ``club_manager_may_add`` / ``club_manager_may_delete`` to False to
    withhold those. Foreign keys to clubs, or to club-bound models such as rooms, offer a manager
    only the choices inside their clubs.
    """

    club_field: str = "club"
    club_manager_may_add: bool = True
    club_manager_may_delete: bool = True

    # --- who is who -----------------------------------------------------------------------
    def has_site_wide_permission(self, request: HttpRequest, action: str) -> bool:
        """Staff with the model permission ``action`` (view/add/change/delete) see everything."""
        user = request.user
        if not (user.is_active and getattr(user, "is_staff", False)):
            return False
        opts = self.model._meta  # type: ignore[attr-defined]
        return user.has_perm(f"{opts.app_label}.{get_permission_codename(action, opts)}")

    def sees_everything(self, request: HttpRequest) -> bool:
        return self.has_site_wide_permission(request, "view") or self.has_site_wide_permission(
            request, "change"
        )

    def club_of(self, obj: models.Model) -> Club:
        if self.club_field == "pk":
            assert isinstance(obj, Club)
            return obj
        club: object = obj
        for step in self.club_field.split("__"):
            club = getattr(club, step)
        assert isinstance(club, Club)
        return club

    def manages(self, request: HttpRequest, obj: models.Model | None) -> bool:
        """A club manager, and — given an object — a manager of that object's club."""
        clubs = managed_club_ids(request)
        if obj is None:
            return bool(clubs)
        return self.club_of(obj).pk in clubs

    # --- what they see --------------------------------------------------------------------
    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        queryset: QuerySet[Any] = super().get_queryset(request)  # type: ignore[misc]
        if self.sees_everything(request):
            return queryset
        return queryset.filter(**{f"{self.club_field}__in": managed_club_ids(request)})

    def formfield_for_foreignkey(
        self, db_field: models.ForeignKey[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> ModelChoiceField[Any] | None:
        if not self.has_site_wide_permission(request, "change"):
            # A manager may only put objects in clubs they manage (a forged POST fails validation).
            choices = scoped_choices(db_field.related_model, request)
            if choices is not None:
                kwargs["queryset"] = choices
        field: ModelChoiceField[Any] | None = super().formfield_for_foreignkey(  # type: ignore[misc]
            db_field, request, **kwargs
        )
        return field

    # --- what they may do -----------------------------------------------------------------
    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(super().has_module_permission(request)) or self.manages(request, None)  # type: ignore[misc]

    def has_view_permission(self, request: HttpRequest, obj: models.Model | None = None) -> bool:
        if super().has_view_permission(request, obj):  # type: ignore[misc]
            return True
        return self.manages(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: models.Model | None = None) -> bool:
        if super().has_change_permission(request, obj):  # type: ignore[misc]
            return True
        return self.manages(request, obj)

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        if super().has_add_permission(request, *args):  # type: ignore[misc]
            return True
        return self.club_manager_may_add and self.manages(request, None)

    def has_delete_permission(self, request: HttpRequest, obj: models.Model | None = None) -> bool:
        if super().has_delete_permission(request, obj):  # type: ignore[misc]
            return True
        return self.club_manager_may_delete and self.manages(request, obj)


class ClubScopedModelAdmin(ClubScopedAdminMixin, admin.ModelAdmin):  # type: ignore[type-arg]
    """A ``ModelAdmin`` with club scoping, for the common case."""
