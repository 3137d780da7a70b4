"""The API shows and lets do what the pages do, to whom the pages do: scoped by club, nothing
hidden of a round in play, managers only for managers' actions; plus auth, paging, throttling."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.models import Club, Membership
from tables import selectors
from tables.models import Match, Room, Round, RoundEvent
from tests.api.helpers import contains_key, settled_match, start_round

pytestmark = pytest.mark.django_db


def test_anonymous_clients_are_refused(room):
    client = APIClient()
    for url in ("/api/me/", "/api/clubs/", "/api/rooms/", "/api/matches/", "/api/leaderboards/"):
        assert client.get(url).status_code in {401, 403}, url


def test_a_token_is_issued_for_a_good_password_only(players, password):
    client = APIClient()
    good = client.post(
        "/api/auth/token/", {"username": players[0].username, "password": password}, format="json"
    )
    assert good.status_code == 200
    token = good.json()["token"]
    bad = client.post(
        "/api/auth/token/", {"username": players[0].username, "password": "nope"}, format="json"
    )
    assert bad.status_code == 400
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.get("/api/me/").json()["username"] == players[0].username


def test_the_session_of_the_site_works_too(client, players):
    client.force_login(players[1])
    assert client.get("/api/me/").json()["id"] == players[1].pk


def test_me_changes_only_profile_fields(api_for, players):
    client = api_for(players[1])
    response = client.patch(
        "/api/me/", {"display_name": "小明", "username": "hacker", "language": "en"}, format="json"
    )
    assert response.status_code == 200
    players[1].refresh_from_db()
    assert (players[1].display_name, players[1].language) == ("小明", "en")
    assert players[1].username == "a1"
    bad = client.patch("/api/me/", {"avatar_color": "red"}, format="json")
    assert bad.status_code == 400


def test_another_clubs_room_does_not_exist_for_me(api_for, players, other_club):
    other_room = Room.objects.get(club=other_club)
    client = api_for(players[0])
    assert other_room.pk not in [r["id"] for r in client.get("/api/rooms/").json()["results"]]
    assert client.get(f"/api/rooms/{other_room.pk}/").status_code == 404
    assert client.post(f"/api/rooms/{other_room.pk}/join/", {}, format="json").status_code == 404
    by_code = client.post(
        "/api/rooms/join-by-code/", {"code": other_room.invite_code}, format="json"
    )
    assert by_code.status_code == 404
    assert not other_room.seats.exists()


def test_a_room_cannot_be_opened_in_another_club(api_for, players, other_club):
    response = api_for(players[0]).post(
        "/api/rooms/", {"club": other_club.pk, "name": "x", "variant": "harbin"}, format="json"
    )
    assert response.status_code == 403
    assert not Room.objects.filter(club=other_club, name="x").exists()


def test_another_clubs_matches_rounds_and_board_are_out_of_reach(
    api_for, players, room, other_club, make_user
):
    stranger = make_user("outsider")
    match = settled_match(room, players)
    rnd = match.rounds.get()
    client = api_for(stranger)
    assert client.get(f"/api/matches/{match.pk}/").status_code == 404
    for url in (f"/api/rounds/{rnd.pk}/", f"/api/rounds/{rnd.pk}/events/"):
        assert client.get(url).status_code == 404, url
    assert client.get(f"/api/rounds/{rnd.pk}/replay/").status_code == 404
    board = client.get("/api/leaderboards/", {"club": room.club_id})
    assert board.status_code == 403


def test_a_round_in_play_shows_nothing_hidden(api_for, players, room):
    rnd = start_round(room, players)
    client = api_for(players[1])
    record = client.get(f"/api/rounds/{rnd.pk}/").json()
    assert record["seed"] is None
    assert record["result"] is None
    assert record["commitment"] == rnd.commitment
    for suffix in ("events", "replay"):
        response = client.get(f"/api/rounds/{rnd.pk}/{suffix}/")
        assert response.status_code == 403
        assert response.json()["code"] == "round_not_ended"
    table = client.get(f"/api/rooms/{room.pk}/").json()
    match = client.get(f"/api/matches/{rnd.match_id}/").json()
    for body in (record, table, match):
        assert not contains_key(body, {"concealed", "wall", "drawn", "state", "actions", "views"})
        assert rnd.seed not in str(body)


def test_club_members_see_members_and_managers_see_requests(api_for, players, club, make_user):
    club.join_policy = Club.JoinPolicy.APPROVAL
    club.save()
    applicant = make_user("applicant")
    joined = api_for(applicant).post("/api/clubs/join/", {"code": club.invite_code}, format="json")
    assert joined.status_code == 201
    assert joined.json()["status"] == "pending"

    member_view = api_for(players[2]).get(f"/api/clubs/{club.pk}/members/").json()
    assert applicant.pk not in [m["user_id"] for m in member_view["results"]]
    owner_view = api_for(players[0]).get(f"/api/clubs/{club.pk}/members/").json()
    pending = [m for m in owner_view["results"] if m["user_id"] == applicant.pk]
    assert pending
    assert pending[0]["status"] == "pending"

    # The applicant sees the club, but not its invite code nor its members yet.
    mine = api_for(applicant).get(f"/api/clubs/{club.pk}/").json()
    assert (mine["my_status"], mine["invite_code"]) == ("pending", None)
    assert api_for(applicant).get(f"/api/clubs/{club.pk}/members/").status_code == 403

    refused = api_for(players[2]).post(f"/api/memberships/{pending[0]['id']}/approve/")
    assert refused.status_code == 403
    approved = api_for(players[0]).post(f"/api/memberships/{pending[0]['id']}/approve/")
    assert approved.status_code == 200
    assert approved.json()["status"] == "active"


def test_a_manager_of_another_club_cannot_touch_our_memberships(api_for, players, club, other_club):
    target = Membership.objects.get(club=club, user=players[3])
    response = api_for(other_club.owner).post(f"/api/memberships/{target.pk}/remove/")
    assert response.status_code == 404
    assert Membership.objects.filter(pk=target.pk).exists()


def test_joining_with_an_unknown_code_is_a_404_and_twice_a_409(api_for, players, club):
    client = api_for(players[1])
    assert client.post("/api/clubs/join/", {"code": "ZZZZZZ"}, format="json").status_code == 404
    again = client.post("/api/clubs/join/", {"code": club.invite_code}, format="json")
    assert again.status_code == 409


def test_only_a_manager_dissolves_and_everyone_is_told_why(api_for, players, room):
    rnd = start_round(room, players)
    refused = api_for(players[2]).post(
        f"/api/rooms/{room.pk}/dissolve/", {"reason": "I am losing"}, format="json"
    )
    assert refused.status_code == 403
    done = api_for(players[0]).post(
        f"/api/rooms/{room.pk}/dissolve/", {"reason": "掉线太久"}, format="json"
    )
    assert done.status_code == 200
    assert done.json()["status"] == "open"
    assert done.json()["match_id"] is None
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.ABORTED
    match = Match.objects.get(pk=rnd.match_id)
    assert (match.status, match.end_reason) == (Match.Status.FINISHED, "dissolved")
    notice = RoundEvent.objects.get(round=rnd, kind="table_dissolved")
    assert notice.seq == rnd.last_seq
    # What the table's sockets send each seat and each spectator after the change.
    for viewer in (0, 1, 2, 3, None):
        sent = selectors.visible_events(rnd, viewer, after_seq=0, upto_seq=rnd.last_seq)
        assert sent[-1] == (
            notice.seq,
            {"kind": "table_dissolved", "reason": "掉线太久", "by": "a0"},
        )


def test_lists_are_paginated(api_for, players, club):
    from tables import rooms

    for i in range(5):
        rooms.room_create(user=players[0], club=club, name=f"桌{i}", variant="siping")
    page = api_for(players[0]).get("/api/rooms/", {"page_size": 2}).json()
    assert (page["count"], len(page["results"])) == (5, 2)
    assert page["next"] is not None


def test_clients_are_throttled(api_for, players, settings):
    settings.API_THROTTLE_RATES = {"user": "3/min", "anon": "3/min", "auth": "3/min"}
    client = api_for(players[0])
    codes = [client.get("/api/me/").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]


def test_the_schema_and_docs_are_served(client, players):
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    assert b"/api/rooms/{id}/join/" in schema.content
    client.force_login(players[0])
    assert client.get("/api/docs/").status_code == 200


def test_the_schema_lists_every_variant_and_its_options_from_the_registry(client):
    import yaml

    from rules.registry import JUDGED, VARIANTS

    schema = yaml.safe_load(client.get("/api/schema/").content)
    components = schema["components"]["schemas"]
    assert components["VariantEnum"]["enum"] == list(VARIANTS)
    options = components["RoomCreate"]["properties"]["options"]
    assert options["properties"]["tai_value"]["minimum"] == 0
    assert options["properties"]["cap"]["maximum"] == 1_000_000
    assert options["properties"]["cap"]["nullable"] is True
    assert options["properties"]["liting"]["type"] == "boolean"
    judged = components["JudgeCase"]["properties"]["variant"]
    enum = judged.get("enum") or components[judged["$ref"].rsplit("/", 1)[-1]]["enum"]
    assert set(enum) == set(JUDGED)


def test_password_guessing_on_the_token_endpoint_locks_the_account_out(players, password):
    client = APIClient()
    name = players[0].username
    for _ in range(5):
        client.post("/api/auth/token/", {"username": name, "password": "guess"}, format="json")
    locked = client.post(
        "/api/auth/token/", {"username": name, "password": password}, format="json"
    )
    assert locked.status_code in {400, 403, 429}
    assert "token" not in locked.json()


def test_a_manager_closes_an_idle_room_but_not_one_in_play(api_for, players, room, club):
    from tables import rooms

    busy = rooms.room_create(user=players[0], club=club, name="忙桌", variant="harbin")
    start_round(busy, players)
    owner = api_for(players[0])
    refused = owner.post(f"/api/rooms/{busy.pk}/close/")
    assert refused.status_code == 409
    assert refused.json()["code"] == "match_in_play"
    assert api_for(players[1]).post(f"/api/rooms/{room.pk}/close/").status_code == 403
    closed = owner.post(f"/api/rooms/{room.pk}/close/")
    assert closed.status_code == 200
    assert closed.json()["status"] == "closed"
    assert room.pk not in [r["id"] for r in owner.get("/api/rooms/").json()["results"]]
    assert api_for(players[1]).post(f"/api/rooms/{room.pk}/join/").status_code == 409


def test_a_pending_applicant_sees_no_room_of_the_club(api_for, club, room, make_user):
    club.join_policy = Club.JoinPolicy.APPROVAL
    club.save()
    applicant = make_user("waiting")
    client = api_for(applicant)
    client.post("/api/clubs/join/", {"code": club.invite_code}, format="json")
    assert client.get("/api/rooms/").json()["count"] == 0
    assert client.get(f"/api/rooms/{room.pk}/").status_code == 404
