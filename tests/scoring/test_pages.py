"""Pages: my matches, a match, a round's fairness record, its replay, the leaderboards."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import override

from rules.wall import verify, verify_main
from scoring import services
from scoring.models import LedgerEntry, RoundSettlement
from tables.models import Match, Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(make_match, make_round):
    """A finished match of three settled rounds."""
    match = make_match()
    rounds = [make_round(match, n, seed_text="pages") for n in (1, 2, 3)]
    for rnd in rounds:
        services.settle_round(rnd.pk)
    return match, rounds


@pytest.fixture
def outsider(make_user, make_club):
    user = make_user("outsider")
    make_club(owner=user, name="别的圈")
    return user


# --- my matches -------------------------------------------------------------------------------


def test_my_matches_lists_my_result(client, players, played):
    match, _ = played
    client.force_login(players[1])
    response = client.get(reverse("scoring:my_matches"))
    assert response.status_code == 200
    rows = response.context["rows"]
    assert [r["match"].pk for r in rows] == [match.pk]
    mine = sum(
        LedgerEntry.objects.filter(match=match, user=players[1]).values_list("net", flat=True)
    )
    assert rows[0]["match"].my_net == mine
    assert rows[0]["match"].rounds_settled == 3
    assert rows[0]["players"] == [p.public_name for p in players]


def test_my_matches_filters_and_pages(client, players, make_match, make_round):
    for i in range(23):
        rnd = make_round(make_match(), 1, seed_text=f"many{i}")
        services.settle_round(rnd.pk)
    client.force_login(players[0])
    first = client.get(reverse("scoring:my_matches"))
    assert len(first.context["rows"]) == 20
    second = client.get(reverse("scoring:my_matches"), {"page": 2})
    assert len(second.context["rows"]) == 3
    other_variant = client.get(reverse("scoring:my_matches"), {"variant": "harbin"})
    assert other_variant.context["rows"] == []
    future = (timezone.localdate() + timedelta(days=2)).isoformat()
    assert client.get(reverse("scoring:my_matches"), {"since": future}).context["rows"] == []


def test_history_needs_a_login(client):
    response = client.get(reverse("scoring:my_matches"))
    assert response.status_code == 302


def test_someone_else_does_not_see_my_matches_in_their_list(client, outsider, played):
    client.force_login(outsider)
    assert client.get(reverse("scoring:my_matches")).context["rows"] == []


# --- a match ----------------------------------------------------------------------------------


def test_the_match_page_shows_every_round_with_fan_kongs_nets_and_a_chart(client, players, played):
    match, rounds = played
    client.force_login(players[2])
    response = client.get(reverse("scoring:match", args=[match.pk]))
    assert response.status_code == 200
    rows = response.context["rows"]
    assert [r.number for r in rows] == [1, 2, 3]
    totals = [sum(r.nets[s] for r in rows) for s in range(4)]
    assert list(rows[-1].cumulative) == totals
    assert [t for _, _, t in response.context["seats"]] == totals
    body = response.content.decode()
    assert "<svg" in body
    assert 'class="score-chart"' in body
    for rnd in rounds:
        if rnd.result["winner"] is not None:
            for key in rnd.result["fan"]:
                assert any(f.key == key for r in rows for f in r.fan)


def test_fan_items_are_labelled_in_the_players_language(make_match, make_round):
    from scoring.selectors import ledger_rows_for_match

    match = make_match()
    for number in range(1, 30):
        settlement = services.settle_round(make_round(match, number, seed_text="fan").pk)
        if settlement is not None and settlement.winner is not None:
            break
    with override("zh-hans"):
        zh = [f.label for r in ledger_rows_for_match(match) for f in r.fan]
        zh_page = [r.win_by_label for r in ledger_rows_for_match(match)]
    with override("en"):
        en = [f.label for r in ledger_rows_for_match(match) for f in r.fan]
        en_page = [r.win_by_label for r in ledger_rows_for_match(match)]
    assert zh
    assert len(zh) == len(en)
    assert all(not label.isascii() for label in zh + zh_page)
    assert all(label.isascii() for label in en + en_page)


def test_a_match_is_forbidden_to_someone_outside_the_club(client, outsider, played):
    match, _ = played
    client.force_login(outsider)
    assert client.get(reverse("scoring:match", args=[match.pk])).status_code == 403


# --- a round and its replay -------------------------------------------------------------------


def test_the_round_page_reveals_salt_and_wall_only_after_the_round(
    client, players, make_match, make_round, tmp_path
):
    match = make_match()
    open_round = make_round(match, 1, ended=False)
    client.force_login(players[0])
    during = client.get(reverse("scoring:round", args=[open_round.pk]))
    assert during.status_code == 200
    assert open_round.commitment in during.content.decode()
    assert during.context["reveal"] is None
    assert open_round.seed not in during.content.decode()

    ended = make_round(match, 2)
    after = client.get(reverse("scoring:round", args=[ended.pk]))
    reveal = after.context["reveal"]
    assert reveal is not None
    assert f'data-salt="{reveal["salt"]}"' in after.content.decode()
    # What the page publishes is exactly what `python -m rules verify` accepts.
    assert verify(commitment=ended.commitment, salt_hex=reveal["salt"], wall=reveal["wall"])
    assert not verify(commitment="0" * 64, salt_hex=reveal["salt"], wall=reveal["wall"])
    published = {"commitment": ended.commitment, "salt": reveal["salt"], "wall": reveal["wall"]}
    path = tmp_path / "round.json"
    path.write_text(json.dumps(published))
    assert verify_main(str(path)) == 0


def test_the_replay_is_shown_to_club_members_of_an_ended_round(client, players, played):
    _, rounds = played
    client.force_login(players[3])
    response = client.get(reverse("scoring:replay", args=[rounds[0].pk]))
    assert response.status_code == 200
    assert 'id="replay-data"' in response.content.decode()
    data = response.context["replay"]
    assert data["commitment"] == rounds[0].commitment
    assert verify(commitment=data["commitment"], salt_hex=data["salt"], wall=",".join(data["wall"]))


def test_the_replay_is_forbidden_to_non_members(client, outsider, played):
    _, rounds = played
    client.force_login(outsider)
    assert client.get(reverse("scoring:replay", args=[rounds[0].pk])).status_code == 403
    assert client.get(reverse("scoring:round", args=[rounds[0].pk])).status_code == 403


def test_the_replay_is_forbidden_before_the_round_ended(client, players, make_match, make_round):
    rnd = make_round(make_match(), 1, ended=False)
    client.force_login(players[0])
    assert client.get(reverse("scoring:replay", args=[rnd.pk])).status_code == 403
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.ABORTED)
    assert client.get(reverse("scoring:replay", args=[rnd.pk])).status_code == 403


def test_a_missing_round_is_404(client, players):
    client.force_login(players[0])
    assert client.get(reverse("scoring:round", args=[987_654])).status_code == 404


# --- leaderboards -----------------------------------------------------------------------------


@pytest.mark.usefixtures("played")
def test_the_club_board_sums_the_ledger(client, players, club):
    client.force_login(players[0])
    response = client.get(reverse("scoring:leaderboard"), {"club": club.pk, "period": "week"})
    assert response.status_code == 200
    rows = {r.user_id: r for r in response.context["rows"]}
    for p in players:
        entries = LedgerEntry.objects.filter(user=p)
        assert rows[p.pk].net == sum(e.net for e in entries)
        assert rows[p.pk].rounds == 3
        assert rows[p.pk].wins == sum(e.won for e in entries)
    nets = [r.net for r in response.context["rows"]]
    assert nets == sorted(nets, reverse=True)


def test_the_board_of_another_club_is_forbidden(client, outsider, club, played):
    client.force_login(outsider)
    assert client.get(reverse("scoring:leaderboard"), {"club": club.pk}).status_code == 403


def test_the_overall_board_and_period_filter(client, players, played):
    match, _ = played
    client.force_login(players[0])
    assert len(client.get(reverse("scoring:leaderboard")).context["rows"]) == 4
    old = timezone.now() - timedelta(days=60)
    LedgerEntry.objects.filter(match=match).update(ended_at=old)
    RoundSettlement.objects.filter(match=match).update(ended_at=old)
    assert client.get(reverse("scoring:leaderboard"), {"period": "month"}).context["rows"] == []
    assert len(client.get(reverse("scoring:leaderboard"), {"period": "all"}).context["rows"]) == 4
    response = client.get(reverse("scoring:leaderboard"), {"variant": "siping"})
    assert response.context["rows"] == []


def _api_board(user):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(user)
    return api.get("/api/leaderboards/").json()["rows"]


@pytest.mark.usefixtures("played")
def test_the_all_clubs_board_shows_only_the_viewers_clubs(client, outsider, players):
    """A player of another club sees none of this club's players or scores."""
    client.force_login(outsider)
    assert client.get(reverse("scoring:leaderboard")).context["rows"] == []
    assert _api_board(outsider) == []
    client.force_login(players[0])
    assert len(client.get(reverse("scoring:leaderboard")).context["rows"]) == 4
    assert len(_api_board(players[0])) == 4


def test_ratings_show_on_a_one_club_one_variant_board_and_are_provisional_at_first(
    players, club, make_match, make_round, settings
):
    """The rating is per club per variant, marked provisional (定级中) until enough
    rated rounds; a board over several variants shows none."""
    from scoring.selectors import leaderboard_rows

    settings.SCORING_RATING_PROVISIONAL_GAMES = 3
    for i in range(3):
        match = make_match()
        services.settle_round(make_round(match, 1, seed_text=f"rate{i}").pk)
        board = leaderboard_rows(club=club, variant="changchun", order="rating")
        assert all(r.rating is not None and r.rating_games == i + 1 for r in board)
        assert all(r.provisional == (i + 1 < 3) for r in board)
        assert [r.rating for r in board] == sorted((r.rating for r in board), reverse=True)
    assert all(r.rating is None for r in leaderboard_rows(club=club))  # all variants
    # A match still in play is rated too: every settled round is a game.
    playing = make_match()
    Match.objects.filter(pk=playing.pk).update(status=Match.Status.PLAYING)
    services.settle_round(make_round(playing, 1, seed_text="live").pk)
    assert {r.rating_games for r in leaderboard_rows(club=club, variant="changchun")} == {4}


def test_the_pages_speak_the_players_language(client, players, played):
    match, rounds = played
    player = players[0]
    player.language = "en"
    player.save(update_fields=["language"])
    client.force_login(player)
    body = client.get(reverse("scoring:match", args=[match.pk])).content.decode()
    assert "Round by round" in body
    assert "每盘结算" not in body
    board = client.get(reverse("scoring:leaderboard")).content.decode()
    assert "Self-draw rate" in board
    replay = client.get(reverse("scoring:replay", args=[rounds[0].pk])).content.decode()
    assert "Fairness check" in replay


def test_a_chengma_match_shows_its_payment_lines_and_is_on_its_leaderboard(
    client, players, room, make_match, make_round
):
    """成麻: each win, kong payment and end-of-wall payment is its own labelled line on the
    match page, and the match counts on the board of its variant."""
    room.variant = "chengma"
    room.options = {}
    room.save(update_fields=["variant", "options"])
    match = make_match(options={})
    rounds = [make_round(match, n, seed_text="chengma pages") for n in (1, 2, 3, 4)]
    for rnd in rounds:
        services.settle_round(rnd.pk)
    client.force_login(players[1])
    response = client.get(reverse("scoring:match", args=[match.pk]))
    assert response.status_code == 200
    rows = response.context["rows"]
    lines = [line for row in rows for line in row.payments]
    assert lines
    for row, settlement in zip(rows, RoundSettlement.objects.filter(match=match), strict=True):
        net = [0, 0, 0, 0]
        for line in row.payments:
            net[line.payer] -= line.amount
            net[line.payee] += line.amount
        assert tuple(net) == settlement.nets
    assert 'class="payment-list"' in response.content.decode()
    board = client.get(reverse("scoring:leaderboard"), {"variant": "chengma", "period": "all"})
    assert len(board.context["rows"]) == 4


def test_the_match_page_numbers_seats_from_one(client, players, played):
    match, _rounds = played
    client.force_login(players[0])
    body = client.get(reverse("scoring:match", args=[match.pk])).content.decode()
    totals = body[body.index('class="ledger totals"') : body.index("</table>")]
    assert re.findall(r"<tr><td>(\d)</td>", totals) == ["1", "2", "3", "4"]
