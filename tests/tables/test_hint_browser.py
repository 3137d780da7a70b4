"""机器人提示 in a real browser: in a practice room with hints on, the player whose decision it is
sees the 提示 button without scrolling (laptop and phone), asks, and reads the hard bot's move and
the best discards; the hint clears at the next decision; a room without hints shows no button."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.tables.test_browser import _session_cookie, live_url
from tests.tables.test_table_page import _on_screen, _open, _screenshot

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


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_dealer_asks_for_a_hint_and_reads_the_bots_move(
    live_url: str, seated: Any, players: list[Any], monkeypatch: Any, size: str
) -> None:
    from playwright.sync_api import expect, sync_playwright

    from tables import bots, gameplay, rooms, selectors
    from tests.tables.helpers import act, decider, state_of

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    seated.practice = True
    seated.bot_hints = True
    seated.save(update_fields=["practice", "bot_hints"])
    for user in players:
        rooms.seat_set_ready(room=seated, user=user)
    rnd = selectors.current_round(seated.pk)
    assert rnd is not None
    seat = decider(rnd)
    state = state_of(rnd)
    move = bots.choose_action(state, seat, level="hard", rng=bots.bot_rng(state, seat))
    cookie = _session_cookie(players[seat])
    with sync_playwright() as pw:
        browser, page = _open(pw, live_url, cookie, size)
        page.goto(f"{live_url}/tables/{seated.pk}/")
        page.locator("#table-app.has-round").wait_for(timeout=10000)
        button = page.locator('[data-role="bot-hint"]')
        expect(button).to_be_visible()
        assert _on_screen(page, '[data-role="bot-hint"]') == 1
        button.click()
        expect(page.locator(".bot-hint-move")).to_contain_text("机器人（困难）会")
        shown = page.locator(".bot-hint-move .tile").first.get_attribute("data-tile")
        assert shown == gameplay.action_json(move)["tile"]  # the dealer's first move: a discard
        expect(page.locator(".bot-hint-candidate").first).to_be_visible()
        assert page.locator(".bot-hint-candidate").count() <= 3
        _screenshot(page, f"table-hint-{size}")

        # The player plays; at the next decision the old hint is gone.
        act(rnd, seat, gameplay.action_json(move))
        expect(page.locator(".bot-hint-move")).to_have_count(0, timeout=10000)
        browser.close()


def test_a_room_without_hints_shows_no_hint_button(
    live_url: str, seated: Any, players: list[Any], monkeypatch: Any
) -> None:
    from playwright.sync_api import expect, sync_playwright

    from tables import rooms, selectors
    from tests.tables.helpers import decider

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    for user in players:
        rooms.seat_set_ready(room=seated, user=user)
    rnd = selectors.current_round(seated.pk)
    assert rnd is not None
    cookie = _session_cookie(players[decider(rnd)])
    with sync_playwright() as pw:
        browser, page = _open(pw, live_url, cookie, "desktop")
        page.goto(f"{live_url}/tables/{seated.pk}/")
        page.locator("#table-app.has-round").wait_for(timeout=10000)
        expect(page.locator('[data-role="actions"]')).to_be_visible()
        expect(page.locator('[data-role="bot-hint"]')).to_be_hidden()
        browser.close()
