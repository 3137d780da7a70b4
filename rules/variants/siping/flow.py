"""四平麻将 Siping: the round flow (spec ``siping.md``).

Reads like its spec page: the deal with the second roll and 跳牌; 报听 offered only where a wait
needs it (夹, 飘, or a closed hand under 立听); 抻 asked before the draw of the first turn after a
ting with a 夹 reading, a player who 抻s winning by self-draw only; the end of the wall (分张): the
last four tiles drawn one each, no discard; the room options 风杠 / 中发白杠 as special kongs.
Winning conditions, 三家闭 / 闭门, 四归一, 杠开 and ``piao_only`` are the hand rules'
(:mod:`rules.variants.siping.wins`).
"""

from __future__ import annotations

from typing import Any, ClassVar

from rules.engine import core
from rules.engine.actions import Action, AddToSpecialKong, Chen, Pass, SpecialKong
from rules.engine.events import Event
from rules.engine.flow import Flow, TingMode, set_extra
from rules.engine.state import RoundState, TurnPhase, replace
from rules.hand import SPECIAL_KONGS, Meld, SpecialKongName
from rules.hand import special_kong_family as family_of
from rules.hand_rules import readings_of
from rules.tiles import DRAGONS, Tile
from rules.wall import SEATS, BreakPoint, WallSetup, deal_order

FENZHANG = "fenzhang"
"""``state.extra`` flag: 分张, the last four tiles are drawn one each."""
FENZHANG_TILES = 4
CHEN_ASKED = "chen_asked"
"""Seat mark: the 抻 question was asked."""
CHEN = "chen"
"""Seat mark: the player chose 抻 (self-draw only, scores ``chen``)."""
OPTION_KONGS: dict[str, SpecialKongName] = {"fengang": "xuanfeng", "zfbgang": "xi"}
"""Room option → special kong: 风杠 (东南西北), 中发白杠."""


def has_jia_reading(concealed: tuple[Tile, ...], melds: tuple[Meld, ...], tile: Tile) -> bool:
    """``tile`` can be read as the middle of a chow (夹) in a win of this 3n+1 hand."""
    counts = [0] * 34
    for t in concealed:
        counts[t] += 1
    counts[tile] += 1
    return any(r.wait == "closed" for r in readings_of(counts, tile, melds))


def has_piao_reading(concealed: tuple[Tile, ...], melds: tuple[Meld, ...], tile: Tile) -> bool:
    """A win on ``tile`` can be read as 飘 (every set a pong or kong)."""
    if any(m.kind == "chow" for m in melds):
        return False
    counts = [0] * 34
    for t in concealed:
        counts[t] += 1
    counts[tile] += 1
    return any(not r.chows for r in readings_of(counts, tile, melds))


class SipingFlow(Flow):
    claim_priority: ClassVar[dict[str, int]] = {
        # win > kong > pong > chow (*Play*)
        "declare_win": 0,
        "exposed_kong": 1,
        "pong": 2,
        "chow": 3,
    }
    has_chow: ClassVar[bool] = True
    ting_mode: ClassVar[TingMode] = "optional"
    kong_after_ting: ClassVar[bool] = True
    default_reserve_stacks: ClassVar[int] = 0

    def shape_filters(self, state: RoundState) -> bool:
        """With ``chen_zfb`` 中发白 one each is a set: the engine must ask the hand rules."""
        return not state.options.get("chen_zfb", False)

    # --- the deal: second roll and 跳牌 -----------------------------------------------------------

    def deal(self, setup: WallSetup, dealer: int) -> tuple[tuple[tuple[Tile, ...], ...], int]:
        """Two stacks (4 tiles) each, three rounds; then the dealer takes the top tiles of the
        first and third stacks (跳牌) and the others one each: the rest of the first stack and
        the second stack, in turn `[decision]`. Live drawing goes on at the third stack's bottom."""
        wall = setup.wall
        hands: list[list[Tile]] = [[] for _ in range(SEATS)]
        pos = 0
        for seat, count in deal_order(dealer, self.hand_size)[: 3 * SEATS]:
            hands[seat].extend(wall[pos : pos + count])
            pos += count
        first, third = pos, pos + 4
        hands[dealer] += [wall[first], wall[third]]
        for step in (1, 2, 3):
            hands[(dealer + step) % SEATS].append(wall[first + step])
        return tuple(tuple(h) for h in hands), third + 1

    def after_deal(self, state: RoundState, out: list[Event]) -> RoundState:
        """The seat the dealer's dice picked rolls again; drawing starts at stack (sum of both
        rolls + 1) from that seat's right (recorded for the UI; the shuffle decided the tiles)."""
        state, dice = core.roll_dice(state, "second_roll", out)
        stack = sum(state.dice) + sum(dice) + 1
        return replace(state, break_point=BreakPoint(seat=state.break_point.seat, stack=stack))

    # --- the wall's end: 分张 ---------------------------------------------------------------------

    def live_left(self, state: RoundState) -> int:
        if state.extra.get(FENZHANG):
            return state.wall_left
        return max(0, state.wall_left - FENZHANG_TILES)

    def end_of_wall(self, state: RoundState, out: list[Event]) -> RoundState:
        """分张: from the player about to draw, each draws one of the last four tiles and may win
        by self-draw; no one discards ("不打出去", `[decision]`). Then the round is drawn."""
        if state.extra.get(FENZHANG) or state.wall_left <= 0:
            return core.end_drawn(state, out)
        phase = state.phase
        assert isinstance(phase, TurnPhase)
        return core.draw_live(set_extra(state, **{FENZHANG: True}), phase.seat, out)

    def table_view_extra(self, state: RoundState) -> dict[str, Any]:
        """Everyone is told when 分张 has begun."""
        return {"fenzhang": bool(state.extra.get(FENZHANG))}

    def automatic_action(self, state: RoundState) -> Action | None:
        """In 分张 a player who cannot win passes the turn on at once."""
        phase = state.phase
        if not state.extra.get(FENZHANG) or not isinstance(phase, TurnPhase) or not phase.drawn:
            return None
        if core.self_draw_verdict_ok(state, phase.seat):
            return None
        return Pass(seat=phase.seat)

    # --- what is offered ------------------------------------------------------------------------

    def meld_allowed(
        self, state: RoundState, seat: int, melds: tuple[Meld, ...], concealed_left: int
    ) -> bool:
        """No meld in 分张; no new kong once only the four 分张 tiles would be left for its
        replacement ("the last single tile on the far end is never drawn as a replacement",
        `[decision]`: the 分张 tiles are never replacements)."""
        if state.extra.get(FENZHANG):
            return False
        kongs = sum(1 for m in melds if m.is_kong)
        before = sum(1 for m in state.seats[seat].melds if m.is_kong)
        if kongs > before:
            return state.wall_left > FENZHANG_TILES
        return True

    def discard_allowed(self, state: RoundState, seat: int, tile: Tile, *, ting: bool) -> bool:
        """Nobody discards in 分张; 报听 is offered only where a wait needs it."""
        if state.extra.get(FENZHANG):
            return False
        if not ting:
            return True
        return self._ting_needed(state, seat, tile)

    def _ting_needed(self, state: RoundState, seat: int, tile: Tile) -> bool:
        """报听 is required only before a win scoring ``jia`` or ``piao`` (or from a closed hand
        with 立听), never with ``no_baoting``; declaring it elsewhere would only lock the hand, so
        the engine offers it only where some wait can be read as 夹 or 飘 `[decision]`."""
        if state.options.get("no_baoting", False):
            return False
        me = state.seats[seat]
        rest = me.without(tile)
        waits = core.ting_waits(state, seat, rest, me.melds)
        if not waits:
            return False
        rules_ = state.variant.rules
        if state.options.get("liting", False) and not any(rules_.meld_opens(m) for m in me.melds):
            return True
        return any(
            has_jia_reading(rest, me.melds, w)
            or has_piao_reading(rest, me.melds, w)
            or self._zfb_wait(state, rest, w)
            for w in waits
        )

    @staticmethod
    def _zfb_wait(state: RoundState, rest: tuple[Tile, ...], wait: Tile) -> bool:
        """抻中发白 (option ``chen_zfb``): waiting on the third dragon with the other two held;
        such a win needs the declaration (and is self-draw only, scored ``chen``)."""
        if not state.options.get("chen_zfb", False) or wait not in DRAGONS:
            return False
        return all(d in rest for d in DRAGONS if d != wait)

    def context_extra(self, state: RoundState, seat: int) -> dict[str, Any]:
        """The round and seat winds (泛风, ``piao_only``) and 抻."""
        extra: dict[str, Any] = {
            "round_wind": state.round_wind,
            "seat_wind": state.seat_wind(seat),
        }
        if CHEN in state.seats[seat].marks:
            extra["chen"] = True
        return extra

    def may_win_on_discard(self, state: RoundState, seat: int, tile: Tile) -> bool:
        """A player who chose 抻 wins by self-draw only."""
        return CHEN not in state.seats[seat].marks

    # --- 抻 --------------------------------------------------------------------------------------

    def before_draw(self, state: RoundState, seat: int) -> bool:
        """抻 is asked only of a ready seat."""
        return state.seats[seat].ting

    def predraw_actions(self, state: RoundState, seat: int) -> list[Action]:
        """抻 is asked on the first turn after ting, before the draw, when a winning tile can be
        read as 夹 (a 独听 夹, or a compound wait such as 67789 on 5/8)."""
        me = state.seats[seat]
        if not me.ting or CHEN_ASKED in me.marks or self.live_left(state) <= 0:
            return []
        if not any(has_jia_reading(me.concealed, me.melds, w) for w in me.waits):
            return []
        return [Chen(seat=seat, yes=True), Chen(seat=seat, yes=False)]

    def apply_action(self, state: RoundState, action: Action, out: list[Event]) -> RoundState:
        if isinstance(action, Chen):
            me = state.seats[action.seat]
            marks = me.marks | ({CHEN_ASKED, CHEN} if action.yes else {CHEN_ASKED})
            state = state.with_seat(action.seat, marks=marks)
            return core.draw_live(state, action.seat, out)
        if isinstance(action, Pass):
            # 分张: the player keeps the tile and the next one draws.
            return core.start_turn(state, (action.seat + 1) % SEATS, out)
        if isinstance(action, SpecialKong):
            return self._declare_special_kong(state, action, out)
        if isinstance(action, AddToSpecialKong):
            return self.complete_add(state, action, out)
        return super().apply_action(state, action, out)

    # --- 风杠 and 中发白杠 (options) -----------------------------------------------------------

    def extra_turn_actions(self, state: RoundState, seat: int) -> list[Action]:
        phase = state.phase
        if not isinstance(phase, TurnPhase) or not phase.drawn:
            return []
        if state.extra.get(FENZHANG):
            return [Pass(seat=seat)]
        me = state.seats[seat]
        if me.ting or state.wall_left <= FENZHANG_TILES:
            return []
        held = me.counts()
        laid = {m.name for m in me.melds if m.kind == "special_kong"}
        actions: list[Action] = []
        for option, name in OPTION_KONGS.items():
            if not state.options.get(option, False):
                continue
            if name not in laid and all(held[t] for t in SPECIAL_KONGS[name]):
                actions.append(SpecialKong(seat=seat, name=name))
            elif name in laid:
                actions += [
                    AddToSpecialKong(seat=seat, tile=t)
                    for t in SPECIAL_KONGS[name]
                    if held[t] and family_of(t) == name
                ]
        return actions

    def _declare_special_kong(
        self, state: RoundState, action: SpecialKong, out: list[Event]
    ) -> RoundState:
        """风杠 (four winds) is laid like a concealed kong and draws a replacement; 中发白杠 (three
        tiles) draws none, as Changchun's 喜杠 `[decision]`. Neither opens the hand."""
        seat = action.seat
        name = next(n for n in SPECIAL_KONGS if n == action.name)
        tiles = SPECIAL_KONGS[name]
        meld = Meld("special_kong", tiles, name=name)
        state = core.lay_meld(state, seat, meld, state.seats[seat].without(*tiles), action, out)
        state = core.pay_kong(state, seat, meld)
        if len(tiles) == 4:
            return core.draw_replacement(state, seat, out)
        return state

    def complete_add(self, state: RoundState, action: Action, out: list[Event]) -> RoundState:
        """Each further wind (or dragon) added pays as an added (exposed) kong and draws a
        replacement; it cannot be robbed `[decision]`: it is no pong being made a kong."""
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
