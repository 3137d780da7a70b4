"""Small page fixes a new player met: the only club preselected, the variants counted
and named from the registry, seats numbered from 1, no bullets beside the lobby's rooms, and a
favicon for the pages that name none (the admin)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse
from django.utils.translation import override

from config.views import count_word
from rules.registry import VARIANTS
from tables.forms import RoomForm
from tables.labels import text

pytestmark = pytest.mark.django_db


def test_the_room_form_preselects_the_only_club(make_user: Any, make_club: Any) -> None:
    user = make_user("solo")
    club = make_club(owner=user)
    assert RoomForm(user=user)["club"].value() == club.pk
    make_club(owner=user, name="第二个圈")
    assert RoomForm(user=user)["club"].value() is None  # two clubs: the player chooses


def test_the_lobby_form_page_shows_the_club_selected(
    client: Any, make_user: Any, make_club: Any
) -> None:
    user = make_user("solo")
    club = make_club(owner=user)
    client.force_login(user)
    page = client.get(reverse("tables:room_create")).content.decode()
    assert re.search(rf'<option value="{club.pk}" selected>', page)


def test_the_landing_page_counts_and_names_every_variant(client: Any) -> None:
    page = client.get(reverse("home")).content.decode()
    assert f"{count_word(len(VARIANTS))}种玩法" in page
    assert "六种玩法" in page  # six in the registry today, 成都 among them
    assert "五种玩法" not in page
    for variant in VARIANTS.values():
        assert text(variant.name.name) in page
    assert "成都" in page[: page.index("种玩法")]  # in the intro, not only in the list


def test_the_home_page_of_a_player_names_every_variant(client: Any, make_user: Any) -> None:
    player = make_user("home")
    client.force_login(player)
    page = client.get(reverse("home")).content.decode()
    for variant in VARIANTS.values():
        assert text(variant.name.name) in page
    player.language = "en"
    player.save(update_fields=["language"])
    english = client.get(reverse("home")).content.decode()
    assert "Chengdu" in english
    assert "Open a table with friends in your club" in english


def test_count_words_in_english() -> None:
    with override("en"):
        assert count_word(6) == "Six"
        assert count_word(11) == "11"


def test_the_favicon_is_served(client: Any) -> None:
    answer = client.get("/favicon.ico")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "image/svg+xml"
    assert b"<svg" in answer.content


def test_the_lobby_rooms_have_no_bullets() -> None:
    from pathlib import Path

    from django.conf import settings

    css = (Path(settings.BASE_DIR) / "static" / "css" / "queyou.css").read_text()
    rule = re.search(r"\.room-list \{([^}]*)\}", css)
    assert rule is not None
    assert "list-style: none" in rule.group(1)
