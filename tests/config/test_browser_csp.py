"""Every page works under its Content-Security-Policy in a real browser.

Headless Chromium visits the pages a player and a club manager use, as a superuser (the admin
included), with the live table socket open, and collects every console message: none may report
a CSP violation (an inline script or style the policy blocks would break the page silently).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.tables.conftest import _table_settings, players, playing, room, seated
from tests.tables.test_browser import _session_cookie, live_url

CHROMIUM = Path("/usr/bin/chromium")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not CHROMIUM.exists() and not os.environ.get("CI"),
        reason="/usr/bin/chromium is not installed (set CI=1 to make this a failure)",
    ),
]
__all__ = ["_table_settings", "live_url", "players", "playing", "room", "seated"]


def test_no_page_breaks_its_content_security_policy(
    live_url: str, playing: Any, players: list[Any]
) -> None:
    from playwright.sync_api import sync_playwright

    owner = players[0]
    owner.is_staff = owner.is_superuser = True
    owner.save()
    room_id = playing.match.room_id
    pages = [
        "/",
        "/tables/",
        f"/tables/{room_id}/",
        "/calculator/",
        "/scoring/matches/",
        f"/scoring/matches/{playing.match_id}/",
        "/scoring/leaderboards/",
        f"/scoring/players/{owner.pk}/ratings/",
        "/admin/",
        "/admin/tables/room/",
        f"/admin/tables/room/{room_id}/change/",
        "/api/docs/",
    ]
    violations: list[str] = []
    cookie = _session_cookie(owner)  # before Playwright's event loop runs in this thread
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        context = browser.new_context(locale="zh-CN")
        context.add_cookies([{"name": "sessionid", "value": cookie, "url": live_url}])
        page = context.new_page()
        page.on(
            "console",
            lambda m: (
                violations.append(f"{page.url}: {m.text}")
                if "Content Security Policy" in m.text
                else None
            ),
        )
        for path in pages:
            response = page.goto(live_url + path)
            assert response is not None
            assert response.status == 200, path
            page.wait_for_load_state("networkidle")
        browser.close()
    assert violations == [], "\n".join(violations)
