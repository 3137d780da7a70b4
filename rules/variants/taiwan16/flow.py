"""台湾十六张 Taiwan 16-tile: the round flow (spec ``taiwan16.md``).

Reads like its spec page: 144 tiles with eight flowers, 18 stacks a seat; the dealer 17 tiles, the
others 16; flowers set aside at once, face up, and replaced from the far end (补花), the dealer
first, until no flower is in hand, at the deal and after every draw; chow from the previous seat
only, win > kong > pong > chow, one winner; an added kong can be robbed (搶槓); ting is optional
and locks the hand; a drawn round when 16 tiles remain; the dealer stays on a win or a drawn round
(連莊, counted) and a match is four wind rounds (:func:`next_round`). The tai table and payments are
:mod:`rules.variants.taiwan16.wins`'s.

Round data in ``state.extra``: ``flowers`` (per seat, the flowers set aside), ``flower_draw``
(the seat whose last tile was a flower's replacement: 槓上開花 on it) and ``lianzhuang`` (n, from
the match, via :func:`rules.engine.core.new_round`).
"""

from __future__ import annotations

from typing import Any, ClassVar

from rules.engine.events import Drew, Event, FlowerShown
from rules.engine.flow import Flow, NextRound, TingMode, set_extra
from rules.engine.state import RoundState, TurnPhase, replace, with_tile
from rules.tiles import ALL_136, FLOWERS, NORTH, Tile, is_flower, tile_name

RESERVE_TILES = 16
"""流局 when 16 tiles remain in the wall `[default]` (*Play*)."""
FLOWERS_KEY = "flowers"
FLOWER_DRAW_KEY = "flower_draw"
LIANZHUANG_KEY = "lianzhuang"


def next_round(
    *, first_dealer: int, dealer: int, round_wind: Tile, lianzhuang: int, next_dealer: int
) -> NextRound:
    """連莊 and the wind rounds (*Play*): the dealer stays → the count goes up; otherwise the next
    seat deals with a count of 0, and when the deal comes back to the match's first dealer the
    round wind moves on (东→南→西→北); after 北 the match (一將) is over."""
    if next_dealer == dealer:
        return NextRound(dealer, round_wind, lianzhuang + 1)
    if next_dealer != first_dealer:
        return NextRound(next_dealer, round_wind, 0)
    if round_wind >= NORTH:
        return NextRound(next_dealer, round_wind, 0, match_over=True)
    return NextRound(next_dealer, round_wind + 1, 0)


def seat_flowers(state: RoundState, seat: int) -> tuple[Tile, ...]:
    """The flowers ``seat`` has set aside this round (public)."""
    flowers: tuple[tuple[Tile, ...], ...] = state.extra.get(FLOWERS_KEY, ((), (), (), ()))
    return flowers[seat]


class Taiwan16Flow(Flow):
    tile_kinds: ClassVar[tuple[Tile, ...]] = (*ALL_136, *FLOWERS)
    stacks_per_seat: ClassVar[int] = 18
    hand_size: ClassVar[int] = 16
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
    rob_added_kong: ClassVar[bool] = True
    default_reserve_stacks: ClassVar[int] = RESERVE_TILES // 2
    wind_rounds: ClassVar[bool] = True

    # --- the wall's end -------------------------------------------------------------------------

    def live_left(self, state: RoundState) -> int:
        """Live draws stop when exactly 16 tiles remain, whatever the far end has given."""
        return max(0, state.wall_left - RESERVE_TILES)

    def tiles_aside(self, state: RoundState) -> tuple[Tile, ...]:
        """The flowers set aside (they are in no hand and no discard row)."""
        return tuple(t for seat in range(4) for t in seat_flowers(state, seat))

    def next_round(
        self, *, first_dealer: int, dealer: int, round_wind: Tile, lianzhuang: int, next_dealer: int
    ) -> NextRound:
        """連莊 and the four wind rounds (:func:`next_round`)."""
        return next_round(
            first_dealer=first_dealer,
            dealer=dealer,
            round_wind=round_wind,
            lianzhuang=lianzhuang,
            next_dealer=next_dealer,
        )

    # --- 补花 -------------------------------------------------------------------------------------

    def after_deal(self, state: RoundState, out: list[Event]) -> RoundState:
        """补花 at the deal: the dealer first, then in turn, each until no flower is in hand."""
        state = set_extra(state, **{FLOWERS_KEY: ((), (), (), ())})
        for step in range(4):
            seat = (state.dealer + step) % 4
            me = state.seats[seat]
            flowers = [t for t in me.concealed if is_flower(t)]
            if not flowers:
                continue
            drawn = me.drawn
            kept = tuple(t for t in me.concealed if not is_flower(t))
            state = state.with_seat(seat, concealed=kept)
            for flower in flowers:
                state, tile = self._replace_flower(state, seat, flower, out)
                if drawn is not None and is_flower(drawn):
                    drawn = tile  # the dealer's 17th tile was a flower: its replacement is drawn
            state = state.with_seat(seat, drawn=drawn)
        return set_extra(state, **{FLOWER_DRAW_KEY: None})

    def after_draw(
        self, state: RoundState, seat: int, position: int, out: list[Event]
    ) -> RoundState:
        """A drawn flower is set aside and replaced from the far end, again while it is one."""
        tile = state.wall[position]
        if not is_flower(tile):
            if state.extra.get(FLOWER_DRAW_KEY) is None:
                return state
            return set_extra(state, **{FLOWER_DRAW_KEY: None})
        me = state.seats[seat]
        rest = list(me.concealed)
        rest.remove(tile)
        state = state.with_seat(seat, concealed=tuple(rest), drawn=None)
        state, _ = self._replace_flower(state, seat, tile, out)
        return set_extra(state, **{FLOWER_DRAW_KEY: seat})

    def _replace_flower(
        self, state: RoundState, seat: int, flower: Tile, out: list[Event]
    ) -> tuple[RoundState, Tile]:
        """Set ``flower`` aside for ``seat`` and draw from the far end until a non-flower comes;
        the seat's hand (without ``flower``) gets that tile as its drawn tile."""
        while True:
            flowers = list(state.extra[FLOWERS_KEY])
            flowers[seat] = (*flowers[seat], flower)
            state = set_extra(state, **{FLOWERS_KEY: tuple(flowers)})
            out.append(FlowerShown(seat=seat, tile=flower))
            position = self.far_position(state)
            tile = state.wall[position]
            state = replacement_taken(state)
            out.append(Drew(seat=seat, tile=tile, replacement=True))
            if not is_flower(tile):
                me = state.seats[seat]
                state = state.with_seat(seat, concealed=with_tile(me.concealed, tile), drawn=tile)
                return state, tile
            flower = tile

    # --- facts for the tai table ----------------------------------------------------------------

    def context_extra(self, state: RoundState, seat: int) -> dict[str, Any]:
        """Round wind, seat wind, 連莊 count and the seat's flowers (``taiwan16.md``, ``extra``)."""
        return {
            "round_wind": state.round_wind,
            "seat_wind": state.seat_wind(seat),
            LIANZHUANG_KEY: int(state.extra.get(LIANZHUANG_KEY, 0)),
            FLOWERS_KEY: list(seat_flowers(state, seat)),
        }

    def win_extra(self, state: RoundState, seat: int, discarder: int | None) -> dict[str, Any]:
        """A self-draw's situation: 海底 (the last live tile), 槓上開花 on a flower's replacement,
        天胡 (the dealer on the deal) and 地胡 (another seat on its first draw, nobody having
        claimed or konged yet)."""
        phase = state.phase
        if discarder is not None or not isinstance(phase, TurnPhase) or phase.seat != seat:
            return {}
        extra: dict[str, Any] = {}
        if phase.source == "draw" and self.live_left(state) == 0:
            extra["haidi"] = True
        if state.extra.get(FLOWER_DRAW_KEY) == seat:
            extra["flower_draw"] = True
        me = state.seats[seat]
        fresh = me.first_turn and all(not s.melds for s in state.seats)
        if fresh and seat == state.dealer and not any(s.discards for s in state.seats):
            extra["tianhu"] = True
        elif fresh and seat != state.dealer:
            extra["dihu"] = True
        return extra

    # --- what everyone sees ---------------------------------------------------------------------

    def seat_view_extra(self, state: RoundState, seat: int, *, shown: bool) -> dict[str, Any]:
        """Every seat's flowers are public (*Play*: "Each flower is shown to all")."""
        return {"flowers": [tile_name(t) for t in seat_flowers(state, seat)]}

    def table_view_extra(self, state: RoundState) -> dict[str, Any]:
        """The dealer's 連莊 count is public."""
        return {"lianzhuang": int(state.extra.get(LIANZHUANG_KEY, 0))}


def replacement_taken(state: RoundState) -> RoundState:
    """One tile taken from the far end (牌尾)."""
    return replace(state, far=state.far + 1)
