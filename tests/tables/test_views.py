"""Lobby and table pages (plain HTTP; the live part is tested through the websocket)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from rules.registry import VARIANTS
from tables.models import Room, Seat

pytestmark = pytest.mark.django_db


def test_the_lobby_lists_rooms_of_my_clubs_with_free_seats(
    client: Any, room: Any, players: list[Any], make_club: Any, make_user: Any
) -> None:
    elsewhere = make_club(owner=make_user("other-owner"))
    Room.objects.create(club=elsewhere, name="别人的桌", variant="changchun")
    client.force_login(players[1])
    page = client.get(reverse("tables:lobby"))
    assert page.status_code == 200
    assert room.name in page.content.decode()
    assert "别人的桌" not in page.content.decode()


def test_a_full_room_is_not_listed_to_others(
    client: Any, seated: Any, make_user: Any, players: list[Any]
) -> None:
    from accounts.models import Membership

    late = make_user("late")
    Membership.objects.create(club=seated.club, user=late)
    client.force_login(late)
    assert seated.name not in client.get(reverse("tables:lobby")).content.decode()
    client.force_login(players[0])
    assert seated.name in client.get(reverse("tables:lobby")).content.decode()


def test_a_member_opens_a_room(client: Any, room: Any, players: list[Any]) -> None:
    client.force_login(players[0])
    answer = client.post(
        reverse("tables:room_create"),
        {
            "club": room.club.pk,
            "name": "新桌",
            "variant": "changchun",
            "base_stake": 5,
            "turn_timeout_s": 15,
            "claim_timeout_s": 8,
            "allow_spectators": "on",
        },
    )
    made = Room.objects.get(name="新桌")
    assert answer.status_code == 302
    assert answer["Location"] == reverse("tables:room", args=[made.pk])
    assert not made.allow_bots
    assert made.options["base"] == 5  # scored at the 底分 set


def test_join_by_code_leads_to_the_room(client: Any, room: Any, players: list[Any]) -> None:
    client.force_login(players[2])
    answer = client.post(reverse("tables:room_join"), {"code": room.invite_code.lower()})
    assert answer["Location"] == reverse("tables:room", args=[room.pk])


def test_the_table_page_renders_for_members_only(
    client: Any, room: Any, players: list[Any], make_user: Any
) -> None:
    client.force_login(players[0])
    page = client.get(reverse("tables:room", args=[room.pk]))
    assert page.status_code == 200
    assert 'type="module"' in page.content.decode()
    assert reverse("javascript-catalog") in page.content.decode()
    client.force_login(make_user("stranger"))
    assert client.get(reverse("tables:room", args=[room.pk])).status_code == 404


@pytest.mark.parametrize("key", list(VARIANTS))
def test_the_table_page_sends_its_variant_s_facts_for_the_style_and_scripts(
    client: Any, room: Any, players: list[Any], key: str
) -> None:
    # table.css lays 16 tiles out by data-hand-size; extras.js offers auto-win by data-auto-win.
    Room.objects.filter(pk=room.pk).update(variant=key)
    client.force_login(players[0])
    page = client.get(reverse("tables:room", args=[room.pk])).content.decode()
    flow = VARIANTS[key].flow
    assert f'data-hand-size="{flow.hand_size}"' in page
    assert f'data-auto-win="{"true" if flow.wins_after_ting else "false"}"' in page


def test_sit_ready_and_leave_by_post(client: Any, room: Any, players: list[Any]) -> None:
    client.force_login(players[3])
    client.post(reverse("tables:sit", args=[room.pk]), {"index": "2"})
    seat = Seat.objects.get(room=room, user=players[3])
    assert seat.index == 2
    client.post(reverse("tables:ready", args=[room.pk]))
    seat.refresh_from_db()
    assert seat.ready
    client.post(reverse("tables:leave", args=[room.pk]))
    assert not Seat.objects.filter(room=room, user=players[3]).exists()


def test_seat_views_refuse_get(client: Any, room: Any, players: list[Any]) -> None:
    client.force_login(players[0])
    assert client.get(reverse("tables:sit", args=[room.pk])).status_code == 405


def test_the_table_page_strings_have_an_english_catalog(client: Any, players: list[Any]) -> None:
    players[0].language = "en"
    players[0].save()
    client.force_login(players[0])
    catalog = client.get(reverse("javascript-catalog")).content.decode()
    assert "Fill with bots" in catalog
    assert "Declare ting" in catalog


def _rule_labels(page: str) -> dict[str, Any]:
    import json
    import re

    found = re.search(r'<script id="rules-labels" type="application/json">(.*?)</script>', page)
    assert found is not None
    labels: dict[str, Any] = json.loads(found.group(1))
    return labels


def test_the_table_page_carries_the_rule_words_in_the_players_language(
    client: Any, room: Any, players: list[Any]
) -> None:
    client.force_login(players[0])
    url = reverse("tables:room", args=[room.pk])
    chinese = _rule_labels(client.get(url).content.decode())
    assert chinese["fan"]["jiahu"]["name"] == "夹胡"  # changchun.md
    assert chinese["tiles"]["5p"] == "5筒"
    assert chinese["winds"]["1z"] == "东"
    players[0].language = "en"
    players[0].save()
    english = _rule_labels(client.get(url).content.decode())
    assert english["fan"]["jiahu"]["name"] == "Single-wait win"
    assert english["win_by"]["self_draw"]["name"] == "Self-draw"
    assert english["reasons"]["missing_suit"]["name"] == "Missing a suit"
    # The English page names tiles and winds in English (the pictures are the same).
    assert english["tiles"]["5p"] == "5 Dot"
    assert english["tiles"]["1z"] == "East"
    assert english["winds"]["1z"] == "E"


def test_a_lost_race_for_a_seat_is_told_to_the_script(
    client: Any, room: Any, players: list[Any]
) -> None:
    """The table page's script asks for JSON and says why a seat change was refused."""
    client.force_login(players[0])
    url = reverse("tables:sit", args=[room.pk])
    taken = client.post(url, {"index": "1"}, HTTP_ACCEPT="application/json")
    assert taken.status_code == 200
    assert taken.json() == {"ok": True}
    client.force_login(players[1])
    lost = client.post(url, {"index": "1"}, HTTP_ACCEPT="application/json")
    assert lost.status_code == 409
    assert lost.json()["code"] == "seat_taken"
    assert "别人" in lost.json()["message"]
