"""Event pages and API: who sees and does what, registration, standings, the
notifications in the header, the schema."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tables.models import Entrant, Notification, Tournament
from tables.tournaments import services
from tests.tournaments.helpers import play_out

pytestmark = pytest.mark.django_db


def _api(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_admins_create_events_by_the_api_and_members_cannot(club, admin_user, members):
    body = {
        "club": club.pk,
        "name": "春季赛",
        "variant": "harbin",
        "rounds": 3,
        "hands_per_round": 2,
        "placement_points": [4, 2, 0, -6],
        "spectator_delay_s": 60,
    }
    refused = _api(members[0]).post("/api/tournaments/", body, format="json")
    assert refused.status_code == 403
    assert refused.json()["code"] == "not_manager"
    made = _api(admin_user).post("/api/tournaments/", body, format="json")
    assert made.status_code == 201, made.content
    data = made.json()
    assert data["placement_points"] == [4, 2, 0, -6]
    assert data["status"] == "registration"
    assert data["entrants"] == 0
    bad = _api(admin_user).post(
        "/api/tournaments/", {**body, "placement_points": [0, 2, 4, -6]}, format="json"
    )
    assert bad.status_code in {400, 409}


def test_members_list_register_and_read_standings(club, admin_user, members, make_user):
    t = services.tournament_create(user=admin_user, club=club, name="周末赛", variant="changchun")
    client = _api(members[0])
    listed = client.get("/api/tournaments/").json()
    assert [row["id"] for row in listed["results"]] == [t.pk]
    joined = client.post(f"/api/tournaments/{t.pk}/register/", {}, format="json")
    assert joined.status_code == 200
    assert joined.json()["registered"] is True
    assert joined.json()["entrants"] == 1
    left = client.post(f"/api/tournaments/{t.pk}/register/", {"withdraw": True}, format="json")
    assert left.json()["registered"] is False
    standings = client.get(f"/api/tournaments/{t.pk}/standings/")
    assert standings.status_code == 200
    assert standings.json() == []
    outsider = _api(make_user("stranger"))
    assert outsider.get(f"/api/tournaments/{t.pk}/").status_code == 404
    assert outsider.post(f"/api/tournaments/{t.pk}/register/", {}).status_code == 404


def test_the_schema_lists_the_event_endpoints(client):
    schema = client.get("/api/schema/?format=json").json()
    paths = schema["paths"]
    assert "/api/tournaments/" in paths
    assert "/api/tournaments/{id}/standings/" in paths
    assert "/api/tournaments/{id}/register/" in paths


def test_pages_register_manage_and_show_standings(client, club, admin_user, members):
    t = services.tournament_create(
        user=admin_user,
        club=club,
        name="周末赛",
        variant="changchun",
        rounds=1,
        hands_per_round=1,
        bot_level="easy",
    )
    client.force_login(members[0])
    page = client.get(reverse("tournaments:list", args=[club.pk]))
    assert page.status_code == 200
    assert "周末赛" in page.content.decode()
    assert "创建比赛" not in page.content.decode()
    assert client.get(reverse("tournaments:create", args=[club.pk])).status_code == 404
    assert client.get(reverse("tournaments:manage", args=[t.pk])).status_code == 404
    client.post(reverse("tournaments:register", args=[t.pk]))
    assert Entrant.objects.filter(tournament=t, user=members[0]).exists()
    client.force_login(admin_user)
    made = client.post(
        reverse("tournaments:create", args=[club.pk]),
        {
            "name": "夜场赛",
            "variant": "harbin",
            "base_stake": 1,
            "turn_timeout_s": 15,
            "claim_timeout_s": 8,
            "rounds": 2,
            "hands_per_round": 1,
            "registration_open": "on",
            "fill_with_bots": "on",
            "bot_level": "easy",
            "round_clock_min": 0,
            "spectator_delay_s": 180,
            "round1": "random",
            "placement": "3,1,-1,-3",
        },
    )
    assert made.status_code == 302, made.content.decode()[:2000]
    assert Tournament.objects.filter(name="夜场赛", created_by=admin_user).exists()
    manage = reverse("tournaments:manage", args=[t.pk])
    assert client.get(manage).status_code == 200
    client.post(manage, {"do": "bots", "count": 3, "level": "easy"})
    client.post(manage, {"do": "start"})
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING
    play_out(t)
    client.post(manage, {"do": "advance"})
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    client.force_login(members[0])
    detail = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert "最终排名" in detail
    assert "顺位分" in detail
    assert detail.count('data-role="table"') == 1
    assert "/scoring/rounds/" in detail  # each hand links to its replay
    home = client.get("/").content.decode()
    assert 'data-role="unread"' in home
    notes = client.get(reverse("tournaments:notifications")).content.decode()
    assert "第 1 轮：你在 1 号桌" in notes
    assert not Notification.objects.filter(user=members[0], read=False).exists()


def test_the_standings_endpoint_gives_the_finished_event(club, admin_user, members):
    from tables import rooms
    from tables.models import Match, TournamentTable
    from tests.tournaments.helpers import expected_points

    t = services.tournament_create(
        user=admin_user,
        club=club,
        name="周末赛",
        variant="changchun",
        rounds=1,
        hands_per_round=1,
        bot_level="easy",
    )
    for user in members[:4]:
        services.tournament_register(tournament=t, user=user)
    services.tournament_start(tournament=t, actor=admin_user)
    play_out(t)
    # A finished event table starts no new match, whoever presses ready there.
    table = TournamentTable.objects.get(round__tournament=t)
    rooms.seat_set_ready(room=table.room, user=members[0])
    assert Match.objects.filter(room=table.room).count() == 1
    services.tournament_advance(tournament_id=t.pk)
    rows = _api(members[1]).get(f"/api/tournaments/{t.pk}/standings/").json()
    expected = expected_points(t)
    assert {r["entrant_id"]: (r["points"], r["score"]) for r in rows} == {
        e: (str(p), s) for e, (p, s) in expected.items()
    }
    assert [r["rank"] for r in rows] == sorted(r["rank"] for r in rows)


def test_the_event_page_in_english(client, club, admin_user, members):
    t = services.tournament_create(
        user=admin_user,
        club=club,
        name="Weekend",
        variant="changchun",
        rounds=1,
        hands_per_round=1,
        bot_level="easy",
    )
    for user in members[:3]:
        services.tournament_register(tournament=t, user=user)
    services.tournament_bots_add(tournament=t, actor=admin_user, count=1, level="easy")
    services.tournament_start(tournament=t, actor=admin_user)
    play_out(t)
    services.tournament_advance(tournament_id=t.pk)
    members[0].language = "en"
    members[0].save(update_fields=["language"])
    client.force_login(members[0])
    page = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    for words in ("Final standings", "Placement points", "Round 1", "Table 1", "Bot"):
        assert words in page, words
    assert "最终排名" not in page
    assert "机器人" not in page
