"""The replay of a finished round (回放): one frame per step, every hand visible.

A frame is the table after one action (frame 0: after the deal) with the **full, unredacted**
events that step produced, as logged in :class:`tables.models.RoundEvent`, and the state the
engine reaches by replaying the stored seed and actions: each seat's concealed tiles, melds and
discards, the wall (drawn from the live end and from the far end), the dice and the treasure.
It is only ever built for an ended round (the views refuse earlier): during play it would show
every hand.

The replay is checked against the log: if the engine's events for a step differ from the stored
ones (an engine change since the round was played), :class:`ReplayMismatch` is raised instead of
showing a replay that is not what happened.
"""

from __future__ import annotations

from typing import Any

from rules.engine import RoundState
from rules.engine.events import encode, meld_json
from rules.tiles import tile_name
from tables.game.store import replay_steps
from tables.gameplay import ReplayStep
from tables.models import Round, RoundEvent


class ReplayMismatch(RuntimeError):
    """Replaying the stored actions does not reproduce the stored event log."""


def _seat_json(state: RoundState, seat: int) -> dict[str, Any]:
    s = state.seats[seat]
    return {
        "concealed": [tile_name(t) for t in s.concealed],
        "drawn": None if s.drawn is None else tile_name(s.drawn),
        "melds": [meld_json(m) for m in s.melds],
        "discards": [
            {"tile": tile_name(d.tile), "claimed": d.claimed, "ting": d.ting} for d in s.discards
        ],
        "ting": s.ting,
        "wind": tile_name(state.seat_wind(seat)),
    }


def table_json(state: RoundState) -> dict[str, Any]:
    """The whole table, nothing hidden (for replays of ended rounds only)."""
    treasure = state.treasure
    phase = state.phase
    return {
        "version": state.version,
        "phase": phase.kind,
        "turn": getattr(phase, "seat", None),
        "seats": [_seat_json(state, seat) for seat in range(4)],
        "wall_left": state.wall_left,
        "live": state.live,
        "far": state.far,
        "kongs": state.kongs,
        "treasure": None
        if treasure is None
        else {
            "tile": tile_name(treasure.tile),
            "position": treasure.position,
            "version": treasure.version,
            "history": [[tile_name(t), p] for t, p in treasure.history],
        },
        "kong_payments": [encode("transfers", t) for t in state.kong_transfers],
        # The variant's public facts (成麻: the void suits, the wins so far, the checks).
        "variant_extra": state.variant.flow.table_view_extra(state),
    }


def build_frames(steps: list[ReplayStep], logged: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Frames from the replay steps and the logged event payloads (in ``seq`` order)."""
    frames = []
    seq = 0
    for index, step in enumerate(steps):
        replayed = [e.to_json() for e in step.events]
        stored = logged[seq : seq + len(replayed)]
        if stored != replayed:
            raise ReplayMismatch(f"step {index}: the stored events differ from the replay")
        frames.append(
            {
                "index": index,
                "action": step.action,
                "first_seq": seq + 1,
                "events": stored,
                "table": table_json(step.state),
            }
        )
        seq += len(replayed)
    if seq != len(logged):
        raise ReplayMismatch(f"{len(logged) - seq} logged events were not replayed")
    return frames


def replay_json(rnd: Round) -> dict[str, Any]:
    """Everything the replay viewer needs for an ended round."""
    if rnd.status != Round.Status.ENDED:
        raise ValueError("only an ended round can be replayed")
    steps = replay_steps(rnd)
    logged = list(
        RoundEvent.objects.filter(round=rnd).order_by("seq").values_list("payload", flat=True)
    )
    first = steps[0].state
    final = steps[-1].state
    return {
        "round_id": rnd.pk,
        "variant": final.variant.key,
        "dealer": final.dealer,
        "dice": list(first.dice),
        "break_point": {"seat": first.break_point.seat, "stack": first.break_point.stack},
        "wall": [tile_name(t) for t in final.wall],
        "salt": final.salt.hex(),
        "commitment": final.commitment,
        "nets": list(final.result.nets) if final.result is not None else None,
        "winner": final.result.winner if final.result is not None else None,
        "discarder": final.result.discarder if final.result is not None else None,
        "win_by": final.result.win_by if final.result is not None else None,
        "win_tile": (
            tile_name(final.result.win_tile)
            if final.result is not None and final.result.win_tile is not None
            else None
        ),
        "frames": build_frames(steps, logged),
    }
