"""No N+1 on the admin list pages: a page of many rows costs the same queries as a page of one."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import Membership
from accounts.services import club_create
from tables import rooms
from tests.api.helpers import settled_match, start_round

pytestmark = pytest.mark.django_db

PAGES = (
    "admin:tables_room_changelist",
    "admin:tables_seat_changelist",
    "admin:tables_match_changelist",
    "admin:accounts_membership_changelist",
    "admin:accounts_club_changelist",
    "admin:scoring_roundsettlement_changelist",
    "admin:scoring_ledgerentry_changelist",
    "admin:scoring_ratingstate_changelist",
)


def queries_of(client, url):
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def grow(world, make_user, n):
    """More of everything in club A: rooms with seats and matches, members, settlements."""
    players = world["a_players"]
    for i in range(n):
        room = rooms.room_create(
            user=players[0], club=world["a"], name=f"加桌{i}", variant="siping"
        )
        start_round(room, players)
        settled_match(room, players, seed_text=f"grow{i}")
        Membership.objects.create(club=world["a"], user=make_user(f"extra{i}"))
        club = club_create(owner=make_user(f"owner{i}"), name=f"又一个圈{i}")
        Membership.objects.create(club=club, user=world["manager"], role=Membership.Role.ADMIN)


@pytest.mark.parametrize("page", PAGES)
def test_a_list_page_costs_the_same_queries_for_many_rows(
    page, manager_client, world, make_user, django_assert_num_queries
):
    url = reverse(page)
    settled_match(world["room_a"], world["a_players"])
    queries_of(manager_client, url)  # warm caches (content types, sessions)
    few = queries_of(manager_client, url)
    grow(world, make_user, 4)
    with django_assert_num_queries(few):
        response = manager_client.get(url)
    assert response.status_code == 200
    assert response.context["cl"].result_count > 1


def test_staff_pages_cost_the_same_queries_too(admin_client, world, make_user):
    settled_match(world["room_a"], world["a_players"])
    counts = {page: queries_of(admin_client, reverse(page)) for page in PAGES}
    grow(world, make_user, 3)
    assert {page: queries_of(admin_client, reverse(page)) for page in PAGES} == counts
