"""Clubs (亲友圈): services, their permission rules, and the club pages."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts import selectors, services
from accounts.errors import (
    AlreadyMember,
    ClubPermissionDenied,
    InviteCodeNotFound,
    MembershipStateError,
)
from accounts.membership import active_club_ids, is_active_member
from accounts.models import Club, Membership, User

pytestmark = pytest.mark.django_db


def role_of(user: User, club: Club) -> str:
    return Membership.objects.get(user=user, club=club).role


# --- services ------------------------------------------------------------------------------------


def test_creating_a_club_makes_the_creator_its_owner(make_user):
    owner = make_user()
    club = services.club_create(owner=owner, name="  周五牌局 ", description="老地方")
    assert club.name == "周五牌局"
    assert len(club.invite_code) == 8
    assert role_of(owner, club) == Membership.Role.OWNER
    assert list(Club.objects.filter(pk__in=active_club_ids(owner))) == [club]


def test_a_player_joins_an_open_club_by_code_at_once(make_user, make_club):
    club = make_club()
    player = make_user()
    membership = services.club_join_by_code(user=player, code=club.invite_code.lower())
    assert membership.is_active
    assert membership.role == Membership.Role.MEMBER
    assert is_active_member(player, club.pk)


def test_the_code_may_be_typed_with_blanks_and_dashes(make_user, make_club):
    club = make_club()
    code = club.invite_code
    membership = services.club_join_by_code(user=make_user(), code=f" {code[:4]}-{code[4:]} ")
    assert membership.club == club


def test_an_unknown_code_is_refused(make_user):
    with pytest.raises(InviteCodeNotFound):
        services.club_join_by_code(user=make_user(), code="NOPE2345")


def test_joining_twice_is_refused(make_user, make_club):
    club = make_club()
    player = make_user()
    services.club_join_by_code(user=player, code=club.invite_code)
    with pytest.raises(AlreadyMember):
        services.club_join_by_code(user=player, code=club.invite_code)


def test_an_approval_club_admits_only_after_an_admin_approves(make_user, make_club):
    admin = make_user()
    club = make_club(join_policy=Club.JoinPolicy.APPROVAL, admins=(admin,))
    player = make_user()
    request = services.club_join_by_code(user=player, code=club.invite_code)
    assert request.status == Membership.Status.PENDING
    assert not is_active_member(player, club.pk)
    assert list(selectors.club_pending_requests(club=club)) == [request]

    services.membership_approve(actor=admin, membership=request)
    assert is_active_member(player, club.pk)
    with pytest.raises(MembershipStateError):
        services.membership_approve(actor=admin, membership=request)


def test_a_pending_player_cannot_approve_themselves(make_user, make_club):
    club = make_club(join_policy=Club.JoinPolicy.APPROVAL)
    player = make_user()
    request = services.club_join_by_code(user=player, code=club.invite_code)
    with pytest.raises(ClubPermissionDenied):
        services.membership_approve(actor=player, membership=request)


def test_a_plain_member_cannot_approve_requests(make_user, make_club):
    member = make_user()
    club = make_club(join_policy=Club.JoinPolicy.APPROVAL, members=(member,))
    request = services.club_join_by_code(user=make_user(), code=club.invite_code)
    with pytest.raises(ClubPermissionDenied):
        services.membership_approve(actor=member, membership=request)


def test_a_rejected_player_may_ask_again(make_user, make_club):
    club = make_club(join_policy=Club.JoinPolicy.APPROVAL)
    player = make_user()
    request = services.club_join_by_code(user=player, code=club.invite_code)
    services.membership_reject(actor=club.owner, membership=request)
    assert selectors.membership_of(user=player, club=club) is None
    assert services.club_join_by_code(user=player, code=club.invite_code).status == "pending"


def test_a_player_may_be_in_several_clubs(make_user, make_club):
    player = make_user()
    first, second = make_club(name="A"), make_club(name="B")
    services.club_join_by_code(user=player, code=first.invite_code)
    services.club_join_by_code(user=player, code=second.invite_code)
    assert set(Club.objects.filter(pk__in=active_club_ids(player))) == {first, second}


def test_an_admin_removes_members_but_not_other_admins(make_user, make_club):
    admin, other_admin, member = make_user(), make_user(), make_user()
    club = make_club(admins=(admin, other_admin), members=(member,))
    with pytest.raises(ClubPermissionDenied):
        services.membership_remove(
            actor=admin, membership=Membership.objects.get(club=club, user=other_admin)
        )
    services.membership_remove(
        actor=admin, membership=Membership.objects.get(club=club, user=member)
    )
    assert not is_active_member(member, club.pk)


def test_the_owner_removes_an_admin(make_user, make_club):
    admin = make_user()
    club = make_club(admins=(admin,))
    services.membership_remove(
        actor=club.owner, membership=Membership.objects.get(club=club, user=admin)
    )
    assert selectors.membership_of(user=admin, club=club) is None


def test_nobody_removes_the_owner(make_user, make_club):
    admin = make_user()
    club = make_club(admins=(admin,))
    owner_membership = Membership.objects.get(club=club, user=club.owner)
    for actor in (admin, club.owner):
        with pytest.raises(MembershipStateError):
            services.membership_remove(actor=actor, membership=owner_membership)


def test_a_member_may_leave(make_user, make_club):
    member = make_user()
    club = make_club(members=(member,))
    services.membership_remove(actor=member, membership=Membership.objects.get(user=member))
    assert not is_active_member(member, club.pk)


def test_a_member_cannot_remove_another_member(make_user, make_club):
    member, other = make_user(), make_user()
    club = make_club(members=(member, other))
    with pytest.raises(ClubPermissionDenied):
        services.membership_remove(
            actor=member, membership=Membership.objects.get(club=club, user=other)
        )


def test_only_the_owner_appoints_admins(make_user, make_club):
    admin, member = make_user(), make_user()
    club = make_club(admins=(admin,), members=(member,))
    membership = Membership.objects.get(club=club, user=member)
    with pytest.raises(ClubPermissionDenied):
        services.membership_set_role(actor=admin, membership=membership, role="admin")
    services.membership_set_role(actor=club.owner, membership=membership, role="admin")
    assert role_of(member, club) == Membership.Role.ADMIN
    assert club in selectors.clubs_managed_by(user=member)


def test_the_owner_role_cannot_be_given_or_taken(make_user, make_club):
    member = make_user()
    club = make_club(members=(member,))
    with pytest.raises(MembershipStateError):
        services.membership_set_role(
            actor=club.owner, membership=Membership.objects.get(user=member), role="owner"
        )
    with pytest.raises(MembershipStateError):
        services.membership_set_role(
            actor=club.owner,
            membership=Membership.objects.get(user=club.owner, club=club),
            role="member",
        )


def test_a_new_invite_code_retires_the_old_one(make_user, make_club):
    club = make_club()
    old = club.invite_code
    new = services.club_regenerate_code(actor=club.owner, club=club)
    assert new != old
    with pytest.raises(InviteCodeNotFound):
        services.club_join_by_code(user=make_user(), code=old)
    assert services.club_join_by_code(user=make_user(), code=new).club == club


def test_a_member_cannot_regenerate_the_code(make_user, make_club):
    member = make_user()
    club = make_club(members=(member,))
    with pytest.raises(ClubPermissionDenied):
        services.club_regenerate_code(actor=member, club=club)


def test_a_manager_of_another_club_has_no_say_here(make_user, make_club):
    other_owner = make_user()
    make_club(owner=other_owner)
    club = make_club(join_policy=Club.JoinPolicy.APPROVAL)
    request = services.club_join_by_code(user=make_user(), code=club.invite_code)
    with pytest.raises(ClubPermissionDenied):
        services.membership_approve(actor=other_owner, membership=request)


# --- pages ---------------------------------------------------------------------------------------


def test_home_lists_the_players_clubs(client, make_user, make_club):
    player = make_user()
    mine = make_club(name="我的圈", members=(player,))
    make_club(name="别人的圈")
    client.force_login(player)
    page = client.get(reverse("home")).content.decode()
    assert mine.name in page
    assert "别人的圈" not in page


def test_creating_a_club_from_the_page_leads_to_its_detail(client, make_user):
    player = make_user()
    client.force_login(player)
    response = client.post(
        reverse("accounts:club_create"),
        {"name": "周五局", "description": "", "join_policy": "open"},
    )
    club = Club.objects.get(name="周五局")
    assert response.url == reverse("accounts:club_detail", args=[club.pk])
    page = client.get(response.url).content.decode()
    assert club.invite_code in page


def test_joining_from_the_page_with_a_shared_link(client, make_user, make_club):
    club = make_club()
    player = make_user()
    client.force_login(player)
    form = client.get(reverse("accounts:club_join") + f"?code={club.invite_code}")
    assert form.context["form"].initial["code"] == club.invite_code
    response = client.post(reverse("accounts:club_join"), {"code": club.invite_code})
    assert response.url == reverse("accounts:club_detail", args=[club.pk])


def test_a_wrong_code_on_the_join_page_shows_an_error(client, make_user):
    client.force_login(make_user())
    response = client.post(reverse("accounts:club_join"), {"code": "WRONG234"})
    assert response.status_code == 200
    assert response.context["form"].errors["code"]


def test_an_outsider_cannot_see_a_club(client, make_user, make_club):
    club = make_club()
    client.force_login(make_user())
    assert client.get(reverse("accounts:club_detail", args=[club.pk])).status_code == 404


def test_a_pending_player_cannot_see_the_club_yet(client, make_user, make_club):
    club = make_club(join_policy=Club.JoinPolicy.APPROVAL)
    player = make_user()
    services.club_join_by_code(user=player, code=club.invite_code)
    client.force_login(player)
    assert client.get(reverse("accounts:club_detail", args=[club.pk])).status_code == 404


def test_the_owner_approves_a_request_from_the_club_page(client, make_user, make_club):
    club = make_club(join_policy=Club.JoinPolicy.APPROVAL)
    player = make_user(display_name="新人")
    request = services.club_join_by_code(user=player, code=club.invite_code)
    client.force_login(club.owner)
    page = client.get(reverse("accounts:club_detail", args=[club.pk])).content.decode()
    assert "新人" in page
    url = reverse("accounts:membership_action", args=[club.pk, request.pk, "approve"])
    client.post(url)
    request.refresh_from_db()
    assert request.is_active


def test_a_member_trying_to_remove_someone_gets_an_error_message(client, make_user, make_club):
    member, other = make_user(), make_user()
    club = make_club(members=(member, other))
    target = Membership.objects.get(club=club, user=other)
    client.force_login(member)
    url = reverse("accounts:membership_action", args=[club.pk, target.pk, "remove"])
    response = client.post(url, follow=True)
    assert Membership.objects.filter(pk=target.pk).exists()
    assert any(m.level_tag == "error" for m in response.context["messages"])


def test_membership_actions_need_a_post(client, make_user, make_club):
    member = make_user()
    club = make_club(members=(member,))
    target = Membership.objects.get(club=club, user=member)
    client.force_login(club.owner)
    url = reverse("accounts:membership_action", args=[club.pk, target.pk, "remove"])
    assert client.get(url).status_code == 405


def test_a_member_leaves_from_the_club_page(client, make_user, make_club):
    member = make_user()
    club = make_club(members=(member,))
    client.force_login(member)
    response = client.post(reverse("accounts:club_leave", args=[club.pk]))
    assert response.url == reverse("home")
    assert not is_active_member(member, club.pk)


def test_an_admin_edits_the_club(client, make_user, make_club):
    admin = make_user()
    club = make_club(admins=(admin,))
    client.force_login(admin)
    client.post(
        reverse("accounts:club_edit", args=[club.pk]),
        {"name": "新名字", "description": "d", "join_policy": "approval"},
    )
    club.refresh_from_db()
    assert (club.name, club.join_policy) == ("新名字", "approval")


def test_a_member_cannot_open_the_edit_page(client, make_user, make_club):
    member = make_user()
    club = make_club(members=(member,))
    client.force_login(member)
    assert client.get(reverse("accounts:club_edit", args=[club.pk])).status_code == 404


def test_club_pages_need_a_signed_in_player(client, make_club):
    club = make_club()
    response = client.get(reverse("accounts:club_detail", args=[club.pk]))
    assert response.status_code == 302
    assert response.url.startswith(reverse("accounts:login"))


def test_the_club_page_reads_in_english_for_an_english_player(client, make_user, make_club):
    player = make_user(language="en")
    club = make_club(members=(player,))
    client.force_login(player)
    page = client.get(reverse("accounts:club_detail", args=[club.pk])).content.decode()
    assert "Invite friends" in page
    assert "Members (2)" in page
    assert "邀请朋友" not in page


def test_only_club_managers_see_the_admin_link(client, make_user, make_club):
    member = make_user()
    club = make_club(members=(member,))
    admin_url = reverse("admin:index")
    client.force_login(member)
    assert f'href="{admin_url}"' not in client.get(reverse("home")).content.decode()
    client.force_login(club.owner)
    assert f'href="{admin_url}"' in client.get(reverse("home")).content.decode()
