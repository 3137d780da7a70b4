"""What every variant's hand rules share: readings of a win, legal waits, options, payments.

A variant's own hand rules are in its package (``rules/variants/<key>/wins.py``) and reached
through its :class:`~rules.variant.Variant` (``variant.rules``). The round engine and the judge
ask exactly the same questions of a :class:`HandRules`:

* ``judge_win(WinContext) -> WinVerdict``: legal, fan, total, capped ``payments`` and the
  uncapped pairwise ``transfers`` of the win alone; or the first failing ``reason``;
* ``judge_ting(TingContext) -> TingVerdict``: legal waits if ting were declared now, whether
  ting is allowed, and the reason when it is not; ``ting_ok_after(ctx)`` is its yes/no;
* ``kong_transfers(konger=, meld=, options=)``: what the others pay for a kong (杠分);
* Harbin also has ``ting_conditions(ctx)`` (its ting conditions 1–6 for 听 / 吃听).

A variant subclasses :class:`HandRules` and states, like its spec page, its ``conditions`` (the
``reason`` keys in order, ``not_complete`` first), :meth:`HandRules.failure` (the first condition a
reading breaks), :meth:`HandRules.score` (fan and transfers of a legal reading) and
:meth:`HandRules.kong_value`.

**Readings** (spec README, *Hand shapes*): a win is evaluated once per decomposition of the hand
and per set the winning tile can be read into (and, for a wildcard, per kind it can stand for).
"The reading that satisfies every condition and pays the winner most is used"; ties go to the
larger ``total``, then to the wait item in the order edge, closed, single (a variant's spec may
say otherwise: :meth:`HandRules.tie_break`). When no reading is
legal the ``reason`` is the first condition that no reading satisfying the earlier ones meets,
i.e. the latest first-failure over all readings.

**独听** (single wait) is computed from the hand without its winning tile (without the wildcard for
a treasure win) as the number of legal winning kinds judged as if ting were declared, before any
treasure substitution (spec README, *Wait types*).

>>> from rules.registry import judged_variant
>>> judged_variant("changchun").rules.conditions[:2]
('not_complete', 'not_ting')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any, ClassVar, Literal

from rules.case_facts import ExtraFact
from rules.errors import InvalidCase, RulesError
from rules.hand import Meld, TingContext, TingVerdict, Transfer, WinContext, WinVerdict
from rules.payments import Share, cap_transfers, nets, share_transfers
from rules.shapes import CHOW, PONG, ConcealedSet, decompositions, shape_waits
from rules.tiles import EAST, HONOR, NORTH, NUM_KINDS, RED, WHITE, Tile, parse_tile

Wait = Literal["open", "edge", "closed", "single", "dual_pong", "special"]
"""Wait types of README *Wait types*; ``special`` is a variant's own set (Siping 中发白)."""
SEATS = (0, 1, 2, 3)
_WAIT_PREFERENCE: Mapping[str, int] = {"edge": 3, "closed": 2, "single": 1}


@dataclass(frozen=True, slots=True)
class Reading:
    """One reading of a complete hand: its concealed sets, its pair and where the winning tile sits.

    ``counts`` are the concealed tiles with the winning tile as read (a wildcard counts as the tile
    it is read as); ``all_counts`` add the melds' tiles. ``win_set`` is the index in ``sets`` of
    the set completed by the winning tile, or -1 when it completed the pair.
    """

    pair: Tile
    sets: tuple[ConcealedSet, ...]
    win_tile: Tile
    win_set: int
    wait: Wait
    counts: tuple[int, ...]
    all_counts: tuple[int, ...]

    @property
    def pongs(self) -> tuple[Tile, ...]:
        """Concealed pongs (刻子) of the reading, the one completed by the winning tile included."""
        return tuple(t for kind, t in self.sets if kind == PONG)

    @property
    def chows(self) -> tuple[Tile, ...]:
        """First tiles of the concealed chows of the reading."""
        return tuple(t for kind, t in self.sets if kind == CHOW)

    def sets_before_win(self) -> tuple[ConcealedSet, ...]:
        """The concealed sets complete before the winning tile (the hand held them at 听牌)."""
        return tuple(s for i, s in enumerate(self.sets) if i != self.win_set)


def wait_of_chow(first: Tile, tile: Tile) -> Wait:
    """两面 / 边张 / 坎张 for ``tile`` completing the chow from ``first`` (README, *Wait types*)."""
    position = tile - first
    rank = first % 9
    if position == 1:
        return "closed"
    if position == 0:
        return "edge" if rank == 6 else "open"
    return "edge" if rank == 0 else "open"


def readings_of(counts: Sequence[int], win_tile: Tile, melds: Sequence[Meld]) -> list[Reading]:
    """Every (decomposition, place of the winning tile) of complete concealed ``counts``."""
    concealed = tuple(counts[:NUM_KINDS])
    with_melds = list(concealed)
    for meld in melds:
        for t in meld.tiles:
            with_melds[t] += 1
    all_counts = tuple(with_melds)
    found: dict[tuple[Any, ...], Reading] = {}
    for pair, sets in decompositions(concealed):
        places: list[tuple[int, Wait]] = []
        if pair == win_tile:
            places.append((-1, "single"))
        for i, (kind, first) in enumerate(sets):
            if kind == PONG and first == win_tile:
                places.append((i, "dual_pong"))
            elif kind == CHOW and first <= win_tile <= first + 2:
                places.append((i, wait_of_chow(first, win_tile)))
        for index, wait in places:
            key = (pair, sets, sets[index] if index >= 0 else None, wait)
            found.setdefault(key, Reading(pair, sets, win_tile, index, wait, concealed, all_counts))
    return list(found.values())


@lru_cache(maxsize=4096)
def _counts_of(tiles: tuple[Tile, ...]) -> tuple[int, ...]:
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t] += 1
    return tuple(counts)


def concealed_counts(tiles: Sequence[Tile]) -> list[int]:
    """A fresh count vector (34 kinds) of ``tiles``; memoised, since a ting query recounts."""
    return list(_counts_of(tuple(tiles)))


def meld_counts(melds: Iterable[Meld]) -> list[int]:
    counts = [0] * NUM_KINDS
    for meld in melds:
        for t in meld.tiles:
            counts[t] += 1
    return counts


def suits_in(counts: Sequence[int]) -> set[int]:
    """The suits (0 万, 1 筒, 2 条) that appear in ``counts``."""
    return {s for s in range(3) if any(counts[s * 9 : s * 9 + 9])}


def has_honour(counts: Sequence[int]) -> bool:
    return any(counts[HONOR:NUM_KINDS])


def has_terminal(counts: Sequence[int]) -> bool:
    """A 1 or 9 of a suit (幺九)."""
    return any(counts[t] for t in (0, 8, 9, 17, 18, 26))


def is_dragon(tile: Tile) -> bool:
    """中, 发 or 白."""
    return WHITE <= tile <= RED


def hand_opened(melds: Iterable[Meld]) -> bool:
    """开门: any chow, pong, exposed/added kong or special kong; a concealed kong does not open."""
    return any(m.opens_hand for m in melds)


def has_meld_triplet(melds: Iterable[Meld]) -> bool:
    """A pong or kong among the melds (special kongs count as kongs)."""
    return any(m.kind != "chow" for m in melds)


def one_tile_in_hand(ctx: WinContext) -> bool:
    """手把一: exactly one concealed tile before the winning tile (README)."""
    return len(ctx.concealed) == 2


class WinFacts:
    """Facts about one win computed at most once, lazily (独听 needs a search of waits)."""

    def __init__(self, rules: HandRules, ctx: WinContext) -> None:
        self.rules = rules
        self.ctx = ctx

    @cached_property
    def concealed_before(self) -> tuple[Tile, ...]:
        """The concealed tiles before the win: without the winning tile (or the wildcard)."""
        tiles = list(self.ctx.concealed)
        tiles.remove(self.ctx.win_tile)
        return tuple(tiles)

    @cached_property
    def counts_before(self) -> list[int]:
        """Concealed and meld tiles before the winning tile (听牌时的手牌)."""
        counts = concealed_counts(self.concealed_before)
        for t, n in enumerate(meld_counts(self.ctx.melds)):
            counts[t] += n
        return counts

    @cached_property
    def waits_before(self) -> tuple[Tile, ...]:
        """Legal winning kinds of the hand before the win, as if ting were declared."""
        ctx = self.ctx
        extra = {k: v for k, v in ctx.extra.items() if k != "duibao"}
        ting = TingContext(
            variant=ctx.variant,
            dealer=ctx.dealer,
            seat=ctx.winner,
            concealed=self.concealed_before,
            melds=ctx.melds,
            opened=ctx.opened,
            options=ctx.options,
            extra=extra,
        )
        verdict = self.rules.judge_ting(ting)
        return verdict.waits if verdict.ting_allowed else ()

    @cached_property
    def single_wait(self) -> bool:
        """独听: exactly one legal winning kind (README, *Wait types*)."""
        return len(self.waits_before) == 1

    @cached_property
    def winner_opened(self) -> bool:
        """开门 of the winner, from the melds (the variant says which melds open)."""
        return any(self.rules.meld_opens(m) for m in self.ctx.melds)

    def opened(self, seat: int) -> bool:
        """Whether ``seat`` has opened; the winner's own flag comes from the melds (judge.md)."""
        return self.winner_opened if seat == self.ctx.winner else bool(self.ctx.opened[seat])

    @property
    def self_drawn(self) -> bool:
        return self.ctx.self_drawn

    @property
    def discarder(self) -> int | None:
        """The seat paying as discarder on a discard or a robbed kong (抢杠 pays like a discard)."""
        return None if self.ctx.self_drawn else self.ctx.discarder


@dataclass(frozen=True, slots=True)
class Scored:
    """A legal reading's score: the fan shown, the total, the uncapped transfers and the shares
    they pay (each with the items that make it)."""

    fan: dict[str, int]
    total: int
    transfers: tuple[Transfer, ...]
    shares: tuple[Share, ...] = ()

    @classmethod
    def of_shares(cls, fan: dict[str, int], total: int, shares: Sequence[Share]) -> Scored:
        """The score whose transfers pay exactly ``shares``."""
        return cls(fan, total, share_transfers(shares), tuple(shares))


class HandRules:
    """The hand rules of one variant (win conditions, ting, fan, payments, kong payments).

    The room options they read (``ctx.options``) are the variant's (:mod:`rules.options`),
    already checked and merged with their defaults by the engine or the judge."""

    conditions: ClassVar[tuple[str, ...]] = ("not_complete",)
    tiles_used: ClassVar[frozenset[Tile]] = frozenset(range(NUM_KINDS))
    has_treasure: ClassVar[bool] = False
    has_duibao: ClassVar[bool] = False
    """对宝 (a win on seeing the treasure, ``extra.duibao``) exists (Changchun)."""
    has_chow: ClassVar[bool] = True
    """Chows exist (Li-Si has none: a case with a chow is refused)."""
    hand_size: ClassVar[int] = 13
    """Tiles of a hand between turns (13; Taiwan 16): a win holds ``hand_size + 1``."""
    has_flowers: ClassVar[bool] = False
    item_unit: ClassVar[str] = "fan"
    """What the items of a win count in, as players say it: ``fan`` (番), ``tai`` (台) or
    ``fen`` (分, Li-Si's score S); payments are points (分) everywhere."""
    """Flowers (花牌) are played; they are set aside, never in a hand (``extra.flowers``)."""
    has_cap: ClassVar[bool] = True
    """The payments are capped by the option ``cap`` (a variant without the option ignores a
    ``cap`` key: judge.md, "Unknown option keys are ignored")."""
    extra_facts: ClassVar[tuple[ExtraFact, ...]] = ()
    """The ``extra`` keys of a case the variant spec names (judge.md, ``extra``), for the
    calculator's form (:mod:`rules.case_facts`); none here."""

    def hand_sizes(self) -> tuple[int, ...]:
        """The hand sizes a judge case may have (``hand_size``; ``shape`` takes 13 or 16)."""
        return (self.hand_size,)

    def special_kongs(self, options: Mapping[str, Any]) -> frozenset[str]:
        """The special kongs (``Meld.name``) a hand may hold under ``options`` (none here)."""
        return frozenset()

    def validate_extra(self, extra: Mapping[str, Any]) -> None:
        """Raise InvalidCase for a malformed variant fact in a case's ``extra`` (none here)."""

    def validate_win(self, ctx: WinContext) -> None:
        """Raise InvalidCase for a win case the variant's spec calls invalid as a whole (成麻's
        ``out``, ``co_winners``, ``first_turn`` …); none here."""

    def validate_ting(self, ctx: TingContext) -> None:
        """Raise InvalidCase for a ting case the variant's spec calls invalid; none here."""

    def judge_answer(self, ctx: WinContext) -> dict[str, Any]:
        """The judge's answer to a win case: the verdict, plus any key the variant's spec adds
        (成麻's ``transfer``)."""
        return self.judge_win(ctx).as_json()

    # --- readings and verdicts -----------------------------------------------------------------
    def readings(self, ctx: WinContext) -> list[Reading]:
        """Every reading of the win; a wildcard (摸宝) is read as each kind that completes it."""
        counts = concealed_counts(ctx.concealed)
        if not ctx.treasure_win:
            return readings_of(counts, ctx.win_tile, ctx.melds)
        counts[ctx.win_tile] -= 1
        in_melds = meld_counts(ctx.melds)
        found: list[Reading] = []
        for kind in shape_waits(counts):
            # A wildcard stands only for a kind the hand holds fewer than four of (README).
            if kind not in self.tiles_used or counts[kind] + in_melds[kind] >= 4:
                continue
            counts[kind] += 1
            found.extend(readings_of(counts, kind, ctx.melds))
            counts[kind] -= 1
        return found

    def failure(self, ctx: WinContext, reading: Reading, facts: WinFacts) -> str | None:
        """The first condition (a ``conditions`` key) this reading breaks, or None."""
        return None

    def score(self, ctx: WinContext, reading: Reading, facts: WinFacts) -> Scored:
        """Fan, total and transfers of a legal reading."""
        return Scored({}, 0, ())

    def tie_break(self, reading: Reading, scored: Scored) -> tuple[int, ...]:
        """What decides between legal readings that pay the winner the same and have the same
        ``total`` (larger first): the wait item in the order edge, closed, single (README,
        *Hand shapes*). A variant whose spec breaks ties otherwise overrides it (Taiwan 16)."""
        return (_WAIT_PREFERENCE.get(reading.wait, 0),)

    def judge_win(self, ctx: WinContext) -> WinVerdict:
        """Legal with fan, total, capped payments and uncapped transfers, or the failing reason."""
        if ctx.win_tile not in ctx.concealed:
            raise InvalidCase("the winning tile must be among the concealed tiles")
        facts = WinFacts(self, ctx)
        latest = 0
        best: tuple[tuple[int, ...], Scored] | None = None
        for reading in self.readings(ctx):
            reason = self.failure(ctx, reading, facts)
            if reason is not None:
                latest = max(latest, self.conditions.index(reason))
                continue
            scored = self.score(ctx, reading, facts)
            gain = nets(scored.transfers)[ctx.winner]
            rank = (gain, scored.total, *self.tie_break(reading, scored))
            if best is None or rank > best[0]:
                best = (rank, scored)
        if best is None:
            return WinVerdict(legal=False, reason=self.conditions[latest])
        scored = best[1]
        cap = ctx.options.get("cap") if self.has_cap else None
        capped = cap_transfers(scored.transfers, cap)
        return WinVerdict(
            legal=True,
            fan=scored.fan,
            total=scored.total,
            payments=nets(capped),
            transfers=scored.transfers,
            shares=scored.shares,
        )

    def is_legal_win(self, ctx: WinContext) -> str | None:
        """None when some reading of the win is legal, else the reason (no scoring)."""
        facts = WinFacts(self, ctx)
        latest = 0
        for reading in self.readings(ctx):
            reason = self.failure(ctx, reading, facts)
            if reason is None:
                return None
            latest = max(latest, self.conditions.index(reason))
        return self.conditions[latest]

    def judge_ting(self, ctx: TingContext) -> TingVerdict:
        """Legal waits of a 3n+1 hand if ting were declared now (README, *A kind: ting query*)."""
        counts = concealed_counts(ctx.concealed)
        in_melds = meld_counts(ctx.melds)
        candidates = sorted({*shape_waits(counts), *self.special_waits(ctx, counts)})
        shape = [t for t in candidates if t in self.tiles_used and counts[t] + in_melds[t] < 4]
        if not shape:
            return TingVerdict(waits=(), ting_allowed=False, reason="not_ready")
        legal: list[Tile] = []
        first_reason: str | None = None
        for tile in shape:
            reason = self.is_legal_win(self._hypothetical_win(ctx, tile))
            if reason is None:
                legal.append(tile)
            elif first_reason is None:
                first_reason = reason
        if legal:
            return TingVerdict(waits=tuple(legal), ting_allowed=True)
        return TingVerdict(waits=tuple(shape), ting_allowed=False, reason=first_reason)

    def special_waits(self, ctx: TingContext, counts: Sequence[int]) -> tuple[Tile, ...]:
        """Winning kinds from a variant's own sets, beyond four sets and a pair (none here)."""
        return ()

    def ting_ok_after(self, ctx: TingContext) -> bool:
        """The hand may declare ting: it is ready and at least one wait is a legal win."""
        verdict = self.judge_ting(ctx)
        return verdict.ting_allowed and bool(verdict.waits)

    def _hypothetical_win(self, ctx: TingContext, tile: Tile) -> WinContext:
        """The win on ``tile`` asked by a ting query: ting declared, self-drawn, no treasure."""
        return WinContext(
            variant=ctx.variant,
            dealer=ctx.dealer,
            winner=ctx.seat,
            concealed=(*ctx.concealed, tile),
            melds=ctx.melds,
            win_tile=tile,
            win_by="self_draw",
            ting=True,
            opened=ctx.opened,
            options=ctx.options,
            extra={k: v for k, v in ctx.extra.items() if k != "duibao"},
        )

    def meld_opens(self, meld: Meld) -> bool:
        """Whether ``meld`` opens the hand (开门); every meld but a concealed kong by default."""
        return meld.opens_hand

    # --- payments --------------------------------------------------------------------------------
    def kong_value(self, meld: Meld) -> int:
        """Points (× base) each other player pays for ``meld`` (杠分); 0 where kongs pay nothing."""
        return 0

    def kong_transfers(
        self, *, konger: int, meld: Meld, options: Mapping[str, Any]
    ) -> tuple[Transfer, ...]:
        """Each other player pays the konging player ``kong_value × base``, whatever the outcome.

        For a special kong the value covers the kong and every tile added to it so far
        (``meld.tiles``); the engine pays the difference when a tile is added.
        """
        amount = self.kong_value(meld) * int(options.get("base", 1))
        if amount <= 0:
            return ()
        return tuple(Transfer(seat, konger, amount) for seat in SEATS if seat != konger)


def wind_extra(value: Any, default: Tile, name: str) -> Tile:
    """A wind fact of a case's ``extra`` (``round_wind`` / ``seat_wind``, judge.md): ``"1z"``–
    ``"4z"`` or the tile's int; ``default`` when absent. Siping and Taiwan 16 read them."""
    if value is None:
        return default
    tile = value
    if isinstance(value, str):
        try:
            tile = parse_tile(value)
        except RulesError:
            raise InvalidCase(f"extra.{name} must be a wind 1z–4z, got {value!r}") from None
    if not isinstance(tile, int) or isinstance(tile, bool) or not EAST <= tile <= NORTH:
        raise InvalidCase(f"extra.{name} must be a wind 1z–4z, got {value!r}")
    return tile
