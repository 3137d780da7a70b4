"""Small helpers for the engine tests: parse tiles, act, and pass through claim windows."""

from __future__ import annotations

from typing import Any

from rules.engine import Action, Discard, Pass, RoundState, apply, legal_actions
from rules.engine.arrange import arrange_round
from rules.engine.events import Event
from rules.engine.state import ClaimPhase, TurnPhase
from rules.registry import VARIANTS
from rules.tiles import parse_tile

T = parse_tile

# A quiet table: nobody can claim the dealer's 5z; seat 3 waits on 7z (单调).
DEALER = "1m4m7m2p5p8p3s6s9s1z2z3z5z7z"
SEAT1 = "2m3m5m6m3p4p6p7p1s2s4s5s8s"
SEAT2 = "1m1m9m9m1p1p9p9p8s8s4z7z7z"
SEAT3 = "1m2m3m4p5p6p7s8s9s2s3s4s7z"


def table(**kwargs: object) -> RoundState:
    hands = kwargs.pop("hands", [DEALER, SEAT1, SEAT2, SEAT3])
    return arrange_round(VARIANTS["changchun"], hands=hands, **kwargs)  # type: ignore[arg-type]


def act(state: RoundState, action: Action) -> RoundState:
    return apply(state, action)[0]


def act_events(state: RoundState, action: Action) -> tuple[RoundState, list[Event]]:
    return apply(state, action)


def pass_claims(state: RoundState) -> RoundState:
    """Every asked seat passes."""
    while isinstance(state.phase, ClaimPhase):
        seat = next(s for s in state.phase.asked if state.phase.answers[s] is None)
        state = act(state, Pass(seat=seat))
    return state


def turn_seat(state: RoundState) -> int:
    assert isinstance(state.phase, TurnPhase)
    return state.phase.seat


def discard_drawn(state: RoundState) -> RoundState:
    """The seat to act discards its drawn tile; every claim window is passed."""
    seat = turn_seat(state)
    tile = state.seats[seat].drawn
    assert tile is not None
    return pass_claims(act(state, Discard(seat=seat, tile=tile)))


def offered(state: RoundState, seat: int) -> list[Action]:
    return legal_actions(state, seat)


def eager_bot(rng):
    """Takes a win, then any kong, special kong or add, then a ting discard, then a pong or chow."""
    order = [
        ("self_draw_win", "declare_win"),
        ("special_kong", "add_to_special_kong", "concealed_kong", "added_kong", "exposed_kong"),
        ("pong", "chow"),
    ]

    def choose(actions):
        for kinds in order:
            found = [a for a in actions if a.kind in kinds]
            if found:
                return found[rng.randrange(len(found))]
        tings = [a for a in actions if getattr(a, "ting", False)]
        return (tings or actions)[rng.randrange(len(tings or actions))]

    return choose


def line_nets(lines: list[dict[str, Any]]) -> tuple[int, int, int, int]:
    """What a settlement's ``lines`` add up to per seat (the round's nets when complete)."""
    net = [0, 0, 0, 0]
    for line in lines:
        if line["kind"] == "cap":
            net[line["seat"]] += line["amount"]
        else:
            net[line["payer"]] -= line["amount"]
            net[line["payee"]] += line["amount"]
    return net[0], net[1], net[2], net[3]
