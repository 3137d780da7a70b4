"""In a real browser (headless Chromium): the review page (牌谱分析) of a played round
opens on the seat's first decision, shows played vs bot and the candidate discards as tiles,
and steps from decision to decision."""

from __future__ import annotations

import os
from typing import Any

import pytest
from django.urls import reverse

from scoring import reviews, services
from tests.scoring.test_browser import CHROMIUM, page, server_url  # noqa: F401 (fixtures)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is not installed"),
]


def test_the_review_of_a_played_round_steps_through_the_seat_s_decisions(
    page: Any,  # noqa: F811
    server_url: str,  # noqa: F811
    make_match: Any,
    make_round: Any,
) -> None:
    # A round whose seat 0 has a decision worth another look: the first of a few seeds played by
    # the easy bots, whose choices the hard bot disagrees with most (which seed it is depends on
    # the bots, so the test searches instead of naming one).
    match = make_match()
    for number in range(1, 20):
        rnd = make_round(match, number, seed_text="br", level="easy")
        services.settle_round(rnd.pk)
        review = reviews.round_reviews_compute(round_id=rnd.pk)[0].data
        if review["marked"] and review["count"] > 1:
            break
    assert review["marked"] >= 1
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server_url + reverse("scoring:review", args=[rnd.pk, 0]))

    summary = page.inner_text("[data-summary]")
    assert f"{review['agreed']} / {review['count']}" in summary
    assert f"{review['marked']} 处值得再想" in summary
    first = review["decisions"][0]
    assert f"第 {first['step']} /" in page.inner_text("[data-position]")
    assert f"决定 1 / {review['count']}" in page.inner_text("[data-position]")
    assert page.locator("[data-decision] .review-played").count() == 1
    assert page.locator("[data-decision] .review-bot").count() == 1
    assert "实际打法" in page.inner_text("[data-decision]")
    # Four seats, only this seat's hand face up before the end.
    assert page.locator(".replay-seat").count() == 4
    assert page.locator(".replay-seat.review-me .replay-hand .tile.back").count() == 0
    assert page.locator(".replay-seat:not(.review-me) .replay-hand .tile.back").count() >= 39

    page.click("[data-step=next-decision]")
    second = review["decisions"][1]
    assert f"第 {second['step']} /" in page.inner_text("[data-position]")
    assert f"决定 2 / {review['count']}" in page.inner_text("[data-position]")

    # The marked decision: its panel says why, and its candidates are drawn as tiles.
    marked = next(d for d in review["decisions"] if d["marks"])
    page.click(f"[data-jump='{marked['step']}']")
    panel = page.locator("[data-decision]")
    assert "marked" in (panel.get_attribute("class") or "")
    assert page.locator(".review-marks li").count() == len(marked["marks"])
    if os.environ.get("QUEYOU_SCREENSHOTS"):
        page.set_viewport_size({"width": 1280, "height": 900})
        page.screenshot(path=f"{os.environ['QUEYOU_SCREENSHOTS']}/review.png", full_page=True)
    if "candidates" in marked:
        rows = page.locator(".review-candidate")
        assert rows.count() == len(marked["candidates"])
        assert page.locator(".review-candidate.played").count() == 1
        assert page.locator(".review-effective img").count() > 0
    text = page.inner_text("[data-decision]")
    assert "{" not in text
    assert "discard" not in text

    claim = next((d for d in review["decisions"] if d.get("options")), None)
    if claim is not None:  # a claim window: the hand each answer leads to
        page.evaluate(f"document.querySelector('[data-slider]').value = '{claim['step']}'")
        page.dispatch_event("[data-slider]", "input")
        assert page.locator(".review-option").count() == len(claim["options"])
        if os.environ.get("QUEYOU_SCREENSHOTS"):
            page.screenshot(path=f"{os.environ['QUEYOU_SCREENSHOTS']}/review-claim.png")
    page.click("[data-step=last]")
    assert page.locator("[data-ending]").is_visible()
    page.keyboard.press("ArrowUp")  # back to the last decision
    last = review["decisions"][-1]
    assert f"第 {last['step']} /" in page.inner_text("[data-position]")
    assert errors == []

    # The same page in English (the player's language), words and tiles alike.
    player = rnd.match.players[0]
    from accounts.models import User

    User.objects.filter(pk=player).update(language="en")
    page.goto(server_url + reverse("scoring:review", args=[rnd.pk, 0]))
    summary = page.inner_text("[data-summary]")
    assert f"Same as the bot: {review['agreed']} / {review['count']}" in summary
    assert "worth another look" in summary
    assert "Played" in page.inner_text("[data-decision]")
    assert errors == []


@pytest.mark.parametrize("variant", ["chengma", "taiwan16"])
def test_every_decision_of_a_chengma_and_a_taiwan16_round_renders(
    page: Any,  # noqa: F811
    server_url: str,  # noqa: F811
    room: Any,
    players: list[Any],
    make_round: Any,
    variant: str,
) -> None:
    """成麻 (定缺 and its void badges, several winners) and 台湾十六张 (17 tiles, flowers): the
    page walks from the first decision to the last without a script error."""
    from tables.models import Match

    match = Match.objects.create(
        room=room,
        variant=variant,
        options={},
        players=[p.pk for p in players],
        status=Match.Status.FINISHED,
    )
    rnd = make_round(match, 1, seed_text=f"br-{variant}", level="normal")
    services.settle_round(rnd.pk)
    review = reviews.round_reviews_compute(round_id=rnd.pk)[1].data
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server_url + reverse("scoring:review", args=[rnd.pk, 1]))
    kinds = set()
    for n, decision in enumerate(review["decisions"], start=1):
        assert f"决定 {n} / {review['count']}" in page.inner_text("[data-position]")
        assert page.locator(".review-candidate").count() == len(decision.get("candidates", ()))
        kinds.add(decision["kind"])
        page.click("[data-step=next-decision]")
    if variant == "chengma":
        assert "void" in kinds
        assert page.locator(".badge-que").count() == 4
    assert errors == []
