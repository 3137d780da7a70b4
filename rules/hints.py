"""听牌提示 (wait hints): what a seat would wait on, and how many of each tile it has not seen.

A player's own view shows, when they are about to discard, for each discard that leaves
them ready (听牌) the tiles they would wait on under their variant's rules, with the reason when a
shape wait cannot win, and how many of each tile are still unseen *from their seat*. When they
hold 13 tiles (3n+1) and are ready, the hint for the current hand stays up; after 报听 it shows the
locked waits the engine keeps (``SeatState.waits``).

Everything is computed by the variant's own hand rules (``state.variant.rules``, the judge's code):

* a wait is *legal* when :meth:`~rules.hand_rules.HandRules.is_legal_win` accepts the win on it as
  a ting query asks it (ting declared, self-drawn, no treasure: spec README, *A kind: ting query*),
  so the legal waits are exactly ``judge_ting``'s;
* a *blocked* wait completes the shape (four sets and a pair, or a variant's own set) but the
  variant refuses the win; its ``reason`` is the key of the first failing condition (judge.md).

Decisions (the spec has no hint rules; these are what players expect from 听牌提示 in apps):

* A ready hand whose every wait is blocked is still shown (with the reasons): it tells a player
  why the ting button is missing.
* ``unseen`` is ``4 −`` the copies the seat can see: its own concealed tiles (the drawn tile
  included), every discard row (a face-down Li-Si ting discard only for its owner; a claimed
  discard is counted once, in the meld that took it), every exposed meld (another seat's concealed
  kong is face down, so not counted), and the current treasure tile when the seat is entitled to
  see it (changchun.md / harbin.md, *Treasure*). Earlier treasures are not counted: an old
  indicator may since have been drawn into a hand, and a hint must never undercount.
* A wait whose four copies are all in the seat's own hand and melds is never a wait (judge.md).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any

from rules.engine.actions import Discard
from rules.engine.core import hand_facts, legal_actions, ting_discard_candidates
from rules.engine.state import ChoicePhase, EndedPhase, RoundState, TurnPhase
from rules.hand import Meld, TingContext
from rules.hand_rules import HandRules, concealed_counts, meld_counts
from rules.shapes import shape_waits
from rules.tiles import COPIES, NUM_KINDS, NUM_KINDS_WITH_FLOWERS, Tile, tile_name

HINTS_OPTION = "hints"
"""The room option that turns hints on or off (default on: clubs turn it off for serious play)."""


@dataclass(frozen=True, slots=True)
class WaitAnalysis:
    """The waits of one 3n+1 hand: ``legal`` winning tiles and ``blocked`` (tile, reason) pairs
    of shape waits that the variant does not let win (both in canonical tile order)."""

    legal: tuple[Tile, ...]
    blocked: tuple[tuple[Tile, str], ...]

    @property
    def ready(self) -> bool:
        """听牌 in shape: some tile completes the hand, legal or not."""
        return bool(self.legal or self.blocked)


def analyse_waits(rules: HandRules, ctx: TingContext) -> WaitAnalysis:
    """Legal and blocked waits of ``ctx``'s hand, as a ``kind: ting`` query judges them.

    Mirrors :meth:`HandRules.judge_ting` (same candidates, same hypothetical win) but keeps the
    reason of every blocked tile instead of the first one only. Memoised: a hand's waits do not
    change while the others play.
    """
    key = _analysis_key(ctx)
    if key is not None:
        found = _analysis_memo.get(key)
        if found is not None:
            return found
    counts = concealed_counts(ctx.concealed)
    in_melds = meld_counts(ctx.melds)
    candidates = sorted({*shape_waits(counts), *rules.special_waits(ctx, counts)})
    legal: list[Tile] = []
    blocked: list[tuple[Tile, str]] = []
    for tile in candidates:
        if tile not in rules.tiles_used or counts[tile] + in_melds[tile] >= COPIES:
            continue
        reason = rules.is_legal_win(rules._hypothetical_win(ctx, tile))
        if reason is None:
            legal.append(tile)
        else:
            blocked.append((tile, reason))
    analysis = WaitAnalysis(tuple(legal), tuple(blocked))
    if key is not None:
        if len(_analysis_memo) > 20_000:
            _analysis_memo.clear()
        _analysis_memo[key] = analysis
    return analysis


_analysis_memo: dict[Hashable, WaitAnalysis] = {}


def _analysis_key(ctx: TingContext) -> Hashable | None:
    """A hashable key of everything a ting query depends on, or None if some value is not."""
    key = (
        ctx.variant,
        ctx.dealer,
        ctx.seat,
        ctx.concealed,
        ctx.melds,
        ctx.opened,
        tuple(sorted(ctx.options.items())),
        tuple(sorted(ctx.extra.items())),
    )
    try:
        hash(key)
    except TypeError:
        return None
    return key


def unseen_counts(state: RoundState, seat: int) -> list[int]:
    """Per kind (34), the copies ``seat`` has not seen (module docstring, *unseen*). Flowers
    (Taiwan: set aside at once, one copy each) are no wait and are not counted."""
    seen = [0] * NUM_KINDS_WITH_FLOWERS  # flowers (34–41) are counted, then dropped
    for tile in state.seats[seat].concealed:
        seen[tile] += 1
    for index, other in enumerate(state.seats):
        mine = index == seat
        for record in other.discards:
            if not record.claimed and (mine or not record.face_down):
                seen[record.tile] += 1
        for meld in other.melds:
            if mine or not meld.concealed:
                for tile in meld.tiles:
                    seen[tile] += 1
    treasure = state.treasure
    if treasure is not None and state.seats[seat].treasure_seen == treasure.version:
        seen[treasure.tile] += 1
    return [COPIES - n if n < COPIES else 0 for n in seen[:NUM_KINDS]]


def ting_context(
    state: RoundState, seat: int, concealed: tuple[Tile, ...], melds: tuple[Meld, ...]
) -> TingContext:
    """The ting query the engine would ask for ``seat`` holding ``concealed`` and ``melds``
    (the same context as :func:`rules.engine.core.ting_waits`)."""
    v = state.variant.flow
    rules = state.variant.rules
    opened = list(state.opened())
    opened[seat] = any(rules.meld_opens(m) for m in melds)
    a, b, c, d = opened
    return TingContext(
        variant=state.variant.key,
        dealer=state.dealer,
        seat=seat,
        concealed=concealed,
        melds=melds,
        opened=(a, b, c, d),
        options=state.options,
        extra=v.context_extra(state, seat),
    )


def hints_enabled(options: Mapping[str, Any]) -> bool:
    """The room option ``hints`` (default on)."""
    return bool(options.get(HINTS_OPTION, True))


def seat_hint(state: RoundState, seat: int) -> dict[str, Any] | None:
    """The hint for ``seat``'s own view (plain JSON), or None when there is nothing to show.

    * About to discard (a turn with 3n+2 tiles, not locked by 报听): ``mode: "discard"`` and one
      entry per legal discard kind that leaves the hand ready, with its waits.
    * Locked by 报听: ``mode: "ting"`` with the engine's locked waits.
    * Otherwise (3n+1 tiles): ``mode: "ready"`` with the current hand's waits, if ready.

    The unseen counts are computed only when there is a hint to show, and a hand with no shape
    wait is skipped before any context is built (``bench/results/hints.md``: most views of a
    round have nothing to show).
    """
    if isinstance(state.phase, EndedPhase | ChoicePhase):
        return None  # (成麻 定缺: no wait means anything before the void suit is chosen)
    me = state.seats[seat]
    v = state.variant.flow
    rules = state.variant.rules
    if me.ting:
        waits = me.waits or analyse_waits(rules, _current(state, seat)).legal
        unseen = unseen_counts(state, seat)
        return _hint(seat, "ting", {"waits": _waits_json(waits, unseen), "blocked": []})
    phase = state.phase
    if isinstance(phase, TurnPhase) and phase.seat == seat and phase.drawn:
        found = _discard_analyses(state, seat, rules)
        if not found:
            return None
        unseen = unseen_counts(state, seat)
        options = [
            {"tile": tile_name(tile), "declare_ting": ting, **_analysis_json(analysis, unseen)}
            for tile, ting, analysis in found
        ]
        return _hint(seat, "discard", {"discards": options})
    if len(me.concealed) % 3 != 1 or (v.shape_filters(state) and not hand_facts(me.concealed)[1]):
        return None
    analysis = analyse_waits(rules, _current(state, seat))
    if not analysis.ready:
        return None
    return _hint(seat, "ready", _analysis_json(analysis, unseen_counts(state, seat)))


def _hint(seat: int, mode: str, body: dict[str, Any]) -> dict[str, Any]:
    return {"seat": seat, "mode": mode, **body}


def _current(state: RoundState, seat: int) -> TingContext:
    me = state.seats[seat]
    return ting_context(state, seat, me.concealed, me.melds)


def _discard_analyses(
    state: RoundState, seat: int, rules: HandRules
) -> list[tuple[Tile, bool, WaitAnalysis]]:
    """(discard kind, may declare ting with it, waits after it) for each legal discard kind
    after which the hand is ready (in shape or legally)."""
    v = state.variant.flow
    me = state.seats[seat]
    offered: dict[Tile, bool] = {}
    for action in legal_actions(state, seat):
        if isinstance(action, Discard):
            offered[action.tile] = offered.get(action.tile, False) or action.ting
    # A ready 3n+1 hand has at most one isolated tile (rules.engine.core), and has a shape wait:
    # skip the rest, unless the variant has sets of its own (Siping's 中发白).
    fast = v.shape_filters(state)
    worth = set(ting_discard_candidates(me.counts())) if fast else set(offered)
    out: list[tuple[Tile, bool, WaitAnalysis]] = []
    for tile in sorted(offered):
        if tile not in worth:
            continue
        rest = me.without(tile)
        if fast and not hand_facts(rest)[1]:
            continue
        analysis = analyse_waits(rules, ting_context(state, seat, rest, me.melds))
        if analysis.ready:
            out.append((tile, offered[tile], analysis))
    return out


def _analysis_json(analysis: WaitAnalysis, unseen: list[int]) -> dict[str, Any]:
    return {
        "waits": _waits_json(analysis.legal, unseen),
        "blocked": [
            {"tile": tile_name(t), "reason": reason, "unseen": unseen[t]}
            for t, reason in analysis.blocked
        ],
    }


def _waits_json(waits: tuple[Tile, ...], unseen: list[int]) -> list[dict[str, Any]]:
    return [{"tile": tile_name(t), "unseen": unseen[t]} for t in waits]
