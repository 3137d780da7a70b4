"""Helpers shared by the table tests: read a round's state, pick moves, walk JSON, seat four
browsers."""

from __future__ import annotations

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
