"""The spectator delay of a room through the API: set by the club's owner or admins
only, within 0-1800 s (tables.room_options.room_options_validate), and shown with the room."""

from __future__ import annotations

import pytest

from tables.models import Room

pytestmark = pytest.mark.django_db


def body(club, **changes):
    return {"club": club.pk, "name": "比赛桌", "variant": "changchun", **changes}


def test_the_clubs_owner_opens_a_room_with_a_delay(api_for, players, club):
    made = api_for(players[0]).post("/api/rooms/", body(club, spectator_delay_s=180), format="json")
    assert made.status_code == 201, made.json()
    assert made.json()["spectator_delay_s"] == 180
    assert Room.objects.get(name="比赛桌").spectator_delay_s == 180


def test_a_member_may_not_set_a_delay(api_for, players, club):
    refused = api_for(players[1]).post(
        "/api/rooms/", body(club, spectator_delay_s=60), format="json"
    )
    assert refused.status_code == 403, refused.json()
    assert refused.json()["code"] == "not_manager"
    assert not Room.objects.filter(name="比赛桌").exists()
    live = api_for(players[1]).post("/api/rooms/", body(club, spectator_delay_s=0), format="json")
    assert live.status_code == 201
    assert live.json()["spectator_delay_s"] == 0


@pytest.mark.parametrize("delay", [1801, -1, 10**9, "soon", True])
def test_a_delay_out_of_bounds_is_refused(api_for, players, club, delay):
    bad = api_for(players[0]).post(
        "/api/rooms/", body(club, spectator_delay_s=delay), format="json"
    )
    assert bad.status_code == 400, bad.json()
    assert "spectator_delay_s" in bad.json()
    assert not Room.objects.filter(name="比赛桌").exists()


def test_the_upper_bound_is_allowed(api_for, players, club):
    made = api_for(players[0]).post(
        "/api/rooms/", body(club, spectator_delay_s=1800), format="json"
    )
    assert made.status_code == 201, made.json()
