"""The replay of a stored round reproduces its log and its final state exactly."""

from __future__ import annotations

import pytest

from rules.engine import action_from_json
from rules.registry import VARIANTS
from rules.simulate import replay
from scoring.replay import ReplayMismatch, build_frames, replay_json
from tables import gameplay
from tables.game import store
from tables.game.store import replay_steps
from tables.models import RoundEvent

pytestmark = pytest.mark.django_db


def test_the_replay_of_a_round_reproduces_its_final_state_and_log(make_match, make_round):
    for number in (1, 2, 3):
        rnd = make_round(make_match(), number, seed_text="replay", dealer=number % 4)
        steps = replay_steps(rnd)
        final = steps[-1].state
        # The same state as the engine's own replay from the seed and the parsed actions.
        direct = replay(
            VARIANTS[rnd.match.variant],
            seed=bytes.fromhex(rnd.seed),
            dealer=rnd.dealer,
            actions=[action_from_json(a) for a in store.round_actions(rnd)],
        )
        assert final == direct
        assert gameplay.result_json(final) == rnd.result
        assert final.commitment == rnd.commitment
        data = replay_json(rnd)
        logged = list(RoundEvent.objects.filter(round=rnd).order_by("seq"))
        events = [e for f in data["frames"] for e in f["events"]]
        assert events == [e.payload for e in logged]
        assert len(data["frames"]) == len(store.round_actions(rnd)) + 1
        last = data["frames"][-1]["table"]
        assert last["phase"] == "ended"
        assert [len(s["concealed"]) for s in last["seats"]] == [
            len(s.concealed) for s in final.seats
        ]


def test_a_log_that_does_not_match_the_replay_is_refused(make_match, make_round):
    rnd = make_round(make_match(), 1, seed_text="tamper")
    steps = replay_steps(rnd)
    logged = [e.payload for e in RoundEvent.objects.filter(round=rnd).order_by("seq")]
    logged[5] = {**logged[5], "seat": (logged[5].get("seat", 0) + 1) % 4}
    with pytest.raises(ReplayMismatch):
        build_frames(steps, logged)
    with pytest.raises(ReplayMismatch):
        build_frames(steps, [e.payload for e in RoundEvent.objects.filter(round=rnd)][:-1])


def test_a_chengma_replay_shows_the_void_suits_and_the_wins(room, make_match, make_round):
    room.variant = "chengma"
    room.options = {}
    room.save(update_fields=["variant", "options"])
    rnd = make_round(make_match(options={}), 1, seed_text="chengma replay")
    data = replay_json(rnd)
    assert data["variant"] == "chengma"
    first, last = data["frames"][0]["table"], data["frames"][-1]["table"]
    assert first["phase"] == "choice"
    assert first["variant_extra"]["voids"] is None  # secret until all four chose
    assert len(last["variant_extra"]["voids"]) == 4
    final = replay_steps(rnd)[-1].state
    assert [w["seat"] for w in last["variant_extra"]["wins"]] == [
        w["seat"] for w in final.extra.get("wins", ())
    ]
