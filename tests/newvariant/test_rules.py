"""A new variant, added by its package and one registry line, is played, judged, replayed and
played by every bot level with nothing else changed (no database)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from rules.arena import run_arena
from rules.engine import new_round
from rules.judge import judge_line
from rules.persist import state_from_json, state_to_json
from rules.registry import VARIANTS, get_variant
from rules.simulate import simulate_rounds
from rules.wall import seed_from_text
from tests.newvariant import KEY, VARIANT, registered


@pytest.fixture(autouse=True)
def _toy() -> Iterator[None]:
    with registered():
        yield


def test_the_registry_lists_it_and_its_package_holds_it() -> None:
    assert KEY in VARIANTS
    assert list(VARIANTS)[-1] == KEY
    assert get_variant(KEY) is VARIANT


def test_its_line_goes_with_the_block() -> None:
    with registered():
        assert list(VARIANTS).count(KEY) == 1
    assert KEY in VARIANTS  # the fixture's line is still there


def test_the_simulator_plays_it_with_every_invariant_kept() -> None:
    report = simulate_rounds(VARIANT, 60, "toy")
    assert report.rounds == 60
    assert report.wins > 0
    assert report.invariants == "ok"


def test_the_judge_answers_its_win_and_ting_cases() -> None:
    win = {
        "kind": "win",
        "variant": KEY,
        "dealer": 0,
        "winner": 1,
        "hand": "123m 456m 789p 111s 22z",
        "melds": [],
        "win_tile": "2z",
        "win_by": "discard",
        "discarder": 3,
    }
    answer = judge_line(json.dumps(win))
    assert answer["legal"] is True
    assert answer["fan"] == {"pinghu": 1}
    assert answer["payments"] == [-1, 3, -1, -1]
    dealer = judge_line(json.dumps({**win, "winner": 0, "discarder": 2}))
    assert dealer["fan"] == {"pinghu": 1, "zhuang": 1}
    ting = judge_line(
        json.dumps(
            {
                "kind": "ting",
                "variant": KEY,
                "dealer": 0,
                "winner": 1,
                "hand": "123m 456m 789p 111s 2z",
            }
        )
    )
    assert ting == {"id": None, "waits": ["2z"], "ting_allowed": True}


def test_a_state_of_it_is_stored_and_read_back() -> None:
    state, _ = new_round(variant=VARIANT, seed=seed_from_text("toy state"), dealer=2)
    stored = json.loads(json.dumps(state_to_json(state)))
    assert stored["variant"] == KEY
    again = state_from_json(stored)
    assert again.variant is VARIANT
    assert again == state


def test_every_bot_level_plays_it() -> None:
    stats, _ = run_arena(VARIANT, ("hard", "normal", "easy", "basic"), 3, "toy arena")
    assert set(stats) == {"hard", "normal", "easy", "basic"}
    assert all(s.rounds == 3 * 4 and s.decisions for s in stats.values())
    assert stats["hard"].wins + stats["normal"].wins > 0


def test_without_its_line_nobody_knows_it() -> None:
    from rules.registry import _PACKAGES

    assert KEY not in _PACKAGES  # what the test adds is exactly that line
