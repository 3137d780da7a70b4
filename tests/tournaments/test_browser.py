"""Club events end to end, in a browser (Playwright): an admin creates a 12-player event
(8 members + 4 bots) of two rounds; round 1 seats three tables; every table finishes; round 2 is
seated by the standings with no round-1 table together again; the final standings page agrees
with the standings worked out by hand from the ledger; a spectator of an event table sees its
hands only after the event's delay.

The server is the real ASGI app under uvicorn in a thread (the fixture of the table browser
tests). There is no Celery worker and no clock process here: the tables are played by the same
services the worker runs (bots, and the members in 托管: auto-play at the room's bot level, the
fastest honest way to finish twelve seats of hands), each hand one hand long; the admin drives the
schedule with the manage page's button, which runs the clock's step.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any, TypeVar

import pytest

from tests.tables.test_browser import CHROMIUM, _session_cookie, live_url  # noqa: F401
from tests.tournaments.helpers import expected_points, play_out, seated_sets

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is not installed"),
]

T = TypeVar("T")

DELAY_S = 10
"""The event's spectator delay here (the default is 180 s)."""


def _db(work: Callable[[], T]) -> T:
    """Run database work on a thread of its own: Playwright's sync API keeps an event loop in
    the test's thread, where Django refuses synchronous database calls."""
    out: list[T] = []
    errors: list[BaseException] = []

    def run() -> None:
        from django.db import connection

        try:
            out.append(work())
        except BaseException as exc:  # re-raised in the test's thread
            errors.append(exc)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
    return out[0]


def test_an_admin_runs_a_two_round_event_to_its_final_standings(
    live_url: str,  # noqa: F811
    club: Any,
    admin_user: Any,
    members: list[Any],
) -> None:
    from playwright.sync_api import expect, sync_playwright

    from tables.models import Tournament
    from tables.tournaments import services

    admin_cookie = _session_cookie(admin_user)
    member_cookie = _session_cookie(members[0])
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox", "--disable-gpu"]
        )

        def page_for(cookie: str) -> Any:
            context = browser.new_context(locale="zh-CN", viewport={"width": 1280, "height": 900})
            context.add_cookies([{"name": "sessionid", "value": cookie, "url": live_url}])
            return context.new_page()

        admin = page_for(admin_cookie)
        admin.goto(f"{live_url}/tournaments/club/{club.pk}/new/")
        form = admin.locator('[data-role="tournament-form"]')
        form.locator('[name="name"]').fill("周末双轮赛")
        form.locator('[name="variant"]').select_option("changchun")
        form.locator('[name="rounds"]').fill("2")
        form.locator('[name="hands_per_round"]').fill("1")
        form.locator('[name="bot_level"]').select_option("easy")
        form.locator('[name="spectator_delay_s"]').fill(str(DELAY_S))
        form.locator('button[type="submit"]').click()
        admin.wait_for_url(re.compile(r"/tournaments/\d+/manage/$"))
        t = _db(lambda: Tournament.objects.get(name="周末双轮赛"))
        assert t.rounds == 2
        assert t.hands_per_round == 1

        # Members register: one on the page, seven more by the same service.
        member = page_for(member_cookie)
        member.goto(f"{live_url}/tournaments/{t.pk}/")
        member.locator('[data-role="register"]').click()
        expect(member.locator('[data-role="withdraw"]')).to_be_visible()
        _db(lambda: [services.tournament_register(tournament=t, user=user) for user in members[1:]])

        # The admin adds four bots and starts: round 1 seats three tables.
        admin.goto(f"{live_url}/tournaments/{t.pk}/manage/")
        admin.locator('[name="count"]').fill("4")
        admin.locator('[data-role="add-bots"]').click()
        admin.locator('[data-role="start"]').click()
        admin.goto(f"{live_url}/tournaments/{t.pk}/")
        round1 = admin.locator('[data-role="round"][data-round="1"]')
        expect(round1.locator('[data-role="table"]')).to_have_count(3)

        # The member is told where they sit.
        member.goto(f"{live_url}/tournaments/notifications/")
        expect(member.locator('[data-role="notifications"]')).to_contain_text("第 1 轮：你在")

        # Every table finishes; the admin moves the event on: round 2 by the standings.
        _db(lambda: play_out(t))
        admin.goto(f"{live_url}/tournaments/{t.pk}/manage/")
        admin.locator('[data-role="advance"]').click()
        admin.goto(f"{live_url}/tournaments/{t.pk}/")
        round2 = admin.locator('[data-role="round"][data-round="2"]')
        expect(round2.locator('[data-role="table"]')).to_have_count(3)
        first, second = _db(lambda: (seated_sets(t, 1), seated_sets(t, 2)))
        assert len(first) == 3
        assert len(second) == 3
        assert not set(first) & set(second)

        # A spectator (the admin: a club member who does not play) watches a round-2 table:
        # nothing of its hands while the deal is younger than the delay, then every hand open.
        room_id, dealt_at = _db(lambda: _first_table_of(t, 2))
        watcher = page_for(admin_cookie)
        watcher.goto(f"{live_url}/tables/{room_id}/")
        watcher.locator("#table-app").wait_for(state="attached")
        time.sleep(1.5)  # the socket is open: a live spectator would see the deal by now
        open_tiles = watcher.locator(".opp-hand .tile[data-tile]")
        assert _now() < dealt_at + timedelta(seconds=DELAY_S)  # still inside the delay
        expect(open_tiles).to_have_count(0)
        expect(watcher.locator("#table-app.has-round")).to_have_count(0)
        expect(open_tiles.first).to_be_visible(timeout=(DELAY_S + 15) * 1000)
        assert _now() >= dealt_at + timedelta(seconds=DELAY_S)
        assert open_tiles.count() >= 3 * 13  # the three other hands, face up
        watcher.context.close()

        # Round 2 finishes; the event is finished; the page's standings are the ledger's.
        _db(lambda: play_out(t))
        admin.goto(f"{live_url}/tournaments/{t.pk}/manage/")
        admin.locator('[data-role="advance"]').click()
        member.goto(f"{live_url}/tournaments/{t.pk}/")
        standings = member.locator('[data-role="standings"]')
        expect(standings.locator("h2")).to_have_text("最终排名")
        expect(standings.locator('[data-role="tiebreaks"]')).to_contain_text("顺位点")
        expected = _db(lambda: expected_points(t))
        rows = standings.locator("tbody tr")
        expect(rows).to_have_count(12)
        shown = {}
        for i in range(12):
            row = rows.nth(i)
            entrant = int(row.get_attribute("data-entrant") or 0)
            points = row.locator('[data-role="points"]').inner_text()
            score = int(row.locator('[data-role="score"]').inner_text())
            shown[entrant] = (points, score)
        assert shown == {e: (str(p), s) for e, (p, s) in expected.items()}
        in_page_order = [
            (_fraction(points), score)
            for points, score in (shown[e] for e in _entrants_in_order(rows))
        ]
        assert in_page_order == sorted(in_page_order, reverse=True)
        status = _db(lambda: Tournament.objects.get(pk=t.pk).status)
        assert status == Tournament.Status.FINISHED
        browser.close()


def _fraction(text: str) -> Any:
    from fractions import Fraction

    return Fraction(text)


def _entrants_in_order(rows: Any) -> list[int]:
    return [int(rows.nth(i).get_attribute("data-entrant") or 0) for i in range(rows.count())]


def _now() -> datetime:
    from django.utils import timezone

    return timezone.now()


def _first_table_of(t: Any, number: int) -> tuple[int, datetime]:
    """Table 1 of round ``number``: its room and when its first hand was dealt."""
    from tables.models import Round, TournamentTable

    table = TournamentTable.objects.get(round__tournament=t, round__number=number, number=1)
    return table.room_id, Round.objects.get(match_id=table.match_id).started_at
