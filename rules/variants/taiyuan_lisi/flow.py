"""太原立四麻将 Taiyuan Li-Si: the round flow (spec ``taiyuan_lisi.md``).

Reads like its spec page: the four standing tiles (立牌) kept apart from the first four dealt, the
ting discard that must be one of them and is laid face down, every pong or kong leaving one
standing tile, no chow, 过碰, the automatic win of a ready player (so 过胡 cannot happen), no kong
after ting, the Changchun reserve and the dealer who stays after a drawn round only if nobody
konged. Winning and the score S are :mod:`rules.variants.taiyuan_lisi.wins`'s.

The standing tiles live in ``state.extra["standing"]``: per seat, the sorted kinds still standing.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

from rules.engine import core
from rules.engine.actions import Action, DeclareWin, Pass, Pong, SelfDrawWin
from rules.engine.events import Discarded, Event, Melded
from rules.engine.flow import Flow, TingMode, set_extra
from rules.engine.state import ClaimPhase, RoundState, TurnPhase
from rules.hand import Meld
from rules.tiles import Tile, tile_name

STANDING_COUNT = 4
"""立四: the first four tiles dealt to each player stand apart."""
NO_PONG_MARK = "guopeng:"
"""Seat mark prefix (``guopeng:<tile>``): 过碰, this seat passed on a pong of that kind."""


def standing_tiles(state: RoundState, seat: int) -> tuple[Tile, ...]:
    """The seat's standing tiles (立牌) still in hand, sorted."""
    standing: tuple[tuple[Tile, ...], ...] = state.extra["standing"]
    return standing[seat]


def _with_standing(state: RoundState, seat: int, tiles: tuple[Tile, ...]) -> RoundState:
    standing = list(state.extra["standing"])
    standing[seat] = tuple(sorted(tiles))
    return set_extra(state, standing=tuple(standing))


def _kept(standing: tuple[Tile, ...], concealed: tuple[Tile, ...]) -> tuple[Tile, ...]:
    """The standing tiles still held after a meld took tiles from ``concealed``: a meld uses the
    seat's ordinary copies of a kind first `[decision]` (a player keeps their standing tiles as long
    as they can: they are the only possible ting discards)."""
    held = Counter(concealed)
    kept = []
    for tile in standing:
        if held[tile]:
            held[tile] -= 1
            kept.append(tile)
    return tuple(kept)


def _new_meld_kind(old: tuple[Meld, ...], new: tuple[Meld, ...]) -> Tile:
    """The tile kind of the meld being made (a pong, a kong, or an added kong's fourth tile)."""
    before = Counter(t for m in old for t in m.tiles)
    after = Counter(t for m in new for t in m.tiles)
    return next(t for t in after if after[t] > before[t])


class TaiyuanLisiFlow(Flow):
    claim_priority: ClassVar[dict[str, int]] = {
        # "win > pong (and kong)": a pong and a kong of one discard never compete (four copies).
        "declare_win": 0,
        "pong": 1,
        "exposed_kong": 1,
    }
    has_chow: ClassVar[bool] = False
    ting_mode: ClassVar[TingMode] = "required"
    kong_after_ting: ClassVar[bool] = False
    """"After ting the hand is locked and no kong may be made"."""
    ting_discard_face_down: ClassVar[bool] = True
    """The ting discard is laid face down: no one may pong, kong or win on it."""
    wins_after_ting: ClassVar[bool] = True
    """"The engine wins for them automatically when a ready player's winning tile is discarded
    (subject to 截胡) or drawn" (*过胡*; :meth:`automatic_action`)."""

    # --- dealer and drawn round -----------------------------------------------------------------

    def reserve_stacks(self, kongs: int) -> int:
        """荒庄 as Changchun: 7 stacks, ``6 + k`` with k ≥ 2 kongs."""
        return 7 if kongs <= 1 else 6 + kongs

    def next_dealer(self, state: RoundState, winner: int | None) -> int:
        """Dealer wins → stays; another wins → the next seat; drawn round → the dealer stays only
        if nobody made a kong (seed item 6, refining item 50 `[decision]`)."""
        if winner == state.dealer or (winner is None and state.kongs == 0):
            return state.dealer
        return (state.dealer + 1) % 4

    # --- standing tiles (立牌) -------------------------------------------------------------------

    def after_deal(self, state: RoundState, out: list[Event]) -> RoundState:
        """Each player's first four tiles dealt stand apart."""
        standing = tuple(tuple(sorted(s.dealt[:STANDING_COUNT])) for s in state.seats)
        return set_extra(state, standing=standing)

    def discard_allowed(self, state: RoundState, seat: int, tile: Tile, *, ting: bool) -> bool:
        """A standing tile may go only as the ting discard, and the ting discard must be one
        ("听牌时必须打出这四张中的一张才能听"); an ordinary copy of that kind may go any time."""
        on_standing = standing_tiles(state, seat).count(tile)
        if ting:
            return on_standing > 0
        return state.seats[seat].concealed.count(tile) > on_standing

    def meld_allowed(
        self, state: RoundState, seat: int, melds: tuple[Meld, ...], concealed_left: int
    ) -> bool:
        """Every pong or kong leaves at least one standing tile; 过碰; and a pong must leave a
        legal discard (an ordinary tile, or a standing tile whose discard declares ting)."""
        me = state.seats[seat]
        kind = _new_meld_kind(me.melds, melds)
        is_pong = len(melds) > len(me.melds) and melds[-1].kind == "pong"
        if is_pong and f"{NO_PONG_MARK}{kind}" in me.marks:
            return False
        rest = list(me.concealed)
        for _ in range(len(me.concealed) - concealed_left):
            rest.remove(kind)
        left = _kept(standing_tiles(state, seat), tuple(rest))
        if not left:
            return False
        if is_pong and len(left) == len(rest):
            return any(
                core.ting_waits(state, seat, tuple(_without(rest, t)), melds) for t in set(left)
            )
        return True

    def after_tiles_shown(self, state: RoundState, out: list[Event]) -> RoundState:
        """Keep the standing tiles up to date: the ting discard is one of them; a meld uses the
        ordinary copies first. (The core appends the discard or meld event just before.)"""
        event = out[-1] if out else None
        if isinstance(event, Discarded) and event.ting:
            standing = list(standing_tiles(state, event.seat))
            standing.remove(event.tile)
            return _with_standing(state, event.seat, tuple(standing))
        if isinstance(event, Melded):
            seat = event.seat
            kept = _kept(standing_tiles(state, seat), state.seats[seat].concealed)
            return _with_standing(state, seat, kept)
        return state

    def seat_view_extra(self, state: RoundState, seat: int, *, shown: bool) -> dict[str, Any]:
        """The owner sees their standing tiles as a group; the others see how many stand."""
        standing = standing_tiles(state, seat)
        if shown:
            return {"standing": [tile_name(t) for t in standing]}
        return {"standing_count": len(standing)}

    # --- 过碰 -----------------------------------------------------------------------------------

    def on_claim_answered(self, state: RoundState, phase: ClaimPhase, action: Action) -> RoundState:
        """过碰: passing on an offered pong bars a pong of that kind until the seat draws again."""
        seat = action.seat
        if phase.kind != "claims" or not isinstance(action, Pass):
            return state
        if Pong(seat=seat) not in phase.offers[seat]:
            return state
        me = state.seats[seat]
        return state.with_seat(seat, marks=me.marks | {f"{NO_PONG_MARK}{phase.tile}"})

    def after_draw(
        self, state: RoundState, seat: int, position: int, out: list[Event]
    ) -> RoundState:
        me = state.seats[seat]
        barred = {m for m in me.marks if m.startswith(NO_PONG_MARK)}
        if barred:
            return state.with_seat(seat, marks=me.marks - barred)
        return state

    # --- the automatic win ------------------------------------------------------------------------

    def automatic_action(self, state: RoundState) -> Action | None:
        """A ready player whose winning tile is discarded (or added to a kong) or drawn wins at
        once: "to spare players that mistake" (过胡). With a win in a claim window the other asked
        seats are passed for, since no claim outranks a win and only the nearest winner wins."""
        phase = state.phase
        if isinstance(phase, ClaimPhase):
            winners = [s for s in phase.asked if DeclareWin(seat=s) in phase.offers[s]]
            if not winners:
                return None
            seat = next(s for s in phase.asked if phase.answers[s] is None)
            return DeclareWin(seat=seat) if seat in winners else Pass(seat=seat)
        if isinstance(phase, TurnPhase) and phase.drawn:
            seat = phase.seat
            if state.seats[seat].ting and core.self_draw_verdict_ok(state, seat):
                return SelfDrawWin(seat=seat)
        return None

    def win_extra(self, state: RoundState, seat: int, discarder: int | None) -> dict[str, Any]:
        """The payment depends on whether the discarder had declared ting (*Scoring*)."""
        if discarder is None:
            return {}
        return {"discarder_ting": state.seats[discarder].ting}


def _without(tiles: list[Tile], tile: Tile) -> list[Tile]:
    rest = list(tiles)
    rest.remove(tile)
    return rest
