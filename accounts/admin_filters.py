"""A club filter for club-scoped admin lists that never names a club the viewer may not see.

Django's stock ``RelatedFieldListFilter`` on ``club`` lists every club in the database, which
would show a club manager the names of all other clubs; this one lists the clubs the manager runs
(all clubs for site staff who see everything).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from accounts.admin_scoping import managed_club_ids
from accounts.models import Club


class ManagedClubFilter(admin.SimpleListFilter):
    """Filter by club; the model admin's ``club_field`` is the lookup to the club."""

    title = _("亲友圈")
    parameter_name = "club"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        clubs = Club.objects.order_by("name", "pk")
        if not model_admin.sees_everything(request):
            clubs = clubs.filter(pk__in=managed_club_ids(request))
        return [(str(club.pk), club.name) for club in clubs]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = self.value()
        if not value or not (str(value).isascii() and str(value).isdigit()):
            return queryset
        field = getattr(self, "club_field", "club")
        return queryset.filter(**{field if field == "pk" else f"{field}__pk": int(value)})


def club_filter(club_field: str) -> type[ManagedClubFilter]:
    """A :class:`ManagedClubFilter` for models whose club is reached by ``club_field``."""
    return type(f"ClubFilter_{club_field}", (ManagedClubFilter,), {"club_field": club_field})
