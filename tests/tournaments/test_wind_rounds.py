"""Wind rounds ("each round = N hands/局 or a wind round"): a round of the event is one
wind round (一圈) at each table, over when the deal leaves North (seat 3) or at the safety bound;
refused for a variant whose winner deals next."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone, translation
from rest_framework.test import APIClient

from rules.registry import VARIANTS
from tables import matches
from tables.game import commands
from tables.game.commands import WIND_ROUND_MAX_HANDS
from tables.models import Match, Round, Seat, Tournament, TournamentTable
from tables.tournaments import services

pytestmark = pytest.mark.django_db


def _event(club: Any, admin: Any, members: list[Any], **fields: Any) -> Tournament:
    fields.setdefault("rounds", 1)
    fields.setdefault("round_length", "wind")
    fields.setdefault("bot_level", "easy")
    fields.setdefault("variant", "changchun")
    t = services.tournament_create(user=admin, club=club, name="一圈赛", **fields)
    for user in members:
        services.tournament_register(tournament=t, user=user)
    return t


def _started_match(club: Any, admin: Any, members: list[Any], **fields: Any) -> Match:
    t = _event(club, admin, members[:4], **fields)
    services.tournament_start(tournament=t, actor=admin)
    table = TournamentTable.objects.get(round__tournament=t)
    assert table.match is not None
    return table.match


def _hand_in_play(match: Match) -> Round:
    return Round.objects.get(match=match, status=Round.Status.PLAYING)


def _end_hand_as(match: Match, next_dealer: int) -> Round | None:
    """The hand in play ends with ``next_dealer`` dealing next (its result set directly: which
    seat deals next is all a wind round looks at), then the settlement pause is over."""
    rnd = _hand_in_play(match)
    long_ago = timezone.now() - timedelta(hours=1)
    Round.objects.filter(pk=rnd.pk).update(
        status=Round.Status.ENDED, result={"next_dealer": next_dealer}, ended_at=long_ago
    )
    return matches.match_next_round(match_id=match.pk, after_number=rnd.number)


def _play_hand(rnd: Round) -> Round:
    """Play the hand out with bots and 托管 (the worker's auto-play task, called in order)."""
    for _ in range(3000):
        rnd.refresh_from_db()
        if rnd.status != Round.Status.PLAYING:
            return rnd
        commands.round_autoplay(round_id=rnd.pk, version=rnd.version)
    raise AssertionError("the hand did not end")


def test_only_variants_whose_deal_passes_in_seat_order_have_wind_rounds():
    """The flows' data, not their names: the winner deals next in Harbin and 成麻."""
    passing = {key for key, v in VARIANTS.items() if v.flow.deal_passes_in_seat_order}
    assert {"harbin", "chengma"}.isdisjoint(passing)
    assert {"changchun", "siping", "taiwan16", "taiyuan_lisi"} <= passing


@pytest.mark.parametrize("variant", ["harbin", "chengma"])
def test_a_wind_round_is_refused_where_the_winner_deals_next(club, admin_user, variant):
    with pytest.raises(ValidationError) as refused:
        services.tournament_create(
            user=admin_user, club=club, name="x", variant=variant, round_length="wind"
        )
    assert "round_length" in refused.value.message_dict
    assert "按圈" in refused.value.message_dict["round_length"][0]
    with translation.override("en"):
        assert "cannot play wind rounds" in refused.value.message_dict["round_length"][0]
    made = services.tournament_create(
        user=admin_user, club=club, name="y", variant=variant, round_length="hands"
    )
    assert made.round_length == Tournament.RoundLength.HANDS


def test_the_api_and_the_page_choose_the_round_length(club, admin_user, members):
    api = APIClient()
    api.force_authenticate(admin_user)
    body = {"club": club.pk, "name": "春季赛", "variant": "harbin", "round_length": "wind"}
    refused = api.post("/api/tournaments/", body, format="json")
    assert refused.status_code == 400
    assert "round_length" in refused.json().get("errors", refused.json())
    made = api.post("/api/tournaments/", {**body, "variant": "changchun"}, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["round_length"] == "wind"

    client = _page_client(admin_user)
    form = {
        "name": "夜场赛",
        "variant": "chengma",
        "round_length": "wind",
        "base_stake": 1,
        "turn_timeout_s": 15,
        "claim_timeout_s": 8,
        "rounds": 2,
        "hands_per_round": 1,
        "bot_level": "easy",
        "round_clock_min": 0,
        "spectator_delay_s": 180,
        "round1": "random",
        "placement": "3,1,-1,-3",
    }
    page = client.post(reverse("tournaments:create", args=[club.pk]), form)
    assert page.status_code == 200
    assert "不能按圈打" in page.content.decode()
    page = client.post(reverse("tournaments:create", args=[club.pk]), {**form, "variant": "siping"})
    assert page.status_code == 302
    t = Tournament.objects.get(name="夜场赛")
    assert t.round_length == Tournament.RoundLength.WIND
    detail = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert "每轮一圈" in detail
    t.round_length = Tournament.RoundLength.HANDS
    t.save(update_fields=["round_length"])
    detail = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert "每轮 1 盘" in detail
    assert "每轮一圈" not in detail


def _page_client(user: Any) -> Any:
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


def test_a_wind_round_match_ends_after_the_hand_where_the_deal_leaves_north(
    club, admin_user, members
):
    match = _started_match(club, admin_user, members)
    assert match.wind_round is True
    assert match.hands_limit == WIND_ROUND_MAX_HANDS
    assert _hand_in_play(match).dealer == 0  # East deals first
    # East keeps the deal once (连庄), then it passes round; North keeps it once, then leaves.
    for next_dealer in (0, 1, 2, 3, 3):
        dealt = _end_hand_as(match, next_dealer)
        assert dealt is not None
        assert dealt.dealer == next_dealer
        match.refresh_from_db()
        assert match.status == Match.Status.PLAYING
    assert _end_hand_as(match, 0) is None
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.end_reason == commands.HANDS_LIMIT_REASON
    assert match.rounds.count() == 6
    assert not match.rounds.filter(status=Round.Status.PLAYING).exists()


def test_a_played_hand_that_ends_the_wind_round_ends_the_match_at_once(club, admin_user, members):
    """The move that ends North's hand ends the match (no settlement pause) when the deal leaves
    North, and only then: a 连庄 of North deals another hand."""
    match = _started_match(club, admin_user, members)
    Seat.objects.filter(room=match.room, is_bot=False).update(auto_play=True)
    for next_dealer in (1, 2, 3):
        assert _end_hand_as(match, next_dealer) is not None
    north_hands = 0
    while True:
        rnd = _hand_in_play(match)
        assert rnd.dealer == 3
        ended = _play_hand(rnd)
        north_hands += 1
        assert ended.status == Round.Status.ENDED
        match.refresh_from_db()
        stays = int(ended.result["next_dealer"]) == 3
        if ended.number >= WIND_ROUND_MAX_HANDS or not stays:
            assert match.status == Match.Status.FINISHED
            break
        assert match.status == Match.Status.PLAYING
        later = timezone.now() + timedelta(seconds=commands.NEXT_ROUND_AFTER_S + 5)
        matches.match_next_round(match_id=match.pk, after_number=ended.number, now=later)
    assert match.rounds.count() == 3 + north_hands


def test_a_wind_round_ends_at_its_safety_bound(club, admin_user, members):
    match = _started_match(club, admin_user, members)
    for next_dealer in (1, 2, 3):
        assert _end_hand_as(match, next_dealer) is not None
    # North keeps the deal hand after hand (连庄): the bound ends the round anyway.
    for _ in range(WIND_ROUND_MAX_HANDS - 4):
        assert _end_hand_as(match, 3) is not None
    assert _hand_in_play(match).number == WIND_ROUND_MAX_HANDS
    assert _end_hand_as(match, 3) is None
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.rounds.count() == WIND_ROUND_MAX_HANDS


def test_the_round_clock_still_ends_a_wind_round_table(club, admin_user, members):
    match = _started_match(club, admin_user, members, round_clock_min=1)
    Round.objects.filter(pk=_hand_in_play(match).pk).update(
        status=Round.Status.ENDED, result={"next_dealer": 1}, ended_at=timezone.now()
    )
    later = timezone.now() + timedelta(minutes=2)
    assert (
        services.tournament_advance(
            tournament_id=match.tournament_tables.get().round.tournament_id, now=later
        )
        == "clock"
    )
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.hands_limit == 1


def test_a_hands_event_plays_no_wind_round(club, admin_user, members):
    match = _started_match(club, admin_user, members, round_length="hands", hands_per_round=3)
    assert match.wind_round is False
    assert match.hands_limit == 3
    # The deal leaving North does not end a match of N hands.
    for next_dealer in (3, 0):
        assert _end_hand_as(match, next_dealer) is not None
    assert _end_hand_as(match, 1) is None
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.rounds.count() == 3
