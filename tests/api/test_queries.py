"""No N+1 on the API's lists: a page of many rows costs the same queries as a page of one."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tables import rooms
from tests.api.helpers import settled_match, start_round

pytestmark = pytest.mark.django_db

LISTS = ("/api/rooms/", "/api/matches/", "/api/clubs/")


def queries_of(client, url):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured), response.json()["count"]


@pytest.mark.parametrize("url", LISTS)
def test_a_list_costs_the_same_queries_for_many_rows(
    url, api_for, players, room, make_club, django_assert_num_queries
):
    client = api_for(players[0])
    settled_match(room, players)
    queries_of(client, url)
    few, count = queries_of(client, url)
    for i in range(4):
        extra = rooms.room_create(user=players[0], club=room.club, name=f"桌{i}", variant="harbin")
        start_round(extra, players)
        settled_match(extra, players, seed_text=f"q{i}")
        make_club(owner=players[0], name=f"圈{i}")
    with django_assert_num_queries(few):
        response = client.get(url)
    assert response.json()["count"] > count
