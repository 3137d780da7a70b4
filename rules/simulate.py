"""``python -m rules simulate``: whole rounds played by random bots through the live engine,
with the round invariants checked after each one (spec ``judge.md``, *Simulation*).

Bots always take a legal win and otherwise choose uniformly among their legal actions (claims
and ting declarations included), with a :class:`random.Random` seeded from the seed string; the
walls come from the engine's DRBG keyed by ``sha256(f"{seed}/round/{i}")``; the first dealer from
``sha256(f"{seed}/dealer")``. After every round: every tile is accounted for (hands, melds,
discards and wall make the full set), payments sum to zero, no net exceeds the cap, and replaying
the recorded actions from the seed (:func:`rules.replay.replay`, the replay the tables use too)
reproduces the identical final state. Same seed, same result.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from rules.engine import (
    Action,
    DeclareWin,
    RoundState,
    SelfDrawWin,
    apply,
    legal_actions,
    new_round,
)
from rules.engine.core import seats_to_act
from rules.engine.flow import NextRound
from rules.engine.state import EndedPhase
from rules.registry import get_variant
from rules.replay import replay
from rules.tiles import EAST, Tile, count_tiles, full_set
from rules.variant import Variant
from rules.wall import Drbg, seed_from_text

Bot = Callable[[list[Action]], Action]


@dataclass
class SimulationReport:
    variant: str
    rounds: int = 0
    wins: int = 0
    draws: int = 0
    invariants: str = "ok"
    seconds: float = 0.0
    actions: int = 0
    win_kinds: dict[str, int] = field(default_factory=dict)

    def summary(self) -> dict[str, object]:
        rate = self.rounds / self.seconds if self.seconds > 0 else 0.0
        return {
            "variant": self.variant,
            "rounds": self.rounds,
            "wins": self.wins,
            "draws": self.draws,
            "seconds": round(self.seconds, 3),
            "rounds_per_s": round(rate, 1),
            "invariants": self.invariants,
        }


_WINS = frozenset({SelfDrawWin, DeclareWin})
"""Win actions (exact types: actions are final dataclasses), tested by a set look-up: the bot runs
once per action of every simulated round."""


def random_bot(rng: random.Random) -> Bot:
    """A bot that always takes a legal win, otherwise any legal action uniformly."""

    def choose(actions: list[Action]) -> Action:
        for action in actions:
            if type(action) in _WINS:
                return action
        return actions[rng.randrange(len(actions))]

    return choose


def play_round(
    variant: Variant,
    *,
    seed: bytes,
    dealer: int,
    bot: Bot,
    round_wind: Tile = EAST,
    lianzhuang: int = 0,
) -> tuple[RoundState, list[Action]]:
    """Play one round to its end; return the final state and the actions taken."""
    state, _ = new_round(
        variant=variant, seed=seed, dealer=dealer, round_wind=round_wind, lianzhuang=lianzhuang
    )
    taken: list[Action] = []
    while not isinstance(state.phase, EndedPhase):
        seat = seats_to_act(state)[0]
        action = bot(legal_actions(state, seat))
        taken.append(action)
        state, _ = apply(state, action)
    return state, taken


def replay_differs(seed: bytes, dealer: int, actions: list[Action], state: RoundState) -> bool:
    """Whether replaying ``actions`` from ``seed`` fails to reach exactly ``state`` (dealt with
    its round wind and 連莊 count)."""
    again = replay(
        state.variant,
        seed=seed,
        dealer=dealer,
        actions=actions,
        round_wind=state.round_wind,
        lianzhuang=int(state.extra.get("lianzhuang", 0)),
    )
    return again != state


def broken_invariant(state: RoundState) -> str | None:
    """The first round invariant ``state`` breaks, or None."""
    if tile_counts(state) != count_tiles(full_set(state.variant.flow.tile_kinds)):
        return "tiles_accounted"
    result = state.result
    if result is None:
        return "round_not_ended"
    if sum(result.nets) != 0:
        return "zero_sum"
    # A variant whose cap is in fan per win (成麻) caps no round net.
    cap = state.options.get("cap") if state.variant.rules.has_cap else None
    if cap is not None and any(abs(n) > cap for n in result.nets):
        return "cap"
    return None


def tile_counts(state: RoundState) -> list[int]:
    """Every tile of the round: concealed, melds, discards left in the rows, and the wall."""
    tiles = list(state.wall[state.live : len(state.wall) - state.far])
    tiles += state.variant.flow.tiles_aside(state)
    for seat in state.seats:
        tiles += seat.concealed
        tiles += [t for m in seat.melds for t in m.tiles]
        tiles += [d.tile for d in seat.discards if not d.claimed]
    return count_tiles(tiles)


def round_seed(seed: str, index: int) -> bytes:
    return seed_from_text(f"{seed}/round/{index}")


def simulate_rounds(
    variant: Variant, rounds: int, seed: str, *, check_replay: bool = True, replay_every: int = 1
) -> SimulationReport:
    """Play ``rounds`` rounds and check the invariants after each; stops at the first break.
    With ``check_replay``, every ``replay_every``-th round (rounds 0, N, 2N, …; 1: all of them)
    is also replayed from its seed to check that it reproduces."""
    rng = random.Random(seed_from_text(f"{seed}/bots"))
    bot = random_bot(rng)
    dealer = Drbg(seed_from_text(f"{seed}/dealer")).randbelow(4)
    # A match of wind rounds (Taiwan) carries its round wind and 連莊 count; for the other
    # variants Flow.next_round only moves the dealer.
    match = NextRound(dealer, EAST, 0)
    first_dealer = dealer
    report = SimulationReport(variant=variant.key)
    start = time.perf_counter()
    for index in range(rounds):
        rseed = round_seed(seed, index)
        state, actions = play_round(
            variant,
            seed=rseed,
            dealer=dealer,
            bot=bot,
            round_wind=match.round_wind,
            lianzhuang=match.lianzhuang,
        )
        report.rounds += 1
        report.actions += len(actions)
        broken = broken_invariant(state)
        if (
            broken is None
            and check_replay
            and index % replay_every == 0
            and replay_differs(rseed, dealer, actions, state)
        ):
            broken = "replay"
        if broken is not None:
            report.invariants = f"{broken} (round {index})"
            break
        assert state.result is not None
        if state.result.winner is None:
            report.draws += 1
        else:
            report.wins += 1
            how = state.result.win_by or "?"
            report.win_kinds[how] = report.win_kinds.get(how, 0) + 1
        match = variant.flow.next_round(
            first_dealer=first_dealer,
            dealer=dealer,
            round_wind=match.round_wind,
            lianzhuang=match.lianzhuang,
            next_dealer=state.result.next_dealer,
        )
        if match.match_over:
            match = NextRound(match.dealer, EAST, 0)
            first_dealer = match.dealer
        dealer = match.dealer
    report.seconds = time.perf_counter() - start
    return report


def simulate_main(*, variant: str, rounds: int, seed: str, replay_every: int = 1) -> int:
    """The CLI: the last line is the JSON summary; exit status 1 if an invariant broke.
    ``replay_every``: replay every N-th round from its seed (1: every round; 0: none)."""
    if replay_every < 0:
        raise ValueError("replay_every must be 0 or more")
    report = simulate_rounds(
        get_variant(variant),
        rounds,
        str(seed),
        check_replay=replay_every > 0,
        replay_every=max(replay_every, 1),
    )
    print(json.dumps(report.summary()))
    return 0 if report.invariants == "ok" else 1
