"""Playwright: the 算番器 page read back from clicks, and a waiting player's 听牌提示 at a table.

Headless Chromium at /usr/bin/chromium; skipped with a reason only when it is missing and the CI
variable is unset (where it must run). The table runs on the real ASGI app (uvicorn in a thread,
the ``live_url`` fixture of the tables tests).
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest

from tests.tables.test_browser import _session_cookie, live_url

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu"]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not CHROMIUM.exists() and not os.environ.get("CI"),
        reason="/usr/bin/chromium is not installed (set CI=1 to make this a failure)",
    ),
]
__all__ = ["live_url"]


def _browser(pw: Any) -> Any:
    return pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)


def test_a_hand_clicked_into_the_calculator_shows_its_breakdown(live_url: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as pw:
        browser = _browser(pw)
        page = browser.new_page(locale="zh-CN")
        page.goto(f"{live_url}/calculator/")
        palette = page.locator('[data-role="palette"]')
        # cc-06: 234m 678p 345s 678s 77z, 中 from seat 2's discard.
        for name in ["2m", "3m", "4m", "6p", "7p", "8p", "3s", "4s", "5s", "6s", "7s", "8s"]:
            palette.locator(f'[data-tile="{name}"]').click()
        palette.locator('[data-tile="7z"]').click()
        # 13 tiles: a wait query; the waits appear before the 14th tile.
        expect(page.locator('[data-role="waits"] [data-tile="7z"]')).to_be_visible()
        palette.locator('[data-tile="7z"]').click()
        page.select_option('select[name="win_by"]', "discard")
        page.select_option('select[name="discarder"]', "2")
        page.check('input[name="ting"]')
        fan = page.locator('[data-role="fan"]')
        expect(fan.locator('tr[data-key="dianpao"]')).to_be_visible()  # the discard is judged
        expect(page.locator('[data-role="payments"] td[data-seat="1"]')).to_have_text("+16")
        keys = fan.locator("tr[data-key]").evaluate_all("rows => rows.map(r => r.dataset.key)")
        assert sorted(keys) == ["dianpao", "jiahu", "lihu", "pinghu"]
        assert fan.locator('tr[data-key="jiahu"] .calc-fan-name').inner_text() == "夹胡"
        assert fan.locator(".calc-total td.num").inner_text() == "4"
        cells = page.locator('[data-role="payments"] td[data-seat]')
        assert cells.all_inner_texts() == ["-4", "+16", "-8", "-4"]
        shots = os.environ.get("QUEYOU_SCREENSHOTS")  # a folder, to look at the page by eye
        if shots:
            page.screenshot(path=f"{shots}/calculator.png", full_page=True)
        # The mpsz box follows the clicks; typing a hand with no bamboo shows the failing rule.
        notation = page.locator('input[name="notation"]')
        assert notation.input_value() == "234m678p345678s77z"
        notation.fill("234m678m345m678p77z")
        page.select_option('select[name="win_tile"]', "7z")
        reason = page.locator("[data-reason]")
        expect(reason).to_have_attribute("data-reason", "missing_suit")
        assert "缺门" in reason.inner_text()
        browser.close()


def _step(rnd: Any, rng: random.Random) -> bool:
    from tables import bots, gameplay
    from tables.game import commands
    from tables.models import Round
    from tests.tables.helpers import fresh, state_of

    rnd = fresh(rnd)
    if rnd.status != Round.Status.PLAYING:
        return False
    state = state_of(rnd)
    seat = gameplay.deciders(state)[0]
    legal = gameplay.legal_actions(state, seat)
    claims = gameplay.phase_kind(state) != "turn"
    action = rng.choice(legal) if claims else bots.choose_action(state, seat)
    outcome = commands.round_apply_action(
        round_id=rnd.pk,
        seat=seat,
        action_json=gameplay.action_json(action),
        client_action_id=f"b{rnd.pk}-{rnd.version}",
    )
    assert outcome.ok
    return True


def _waiting_seat(rnd: Any) -> tuple[int, dict[str, Any]] | None:
    """A seat whose own view shows a ready hand's hint (ting or ready), with its view."""
    from tables import selectors
    from tests.tables.helpers import fresh, state_of

    rnd = fresh(rnd)
    state = state_of(rnd)
    for seat in range(4):
        view = selectors.decision_message(rnd, state, seat)["view"]
        hint = view.get("hint")
        if hint and hint["mode"] in ("ting", "ready") and hint["waits"]:
            return seat, view
    return None


def _unseen_from(view: dict[str, Any], tile: str) -> int:
    """4 minus the copies of ``tile`` the seat's own view shows (an independent recount)."""
    me = view["seats"][view["you"]]
    seen = me["concealed"].count(tile) + (me["drawn"] == tile)
    for seat in view["seats"]:
        seen += sum(1 for d in seat["discards"] if d.get("tile") == tile and not d["claimed"])
        seen += sum(m.get("tiles", []).count(tile) for m in seat["melds"])
    treasure = view.get("treasure") or {}
    seen += treasure.get("tile") == tile
    return 4 - seen


def test_a_waiting_player_sees_the_hint_with_unseen_counts(
    live_url: str, playing: Any, players: list[Any]
) -> None:
    from playwright.sync_api import sync_playwright

    rng = random.Random(11)
    found = None
    for _ in range(400):
        found = _waiting_seat(playing)
        if found is not None or not _step(playing, rng):
            break
    assert found is not None, "no seat became ready in this round"
    seat, view = found
    expected = {w["tile"]: _unseen_from(view, w["tile"]) for w in view["hint"]["waits"]}
    assert expected == {w["tile"]: w["unseen"] for w in view["hint"]["waits"]}
    cookies = [_session_cookie(user) for user in players]  # the database before the event loop
    with sync_playwright() as pw:
        browser = _browser(pw)
        pages = []
        for index in (seat, (seat + 1) % 4):
            context = browser.new_context(locale="zh-CN", viewport={"width": 420, "height": 900})
            context.add_cookies([{"name": "sessionid", "value": cookies[index], "url": live_url}])
            page = context.new_page()
            page.goto(f"{live_url}/tables/{playing.match.room_id}/")
            pages.append(page)
        mine, other = pages
        hint = mine.locator('.seat-me [data-role="hint"]')
        hint.wait_for(state="visible", timeout=15000)
        shown = hint.locator(".hint-wait:not(.blocked)").evaluate_all(
            "items => items.map(i => [i.dataset.tile, Number(i.dataset.unseen)])"
        )
        assert dict(shown) == expected
        assert "剩" in hint.inner_text()
        if os.environ.get("QUEYOU_SCREENSHOTS"):
            mine.screenshot(
                path=f"{os.environ['QUEYOU_SCREENSHOTS']}/table-hint.png", full_page=True
            )
        # The next seat's page has its own hint at most, never this seat's.
        other.locator("#table-app.has-round").wait_for(state="visible", timeout=15000)
        for panel in other.locator('[data-role="hint"]').all():
            assert panel.locator("xpath=ancestor::*[contains(@class,'seat-me')]").count() == 1
        browser.close()


def test_the_calculator_speaks_english_and_lists_the_waits_of_a_thirteen_tile_hand(
    live_url: str,
) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as pw:
        browser = _browser(pw)
        page = browser.new_page(locale="en-US", extra_http_headers={"Accept-Language": "en"})
        page.goto(f"{live_url}/calculator/")
        assert "calculator" in page.locator("h1").inner_text().lower()  # the English catalog
        page.select_option('select[name="variant"]', "harbin")
        page.locator('input[name="notation"]').fill("1112345678999m")
        expect(page.locator('[data-role="result"]')).to_contain_text("Ting not allowed")
        # Harbin refuses a closed hand: the reason is named in English with its rule.
        reason = page.locator("[data-reason]")
        expect(reason).to_have_attribute("data-reason", "not_opened")
        assert "Not opened" in reason.inner_text()
        waits = page.locator('[data-role="waits"] [data-tile]')
        assert waits.evaluate_all("ts => ts.map(t => t.dataset.tile)") == [
            f"{n}m" for n in range(1, 10)
        ]
        browser.close()


def test_a_meld_clicked_from_the_palette_counts_in_the_verdict(live_url: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as pw:
        browser = _browser(pw)
        page = browser.new_page(locale="zh-CN")
        page.goto(f"{live_url}/calculator/")
        page.select_option('select[name="variant"]', "harbin")
        palette = page.locator('[data-role="palette"]')
        # hb-01: a 777p pong from seat 3, then 234m 678m 123s 99s; 2s from seat 2 is 卡当.
        page.check('input[name="target"][value="meld"]')
        for _ in range(3):
            palette.locator('[data-tile="7p"]').click()
        assert page.locator('input[name="meld_tiles"]').input_value() == "777p"
        page.select_option('select[name="meld_type"]', "pong")
        page.select_option('select[name="meld_from"]', "3")
        page.locator('[data-role="melds"] button.button:not(.button-secondary)').click()
        expect(page.locator(".calc-meld")).to_have_count(1)
        for name in ["2m", "3m", "4m", "6m", "7m", "8m", "1s", "2s", "3s", "9s", "9s"]:
            palette.locator(f'[data-tile="{name}"]').click()
        page.select_option('select[name="win_tile"]', "2s")
        page.select_option('select[name="win_by"]', "discard")
        page.select_option('select[name="discarder"]', "2")
        page.check('input[name="ting"]')
        for seat in range(4):
            page.check(f'input[name="opened_{seat}"]')
        expect(page.locator('[data-role="payments"] td[data-seat="1"]')).to_have_text("+10")
        keys = page.locator('[data-role="fan"] tr[data-key]').evaluate_all(
            "rows => rows.map(r => r.dataset.key)"
        )
        assert sorted(keys) == ["dianpao", "kadang", "pinghu"]
        cells = page.locator('[data-role="payments"] td[data-seat]')
        assert cells.all_inner_texts() == ["-4", "+10", "-4", "-2"]
        browser.close()


def test_a_typed_taiwan_hand_scores_its_flowers_in_tai(live_url: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as pw:
        browser = _browser(pw)
        page = browser.new_page(locale="zh-CN")
        page.goto(f"{live_url}/calculator/")
        page.select_option('select[name="variant"]', "taiwan16")
        page.locator('input[name="notation"]').fill("123m456m789m123p456p77z")
        page.locator('input[name="flowers"]').fill("2f6f")
        expect(page.locator('[data-role="payments"] td[data-seat="1"]')).to_have_text("+22")
        flower = page.locator('[data-role="fan"] tr[data-key="flower"]')
        assert flower.locator(".calc-fan-name").inner_text() == "花牌"
        assert flower.locator("td.num").inner_text() == "2"
        browser.close()


def test_a_chengma_hand_is_judged_with_its_void_suit_and_the_self_draw_choice(
    live_url: str,
) -> None:
    """成麻: the void suit (定缺) is asked, and the 自摸 choice option changes the payments."""
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as pw:
        browser = _browser(pw)
        page = browser.new_page(locale="zh-CN")
        page.goto(f"{live_url}/calculator/")
        page.select_option('select[name="variant"]', "chengma")
        page.select_option('select[name="que"]', "s")
        page.locator('input[name="notation"]').fill("11m33m55m77m22p66p99p")  # 七对 (cm-07)
        page.select_option('select[name="win_by"]', "self_draw")
        expect(page.locator('[data-role="payments"] td[data-seat="1"]')).to_have_text("+15")
        page.select_option('select[name="opt_zimo"]', "jiafan")  # 自摸加番 (cm-25)
        expect(page.locator('[data-role="payments"] td[data-seat="1"]')).to_have_text("+24")
        page.select_option('select[name="que"]', "p")  # the void suit in hand: no win
        expect(page.locator('[data-role="result"]')).to_contain_text("有缺门的牌")
        browser.close()


def test_the_calculator_offers_what_each_variant_has_from_the_servers_facts(live_url: str) -> None:
    """Seats read 1–4; special kongs follow the variant and its room flags; 成麻's 杠上炮 is asked
    on a discard and its money once it is ticked (rules/case_facts.py)."""
    from playwright.sync_api import expect, sync_playwright

    def kinds(page: Any) -> list[str]:
        options = page.locator('select[name="meld_type"] option')
        return list(options.evaluate_all("os => os.map(o => o.value)"))

    with sync_playwright() as pw:
        browser = _browser(pw)
        page = browser.new_page(locale="zh-CN")
        page.goto(f"{live_url}/calculator/")
        page.select_option('select[name="win_by"]', "discard")
        seats = page.locator('select[name="discarder"] option').all_inner_texts()
        assert seats == ["座位 1", "座位 2", "座位 3", "座位 4"]
        assert kinds(page) == [
            "chow", "pong", "kong", "concealed_kong", "xuanfeng", "xi", "yao", "jiu"
        ]  # fmt: skip
        page.select_option('select[name="variant"]', "siping")
        assert "xuanfeng" not in kinds(page)
        page.check('input[name="opt_fengang"]')
        expect(page.locator('select[name="meld_type"] option[value="xuanfeng"]')).to_have_count(1)
        page.select_option('select[name="variant"]', "chengma")
        assert kinds(page) == ["pong", "kong", "concealed_kong"]
        expect(page.locator('input[name="kong_money"]')).to_have_count(0)
        page.check('input[name="after_kong"]')
        expect(page.locator('input[name="kong_money"]')).to_be_visible()
        page.select_option('select[name="win_by"]', "self_draw")
        expect(page.locator('input[name="after_kong"]')).to_have_count(0)
        browser.close()
