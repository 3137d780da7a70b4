"""The membership policy: who counts as an *active member* of a club, and who manages one.

Written once here and used by every edge that asks: the club services (``accounts.services``),
the club pages and the API (``accounts.views``, ``accounts.api``), the admin (``admin_site``,
``admin_scoping``), the table socket, the table and scoring services. Nothing else decides.

* An **active member** has an ``active`` membership (not a pending request) *and* an active
  account: a closed account (``User.is_active`` False) keeps its membership rows, for history,
  but plays nowhere and manages nothing.
* A **manager** is an active member whose role is owner (圈主) or admin (管理员); the **owner** an
  active member whose role is owner. A deactivated owner or admin, or one whose membership is not
  active (e.g. set back to pending by staff), therefore manages nothing, on every path.
* An active **site superuser** may do what a club's owner may (support and moderation).

The account's state is read from the database with the membership (``user__is_active``), never
from the user object in hand: an object loaded before the account was closed must not keep its
powers.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from accounts.models import Membership, User

MANAGER_ROLES = (Membership.Role.OWNER, Membership.Role.ADMIN)


def active_memberships(user: Any) -> QuerySet[Membership]:
    """The user's active memberships (``user`` an instance or a primary key)."""
    if getattr(user, "is_authenticated", True) is False:
        return Membership.objects.none()  # an anonymous visitor belongs nowhere
    return Membership.objects.filter(
        user=user, status=Membership.Status.ACTIVE, user__is_active=True
    )


def active_club_ids(user: Any) -> QuerySet[Membership, Any]:
    """The ids of the clubs the user is an active member of, as a subquery (``club__in=``)."""
    return active_memberships(user).values("club")


def managed_club_ids(user: Any) -> QuerySet[Membership, Any]:
    """The ids of the clubs the user manages (active owner or admin), as a subquery."""
    return active_memberships(user).filter(role__in=MANAGER_ROLES).values("club")


def is_active_member(user: Any, club_id: int) -> bool:
    """True if ``user`` (an instance or a primary key) is an active member of the club."""
    return active_memberships(user).filter(club_id=club_id).exists()


def is_club_manager(user: Any, club_id: int) -> bool:
    """True if ``user`` is an active owner or admin of the club."""
    return active_memberships(user).filter(club_id=club_id, role__in=MANAGER_ROLES).exists()


def is_club_owner(user: Any, club_id: int) -> bool:
    """True if ``user`` is the club's active owner."""
    return active_memberships(user).filter(club_id=club_id, role=Membership.Role.OWNER).exists()


def is_site_moderator(user: Any) -> bool:
    """An active site superuser, who may act for any club's owner (support, moderation); the
    database has the last word (one query, only for a user object that claims to be one)."""
    if not (getattr(user, "is_active", False) and getattr(user, "is_superuser", False)):
        return False
    return User.objects.filter(pk=user.pk, is_active=True, is_superuser=True).exists()


def may_manage_club(user: Any, club_id: int) -> bool:
    """May approve, reject and remove members, edit the club and renew its code."""
    return is_site_moderator(user) or is_club_manager(user, club_id)


def may_own_club(user: Any, club_id: int) -> bool:
    """May do what only the owner does: appoint or demote admins, remove an admin."""
    return is_site_moderator(user) or is_club_owner(user, club_id)


def membership_manages(membership: Membership) -> bool:
    """Whether this membership row gives its holder a manager's powers (a page asking about
    the membership it already loaded): active, owner or admin, and the account still active."""
    return (
        membership.status == Membership.Status.ACTIVE
        and membership.role in MANAGER_ROLES
        and membership.user.is_active
    )
