"""Events in the Django admin: a club admin sees and runs their own club's events
only; every model has its pages."""

from __future__ import annotations

from typing import Any

import pytest

from tables.models import Tournament, TournamentRound, TournamentTable
from tables.tournaments import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def events(club, admin_user, members, make_user, make_club) -> dict[str, Any]:
    mine = services.tournament_create(
        user=admin_user,
        club=club,
        name="本圈赛",
        variant="changchun",
        rounds=1,
        hands_per_round=1,
        bot_level="easy",
    )
    for user in members[:4]:
        services.tournament_register(tournament=mine, user=user)
    services.tournament_start(tournament=mine, actor=admin_user)
    stranger = make_user("other_owner")
    other_club = make_club(owner=stranger, name="别的圈")
    theirs = services.tournament_create(
        user=stranger, club=other_club, name="别圈赛", variant="harbin"
    )
    return {"mine": mine, "theirs": theirs}


def test_a_club_admin_sees_only_their_clubs_events_in_the_admin(client, admin_user, events):
    client.force_login(admin_user)
    listing = client.get("/admin/tables/tournament/").content.decode()
    assert "本圈赛" in listing
    assert "别圈赛" not in listing
    assert client.get(f"/admin/tables/tournament/{events['theirs'].pk}/change/").status_code in {
        302,
        404,
    }
    assert client.get(f"/admin/tables/tournament/{events['mine'].pk}/change/").status_code == 200
    the_round = TournamentRound.objects.get(tournament=events["mine"])
    page = client.get(f"/admin/tables/tournamentround/{the_round.pk}/change/").content.decode()
    assert the_round.wall_seed == "" or the_round.wall_seed not in page
    for model in ("entrant", "forbiddenpair", "tournamentround", "tournamenttable"):
        assert client.get(f"/admin/tables/{model}/").status_code == 200, model
    table = TournamentTable.objects.get(round=the_round)
    assert client.get(f"/admin/tables/tournamenttable/{table.pk}/change/").status_code == 200


def test_the_admin_actions_run_the_services(client, admin_user, events):
    client.force_login(admin_user)
    mine = events["mine"]
    client.post(
        "/admin/tables/tournament/",
        {"action": "pause", "_selected_action": [mine.pk]},
    )
    assert Tournament.objects.get(pk=mine.pk).status == Tournament.Status.PAUSED
    client.post(
        "/admin/tables/tournament/",
        {"action": "end", "_selected_action": [mine.pk, events["theirs"].pk]},
    )
    assert Tournament.objects.get(pk=mine.pk).status == Tournament.Status.FINISHED
    assert Tournament.objects.get(pk=events["theirs"].pk).status == Tournament.Status.REGISTRATION


def test_site_staff_read_notifications_in_the_admin(client, make_user, events):
    staff = make_user("root", is_staff=True, is_superuser=True)
    client.force_login(staff)
    assert client.get("/admin/tables/notification/").status_code == 200
    assert client.get("/admin/tables/tournament/add/").status_code == 200
    listing = client.get("/admin/tables/tournament/").content.decode()
    assert "本圈赛" in listing
    assert "别圈赛" in listing


def test_a_club_admin_cannot_read_others_notifications(client, admin_user, events):
    client.force_login(admin_user)
    assert client.get("/admin/tables/notification/").status_code == 403
