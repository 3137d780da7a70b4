"""Who may set a room's spectator delay, and its bounds, through the one checker of
room settings (:func:`tables.room_options.room_options_validate`), the service, the lobby form
and the admin."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tables import rooms
from tables.errors import TableError
from tables.models import Room
from tables.room_options import room_options_validate

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("delay", [0, 1, 180, 1800])
def test_the_checker_accepts_zero_to_thirty_minutes(delay: int) -> None:
    options = room_options_validate(
        variant="changchun", options={}, base_stake=1, spectator_delay_s=delay
    )
    assert options["base"] == 1


@pytest.mark.parametrize("delay", [-1, 1801, 10**6, True, "60", None, 1.5])
def test_the_checker_refuses_anything_else(delay: Any) -> None:
    with pytest.raises(ValidationError) as refused:
        room_options_validate(
            variant="changchun", options={}, base_stake=1, spectator_delay_s=delay
        )
    assert "spectator_delay_s" in refused.value.message_dict


def test_only_a_club_manager_opens_a_room_with_a_delay(
    players: list[Any], make_club: Any, make_user: Any
) -> None:
    admin = make_user("club_admin")
    club = make_club(owner=players[0], members=tuple(players[1:]), admins=(admin,))
    with pytest.raises(TableError) as refused:
        rooms.room_create(
            user=players[1], club=club, name="a", variant="changchun", spectator_delay_s=60
        )
    assert refused.value.code == "not_manager"
    for user in (players[0], admin):
        room = rooms.room_create(
            user=user, club=club, name="b", variant="changchun", spectator_delay_s=60
        )
        assert room.spectator_delay_s == 60
    with pytest.raises(ValidationError):
        rooms.room_create(
            user=admin, club=club, name="c", variant="changchun", spectator_delay_s=1801
        )


def form(club: Any, **changes: Any) -> dict[str, Any]:
    return {
        "club": club.pk,
        "name": "新桌",
        "variant": "changchun",
        "base_stake": 1,
        "turn_timeout_s": 15,
        "claim_timeout_s": 8,
        "allow_spectators": "on",
        **changes,
    }


def test_the_lobby_form_lets_only_a_manager_set_a_delay(
    client: Any, room: Any, players: list[Any]
) -> None:
    client.force_login(players[1])
    answer = client.post(reverse("tables:room_create"), form(room.club, spectator_delay_s=60))
    assert answer.status_code == 200
    assert "spectator_delay_s" in answer.context["form"].errors
    assert not Room.objects.filter(name="新桌").exists()
    client.force_login(players[0])  # the club's owner
    answer = client.post(reverse("tables:room_create"), form(room.club, spectator_delay_s=60))
    assert answer.status_code == 302
    assert Room.objects.get(name="新桌").spectator_delay_s == 60


def test_the_lobby_form_refuses_a_delay_out_of_bounds(
    client: Any, room: Any, players: list[Any]
) -> None:
    client.force_login(players[0])
    answer = client.post(reverse("tables:room_create"), form(room.club, spectator_delay_s=1801))
    assert answer.status_code == 200
    assert "spectator_delay_s" in answer.context["form"].errors


def test_the_admin_sets_the_delay_within_bounds(client: Any, room: Any, players: list[Any]) -> None:
    client.force_login(players[0])  # the club's owner manages its rooms in the admin
    url = reverse("admin:tables_room_change", args=[room.pk])
    page = client.get(url)
    assert page.status_code == 200
    assert 'name="spectator_delay_s"' in page.content.decode()
    data = {**form(room.club, name=room.name), "allow_bots": "on"}
    answer = client.post(url, {**data, "spectator_delay_s": 2000})
    assert answer.status_code == 200
    assert "spectator_delay_s" in answer.context["adminform"].form.errors
    answer = client.post(url, {**data, "spectator_delay_s": 180})
    assert answer.status_code == 302
    room.refresh_from_db()
    assert room.spectator_delay_s == 180
