"""Four browsers sit, ready and play a whole round to its settlement screen (Playwright); in the
middle of the round one of them reloads its page and another loses its connection.

The server is the real ASGI application (HTTP + websockets) under uvicorn in a thread, on the
test database. Each "player" clicks what a hurried human would: a win if offered, else "过", else
the drawn tile (else the first playable tile). Runs in headless Chromium at /usr/bin/chromium;
skipped with a reason when it is missing (unless the CI variable is set, where it must run).
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rules.registry import VARIANTS
from tests.tables.helpers import four_players_seated

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


def _redis_answers(url: str) -> bool:
    from urllib.parse import urlparse

    parts = urlparse(url)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 6379), 0.3):
            return True
    except OSError:
        return False


@pytest.fixture
def live_url(settings: Any, monkeypatch: Any) -> Iterator[str]:
    """The whole ASGI app (static files from the finders) served by uvicorn in a thread.

    The Redis layer's blocking pop is cut to 1 s here: a page closed while its round is still
    in play leaves its consumer's receive cancelling until that pop returns, and uvicorn's
    shutdown waits for it (at the default 5 s the join below gave up after 10 s and left the
    server running into the next test).
    """
    import uvicorn
    from channels_redis.core import RedisChannelLayer
    from django.core.asgi import get_asgi_application

    from config import settings as project_settings  # the module: not the tests' overrides
    from config.asgi import build_application

    settings.WHITENOISE_USE_FINDERS = True
    settings.WHITENOISE_AUTOREFRESH = True
    monkeypatch.setattr(RedisChannelLayer, "brpop_timeout", 1)
    if _redis_answers(settings.REDIS_URL):  # the layer `make test` provides
        settings.CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "channels_redis.core.RedisChannelLayer",
                "CONFIG": {
                    # The production layer's hosts (its socket timeout outlasts the blocking
                    # pop), with a prefix of this process's own.
                    **project_settings.CHANNEL_LAYERS["default"]["CONFIG"],
                    "prefix": f"test{os.getpid()}",
                },
            }
        }
    app = build_application(get_asgi_application())
    port = _free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off")
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


def _session_cookie(user: Any) -> str:
    from django.test import Client

    client = Client()
    client.force_login(user)
    return str(client.cookies["sessionid"].value)


def _click_something(page: Any) -> bool:
    """One hurried human's click, if they have anything to decide.

    Another browser's click may close the decision between seeing a button and clicking it (a
    claim window won by someone else): such a click gives up quickly instead of waiting for a
    button that will not come back, and the loop looks again.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    bar = page.locator('[data-role="actions"]')
    candidates = [
        (bar.locator(f"{selector}:not([disabled])"), 1)
        for selector in (
            "button.action-self_draw_win",
            "button.action-declare_win",
            "button.action-pass",
            "button.action-pong",
        )
    ]
    # A tile of the hand takes two taps: the first raises it, the second discards it.
    candidates += [
        (page.locator(selector), 2)
        for selector in (".seat-me .tile.drawn.playable", ".seat-me .tile.playable")
    ]
    for locator, taps in candidates:
        if locator.count():
            try:
                for _ in range(taps):
                    locator.first.click(timeout=2000)
            except PlaywrightTimeout:
                return False
            return True
    return False


def _flowers_dealt(variant: str) -> int:
    """Flowers set aside at the deal of the first round under the fixed seed (seat 0 deals)."""
    from django.conf import settings

    from rules.engine import new_round

    seed = bytes.fromhex(settings.TABLES_FIXED_SEED)
    state, _ = new_round(variant=VARIANTS[variant], seed=seed, dealer=0)
    return sum(len(f) for f in state.extra.get("flowers", ()))


def test_four_browsers_play_a_round_to_the_settlement(
    live_url: str, playing_room: Any, players: list[Any]
) -> None:
    from playwright.sync_api import expect, sync_playwright

    room = playing_room
    flowers = _flowers_dealt(room.variant)
    # Playwright's sync API runs an event loop in this thread: touch the database before it.
    cookies = [_session_cookie(user) for user in players]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        pages = four_players_seated(browser, live_url, room.pk, cookies)
        if room.variant == "taiwan16":
            # 补花: every seat's flowers are shown to every player (taiwan16.md, *Play*).
            for page in pages:
                expect(page.locator(".flowers .tile.suit-f")).to_have_count(flowers)
            # Its 17/16-tile rounds are long for random clicks; playing one to the settlement
            # is the Changchun and Li-Si cases' job (and tests/tables/test_taiwan16.py's).
            browser.close()
            return
        if os.environ.get("QUEYOU_SCREENSHOTS"):
            for _ in range(12):
                any(_click_something(page) for page in pages)
                time.sleep(0.1)
            shots = os.environ["QUEYOU_SCREENSHOTS"]
            pages[0].screenshot(path=f"{shots}/{room.variant}-playing.png")
        deadline = time.monotonic() + 240
        clicks = 0
        while time.monotonic() < deadline:
            if all(p.locator('[data-role="settlement"]').is_visible() for p in pages):
                break
            if any(_click_something(page) for page in pages):
                clicks += 1
            else:
                time.sleep(0.05)
            if clicks == 15:
                # A player reloads mid-round: the page resumes from its stored seq and plays on.
                pages[1].reload()
                pages[1].locator("#table-app.has-round").wait_for(state="visible")
                clicks += 1
            if clicks == 30:
                # Another loses its connection: the page reconnects by itself and catches up.
                pages[2].evaluate("document.getElementById('table-app').tableSocket.drop()")
                clicks += 1
        shots = os.environ.get("QUEYOU_SCREENSHOTS")  # a folder, to look at the pages by eye
        for index, page in enumerate(pages):
            if shots:
                name = f"{shots}/{room.variant}-seat{index}.png"
                page.screenshot(path=name, full_page=True)
            settlement = page.locator('[data-role="settlement"]')
            assert settlement.is_visible()
            # Every seat, its hand and its lines.
            assert settlement.locator(".settle-seat").count() == 4
        browser.close()


@pytest.fixture(params=["changchun", "taiyuan_lisi", "taiwan16"])
def playing_room(request: Any, room: Any) -> Any:
    """The room, in Changchun, in Li-Si (standing tiles, face-down ting discards) and in Taiwan 16
    (flowers)."""
    room.variant = request.param
    room.save(update_fields=["variant"])
    return room
