"""The bots' decisions, per level, from a :class:`~rules.bots.view.BotView` only.

* ``basic``: the bot the tables had before issue 19 (``tables/bots.py``), kept as the arena's
  baseline: always wins, declares ting whenever allowed, never claims, throws the tile with the
  fewest neighbours.
* ``easy`` (简单): plays for shanten only (no counting of effective tiles), claims a pong only
  when it brings the hand a step closer, sometimes picks another of its equally good discards.
* ``normal`` (普通): shanten and effective tiles against the unseen tiles, under the variant's
  conditions (ready hands judged by the variant's own rules); claims (chow, pong, kong) that
  bring the hand closer or open a hand that must be opened; kongs that cost nothing; ting
  whenever the chosen discard allows it.
* ``hard`` (困难): :mod:`rules.bots.hard` (issue 26), a :class:`Player` that weighs ready hands
  by the variant's payments and defends where dealing in costs.

Every decision is a pure function of the view, the room options and the passed-in generator.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from rules.bots.evaluate import (
    HandValue,
    counts_of,
    discard_values,
    value_of,
)
from rules.bots.view import TILE_OF, BotView
from rules.engine.actions import (
    Action,
    AddedKong,
    AddToSpecialKong,
    Chen,
    Chow,
    ChowTing,
    ConcealedKong,
    DeclareWin,
    Discard,
    ExposedKong,
    Pass,
    Pong,
    SelfDrawWin,
    SpecialKong,
)
from rules.hand import SPECIAL_KONGS, Meld
from rules.tiles import Tile

Policy = Callable[[BotView, random.Random], Action]

_WINS = (SelfDrawWin, DeclareWin)


# --- basic: the pre-issue-19 bot, on views ---------------------------------------------------


def _usefulness(tile: Tile, counts: Sequence[int]) -> int:
    """How much a tile is worth keeping: copies held, plus neighbours within two in its suit."""
    score = 3 * (counts[tile] - 1)
    if tile < 27:
        base = tile - tile % 9
        for offset in (-2, -1, 1, 2):
            other = tile + offset
            if base <= other < base + 9 and counts[other]:
                score += 2 if abs(offset) == 1 else 1
    return score


def basic(bv: BotView, rng: random.Random) -> Action:
    """Today's bot before issue 19 (``tables/bots.py`` then): the arena's baseline."""
    legal = bv.legal
    for action in legal:
        if isinstance(action, _WINS):
            return action
    for action in legal:
        if isinstance(action, Pass):
            return action
    discards = [a for a in legal if isinstance(a, Discard)]
    ting = [a for a in discards if a.ting]
    if ting:
        return ting[0]
    if discards:
        counts = counts_of(bv.hand)
        return min(discards, key=lambda a: (_usefulness(a.tile, counts), -a.tile))
    return legal[0]


# --- the levels --------------------------------------------------------------------------------


class Player:
    """One decision of a level: the view, the generator and the level's switches."""

    def __init__(
        self,
        bv: BotView,
        rng: random.Random,
        *,
        effective: bool,
        claims: bool,
        wander: float,
    ) -> None:
        self.bv = bv
        self.rng = rng
        self.effective = effective
        self.claims = claims
        self.wander = wander
        self.counts = counts_of(bv.hand)

    # -- entry --
    def choose(self) -> Action:
        legal = self.bv.legal
        if len(legal) == 1:
            return legal[0]
        for action in legal:
            if isinstance(action, _WINS):
                return action
        phase_kind = self.bv.phase.get("kind")
        # 成麻's secret choices, read by kind (the actions of that variant's flow).
        voids: list[Any] = [a for a in legal if a.kind == "choose_void"]
        if voids:
            return self._choose_void(voids)
        threes: list[Any] = [a for a in legal if a.kind == "exchange_three"]
        if threes:
            return self._choose_three(threes)
        discards = [a for a in legal if isinstance(a, Discard)]
        if phase_kind == "claims" or phase_kind == "rob_kong":
            return self._answer_claim(legal)
        if discards:
            return self._turn(legal, discards)
        chen = [a for a in legal if isinstance(a, Chen)]
        if chen:
            # 抻 forbids discard wins: a bot keeps both ways to win.
            return next((a for a in chen if not a.yes), chen[0])
        for action in legal:
            if isinstance(action, Pass):
                return action
        return legal[0]

    # -- 成麻's secret choices --
    def _choose_void(self, voids: list[Any]) -> Action:
        """定缺: the suit that costs least to give up (:func:`_suit_cost`)."""
        best: Action = min(voids, key=lambda a: _suit_cost(self.counts, "mps".index(a.suit)))
        return best

    def _choose_three(self, threes: list[Any]) -> Action:
        """换三张: three tiles of the shortest suit, the least connected
        (:func:`_exchange_cost`)."""
        chosen: Action = min(threes, key=lambda a: _exchange_cost(self.counts, a.tiles))
        return chosen

    # -- a turn with 3n+2 tiles --
    def _turn(self, legal: Sequence[Action], discards: list[Discard]) -> Action:
        bv = self.bv
        melds = bv.melds
        kinds = sorted({a.tile for a in discards})
        values = discard_values(bv, self.counts, melds, kinds, effective=self.effective)
        best_tile = self._pick_discard(values)
        best = values[best_tile]
        kong = self._kong_choice(legal, best)
        if kong is not None:
            return kong
        declare = [a for a in discards if a.tile == best_tile and a.ting]
        if declare:
            return declare[0]
        plain = [a for a in discards if a.tile == best_tile and not a.ting]
        return plain[0] if plain else declare[0] if declare else discards[0]

    def _pick_discard(self, values: dict[Tile, HandValue]) -> Tile:
        ordered = sorted(values, key=lambda t: (*values[t].key(), _usefulness(t, self.counts), -t))
        best = values[ordered[0]]
        if self.wander and self.rng.random() < self.wander:
            ties = [t for t in ordered if values[t].shanten == best.shanten]
            return ties[self.rng.randrange(len(ties))]
        return ordered[0]

    def _kong_choice(self, legal: Sequence[Action], best: HandValue) -> Action | None:
        """A kong on one's own turn when the hand is no worse for it (kongs pay, or draw a
        replacement)."""
        bv = self.bv
        for action in legal:
            after = None
            if isinstance(action, ConcealedKong):
                after = self._after(
                    remove=(action.tile,) * 4, meld=Meld("kong", (action.tile,) * 4, concealed=True)
                )
            elif isinstance(action, AddedKong | AddToSpecialKong):
                after = self._after(remove=(action.tile,), meld=None)
            elif isinstance(action, SpecialKong):
                family = SPECIAL_KONGS.get(action.name)  # type: ignore[call-overload]
                if family is None:
                    continue
                tiles = tuple(t for t in family if self.counts[t])
                after = self._after(remove=tiles, meld=Meld("special_kong", tiles))
            if after is not None and after.key() <= best.key():
                return action
            if after is not None and bv.ting:
                return action  # the engine offers a kong after ting only if it keeps the waits
        return None

    def _after(self, *, remove: Sequence[Tile], meld: Meld | None) -> HandValue | None:
        counts = self.counts[:]
        for t in remove:
            if counts[t] <= 0:
                return None
            counts[t] -= 1
        melds = self.bv.melds if meld is None else (*self.bv.melds, meld)
        if sum(counts) % 3 == 1:
            return value_of(self.bv, counts, melds, effective=self.effective)
        values = discard_values(self.bv, counts, melds, [t for t in range(34) if counts[t]])
        return min(values.values(), key=HandValue.key)

    # -- a claim window --
    def _answer_claim(self, legal: Sequence[Action]) -> Action:
        bv = self.bv
        pass_action = next((a for a in legal if isinstance(a, Pass)), legal[0])
        if not self.claims:
            return self._easy_claim(legal, pass_action)
        tile = _phase_tile(bv)
        if tile is None:
            return pass_action
        now = value_of(bv, self.counts, bv.melds, effective=self.effective)
        facts = bv.facts
        must_open = (
            facts.must_open
            and not any(not m.concealed for m in bv.melds)
            and not facts.open_waived(bv.options)
        )
        best_action: Action = pass_action
        best_key = now.key()
        for action in legal:
            after = self._claim_value(action, tile)
            if after is None:
                continue
            gain = self._worth_claiming(action, now, after, best_key=best_key, must_open=must_open)
            if gain and (best_action is pass_action or after.key() < best_key):
                best_action = action
                best_key = min(best_key, after.key())
        return best_action

    def _worth_claiming(
        self,
        action: Action,
        now: HandValue,
        after: HandValue,
        *,
        best_key: tuple[int, int],
        must_open: bool,
    ) -> bool:
        """Whether a claim is worth making: the hand is better after it (than now and than the
        best claim so far, ``best_key``), or it opens a hand that must open at no cost, or it
        is a 吃听 that makes the hand ready, or a kong that costs nothing."""
        if after.key() < best_key:
            return True
        if must_open and after.shanten <= now.shanten:
            return True  # a hand that must open to win opens at no cost
        if isinstance(action, ChowTing) and after.shanten == 0:
            return True
        return isinstance(action, ExposedKong) and after.shanten <= now.shanten

    def _easy_claim(self, legal: Sequence[Action], pass_action: Action) -> Action:
        """简单: a pong only when it brings the hand a step closer; a 吃听 (哈尔滨) always."""
        bv = self.bv
        tile = _phase_tile(bv)
        if tile is None:
            return pass_action
        for action in legal:
            if isinstance(action, ChowTing):
                return action
        now = value_of(bv, self.counts, bv.melds, effective=False)
        for action in legal:
            if isinstance(action, Pong):
                after = self._claim_value(action, tile)
                if after is not None and after.shanten < now.shanten:
                    return action
        return pass_action

    def _claim_value(self, action: Action, tile: Tile) -> HandValue | None:
        """The hand's worth after the claim and its best discard (a kong: after the meld)."""
        if isinstance(action, Pong):
            return self._after(remove=(tile, tile), meld=Meld("pong", (tile,) * 3))
        if isinstance(action, Chow | ChowTing):
            rest = list(action.tiles)
            rest.remove(tile)
            return self._after(remove=tuple(rest), meld=Meld("chow", action.tiles))
        if isinstance(action, ExposedKong):
            return self._after(remove=(tile,) * 3, meld=Meld("kong", (tile,) * 4))
        return None


def _suit_cost(counts: Sequence[int], suit: int) -> tuple[int, int]:
    """What giving up a suit costs (成麻 定缺): its tiles, then how well they connect."""
    tiles = [t for t in range(suit * 9, suit * 9 + 9) for _ in range(counts[t])]
    return (len(tiles), sum(_usefulness(t, counts) for t in set(tiles)))


def _exchange_cost(counts: Sequence[int], tiles: Sequence[Tile]) -> tuple[int, int]:
    """What passing three tiles on costs (成麻 换三张): best from the shortest suit, and the
    least connected tiles of it."""
    suit = tiles[0] // 9
    return (_suit_cost(counts, suit)[0], sum(_usefulness(t, counts) for t in tiles))


def _phase_tile(bv: BotView) -> Tile | None:
    name = bv.phase.get("tile")
    return TILE_OF.get(name) if isinstance(name, str) else None


def easy(bv: BotView, rng: random.Random) -> Action:
    return Player(bv, rng, effective=False, claims=False, wander=0.3).choose()


def normal(bv: BotView, rng: random.Random) -> Action:
    return Player(bv, rng, effective=True, claims=True, wander=0.0).choose()


POLICIES: dict[str, Policy] = {"basic": basic, "easy": easy, "normal": normal}
"""The levels decided here; ``hard`` is :func:`rules.bots.hard.hard` (issue 26)."""
