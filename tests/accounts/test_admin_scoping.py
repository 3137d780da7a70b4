"""Club owners and admins manage their own clubs in the Django admin — and nothing else."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.db.models import ForeignKey
from django.urls import reverse

from accounts.models import Club, Membership
from tables.models import Room

pytestmark = pytest.mark.django_db


def room_form(club: Club, **changes: object) -> dict[str, object]:
    data = {
        "club": club.pk,
        "name": "一号桌",
        "variant": "changchun",
        "options": "{}",
        "base_stake": 1,
        "turn_timeout_s": 15,
        "claim_timeout_s": 8,
        "allow_spectators": "on",
        "allow_bots": "on",
        "status": "open",
    }
    data.update(changes)
    return data


@pytest.fixture
def two_clubs(make_user, make_club):
    """Club A run by ``admin_a`` (not staff), club B run by someone else; one room each."""
    admin_a = make_user("admin_a")
    club_a = make_club(name="A 圈", admins=(admin_a,))
    club_b = make_club(name="B 圈", members=(make_user("member_b"),))
    room_a = Room.objects.create(club=club_a, name="A 桌", variant="changchun")
    room_b = Room.objects.create(club=club_b, name="B 桌", variant="harbin")
    return {"admin_a": admin_a, "a": club_a, "b": club_b, "room_a": room_a, "room_b": room_b}


def test_a_club_admin_who_is_not_staff_may_enter_the_admin(client, two_clubs):
    assert not two_clubs["admin_a"].is_staff
    client.force_login(two_clubs["admin_a"])
    assert client.get(reverse("admin:index")).status_code == 200


def test_a_club_admin_logs_in_through_the_admin_login_page(client, two_clubs, password):
    response = client.post(
        reverse("admin:login"), {"username": "admin_a", "password": password, "next": "/admin/"}
    )
    assert response.status_code == 302


def test_a_plain_member_may_not_enter_the_admin(client, make_user, two_clubs):
    client.force_login(two_clubs["b"].memberships.get(role=Membership.Role.MEMBER).user)
    response = client.get(reverse("admin:index"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("admin:login"))


def test_the_room_changelist_shows_only_the_admins_clubs(client, two_clubs):
    client.force_login(two_clubs["admin_a"])
    response = client.get(reverse("admin:tables_room_changelist"))
    assert response.status_code == 200
    shown = list(response.context["cl"].queryset)
    assert shown == [two_clubs["room_a"]]


def test_another_clubs_room_is_not_found_by_direct_url(client, two_clubs):
    client.force_login(two_clubs["admin_a"])
    room_b = two_clubs["room_b"]
    for view in ("change", "delete", "history"):
        response = client.get(reverse(f"admin:tables_room_{view}", args=[room_b.pk]))
        assert response.status_code in {302, 403, 404}, view
        if response.status_code == 302:
            assert response.url == reverse("admin:index")


def test_posting_to_another_clubs_room_changes_nothing(client, two_clubs):
    client.force_login(two_clubs["admin_a"])
    room_b = two_clubs["room_b"]
    client.post(
        reverse("admin:tables_room_change", args=[room_b.pk]),
        room_form(two_clubs["b"], name="hijacked"),
    )
    client.post(reverse("admin:tables_room_delete", args=[room_b.pk]), {"post": "yes"})
    room_b.refresh_from_db()
    assert room_b.name == "B 桌"


def test_a_club_admin_cannot_open_a_room_in_another_club(client, two_clubs):
    client.force_login(two_clubs["admin_a"])
    response = client.post(reverse("admin:tables_room_add"), room_form(two_clubs["b"]))
    assert response.status_code == 200  # the form comes back with an error
    assert "club" in response.context["adminform"].form.errors
    assert not Room.objects.filter(club=two_clubs["b"], name="一号桌").exists()


def test_the_club_choices_list_only_managed_clubs(client, two_clubs):
    client.force_login(two_clubs["admin_a"])
    response = client.get(reverse("admin:tables_room_add"))
    choices = list(response.context["adminform"].form.fields["club"].queryset)
    assert choices == [two_clubs["a"]]


def test_a_club_admin_opens_and_edits_rooms_of_their_club(client, two_clubs):
    client.force_login(two_clubs["admin_a"])
    response = client.post(reverse("admin:tables_room_add"), room_form(two_clubs["a"]))
    assert response.status_code == 302
    room = Room.objects.get(club=two_clubs["a"], name="一号桌")
    assert room.created_by == two_clubs["admin_a"]

    room_a = two_clubs["room_a"]
    response = client.post(
        reverse("admin:tables_room_change", args=[room_a.pk]),
        room_form(two_clubs["a"], name="改名桌", base_stake=5),
    )
    assert response.status_code == 302
    room_a.refresh_from_db()
    assert (room_a.name, room_a.base_stake) == ("改名桌", 5)


def test_a_club_admin_cannot_move_their_room_to_another_club(client, two_clubs):
    client.force_login(two_clubs["admin_a"])
    room_a = two_clubs["room_a"]
    client.post(reverse("admin:tables_room_change", args=[room_a.pk]), room_form(two_clubs["b"]))
    room_a.refresh_from_db()
    assert room_a.club == two_clubs["a"]


def test_members_and_clubs_are_scoped_too(client, two_clubs):
    client.force_login(two_clubs["admin_a"])
    members = client.get(reverse("admin:accounts_membership_changelist")).context["cl"].queryset
    assert {m.club for m in members} == {two_clubs["a"]}
    clubs = client.get(reverse("admin:accounts_club_changelist")).context["cl"].queryset
    assert list(clubs) == [two_clubs["a"]]
    b_member = two_clubs["b"].memberships.first()
    response = client.get(reverse("admin:accounts_membership_change", args=[b_member.pk]))
    assert response.status_code == 302
    response = client.get(reverse("admin:accounts_club_change", args=[two_clubs["b"].pk]))
    assert response.status_code == 302


def test_a_club_admin_does_not_see_the_user_list(client, two_clubs):
    client.force_login(two_clubs["admin_a"])
    assert client.get(reverse("admin:accounts_user_changelist")).status_code == 403


def test_the_approve_action_admits_a_pending_request(client, make_user, two_clubs):
    club_a = two_clubs["a"]
    pending = Membership.objects.create(club=club_a, user=make_user(), status="pending")
    client.force_login(two_clubs["admin_a"])
    client.post(
        reverse("admin:accounts_membership_changelist"),
        {"action": "approve", "_selected_action": [pending.pk]},
    )
    pending.refresh_from_db()
    assert pending.is_active


def test_the_remove_action_cannot_touch_another_clubs_members(client, two_clubs):
    b_member = two_clubs["b"].memberships.get(role=Membership.Role.MEMBER)
    client.force_login(two_clubs["admin_a"])
    client.post(
        reverse("admin:accounts_membership_changelist"),
        {"action": "remove", "_selected_action": [b_member.pk]},
    )
    assert Membership.objects.filter(pk=b_member.pk).exists()


def test_the_remove_action_keeps_the_service_rules(client, make_user, two_clubs):
    """An admin cannot remove another admin, even through the admin site."""
    club_a = two_clubs["a"]
    other_admin = Membership.objects.create(club=club_a, user=make_user(), role="admin")
    client.force_login(two_clubs["admin_a"])
    client.post(
        reverse("admin:accounts_membership_changelist"),
        {"action": "remove", "_selected_action": [other_admin.pk]},
    )
    assert Membership.objects.filter(pk=other_admin.pk).exists()


def test_a_former_admin_loses_admin_access(client, two_clubs):
    admin_a = two_clubs["admin_a"]
    Membership.objects.filter(user=admin_a).update(role=Membership.Role.MEMBER)
    client.force_login(admin_a)
    assert client.get(reverse("admin:index")).status_code == 302


def test_a_superuser_sees_every_club(client, make_user, two_clubs):
    root = make_user("root", is_staff=True, is_superuser=True)
    client.force_login(root)
    rooms = client.get(reverse("admin:tables_room_changelist")).context["cl"].queryset
    assert set(rooms) == {two_clubs["room_a"], two_clubs["room_b"]}


def test_staff_with_the_model_permission_see_every_room(client, make_user, two_clubs):
    staff = make_user("staff", is_staff=True)
    staff.user_permissions.add(Permission.objects.get(codename="view_room"))
    client.force_login(staff)
    rooms = client.get(reverse("admin:tables_room_changelist")).context["cl"].queryset
    assert set(rooms) == {two_clubs["room_a"], two_clubs["room_b"]}
    # ...but view only: changing a room needs the change permission.
    response = client.post(
        reverse("admin:tables_room_change", args=[two_clubs["room_b"].pk]),
        room_form(two_clubs["b"], name="x"),
    )
    assert response.status_code == 403


def test_the_mixin_follows_a_path_to_the_club_and_scopes_room_choices(rf, two_clubs):
    """A model two steps from its club (a seat: seat -> room -> club) is scoped the same way."""
    from django.contrib import admin

    from accounts.admin_scoping import ClubScopedModelAdmin
    from tables.models import Seat

    class SeatAdmin(ClubScopedModelAdmin):
        club_field = "room__club"

    seat_a = Seat.objects.create(room=two_clubs["room_a"], index=0, is_bot=True)
    seat_b = Seat.objects.create(room=two_clubs["room_b"], index=0, is_bot=True)
    request = rf.get("/admin/")
    request.user = two_clubs["admin_a"]
    model_admin = SeatAdmin(Seat, admin.site)

    assert list(model_admin.get_queryset(request)) == [seat_a]
    assert model_admin.has_change_permission(request, seat_a)
    assert not model_admin.has_change_permission(request, seat_b)
    room = Seat._meta.get_field("room")
    assert isinstance(room, ForeignKey)
    room_field = model_admin.formfield_for_foreignkey(room, request)
    assert room_field is not None
    assert list(room_field.queryset or ()) == [two_clubs["room_a"]]


def test_a_club_admin_renames_their_club_but_cannot_change_its_owner(client, make_user, two_clubs):
    club_a = two_clubs["a"]
    owner = club_a.owner
    client.force_login(two_clubs["admin_a"])
    page = client.get(reverse("admin:accounts_club_change", args=[club_a.pk]))
    assert "owner" not in page.context["adminform"].form.fields
    assert "成员资格" in page.content.decode() or "Membership" in page.content.decode()
    response = client.post(
        reverse("admin:accounts_club_change", args=[club_a.pk]),
        {
            "name": "A 圈新名",
            "description": "",
            "join_policy": "approval",
            "owner": make_user().pk,  # ignored: read-only for a club admin
            "memberships-TOTAL_FORMS": "0",
            "memberships-INITIAL_FORMS": "0",
        },
    )
    assert response.status_code == 302
    club_a.refresh_from_db()
    assert (club_a.name, club_a.join_policy, club_a.owner) == ("A 圈新名", "approval", owner)


def test_the_regenerate_action_gives_a_new_code(client, two_clubs):
    club_a = two_clubs["a"]
    old = club_a.invite_code
    client.force_login(two_clubs["admin_a"])
    client.post(
        reverse("admin:accounts_club_changelist"),
        {"action": "regenerate_invite_code", "_selected_action": [club_a.pk]},
    )
    club_a.refresh_from_db()
    assert club_a.invite_code != old


def test_a_superuser_may_act_for_any_club(make_user, two_clubs):
    from accounts import services

    root = make_user("root2", is_staff=True, is_superuser=True)
    old = two_clubs["b"].invite_code
    assert services.club_regenerate_code(actor=root, club=two_clubs["b"]) != old


def test_the_room_changelist_does_not_query_per_row(
    client, django_assert_max_num_queries, two_clubs
):
    club_a = two_clubs["a"]
    for number in range(10):
        Room.objects.create(club=club_a, name=f"桌 {number}", variant="siping")
    client.force_login(two_clubs["admin_a"])
    with django_assert_max_num_queries(12):  # 10 today; a query per row would make it 20+
        assert client.get(reverse("admin:tables_room_changelist")).status_code == 200
