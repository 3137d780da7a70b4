"""Bots named apart in the history: a settled match with three bots shows
机器人·简单 1, 机器人·简单 2, 机器人·困难 3 in 我的对局, on the match page and its chart legend, in
the API's matches and round ledger, and in the admin's settlements and ledger lines."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from scoring import services
from scoring.models import LedgerEntry, RoundSettlement

pytestmark = pytest.mark.django_db

EXPECTED = ["机器人·简单 1", "机器人·简单 2", "机器人·困难 3"]


@pytest.fixture
def with_bots(make_match: Any, make_round: Any, players: list[Any]) -> Any:
    match = make_match(users=[players[0], None, None, None])
    match.bot_levels = ["", "easy", "easy", "hard"]
    match.save(update_fields=["bot_levels"])
    rounds = [make_round(match, n, seed_text="bots") for n in (1, 2)]
    for rnd in rounds:
        services.settle_round(rnd.pk)
    assert RoundSettlement.objects.filter(match=match).count() == 2
    return match, rounds


def _has_every_bot(text: str) -> bool:
    return all(name in text for name in EXPECTED)


def test_my_matches_and_the_match_page_name_every_bot(client, players, with_bots):
    match, _rounds = with_bots
    client.force_login(players[0])
    assert _has_every_bot(client.get(reverse("scoring:my_matches")).content.decode())
    page = client.get(reverse("scoring:match", args=(match.pk,)))
    assert _has_every_bot(page.content.decode())
    assert page.context["legend"]  # the chart's legend is made of the same names
    assert page.context["names"] == [players[0].public_name, *EXPECTED]


def test_the_api_names_every_bot(players, with_bots):
    _match, rounds = with_bots
    api = APIClient()
    api.force_authenticate(players[0])
    listed = api.get("/api/matches/").json()["results"][0]["seat_names"]
    assert listed == [players[0].public_name, *EXPECTED]
    ledger = api.get(f"/api/rounds/{rounds[0].pk}/").json()["ledger"]
    assert [line["name"] for line in ledger] == [players[0].public_name, *EXPECTED]


def test_the_admin_names_every_bot(client, make_user, with_bots):
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    settlements = client.get(reverse("admin:scoring_roundsettlement_changelist"))
    assert settlements.status_code == 200
    entries = client.get(reverse("admin:scoring_ledgerentry_changelist")).content.decode()
    assert _has_every_bot(entries)
    assert LedgerEntry.objects.filter(user__isnull=True).count() == 6
