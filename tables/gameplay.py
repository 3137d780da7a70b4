"""The one place where the web layer calls the rules engine (``rules.engine``, ``rules.views``).

Nothing here decides a rule: legality, claim priority, scoring and redaction are the engine's. This
module only adapts types (JSON in and out, the persistence of a state) and answers the two questions
the table needs and the engine has no opinion on: *who must decide now* (seats with a non-empty
``legal_actions``) and *what a seat does when its clock runs out* (:func:`default_action`).

The database keeps each round's seed, dealer and action log, its truth: a round is a pure function
of those (engine brief, "Randomness"), so :func:`replay` (the rules' one replay,
:mod:`rules.replay`, read from the log's JSON) rebuilds any state, for the live table, the
settlement and the replay page alike. The whole engine state (``rules.persist``, server side
only) is stored now and then as a cache, and committed states are cached in the process by round
and version.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import rules.engine as engine
import rules.persist as persist
import rules.replay as rules_replay
import rules.settlement as settlement
import rules.views as rules_views
from rules.engine import RoundState
from rules.engine import actions as engine_actions
from rules.engine.events import Event, Melded, meld_json
from rules.errors import RulesError

Action = engine_actions.Action
VIEWERS: tuple[int | None, ...] = (0, 1, 2, 3, None)
"""Everyone an event is redacted for: the four seats and the spectators (``None``)."""


class BadAction(ValueError):
    """An action message that is not an action of this seat (malformed, or forged for another)."""


SPECTATOR = "spectator"


def viewer_key(seat: int | None) -> str:
    """The key of a viewer in :attr:`tables.models.RoundEvent.views`."""
    return SPECTATOR if seat is None else str(seat)


# --- starting and replaying -----------------------------------------------------------------


def new_round(
    *,
    variant: str,
    options: Mapping[str, Any],
    seed: bytes,
    dealer: int,
    setup: RoundSetup | None = None,
) -> tuple[RoundState, list[Event]]:
    """The dealt state and the deal events (the engine shuffles, rolls the dice and commits).

    ``setup`` carries the round wind and the 連莊 count of a match played in wind rounds
    (Taiwan 16); without it the engine's defaults (东, no count) apply, as for every other
    variant."""
    from rules.registry import get_variant

    state, events = engine.new_round(
        variant=get_variant(variant),
        options=dict(options),
        seed=seed,
        dealer=dealer,
        **_deal_setup(setup),
    )
    return state, list(events)


@dataclass(frozen=True)
class RoundSetup:
    """What a match decides for its next round: the dealer, the round wind (a tile int), the
    dealer's 連莊 count, and whether the match (Taiwan's four wind rounds, 一將) is over."""

    dealer: int
    round_wind: int
    lianzhuang: int
    match_over: bool = False


def _deal_setup(setup: RoundSetup | None) -> dict[str, Any]:
    """The engine's deal arguments a match's ``setup`` fixes (none: the engine's 东, no count)."""
    if setup is None:
        return {}
    return {"round_wind": setup.round_wind, "lianzhuang": setup.lianzhuang}


def has_wind_rounds(variant: str) -> bool:
    """Whether a match of ``variant`` is played in wind rounds with a 連莊 count (Taiwan 16)."""
    from rules.registry import VARIANTS

    found = VARIANTS.get(variant)
    return found is not None and found.flow.wind_rounds


def deal_passes_in_seat_order(variant: str) -> bool:
    """Whether the deal of ``variant`` goes round the table in seat order (it stays or passes
    to the next seat), so a match can be one wind round (一圈)."""
    from rules.registry import VARIANTS

    found = VARIANTS.get(variant)
    return found is not None and found.flow.deal_passes_in_seat_order


def round_setup(variant: str, first_dealer: int, rounds: Sequence[tuple[int, int]]) -> RoundSetup:
    """The next round of a match whose first dealer is ``first_dealer`` after ``rounds`` (each
    ``(dealer, next_dealer)``, in order), as the variant's :meth:`next_round` rules it: for
    Taiwan 16 the 連莊 count and the wind rounds (``taiwan16.md``, *Play*); for the others only
    the dealer moves (东, no count, the match never ends by itself)."""
    from rules.registry import get_variant
    from rules.tiles import EAST

    v = get_variant(variant).flow
    setup = RoundSetup(first_dealer, EAST, 0)
    for dealer, following in rounds:
        nxt = v.next_round(
            first_dealer=first_dealer,
            dealer=dealer,
            round_wind=setup.round_wind,
            lianzhuang=setup.lianzhuang,
            next_dealer=following,
        )
        setup = RoundSetup(nxt.dealer, nxt.round_wind, nxt.lianzhuang, nxt.match_over)
    return setup


def apply(state: RoundState, action: Action) -> tuple[RoundState, list[Event]]:
    new_state, events = engine.apply(state, action)
    return new_state, list(events)


def apply_staged(state: RoundState, action: Action) -> list[tuple[RoundState, list[Event]]]:
    """``apply`` cut into the stages the others must be shown one by one (``rules.engine.
    apply_staged``: a claim window nobody was asked in is shown on its own)."""
    return [(stage, list(events)) for stage, events in engine.apply_staged(state, action)]


@dataclass(frozen=True)
class ReplayStep:
    """One step of a round (:class:`rules.replay.ReplayStep`) with its action as the log holds it
    (JSON; ``None`` for the deal): the action applied, the events it caused and the state after
    it."""

    action: dict[str, Any] | None
    events: tuple[Event, ...]
    state: RoundState


def replay(
    *,
    variant: str,
    options: Mapping[str, Any],
    seed: bytes,
    dealer: int,
    actions: Sequence[Mapping[str, Any]],
    setup: RoundSetup | None = None,
) -> list[ReplayStep]:
    """Every step of a round, from the deal to its last logged action: THE replay
    (:func:`rules.replay.replay_steps`, which the simulator uses too), read from the log's JSON
    and the match's setup. The live table (:func:`tables.game.store.replay_state`), the
    settlement and the replay page all use it."""
    from rules.registry import get_variant

    logged = [dict(data) for data in actions]
    steps = rules_replay.replay_steps(
        get_variant(variant),
        options=dict(options),
        seed=seed,
        dealer=dealer,
        actions=(engine.action_from_json(dict(data)) for data in logged),
        **_deal_setup(setup),
    )
    return [
        ReplayStep(action=data, events=step.events, state=step.state)
        for data, step in zip([None, *logged], steps, strict=True)
    ]


def replay_onto(state: RoundState, actions: Sequence[Mapping[str, Any]]) -> RoundState:
    """``state`` (a snapshot) with the logged ``actions`` that followed it applied
    (:func:`rules.replay.replay_onto`)."""
    parsed = (engine.action_from_json(dict(data)) for data in actions)
    for step in rules_replay.replay_onto(state, parsed):
        state = step.state
    return state


# A process-wide cache of committed states: ``(round id, version)`` names one state once it is
# committed (a round's versions only grow, by a compare-and-set). States are put only after their
# transaction committed (:mod:`tables.game.store`), so a write that rolled back (a dropped
# connection, a lost race) never leaves a state the database does not have.
_CACHE_SIZE = 256
_cache: OrderedDict[tuple[int, int], RoundState] = OrderedDict()
_cache_lock = threading.Lock()


def cached_state(round_id: int, version: int) -> RoundState | None:
    """The committed state of a round at ``version`` if this process holds it."""
    key = (round_id, version)
    with _cache_lock:
        state = _cache.get(key)
        if state is not None:
            _cache.move_to_end(key)
        return state


def cache_clear() -> None:
    """Forget every cached state (tests: SQLite hands a rolled-back round's id out again)."""
    with _cache_lock:
        _cache.clear()


def cache_put(round_id: int, state: RoundState) -> None:
    """Remember a committed (immutable) state, so that the next action on the round neither
    loads nor replays it."""
    key = (round_id, state.version)
    with _cache_lock:
        _cache[key] = state
        _cache.move_to_end(key)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)


# --- actions --------------------------------------------------------------------------------


def parse_action(data: object, seat: int) -> Action:
    """The engine action of ``seat`` that the client sent; the seat is the connection's, never the
    message's: a message naming another seat is refused as forged."""
    if not isinstance(data, dict):
        raise BadAction("action must be an object")
    if "seat" in data and data["seat"] != seat:
        raise BadAction("an action for another seat")
    try:
        return engine.action_from_json({**data, "seat": seat})
    except RulesError as exc:
        raise BadAction(str(exc)) from exc


def action_json(action: Action) -> dict[str, Any]:
    data: dict[str, Any] = action.to_json()
    return data


def legal_actions(state: RoundState, seat: int) -> list[Action]:
    return list(engine.legal_actions(state, seat))


def why_illegal(state: RoundState, action: Action) -> str:
    """The engine's own reason for refusing an action (``rules.errors.IllegalAction``)."""
    try:
        engine.apply(state, action)
    except RulesError as exc:
        rule = getattr(exc, "rule", None)
        return f"{exc}" + (f" ({rule})" if rule else "")
    return "not a legal action now"


def deciders(state: RoundState) -> tuple[int, ...]:
    """Seats that must act now: the seat whose turn it is, or the asked seats of a claim window
    that have not answered yet (``rules.engine.seats_to_act``)."""
    return tuple(engine.seats_to_act(state))


def is_ended(state: RoundState) -> bool:
    return bool(state.phase.kind == "ended")


def phase_kind(state: RoundState) -> str:
    """``"turn"``, ``"claims"``, ``"rob_kong"``, ``"choice"`` (成麻 定缺 / 换三张, every seat at
    once and in secret) or ``"ended"``."""
    return str(state.phase.kind)


def decision_key(state: RoundState) -> tuple[Any, ...]:
    """Identifies one decision: a seat's turn, or one claim window. Answers given inside a window
    do not change it, so the window keeps its clock while the others pass."""
    phase = state.phase
    if phase.kind in ("claims", "rob_kong"):
        return (phase.kind, phase.discarder, phase.tile)
    if phase.kind == "turn":
        return ("turn", phase.seat, phase.drawn, state.version)
    if phase.kind == "choice":  # one clock for the four secret answers (成麻 定缺)
        return ("choice", phase.name)
    return ("ended",)


def _is_win(action: Action) -> bool:
    return isinstance(action, engine_actions.SelfDrawWin | engine_actions.DeclareWin)


def default_action(state: RoundState, seat: int) -> Action:
    """What a seat does when its clock runs out: pass on a claim; discard the
    drawn tile (or, if it may not, its first legal discard, never declaring ting); win only when
    the variant leaves nothing else (every legal action is a win)."""
    legal = legal_actions(state, seat)
    if not legal:
        raise BadAction(f"seat {seat} has nothing to decide")
    for action in legal:
        if isinstance(action, engine_actions.Pass):
            return action
    discards = [a for a in legal if isinstance(a, engine_actions.Discard)]
    drawn = state.seats[seat].drawn
    for action in discards:
        if action.tile == drawn and not action.ting:
            return action
    plain = [a for a in discards if not a.ting]
    if plain:
        return plain[-1]
    if discards:
        return discards[-1]
    wins = [a for a in legal if _is_win(a)]
    if wins:
        return wins[0]
    # A secret choice (成麻 定缺, 换三张): the variant lists its timeout choice first.
    return legal[0]


def kong_payments(
    before: RoundState, after: RoundState, events: Sequence[Event]
) -> list[dict[str, Any]]:
    """The kong payments one action made, each with its kong's meld: the engine appends a kong's
    payments to ``kong_transfers`` in the ``apply`` that lays the kong down
    (``rules.engine.core.pay_kong``), with its :class:`Melded` event."""
    new = after.kong_transfers[len(before.kong_transfers) :]
    if not new:
        return []
    kongs = [e.meld for e in events if isinstance(e, Melded) and e.meld.is_kong]
    meld = meld_json(kongs[-1]) if kongs else None
    return [{"payer": t.payer, "payee": t.payee, "amount": t.amount, "kong": meld} for t in new]


def replay_kong_payments(steps: Sequence[ReplayStep]) -> list[list[dict[str, Any]]]:
    """Each action's kong payments (:func:`kong_payments`) as the replay ``steps`` make them:
    what the table logs with each action (``tables.models.RoundAction.kong_payments``), for
    whoever holds a round without its log (simulated rounds) or checks a log against it (the
    settlement, the migration test)."""
    return [
        kong_payments(before.state, step.state, step.events) for before, step in pairwise(steps)
    ]


# --- what each viewer sees ------------------------------------------------------------------


def event_views(event: Event) -> dict[str, Any]:
    """The event redacted once for each viewer (``None`` where the viewer sees nothing of it)."""
    return {viewer_key(seat): rules_views.event_for(event, seat) for seat in VIEWERS}


def views_to_store(views: Mapping[str, Any]) -> dict[str, Any]:
    """The views of an event as stored: the spectator's, and a seat's only where it differs
    (most events look the same to everyone; the five full copies were most of a round's bytes).
    :func:`stored_view` reads both this form and the older one with every viewer's copy."""
    public = views[SPECTATOR]
    return {SPECTATOR: public} | {k: v for k, v in views.items() if v != public}


def stored_view(views: Mapping[str, Any], key: str) -> Any:
    """The view of viewer ``key`` in stored views (:func:`views_to_store`)."""
    return views[key] if key in views else views.get(SPECTATOR)


def event_json(event: Event) -> dict[str, Any]:
    data: dict[str, Any] = event.to_json()
    return data


def seat_view(state: RoundState, seat: int | None) -> dict[str, Any]:
    view: dict[str, Any] = rules_views.seat_view(state, seat)
    return view


def open_view(state: RoundState) -> dict[str, Any]:
    """Every hand open, for a spectator behind the play (:func:`rules.views.open_view`)."""
    view: dict[str, Any] = rules_views.open_view(state)
    return view


def result_json(state: RoundState) -> dict[str, Any] | None:
    """The round's result as stored on :class:`tables.models.Round` (the public round-end event
    already carries it; this keeps the nets and next dealer easy to query)."""
    result = state.result
    if result is None:
        return None
    return {
        "winner": result.winner,
        "win_by": result.win_by,
        "discarder": result.discarder,
        "nets": list(result.nets),
        "next_dealer": result.next_dealer,
        "transfers": [
            {"payer": t.payer, "payee": t.payee, "amount": t.amount} for t in result.transfers
        ],
        "fan": dict(result.verdict.fan) if result.verdict is not None else {},
        "total": result.verdict.total if result.verdict is not None else 0,
        # Every payment explained (底, each item, 杠, 封顶): the settlement overlay and history.
        "settlement": settlement.settlement_json(state),
    }


def dump_state(state: RoundState) -> dict[str, Any]:
    """The whole engine state as JSON for :attr:`tables.models.Round.state` (server side only: it
    holds the wall, the seed and the salt; it is never sent to a client)."""
    data: dict[str, Any] = persist.state_to_json(state)
    return data


def load_state(data: Mapping[str, Any]) -> RoundState:
    """The state :func:`dump_state` stored (``rules.errors.RulesError`` on anything else)."""
    return persist.state_from_json(dict(data))
