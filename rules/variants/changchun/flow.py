"""长春麻将 Changchun: the round flow (spec ``changchun.md``; the reference variant).

Reads like its spec page: dealer, play and claim priority, ting, the special kongs from the dealt
tiles with their adds (robbable later by a win or 抢叉), the treasure (宝牌) rolled at the first
ready player's next turn, 对宝 / 摸宝 / 换宝, the 手把一 rule and the drawn-round reserve. Winning
conditions, fan and payments are :mod:`rules.variants.changchun.wins`'s.
"""

from __future__ import annotations

from typing import ClassVar

from rules.engine import core
from rules.engine.actions import (
    Action,
    AddToSpecialKong,
    Pass,
    Pong,
    SelfDrawWin,
    SpecialKong,
)
from rules.engine.events import Event, TreasurePlaced, TreasureSeen
from rules.engine.flow import Flow, TingMode
from rules.engine.state import RoundState, Treasure, TurnPhase, replace
from rules.hand import SPECIAL_KONGS, Meld, WinContext
from rules.hand import special_kong_family as family_of
from rules.tiles import Tile
from rules.wall import stack_top_from_far

DUIBAO_MARK = "duibao_chance"
"""Seat mark: this seat has just seen a (new) treasure that is one of its winning tiles."""
MAX_TREASURE_REROLLS = 16
"""换宝 rerolls in a row before giving up (only if every stack left shows a dead treasure)."""


class ChangchunFlow(Flow):
    claim_priority: ClassVar[dict[str, int]] = {
        # "胡牌>碰牌>杠牌>吃牌" (changchun.md, *Play*)
        "declare_win": 0,
        "pong": 1,
        "exposed_kong": 2,
        "chow": 3,
    }
    has_chow: ClassVar[bool] = True
    ting_mode: ClassVar[TingMode] = "optional"
    kong_after_ting: ClassVar[bool] = True

    # --- dealer and drawn round -----------------------------------------------------------------

    def reserve_stacks(self, kongs: int) -> int:
        """ "1杠留7墩，2杠留8墩": 7 stacks for k ≤ 1 kongs, 6 + k for k ≥ 2. A kong counts here
        when it drew a replacement tile (the reserve keeps those tiles): the three-tile special
        kongs draw none and do not count `[decision]`."""
        return 7 if kongs <= 1 else 6 + kongs

    # --- the 手把一 rule ------------------------------------------------------------------------

    def meld_allowed(
        self, state: RoundState, seat: int, melds: tuple[Meld, ...], concealed_left: int
    ) -> bool:
        """Four sets laid down leave one tile in hand (手把一): such a hand wins only as 飘胡, so a
        meld that makes a fourth set is offered only if no set is a chow (changchun.md, *Play*)."""
        return len(melds) < 4 or all(m.kind != "chow" for m in melds)

    # --- special kongs (特殊杠) -----------------------------------------------------------------

    def extra_turn_actions(self, state: RoundState, seat: int) -> list[Action]:
        phase = state.phase
        if not isinstance(phase, TurnPhase) or not phase.drawn:
            return []
        return self._special_kongs(state, seat) + self._special_adds(state, seat)

    def _special_kongs(self, state: RoundState, seat: int) -> list[Action]:
        """Declared on the first turn, before the first discard, complete among the **dealt**
        tiles still held: a later draw never completes one."""
        me = state.seats[seat]
        if not me.first_turn or me.ting:
            return []
        held = me.counts()
        dealt = [0] * 34
        for t in me.dealt:
            dealt[t] += 1
        declared = {m.name for m in me.melds if m.kind == "special_kong"}
        actions: list[Action] = []
        for name, tiles in SPECIAL_KONGS.items():
            if name in declared or not all(min(held[t], dealt[t]) for t in tiles):
                continue
            meld = Meld("special_kong", tiles, name=name)
            if name == "xuanfeng" and state.wall_left < 1:
                continue
            if self.meld_allowed(state, seat, (*me.melds, meld), len(me.concealed) - len(tiles)):
                actions.append(SpecialKong(seat=seat, name=name))
        return actions

    def _special_adds(self, state: RoundState, seat: int) -> list[Action]:
        """补 to a special kong: any held tile of the family; not on the dealer's very first turn
        ("庄家第一手不允许补杠"); a ready hand only with the drawn tile, keeping its waits."""
        me = state.seats[seat]
        if not me.melds:  # no special kong to add to (asked on every turn: answered at once)
            return []
        if state.wall_left < 1 or (seat == state.dealer and me.first_turn):
            return []
        names = {m.name for m in me.melds if m.kind == "special_kong"}
        if not names:
            return []
        actions: list[Action] = []
        for tile in sorted(set(me.concealed)):
            if family_of(tile) not in names:
                continue
            if me.ting:
                melds = self._melds_after_add(me.melds, tile)
                if tile != me.drawn or not core.keeps_waits(state, seat, me.without(tile), melds):
                    continue
            actions.append(AddToSpecialKong(seat=seat, tile=tile))
        return actions

    @staticmethod
    def _melds_after_add(melds: tuple[Meld, ...], tile: Tile) -> tuple[Meld, ...]:
        name = family_of(tile)
        return tuple(
            replace(m, tiles=(*m.tiles, tile)) if m.kind == "special_kong" and m.name == name else m
            for m in melds
        )

    def apply_action(self, state: RoundState, action: Action, out: list[Event]) -> RoundState:
        if isinstance(action, SpecialKong):
            return self._declare_special_kong(state, action, out)
        if isinstance(action, AddToSpecialKong):
            return self._add_to_special_kong(state, action, out)
        return super().apply_action(state, action, out)

    def _declare_special_kong(
        self, state: RoundState, action: SpecialKong, out: list[Event]
    ) -> RoundState:
        """旋风杠 draws one replacement; 喜/幺/九 draw none (changchun.md, *Special kongs*)."""
        seat = action.seat
        name = next(n for n in SPECIAL_KONGS if n == action.name)
        tiles = SPECIAL_KONGS[name]
        meld = Meld("special_kong", tiles, name=name)
        rest = state.seats[seat].without(*tiles)
        state = core.lay_meld(state, seat, meld, rest, action, out)
        state = core.pay_kong(state, seat, meld)
        if name == "xuanfeng":
            return core.draw_replacement(state, seat, out)
        return state

    def _add_to_special_kong(
        self, state: RoundState, action: AddToSpecialKong, out: list[Event]
    ) -> RoundState:
        """First-turn adds go in at once; a later add is a 补杠 the others may rob (抢胡, 抢叉)."""
        if state.seats[action.seat].first_turn:
            return self.complete_add(state, action, out)
        window = core.open_claims(
            state,
            kind="rob_kong",
            discarder=action.seat,
            tile=action.tile,
            pending=action,
            out=out,
        )
        return window if window is not None else self.complete_add(state, action, out)

    def complete_add(self, state: RoundState, action: Action, out: list[Event]) -> RoundState:
        """Each add counts one more exposed kong for payment and draws a replacement."""
        assert isinstance(action, AddToSpecialKong)
        seat, tile = action.seat, action.tile
        me = state.seats[seat]
        name = family_of(tile)
        index = next(i for i, m in enumerate(me.melds) if m.name == name)
        before = me.melds[index]
        meld = replace(before, tiles=(*before.tiles, tile), added=True)
        state = core.lay_meld(state, seat, meld, me.without(tile), action, out, replace_index=index)
        state = core.pay_kong(state, seat, meld, before=before)
        return core.draw_replacement(state, seat, out)

    def extra_rob_actions(
        self, state: RoundState, seat: int, konger: int, tile: Tile, pending: Action | None
    ) -> list[Action]:
        """抢叉: pong the tile added to a special kong (not an ordinary added kong)."""
        me = state.seats[seat]
        if not isinstance(pending, AddToSpecialKong) or me.ting or me.counts()[tile] < 2:
            return []
        meld = Meld("pong", (tile,) * 3, from_seat=konger)
        if not self.meld_allowed(state, seat, (*me.melds, meld), len(me.concealed) - 2):
            return []
        return [Pong(seat=seat)]

    # --- treasure (宝牌) ------------------------------------------------------------------------

    def before_draw(self, state: RoundState, seat: int) -> bool:
        """Only a ready seat sees a treasure (or may 对宝) before its draw."""
        return state.seats[seat].ting

    def on_turn_start(self, state: RoundState, seat: int, out: list[Event]) -> RoundState:
        """The first ready player's next turn rolls the treasure; each ready player sees it (or a
        new one after 换宝) at the start of their turn, before drawing ("下一次摸牌时直接看宝")."""
        if not state.seats[seat].ting:
            return state
        if state.treasure is None and state.first_ting == seat:
            state = self._place_treasure(state, out, change=False)
        return self._see_treasure(state, seat, out, duibao_chance=True)

    @staticmethod
    def _see_treasure(
        state: RoundState, seat: int, out: list[Event], *, duibao_chance: bool
    ) -> RoundState:
        """A ready seat looks at a treasure it has not seen; at the start of a turn, a treasure
        that is one of its winning tiles opens the 对宝 choice."""
        me = state.seats[seat]
        treasure = state.treasure
        if not me.ting or treasure is None or me.treasure_seen == treasure.version:
            return state
        marks = me.marks
        if duibao_chance and treasure.tile in me.waits:
            marks = marks | {DUIBAO_MARK}
        state = state.with_seat(seat, treasure_seen=treasure.version, marks=marks)
        out.append(TreasureSeen(seat=seat, tile=treasure.tile, version=treasure.version))
        return state

    def _place_treasure(self, state: RoundState, out: list[Event], *, change: bool) -> RoundState:
        """Roll two dice; count that many stacks from the far end (a lone tile is not a stack);
        the top tile of that stack is the indicator, left in the wall face down. Rerolled while
        three of its kind are already visible."""
        old = state.treasure
        for _ in range(MAX_TREASURE_REROLLS):
            state, dice = core.roll_dice(state, "treasure", out)
            position = stack_top_from_far(len(state.wall), state.live, state.far, sum(dice))
            if position is None:
                return state
            history = (*old.history, (old.tile, old.position)) if old else ()
            treasure = Treasure(
                tile=state.wall[position],
                position=position,
                version=old.version + 1 if old else 1,
                history=history,
            )
            state = replace(state, treasure=treasure)
            out.append(
                TreasurePlaced(
                    position=position,
                    stacks_from_far=sum(dice),
                    version=treasure.version,
                    change=change or old is not None,
                )
            )
            if self._visible(state, treasure.tile) < 3:
                return state
            old, change = treasure, True
        return state

    @staticmethod
    def _visible(state: RoundState, tile: Tile) -> int:
        """Copies of ``tile`` discarded (unclaimed, face up) or in exposed melds."""
        seen = 0
        for s in state.seats:
            seen += sum(
                1 for d in s.discards if d.tile == tile and not d.claimed and not d.face_down
            )
            seen += sum(m.tiles.count(tile) for m in s.melds if not m.concealed)
        return seen

    def after_draw(
        self, state: RoundState, seat: int, position: int, out: list[Event]
    ) -> RoundState:
        """A ready seat whose turn began with a claim (a kong) sees the treasure at this draw
        ("下一次摸牌时直接看宝"; no 对宝 then: it has drawn). 换宝 when the indicator itself leaves
        the wall `[decision]` (changchun.md); the new one is seen from the next turn."""
        me = state.seats[seat]
        if DUIBAO_MARK in me.marks:
            state = state.with_seat(seat, marks=me.marks - {DUIBAO_MARK})
        state = self._see_treasure(state, seat, out, duibao_chance=False)
        if state.treasure is not None and position == state.treasure.position:
            return self._place_treasure(state, out, change=True)
        return state

    def after_tiles_shown(self, state: RoundState, out: list[Event]) -> RoundState:
        """换宝 when three copies of the treasure's kind are visible (the treasure is dead)."""
        if state.treasure is not None and self._visible(state, state.treasure.tile) >= 3:
            return self._place_treasure(state, out, change=True)
        return state

    def predraw_actions(self, state: RoundState, seat: int) -> list[Action]:
        """对宝: at first sight of a treasure that is one of their winning tiles, a ready player
        may win at once, without drawing (or pass and draw)."""
        if DUIBAO_MARK not in state.seats[seat].marks:
            return []
        if not core.self_draw_verdict_ok(state, seat):
            return []
        return [SelfDrawWin(seat=seat), Pass(seat=seat)]

    def self_draw_context(self, state: RoundState, seat: int) -> WinContext | None:
        """对宝 before the draw; 摸宝 when a ready player draws the treasure's kind."""
        me = state.seats[seat]
        phase = state.phase
        treasure = state.treasure
        sees = treasure is not None and me.ting and me.treasure_seen == treasure.version
        if isinstance(phase, TurnPhase) and not phase.drawn:
            if not sees or DUIBAO_MARK not in me.marks:
                return None
            assert treasure is not None
            return core.win_context(
                state,
                seat,
                tile=treasure.tile,
                win_by="self_draw",
                concealed=tuple(sorted((*me.concealed, treasure.tile))),
                extra={"duibao": True},
            )
        ctx = super().self_draw_context(state, seat)
        if ctx is not None and sees and treasure is not None and me.drawn == treasure.tile:
            return replace(ctx, treasure_win=True)
        return ctx
