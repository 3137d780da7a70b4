"""牌谱分析 stored and served: the task after the settlement is idempotent, the API and
the page are for the round's players and whoever may see its replay, and never before the round
has ended."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from rules.engine import legal_actions
from rules.review import REVIEW_VERSION
from scoring import reviews, services, tasks
from scoring.models import ReviewFailure, RoundReview
from tables.models import Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def ended(make_match: Any, make_round: Any) -> Any:
    """A settled round of bots of the ``normal`` level (they disagree with ``hard`` at times)."""
    rnd = make_round(make_match(), 1, seed_text="review", level="normal")
    services.settle_round(rnd.pk)
    return rnd


def _api(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_the_task_stores_four_reviews_once_however_often_it_runs(ended: Any) -> None:
    assert tasks.review_round(ended.pk) == 4
    first = {r.seat: (r.pk, r.created, r.data) for r in RoundReview.objects.filter(round=ended)}
    assert sorted(first) == [0, 1, 2, 3]
    assert tasks.review_round(ended.pk) == 4  # a redelivered message changes nothing
    again = {r.seat: (r.pk, r.created, r.data) for r in RoundReview.objects.filter(round=ended)}
    assert again == first
    assert all(data["version"] == REVIEW_VERSION for _, _, data in first.values())
    assert RoundReview.objects.filter(round=ended).count() == 4


def test_a_review_written_by_a_racing_worker_is_kept(ended: Any) -> None:
    theirs = RoundReview.objects.create(
        round=ended, seat=2, version=REVIEW_VERSION, data={"raced": True}
    )
    found = reviews.round_reviews_compute(round_id=ended.pk)
    assert found[2].pk == theirs.pk
    assert RoundReview.objects.filter(round=ended).count() == 4
    # The unique constraint is the last guard: a second row of the same version is refused.
    assert reviews._store(ended, 2, REVIEW_VERSION, {"late": True}).pk == theirs.pk


def test_an_unfinished_round_has_no_review(make_match: Any, make_round: Any) -> None:
    rnd = make_round(make_match(), 1, seed_text="open", ended=False)
    with pytest.raises(reviews.RoundNotEnded):
        reviews.round_reviews_compute(round_id=rnd.pk)
    assert tasks.review_round(rnd.pk) == 0
    assert not RoundReview.objects.exists()


def test_the_settlement_task_enqueues_the_review(
    make_match: Any, make_round: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.SCORING_ENQUEUE_SETTLEMENT = True
    sent: list[int] = []
    monkeypatch.setattr(tasks.review_round, "delay", sent.append)
    rnd = make_round(make_match(), 1, seed_text="enqueue")
    assert tasks.settle_round(rnd.pk) is not None
    assert sent == [rnd.pk]


def test_players_and_club_members_read_it_strangers_do_not(
    ended: Any, players: list[Any], make_user: Any
) -> None:
    url = f"/api/rounds/{ended.pk}/review/1/"
    body = _api(players[1]).get(url).json()
    assert body["round_id"] == ended.pk
    assert body["seat"] == 1
    assert body["level"] == "hard"
    assert body["count"] == len(body["decisions"]) > 0
    assert body["agreed"] == sum(d["agree"] for d in body["decisions"])
    discards = [d for d in body["decisions"] if "candidates" in d]
    assert discards
    assert all(c["total"] == sum(n for _, n in c["effective"]) for c in discards[0]["candidates"])
    claims = [
        d
        for seat in range(4)
        for d in _api(players[1]).get(f"/api/rounds/{ended.pk}/review/{seat}/").json()["decisions"]
        if d["kind"] == "claim"
    ]
    assert claims
    for claim in claims:
        assert 0 <= claim["from_seat"] <= 3
        assert claim["tile"]
        assert {o["action"]["kind"] for o in claim["options"]} >= {"pass"}
    # Computed on demand, stored: the task finds it.
    assert RoundReview.objects.filter(round=ended).count() == 4
    assert _api(players[0]).get(url).status_code == 200  # another seat's player, a member
    assert _api(make_user("outsider")).get(url).status_code == 404
    assert APIClient().get(url).status_code in (401, 403)
    for seat in ("4", "-1", "x", "00"):  # a JSON 404, like a malformed round id
        answer = _api(players[1]).get(f"/api/rounds/{ended.pk}/review/{seat}/")
        assert answer.status_code == 404
        assert answer.json()["code"] == "not_found"


def test_a_player_who_left_the_club_still_reads_the_review_of_their_round(
    ended: Any, players: list[Any], client: Any
) -> None:
    from accounts.models import Membership

    Membership.objects.filter(user=players[3]).delete()
    assert _api(players[3]).get(f"/api/rounds/{ended.pk}/replay/").status_code == 404
    assert _api(players[3]).get(f"/api/rounds/{ended.pk}/review/3/").status_code == 200
    client.force_login(players[3])
    assert client.get(reverse("scoring:review", args=(ended.pk, 3))).status_code == 200
    assert client.get(reverse("scoring:replay", args=(ended.pk,))).status_code == 403


def test_a_round_in_play_reveals_nothing(
    make_match: Any, make_round: Any, players: list[Any], client: Any
) -> None:
    rnd = make_round(make_match(), 1, seed_text="playing", ended=False)
    response = _api(players[0]).get(f"/api/rounds/{rnd.pk}/review/0/")
    assert response.status_code == 403
    assert response.json()["code"] == "round_not_ended"
    client.force_login(players[0])
    assert client.get(reverse("scoring:review", args=(rnd.pk, 0))).status_code == 403
    assert not RoundReview.objects.exists()


def test_the_page_shows_the_seat_s_view_and_is_linked_from_the_replay(
    ended: Any, players: list[Any], client: Any, make_user: Any
) -> None:
    client.force_login(players[0])
    page = client.get(reverse("scoring:review", args=(ended.pk, 2)))
    assert page.status_code == 200
    data = page.context["data"]
    assert data["seat"] == 2
    assert data["review"]["seat"] == 2
    deal = data["frames"][0]["table"]
    assert "concealed" in deal["seats"][2]
    for other in (0, 1, 3):  # the others' hands are hidden until the round ends
        assert "concealed" not in deal["seats"][other]
    assert "wall" not in deal
    assert "legal_actions" not in deal
    replay = client.get(reverse("scoring:replay", args=(ended.pk,))).content.decode()
    assert reverse("scoring:review", args=(ended.pk, 2)) in replay
    match_page = client.get(reverse("scoring:match", args=(ended.match_id,))).content.decode()
    assert reverse("scoring:review", args=(ended.pk, 0)) in match_page
    client.force_login(make_user("nobody"))
    assert client.get(reverse("scoring:review", args=(ended.pk, 2))).status_code == 404


def test_the_endpoint_is_in_the_schema(client: Any) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    path = next(p for p in schema["paths"] if p.startswith("/api/rounds/{id}/review/"))
    assert path == "/api/rounds/{id}/review/{seat}/"
    operation = schema["paths"][path]["get"]
    assert {p["name"] for p in operation["parameters"]} >= {"id", "seat"}


def test_the_review_asks_the_bot_exactly_as_the_table_does(ended: Any) -> None:
    """Same view, options and generator as ``tables.bots`` (a bot seat at the live table)."""
    from rules.review import bot_choice, bot_rng
    from tables import bots
    from tables.game.store import replay_steps

    checked = 0
    for step in replay_steps(ended)[:-1]:
        state = step.state
        for seat in range(4):
            if len(legal_actions(state, seat)) > 1:
                assert bot_rng(state, seat).random() == bots.bot_rng(state, seat).random()
                table = bots.choose_action(state, seat, level="hard")
                assert bot_choice(state, seat) == table
                checked += 1
    assert checked > 10


def test_the_sweep_enqueues_the_reviews_missing_for_settled_rounds_once(
    make_match: Any, make_round: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.SCORING_ENQUEUE_SETTLEMENT = True
    sent: list[int] = []
    monkeypatch.setattr(tasks.review_round, "delay", sent.append)
    monkeypatch.setattr(tasks.settle_round, "delay", lambda *a: None)
    match = make_match()
    old = timezone.now() - timedelta(minutes=10)
    lost = make_round(match, 1, seed_text="lost review")  # settled, its review message lost
    services.settle_round(lost.pk)
    reviewed = make_round(match, 2, seed_text="reviewed")  # settled and reviewed
    services.settle_round(reviewed.pk)
    tasks.review_round(reviewed.pk)
    partial = make_round(match, 3, seed_text="partial")  # one seat's review missing
    services.settle_round(partial.pk)
    tasks.review_round(partial.pk)
    RoundReview.objects.filter(round=partial, seat=3).delete()
    unsettled = make_round(match, 4, seed_text="unsettled")  # its settlement comes first
    recent = make_round(match, 5, seed_text="recent")  # its own review task is on its way
    services.settle_round(recent.pk)
    Round.objects.filter(pk__in=[lost.pk, reviewed.pk, partial.pk, unsettled.pk]).update(
        ended_at=old
    )
    monkeypatch.setattr(services, "unsettled_rounds", lambda **kw: [])  # settle nothing here
    services.sweep_unsettled()
    assert sorted(sent) == sorted([lost.pk, partial.pk])
    for round_id in sent:  # the worker runs them
        tasks.review_round(round_id)
    sent.clear()
    services.sweep_unsettled()
    assert sent == []  # idempotent: nothing missing any more
    assert RoundReview.objects.filter(round__in=[lost, partial]).count() == 8


def test_the_sweep_enqueues_no_review_when_enqueueing_is_off(
    ended: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[int] = []
    monkeypatch.setattr(tasks.review_round, "delay", sent.append)
    Round.objects.filter(pk=ended.pk).update(ended_at=timezone.now() - timedelta(minutes=10))
    assert reviews.unreviewed_rounds() == [ended.pk]
    assert tasks.enqueue_missing_reviews() == []  # tests call the services, never the broker
    assert sent == []


def test_the_review_admin_lists_round_seat_agreement_and_status_read_only(
    ended: Any, client: Any, make_user: Any
) -> None:
    tasks.review_round(ended.pk)
    review = RoundReview.objects.get(round=ended, seat=0)
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    listing = client.get(reverse("admin:scoring_roundreview_changelist"))
    assert listing.status_code == 200
    text = listing.content.decode()
    assert f"{review.data['agreement']:.0%}" in text
    marked = review.data["marked"]
    assert (f"{marked} 处值得再想" if marked else "无值得再想之处") in text
    page = client.get(reverse("admin:scoring_roundreview_change", args=[review.pk]))
    assert page.status_code == 200
    assert b'name="_save"' not in page.content
    assert client.get(reverse("admin:scoring_roundreview_add")).status_code == 403
    delete = reverse("admin:scoring_roundreview_delete", args=[review.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    assert RoundReview.objects.filter(pk=review.pk).exists()


def test_a_failing_review_is_recorded_and_the_sweep_backs_off_until_it_succeeds(
    ended: Any, monkeypatch: pytest.MonkeyPatch, client: Any, make_user: Any
) -> None:
    ten_minutes_ago = timezone.now() - timedelta(minutes=10)
    Round.objects.filter(pk=ended.pk).update(ended_at=ten_minutes_ago)

    def broken(*args: Any) -> Any:
        raise RuntimeError("a position the review cannot read")

    monkeypatch.setattr(reviews.rules_review, "review_steps", broken)
    assert tasks.review_round(ended.pk) == 0
    failure = ReviewFailure.objects.get(round=ended)
    assert (failure.attempts, failure.last_error) == (
        1,
        "RuntimeError: a position the review cannot read",
    )
    first_wait = failure.next_attempt_at - failure.failed_at
    assert first_wait == timedelta(seconds=ReviewFailure.RETRY_FIRST_S)
    assert reviews.unreviewed_rounds() == []  # not before its next attempt
    later = failure.next_attempt_at + timedelta(seconds=1)
    assert reviews.unreviewed_rounds(now=later) == [ended.pk]

    tasks.review_round(ended.pk)  # fails again: the wait doubles
    failure.refresh_from_db()
    assert failure.attempts == 2
    assert failure.next_attempt_at - failure.failed_at == 2 * first_wait

    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    listing = client.get(reverse("admin:scoring_reviewfailure_changelist"))
    assert b"a position the review cannot read" in listing.content

    monkeypatch.undo()
    assert tasks.review_round(ended.pk) == 4
    assert not ReviewFailure.objects.exists()  # stored: the failure is forgotten
