"""On a 390 × 844 phone (headless Chromium) the replay page and the match history fit the
screen: the replay was 458–724 px wide and the history table wrapped one character a line. The
replay's auto-play (play/pause, speed) steps through the round by itself."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from scoring import services
from tests.scoring.test_browser import server_url

CHROMIUM = Path("/usr/bin/chromium")
PHONE = {"width": 390, "height": 844}

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not CHROMIUM.exists() and not os.environ.get("CI"),
        reason="/usr/bin/chromium is not installed (set CI=1 to make this a failure)",
    ),
]

__all__ = ["server_url"]  # the live server fixture, shared with the other browser test


def _screenshot(page: Any, name: str) -> None:
    """Saved only when asked (``QUEYOU_SCREENSHOTS=<folder>``), to look at the page by eye."""
    folder = os.environ.get("QUEYOU_SCREENSHOTS")
    if folder:
        page.screenshot(path=f"{folder}/{name}.png", full_page=True)


OVERFLOW = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


@pytest.fixture
def phone(server_url: str, client: Any, players: list[Any], settings: Any, monkeypatch: Any) -> Any:
    from playwright.sync_api import sync_playwright

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    client.force_login(players[0])
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True)
        context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True)
        context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": server_url}]
        )
        yield context.new_page()
        browser.close()


@pytest.fixture
def settled(make_match: Any, make_round: Any) -> Any:
    match = make_match()
    rounds = [make_round(match, n, seed_text="phone") for n in (1, 2)]
    for rnd in rounds:
        services.settle_round(rnd.pk)
    return rounds[-1]


def test_the_replay_fits_a_phone_and_plays_by_itself(
    phone: Any, server_url: str, settled: Any
) -> None:
    phone.goto(server_url + reverse("scoring:replay", args=[settled.pk]))
    phone.click("[data-step=last]")
    assert phone.evaluate(OVERFLOW) <= 0
    # Every tile of every hand lies inside its seat's box.
    sticking_out = phone.evaluate(
        """() => [...document.querySelectorAll('.replay-seat')].flatMap(seat => {
             const box = seat.getBoundingClientRect();
             return [...seat.querySelectorAll('.tile')]
               .filter(t => t.getBoundingClientRect().right > box.right + 0.5)
               .map(t => t.dataset.tile);
           })"""
    )
    assert sticking_out == []
    _screenshot(phone, "replay-phone")
    # Auto-play: from the start, at the fastest speed, the position moves without a click.
    phone.click("[data-step=first]")
    phone.select_option("[data-speed]", "4")
    phone.click("[data-play]")
    assert phone.get_attribute("[data-play]", "aria-pressed") == "true"
    phone.wait_for_function("() => document.querySelector('[data-slider]').value !== '0'")
    phone.click("[data-play]")  # pause
    assert phone.get_attribute("[data-play]", "aria-pressed") == "false"
    paused = phone.inner_text("[data-position]")
    phone.wait_for_timeout(600)
    assert phone.inner_text("[data-position]") == paused


def test_the_history_pages_fit_a_phone(phone: Any, server_url: str, settled: Any) -> None:
    phone.goto(server_url + reverse("scoring:my_matches"))
    assert phone.locator("table.ledger tbody tr").count() == 1
    assert phone.evaluate(OVERFLOW) <= 0
    # No column squeezed to one character a line: every cell is at least a few characters wide.
    narrowest = phone.evaluate(
        "() => Math.min(...[...document.querySelectorAll('table.ledger td')]"
        ".filter(td => td.textContent.trim().length > 2)"
        ".map(td => td.getBoundingClientRect().width))"
    )
    assert narrowest >= 48
    _screenshot(phone, "history-phone")
    phone.goto(server_url + reverse("scoring:match", args=[settled.match_id]))
    assert phone.evaluate(OVERFLOW) <= 0
    _screenshot(phone, "match-phone")
    # The board with its ratings and a player's rating page.
    match = settled.match
    query = f"?club={match.room.club_id}&variant={match.variant}&bots=on"
    board = reverse("scoring:leaderboard") + query
    phone.goto(server_url + board)
    assert phone.locator("td.rating .badge-provisional").count() >= 1
    assert phone.evaluate(OVERFLOW) <= 0
    player = next(p for p in match.players if p is not None)
    phone.goto(server_url + reverse("scoring:player_ratings", args=[player]))
    assert phone.locator("svg.rating-chart").count() == 1
    assert phone.evaluate(OVERFLOW) <= 0
    _screenshot(phone, "ratings-phone")
