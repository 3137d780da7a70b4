"""The table page in a real browser (headless Chromium): a Li-Si ting declared by clicking.

Positions are reached on the server (the services a socket calls) from seeds found by a small
search, then one player's browser opens the table and plays the decision by clicking.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import pytest

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
    from rules.engine import actions
    from tables import bots, gameplay

    legal = gameplay.legal_actions(state, seat)
    for action in legal:
        if isinstance(action, actions.SelfDrawWin | actions.DeclareWin | actions.Pass):
            return action
    discards = [a for a in legal if isinstance(a, actions.Discard) and not a.ting]
    counts = state.seats[seat].counts()
    return min(discards, key=lambda a: (bots._usefulness(a.tile, counts), -a.tile))


def _lisi_ting_only_standing(state: Any, seat: int) -> list[str]:
    """The tiles of ``seat``'s ting discards when every one of them is a standing tile (立牌) it
    holds no ordinary copy of: the position the old page could not play (issue 17). Else []."""
    from rules.engine import actions
    from rules.tiles import tile_name
    from rules.variants.taiyuan_lisi import standing_tiles
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
    from tables import gameplay

    for i in range(200):
        seed = hashlib.sha256(b"queyou lisi ting %d" % i).digest()
        state, _ = new_round(variant="taiyuan_lisi", seed=seed, dealer=0)
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

    from tables import gameplay, selectors, services
    from tests.tables.helpers import act, state_of

    seed, seat, moves = _lisi_ting_position()
    settings.TABLES_FIXED_SEED = seed.hex()
    seated.variant = "taiyuan_lisi"
    seated.save(update_fields=["variant"])
    for user in players:
        services.seat_set_ready(room=seated, user=user)
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
        ting.click()
        tile = page.locator(f'.seat-me .tile.playable[data-tile="{ting_tiles[0]}"]').first
        tile.click(timeout=5000)
        expect(page.locator(".seat-me .badge-ting")).to_be_visible(timeout=5000)
        browser.close()
    after = state_of(rnd)
    assert after.seats[seat].ting
