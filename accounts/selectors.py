"""Reads about players and clubs (HackSoft style: selectors read, services write)."""

from __future__ import annotations

from django.db.models import QuerySet

from accounts import membership
from accounts.models import Club, Membership, User


def memberships_of_user(*, user: User) -> QuerySet[Membership]:
    """All the player's memberships, pending requests included, with their clubs."""
    return Membership.objects.filter(user=user).select_related("club", "club__owner")


def clubs_managed_by(*, user: User) -> QuerySet[Club]:
    """Clubs the player owns or administers, by the membership policy (an active membership
    and an active account: a deactivated owner or admin manages none)."""
    return Club.objects.filter(pk__in=membership.managed_club_ids(user))


def membership_of(*, user: User, club: Club) -> Membership | None:
    """The player's membership in the club (active or pending), or None."""
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(user=user, club=club).first()


def club_members(*, club: Club) -> QuerySet[Membership]:
    """Admitted members, owner first, then admins, then members by joining date."""
    return (
        Membership.objects.filter(club=club, status=Membership.Status.ACTIVE)
        .select_related("user")
        .order_by("joined_at", "pk")
    )


def club_pending_requests(*, club: Club) -> QuerySet[Membership]:
    """Requests to join waiting for an owner or admin (clubs with the approval policy)."""
    return (
        Membership.objects.filter(club=club, status=Membership.Status.PENDING)
        .select_related("user")
        .order_by("joined_at", "pk")
    )
