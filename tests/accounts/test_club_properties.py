"""Properties of the club services under any sequence of requests (Hypothesis).

Whatever players try, in any order: a club keeps exactly one owner, who is its ``owner`` and an
active member; pending players hold no power; and every change that went through was made by
someone entitled to it (the service rules in ``accounts.services``).
"""

from __future__ import annotations

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts import selectors, services
from accounts.errors import ClubError
from accounts.models import Club, Membership, User

pytestmark = pytest.mark.django_db

PLAYERS = 6
OPERATIONS = ("join", "approve", "reject", "remove", "make_admin", "make_member", "new_code")

operation = st.tuples(
    st.sampled_from(OPERATIONS),
    st.sampled_from(range(PLAYERS)),  # who acts
    st.sampled_from(range(PLAYERS)),  # on whom
)


RoleStatus = tuple[str, str] | None


def role_before(club: Club, user: User) -> RoleStatus:
    membership = selectors.membership_of(user=user, club=club)
    return None if membership is None else (membership.role, membership.status)


def apply(club: Club, name: str, actor: User, target: User) -> bool:
    """Try one request; True if the service accepted it."""
    membership = selectors.membership_of(user=target, club=club)
    try:
        if name == "join":
            services.club_join_by_code(user=actor, code=club.invite_code)
        elif name == "new_code":
            services.club_regenerate_code(actor=actor, club=club)
        elif membership is None:
            return False
        elif name == "approve":
            services.membership_approve(actor=actor, membership=membership)
        elif name == "reject":
            services.membership_reject(actor=actor, membership=membership)
        elif name == "remove":
            services.membership_remove(actor=actor, membership=membership)
        else:
            role = "admin" if name == "make_admin" else "member"
            services.membership_set_role(actor=actor, membership=membership, role=role)
    except ClubError:
        return False
    club.refresh_from_db()
    return True


def entitled(
    name: str, actor_role: RoleStatus, target_role: RoleStatus, actor: User, target: User
) -> bool:
    """Who may do what, restated from the services' docstring."""
    is_owner = actor_role == ("owner", "active")
    is_manager = actor_role in {("owner", "active"), ("admin", "active")}
    if name == "join":
        return actor_role is None
    if name in {"approve", "reject", "new_code"}:
        return is_manager
    if name == "remove":
        if actor == target:
            return True
        assert target_role is not None
        return is_owner if target_role[0] == "admin" else is_manager
    return is_owner  # make_admin / make_member


def check_invariants(club: Club) -> None:
    owners = Membership.objects.filter(club=club, role=Membership.Role.OWNER)
    assert [(m.user_id, m.status) for m in owners] == [(club.owner_id, "active")]
    assert not Membership.objects.filter(
        club=club, status=Membership.Status.PENDING, role__in=["owner", "admin"]
    ).exists()


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(approval=st.booleans(), operations=st.lists(operation, min_size=1, max_size=12))
def test_any_sequence_of_requests_keeps_the_club_sound(make_user, approval, operations):
    with transaction.atomic():
        players = [make_user() for _ in range(PLAYERS)]
        policy = Club.JoinPolicy.APPROVAL if approval else Club.JoinPolicy.OPEN
        club = services.club_create(owner=players[0], name="prop", join_policy=policy)
        # Start from a populated club (owner 0, admins 1 and 2, member 3, a pending request from
        # 4, outsider 5) so that short sequences already reach the interesting cases.
        for index, role, status in (
            (1, "admin", "active"),
            (2, "admin", "active"),
            (3, "member", "active"),
            (4, "member", "pending"),
        ):
            Membership.objects.create(club=club, user=players[index], role=role, status=status)
        for name, actor_index, target_index in operations:
            actor, target = players[actor_index], players[target_index]
            before = (role_before(club, actor), role_before(club, target))
            accepted = apply(club, name, actor, target)
            if accepted:
                assert entitled(name, before[0], before[1], actor, target), (name, before)
            check_invariants(club)
        transaction.set_rollback(True)  # each example starts from an empty database
