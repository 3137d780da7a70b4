"""What a ready hand is worth in the variant's own payments (issue 26, "expected value with the
variant's payments"), as ``hard`` (困难) weighs it.

``normal`` ranks the ready hands a discard leaves by how many winning tiles are unseen. ``hard``
ranks them by the points they are expected to bring: for each legal wait, the winner's gain if
the hand won on it (the variant's own :meth:`~rules.hand_rules.HandRules.judge_win`, the judge's
code, on the win a ting query asks about: ting declared, self-drawn), weighted by a chance of
winning that grows with the unseen copies of the waits but less than in proportion (four players
race; eight tiles do not win twice as often as four). So a 夹胡 / 卡当 / 边张 / 单调 wait, which
doubles every payment in Changchun, Harbin and Siping and adds a point to Li-Si's and Taiwan's
score, is taken when it is worth more than the wider wait, and so are 清一色 / 对对胡 / 七对 waits
in 成麻, a 立胡 / 门清 hand kept closed, and so on for every item the variant scores.

Only the seat's view is read (its own tiles, the unseen counts, the public options and facts).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from rules.bots.evaluate import tiles_of
from rules.bots.view import BotView
from rules.errors import RulesError
from rules.hand import Meld, TingContext
from rules.registry import get_variant
from rules.tiles import Tile

RACE = 8.0
"""The unseen winning copies at which a ready hand is taken to win half the time against three
others: the chance of a win with n copies is ``n / (n + RACE)`` (a concave proxy: one copy more
helps a narrow wait more than a wide one)."""

_GAIN_MEMO: dict[Hashable, int] = {}
_GAIN_MEMO_LIMIT = 50_000


def _context(bv: BotView, counts: Sequence[int], melds: tuple[Meld, ...]) -> TingContext:
    """The ting query of this seat's 3n+1 hand, as :func:`rules.bots.evaluate.legal_waits`
    builds it (the seat's own facts only)."""
    variant = get_variant(bv.variant)
    opened = list(bv.opened)
    opened[bv.seat] = any(variant.rules.meld_opens(m) for m in melds)
    return TingContext(
        variant=bv.variant,
        dealer=bv.dealer,
        seat=bv.seat,
        concealed=tiles_of(counts),
        melds=melds,
        opened=(opened[0], opened[1], opened[2], opened[3]),
        options=bv.options,
        extra=bv.extra,
    )


def win_gain(bv: BotView, counts: Sequence[int], melds: tuple[Meld, ...], tile: Tile) -> int:
    """Points this seat would gain winning on ``tile`` with the 3n+1 hand ``counts`` + ``melds``
    (self-drawn, ting declared: the judge's hypothetical win of a ting query); 0 if that win is
    not legal. Memoised (a hand's worth does not change while the others play)."""
    ctx = _context(bv, counts, melds)
    key: Hashable | None = (
        ctx.variant,
        ctx.dealer,
        ctx.seat,
        ctx.concealed,
        ctx.melds,
        ctx.opened,
        tile,
        tuple(sorted(ctx.options.items())),
        tuple(sorted((k, str(v)) for k, v in ctx.extra.items())),
    )
    try:
        found = _GAIN_MEMO.get(key)
    except TypeError:  # an unhashable option value: judge without the memo
        key, found = None, None
    if found is not None:
        return found
    rules = get_variant(bv.variant).rules
    try:
        verdict = rules.judge_win(rules._hypothetical_win(ctx, tile))
    except RulesError:
        gain = 0
    else:
        gain = max(0, verdict.payments[bv.seat]) if verdict.legal else 0
    if key is not None:
        if len(_GAIN_MEMO) > _GAIN_MEMO_LIMIT:
            _GAIN_MEMO.clear()
        _GAIN_MEMO[key] = gain
    return gain


def win_chance(copies: float) -> float:
    """The proxy chance that a ready hand with ``copies`` unseen winning tiles wins
    (:data:`RACE`)."""
    return copies / (copies + RACE) if copies > 0 else 0.0


TREASURE_COPIES = 1.0
"""The treasure counted as this many more winning copies (it wins only self-drawn, after the
ting is declared and the treasure picked: in ``normal``'s games about one win in six is a
treasure win against five on the waits themselves)."""

TREASURE_FACTOR = 4
"""A treasure win's gain over the same self-drawn win (+2 fan)."""


def ready_value(
    bv: BotView, counts: Sequence[int], melds: tuple[Meld, ...], waits: Sequence[Tile]
) -> float:
    """Expected points of a ready 3n+1 hand with legal ``waits``: the chance of a win
    (:func:`win_chance` of all unseen winning copies) times the mean gain per winning copy.
    Where a treasure is wild (:attr:`~rules.variant.BotFacts.treasure_wild`), it counts as
    :data:`TREASURE_COPIES` more copies worth :data:`TREASURE_FACTOR` times the best wait's
    gain, so a wait that scores more (夹胡) weighs more against a wider one."""
    copies: float = 0
    weighted: float = 0
    best = 0
    for tile in waits:
        left = bv.unseen[tile]
        gain = win_gain(bv, counts, melds, tile) if left or bv.facts.treasure_wild else 0
        best = max(best, gain)
        if left:
            copies += left
            weighted += left * gain
    if bv.facts.treasure_wild and best:
        copies += TREASURE_COPIES
        weighted += TREASURE_COPIES * TREASURE_FACTOR * best
    if not copies:
        return 0.0
    return win_chance(copies) * weighted / copies
