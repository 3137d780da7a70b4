"""``hard`` (困难), issue 26: ``normal`` plus the variant's payments, defence where dealing in
costs, and 成麻's void suit chosen by what is left of the hand.

* **Ready hands by value** (:func:`rank_by_value`): among the discards that leave the hand ready,
  the one whose waits are worth the most points in the
  variant's own payments (:func:`rules.bots.value.ready_value`), not the one with the most
  winning tiles.
* **Claims** (:func:`claim_worth_it`): where a closed hand scores
  (:attr:`~rules.variant.BotFacts.closed_scores`), only those that bring the hand a tile closer;
  elsewhere as ``normal``.
* **Defence** (:func:`defends`, :data:`FOLD_FROM`, :func:`rules.bots.evaluate.danger`) against a
  declared ting or an opponent with three melds: folding only where the discarder pays a win
  alone (:attr:`~rules.variant.BotFacts.hard_folds`: Li-Si, 成麻; or a 点炮全包 / 包三家 room).
  Where everyone pays (Changchun, Harbin, Siping)
  a deal-in costs the discarder one share more than the others, the same as the winner's
  self-draw would have cost it, and in Taiwan, where the measured fold lost points (a ting
  declared by every ready hand is a weak threat on one tile), ``hard`` plays on: there a ting
  locks the hand (:attr:`~rules.variant.BotFacts.ting_locks`), so the tiles let go since a ting
  are safe against it, and ``hard`` throws the safest of the discards that keep the best shanten
  and :data:`LOCKED_KEEP` of its effective tiles (:meth:`HardPlayer._defend_locked`); elsewhere
  the safest of its equally good discards.
* **定缺** (:func:`void_cost`): the suit held least, and between suits held as often the one whose
  loss leaves the hand the closest to a win (shanten of the other two suits, then their
  effective tiles; ordering by that alone, before the count, measured worse in the arena);
  **换三张** (:func:`exchange_cost`) passes the three tiles whose loss keeps the best such hand.

Everything is read from the seat's :class:`~rules.bots.view.BotView` only.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rules.bots.evaluate import HandValue, danger, threats
from rules.bots.policy import Player, _usefulness
from rules.bots.shanten import effective_tiles
from rules.bots.value import ready_value
from rules.bots.view import BotView
from rules.engine.actions import Action, ChowTing, ExposedKong
from rules.tiles import Tile

SUITS = "mps"


def defends(bv: BotView) -> bool:
    """Whether ``hard`` folds: the discarder pays a discard win alone (the variant's rule,
    :attr:`~rules.variant.BotFacts.hard_folds`: Taiwan aside, see the module; or the room's
    点炮全包 / 包三家 option)."""
    return bv.facts.hard_folds or bool(
        bv.options.get("dianpao_quanbao") or bv.options.get("dianpao_baosan")
    )


FOLD_FROM = 2
"""The shanten from which a hand folds against a ready opponent where the discarder pays alone
(two tiles away or more: its chance to win first is small, the deal-in costs it everything)."""


def rank_by_value(
    bv: BotView, counts: list[int], ordered: Sequence[Tile], values: dict[Tile, HandValue]
) -> list[Tile]:
    """``ordered`` (``normal``'s ranking) with the discards that leave the hand ready re-ranked
    by the expected points of their waits (:func:`~rules.bots.value.ready_value`); a tie keeps
    ``normal``'s order. Discards that leave the hand farther stay behind them."""
    best = values[ordered[0]]
    if best.shanten != 0:
        return list(ordered)
    ready = [t for t in ordered if values[t].shanten == 0 and values[t].waits]
    if len(ready) < 2:
        return list(ordered)
    worth: dict[Tile, float] = {}
    for tile in ready:
        counts[tile] -= 1
        worth[tile] = ready_value(bv, counts, bv.melds, values[tile].waits)
        counts[tile] += 1
    position = {t: i for i, t in enumerate(ordered)}
    ranked = sorted(ready, key=lambda t: (-worth[t], position[t]))
    return ranked + [t for t in ordered if t not in worth]


def void_cost(bv: BotView, counts: Sequence[int], suit: int) -> tuple[int, int, int]:
    """What declaring ``suit`` void costs (成麻 定缺): the shanten of the hand without that suit's
    tiles (they will all be thrown, each turn a draw), then minus its effective tiles, then the
    tiles of the suit (fewer to throw first)."""
    rest = list(counts)
    for t in range(suit * 9, suit * 9 + 9):
        rest[t] = 0
    base, effective = effective_tiles(rest, sum(counts) // 3, bv.unseen)
    return (base, -effective, sum(counts[suit * 9 : suit * 9 + 9]))


def exchange_cost(bv: BotView, counts: Sequence[int], tiles: Sequence[Tile]) -> tuple[int, ...]:
    """What passing ``tiles`` on costs (成麻 换三张): the best :func:`void_cost` of the hand left,
    then how connected the passed tiles were."""
    rest = list(counts)
    for t in tiles:
        rest[t] -= 1
    best = min(void_cost(bv, rest, s) for s in range(3))
    return (*best, sum(_usefulness(t, counts) for t in tiles))


def claim_worth_it(
    action: Action,
    now: HandValue,
    after: HandValue,
    *,
    best_key: tuple[int, int],
    must_open: bool,
) -> bool:
    """Whether ``hard`` claims: only when the claim lowers the shanten (``normal`` also claims
    for more effective tiles at the same shanten, which throws away a closed hand's items —
    长春 立胡, 台湾 门清 — and a tile of flexibility for little),
    or when a hand that must be opened to win (哈尔滨, 四平: 开门) opens at no cost, or a 吃听
    makes the hand ready, or an exposed kong costs nothing."""
    if isinstance(action, ChowTing) and after.shanten == 0:
        return True
    if isinstance(action, ExposedKong) and after.shanten <= now.shanten:
        return True
    if must_open and after.shanten <= now.shanten:
        return True
    return after.shanten < now.shanten and after.key() < best_key


class HardPlayer(Player):
    """One decision of ``hard``: ``normal``'s player with the pieces of this module."""

    def __init__(self, bv: BotView, rng: random.Random) -> None:
        super().__init__(bv, rng, effective=True, claims=True, wander=0.0)

    def _choose_void(self, voids: list[Any]) -> Action:
        """定缺: the suit held least (fewest tiles to throw first, as ``normal``), and between
        suits held as often, the one whose loss leaves the best hand (:func:`void_cost`)."""
        best: Action = min(voids, key=lambda a: self._void_key(SUITS.index(a.suit)))
        return best

    def _void_key(self, suit: int) -> tuple[int, ...]:
        held = sum(self.counts[suit * 9 : suit * 9 + 9])
        return (held, *void_cost(self.bv, self.counts, suit))

    def _choose_three(self, threes: list[Any]) -> Action:
        chosen: Action = min(threes, key=lambda a: exchange_cost(self.bv, self.counts, a.tiles))
        return chosen

    def _worth_claiming(
        self,
        action: Action,
        now: HandValue,
        after: HandValue,
        *,
        best_key: tuple[int, int],
        must_open: bool,
    ) -> bool:
        """Where a closed hand scores (:attr:`~rules.variant.BotFacts.closed_scores`: 台湾 门清,
        +1 fan: every payment doubles; 台湾 门清, +1 tai, 3 with 自摸), a claim only when it brings
        the hand a tile closer (:func:`claim_worth_it`); elsewhere (a hand that must open, or
        scores nothing for staying closed) ``normal``'s rule."""
        if not self.bv.facts.closed_scores:
            return super()._worth_claiming(
                action, now, after, best_key=best_key, must_open=must_open
            )
        return claim_worth_it(action, now, after, best_key=best_key, must_open=must_open)

    def _pick_discard(self, values: dict[Tile, HandValue]) -> Tile:
        ordered = sorted(values, key=lambda t: (*values[t].key(), _usefulness(t, self.counts), -t))
        ranked = rank_by_value(self.bv, self.counts, ordered, values)
        against = threats(self.bv)
        if not against:
            return ranked[0]
        if defends(self.bv):
            return self._defend(ranked, values, against)
        if self.bv.facts.ting_locks:
            return self._defend_locked(ranked, values, against)
        return self._safest_of_equals(ranked, values, against)

    def _safest_of_equals(
        self, ranked: list[Tile], values: dict[Tile, HandValue], against: list[int]
    ) -> Tile:
        """Where everyone pays a win, against a ready opponent: among the discards exactly as
        good as the first (same shanten and effective tiles; a ready hand: its chosen wait),
        the safest (:func:`rules.bots.evaluate.danger`). It costs the hand nothing."""
        first = ranked[0]
        if values[first].shanten == 0:
            return first
        equal = [t for t in ranked if values[t].key() == values[first].key()]
        position = {t: i for i, t in enumerate(ranked)}
        return min(equal, key=lambda t: (danger(self.bv, t, against), position[t]))

    def _defend_locked(
        self, ranked: list[Tile], values: dict[Tile, HandValue], against: list[int]
    ) -> Tile:
        """Where a ting locks the hand (台湾), against a ready seat: a ready hand keeps its
        chosen wait; otherwise the safest (:func:`~rules.bots.evaluate.danger`, where a kind the
        locked hands let go by is safe) of the discards that keep the best shanten and
        :data:`LOCKED_KEEP` of its effective tiles. It never folds (folding from two tiles away
        measured worse: a win is worth about 6.5 points there, a deal-in 3.7)."""
        best = values[ranked[0]]
        if best.shanten == 0:
            return ranked[0]
        floor = best.effective * LOCKED_KEEP
        keep = [
            t for t in ranked if values[t].shanten == best.shanten and values[t].effective >= floor
        ]
        position = {t: i for i, t in enumerate(ranked)}
        return min(keep, key=lambda t: (danger(self.bv, t, against), position[t]))

    def _defend(
        self, ranked: list[Tile], values: dict[Tile, HandValue], against: list[int]
    ) -> Tile:
        """Fold onto the safest tile when :data:`FOLD_FROM` tiles away or more; otherwise push,
        taking the safest of the discards that keep the best shanten and nearly all (80%) of its
        effective tiles (a ready hand: its chosen wait, or one as good)."""
        bv = self.bv
        best = values[ranked[0]]
        risk = {t: danger(bv, t, against) for t in ranked}
        position = {t: i for i, t in enumerate(ranked)}
        if best.shanten >= FOLD_FROM:
            return min(ranked, key=lambda t: (risk[t], position[t]))
        floor = best.effective * 0.8
        keep = [
            t for t in ranked if values[t].shanten == best.shanten and values[t].effective >= floor
        ]
        return min(keep, key=lambda t: (risk[t], position[t]))


LOCKED_KEEP = 0.8
"""Where a ting locks the hand (:attr:`~rules.variant.BotFacts.ting_locks`), playing on against
a ready seat: the share of the best discard's effective tiles a safer
discard of the same shanten must keep."""


def hard(bv: BotView, rng: random.Random) -> Action:
    """困难 (issue 26): see the module's docstring."""
    return HardPlayer(bv, rng).choose()
