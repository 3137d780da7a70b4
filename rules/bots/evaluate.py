"""How good a hand is, as a bot judges it from its view: shanten plus the variant's winning
conditions, effective tiles against the tiles not yet seen, and how dangerous a discard is.

Before a hand is ready its variant's conditions are approximated by a few counts (a missing suit,
no terminal, not opened where a win needs an open hand, a void suit still held: each costs about
one more tile to fix, so each adds one to the shanten). Once a hand is ready in shape, its waits
are judged **exactly** by the variant's own hand rules (:func:`rules.hints.analyse_waits`, the
judge's code): a ready hand whose waits are all refused counts as one tile away.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.bots.shanten import effective_tiles, shanten
from rules.bots.view import BotView
from rules.hand import Meld, TingContext
from rules.hints import analyse_waits
from rules.registry import get_variant
from rules.tiles import HONOR, NUM_KINDS, Tile


@dataclass(frozen=True, slots=True)
class HandValue:
    """A 3n+1 hand's worth: lower ``shanten`` first, then more ``effective`` unseen tiles;
    ``ready`` when its waits are legal wins (``waits`` are those kinds)."""

    shanten: int
    effective: int
    waits: tuple[Tile, ...] = ()

    def key(self) -> tuple[int, int]:
        """Sort key: the best hand has the smallest key."""
        return (self.shanten, -self.effective)


def counts_of(tiles: Sequence[Tile]) -> list[int]:
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t] += 1
    return counts


def tiles_of(counts: Sequence[int]) -> tuple[Tile, ...]:
    return tuple(t for t in range(NUM_KINDS) for _ in range(counts[t]))


def void_suit(bv: BotView) -> int | None:
    """The suit (0 m, 1 p, 2 s) this seat declared void (成麻 定缺), if the view says so."""
    que = bv.extra.get("que")
    return "mps".index(que) if que in ("m", "p", "s") else None


def condition_penalty(bv: BotView, counts: Sequence[int], melds: Sequence[Meld]) -> int:
    """Tiles a hand still needs beyond its shape to meet its variant's winning conditions, as
    its :class:`~rules.variant.BotFacts` estimate them (the conditions themselves are in
    ``rules/variants/<key>/wins.py``): the suits it lacks, a kind it needs, a triplet, an open
    hand, and every tile of a void suit still held."""
    facts = bv.facts
    penalty = 0
    if facts.conditioned:
        every = list(counts)
        for meld in melds:
            for t in meld.tiles:
                every[t] += 1
        suits = sum(1 for s in range(3) if any(every[s * 9 : s * 9 + 9]))
        penalty += facts.suit_gap[suits]
        if facts.needs_one_of and not any(every[t] for t in facts.needs_one_of):
            penalty += 1
        if (
            facts.needs_triplet
            and not any(n >= 2 for n in every)
            and not any(m.kind != "chow" for m in melds)
        ):
            penalty += 1
        opened = any(not m.concealed for m in melds)
        if facts.must_open and not opened and not facts.open_waived(bv.options):
            penalty += 1
    void = void_suit(bv)
    if void is not None:
        penalty += sum(counts[void * 9 : void * 9 + 9])
    return penalty


def legal_waits(bv: BotView, counts: Sequence[int], melds: tuple[Meld, ...]) -> tuple[Tile, ...]:
    """The kinds on which this 3n+1 hand would win, by the variant's own rules (ting assumed,
    as a ting query asks)."""
    variant = get_variant(bv.variant)
    opened = list(bv.opened)
    opened[bv.seat] = any(variant.rules.meld_opens(m) for m in melds)
    ctx = TingContext(
        variant=bv.variant,
        dealer=bv.dealer,
        seat=bv.seat,
        concealed=tiles_of(counts),
        melds=melds,
        opened=(opened[0], opened[1], opened[2], opened[3]),
        options=bv.options,
        extra=bv.extra,
    )
    return analyse_waits(variant.rules, ctx).legal


def need_of(counts: Sequence[int]) -> int:
    """Sets still to make among ``counts`` concealed tiles (3n+1 or 3n+2 of them: n)."""
    return sum(counts) // 3


def seven_pairs_shanten(counts: Sequence[int]) -> int:
    """Shanten of seven pairs (four equal tiles count as two pairs, as 成麻 reads them)."""
    return 6 - sum(n // 2 for n in counts)


def value_of(
    bv: BotView, counts: list[int], melds: tuple[Meld, ...], *, effective: bool = True
) -> HandValue:
    """The worth of a 3n+1 hand (``counts`` concealed, ``melds``) from this seat's view."""
    need = need_of(counts)
    base = shanten(counts, need)
    if bv.facts.seven_pairs and not melds:
        pairs = seven_pairs_shanten(counts)
        if pairs < base:
            base = pairs
            if base > 0:
                singles = sum(bv.unseen[t] for t in range(NUM_KINDS) if counts[t] % 2)
                penalty = condition_penalty(bv, counts, melds)
                return HandValue(base + penalty, singles if effective else 0)
    if base <= 0:
        waits = legal_waits(bv, counts, melds)
        left = sum(bv.unseen[t] for t in waits)
        if waits:
            return HandValue(0, left if left else 0, waits)
        # Ready in shape but every wait refused: one tile from a legal hand at best.
        return HandValue(max(1, condition_penalty(bv, counts, melds)), 0)
    penalty = condition_penalty(bv, counts, melds)
    if not effective:
        return HandValue(base + penalty, 0)
    _, count = effective_tiles(counts, need, bv.unseen, base)
    return HandValue(base + penalty, count)


def discard_values(
    bv: BotView,
    counts: list[int],
    melds: tuple[Meld, ...],
    candidates: Sequence[Tile],
    *,
    effective: bool = True,
) -> dict[Tile, HandValue]:
    """The worth of the hand after each candidate discard (a 3n+2 hand's options). Effective
    tiles are counted only for the discards that reach the best rough shanten (the others lose),
    or the next one when none of those stays as good once judged exactly."""
    shapes: dict[Tile, int] = {}
    pairs = bv.facts.seven_pairs and not melds
    for tile in candidates:
        counts[tile] -= 1
        shape = shanten(counts, need_of(counts))
        if pairs:
            shape = min(shape, seven_pairs_shanten(counts))
        shapes[tile] = shape + condition_penalty(bv, counts, melds)
        counts[tile] += 1
    best = min(shapes.values())
    out = {tile: HandValue(rough, 0) for tile, rough in shapes.items()}
    for level in (best, best + 1):
        for tile, rough in shapes.items():
            if rough == level:
                counts[tile] -= 1
                out[tile] = value_of(bv, counts, melds, effective=effective)
                counts[tile] += 1
        if min(v.shanten for v in out.values()) <= level:
            break  # a ready shape judged illegal may fall behind the next level: then look there
    return out


# --- defence ---------------------------------------------------------------------------------


def threats(bv: BotView) -> list[int]:
    """Opponents (indexes into ``bv.opponents``) who are ready or obviously close: a declared
    ting, or melds enough to hold four tiles or fewer in hand (three of a 13-tile hand, four of
    Taiwan's 16)."""
    melds = (get_variant(bv.variant).rules.hand_size - 4) // 3
    out: list[int] = []
    for i, opp in enumerate(bv.opponents):
        if opp.out:
            continue
        if opp.ting or opp.melds >= melds:
            out.append(i)
    return out


def discarder_pays_all(bv: BotView) -> bool:
    """Whether a discard win is paid by the discarder alone: the variant's rule
    (:attr:`~rules.variant.BotFacts.discarder_pays_all`) or the room's 点炮全包 / 包三家 option;
    elsewhere all three pay and the discarder only one share more (``dianpao``)."""
    return bv.facts.discarder_pays_all or bool(
        bv.options.get("dianpao_quanbao") or bv.options.get("dianpao_baosan")
    )


def danger(bv: BotView, tile: Tile, against: Sequence[int]) -> float:
    """How likely ``tile`` is to deal in to the ``against`` opponents (0 safe … ~10), by the
    usual reasoning: a tile the opponent discarded cannot win for them here (现物, and in these
    variants a player who passed a tile may still win on it later, so it is only nearly safe);
    a suited tile three away from one they discarded is less likely a two-sided wait (筋); an
    honour with few copies unseen can only be a pair wait; terminals are safer than middles.
    Where a ting locks the hand, a kind let go by a ready seat since its ting is safe against it
    (:attr:`~rules.bots.view.Opponent.passed`, filled only there)."""
    total = 0.0
    for i in against:
        opp = bv.opponents[i]
        if opp.void is not None and tile < HONOR and tile // 9 == opp.void:
            continue  # 成麻: nobody wins holding a tile of their void suit
        if opp.ting and tile in opp.passed:
            continue  # 台湾: its locked hand let this kind go by since its ting
        if tile in opp.discards:
            total += 0.2
            continue
        if tile >= HONOR:
            left = bv.unseen[tile]
            total += (0.3, 1.0, 2.5, 3.5, 3.5)[left]
            continue
        rank = tile % 9
        base = tile - rank
        suji = (rank >= 3 and base + rank - 3 in opp.discards) or (
            rank <= 5 and base + rank + 3 in opp.discards
        )
        middle = 1 <= rank <= 7
        risk = 6.0 if 2 <= rank <= 6 else (4.5 if middle else 3.0)
        if suji:
            risk *= 0.45
        total += risk
    return total
