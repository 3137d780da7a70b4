"""The table's extras in a real browser: the seat plates show the match score, a quick
phrase reaches the table, a 碰 is called out over its seat, and auto-pass answers a claim window
through the normal action path (static/tables/extras.js)."""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path
from typing import Any

import pytest

from tests.tables.test_browser import _session_cookie, live_url
from tests.tables.test_table_page import _advance, _claim_for, _ended, _open, _screenshot

CHROMIUM = Path("/usr/bin/chromium")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not CHROMIUM.exists() and not os.environ.get("CI"),
        reason="/usr/bin/chromium is not installed (set CI=1 to make this a failure)",
    ),
]
__all__ = ["live_url"]


def test_scores_phrases_call_outs_and_auto_pass(
    live_url: str, seated: Any, players: list[Any], monkeypatch: Any
) -> None:
    from playwright.sync_api import expect, sync_playwright

    from tables import rooms, selectors
    from tables.models import RoundAction

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    for user in players:
        rooms.seat_set_ready(room=seated, user=user)
    rnd = selectors.current_round(seated.pk)
    assert rnd is not None
    toggles = json.dumps({"win": False, "pass": True, "discard": False})
    with sync_playwright() as pw:
        browser, page = _open(pw, live_url, _session_cookie(players[0]), "desktop")
        page.add_init_script(f"localStorage.setItem('queyou.auto.{seated.pk}', '{toggles}')")
        page.goto(f"{live_url}/tables/{seated.pk}/")
        page.locator("#table-app.has-round").wait_for(timeout=10000)

        # The toggles as kept for this room; every plate shows the match score (0 at the start).
        expect(page.locator(".extras-panel")).to_be_visible()
        assert page.locator('[data-auto="pass"]').is_checked()
        assert not page.locator('[data-auto="win"]').is_checked()
        assert not page.locator('[data-auto="discard"]').is_checked()
        expect(page.locator(".plate .extras-score")).to_have_count(4)
        assert set(page.locator(".plate .extras-score").all_inner_texts()) == {"0"}

        # A quick phrase goes to the server and comes back to everyone, over the seat.
        page.locator(".extras-phrases summary").click()
        page.locator('.extras-phrase-button[data-phrase="2"]').click()
        expect(page.locator(".extras-phrase")).to_contain_text("这牌打得漂亮")
        _screenshot(page, "table-extras-phrase-desktop")
        expect(page.locator('[data-role="log"] .log-phrase').first).to_contain_text("这牌打得漂亮")

        # A pong is called out over the seat that made it.
        page.evaluate(
            """() => document.getElementById('table-app').tableSocket.hooks.onMessage({
                 type: 'event', round_id: -1, seq: 1, prev_seq: 0,
                 event: {kind: 'meld', seat: 1, action: 'pong', meld: {tiles: []}}})"""
        )
        callout = page.locator('.extras-callout[data-seat="1"]')
        expect(callout).to_have_text("碰")
        _screenshot(page, "table-extras-callout-desktop")
        expect(callout).to_have_count(0, timeout=5000)  # gone after its moment

        # Auto-pass: a claim window for this seat is answered with 过 by the page itself.
        _advance(rnd, _claim_for(0), random.Random(5))
        # The moves were made here, outside the server's event loop: the page reads them anew.
        page.reload()
        page.locator("#table-app.has-round").wait_for(timeout=10000)
        before = RoundAction.objects.filter(round=rnd).count()
        limit = time.monotonic() + 15
        while not RoundAction.objects.filter(round=rnd, n__gt=before).exists():
            assert time.monotonic() < limit, "auto-pass did not answer the claim window"
            page.wait_for_timeout(200)
        answer = RoundAction.objects.filter(round=rnd, n__gt=before).order_by("n").first()
        assert answer is not None
        # 过, from this seat, through the normal path: a player's move with its client id.
        assert (answer.seat, answer.action["kind"], answer.source) == (0, "pass", "player")
        assert answer.client_action_id

        # Switched off, kept for the room; the settlement links to its picture.
        page.locator('[data-auto="pass"]').uncheck()
        kept = page.evaluate(f"() => localStorage.getItem('queyou.auto.{seated.pk}')")
        assert json.loads(kept) == {"win": False, "pass": False, "discard": False}
        _advance(rnd, _ended, random.Random(6))
        page.reload()
        link = page.locator('[data-role="settlement"] .extras-result-link')
        expect(link).to_have_attribute("href", f"/scoring/rounds/{rnd.pk}/result.png")
        browser.close()
