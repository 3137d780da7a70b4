"""Bots have names of their own: 机器人·简单 1, 机器人·简单 2, 机器人·困难 3 at
the table, in the API, in the history and its chart, in the ledger and the admin — not three 🤖
that nobody can tell apart — and in English where the page is English."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.apps import apps
from django.urls import reverse
from django.utils import translation

from scoring import selectors as scoring_selectors
from tables import rooms, selectors
from tables.models import Match

pytestmark = pytest.mark.django_db

EXPECTED = ["机器人·简单 1", "机器人·简单 2", "机器人·困难 3"]


@pytest.fixture
def with_bots(room: Any, players: list[Any]) -> Any:
    """players[0] at seat 0, bots at 1 (easy), 2 (easy, the room's level) and 3 (hard)."""
    room.bot_level = "easy"
    room.save(update_fields=["bot_level"])
    rooms.seat_take(room=room, user=players[0], index=0)
    rooms.seats_fill_with_bots(room=room, user=players[0], level="easy", index=1)
    rooms.seats_fill_with_bots(room=room, user=players[0], level="hard", index=3)
    rooms.seats_fill_with_bots(room=room, user=players[0], index=2)
    return room


def test_the_table_names_every_bot_apart(with_bots):
    with translation.override("zh-hans"):
        table = selectors.table_state(with_bots)
    names = [seat["name"] for seat in table["seats"]]
    assert names[1:] == EXPECTED
    assert "🤖" not in "".join(names)
    assert [seat["bot"] for seat in table["seats"]] == [
        None,
        {"number": 1, "level": "easy"},
        {"number": 2, "level": "easy"},
        {"number": 3, "level": "hard"},
    ]


def test_the_api_names_the_bots_in_the_readers_language(with_bots, players):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(players[0])
    seats = api.get(f"/api/rooms/{with_bots.pk}/").json()["seats"]
    assert [s["name"] for s in seats[1:]] == EXPECTED
    players[0].language = "en"  # the profile's language decides the answer's
    players[0].save(update_fields=["language"])
    api.force_authenticate(None)
    api.force_login(players[0])  # through the session: the language middleware sees the player
    english = api.get(f"/api/rooms/{with_bots.pk}/").json()["seats"]
    assert [s["name"] for s in english[1:]] == ["Bot · Easy 1", "Bot · Easy 2", "Bot · Hard 3"]


def test_a_match_records_its_bots_levels_and_the_history_names_them(with_bots, players, client):
    rooms.seat_set_ready(room=with_bots, user=players[0])
    match = Match.objects.get(room=with_bots)
    assert match.players[1:] == [None, None, None]
    assert match.bot_levels == ["", "easy", "easy", "hard"]
    with translation.override("zh-hans"):
        names = scoring_selectors.player_names(match.players, match.bot_levels)
    assert names == [players[0].public_name, *EXPECTED]

    client.force_login(players[0])
    page = client.get(reverse("scoring:match", args=(match.pk,))).content.decode()
    for name in EXPECTED:
        assert name in page

    players[0].language = "en"
    players[0].save(update_fields=["language"])
    english = client.get(reverse("scoring:match", args=(match.pk,))).content.decode()
    assert "Bot · Easy 1" in english
    assert "Bot · Hard 3" in english


def test_a_match_from_before_the_levels_names_its_bots_by_number():
    with translation.override("zh-hans"):
        names = scoring_selectors.player_names([None, 5, None, None], [])
    assert names == [
        "机器人 1",
        "?",
        "机器人 2",
        "机器人 3",
    ]


def test_the_migration_fills_the_levels_of_the_matches_in_play(with_bots, players):
    rooms.seat_set_ready(room=with_bots, user=players[0])
    Match.objects.update(bot_levels=[])
    migration = importlib.import_module("tables.migrations.0013_match_bot_levels")
    migration.fill_playing_matches(apps, None)
    assert Match.objects.get(room=with_bots).bot_levels == ["", "easy", "easy", "hard"]


def test_the_admin_lists_the_bots_by_name(with_bots, players, make_user, client):
    rooms.seat_set_ready(room=with_bots, user=players[0])
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    room_page = client.get(reverse("admin:tables_room_change", args=(with_bots.pk,)))
    assert all(name in room_page.content.decode() for name in EXPECTED)
    matches = client.get(reverse("admin:tables_match_changelist")).content.decode()
    assert all(name in matches for name in EXPECTED)
