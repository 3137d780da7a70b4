"""The round traces (``tests/rules/traces/*.jsonl``) replay exactly: every step's offers, the
action played and the events it produced (:mod:`tests.rules.tracing` explains the notation)."""

from __future__ import annotations

import json

import pytest

from rules.engine import Discard, Pass, Pong, SelfDrawWin
from rules.engine.actions import Chow
from tests.rules.tracing import (
    FOLDER,
    VARIANTS,
    action_text,
    legal_text,
    parse_action,
    replay_round,
    rounds_in,
)

TRACES = sorted(FOLDER.glob("*.jsonl"))


def test_every_variant_has_a_trace_file() -> None:
    assert {path.stem for path in TRACES} == set(VARIANTS)


@pytest.mark.parametrize("path", TRACES, ids=lambda p: p.stem)
def test_each_traced_round_plays_exactly_as_written(path) -> None:  # type: ignore[no-untyped-def]
    rounds = list(rounds_in(path))
    assert len(rounds) >= 5
    for lines in rounds:
        for where, expected, got in replay_round(lines):
            assert got == expected, where


@pytest.mark.parametrize("path", TRACES, ids=lambda p: p.stem)
def test_each_trace_has_wins_and_drawn_rounds(path) -> None:  # type: ignore[no-untyped-def]
    results = [lines[-1]["result"] for lines in rounds_in(path)]
    assert any(r["winner"] is not None for r in results)
    assert any(r["winner"] is None for r in results)
    for result in results:
        assert sum(result["nets"]) == 0


def test_the_notation_reads_back_every_kind_of_action() -> None:
    for action in (
        Discard(seat=2, tile=31, ting=True),
        Discard(seat=1, tile=0),
        Chow(seat=3, tiles=(4, 5, 6)),
        Pong(seat=0),
        Pass(seat=1),
        SelfDrawWin(seat=2),
    ):
        assert parse_action(action_text(action), action.seat) == action
    assert legal_text([Discard(seat=0, tile=1), Discard(seat=0, tile=0), Pass(seat=0)]) == (
        "discard 12m | pass"
    )


def test_a_changed_event_is_reported_with_its_step() -> None:
    lines = next(rounds_in(FOLDER / "changchun.jsonl"))
    step = json.loads(json.dumps(lines[1]))
    step["events"] = [*step["events"][:-1], "draw seat=9 tile=1m"]
    failure = next(
        w for w, expected, got in replay_round([lines[0], step, lines[-1]]) if expected != got
    )
    assert failure == f"{lines[0]['round']}: step 1 events"
