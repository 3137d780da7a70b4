"""A club admin reads their club's ledgers and match history (read-only) and decides on members;
another club's rows stay out of reach, by list and by URL."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import Club, Membership
from scoring.models import RoundSettlement
from tests.api.helpers import settled_match

pytestmark = pytest.mark.django_db


def test_a_club_admin_reads_their_ledgers_with_their_lines(manager_client, world):
    match = settled_match(world["room_a"], world["a_players"])
    settled_match(world["room_b"], world["b_players"], seed_text="b")
    listing = manager_client.get(reverse("admin:scoring_roundsettlement_changelist"))
    assert listing.status_code == 200
    assert [s.match_id for s in listing.context["cl"].queryset] == [match.pk]
    settlement = RoundSettlement.objects.get(match=match)
    page = manager_client.get(reverse("admin:scoring_roundsettlement_change", args=[settlement.pk]))
    assert page.status_code == 200
    lines = [f for f in page.context["inline_admin_formsets"] if f.formset.prefix == "entries"]
    assert lines
    assert len(lines[0].formset.forms) == 4


def test_ledgers_are_read_only_and_another_clubs_are_not_found(manager_client, world):
    settled_match(world["room_b"], world["b_players"], seed_text="b")
    other = RoundSettlement.objects.get(club=world["b"])
    url = reverse("admin:scoring_roundsettlement_change", args=[other.pk])
    response = manager_client.get(url)
    assert response.status_code in {302, 404}
    mine = settled_match(world["room_a"], world["a_players"])
    own = RoundSettlement.objects.get(match=mine)
    own_url = reverse("admin:scoring_roundsettlement_change", args=[own.pk])
    assert manager_client.post(own_url, {"net_0": 999}).status_code == 403
    delete_url = reverse("admin:scoring_roundsettlement_delete", args=[own.pk])
    assert manager_client.post(delete_url, {"post": "yes"}).status_code == 403
    assert RoundSettlement.objects.filter(pk=own.pk).exists()


def test_ledger_lines_are_listed_per_player_for_my_club_only(manager_client, world):
    settled_match(world["room_a"], world["a_players"])
    settled_match(world["room_b"], world["b_players"], seed_text="b")
    listing = manager_client.get(
        reverse("admin:scoring_ledgerentry_changelist"), {"q": world["a_players"][1].username}
    )
    entries = list(listing.context["cl"].queryset)
    assert [e.user_id for e in entries] == [world["a_players"][1].pk]
    everything = manager_client.get(reverse("admin:scoring_ledgerentry_changelist"))
    assert {e.club_id for e in everything.context["cl"].queryset} == {world["a"].pk}


def membership_action(client, name, ids):
    return client.post(
        reverse("admin:accounts_membership_changelist"),
        {"action": name, "_selected_action": [str(i) for i in ids]},
        follow=True,
    )


def test_a_club_admin_approves_and_removes_members(manager_client, world, make_user):
    club = world["a"]
    club.join_policy = Club.JoinPolicy.APPROVAL
    club.save()
    applicant = make_user("applicant")
    pending = Membership.objects.create(club=club, user=applicant, status=Membership.Status.PENDING)
    membership_action(manager_client, "approve", [pending.pk])
    pending.refresh_from_db()
    assert pending.status == Membership.Status.ACTIVE

    member = Membership.objects.get(club=club, user=world["a_players"][3])
    membership_action(manager_client, "remove", [member.pk])
    assert not Membership.objects.filter(pk=member.pk).exists()


def test_a_club_admin_cannot_touch_another_clubs_members(manager_client, world):
    other = Membership.objects.get(club=world["b"], user=world["b_players"][2])
    membership_action(manager_client, "remove", [other.pk])
    assert Membership.objects.filter(pk=other.pk).exists()
    page = manager_client.get(reverse("admin:accounts_membership_change", args=[other.pk]))
    assert page.status_code in {302, 404}
    listing = manager_client.get(reverse("admin:accounts_membership_changelist"))
    assert {m.club_id for m in listing.context["cl"].queryset} == {world["a"].pk}
