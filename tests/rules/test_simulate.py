"""``python -m rules simulate``: whole rounds, invariants checked, same seed same result."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules.errors import RulesError
from rules.registry import VARIANTS
from rules.simulate import simulate_main, simulate_rounds

ROOT = Path(__file__).resolve().parents[2]


def test_simulated_rounds_keep_every_invariant() -> None:
    report = simulate_rounds(VARIANTS["changchun"], 25, "test")
    assert report.invariants == "ok"
    assert report.rounds == 25
    assert report.wins + report.draws == 25


def test_the_same_seed_gives_the_same_result() -> None:
    a = simulate_rounds(VARIANTS["changchun"], 8, "same").summary()
    b = simulate_rounds(VARIANTS["changchun"], 8, "same").summary()
    a.pop("seconds"), b.pop("seconds"), a.pop("rounds_per_s"), b.pop("rounds_per_s")
    assert a == b


def test_simulate_main_ends_with_the_json_summary(capsys) -> None:
    assert simulate_main(variant="changchun", rounds=3, seed="cli") == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    summary = json.loads(last)
    assert list(summary) == [
        "variant",
        "rounds",
        "wins",
        "draws",
        "seconds",
        "rounds_per_s",
        "invariants",
    ]
    assert summary["variant"] == "changchun"
    assert summary["rounds"] == 3
    assert summary["invariants"] == "ok"


def test_replaying_every_nth_round_gives_the_same_result(monkeypatch) -> None:
    import rules.simulate as simulate

    replayed: list[bytes] = []
    real = simulate.replay_differs

    def counting(seed, dealer, actions, state):  # type: ignore[no-untyped-def]
        replayed.append(seed)
        return real(seed, dealer, actions, state)

    monkeypatch.setattr(simulate, "replay_differs", counting)
    every = simulate_rounds(VARIANTS["changchun"], 9, "nth").summary()
    assert len(replayed) == 9
    replayed.clear()
    third = simulate_rounds(VARIANTS["changchun"], 9, "nth", replay_every=3).summary()
    assert len(replayed) == 3
    for summary in (every, third):
        summary.pop("seconds"), summary.pop("rounds_per_s")
    assert every == third


def test_an_unknown_variant_is_refused() -> None:
    with pytest.raises(RulesError):
        simulate_main(variant="mahjong_on_mars", rounds=1, seed="x")


def test_the_command_line_runs_a_simulation() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rules", "simulate", "--rounds", "2", "--seed", "7"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1])["invariants"] == "ok"


def test_eager_bots_reach_treasures_kongs_and_robs_and_keep_every_invariant() -> None:
    import random

    from rules.engine import apply, legal_actions, new_round
    from rules.engine.events import KongRobbed, TreasurePlaced, TreasureSeen
    from rules.simulate import broken_invariant, replay, round_seed, seats_to_act
    from tests.rules.engine_helpers import eager_bot

    bot = eager_bot(random.Random(5))
    seen: dict[str, int] = {}
    for index in range(120):
        seed = round_seed("eager", index)
        state, _ = new_round(variant=VARIANTS["changchun"], seed=seed, dealer=index % 4)
        taken = []
        while state.result is None:
            action = bot(legal_actions(state, seats_to_act(state)[0]))
            taken.append(action)
            state, events = apply(state, action)
            for e in events:
                if isinstance(e, TreasurePlaced | TreasureSeen | KongRobbed):
                    seen[e.kind] = seen.get(e.kind, 0) + 1
            for a in taken[-1:]:
                seen[a.kind] = seen.get(a.kind, 0) + 1
        assert broken_invariant(state) is None
        assert replay(VARIANTS["changchun"], seed=seed, dealer=index % 4, actions=taken) == state
        if state.result is not None and state.result.win_by:
            seen["win:" + state.result.win_by] = seen.get("win:" + state.result.win_by, 0) + 1
    kinds = (
        "treasure_placed",
        "treasure_seen",
        "kong_robbed",
        "special_kong",
        "add_to_special_kong",
        "exposed_kong",
        "win:discard",
        "win:self_draw",
    )
    for kind in kinds:
        assert seen.get(kind, 0) > 0, (kind, seen)
