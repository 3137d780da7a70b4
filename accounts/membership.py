"""The membership policy: who counts as an *active member* of a club, and who manages one.

Written once here and used by every edge that asks (lobby views and forms, the API, the table
socket, the admin, the table and scoring services): an active member has an ``active``
membership and an active account (a closed account keeps its membership rows but plays nowhere,
issue 14 item 8). A manager is an active member whose role is owner or admin.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from accounts.models import Membership

MANAGER_ROLES = (Membership.Role.OWNER, Membership.Role.ADMIN)


def active_memberships(user: Any) -> QuerySet[Membership]:
    """The user's active memberships (``user`` an instance or a primary key)."""
    return Membership.objects.filter(
        user=user, status=Membership.Status.ACTIVE, user__is_active=True
    )


def active_club_ids(user: Any) -> QuerySet[Membership, Any]:
    """The ids of the clubs the user is an active member of, as a subquery (``club__in=``)."""
    return active_memberships(user).values("club")


def is_active_member(user: Any, club_id: int) -> bool:
    """True if ``user`` (an instance or a primary key) is an active member of the club."""
    return active_memberships(user).filter(club_id=club_id).exists()


def is_club_manager(user: Any, club_id: int) -> bool:
    """True if ``user`` is an active owner or admin of the club."""
    return active_memberships(user).filter(club_id=club_id, role__in=MANAGER_ROLES).exists()
