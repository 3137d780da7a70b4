"""Same seed + same actions → the same round, pinned across engine speed work (bench briefs).

Each digest is the SHA-256 of the whole played sequence — every seat's legal actions at every
step (order included: the bots pick by index), the chosen action, the events ``apply`` returned,
and the final state as JSON — for a few seeded rounds per variant, with the plain random bots of
``rules simulate`` and with ting-hungry bots (treasures, kongs, 抻, face-down ting discards) with
the room options on. The expected values were computed BEFORE the engine was optimised; a change
here means the engine's behaviour changed, not only its speed.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from rules.engine import Action, RoundState, apply, legal_actions, new_round, seats_to_act
from rules.engine.persist import state_to_json
from rules.simulate import random_bot, round_seed
from tests.rules.flow_helpers import eager_choice

OPTIONS: dict[str, dict[str, Any]] = {
    "changchun": {"ting_required": True, "dianpao_quanbao": True},
    "harbin": {"dianpao_baosan": True},
    "siping": {"liting": True, "fengang": True, "zfbgang": True, "chen_zfb": True},
    "taiyuan_lisi": {},
}

Chooser = Callable[[RoundState, int, list[Action]], Action]


def _strict(value: Any) -> Any:
    raise TypeError(f"not JSON: {value!r}")


def _line(digest: Any, value: Any) -> None:
    digest.update(json.dumps(value, sort_keys=True, default=_strict).encode())
    digest.update(b"\n")


def play_digest(
    variant: str, seed: str, rounds: int, choose: Chooser, options: Mapping[str, Any]
) -> str:
    digest = hashlib.sha256()
    for index in range(rounds):
        state, events = new_round(
            variant=variant, seed=round_seed(seed, index), dealer=index % 4, options=options
        )
        _line(digest, [e.to_json() for e in events])
        steps = 0
        while state.result is None and steps < 2000:
            seat = seats_to_act(state)[0]
            actions = legal_actions(state, seat)
            _line(digest, [a.to_json() for a in actions])
            action = choose(state, seat, actions)
            state, events = apply(state, action)
            _line(digest, [action.to_json(), [e.to_json() for e in events]])
            steps += 1
        _line(digest, state_to_json(state))
    return digest.hexdigest()


def random_digest(variant: str) -> str:
    bot = random_bot(random.Random(f"pin/{variant}"))
    return play_digest(variant, f"pin/{variant}", 12, lambda _s, _seat, a: bot(a), {})


def eager_digest(variant: str) -> str:
    rng = random.Random(f"pin-eager/{variant}")

    def choose(state: RoundState, seat: int, actions: list[Action]) -> Action:
        return eager_choice(state, seat, rng)

    return play_digest(variant, f"pin-eager/{variant}", 12, choose, OPTIONS[variant])


PINNED = {
    "changchun": (
        "e18e7117588b5ccd5a2b224f7c3366fa8bfc66a23a40061d50a951da70b434c9",
        "411e593e2bdc9c6662db3bdcf1c886331a27b73056e0806de746b84d9832b818",
    ),
    "harbin": (
        "348c08b882015ebe33bf775a8ebbc976b0d8820240b0ed7653be98f40916068c",
        "f8725abc632473db82cd1c3141296a3c0e8208de6be9e73ed6b1a02eeb0dae70",
    ),
    "siping": (
        "d30228d384cf258936357380f783867894cf241d67b5a5819488eb83d8b35b53",
        "dd10ad753f478b758802caf5f094452e4c479d1f3c16cdc9a6e089188f3de4c2",
    ),
    "taiyuan_lisi": (
        "06a31c75ce080019ba9cda293c3954cd4e7715a33d2e6a705c652e39d83d6c3d",
        "f0feca88cc3e43ceead2ae48f7e908d8e26f8c90b42538a01bbdc7b60b208e06",
    ),
}


@pytest.mark.parametrize("variant", sorted(PINNED))
def test_random_bot_rounds_replay_exactly_as_pinned(variant: str) -> None:
    assert random_digest(variant) == PINNED[variant][0]


@pytest.mark.parametrize("variant", sorted(PINNED))
def test_ting_seeking_rounds_with_room_options_replay_exactly_as_pinned(variant: str) -> None:
    assert eager_digest(variant) == PINNED[variant][1]


if __name__ == "__main__":  # print the digests (to pin them after an intended rule change)
    for key in sorted(PINNED):
        print(key, random_digest(key), eager_digest(key))
