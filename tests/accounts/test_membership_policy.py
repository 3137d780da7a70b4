"""One membership policy (``accounts.membership``) on every path: a deactivated club owner or
admin manages nothing.

A closed account cannot sign in with the project's backends, so the web, API and admin paths
are also tried with Django's ``AllowAllUsersModelBackend`` (a deployment that lets closed
accounts sign in, or a session loaded before the account was closed): the edges and the services
must refuse by themselves, not only because authentication happened to.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import RequestFactory
from django.urls import reverse
from rest_framework.test import APIClient

from accounts import membership, selectors, services
from accounts.admin_scoping import managed_club_ids
from accounts.admin_site import may_enter_admin
from accounts.errors import ClubPermissionDenied
from accounts.models import Club, Membership, User
from tables import club_admin, rooms
from tables.errors import TableError

pytestmark = pytest.mark.django_db

ALLOW_ALL = "django.contrib.auth.backends.AllowAllUsersModelBackend"


def deactivate(user: User) -> None:
    """Close the account in the database only: the object in hand still says active, as a
    request's user loaded before the account was closed would."""
    User.objects.filter(pk=user.pk).update(is_active=False)


@pytest.fixture
def club_world(make_user, make_club) -> dict[str, Any]:
    owner, admin, member, applicant = (make_user(n) for n in ("own", "adm", "mem", "app"))
    club = make_club(
        owner=owner,
        admins=(admin,),
        members=(member,),
        join_policy=Club.JoinPolicy.APPROVAL,
    )
    pending = services.club_join_by_code(user=applicant, code=club.invite_code)
    return {
        "club": club,
        "owner": owner,
        "admin": admin,
        "member": Membership.objects.get(club=club, user=member),
        "admin_membership": Membership.objects.get(club=club, user=admin),
        "pending": pending,
    }


def _manager_calls(world: dict[str, Any]) -> dict[str, Any]:
    club, pending, member = world["club"], world["pending"], world["member"]
    return {
        "approve": lambda actor: services.membership_approve(actor=actor, membership=pending),
        "reject": lambda actor: services.membership_reject(actor=actor, membership=pending),
        "remove": lambda actor: services.membership_remove(actor=actor, membership=member),
        "regenerate": lambda actor: services.club_regenerate_code(actor=actor, club=club),
        "update": lambda actor: services.club_update(
            actor=actor, club=club, name="taken over", description="", join_policy="open"
        ),
    }


def _nothing_changed(world: dict[str, Any], code: str) -> None:
    club = Club.objects.get(pk=world["club"].pk)
    assert club.invite_code == code
    assert club.name != "taken over"
    assert Membership.objects.get(pk=world["pending"].pk).status == Membership.Status.PENDING
    assert Membership.objects.filter(pk=world["member"].pk).exists()


# --- the services ------------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["owner", "admin"])
@pytest.mark.parametrize("call", ["approve", "reject", "remove", "regenerate", "update"])
def test_a_deactivated_owner_or_admin_is_refused_by_every_club_service(club_world, who, call):
    actor = club_world[who]
    code = club_world["club"].invite_code
    deactivate(actor)
    with pytest.raises(ClubPermissionDenied):
        _manager_calls(club_world)[call](actor)
    _nothing_changed(club_world, code)


@pytest.mark.parametrize("role", ["admin", "member"])
def test_a_deactivated_owner_may_neither_appoint_nor_demote(club_world, role):
    target = club_world["member"] if role == "admin" else club_world["admin_membership"]
    deactivate(club_world["owner"])
    with pytest.raises(ClubPermissionDenied):
        services.membership_set_role(actor=club_world["owner"], membership=target, role=role)
    assert Membership.objects.get(pk=target.pk).role == target.role


def test_a_deactivated_owner_may_not_remove_an_admin(club_world):
    deactivate(club_world["owner"])
    with pytest.raises(ClubPermissionDenied):
        services.membership_remove(
            actor=club_world["owner"], membership=club_world["admin_membership"]
        )
    assert Membership.objects.filter(pk=club_world["admin_membership"].pk).exists()


def test_an_admin_whose_membership_is_no_longer_active_is_refused(club_world):
    Membership.objects.filter(pk=club_world["admin_membership"].pk).update(
        status=Membership.Status.PENDING
    )
    with pytest.raises(ClubPermissionDenied):
        services.membership_approve(actor=club_world["admin"], membership=club_world["pending"])


def test_a_deactivated_superuser_acts_for_no_club(club_world, make_user):
    root = make_user("root", is_superuser=True, is_staff=True)
    services.club_regenerate_code(actor=root, club=club_world["club"])  # active: allowed
    deactivate(root)
    with pytest.raises(ClubPermissionDenied):
        services.membership_approve(actor=root, membership=club_world["pending"])


def test_the_same_managers_still_manage_once_their_account_is_open_again(club_world):
    deactivate(club_world["admin"])
    User.objects.filter(pk=club_world["admin"].pk).update(is_active=True)
    services.membership_approve(actor=club_world["admin"], membership=club_world["pending"])
    assert Membership.objects.get(pk=club_world["pending"].pk).status == Membership.Status.ACTIVE


def test_a_deactivated_owner_is_no_member_and_manages_nothing(club_world):
    club, owner = club_world["club"], club_world["owner"]
    assert membership.is_club_manager(owner, club.pk)
    deactivate(owner)
    assert not membership.is_club_manager(owner, club.pk)
    assert not membership.is_active_member(owner, club.pk)
    assert list(selectors.clubs_managed_by(user=owner)) == []
    assert not membership.is_club_owner(owner, club.pk)


# --- the pages, the API, the admin and the tables ---------------------------------------------


@pytest.fixture
def allow_closed_accounts(settings: Any) -> None:
    settings.AUTHENTICATION_BACKENDS = [ALLOW_ALL]


@pytest.mark.parametrize("who", ["owner", "admin"])
def test_the_club_page_refuses_a_deactivated_manager(
    client, club_world, allow_closed_accounts, who
):
    club, pending = club_world["club"], club_world["pending"]
    deactivate(club_world[who])
    client.force_login(club_world[who], backend=ALLOW_ALL)
    approve = reverse("accounts:membership_action", args=(club.pk, pending.pk, "approve"))
    assert client.post(approve).status_code == 404
    assert client.get(reverse("accounts:club_edit", args=(club.pk,))).status_code == 404
    assert client.get(reverse("accounts:club_detail", args=(club.pk,))).status_code == 404
    assert Membership.objects.get(pk=pending.pk).status == Membership.Status.PENDING


def test_the_club_page_refuses_a_deactivated_owner_signed_in_normally(client, club_world):
    """With the project's own backends the closed account's session stops at sign-in."""
    club, pending = club_world["club"], club_world["pending"]
    client.force_login(club_world["owner"])
    deactivate(club_world["owner"])
    approve = reverse("accounts:membership_action", args=(club.pk, pending.pk, "approve"))
    assert client.post(approve).status_code == 302  # to the sign-in page
    assert Membership.objects.get(pk=pending.pk).status == Membership.Status.PENDING


@pytest.mark.parametrize("who", ["owner", "admin"])
@pytest.mark.parametrize("decision", ["approve", "reject"])
def test_the_api_refuses_a_deactivated_manager(club_world, allow_closed_accounts, who, decision):
    pending = club_world["pending"]
    deactivate(club_world[who])
    api = APIClient()
    api.force_login(club_world[who], backend=ALLOW_ALL)
    response = api.post(f"/api/memberships/{pending.pk}/{decision}/")
    assert response.status_code in {403, 404}
    assert Membership.objects.get(pk=pending.pk).status == Membership.Status.PENDING
    members = api.get(f"/api/clubs/{club_world['club'].pk}/members/")
    assert members.status_code == 403


def test_the_api_with_a_token_refuses_a_deactivated_owner(club_world):
    from rest_framework.authtoken.models import Token

    token, _created = Token.objects.get_or_create(user=club_world["owner"])
    deactivate(club_world["owner"])
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    response = api.post(f"/api/memberships/{club_world['pending'].pk}/approve/")
    assert response.status_code in {401, 403}  # authentication refuses the closed account
    assert Membership.objects.get(pk=club_world["pending"].pk).status == "pending"


@pytest.mark.parametrize("who", ["owner", "admin"])
def test_the_admin_refuses_a_deactivated_manager(client, club_world, allow_closed_accounts, who):
    user, club = club_world[who], club_world["club"]
    request = RequestFactory().get("/admin/")
    request.user = user
    assert club.pk in managed_club_ids(request)
    deactivate(user)
    user.refresh_from_db()
    request = RequestFactory().get("/admin/")
    request.user = user
    assert managed_club_ids(request) == frozenset()
    assert not may_enter_admin(user)

    client.force_login(user, backend=ALLOW_ALL)
    changelist = reverse("admin:accounts_membership_changelist")
    response = client.post(
        changelist, {"action": "approve", "_selected_action": [club_world["pending"].pk]}
    )
    assert response.status_code == 302
    assert "/login/" in response["Location"]
    assert Membership.objects.get(pk=club_world["pending"].pk).status == "pending"


def test_the_admin_scope_of_an_account_closed_after_its_request_began(club_world):
    """The request's user object still says active; the database says closed: no clubs."""
    request = RequestFactory().get("/admin/")
    request.user = club_world["admin"]
    deactivate(club_world["admin"])
    assert managed_club_ids(request) == frozenset()


@pytest.mark.parametrize("who", ["owner", "admin"])
def test_the_tables_refuse_a_deactivated_manager(club_world, who):
    room = rooms.room_create(
        user=club_world["owner"], club=club_world["club"], name="一号桌", variant="changchun"
    )
    user = club_world[who]
    deactivate(user)
    user.refresh_from_db()
    assert not rooms.user_manages_room(user, room)
    with pytest.raises(TableError):
        club_admin.room_close(actor=user, room=room)
