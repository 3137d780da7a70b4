"""哈尔滨麻将 Harbin: the round flow (spec ``harbin.md``).

Reads like its spec page: 112 tiles (no winds, 中 the only honour); the treasure (宝牌) is the last
tile of the wall, taken aside face down at the deal and seen by a player only once they declare
ting; it is wild only when a ready player self-draws its kind (摸宝); 换宝 when three of its kind
are visible, the old one going into the dealer's discard row; 吃听 (choose ting, then the chow),
ranking above pong; no chow, pong or kong that leaves fewer than four tiles in hand; the winner
deals next; the last four tiles dealt one at a time with automatic discards nobody may claim.
Ting conditions, wins and payments are :mod:`rules.variants.harbin.wins`'s.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rules.engine import core
from rules.engine.actions import Action, ChowTing, Discard
from rules.engine.events import (
    Discarded,
    Event,
    TreasurePlaced,
    TreasureRetired,
    TreasureSeen,
)
from rules.engine.flow import Flow, TingMode, set_extra
from rules.engine.state import ClaimPhase, DiscardRecord, RoundState, Treasure, TurnPhase, replace
from rules.hand import Meld, WinContext
from rules.tiles import RED, SUITED, Tile

LAST_TILES = "last_tiles"
"""``state.extra`` flag: the end of the wall, the last four tiles are being dealt one by one."""
CHOW_TING_MARK = "chow_ting"
"""Seat mark: this seat made a 吃听 and must now declare ting with its discard."""
LAST_TILES_COUNT = 4
MAX_CONCEALED_SETS = 3
"""At most three melds: four tiles must stay in hand after the discard (13 − 3 × 3)."""


def visible_copies(state: RoundState, tile: Tile) -> int:
    """Copies of ``tile`` everyone can see: in the discard rows and in exposed melds."""
    seen = 0
    for s in state.seats:
        seen += sum(1 for d in s.discards if d.tile == tile and not d.claimed and not d.face_down)
        seen += sum(m.tiles.count(tile) for m in s.melds if not m.concealed)
    return seen


class HarbinFlow(Flow):
    tile_kinds: ClassVar[tuple[Tile, ...]] = (*SUITED, RED)
    stacks_per_seat: ClassVar[int] = 14
    claim_priority: ClassVar[dict[str, int]] = {
        # win > kong > chow-ting > pong > chow (*Play*)
        "declare_win": 0,
        "exposed_kong": 1,
        "chow_ting": 2,
        "pong": 3,
        "chow": 4,
    }
    has_chow: ClassVar[bool] = True
    ting_mode: ClassVar[TingMode] = "optional"
    kong_after_ting: ClassVar[bool] = True
    default_reserve_stacks: ClassVar[int] = 0
    deal_passes_in_seat_order: ClassVar[bool] = False
    """The winner deals next (*Dealer*): the deal jumps seats, there is no wind round."""

    # --- dealer ---------------------------------------------------------------------------------

    def next_dealer(self, state: RoundState, winner: int | None) -> int:
        """Dealer wins or a drawn round → the dealer stays (连庄); else **the winner** deals."""
        return state.dealer if winner is None else winner

    # --- the wall's end: the last four tiles ------------------------------------------------------

    def live_left(self, state: RoundState) -> int:
        """Normal draws stop when four live tiles remain (the treasure, held aside, not counted);
        then each of those is dealt in turn."""
        if state.extra.get(LAST_TILES):
            return state.wall_left
        return max(0, state.wall_left - LAST_TILES_COUNT)

    def end_of_wall(self, state: RoundState, out: list[Event]) -> RoundState:
        """The last tiles (fewer after kongs) are dealt one at a time from the player about to
        draw; with none left the round is drawn at once (*Drawn round*)."""
        if state.extra.get(LAST_TILES) or state.wall_left <= 0:
            return core.end_drawn(state, out)
        phase = state.phase
        assert isinstance(phase, TurnPhase)
        return core.draw_live(set_extra(state, **{LAST_TILES: True}), phase.seat, out)

    def table_view_extra(self, state: RoundState) -> dict[str, Any]:
        """Everyone is told when the last tiles are being dealt."""
        return {"last_tiles": bool(state.extra.get(LAST_TILES))}

    def claims_open(self, state: RoundState, discarder: int, tile: Tile) -> bool:
        """The automatic discards of the last tiles: "no one may win on it" (nor claim it)."""
        return not state.extra.get(LAST_TILES)

    def automatic_action(self, state: RoundState) -> Action | None:
        """In the last tiles a drawn tile is discarded for the player unless they can win on it."""
        phase = state.phase
        if not state.extra.get(LAST_TILES) or not isinstance(phase, TurnPhase) or not phase.drawn:
            return None
        seat = phase.seat
        me = state.seats[seat]
        if me.drawn is None or (me.ting and core.self_draw_verdict_ok(state, seat)):
            return None
        return Discard(seat=seat, tile=me.drawn)

    # --- what is offered ------------------------------------------------------------------------

    def meld_allowed(
        self, state: RoundState, seat: int, melds: tuple[Meld, ...], concealed_left: int
    ) -> bool:
        """No meld that would leave fewer than four tiles in hand after the discard (ting
        condition 6), none in the last tiles, and none between a 吃听 and its ting discard."""
        if state.extra.get(LAST_TILES) or CHOW_TING_MARK in state.seats[seat].marks:
            return False
        return len(melds) <= MAX_CONCEALED_SETS

    def discard_allowed(self, state: RoundState, seat: int, tile: Tile, *, ting: bool) -> bool:
        """After 吃听 the discard must declare ting; in the last tiles only the drawn tile goes."""
        me = state.seats[seat]
        if state.extra.get(LAST_TILES):
            return not ting and tile == me.drawn
        return ting or CHOW_TING_MARK not in me.marks

    def extra_claim_actions(
        self, state: RoundState, seat: int, discarder: int, tile: Tile
    ) -> list[Action]:
        """吃听: a chow from the previous seat after which some discard declares a legal ting."""
        me = state.seats[seat]
        if me.ting or tile >= len(SUITED) or seat != (discarder + 1) % 4:
            return []
        counts = me.counts()
        rank = tile % 9
        offers: list[Action] = []
        for low in range(max(0, rank - 2), min(rank, 6) + 1):
            run = (tile - rank + low, tile - rank + low + 1, tile - rank + low + 2)
            others = [t for t in run if t != tile]
            if not all(counts[t] for t in others):
                continue
            melds = (*me.melds, Meld("chow", run, from_seat=discarder))
            rest = me.without(*others)
            if self.meld_allowed(state, seat, melds, len(rest)) and self._can_ting(
                state, seat, rest, melds
            ):
                offers.append(ChowTing(seat=seat, tiles=run))
        return offers

    @staticmethod
    def _can_ting(
        state: RoundState, seat: int, rest: tuple[Tile, ...], melds: tuple[Meld, ...]
    ) -> bool:
        counts = [0] * 34
        for t in rest:
            counts[t] += 1
        for tile in core.ting_discard_candidates(counts):
            after = list(rest)
            after.remove(tile)
            if core.ting_waits(state, seat, tuple(after), melds):
                return True
        return False

    def take_discard(
        self, state: RoundState, phase: ClaimPhase, claim: Action, out: list[Event]
    ) -> RoundState:
        """吃听 won the window: lay the chow; the next discard must declare ting."""
        if not isinstance(claim, ChowTing):
            return super().take_discard(state, phase, claim, out)
        seat = claim.seat
        me = state.seats[seat]
        others = list(claim.tiles)
        others.remove(phase.tile)
        meld = Meld("chow", claim.tiles, from_seat=phase.discarder)
        state = core.lay_meld(state, seat, meld, me.without(*others), claim, out)
        state = state.with_seat(seat, marks=state.seats[seat].marks | {CHOW_TING_MARK})
        return replace(state, phase=TurnPhase(seat=seat, drawn=True, source="claim"))

    # --- the treasure (宝牌) ----------------------------------------------------------------------

    def after_deal(self, state: RoundState, out: list[Event]) -> RoundState:
        """After the deal the last tile of the wall is the treasure, face down."""
        return self._take_treasure(state, out, old=None)

    def tiles_aside(self, state: RoundState) -> tuple[Tile, ...]:
        return (state.treasure.tile,) if state.treasure is not None else ()

    def _take_treasure(
        self, state: RoundState, out: list[Event], old: Treasure | None
    ) -> RoundState:
        """The wall's last tile leaves the wall face down as the treasure (none if the wall is
        empty). Replacement tiles then come from before it: it is never drawn `[decision]`."""
        if state.wall_left <= 0:
            return replace(state, treasure=None)
        position = len(state.wall) - 1 - state.far
        treasure = Treasure(
            tile=state.wall[position],
            position=position,
            version=old.version + 1 if old else 1,
            history=(*old.history, (old.tile, old.position)) if old else (),
        )
        state = replace(state, treasure=treasure, far=state.far + 1)
        out.append(
            TreasurePlaced(
                position=position, stacks_from_far=0, version=treasure.version, change=bool(old)
            )
        )
        return state

    def after_tiles_shown(self, state: RoundState, out: list[Event]) -> RoundState:
        """换宝 while three of the treasure's kind are visible; a ting discard shows the player
        the treasure; a discard ends a 吃听. (The core appends the discard or meld just before.)"""
        event = out[-1] if out else None
        discard = event if isinstance(event, Discarded) else None
        if discard is not None and CHOW_TING_MARK in state.seats[discard.seat].marks:
            me = state.seats[discard.seat]
            state = state.with_seat(discard.seat, marks=me.marks - {CHOW_TING_MARK})
        while state.treasure is not None and visible_copies(state, state.treasure.tile) >= 3:
            state = self._change_treasure(state, out, discard)
        if discard is not None and discard.ting:
            state = self._show_treasure(state, discard.seat, out)
        return state

    def _change_treasure(
        self, state: RoundState, out: list[Event], discard: Discarded | None
    ) -> RoundState:
        """换宝: the old treasure goes face up into the dealer's discard row, the new last tile of
        the wall becomes the treasure, and every ready player sees it."""
        old = state.treasure
        assert old is not None
        dealer = state.dealer
        rows = list(state.seats[dealer].discards)
        record = DiscardRecord(old.tile)
        if discard is not None and discard.seat == dealer:
            # The dealer's own discard stays last in the row: it may still be claimed.
            rows.insert(len(rows) - 1, record)
        else:
            rows.append(record)
        state = state.with_seat(dealer, discards=tuple(rows))
        out.append(TreasureRetired(seat=dealer, tile=old.tile, version=old.version))
        state = self._take_treasure(state, out, old=old)
        for seat, me in enumerate(state.seats):
            if me.ting:
                state = self._show_treasure(state, seat, out)
        return state

    @staticmethod
    def _show_treasure(state: RoundState, seat: int, out: list[Event]) -> RoundState:
        """A ready player sees the treasure in force (only they are sent it)."""
        treasure = state.treasure
        if treasure is None or state.seats[seat].treasure_seen == treasure.version:
            return state
        out.append(TreasureSeen(seat=seat, tile=treasure.tile, version=treasure.version))
        return state.with_seat(seat, treasure_seen=treasure.version)

    def self_draw_context(self, state: RoundState, seat: int) -> WinContext | None:
        """摸宝: a ready player's self-drawn tile of the treasure's kind is wild (it may also be
        read as itself; the hand rules take the best reading)."""
        ctx = super().self_draw_context(state, seat)
        me = state.seats[seat]
        treasure = state.treasure
        if (
            ctx is not None
            and treasure is not None
            and me.ting
            and me.treasure_seen == treasure.version
            and me.drawn == treasure.tile
        ):
            return replace(ctx, treasure_win=True)
        return ctx
