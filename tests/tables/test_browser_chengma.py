"""成麻 in four browsers (Playwright): 定缺, a round in which two players win and play goes on,
kongs paid at once, and the wall checked at its end (查叫), to the settlement screen; and 换三张
picked tile by tile in the hand, at a laptop's and a phone's size.

The round is dealt from a chosen seed (``TABLES_FIXED_SEED``) and its moves are worked out
beforehand by the engine with a fixed player (:func:`script`): a win when offered, a kong or a
pong when offered, else the discard that helps the hand least. Each browser then clicks exactly
its seat's moves, in order, on the page's own buttons and tiles. The seed was picked so that the
round has two wins (one on a kong's replacement tile), two kongs and a drawn wall with one seat
ready and one not; the engine's own run of the script checks that before any browser starts.
"""

from __future__ import annotations

import hashlib
import os
from typing import Any

import pytest

from rules.engine import Action, apply, legal_actions, new_round, seats_to_act
from rules.engine.actions import ExchangeThree
from rules.engine.events import Event, KongPaid, SeatWon, TilesSwapped, WallChecked
from rules.engine.state import ChoicePhase, RoundState
from rules.registry import VARIANTS
from rules.tiles import tile_name
from tests.tables.helpers import four_players_seated
from tests.tables.test_browser import CHROMIUM, _session_cookie, live_url  # noqa: F401
from tests.tables.test_table_page import _on_screen

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not CHROMIUM.exists() and not os.environ.get("CI"),
        reason="/usr/bin/chromium is not installed (set CI=1 to make this a failure)",
    ),
]

SEED = hashlib.sha256(b"chengma browser 1").hexdigest()
CM = VARIANTS["chengma"]


def _usefulness(tile: int, counts: list[int]) -> int:
    score = 3 * (counts[tile] - 1)
    base = tile - tile % 9
    for offset in (-2, -1, 1, 2):
        other = tile + offset
        if base <= other < base + 9 and counts[other]:
            score += 2 if abs(offset) == 1 else 1
    return score


def _choose(state: RoundState, seat: int) -> Action:
    actions = legal_actions(state, seat)
    for action in actions:
        if action.kind in ("declare_win", "self_draw_win"):
            return action
    if isinstance(state.phase, ChoicePhase):
        return actions[0]  # the suit held fewest (the timeout's choice)
    for kind in ("concealed_kong", "added_kong", "exposed_kong", "pong"):
        for action in actions:
            if action.kind == kind:
                return action
    discards = [a for a in actions if a.kind == "discard"]
    if discards:
        counts = state.seats[seat].counts()
        return min(discards, key=lambda a: (_usefulness(a.tile, counts), -a.tile))  # type: ignore[attr-defined]
    return actions[-1]  # pass


def script() -> tuple[list[tuple[int, Action, list[Event]]], RoundState]:
    """The round's moves (seat, action, the events it caused) and its final state."""
    state, _ = new_round(variant=CM, seed=bytes.fromhex(SEED), dealer=0)
    steps = []
    while state.result is None:
        seat = seats_to_act(state)[0]
        action = _choose(state, seat)
        state, events = apply(state, action)
        steps.append((seat, action, events))
    return steps, state


def _target(page: Any, action: Action) -> Any:
    """The button or tile a player clicks for ``action``."""
    data = action.to_json()
    kind = data["kind"]
    if kind == "discard":
        return page.locator(f'.seat-me button.tile.playable[data-tile="{data["tile"]}"]').first
    selector = f'[data-role="actions"] button.action-{kind}'
    if "suit" in data:
        selector += f'[data-suit="{data["suit"]}"]'
    if "tile" in data:
        selector += f'[data-tile="{data["tile"]}"]'
    return page.locator(f"{selector}:not([disabled])").first


def test_the_script_has_two_wins_kongs_and_a_checked_wall() -> None:
    steps, final = script()
    events = [e for _, _, out in steps for e in out]
    wins = [e for e in events if isinstance(e, SeatWon)]
    assert len(wins) == 2
    assert any(w.win_by == "kong_draw" for w in wins)
    assert len([e for e in events if isinstance(e, KongPaid)]) >= 2
    checked = next(e for e in events if isinstance(e, WallChecked))
    assert sorted(checked.status) == ["not_ready", "ready", "won", "won"]
    assert checked.chajiao
    assert final.result is not None
    assert sum(final.result.nets) == 0


def test_four_browsers_play_a_chengma_round_with_two_wins_to_the_checked_wall(
    live_url: str,  # noqa: F811
    settings: Any,
    players: list[Any],
    make_club: Any,
) -> None:
    from playwright.sync_api import expect, sync_playwright

    from tables import rooms

    settings.TABLES_FIXED_SEED = SEED
    steps, final = script()
    club = make_club(owner=players[0], members=tuple(players[1:]))
    room = rooms.room_create(user=players[0], club=club, name="血战桌", variant="chengma")
    # Playwright's sync API runs an event loop in this thread: touch the database before it.
    cookies = [_session_cookie(user) for user in players]
    first_win = next(
        i for i, (_, _, out) in enumerate(steps) if any(isinstance(e, SeatWon) for e in out)
    )
    first_kong = next(
        i for i, (_, _, out) in enumerate(steps) if any(isinstance(e, KongPaid) for e in out)
    )
    winners = [e.seat for _, _, out in steps for e in out if isinstance(e, SeatWon)]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        pages = four_players_seated(browser, live_url, room.pk, cookies, default_timeout_ms=20000)
        for number, (seat, action, _events) in enumerate(steps):
            _target(pages[seat], action).click()
            if action.kind == "discard":  # the first tap raised the tile; the second plays it
                _target(pages[seat], action).click()
            if number == 3:  # the fourth void choice: every seat's void suit is shown to all
                for page in pages:
                    expect(page.locator(".badge-que:not(.pending)")).to_have_count(4)
            if number == first_kong:  # 刮风下雨: the kong money, paid at once, for everyone
                for page in pages:
                    expect(page.locator('[data-role="kong-money"]')).to_be_visible()
            if number == first_win:  # the winner is out, its hand laid down for the others
                other = pages[(winners[0] + 1) % 4]
                expect(other.locator('[data-role="won-hand"]')).to_have_count(1)
        for page in pages:
            settlement = page.locator('[data-role="settlement"]')
            expect(settlement).to_be_visible(timeout=20000)
            expect(settlement.locator(".settle-seat")).to_have_count(4)
            expect(settlement.locator(".settle-seat.winner")).to_have_count(2)
            step = settlement.locator('[data-role="settle-step"]')
            expect(step).to_be_visible()
            expect(step.locator('tr[data-status="ready"]')).to_have_count(1)
            expect(step.locator('tr[data-status="not_ready"]')).to_have_count(1)
            for kind in ("win", "kong", "chajiao"):
                assert settlement.locator(f'tr[data-kind="{kind}"]').count() >= 1, kind
            nets = settlement.locator('[data-role="net"]').all_inner_texts()
            assert sorted(int(n) for n in nets) == sorted(final.result.nets)  # type: ignore[union-attr]
        shots = os.environ.get("QUEYOU_SCREENSHOTS")
        if shots:
            for index, page in enumerate(pages):
                page.screenshot(path=f"{shots}/chengma-seat{index}.png", full_page=True)
        browser.close()


SWAP_SEED = hashlib.sha256(b"chengma browser huansanzhang").hexdigest()
LAPTOP, PHONE = (1366, 768), (390, 844)


def _swap_picks() -> tuple[list[ExchangeThree], list[list[str]], RoundState]:
    """Each seat's 换三张 pick under :data:`SWAP_SEED` (a pick with a pair, where the seat has
    one, so that the page must tell two equal tiles apart; the dealer's includes its drawn tile
    when it can), the hands as dealt, and the engine's state once all four picked (the tiles
    moved as its :class:`TilesSwapped` events say)."""
    state, _ = new_round(
        variant=CM, seed=bytes.fromhex(SWAP_SEED), dealer=0, options={"huansanzhang": True}
    )
    assert isinstance(state.phase, ChoicePhase)
    assert state.phase.name == "huansanzhang"
    dealt = [sorted(str(tile_name(t)) for t in seat.concealed) for seat in state.seats]
    picks = []
    for seat in range(4):
        offers = [a for a in legal_actions(state, seat) if isinstance(a, ExchangeThree)]
        drawn = state.seats[seat].drawn
        picks.append(max(offers, key=lambda a: (len(set(a.tiles)) < 3, drawn in a.tiles, a.tiles)))
    swaps: list[TilesSwapped] = []
    for pick in picks:
        state, events = apply(state, pick)
        swaps += [e for e in events if isinstance(e, TilesSwapped)]
    assert isinstance(state.phase, ChoicePhase)
    assert state.phase.name == "dingque"
    assert [sorted(s.given) for s in swaps] == [sorted(p.tiles) for p in picks]
    return picks, dealt, state


def _hand(page: Any) -> list[str]:
    """The tiles of the own hand on the page, drawn tile included, sorted by name."""
    return sorted(
        str(t)
        for t in page.locator(".seat-me .hand .tile").evaluate_all(
            "nodes => nodes.map(n => n.dataset.tile)"
        )
    )


def _shot(page: Any, name: str) -> None:
    folder = os.environ.get("QUEYOU_SCREENSHOTS")
    if folder:
        page.wait_for_timeout(200)  # the tile pictures decode
        page.screenshot(path=f"{folder}/{name}.png")


def test_huansanzhang_is_picked_tile_by_tile_in_the_hand_and_sent_with_one_button(
    live_url: str,  # noqa: F811
    settings: Any,
    players: list[Any],
    make_club: Any,
) -> None:
    """换三张 on: each player clicks three tiles of one suit in the own hand (the others are
    shut as soon as they cannot complete a pick) and presses 换出 (or its key, S); the hands
    then hold what the engine's exchange gave each seat. At 1366 × 768 and 390 × 844 the hand
    and the button are on screen without scrolling."""
    from playwright.sync_api import expect, sync_playwright

    from tables import rooms

    settings.TABLES_FIXED_SEED = SWAP_SEED
    picks, dealt, after = _swap_picks()
    club = make_club(owner=players[0], members=tuple(players[1:]))
    room = rooms.room_create(
        user=players[0],
        club=club,
        name="换三张桌",
        variant="chengma",
        options={"huansanzhang": True},
    )
    cookies = [_session_cookie(user) for user in players]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        sizes = [LAPTOP, PHONE, LAPTOP, PHONE]
        pages = four_players_seated(
            browser, live_url, room.pk, cookies, viewports=sizes, default_timeout_ms=10000
        )
        before = [_hand(page) for page in pages]
        assert before == dealt
        for seat, (page, pick) in enumerate(zip(pages, picks, strict=True)):
            hand = page.locator(".seat-me .hand")
            confirm = page.locator('[data-role="actions"] button.action-exchange_three')
            expect(confirm).to_be_disabled()
            # No button per pick: the prompt holds this one button.
            expect(page.locator('[data-role="actions"] button')).to_have_count(1)
            names = [str(tile_name(t)) for t in pick.tiles]
            for n, name in enumerate(names):
                hand.locator(f'button.tile.pickable:not(.picked)[data-tile="{name}"]').first.click()
                expect(hand.locator(".tile.picked")).to_have_count(n + 1)
                if n == 0:  # a tile of another suit cannot join the pick
                    suit = name[1]
                    expect(hand.locator(f'.tile:not([data-tile$="{suit}"])').first).to_be_disabled()
                if n < 2:
                    expect(confirm).to_be_disabled()
            expect(confirm).to_be_enabled()
            expect(confirm.locator(".tile[data-tile]")).to_have_count(3)  # the picks, shown
            if seat < 2:
                assert _on_screen(page, ".seat-me .hand .tile") == len(_hand(page))
                _on_screen(page, '[data-role="actions"] button.action-exchange_three')
                _shot(page, f"huansanzhang-{'laptop' if seat == 0 else 'phone'}")
            if seat == 3:
                page.keyboard.press("s")  # the button's key
            else:
                confirm.click()
            if seat < 3:  # the last pick ends the choice at once
                expect(page.locator('[data-role="actions"] .prompt-hint')).to_have_text(
                    "已选好，等其他玩家选完"
                )
            expect(hand.locator(".tile.picked")).to_have_count(0)
        # All four picked: the tiles moved as the engine moved them, and 定缺 follows (buttons).
        for seat, page in enumerate(pages):
            expected = sorted(str(tile_name(t)) for t in after.seats[seat].concealed)
            expect(page.locator('[data-role="actions"] button.action-choose_void')).to_have_count(3)
            assert _hand(page) == expected, seat
            assert expected != before[seat], seat  # the seed moves other tiles in
            expect(page.locator('[data-role="log"]')).to_contain_text("换来")
        _shot(pages[1], "huansanzhang-phone-after")
        browser.close()
