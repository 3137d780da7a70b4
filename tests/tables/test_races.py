"""Concurrent writers on one round, with real threads and real transactions.

The claim test finds (deterministically, by searching seeds with the pure engine) a discard that
one seat may win on and another may pong, then has two threads send "胡" and "碰" at the same
moment. Whatever the arrival order, the engine's claim window must give it to the win (spec
README, item 5: win first), and the round's seq/version must stay gapless.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from rules.engine import DeclareWin, Discard, Pong, SelfDrawWin, apply, legal_actions, new_round
from rules.registry import VARIANTS
from rules.wall import seed_from_text
from tables import gameplay
from tables.game import commands, store
from tables.models import ActionRecord, Match, Round, RoundAction, RoundEvent
from tests.tables.helpers import fresh

pytestmark = pytest.mark.django_db(transaction=True)


def _find_win_vs_pong() -> tuple[bytes, list[Any], int, int]:
    """A seed, the actions up to a claim window, the seat that may win and one that may pong."""
    for k in range(17, 2000):
        rng = random.Random(k)
        seed = seed_from_text(f"race{k}")
        state, _ = new_round(variant=VARIANTS["changchun"], seed=seed, dealer=0)
        actions: list[Any] = []
        while state.phase.kind != "ended":
            if state.phase.kind == "claims":
                wins = [
                    p
                    for p in range(4)
                    if any(isinstance(a, DeclareWin) for a in legal_actions(state, p))
                ]
                pongs = [
                    p
                    for p in range(4)
                    if p not in wins and any(isinstance(a, Pong) for a in legal_actions(state, p))
                ]
                if wins and pongs:
                    return seed, actions, wins[0], pongs[0]
            seat = next(p for p in range(4) if legal_actions(state, p))
            legal = legal_actions(state, seat)
            ting = [a for a in legal if isinstance(a, Discard) and a.ting]
            calm = [a for a in legal if not isinstance(a, DeclareWin | SelfDrawWin)]
            action = ting[0] if ting else rng.choice(calm or legal)
            state, _ = apply(state, action)
            actions.append(action)
    raise AssertionError("no win-vs-pong window found")


def _in_threads(*jobs: Callable[[], Any]) -> list[Any]:
    """Run the jobs at the same instant, each in its own thread with its own DB connection."""
    barrier = threading.Barrier(len(jobs))
    results: list[Any] = [None] * len(jobs)

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = jobs[i]()
        except BaseException as exc:  # surfaced by the assertion below
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    for result in results:
        if isinstance(result, BaseException):
            raise result
    return results


def _round_at(seated: Any, seed: bytes, actions: list[Any]) -> Round:
    match = Match.objects.create(room=seated, variant="changchun", options={}, players=[])
    rnd = commands.round_start(match=match, number=1, dealer=0, seed=seed)
    for i, action in enumerate(actions):
        outcome = commands.round_apply_action(
            round_id=rnd.pk,
            seat=action.seat,
            action_json=gameplay.action_json(action),
            client_action_id=f"setup-{i}",
        )
        assert outcome.ok, outcome
    return fresh(rnd)


@pytest.mark.parametrize("first", ["win", "pong"])
def test_a_win_and_a_pong_sent_at_once_resolve_to_the_win(seated: Any, first: str) -> None:
    seed, actions, winner, ponger = _find_win_vs_pong()
    rnd = _round_at(seated, seed, actions)
    state = store.load_state(rnd)
    others = [s for s in gameplay.deciders(state) if s not in (winner, ponger)]
    jobs = {
        "win": lambda: commands.round_apply_action(
            round_id=rnd.pk, seat=winner, action_json={"kind": "declare_win"}, client_action_id="w"
        ),
        "pong": lambda: commands.round_apply_action(
            round_id=rnd.pk, seat=ponger, action_json={"kind": "pong"}, client_action_id="p"
        ),
    }
    order = [jobs[first], jobs["pong" if first == "win" else "win"]]
    order += [
        (
            lambda s=s: commands.round_apply_action(
                round_id=rnd.pk, seat=s, action_json={"kind": "pass"}, client_action_id=f"x{s}"
            )
        )
        for s in others
    ]
    outcomes = _in_threads(*order)
    assert all(o.ok for o in outcomes), outcomes
    done = fresh(rnd)
    assert done.status == Round.Status.ENDED
    assert done.result["winner"] == winner
    assert done.version == len(actions) + len(order)
    seqs = list(RoundEvent.objects.filter(round=done).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, done.last_seq + 1))


def test_the_same_click_from_many_threads_is_applied_once(playing: Round) -> None:
    state = store.load_state(playing)
    seat = gameplay.deciders(state)[0]
    action = gameplay.action_json(gameplay.legal_actions(state, seat)[0])

    def click() -> Any:
        return commands.round_apply_action(
            round_id=playing.pk, seat=seat, action_json=action, client_action_id="double-click"
        )

    outcomes = _in_threads(*[click] * 6)
    assert all(o.ok for o in outcomes)
    assert sum(not o.duplicate for o in outcomes) == 1
    assert fresh(playing).version == playing.version + 1
    assert RoundAction.objects.filter(round=playing, client_action_id="double-click").count() == 1
    assert not ActionRecord.objects.filter(round=playing).exists()  # nothing was refused


def test_different_moves_racing_leave_a_gapless_log_that_replays(playing: Round) -> None:
    """Eight threads each try the current decider's first legal move many times; whatever wins,
    the stored action list replays to the stored version and seq has no gap."""

    def worker(n: int) -> int:
        applied = 0
        for i in range(10):
            rnd = fresh(playing)
            if rnd.status != Round.Status.PLAYING:
                break
            state = store.load_state(rnd)
            deciders = gameplay.deciders(state)
            if not deciders:
                break
            seat = deciders[0]
            action = gameplay.action_json(gameplay.legal_actions(state, seat)[0])
            outcome = commands.round_apply_action(
                round_id=rnd.pk, seat=seat, action_json=action, client_action_id=f"t{n}-{i}"
            )
            applied += outcome.ok
        return applied

    applied = _in_threads(*[lambda n=n: worker(n) for n in range(8)])
    done = fresh(playing)
    assert done.version == playing.version + sum(applied)
    seqs = list(RoundEvent.objects.filter(round=done).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, done.last_seq + 1))
    gameplay._cache.clear()
    stored = store.load_state(done)
    assert stored.version == done.version
    assert store.replay_state(done) == stored
