"""In a real browser (headless Chromium): the verify button recomputes the commitment with
SubtleCrypto, and the replay viewer steps through the round."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from scoring import services

CHROMIUM = Path("/usr/bin/chromium")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not CHROMIUM.exists() and not os.environ.get("CI"),
        reason="/usr/bin/chromium is not installed (set CI=1 to make this a failure)",
    ),
]


@pytest.fixture
def page(live_server: Any, client: Any, players: list[Any], settings: Any, monkeypatch: Any) -> Any:
    from playwright.sync_api import sync_playwright

    settings.WHITENOISE_USE_FINDERS = True
    client.force_login(players[0])
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API runs a loop
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True)
        context = browser.new_context()
        context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
        )
        yield context.new_page()
        browser.close()


def test_the_verify_button_and_the_replay_steps_work_in_a_browser(
    page: Any, live_server: Any, make_match: Any, make_round: Any
) -> None:
    rnd = make_round(make_match(), 1, seed_text="browser")
    services.settle_round(rnd.pk)
    page.goto(live_server.url + reverse("scoring:replay", args=[rnd.pk]))
    page.click("#fairness [data-verify]")
    page.wait_for_selector("#fairness .verify-result.ok")
    assert rnd.commitment in page.inner_text("#fairness .verify-result")

    assert page.inner_text("[data-position]").endswith(f"0 / {len(rnd.actions)}")
    page.click("[data-step=next]")
    assert page.inner_text("[data-position]").endswith(f"1 / {len(rnd.actions)}")
    page.click("[data-step=last]")
    assert page.locator(".replay-seat").count() == 4
    assert page.inner_text("[data-events]").count("round_ended") == 1

    # A tampered wall does not verify.
    page.eval_on_selector("#fairness", "el => el.dataset.wall = el.dataset.wall.replace('m', 'p')")
    page.click("#fairness [data-verify]")
    page.wait_for_selector("#fairness .verify-result.bad")
