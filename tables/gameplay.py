"""The one place where the web layer calls the rules engine (``rules.engine``, ``rules.views``).

Nothing here decides a rule: legality, claim priority, scoring and redaction are the engine's. This
module only adapts types (JSON in and out, the persistence of a state) and answers the two questions
the table needs and the engine has no opinion on: *who must decide now* (seats with a non-empty
``legal_actions``) and *what a seat does when its clock runs out* (:func:`default_action`).

The database keeps each round's whole engine state (``rules.persist.state_to_json``, server side
only) and also its seed and action list: a round is a pure function of those (engine brief,
"Randomness"), so :func:`state_at` can rebuild any state by replay, and a test checks that replay
and snapshot agree. Immutable states are cached by round, version and last action
(:class:`RoundKey`).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.engine import actions as engine_actions
from rules.errors import RulesError

Action = engine_actions.Action
VIEWERS: tuple[int | None, ...] = (0, 1, 2, 3, None)
"""Everyone an event is redacted for: the four seats and the spectators (``None``)."""


class BadAction(ValueError):
    """An action message that is not an action of this seat (malformed, or forged for another)."""


def _engine() -> Any:
    import rules.engine as engine

    return engine


def _views() -> Any:
    import rules.views as views

    return views


def _persist() -> Any:
    import rules.persist as persist

    return persist


def viewer_key(seat: int | None) -> str:
    """The key of a viewer in :attr:`tables.models.RoundEvent.views`."""
    return "spectator" if seat is None else str(seat)


# --- starting and replaying -----------------------------------------------------------------


def new_round(
    *,
    variant: str,
    options: Mapping[str, Any],
    seed: bytes,
    dealer: int,
    setup: RoundSetup | None = None,
) -> tuple[Any, list[Any]]:
    """The dealt state and the deal events (the engine shuffles, rolls the dice and commits).

    ``setup`` carries the round wind and the 連莊 count of a match played in wind rounds
    (Taiwan 16); without it the engine's defaults (东, no count) apply, as for every other
    variant."""
    from rules.registry import get_variant

    extra: dict[str, Any] = {}
    if setup is not None:
        extra = {"round_wind": setup.round_wind, "lianzhuang": setup.lianzhuang}
    state, events = _engine().new_round(
        variant=get_variant(variant), options=dict(options), seed=seed, dealer=dealer, **extra
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


def has_wind_rounds(variant: str) -> bool:
    """Whether a match of ``variant`` is played in wind rounds with a 連莊 count (Taiwan 16)."""
    from rules.registry import VARIANTS

    found = VARIANTS.get(variant)
    return found is not None and found.flow.wind_rounds


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


def apply(state: Any, action: Any) -> tuple[Any, list[Any]]:
    new_state, events = _engine().apply(state, action)
    return new_state, list(events)


def apply_staged(state: Any, action: Any) -> list[tuple[Any, list[Any]]]:
    """``apply`` cut into the stages the others must be shown one by one (``rules.engine.
    apply_staged``: a claim window nobody was asked in is shown on its own)."""
    return [(stage, list(events)) for stage, events in _engine().apply_staged(state, action)]


@dataclass(frozen=True)
class RoundKey:
    """A state's cache key: the round, its version, and the last action that reached it.

    The last action is in the key because a state is cached before its transaction commits: a
    write that is then rolled back (a dropped connection, a lost race on SQLite) leaves a state
    at ``version`` that the database never had, and another writer may commit a different
    action at that version. A state reached by the same action from the committed state before
    it is the same state (the engine is deterministic), so a key that matches the stored action
    list's last action can only find the right one.
    """

    round_id: int
    version: int
    last_action: str


def _key(round_id: int, version: int, actions: Sequence[Mapping[str, Any]]) -> RoundKey:
    last = json.dumps(actions[-1], sort_keys=True) if actions else ""
    return RoundKey(round_id, version, last)


_CACHE_SIZE = 256
_cache: OrderedDict[RoundKey, Any] = OrderedDict()
_cache_lock = threading.Lock()


def _cache_get(key: RoundKey) -> Any:
    with _cache_lock:
        state = _cache.get(key)
        if state is not None:
            _cache.move_to_end(key)
        return state


def cached_state(round_id: int, version: int, actions: Sequence[Mapping[str, Any]]) -> Any:
    """The cached state of a round at ``version`` reached by ``actions`` (the round's stored
    action list), or None."""
    return _cache_get(_key(round_id, version, actions))


def cache_put(round_id: int, state: Any, actions: Sequence[Mapping[str, Any]]) -> None:
    """Remember an (immutable) state reached by ``actions``, so that the next action on the
    round does not load or replay it."""
    key = _key(round_id, state.version, actions)
    with _cache_lock:
        _cache[key] = state
        _cache.move_to_end(key)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)


def state_at(
    *,
    round_id: int,
    version: int,
    variant: str,
    options: Mapping[str, Any],
    seed: bytes,
    dealer: int,
    actions: Sequence[Mapping[str, Any]],
    use_cache: bool = True,
    setup: RoundSetup | None = None,
) -> Any:
    """The state after ``actions`` (the round's stored list, ``version`` of them), by replay."""
    cached = cached_state(round_id, version, actions) if use_cache else None
    if cached is not None:
        return cached
    state, _events = new_round(
        variant=variant, options=options, seed=seed, dealer=dealer, setup=setup
    )
    for data in actions:
        state, _events = apply(state, _engine().action_from_json(dict(data)))
    if state.version != version:
        raise RuntimeError(
            f"replay of round {round_id} reached version {state.version}, not {version}"
        )
    cache_put(round_id, state, actions)
    return state


# --- actions --------------------------------------------------------------------------------


def parse_action(data: object, seat: int) -> Any:
    """The engine action of ``seat`` that the client sent; the seat is the connection's, never the
    message's: a message naming another seat is refused as forged."""
    if not isinstance(data, dict):
        raise BadAction("action must be an object")
    if "seat" in data and data["seat"] != seat:
        raise BadAction("an action for another seat")
    try:
        return _engine().action_from_json({**data, "seat": seat})
    except RulesError as exc:
        raise BadAction(str(exc)) from exc


def action_json(action: Any) -> dict[str, Any]:
    data: dict[str, Any] = action.to_json()
    return data


def legal_actions(state: Any, seat: int) -> list[Any]:
    return list(_engine().legal_actions(state, seat))


def why_illegal(state: Any, action: Any) -> str:
    """The engine's own reason for refusing an action (``rules.errors.IllegalAction``)."""
    try:
        _engine().apply(state, action)
    except RulesError as exc:
        rule = getattr(exc, "rule", None)
        return f"{exc}" + (f" ({rule})" if rule else "")
    return "not a legal action now"


def deciders(state: Any) -> tuple[int, ...]:
    """Seats that must act now: the seat whose turn it is, or the asked seats of a claim window
    that have not answered yet (``rules.engine.seats_to_act``)."""
    return tuple(_engine().seats_to_act(state))


def is_ended(state: Any) -> bool:
    return bool(state.phase.kind == "ended")


def phase_kind(state: Any) -> str:
    """``"turn"``, ``"claims"``, ``"rob_kong"`` or ``"ended"``."""
    return str(state.phase.kind)


def decision_key(state: Any) -> tuple[Any, ...]:
    """Identifies one decision: a seat's turn, or one claim window. Answers given inside a window
    do not change it, so the window keeps its clock while the others pass."""
    phase = state.phase
    if phase.kind in ("claims", "rob_kong"):
        return (phase.kind, phase.discarder, phase.tile)
    if phase.kind == "turn":
        return ("turn", phase.seat, phase.drawn, state.version)
    return ("ended",)


def _is_win(action: Any) -> bool:
    return isinstance(action, engine_actions.SelfDrawWin | engine_actions.DeclareWin)


def default_action(state: Any, seat: int) -> Any:
    """What a seat does when its clock runs out (brief, issue 5): pass on a claim; discard the
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
    return legal[0]


def auto_play_action(state: Any, seat: int) -> Any:
    """托管 plays like a timeout, except that it always takes a legal win (players expect the
    robot standing in for them not to throw a winning tile away)."""
    for action in legal_actions(state, seat):
        if _is_win(action):
            return action
    return default_action(state, seat)


# --- what each viewer sees ------------------------------------------------------------------


def event_views(event: Any) -> dict[str, Any]:
    """The event redacted once for each viewer (``None`` where the viewer sees nothing of it)."""
    views = _views()
    return {viewer_key(seat): views.event_for(event, seat) for seat in VIEWERS}


def event_json(event: Any) -> dict[str, Any]:
    data: dict[str, Any] = event.to_json()
    return data


def seat_view(state: Any, seat: int | None) -> dict[str, Any]:
    view: dict[str, Any] = _views().seat_view(state, seat)
    return view


def result_json(state: Any) -> dict[str, Any] | None:
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
        "settlement": _settlement().settlement_json(state),
    }


def _settlement() -> Any:
    import rules.settlement as settlement

    return settlement


def dump_state(state: Any) -> dict[str, Any]:
    """The whole engine state as JSON for :attr:`tables.models.Round.state` (server side only: it
    holds the wall, the seed and the salt; it is never sent to a client)."""
    data: dict[str, Any] = _persist().state_to_json(state)
    return data


def load_state(data: Mapping[str, Any]) -> Any:
    """The state :func:`dump_state` stored (``rules.errors.RulesError`` on anything else)."""
    return _persist().state_from_json(dict(data))
