"""Reads about players and clubs (HackSoft style: selectors read, services write)."""

from __future__ import annotations

from django.db.models import QuerySet

from accounts import membership
from accounts.models import Club, Membership, User


def clubs_of_user(*, user: User) -> QuerySet[Club]:
    """Clubs the player is an active member of, whatever their role (``accounts.membership``)."""
    return Club.objects.filter(pk__in=membership.active_club_ids(user))


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


def user_is_club_member(*, user: User, club: Club) -> bool:
    return membership.is_active_member(user, club.pk)


def user_can_manage_club(*, user: User, club: Club) -> bool:
    """Owner or admin of the club: may approve requests, remove members and manage rooms."""
    return membership.is_club_manager(user, club.pk)


def user_manages_any_club(*, user: User) -> bool:
    return clubs_managed_by(user=user).exists()


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
