"""The table page in a real browser (headless Chromium), at 1280 × 720 and on a 390 × 844 phone.

Positions are reached on the server (the services a socket calls), then one player's browser
opens the table: the own hand, the buttons and the clock are on screen without scrolling at the
deal, in a claim and at the settlement; the settlement survives a reload and a language switch;
a Li-Si ting is declared by clicking a standing tile. With ``QUEYOU_SCREENSHOTS=<folder>`` each
variant's table is saved there (``docs/img/`` holds the README's).
"""

from __future__ import annotations

import hashlib
import os
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rules.registry import VARIANTS
from tests.tables.helpers import room_set_variant
from tests.tables.test_browser import _session_cookie, live_url

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not CHROMIUM.exists() and not os.environ.get("CI"),
        reason="/usr/bin/chromium is not installed (set CI=1 to make this a failure)",
    ),
]
__all__ = ["live_url"]


def _quiet_move(state: Any, seat: int) -> Any:
    """A steady player who never declares ting: wins when it can, passes on claims, else throws
    the tile that helps least (the bots' choice among the non-ting discards)."""
    from rules.bots import policy
    from rules.engine import actions
    from tables import gameplay

    legal = gameplay.legal_actions(state, seat)
    for action in legal:
        if isinstance(action, actions.SelfDrawWin | actions.DeclareWin | actions.Pass):
            return action
    discards = [a for a in legal if isinstance(a, actions.Discard) and not a.ting]
    counts = state.seats[seat].counts()
    return min(discards, key=lambda a: (policy._usefulness(a.tile, counts), -a.tile))


def _lisi_ting_only_standing(state: Any, seat: int) -> list[str]:
    """The tiles of ``seat``'s ting discards when every one of them is a standing tile (立牌) it
    holds no ordinary copy of: the position the old page could not play. Else []."""
    from rules.engine import actions
    from rules.tiles import tile_name
    from rules.variants.taiyuan_lisi.flow import standing_tiles
    from tables import gameplay

    legal = gameplay.legal_actions(state, seat)
    ting = [a.tile for a in legal if isinstance(a, actions.Discard) and a.ting]
    standing = standing_tiles(state, seat)
    concealed = state.seats[seat].concealed
    if ting and all(concealed.count(t) == standing.count(t) for t in ting):
        return sorted({tile_name(t) for t in ting})
    return []


def _lisi_ting_position() -> tuple[bytes, int, list[Any]]:
    """A seed, a seat and the moves after which that seat, on its turn, may declare ting only
    by discarding a standing tile (searched over a fixed list of seeds; a few ms each)."""
    from rules.engine import apply, new_round
    from rules.engine.state import EndedPhase, TurnPhase
    from rules.registry import get_variant
    from tables import gameplay

    for i in range(200):
        seed = hashlib.sha256(b"queyou lisi ting %d" % i).digest()
        state, _ = new_round(variant=get_variant("taiyuan_lisi"), seed=seed, dealer=0)
        moves: list[Any] = []
        while not isinstance(state.phase, EndedPhase):
            seat = gameplay.deciders(state)[0]
            if isinstance(state.phase, TurnPhase) and _lisi_ting_only_standing(state, seat):
                return seed, seat, moves
            action = _quiet_move(state, seat)
            moves.append(action)
            state, _ = apply(state, action)
    raise AssertionError("no Li-Si ting position among 200 seeds: has the deal changed?")


def _browser(pw: Any) -> Any:
    return pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)


def test_a_lisi_ting_is_declared_by_clicking_a_standing_tile(
    live_url: str, seated: Any, players: list[Any], settings: Any
) -> None:
    from playwright.sync_api import expect, sync_playwright

    from tables import gameplay, rooms, selectors
    from tests.tables.helpers import act, state_of

    seed, seat, moves = _lisi_ting_position()
    settings.TABLES_FIXED_SEED = seed.hex()
    seated.variant = "taiyuan_lisi"
    seated.save(update_fields=["variant"])
    for user in players:
        rooms.seat_set_ready(room=seated, user=user)
    rnd = selectors.current_round(seated.pk)
    assert rnd is not None
    for action in moves:
        assert act(rnd, action.seat, gameplay.action_json(action)).ok
    state = state_of(rnd)
    ting_tiles = _lisi_ting_only_standing(state, seat)
    assert ting_tiles, "the server's round is not at the searched position"
    cookie = _session_cookie(players[seat])

    with sync_playwright() as pw:
        browser = _browser(pw)
        context = browser.new_context(locale="zh-CN", viewport={"width": 1280, "height": 720})
        context.add_cookies([{"name": "sessionid", "value": cookie, "url": live_url}])
        page = context.new_page()
        page.goto(f"{live_url}/tables/{seated.pk}/")
        ting = page.locator('[data-role="actions"] button.action-ting')
        expect(ting).to_be_visible(timeout=10000)
        # The prompt names the standing tiles and says that the win will be automatic.
        expect(page.locator('[data-role="actions"] .prompt-line')).to_contain_text("立牌直接点")
        expect(page.locator('[data-role="actions"] [data-role="auto-win"]')).to_be_visible()
        ting.click()
        tile = page.locator(f'.seat-me .tile.playable[data-tile="{ting_tiles[0]}"]').first
        tile.click(timeout=5000)  # a tap raises it
        expect(tile).to_have_class(re.compile(r"\braised\b"))
        tile.click(timeout=5000)  # a second tap plays it
        expect(page.locator(".seat-me .badge-ting")).to_be_visible(timeout=5000)
        # Ready: no 胡 button will come; the own row says why.
        expect(page.locator('.seat-me [data-role="auto-win"]')).to_be_visible()
        browser.close()
    after = state_of(rnd)
    assert after.seats[seat].ting


SIZES = {"desktop": (1280, 720), "phone": (390, 844)}


def _advance(rnd: Any, until: Callable[[Any], bool], rng: random.Random, limit: int = 600) -> Any:
    """Play the round on the server (bots' turns, claims taken now and then) until ``until``
    holds for its state; the state it stopped at."""
    from tables import bots, gameplay
    from tests.tables.helpers import act, fresh, state_of

    for _ in range(limit):
        state = state_of(rnd)
        if until(state) or fresh(rnd).status != "playing":
            return state
        seat = gameplay.deciders(state)[0]
        legal = gameplay.legal_actions(state, seat)
        claims = gameplay.phase_kind(state) != "turn"
        taken = [a for a in legal if a.kind in ("pong", "chow", "exposed_kong")]
        if claims and taken and rng.random() < 0.35:
            action = rng.choice(taken)
        else:
            action = bots.choose_action(state, seat)
        assert act(rnd, seat, gameplay.action_json(action)).ok
    raise AssertionError("the round did not reach the position")


def _claim_for(seat: int) -> Callable[[Any], bool]:
    from tables import gameplay

    def asked(state: Any) -> bool:
        return (
            gameplay.phase_kind(state) == "claims"
            and seat in gameplay.deciders(state)
            and any(a.kind != "pass" for a in gameplay.legal_actions(state, seat))
        )

    return asked


def _ended(state: Any) -> bool:
    return state.result is not None


def _on_screen(page: Any, selector: str) -> int:
    """How many elements match ``selector``; each must lie wholly inside the viewport, with the
    page not scrolled (the player sees it without scrolling)."""
    boxes = page.locator(selector).evaluate_all(
        """nodes => nodes.map(n => { const r = n.getBoundingClientRect();
             return [r.left, r.top, r.right, r.bottom, r.width * r.height]; })"""
    )
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    assert page.evaluate("window.scrollY") == 0
    for left, top, right, bottom, area in boxes:
        assert area > 0, f"{selector} is not drawn"
        where = f"{selector} at {width}x{height}: {left}, {top}, {right}, {bottom}"
        assert left >= -0.5, where
        assert top >= -0.5, where
        assert right <= width + 0.5, where
        assert bottom <= height + 0.5, where
    return len(boxes)


def _open(pw: Any, live_url: str, cookie: str, size: str, locale: str = "zh-CN") -> Any:
    browser = _browser(pw)
    width, height = SIZES[size]
    context = browser.new_context(locale=locale, viewport={"width": width, "height": height})
    context.add_cookies([{"name": "sessionid", "value": cookie, "url": live_url}])
    return browser, context.new_page()


def test_the_round_fits_the_screen_at_the_deal_in_a_claim_and_at_the_settlement(
    live_url: str, seated: Any, players: list[Any], monkeypatch: Any
) -> None:
    from playwright.sync_api import expect, sync_playwright

    from tables import rooms, selectors

    # Playwright's sync API runs an event loop in this thread; the ORM calls between the
    # page's checks are still plain synchronous code.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    for user in players:
        rooms.seat_set_ready(room=seated, user=user)
    rnd = selectors.current_round(seated.pk)
    assert rnd is not None
    cookie = _session_cookie(players[0])
    url = f"{live_url}/tables/{seated.pk}/"
    rng = random.Random(5)
    with sync_playwright() as pw:
        browser, page = _open(pw, live_url, cookie, "desktop")

        def each_size(check: Callable[[], None], shot: str) -> None:
            for name, (width, height) in SIZES.items():
                page.set_viewport_size({"width": width, "height": height})
                page.goto(url)
                page.locator("#table-app.has-round").wait_for(timeout=10000)
                check()
                _screenshot(page, f"table-{shot}-{name}")

        def at_the_deal() -> None:
            # Seat 0 deals (fixed seed): 14 tiles, its turn, the clock running for it.
            tiles = _on_screen(page, ".seat-me .hand .tile")
            assert tiles == 14
            assert page.locator(".seat-me .hand .tile.playable").count() == 14
            _on_screen(page, '[data-role="timer"] .timer-seconds')
            expect(page.locator('[data-role="timer"]')).to_contain_text("轮到你")
            _on_screen(page, '[data-role="actions"] button')
            # One polite live region: the log, where the prompts are spoken too.
            assert page.locator("[aria-live]").count() == 1
            assert page.locator('[data-role="log"]').get_attribute("aria-live") == "polite"
            expect(page.locator('[data-role="log"] .log-prompt').first).to_contain_text("轮到你")

        each_size(at_the_deal, "deal")
        state = _advance(rnd, _claim_for(0), rng)
        tile = state.phase.tile

        def in_a_claim() -> None:
            assert _on_screen(page, '[data-role="actions"] button') >= 2  # a claim and 过
            _on_screen(page, ".seat-me .hand .tile")
            _on_screen(page, '[data-role="timer"] .timer-seconds')
            prompt = page.locator('[data-role="actions"] .prompt-line')
            expect(prompt.locator(".tile")).to_have_attribute("data-tile", _name(tile))
            assert page.locator(f'.river .tile.last[data-tile="{_name(tile)}"]').count() == 1

        each_size(in_a_claim, "claim")
        _advance(rnd, _ended, rng)

        def at_the_settlement() -> None:
            settlement = page.locator('[data-role="settlement"]')
            expect(settlement).to_be_visible()
            _on_screen(page, '[data-role="settlement"] [data-role="ready"]')
            _on_screen(page, '[data-role="settlement"] .settle-head')
            nets = page.locator('.settle-seat [data-role="net"]').all_inner_texts()
            assert len(nets) == 4
            assert sum(int(n) for n in nets) == 0

        each_size(at_the_settlement, "settlement")
        # The settlement survives a reload, and a switch of language (the page is English now).
        page.set_viewport_size({"width": 1280, "height": 720})
        page.reload()
        expect(page.locator('[data-role="settlement"]')).to_be_visible(timeout=10000)
        # The log (牌局记录) is filled again from the snapshot's last events.
        expect(page.locator('[data-role="log"]')).to_contain_text("本盘结束")
        assert page.locator('[data-role="log"] li').count() >= 20
        page.select_option("#lang-select", "en")
        page.wait_for_load_state()
        expect(page.locator('[data-role="settlement"]')).to_be_visible(timeout=10000)
        expect(page.locator('[data-role="settlement"] [data-role="ready"]')).to_have_text("Ready")
        assert page.locator("html").get_attribute("lang") == "en"
        browser.close()


def _name(tile: int) -> str:
    from rules.tiles import tile_name

    return str(tile_name(tile))


def _screenshot(page: Any, name: str) -> None:
    """Saved only when asked (``QUEYOU_SCREENSHOTS=docs/img`` writes the README's pictures)."""
    folder = os.environ.get("QUEYOU_SCREENSHOTS")
    if folder:
        page.wait_for_timeout(300)  # the tile pictures decode
        page.screenshot(path=f"{folder}/{name}.jpg", type="jpeg", quality=82)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_variant_plays_on_one_screen(
    live_url: str, seated: Any, players: list[Any], variant: str, monkeypatch: Any
) -> None:
    """Mid-round, on the player's turn: every tile of the own hand, the melds, the clock and the
    others' rivers are on screen at both sizes (Taiwan's 17 tiles included)."""
    from playwright.sync_api import expect, sync_playwright

    from tables import gameplay, rooms, selectors

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    room_set_variant(seated, variant)
    for user in players:
        rooms.seat_set_ready(room=seated, user=user)
    rnd = selectors.current_round(seated.pk)
    assert rnd is not None
    steps = iter(range(10_000))

    def mid_round(state: Any) -> bool:
        return (
            next(steps) > 50
            and gameplay.phase_kind(state) == "turn"
            and state.phase.seat == 0
            and bool(gameplay.legal_actions(state, 0))
        )

    state = _advance(rnd, mid_round, random.Random(variant))
    assert state.result is None, "the round ended before the position"
    hand = len(state.seats[0].concealed)
    cookie = _session_cookie(players[0])
    with sync_playwright() as pw:
        browser, page = _open(pw, live_url, cookie, "desktop")
        for name, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            page.goto(f"{live_url}/tables/{seated.pk}/")
            page.locator("#table-app.has-round").wait_for(timeout=10000)
            assert _on_screen(page, ".seat-me .hand .tile") == hand
            if name == "phone":  # tiles a thumb can hit, ≥ 40 px tall
                assert min(_heights(page, ".seat-me .hand .tile")) >= 40
            _on_screen(page, ".seat-me .own-melds .tile")
            _on_screen(page, '[data-role="timer"] .timer-seconds')
            _on_screen(page, '[data-role="actions"] button')
            _on_screen(page, ".river .tile")
            expect(page.locator('[data-role="timer"]')).to_contain_text("轮到你")
            _screenshot(page, f"table-{variant}-{name}")
        browser.close()


def test_a_discard_is_played_with_the_keyboard(
    live_url: str, seated: Any, players: list[Any], monkeypatch: Any
) -> None:
    """← → choose a tile of the own hand, Enter plays it (seat 0 deals under the fixed seed)."""
    from playwright.sync_api import expect, sync_playwright

    from tables import rooms, selectors
    from tests.tables.helpers import state_of

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    for user in players:
        rooms.seat_set_ready(room=seated, user=user)
    rnd = selectors.current_round(seated.pk)
    assert rnd is not None
    cookie = _session_cookie(players[0])
    with sync_playwright() as pw:
        browser, page = _open(pw, live_url, cookie, "phone")
        page.goto(f"{live_url}/tables/{seated.pk}/")
        page.locator("#table-app.has-round").wait_for(timeout=10000)
        assert page.locator('[data-role="sound"]').get_attribute("aria-pressed") == "false"
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        chosen = page.evaluate("document.activeElement.dataset.tile")
        assert chosen, "the arrows did not select a tile of the hand"
        page.keyboard.press("Enter")
        expect(page.locator(".seat-me .hand .tile")).to_have_count(13, timeout=10000)
        browser.close()
    discards = state_of(rnd).seats[0].discards
    assert [d.tile for d in discards] == [_tile(chosen)]


def _tile(name: str) -> int:
    from rules.tiles import parse_tiles

    return parse_tiles(name)[0]


def _chengma_round_with_three_wins(seated: Any, players: list[Any], settings: Any) -> Any:
    """成麻 dealt from ``CHENGMA_WINS_SEED`` and played to its end through the services, with
    the moves of ``tests.js.fixtures.chengma_round``: three wins, not in seat order."""
    from tables import gameplay, rooms, selectors
    from tests.js.fixtures import CHENGMA_WINS_SEED, chengma_round
    from tests.tables.helpers import act, fresh

    settings.TABLES_FIXED_SEED = CHENGMA_WINS_SEED.hex()
    room_set_variant(seated, "chengma")
    for user in players:
        rooms.seat_set_ready(room=seated, user=user)
    rnd = selectors.current_round(seated.pk)
    assert rnd is not None
    moves, final = chengma_round()
    for action in moves:
        assert act(rnd, action.seat, gameplay.action_json(action)).ok
    assert fresh(rnd).status == "ended"
    return final


def test_a_chengma_settlement_shows_each_win_as_a_block_in_win_order(
    live_url: str, seated: Any, players: list[Any], settings: Any, monkeypatch: Any
) -> None:
    """血战到底 with three wins: each win its own block in the order the wins were made
    (tile, from whom, fan, each payer), then the kongs, then the totals; every discarder who
    dealt in has 点炮; the plain formula opens to the full one on a tap. At both sizes."""
    from playwright.sync_api import expect, sync_playwright

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    final = _chengma_round_with_three_wins(seated, players, settings)
    wins = final.extra["wins"]
    order = [str(w["seat"]) for w in wins]
    assert order != sorted(order), "the seed's wins should not be in seat order"
    discarders = {w["discarder"] for w in wins if w["discarder"] is not None}
    assert len(discarders) >= 2
    cookie = _session_cookie(players[3])
    with sync_playwright() as pw:
        browser, page = _open(pw, live_url, cookie, "desktop")
        for name, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            page.goto(f"{live_url}/tables/{seated.pk}/")
            settlement = page.locator('[data-role="settlement"]')
            expect(settlement).to_be_visible(timeout=10000)
            blocks = settlement.locator('[data-role="win-block"]')
            expect(blocks).to_have_count(len(wins))
            assert blocks.evaluate_all("ns => ns.map(n => n.dataset.seat)") == order
            for block, win in zip(blocks.all(), wins, strict=True):
                tile = block.locator(".win-tile")
                expect(tile).to_have_attribute("data-tile", _name(win["tile"]))
                payers = block.locator('tr[data-kind="win"]')
                assert payers.count() >= 1
                if win["discarder"] is not None:
                    assert payers.evaluate_all("ns => ns.map(n => n.dataset.payer)") == [
                        str(win["discarder"])
                    ]
                    expect(block.locator('[data-role="dealt-in"]')).to_have_count(1)
            # Kongs after the wins, then the totals: the rows in win order, then the others.
            kongs = settlement.locator('[data-role="kong-block"]')
            expect(kongs).to_have_count(1)
            seats = settlement.locator(".settle-seat").evaluate_all(
                "ns => ns.map(n => n.dataset.seat)"
            )
            assert seats[: len(order)] == order
            dealt = settlement.locator(".settle-seat:has([data-role=dealt-in])").evaluate_all(
                "ns => ns.map(n => Number(n.dataset.seat))"
            )
            assert set(dealt) == discarders
            nets = settlement.locator('.settle-seat [data-role="net"]').all_inner_texts()
            assert [int(n) for n in nets] == [final.result.nets[int(s)] for s in seats]
            # "1 番 = 2 分", the full formula on a tap.
            formula = settlement.locator(".formula-toggle").first
            plain = formula.inner_text()
            assert "=" in plain
            assert "×" not in plain
            formula.click()
            assert "×" in formula.inner_text()
            assert formula.get_attribute("title") == formula.inner_text()
            # A second tap closes it again: every line, the 0-fan win too, reads plainly.
            formula.click()
            assert formula.inner_text() == plain
            lines = settlement.locator('tr[data-kind="win"] .line-formula').all_inner_texts()
            assert lines
            assert not [line for line in lines if "×" in line or "→" in line]
            _on_screen(page, '[data-role="settlement"] [data-role="ready"]')
            _screenshot(page, f"table-settlement-chengma-{name}")
        browser.close()


def _heights(page: Any, selector: str) -> list[float]:
    heights: list[float] = page.locator(selector).evaluate_all(
        "ns => ns.map(n => n.getBoundingClientRect().height)"
    )
    return heights


def test_a_tile_is_played_by_two_taps_or_one_as_chosen_and_a_phone_shows_it_large(
    live_url: str, seated: Any, players: list[Any], monkeypatch: Any
) -> None:
    """On a 390 × 844 phone the 14 tiles are ≥ 40 px tall (two rows, the drawn tile
    apart) and on screen, also held sideways (844 × 390); a first tap raises a tile and a
    second plays it; with 单击出牌 on (kept in the browser) one tap plays it."""
    from playwright.sync_api import expect, sync_playwright

    from tables import gameplay, rooms, selectors
    from tests.tables.helpers import state_of

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    for user in players:
        rooms.seat_set_ready(room=seated, user=user)
    rnd = selectors.current_round(seated.pk)
    assert rnd is not None
    cookie = _session_cookie(players[0])
    url = f"{live_url}/tables/{seated.pk}/"
    with sync_playwright() as pw:
        browser, page = _open(pw, live_url, cookie, "phone")
        for size in ({"width": 844, "height": 390}, {"width": 390, "height": 844}):
            page.set_viewport_size(size)
            page.goto(url)
            page.locator("#table-app.has-round").wait_for(timeout=10000)
            assert _on_screen(page, ".seat-me .hand .tile") == 14
            assert min(_heights(page, ".seat-me .hand .tile")) >= 40
            _on_screen(page, '[data-role="timer"] .timer-seconds')
        hand = page.locator(".seat-me .hand .tile")
        tops = hand.evaluate_all("ns => ns.map(n => Math.round(n.getBoundingClientRect().top))")
        assert len(set(tops)) == 2, tops  # two rows
        drawn = page.locator(".seat-me .hand .tile.drawn")
        assert round(drawn.evaluate("n => n.getBoundingClientRect().top")) == max(tops)
        tile = page.locator(".seat-me .hand .tile.playable:not(.drawn)").nth(3)
        name = tile.get_attribute("data-tile")
        tile.click()
        expect(page.locator(".seat-me .hand .tile.raised")).to_have_count(1)
        expect(hand).to_have_count(14)  # raised, not played
        page.locator(".seat-me .hand .tile.raised").click()
        expect(hand).to_have_count(13, timeout=10000)
        assert [d.tile for d in state_of(rnd).seats[0].discards] == [_tile(str(name))]

        # Back to seat 0's turn: with 单击出牌 on, one tap plays the tile.
        _advance(rnd, _turn_of(0), random.Random(3))
        page.set_viewport_size({"width": 1280, "height": 720})
        page.goto(url)
        page.locator("#table-app.has-round").wait_for(timeout=10000)
        toggle = page.locator('[data-role="one-tap"]')
        expect(toggle).to_have_attribute("aria-pressed", "false")
        toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", "true")
        page.reload()  # the choice is kept in this browser
        expect(page.locator('[data-role="one-tap"]')).to_have_attribute("aria-pressed", "true")
        page.locator(".seat-me .hand .tile.drawn.playable").click()
        expect(page.locator(".seat-me .river-box .tile, .river .tile")).not_to_have_count(0)
        expect(page.locator(".seat-me .hand .tile.playable")).to_have_count(0, timeout=10000)
        browser.close()
    assert len(state_of(rnd).seats[0].discards) == 2
    assert gameplay.phase_kind(state_of(rnd)) in ("turn", "claims")


def _turn_of(seat: int) -> Callable[[Any], bool]:
    from tables import gameplay

    def turn(state: Any) -> bool:
        return (
            gameplay.phase_kind(state) == "turn"
            and state.phase.seat == seat
            and any(a.kind == "discard" for a in gameplay.legal_actions(state, seat))
        )

    return turn


def test_the_header_keeps_its_height_when_the_log_fills(
    live_url: str, playing: Any, players: list[Any], monkeypatch: Any
) -> None:
    """At 1280 × 720 the table's bar shrank from 33 to 16 px once the log filled (a
    flex item squeezed by the side's content). After 100 log lines the bar, the felt and the
    hand are as they were, at both sizes, and the log scrolls inside the side."""
    from playwright.sync_api import sync_playwright

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    cookie = _session_cookie(players[0])
    url = f"{live_url}/tables/{playing.match.room_id}/"
    measure = """() => Object.fromEntries(['.table-bar', '.felt', '.seat-me .hand .tile'].map(
        s => [s, Math.round(document.querySelector(s).getBoundingClientRect().height)]))"""
    fill = """() => { const log = document.querySelector('[data-role="log"]');
        for (let i = 0; i < 100; i += 1) { const li = document.createElement('li');
          li.textContent = `第 ${i} 行：东 p0 打出 5筒，南 p1 碰`; log.append(li); } }"""
    with sync_playwright() as pw:
        browser, page = _open(pw, live_url, cookie, "desktop")
        for name, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            page.goto(url)
            page.locator("#table-app.has-round").wait_for(timeout=10000)
            before = page.evaluate(measure)
            assert before[".table-bar"] >= 30, before
            page.evaluate(fill)
            assert page.locator('[data-role="log"] li').count() >= 100
            page.wait_for_timeout(100)
            assert page.evaluate(measure) == before, name
            if name == "desktop":
                _on_screen(
                    page, '.table-bar [data-role="sound"], .table-bar [data-role="help-toggle"]'
                )
                _on_screen(page, ".seat-me .hand .tile")
                log = page.locator('[data-role="log"]')
                assert log.evaluate("n => n.scrollHeight > n.clientHeight")
        browser.close()


def test_the_settlement_stays_until_ready_and_the_last_one_reopens_after_the_next_deal(
    live_url: str, playing: Any, players: list[Any], monkeypatch: Any
) -> None:
    """The settlement stays until the player presses 准备 (then 看结算 brings it back)
    or the next deal begins; after the deal 上一盘结算 shows the last one again."""
    from playwright.sync_api import expect, sync_playwright

    from tables import rooms, selectors
    from tests.tables.helpers import fresh

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    _advance(playing, _ended, random.Random(5))
    room = playing.match.room
    cookie = _session_cookie(players[0])
    with sync_playwright() as pw:
        browser, page = _open(pw, live_url, cookie, "desktop")
        page.goto(f"{live_url}/tables/{room.pk}/")
        settlement = page.locator('[data-role="settlement"]')
        expect(settlement).to_be_visible(timeout=10000)
        page.wait_for_timeout(1500)  # nothing closes it by itself
        expect(settlement).to_be_visible()
        settlement.locator('[data-role="ready"]').click()
        expect(settlement).to_be_hidden()
        expect(page.locator('[data-role="seat-buttons"]')).to_contain_text("看结算")
        for user in players[1:]:
            rooms.seat_set_ready(room=room, user=user)
        nxt = selectors.current_round(room.pk)
        assert nxt is not None
        assert nxt.pk != playing.pk
        again = page.locator('[data-role="previous-settlement"]')
        expect(again).to_be_visible(timeout=10000)
        expect(settlement).to_be_hidden()
        again.click()
        expect(settlement).to_be_visible()
        assert settlement.get_attribute("data-previous") == "true"
        expect(settlement.locator(".settle-title")).to_contain_text("上一盘")
        nets = settlement.locator('.settle-seat [data-role="net"]').all_inner_texts()
        assert sorted(int(n) for n in nets) == sorted(fresh(playing).result["nets"])
        settlement.locator(".settle-foot button").click()
        expect(settlement).to_be_hidden()
        expect(again).to_be_visible()
        browser.close()
