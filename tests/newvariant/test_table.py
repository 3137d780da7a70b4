"""A new variant, added by its package and one registry line, is opened as a room, dealt,
played, settled into the ledger and shown on the table page with nothing else changed."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.urls import reverse

from scoring.models import LedgerEntry
from scoring.services import settle_round
from tables import bots, gameplay, rooms, selectors
from tables.models import Round
from tests.newvariant import KEY, registered
from tests.rules.engine_helpers import line_nets
from tests.tables.helpers import act, fresh, state_of, table_opened

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _toy(settings: Any) -> Iterator[None]:
    settings.TABLES_SCHEDULE_TASKS = False
    settings.TABLES_FIXED_SEED = hashlib.sha256(b"a new variant").hexdigest()
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    with registered():
        yield


def _play_to_the_end(rnd: Round) -> Round:
    while (rnd := fresh(rnd)).status == Round.Status.PLAYING:
        state = state_of(rnd)
        seat = gameplay.deciders(state)[0]
        assert act(rnd, seat, gameplay.action_json(bots.choose_action(state, seat))).ok
    return rnd


def test_a_club_plays_a_round_of_it_from_the_lobby_to_the_ledger(
    client: Any, make_user: Callable[..., Any], make_club: Callable[..., Any]
) -> None:
    players = [make_user(f"t{i}") for i in range(4)]
    club = make_club(owner=players[0], members=tuple(players[1:]))
    room = rooms.room_create(user=players[0], club=club, name="新玩法", variant=KEY, base_stake=2)
    room.full_clean()  # the model's choices are read from the registry
    assert room.options["base"] == 2

    for index, user in enumerate(players):
        rooms.seat_take(room=room, user=user, index=index)
        table_opened(room.pk, user)
    for user in players:
        rooms.seat_set_ready(room=room, user=user)
    rnd = selectors.current_round(room.pk)
    assert rnd is not None
    ended = _play_to_the_end(rnd)
    assert ended.status == Round.Status.ENDED

    settlement = settle_round(ended.pk)
    assert settlement is not None
    nets = [e.net for e in LedgerEntry.objects.filter(settlement=settlement).order_by("seat")]
    assert sum(nets) == 0
    assert list(line_nets(ended.result["settlement"]["lines"])) == nets

    client.force_login(players[0])
    page = client.get(reverse("tables:room", args=[room.pk]))
    assert page.status_code == 200
    assert "测试麻将" in page.content.decode()
