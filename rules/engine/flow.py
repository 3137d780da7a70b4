"""A variant's round flow as data plus hooks (spec ``README.md``, *The round, common to all
variants*).

The engine core (:mod:`rules.engine.core`) plays the flow every variant shares and asks the
variant's :class:`Flow` at each point where the regional rules differ. The defaults here are the
spec README's common round; a variant's ``flow.py`` overrides only what its spec page changes.
There is no ``if variant == …`` in the core: a new regional rule becomes a field or a hook here.

Winning, ting conditions, fan and payments are not flow: they are the variant's hand rules
(``state.variant.rules``, a :class:`~rules.hand_rules.HandRules`), the same code the judge calls.

The flow calls the core's helpers (``core.lay_meld``, ``core.draw_replacement`` …); the core
never imports a flow: it is handed the :class:`~rules.variant.Variant` with the round.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from rules.engine import core
from rules.engine.actions import Action
from rules.engine.events import Event
from rules.engine.state import ChoicePhase, ClaimPhase, RoundState, TurnPhase, replace
from rules.errors import IllegalAction
from rules.hand import Meld, Transfer, WinBy, WinContext, WinVerdict
from rules.tiles import ALL_136, Tile
from rules.wall import WallSetup, deal

TingMode = Literal["none", "optional", "required"]


@dataclass(frozen=True, slots=True)
class NextRound:
    """Who deals the next round of a match, in which wind round, with which 連莊 count;
    ``match_over`` when the four wind rounds (一將) are played."""

    dealer: int
    round_wind: Tile
    lianzhuang: int
    match_over: bool = False


class Flow:
    """The default (spec README) round flow; a variant's ``flow.py`` subclasses it."""

    tile_kinds: ClassVar[tuple[Tile, ...]] = ALL_136
    stacks_per_seat: ClassVar[int] = 17
    hand_size: ClassVar[int] = 13
    claim_priority: ClassVar[Mapping[str, int]] = {
        "declare_win": 0,
        "exposed_kong": 1,
        "pong": 2,
        "chow": 3,
    }
    """Action kind → rank (lower wins); equal ranks go to the seat nearest after the discarder."""
    has_chow: ClassVar[bool] = True
    ting_mode: ClassVar[TingMode] = "optional"
    kong_after_ting: ClassVar[bool] = True
    """A ready player may kong with the drawn tile if the waits stay the same."""
    rob_added_kong: ClassVar[bool] = True
    wins_after_ting: ClassVar[bool] = False
    """A ready player wins by themselves on the winning tile, with no 胡 to press (Li-Si): the
    table says so where the player declares ting (issue 27)."""
    ting_discard_face_down: ClassVar[bool] = False
    default_reserve_stacks: ClassVar[int] = 7
    seats_leave: ClassVar[bool] = False
    """Seats may leave the hand before it ends (成麻 血战到底: a winner is out): the engine asks
    :meth:`in_hand` before asking a seat to claim."""
    several_winners: ClassVar[bool] = False
    """Several seats may win on one discard or robbed kong (一炮多响): :meth:`take_wins`."""
    continues_after_win: ClassVar[bool] = False
    """A win does not end the round (血战到底): :meth:`after_win` says what follows."""
    wind_rounds: ClassVar[bool] = False
    """A match is four wind rounds with a 連莊 count (Taiwan): the web layer's match asks
    :meth:`next_round` for each next round's wind and count."""
    deal_passes_in_seat_order: ClassVar[bool] = True
    """The deal only stays (连庄) or passes to the next seat (:meth:`next_dealer`), so it goes
    round the table in seat order and a wind round (一圈) ends when it leaves the last seat; False
    where the winner deals next (Harbin, 成麻): such a variant has no wind rounds (issue 25)."""

    def shape_filters(self, state: RoundState) -> bool:
        """Whether every win is four sets and a pair of ordinary tiles (3n+2 concealed tiles
        complete, a wildcard aside), so the engine may use its fast shape tests before asking
        the hand rules. A variant whose hand rules accept other shapes (Siping's ``chen_zfb``:
        中发白 one each as a set) returns False and the engine always asks the hand rules."""
        return True

    has_extra_claims: ClassVar[bool] = False
    """Whether :meth:`extra_claim_actions` is overridden (else the engine skips asking it); set
    once per class (:meth:`__init_subclass__`), read on every discard."""
    filters_discards: ClassVar[bool] = False
    """Whether :meth:`discard_allowed` is overridden (else the engine skips asking it)."""
    has_automatic_actions: ClassVar[bool] = False
    """Whether :meth:`automatic_action` is overridden (else the engine never asks it)."""

    # --- facts for the hand rules ----------------------------------------------------------------

    def context_extra(self, state: RoundState, seat: int) -> dict[str, Any]:
        """``extra`` facts for the judge's contexts (e.g. Siping's round and seat winds)."""
        return {}

    def win_extra(self, state: RoundState, seat: int, discarder: int | None) -> dict[str, Any]:
        """``extra`` facts of a win that depend on who discarded (Li-Si's ``discarder_ting``)."""
        return {}

    # --- deal and wall --------------------------------------------------------------------------

    def deal(self, setup: WallSetup, dealer: int) -> tuple[tuple[tuple[Tile, ...], ...], int]:
        """The tiles each seat is dealt (in deal order) and the next live position (spec README,
        item 3: 4-4-4 then 1 each, the dealer one extra). Siping's 跳牌 overrides this."""
        hands = deal(setup.wall, dealer, self.hand_size)
        return hands, sum(len(h) for h in hands)

    def after_deal(self, state: RoundState, out: list[Event]) -> RoundState:
        """After the deal (Taiwan's 补花, Harbin's treasure at the far end)."""
        return state

    def reserve_stacks(self, kongs: int) -> int:
        """Stacks at the far end never drawn from the live end (荒庄), given the kongs made."""
        return self.default_reserve_stacks

    def live_left(self, state: RoundState) -> int:
        """Tiles the live end may still draw before :meth:`end_of_wall` (a reserve in stacks by
        default; Harbin and Siping end the normal draws when four tiles are left). Asked at the
        start of a turn, possibly before the turn's phase is set."""
        return state.live_left

    def tiles_aside(self, state: RoundState) -> tuple[Tile, ...]:
        """Tiles of the round out of the wall but in no hand or discard row (Harbin's treasure,
        taken from the far end), for the tile accounting."""
        return ()

    def far_position(self, state: RoundState) -> int:
        """The wall position of the next replacement tile (牌尾): ``wall[-1]``, ``wall[-2]``, …
        (Harbin skips its treasure tile here)."""
        return len(state.wall) - 1 - state.far

    def end_of_wall(self, state: RoundState, out: list[Event]) -> RoundState:
        """The next live draw would enter the reserve: by default a drawn round (荒庄)."""
        return core.end_drawn(state, out)

    def next_dealer(self, state: RoundState, winner: int | None) -> int:
        """Dealer wins or the round is drawn → the dealer stays (连庄); else the next seat deals."""
        if winner is None or winner == state.dealer:
            return state.dealer
        return (state.dealer + 1) % 4

    def next_round(
        self, *, first_dealer: int, dealer: int, round_wind: Tile, lianzhuang: int, next_dealer: int
    ) -> NextRound:
        """The next round of a match: by default only the dealer changes (the round wind stays,
        no 連莊 count, the match goes on until a player leaves)."""
        return NextRound(next_dealer, round_wind, 0)

    def settled_kong_transfers(self, state: RoundState, winner: int | None) -> tuple[Transfer, ...]:
        """Kong payments settled at the end (all of them by default, drawn round included)."""
        return state.kong_transfers

    # --- seats, wins and kongs ------------------------------------------------------------------

    def next_seat(self, state: RoundState, seat: int) -> int:
        """The seat that plays after ``seat``'s discard passed unclaimed (the next seat; 成麻 skips
        the seats out of the hand)."""
        return (seat + 1) % 4

    def in_hand(self, state: RoundState, seat: int) -> bool:
        """Whether ``seat`` still plays this round (asked only when :attr:`seats_leave`)."""
        return True

    def take_wins(
        self, state: RoundState, phase: ClaimPhase, wins: list[Action], out: list[Event]
    ) -> RoundState:
        """Several seats claimed the win on one tile (asked only when :attr:`several_winners`)."""
        raise IllegalAction("one winner only", rule="not_offered")

    def after_win(
        self,
        state: RoundState,
        seat: int,
        ctx: WinContext,
        verdict: WinVerdict,
        out: list[Event],
    ) -> RoundState:
        """What follows a legal win when :attr:`continues_after_win` (the winning tile is already
        in the winner's hand)."""
        raise IllegalAction("a win ends the round", rule="not_offered")

    def pay_kong(
        self, state: RoundState, seat: int, meld: Meld, *, with_drawn: bool, out: list[Event]
    ) -> RoundState:
        """杠分 of a kong just made (``with_drawn``: an added kong with the tile just drawn): by
        default the hand rules' kong payments, settled with the round."""
        return core.pay_kong(state, seat, meld)

    def resolve_choice(self, state: RoundState, phase: ChoicePhase, out: list[Event]) -> RoundState:
        """Every asked seat answered a :class:`ChoicePhase` the variant opened (成麻 定缺)."""
        raise IllegalAction(f"{phase.name} is not part of {state.variant.key}", rule="not_offered")

    # --- turn hooks -----------------------------------------------------------------------------

    def before_draw(self, state: RoundState, seat: int) -> bool:
        """Whether ``seat``'s turn, about to begin, may have something before its draw: only
        then does the engine set the pre-draw phase and ask :meth:`on_turn_start` and
        :meth:`predraw_actions` (asked with the state before the turn). By default, whether
        either of them is overridden; a variant may answer more precisely (Changchun: only a
        ready seat sees a treasure or may 对宝)."""
        return self._hooks_before_draw

    _hooks_before_draw: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._hooks_before_draw = (
            cls.on_turn_start is not Flow.on_turn_start
            or cls.predraw_actions is not Flow.predraw_actions
        )
        cls.has_extra_claims = cls.extra_claim_actions is not Flow.extra_claim_actions
        cls.filters_discards = cls.discard_allowed is not Flow.discard_allowed
        cls.has_automatic_actions = cls.automatic_action is not Flow.automatic_action

    def on_turn_start(self, state: RoundState, seat: int, out: list[Event]) -> RoundState:
        """Before the draw of a normal turn (Changchun: roll and show the treasure)."""
        return state

    def predraw_actions(self, state: RoundState, seat: int) -> list[Action]:
        """Choices before the draw (Changchun 对宝, Siping 抻); none: the engine draws at once."""
        return []

    def after_draw(
        self, state: RoundState, seat: int, position: int, out: list[Event]
    ) -> RoundState:
        """After a tile left the wall at ``position`` (Changchun: 换宝 if it was the indicator)."""
        return state

    def after_tiles_shown(self, state: RoundState, out: list[Event]) -> RoundState:
        """After a discard or a meld made tiles visible (换宝 when three treasures are visible)."""
        return state

    def claims_open(self, state: RoundState, discarder: int, tile: Tile) -> bool:
        """Whether a discard opens a claim window at all (Harbin's last four tiles: no one may
        claim or win on the automatic discards)."""
        return True

    def on_claim_answered(self, state: RoundState, phase: ClaimPhase, action: Action) -> RoundState:
        """A seat answered a claim window (before it resolves): Li-Si's 过碰 remembers a pass."""
        return state

    def automatic_action(self, state: RoundState) -> Action | None:
        """An action the engine takes for a player now (Li-Si's automatic win), or None."""
        return None

    # --- what is offered ------------------------------------------------------------------------

    def meld_allowed(
        self, state: RoundState, seat: int, melds: tuple[Meld, ...], concealed_left: int
    ) -> bool:
        """Whether a meld leaving ``melds`` and ``concealed_left`` concealed tiles may be offered
        (Changchun's 手把一 rule, Harbin's four tiles, Li-Si's standing tile)."""
        return True

    def discard_allowed(self, state: RoundState, seat: int, tile: Tile, *, ting: bool) -> bool:
        """Whether ``tile`` may be discarded (with a ting declaration if ``ting``)."""
        return True

    def may_win_on_discard(self, state: RoundState, seat: int, tile: Tile) -> bool:
        """Flow-side restrictions on a discard win (Siping 抻, Li-Si 过胡)."""
        return True

    def may_win_on(
        self, state: RoundState, seat: int, tile: Tile, discarder: int, win_by: WinBy
    ) -> bool:
        """Flow-side restrictions on a win on ``discarder``'s discard or added kong (成麻's
        过手胡 compares the new win with the declined one); by default
        :meth:`may_win_on_discard`."""
        return self.may_win_on_discard(state, seat, tile)

    def settlement_lines(self, state: RoundState) -> list[dict[str, Any]] | None:
        """The ended round's settlement lines when the variant keeps its own ledger (成麻: each
        win, each kong payment, 呼叫转移, each check); None: :mod:`rules.settlement` explains
        the round's single win and its kongs."""
        return None

    def extra_turn_actions(self, state: RoundState, seat: int) -> list[Action]:
        """Variant actions on one's turn (Changchun special kongs and adds)."""
        return []

    def extra_claim_actions(
        self, state: RoundState, seat: int, discarder: int, tile: Tile
    ) -> list[Action]:
        """Variant claims on a discard (Harbin 吃听)."""
        return []

    def extra_rob_actions(
        self, state: RoundState, seat: int, konger: int, tile: Tile, pending: Action | None
    ) -> list[Action]:
        """Variant claims on an added kong besides the win (Changchun 抢叉)."""
        return []

    def self_draw_context(self, state: RoundState, seat: int) -> WinContext | None:
        """The judge's question for a self-drawn win now, or None when there is no drawn tile."""
        me = state.seats[seat]
        phase = state.phase
        if me.drawn is None or not isinstance(phase, TurnPhase) or not phase.drawn:
            return None
        win_by: Literal["kong_draw", "self_draw"] = (
            "kong_draw" if phase.source == "kong_draw" else "self_draw"
        )
        return core.win_context(state, seat, tile=me.drawn, win_by=win_by, concealed=me.concealed)

    def seat_view_extra(self, state: RoundState, seat: int, *, shown: bool) -> dict[str, Any]:
        """Variant fields of a seat's public view (``shown``: the viewer may see its concealed
        tiles), e.g. Li-Si's standing tiles (立牌) as their own group."""
        return {}

    def table_view_extra(self, state: RoundState) -> dict[str, Any]:
        """Public variant fields of the table for every viewer (e.g. Harbin's last tiles, Siping's
        分张). Never anything secret: it goes to everyone, spectators included."""
        return {}

    # --- variant actions ------------------------------------------------------------------------

    def apply_action(self, state: RoundState, action: Action, out: list[Event]) -> RoundState:
        """Apply a variant action (from :meth:`extra_turn_actions` or :meth:`predraw_actions`)."""
        raise IllegalAction(f"{action.kind} is not part of {state.variant.key}", rule="not_offered")

    def take_discard(
        self, state: RoundState, phase: ClaimPhase, claim: Action, out: list[Event]
    ) -> RoundState:
        """Resolve a variant claim offered by :meth:`extra_claim_actions` that won the window."""
        raise IllegalAction(f"{claim.kind} is not part of {state.variant.key}", rule="not_offered")

    def complete_add(self, state: RoundState, action: Action, out: list[Event]) -> RoundState:
        """Finish a variant add (e.g. to a special kong) that nobody robbed."""
        raise IllegalAction(f"{action.kind} is not part of {state.variant.key}", rule="not_offered")


def set_extra(state: RoundState, **changes: Any) -> RoundState:
    """A copy with ``state.extra`` updated (variant round data)."""
    return replace(state, extra={**state.extra, **changes})
