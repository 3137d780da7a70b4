"""In a real browser (headless Chromium): the verify button recomputes the commitment with
SubtleCrypto, and the replay viewer steps through the round."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
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


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def server_url(settings: Any) -> Iterator[str]:
    """The Django ASGI app (static files from the finders) under uvicorn in a thread, stopped
    after the test so that no database session outlives it. 127.0.0.1 is a secure context, so
    the page may use SubtleCrypto over plain HTTP."""
    import uvicorn
    from django.core.asgi import get_asgi_application

    settings.WHITENOISE_USE_FINDERS = True
    settings.WHITENOISE_AUTOREFRESH = True
    port = _free_port()
    config = uvicorn.Config(
        get_asgi_application(), host="127.0.0.1", port=port, log_level="warning", lifespan="off"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(100):
        if server.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture
def page(server_url: str, client: Any, players: list[Any], settings: Any, monkeypatch: Any) -> Any:
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; the test's ORM calls are still
    # plain synchronous code.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    client.force_login(players[0])
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True)
        context = browser.new_context()
        context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": server_url}]
        )
        yield context.new_page()
        browser.close()


def test_the_verify_button_and_the_replay_steps_work_in_a_browser(
    page: Any, server_url: str, make_match: Any, make_round: Any
) -> None:
    rnd = make_round(make_match(), 1, seed_text="browser")
    services.settle_round(rnd.pk)
    page.goto(server_url + reverse("scoring:replay", args=[rnd.pk]))
    page.click("#fairness [data-verify]")
    page.wait_for_selector("#fairness .verify-result.ok")
    assert rnd.commitment in page.inner_text("#fairness .verify-result")

    assert f"0 / {rnd.action_count}" in page.inner_text("[data-position]")
    page.click("[data-step=next]")
    assert f"1 / {rnd.action_count}" in page.inner_text("[data-position]")
    page.click("[data-step=last]")
    assert page.locator(".replay-seat").count() == 4
    # The steps in words and tiles: the end named, no codes or JSON.
    assert page.locator("[data-events] .event-round_ended").count() == 1
    events = page.inner_text("[data-events]")
    assert "本盘结束" in events
    assert "{" not in events
    assert "round_ended" not in events
    assert page.locator("[data-ending]").is_visible()

    # A tampered wall does not verify.
    page.eval_on_selector("#fairness", "el => el.dataset.wall = el.dataset.wall.replace('m', 'p')")
    page.click("#fairness [data-verify]")
    page.wait_for_selector("#fairness .verify-result.bad")
