"""What each seat (or a spectator) may see: redacted events and snapshots (spec ``README.md``,
*The round*, item 8).

A player sees their own concealed tiles; everyone's discards, exposed melds, tile counts and ting
declarations; the number of tiles left in the wall; never another player's concealed tiles, the
wall's order, the commitment salt, or a treasure they are not entitled to see. After the round
every hand, the wall and the salt are revealed (:class:`~rules.engine.events.RoundEnded`).

``viewer`` is a seat ``0…3`` or ``None`` for a spectator. Everything returned is plain JSON
(dict, list, str, int, bool, None).
"""

from __future__ import annotations

from typing import Any

from rules.engine.core import legal_actions
from rules.engine.events import (
    ClaimWindowOpened,
    Dealt,
    Discarded,
    Drew,
    Event,
    KongPaid,
    Melded,
    PrivateEvent,
    TreasureSeen,
    encode,
    meld_json,
)
from rules.engine.state import (
    ChoicePhase,
    ClaimPhase,
    DiscardRecord,
    EndedPhase,
    RoundState,
    SeatState,
)
from rules.hand import Meld
from rules.hints import hints_enabled, seat_hint
from rules.settlement import settlement_json
from rules.tiles import tile_name

Viewer = int | None


def event_for(event: Event, viewer: Viewer) -> dict[str, Any]:
    """``event`` as ``viewer`` may see it. Every viewer is told of every event (redacted), so
    that the numbering of the events has no gap that would say something happened out of sight."""
    data = event.to_json()
    if isinstance(event, TreasureSeen) and viewer != event.seat:
        del data["tile"]  # that a ting seat looked at the treasure is public; what it saw is not
        return data
    if isinstance(event, PrivateEvent) and viewer != event.seat:
        return {"kind": event.kind, "seat": event.seat}  # 成麻 换三张: which tiles is its own
    if isinstance(event, Dealt) and viewer != event.seat:
        return {"kind": event.kind, "seat": event.seat, "count": len(event.tiles)}
    if _hides_tile(event, viewer):
        del data["tile"]
    elif isinstance(event, Melded) and event.meld.concealed and viewer != event.seat:
        data["meld"] = hidden_meld_json(event.meld)
    elif isinstance(event, ClaimWindowOpened):
        # Who is asked would tell the others what a hand holds: each seat learns only its own.
        del data["asked"]
        if viewer is not None:
            data["you_are_asked"] = viewer in event.asked
    return data


def _hides_tile(event: Event, viewer: Viewer) -> bool:
    """A drawn tile is its drawer's; a face-down discard (Li-Si's ting) its discarder's; a
    concealed kong's tile its owner's, in its payment (成麻 下雨) as in its ``meld`` event
    (``README.md``, *The round*, item 8)."""
    if isinstance(event, Drew):
        return viewer != event.seat
    if isinstance(event, KongPaid):
        return event.kong == "concealed" and viewer != event.seat
    return isinstance(event, Discarded) and event.face_down and viewer != event.seat


def hidden_meld_json(meld: Meld) -> dict[str, Any]:
    """A concealed kong as the others see it: four face-down tiles."""
    return {"type": meld.kind, "concealed": True, "count": len(meld.tiles)}


def seat_view(state: RoundState, viewer: Viewer, *, hints: bool | None = None) -> dict[str, Any]:
    """The full snapshot ``viewer`` may see: their hand (drawn tile apart), everyone's public
    table, the wall count, dice, break point, winds, phase and their legal actions.

    A seat's own view also carries ``hint`` (听牌提示, :func:`rules.hints.seat_hint`: computed
    for that seat only, from what it may see) unless hints are off: ``hints`` if given, else the
    room option ``hints`` (default on). Spectators and ended rounds never get the key."""
    ended = isinstance(state.phase, EndedPhase)
    view: dict[str, Any] = {
        "variant": state.variant.key,
        "version": state.version,
        "you": viewer,
        "dealer": state.dealer,
        "round_wind": tile_name(state.round_wind),
        "seat_winds": [tile_name(state.seat_wind(s)) for s in range(4)],
        "dice": list(state.dice),
        "break_point": {"seat": state.break_point.seat, "stack": state.break_point.stack},
        "commitment": state.commitment,
        "wall_left": state.wall_left,
        "live_left": state.variant.flow.live_left(state),
        "kongs": state.kongs,
        "seats": [
            _seat_json(state, s, seat, shown=ended or viewer == s)
            for s, seat in enumerate(state.seats)
        ],
        "treasure": _treasure_json(state, viewer, ended),
        "phase": _phase_json(state, viewer),
        "legal_actions": (
            [a.to_json() for a in legal_actions(state, viewer)] if viewer is not None else []
        ),
    }
    view.update(state.variant.flow.table_view_extra(state))
    if ended and state.result is not None:
        view["result"] = _result_json(state)
    elif viewer is not None and (hints_enabled(state.options) if hints is None else hints):
        view["hint"] = seat_hint(state, viewer)
    return view


def open_view(state: RoundState) -> dict[str, Any]:
    """The table with every hand open, for a spectator watching behind the play ("every hand visible
    to spectators after the delay only"): what the four seats see together,
    and nothing that no seat sees. Each seat's concealed tiles, drawn tile, waits, face-down
    discards and concealed kongs as its owner sees them; the treasure's tile once a seat has seen
    it; never the wall, the seed or the salt before the end (the wall stays hidden), no legal
    actions, no hint, and no seat's own claim or choice marks (``you_are_asked``). The web layer
    sends it only to spectators of a room with a delay, and only of moves older than the delay."""
    view = seat_view(state, None, hints=False)
    ended = isinstance(state.phase, EndedPhase)
    view["seats"] = [_seat_json(state, s, seat, shown=True) for s, seat in enumerate(state.seats)]
    treasure = state.treasure
    if (
        view.get("treasure") is not None
        and treasure is not None
        and not ended
        and any(seat.treasure_seen == treasure.version for seat in state.seats)
    ):
        view["treasure"]["tile"] = tile_name(treasure.tile)
    view["open"] = True
    return view


def event_open(event: Event) -> dict[str, Any]:
    """``event`` as :func:`open_view` shows it: as the seat it concerns sees it (a deal, a draw,
    a face-down discard, a concealed kong, a treasure looked at), else as a spectator sees it."""
    seat = getattr(event, "seat", None)
    if isinstance(event, ClaimWindowOpened) or not isinstance(seat, int):
        return event_for(event, None)
    return event_for(event, seat)


def _seat_json(state: RoundState, index: int, seat: SeatState, *, shown: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "seat": index,
        "wind": tile_name(state.seat_wind(index)),
        "concealed_count": len(seat.concealed),
        "melds": [
            meld_json(m) if shown or not m.concealed else hidden_meld_json(m) for m in seat.melds
        ],
        "discards": [_discard_json(d, shown) for d in seat.discards],
        "ting": seat.ting,
        "opened": seat.opened,
    }
    if shown:
        rest = list(seat.concealed)
        if seat.drawn is not None:
            rest.remove(seat.drawn)
        out["concealed"] = [tile_name(t) for t in rest]
        out["drawn"] = tile_name(seat.drawn) if seat.drawn is not None else None
        out["waits"] = [tile_name(t) for t in seat.waits]
    out.update(state.variant.flow.seat_view_extra(state, index, shown=shown))
    return out


def _discard_json(record: DiscardRecord, shown: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"claimed": record.claimed, "ting": record.ting}
    if record.face_down:
        out["face_down"] = True
    if shown or not record.face_down:
        out["tile"] = tile_name(record.tile)
    return out


def _treasure_json(state: RoundState, viewer: Viewer, ended: bool) -> dict[str, Any] | None:
    """The indicator's position is public (it lies face down in the wall); its tile only for a
    seat that has seen it, and for everyone after the round."""
    treasure = state.treasure
    if treasure is None:
        return None
    out: dict[str, Any] = {"position": treasure.position, "version": treasure.version}
    sees = viewer is not None and state.seats[viewer].treasure_seen == treasure.version
    if ended or sees:
        out["tile"] = tile_name(treasure.tile)
    return out


def _phase_json(state: RoundState, viewer: Viewer) -> dict[str, Any]:
    phase = state.phase
    if isinstance(phase, ClaimPhase):
        out: dict[str, Any] = {
            "kind": phase.kind,
            "discarder": phase.discarder,
            "tile": tile_name(phase.tile),
        }
        if viewer is not None:
            out["you_are_asked"] = viewer in phase.asked
            out["you_answered"] = phase.answers[viewer] is not None
        return out
    if isinstance(phase, ChoicePhase):
        # A secret decision of every seat (成麻 定缺): who has answered is not shown either.
        choice: dict[str, Any] = {"kind": phase.kind, "name": phase.name}
        if viewer is not None:
            choice["you_are_asked"] = viewer in phase.asked
            choice["you_answered"] = phase.answers[viewer] is not None
        return choice
    if isinstance(phase, EndedPhase):
        return {"kind": "ended"}
    return {"kind": "turn", "seat": phase.seat, "drawn": phase.drawn, "source": phase.source}


def _result_json(state: RoundState) -> dict[str, Any]:
    result = state.result
    assert result is not None
    verdict = result.verdict
    return {
        "winner": result.winner,
        "win_by": result.win_by,
        "discarder": result.discarder,
        "tile": tile_name(result.win_tile) if result.win_tile is not None else None,
        "fan": dict(verdict.fan) if verdict is not None else {},
        "total": verdict.total if verdict is not None else 0,
        "nets": list(result.nets),
        "transfers": encode("transfers", result.transfers),
        "next_dealer": result.next_dealer,
        "settlement": settlement_json(state),
        "wall": [tile_name(t) for t in state.wall],
        "salt": state.salt.hex(),
    }
