"""Helpers shared by the table tests: read a round's state, pick moves, walk JSON, seat four
browsers."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterator, Sequence
from typing import Any

from tables import gameplay, rooms
from tables.game import commands, store
from tables.models import Round

_ids = itertools.count(1)


def fresh(rnd: Round) -> Round:
    return Round.objects.select_related("match__room").get(pk=rnd.pk)


def state_of(rnd: Round) -> Any:
    return store.load_state(fresh(rnd))


def decider(rnd: Round) -> int:
    return gameplay.deciders(state_of(rnd))[0]


def act(rnd: Round, seat: int, action: dict[str, Any], cid: str | None = None) -> Any:
    return commands.round_apply_action(
        round_id=rnd.pk,
        seat=seat,
        action_json=action,
        client_action_id=cid or f"c{next(_ids)}",
    )


def first_legal(rnd: Round, seat: int) -> dict[str, Any]:
    return gameplay.action_json(gameplay.legal_actions(state_of(rnd), seat)[0])


def room_set_variant(room: Any, variant: str) -> None:
    """Play ``variant`` in ``room`` from its next match, with that variant's default options
    (another variant's options may not fit it: 成麻's cap is at most 20)."""
    from tables.room_options import room_options_validate

    room.variant = variant
    room.options = room_options_validate(variant=variant, options={}, base_stake=room.base_stake)
    room.save(update_fields=["variant", "options"])


def win_or_default(state: Any, seat: int) -> Any:
    """The timeout's move (``gameplay.default_action``), except that a legal win is always taken:
    a deterministic driver that plays a round to its end without throwing a win away."""
    from rules.engine import DeclareWin, SelfDrawWin

    for action in gameplay.legal_actions(state, seat):
        if isinstance(action, SelfDrawWin | DeclareWin):
            return action
    return gameplay.default_action(state, seat)


def kong_eager_move(state: Any, seat: int) -> Any:
    """A concealed kong whenever ``seat`` may lay one, else the bots' move (deterministic)."""
    from rules.engine import ConcealedKong
    from tables import bots

    kongs = [a for a in gameplay.legal_actions(state, seat) if isinstance(a, ConcealedKong)]
    return kongs[0] if kongs else bots.choose_action(state, seat)


def concealed_kong_seed(variant: str = "chengma") -> tuple[bytes, int, str]:
    """A seed under which a round of ``variant`` dealt by seat 0 and played by
    :func:`kong_eager_move` has a seat lay a concealed kong: (seed, that seat, the kong's tile).
    Searched over a fixed list of seeds, a few ms each (the table deals the same round when
    ``settings.TABLES_FIXED_SEED`` is the seed's hex)."""
    from rules.engine import apply, new_round
    from rules.engine.events import Melded
    from rules.registry import get_variant
    from rules.tiles import tile_name

    for i in range(200):
        seed = hashlib.sha256(b"queyou concealed kong %d" % i).digest()
        state, _ = new_round(variant=get_variant(variant), seed=seed, dealer=0)
        while state.result is None:
            seat = gameplay.deciders(state)[0]
            state, events = apply(state, kong_eager_move(state, seat))
            for event in events:
                if isinstance(event, Melded) and event.meld.concealed and event.meld.is_kong:
                    return seed, event.seat, tile_name(event.meld.tiles[0])
    raise AssertionError("no concealed kong among 200 seeds: has the deal changed?")


def walk(value: Any, path: str = "$") -> Iterator[tuple[str, Any]]:
    """Every (path, leaf-or-key) in a JSON value, keys included, for structural leak checks."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield f"{path}.{key}", key
            yield from walk(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from walk(item, f"{path}[{i}]")
    else:
        yield path, value


def table_opened(room_id: int, user: Any) -> None:
    """The player has the table open in a browser (a presence entry of a socket of the test's
    own, :mod:`tables.presence`), and the seat shows it."""
    from tables import presence

    presence.socket_open(room_id=room_id, user_id=user.pk, channel=f"test-tab-{user.pk}")
    rooms.seat_presence_sync(room_id=room_id)


def table_closed(room_id: int, user: Any) -> None:
    """The player closed that browser tab (see :func:`table_opened`)."""
    from tables import presence

    presence.socket_close(room_id=room_id, user_id=user.pk, channel=f"test-tab-{user.pk}")
    rooms.seat_presence_sync(room_id=room_id)


PHONE_LIKE = (420, 900)
"""The browser tests' default window: a large phone held upright."""


def four_players_seated(
    browser: Any,
    live_url: str,
    room_id: int,
    cookies: Sequence[str],
    *,
    viewports: Sequence[tuple[int, int]] = (PHONE_LIKE,) * 4,
    default_timeout_ms: float | None = None,
) -> list[Any]:
    """Four players open the table page, each in a browser context of its own (its session
    cookie, its window size), take seats 0-3 in order on the page, press 准备, and the first
    round is dealt: the pages returned (by seat) all show it (``#table-app.has-round``).

    Playwright's sync API runs an event loop in the calling thread: make the cookies (and touch
    the database) before ``sync_playwright()`` starts.
    """
    pages = []
    for cookie, (width, height) in zip(cookies, viewports, strict=True):
        context = browser.new_context(locale="zh-CN", viewport={"width": width, "height": height})
        context.add_cookies([{"name": "sessionid", "value": cookie, "url": live_url}])
        if default_timeout_ms is not None:
            context.set_default_timeout(default_timeout_ms)
        page = context.new_page()
        page.goto(f"{live_url}/tables/{room_id}/")
        pages.append(page)
    for index, page in enumerate(pages):
        page.locator(".seat-slot").nth(index).get_by_role("button").click()
        # Locators, not wait_for_function: the page's CSP forbids the eval that one uses.
        page.locator(".seat-name").nth(index).wait_for()
    for page in pages:
        page.get_by_role("button", name="准备", exact=True).click()
    for page in pages:
        page.locator("#table-app.has-round").wait_for(state="visible", timeout=15000)
    return pages
