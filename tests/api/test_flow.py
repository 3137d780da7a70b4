"""An API client finds a room, joins it, plays (the table runs out its clocks) and reads the
results: the whole path, through token authentication."""

from __future__ import annotations

import pytest

from tables.models import Match, Room, Round
from tests.api.helpers import contains_key, play_out

pytestmark = pytest.mark.django_db

SECRET_KEYS = {"concealed", "wall", "seed_hex", "hand", "tiles_left_wall", "live", "far"}


def test_a_client_finds_a_room_joins_it_and_reads_its_results(api_for, players, room):
    from scoring.services import settle_round

    clients = [api_for(user) for user in players]
    found = clients[0].get("/api/rooms/", {"free_seat": "true", "variant": "changchun"})
    assert found.status_code == 200
    assert [r["id"] for r in found.json()["results"]] == [room.pk]

    for index, client in enumerate(clients):
        joined = client.post(f"/api/rooms/{room.pk}/join/", {"index": index}, format="json")
        assert joined.status_code == 200, joined.json()
        assert joined.json()["your_seat"] == index
    for client in clients:
        assert client.post(f"/api/rooms/{room.pk}/ready/", {}, format="json").status_code == 200

    table = clients[1].get(f"/api/rooms/{room.pk}/").json()
    assert table["status"] == "playing"
    assert table["match_id"] is not None
    current = table["current_round"]
    assert current["status"] == "playing"

    # During play: the round's record holds nothing secret, its log and replay are refused.
    during = clients[1].get(f"/api/rounds/{current['id']}/").json()
    assert (during["seed"], during["result"], during["settlement"]) == (None, None, None)
    assert during["ledger"] == []
    assert clients[1].get(f"/api/rounds/{current['id']}/events/").status_code == 403
    assert clients[1].get(f"/api/rounds/{current['id']}/replay/").status_code == 403
    assert not contains_key(table, SECRET_KEYS)

    ended = play_out(Round.objects.get(pk=current["id"]))
    assert ended.status == Round.Status.ENDED
    settle_round(ended.pk)

    after = clients[2].get(f"/api/rounds/{ended.pk}/").json()
    assert after["seed"] == ended.seed
    assert after["settlement"] is not None
    assert sum(after["settlement"]["nets"]) == 0
    assert [line["net"] for line in after["ledger"]] == after["settlement"]["nets"]
    assert [line["name"] for line in after["ledger"]] == [p.public_name for p in players]
    events = clients[2].get(f"/api/rounds/{ended.pk}/events/").json()
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    replay = clients[2].get(f"/api/rounds/{ended.pk}/replay/")
    assert replay.status_code == 200
    assert replay.json()["round_id"] == ended.pk

    mine = clients[3].get("/api/matches/").json()
    assert [m["id"] for m in mine["results"]] == [table["match_id"]]
    assert mine["results"][0]["seat_names"] == [p.public_name for p in players]
    detail = clients[3].get(f"/api/matches/{table['match_id']}/").json()
    assert [r["round_id"] for r in detail["rounds"]] == [ended.pk]
    assert detail["totals"] == after["settlement"]["nets"]
    assert all(isinstance(f["label"], str) for f in detail["rounds"][0]["fan"])

    board = clients[0].get("/api/leaderboards/", {"club": room.club_id}).json()
    assert {row["user_id"] for row in board["rows"]} == {p.pk for p in players}


def test_join_by_code_and_leave(api_for, players, room):
    client = api_for(players[1])
    response = client.post(
        "/api/rooms/join-by-code/", {"code": room.invite_code.lower()}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["your_seat"] == 0
    left = client.post(f"/api/rooms/{room.pk}/leave/")
    assert left.status_code == 200
    assert left.json()["your_seat"] is None


def test_a_player_opens_a_room_with_options_and_bad_options_are_refused(api_for, players, club):
    client = api_for(players[1])
    body = {
        "club": club.pk,
        "name": "南风桌",
        "variant": "changchun",
        "options": {"dianpao_quanbao": True},
        "base_stake": 2,
    }
    made = client.post("/api/rooms/", body, format="json")
    assert made.status_code == 201, made.json()
    assert made.json()["options"]["dianpao_quanbao"] is True
    assert made.json()["options"]["base"] == 2
    bad = client.post("/api/rooms/", {**body, "options": {"dianpao_quanbao": "yes"}}, format="json")
    assert bad.status_code == 400
    assert "options" in bad.json()


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"options": {"cap": 10**12}}, "options"),  # settlements overflowed
        ({"base_stake": 2147483647}, "base_stake"),
        ({"options": {"house_rule": "x" * 2_000_000}}, "options"),  # an unknown key, 2 MB
        ({"options": {"house_rule": 1}}, "options"),
        ({"options": {"base": 7}, "base_stake": 2}, "options"),  # base is the 底分, one value
        ({"options": {"hints": "no"}}, "options"),
        ({"options": {"tai_value": 5}}, "options"),  # a Taiwan option on Changchun
    ],
)
def test_out_of_bounds_or_unknown_room_options_are_refused(api_for, players, club, changes, field):
    body = {"club": club.pk, "name": "坏桌", "variant": "changchun", "base_stake": 2, **changes}
    bad = api_for(players[1]).post("/api/rooms/", body, format="json")
    assert bad.status_code == 400, bad.json()
    assert field in bad.json()
    assert not Room.objects.filter(name="坏桌").exists()


@pytest.mark.parametrize(
    "body",
    [
        "[" * 1000,
        '{"a":' * 1000,
        '{"club": 1, "name": "坏桌", "variant": "changchun", "options": '
        + '{"a":' * 40
        + "1"
        + "}" * 40
        + "}",
    ],
)
def test_deeply_nested_json_is_a_400_not_a_500(api_for, players, club, body):
    """``[`` × 1000 raised RecursionError in DRF's parser (a 500); every API
    body goes through config.api_common.JSONParser, which refuses it like any bad JSON."""
    bad = api_for(players[1]).post("/api/rooms/", body, content_type="application/json")
    assert bad.status_code == 400
    assert bad.json()["detail"].startswith("JSON parse error - nested deeper than")
    assert not Room.objects.filter(name="坏桌").exists()


def test_a_full_table_refuses_a_fifth_player_with_a_conflict(api_for, players, room, make_user):
    from accounts.models import Membership

    for index, user in enumerate(players):
        api_for(user).post(f"/api/rooms/{room.pk}/join/", {"index": index}, format="json")
    fifth = make_user("fifth")
    Membership.objects.create(club=room.club, user=fifth)
    response = api_for(fifth).post(f"/api/rooms/{room.pk}/join/", {}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "seat_taken"


def test_leaving_a_match_ends_it(api_for, players, room):
    clients = [api_for(user) for user in players]
    for index, client in enumerate(clients):
        client.post(f"/api/rooms/{room.pk}/join/", {"index": index}, format="json")
    for client in clients:
        client.post(f"/api/rooms/{room.pk}/ready/", {"ready": True}, format="json")
    assert Match.objects.get(room=room).status == Match.Status.PLAYING
    clients[2].post(f"/api/rooms/{room.pk}/leave/")
    match = Match.objects.get(room=room)
    assert (match.status, match.end_reason) == (Match.Status.FINISHED, "player_left")
