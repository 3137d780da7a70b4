"""牌谱分析: a review of one seat's every decision in a finished round.

The round is stepped through again (:mod:`rules.replay`: the states before each logged action),
and at each decision of the reviewed seat — a turn (discard, kong, 报听, win), a claim window
(chow, pong, kong, win or pass), 成麻's 定缺 and 换三张, Siping's 抻 — it records:

* what was played (the logged action) and what the ``hard`` bot chooses from the same seat's view
  (:func:`rules.views.seat_view` without hints, the room options, and the generator the live
  table seeds from public facts: ``tables.bots.bot_rng``), and whether they agree;
* on a turn that discards, every candidate discard kind with the hand's **shanten** after it and
  its **effective tiles** (进张: the kinds that bring it closer, and how many copies of each the
  seat has not seen: :func:`rules.hints.unseen_counts`);
* in a claim window, each answer (pass, chow, pong, kong) with the hand it leads to
  (:func:`claim_options`: after a chow or pong, with its best discard);
* the marks of a decision that was clearly worse (:data:`MARKS`).

Definitions (``docs/review.md``):

* **Shanten** is the number of tiles a hand still needs before it is ready (0: 听牌). The shape
  part is the regular form (sets and a pair; 成麻 also seven pairs,
  :func:`rules.bots.shanten.shanten`). Once a hand is ready in shape its waits are judged
  **exactly** by the variant's own rules (:func:`rules.hints.analyse_waits`, the ting hint's and
  the judge's code): a ready hand whose every wait is refused (长春's 三色/幺九, 哈尔滨's 开门, …)
  counts as 1, with the reasons. Before that the variant's conditions are estimated, one tile
  each (:func:`condition_gap`, from the variant's :class:`~rules.variant.BotFacts`): a missing
  suit, no terminal or honour, no pair or triplet, a closed hand that must open, a 成麻 void
  suit still held.
* **Effective tiles** (进张) of a ready hand are its legal waits; of a hand one tile away, the kinds
  after whose draw some discard leaves a legally ready hand (checked exactly in the variants whose
  conditions can refuse a ready shape, :attr:`~rules.variant.BotFacts.conditioned`: 长春, 四平,
  哈尔滨); of a hand further away, the kinds one
  draw of which lowers its shape shanten; each with the copies unseen from the seat.
* A played discard is **worse in shanten** (``shanten``) when its shanten is above the best
  candidate's; **worse in effective tiles** (``effective``) when its shanten is the best one but
  its effective tiles are fewer than :data:`EFFECTIVE_RATIO` of the best candidate's at that
  shanten and at least :data:`EFFECTIVE_GAP` copies fewer. A **deal-in** (``deal_in``) is a
  discard another seat won on, when that seat had declared ting (报听, or shown 3 melds or
  more: the visible ting signal the bots read) before the discard, and the bot would have thrown
  something else. A decision on which the bot agrees with the player is never marked.

Pure: the engine, the variant's rules and the bots; no Django, no clock, no randomness beyond
the seeded generators the table itself would use.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.bots import choose_action
from rules.bots.shanten import (
    Front,
    _best,
    _fronts,
    _honour_front,
    _merge,
    _suit_front,
    shanten,
    useful_kinds,
)
from rules.engine import Action, Event, RoundState
from rules.engine.actions import (
    AddedKong,
    AddToSpecialKong,
    Chen,
    ChooseVoid,
    Chow,
    ChowTing,
    ConcealedKong,
    DeclareWin,
    Discard,
    ExchangeThree,
    ExposedKong,
    Pass,
    Pong,
    SelfDrawWin,
    SpecialKong,
)
from rules.engine.core import legal_actions, ting_discard_candidates
from rules.engine.events import Discarded, Drew, Melded, RoundEnded, SeatWon, TurnStarted
from rules.engine.state import ClaimPhase, DiscardRecord, TurnPhase
from rules.hand import Meld
from rules.hints import analyse_waits, ting_context, unseen_counts
from rules.replay import replay_steps
from rules.tiles import EAST, HONOR, NUM_KINDS, Tile, tile_name
from rules.variant import BotFacts, Variant
from rules.views import seat_view

REVIEW_VERSION = 1
"""Bumped whenever what a review computes changes: a stored review of an older version is
computed again (``scoring.RoundReview`` is unique per round, seat and version)."""

BOT_LEVEL = "hard"
"""The bot a review compares with (困难)."""

EFFECTIVE_RATIO = 0.75
"""A discard at the best shanten is marked when it keeps less than this share of the best
candidate's effective tiles …"""
EFFECTIVE_GAP = 4
"""… and at least this many copies fewer (a 2-tile difference on a small count is noise)."""

MARKS = ("shanten", "effective", "deal_in")
"""Why a decision is worth another look (the page words each)."""

SIGNAL_MELDS = 3
"""Melds shown from which a seat counts as visibly ready (the bots' ``threats``)."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """One discard kind of a turn: the hand's shanten after it, its effective tiles (kind,
    copies unseen), and the reasons the variant refuses a shape-ready hand's waits."""

    tile: Tile
    shanten: int
    effective: tuple[tuple[Tile, int], ...]
    blocked: tuple[str, ...] = ()

    @property
    def total(self) -> int:
        return sum(n for _, n in self.effective)

    def to_json(self) -> dict[str, Any]:
        return {
            "tile": tile_name(self.tile),
            "shanten": self.shanten,
            "effective": [[tile_name(t), n] for t, n in self.effective],
            "total": self.total,
            "blocked": list(self.blocked),
        }


# --- the candidate analysis --------------------------------------------------------------------


def condition_gap(
    facts: BotFacts,
    options: Mapping[str, Any],
    counts: Sequence[int],
    melds: Sequence[Meld],
    *,
    opened: bool,
    void: int | None,
) -> int:
    """Tiles a hand not yet ready still needs beyond its shape for its variant's winning
    conditions, one per missing condition, as the variant's ``facts`` estimate them (the exact
    conditions are judged once the hand is ready in shape, ``rules/variants/<key>/wins.py``):
    the suits it lacks (长春 / 四平 all three, 哈尔滨 two), a kind it needs (a terminal or
    honour; 哈尔滨 a terminal or 红中), a triplet (a pair counts as one draw away), an open hand
    (四平 unless 立听 is allowed, 哈尔滨), and every tile of a void suit (成麻)."""
    gap = 0
    if facts.conditioned:
        every = list(counts[:NUM_KINDS])
        for meld in melds:
            for t in meld.tiles:
                if t < NUM_KINDS:
                    every[t] += 1
        suits = sum(1 for s in range(3) if any(every[s * 9 : s * 9 + 9]))
        gap += facts.suit_gap[suits]
        if facts.needs_one_of and not any(every[t] for t in facts.needs_one_of):
            gap += 1
        if (
            facts.needs_triplet
            and not any(n >= 2 for n in counts[:NUM_KINDS])
            and all(m.kind == "chow" for m in melds)
        ):
            gap += 1
        if facts.must_open and not opened and not facts.open_waived(options):
            gap += 1
    if void is not None:
        gap += sum(counts[void * 9 : void * 9 + 9])
    return gap


def _pairs_shanten(counts: Sequence[int]) -> int:
    """Seven pairs (four equal tiles are two pairs, as 成麻 reads them)."""
    return 6 - sum(n // 2 for n in counts[:NUM_KINDS])


def _shape(counts: list[int], need: int, pairs: bool) -> int:
    found = shanten(counts, need)
    return min(found, _pairs_shanten(counts)) if pairs else found


_MERGED: dict[tuple[Front, Front], Front] = {}


def _merged(a: Front, b: Front) -> Front:
    """:func:`rules.bots.shanten._merge`, memoised: the candidates of one turn differ in one
    group only, so the same pairs of groups are merged again and again."""
    key = (a, b)
    found = _MERGED.get(key)
    if found is None:
        if len(_MERGED) > 100_000:
            _MERGED.clear()
        found = _MERGED[key] = _merge(a, b)
    return found


def _effective_kinds(
    counts: list[int], need: int, unseen: Sequence[int], base: int, pairs: bool
) -> tuple[tuple[Tile, int], ...]:
    """The kinds one draw of which lowers the shape shanten below ``base``, with their unseen
    copies. A drawn tile changes one group only: the other three are merged once per group
    (as :func:`rules.bots.shanten.effective_tiles` does) and each kind costs one look-up."""
    fronts = _fronts(bytes(counts[:34]))
    others = [
        _merged(_merged(fronts[1], fronts[2]), fronts[3]),
        _merged(_merged(fronts[0], fronts[2]), fronts[3]),
        _merged(_merged(fronts[0], fronts[1]), fronts[3]),
        _merged(_merged(fronts[0], fronts[1]), fronts[2]),
    ]
    kinds = set(useful_kinds(counts))
    if pairs:
        kinds.update(t for t in range(NUM_KINDS) if counts[t] % 2)
    out: list[tuple[Tile, int]] = []
    for t in sorted(kinds):
        left = unseen[t]
        if not left or counts[t] >= 4:
            continue
        g = t // 9 if t < HONOR else 3
        counts[t] += 1
        if g < 3:
            front = _suit_front(tuple(counts[g * 9 : g * 9 + 9]))
        else:
            front = _honour_front(counts[HONOR:NUM_KINDS])
        value = _best(front, others[g], need)
        if pairs:
            value = min(value, _pairs_shanten(counts))
        counts[t] -= 1
        if value < base:
            out.append((t, left))
    return tuple(out)


def _void_of(extra: Mapping[str, Any]) -> int | None:
    """The seat's void suit (定缺), where its flow's context has one (``extra.que``)."""
    que = extra.get("que")
    return "mps".index(que) if que in ("m", "p", "s") else None


def _off_shape_waits(facts: BotFacts, options: Mapping[str, Any]) -> bool:
    """Whether a hand may wait though its shape is not ready (四平 抻中发白, under its room
    option): then every hand is asked of the hand rules."""
    key = facts.off_shape_waits_with
    return key is not None and bool(options.get(key, False))


@dataclass(frozen=True, slots=True)
class _Setting:
    """What every hand of one seat at one moment is judged against."""

    state: RoundState
    seat: int
    unseen: Sequence[int]
    pairs: bool
    special: bool
    void: int | None
    seen: dict[tuple[Tile, ...], bool]

    @staticmethod
    def of(state: RoundState, seat: int, melds: Sequence[Meld]) -> _Setting:
        variant = state.variant
        extra = variant.flow.context_extra(state, seat)
        return _Setting(
            state=state,
            seat=seat,
            unseen=unseen_counts(state, seat),
            pairs=variant.bots.seven_pairs and not melds,
            special=_off_shape_waits(variant.bots, state.options),
            void=_void_of(extra),
            seen={},  # 14-tile hands already judged (they recur between candidates)
        )


def hand_value(
    setting: _Setting, rest: tuple[Tile, ...], melds: tuple[Meld, ...]
) -> tuple[int, tuple[tuple[Tile, int], ...], tuple[str, ...]]:
    """(shanten, effective tiles, refusal reasons) of the 3n+1 hand ``rest`` with ``melds``
    (module docstring)."""
    state, seat = setting.state, setting.seat
    variant = state.variant
    rules = variant.rules
    unseen = setting.unseen
    counts = [0] * NUM_KINDS
    for t in rest:
        counts[t] += 1
    need = len(rest) // 3
    shape = _shape(counts, need, setting.pairs)
    if shape <= 0 or setting.special:
        analysis = analyse_waits(rules, ting_context(state, seat, rest, melds))
        if analysis.legal:
            return 0, tuple((t, unseen[t]) for t in analysis.legal), ()
        if analysis.blocked:
            return 1, (), tuple(sorted({reason for _, reason in analysis.blocked}))
        if shape <= 0:  # every wait is a kind the hand already holds four of
            return 1, (), ()
    opened = any(rules.meld_opens(m) for m in melds)
    gap = condition_gap(
        variant.bots, state.options, counts, melds, opened=opened, void=setting.void
    )
    kinds = _effective_kinds(counts, need, unseen, shape, setting.pairs)
    if shape == 1 and gap == 0 and variant.bots.conditioned:
        kinds = tuple(
            (t, n)
            for t, n in kinds
            if _legal_ready_after(state, seat, rest, melds, t, setting.seen)
        )
    return shape + gap, kinds, ()


def candidates(state: RoundState, seat: int, tiles: Sequence[Tile]) -> list[Candidate]:
    """Each discard kind of ``tiles`` from ``seat``'s 3n+2 hand, analysed (module docstring)."""
    me = state.seats[seat]
    setting = _Setting.of(state, seat, me.melds)
    out: list[Candidate] = []
    for tile in sorted(set(tiles)):
        shanten_, effective, blocked = hand_value(setting, me.without(tile), me.melds)
        out.append(Candidate(tile, shanten_, effective, blocked))
    return out


def _claimed(state: RoundState, seat: int, action: Action) -> RoundState | None:
    """The state as if ``seat`` had made the claim ``action`` on the discard in the claim
    window (the meld laid, the discard marked taken), before its discard: for judging the hand
    it leads to. None for what is not a chow, pong or kong on a discard."""
    phase = state.phase
    if not isinstance(phase, ClaimPhase) or phase.kind != "claims":
        return None
    tile = phase.tile
    me = state.seats[seat]
    if isinstance(action, Pong):
        used: tuple[Tile, ...] = (tile, tile)
        meld = Meld("pong", (tile, tile, tile), from_seat=phase.discarder)
    elif isinstance(action, ExposedKong):
        used = (tile, tile, tile)
        meld = Meld("kong", (tile,) * 4, from_seat=phase.discarder)
    elif isinstance(action, Chow | ChowTing):
        rest = list(action.tiles)
        rest.remove(tile)
        used = tuple(rest)
        meld = Meld("chow", action.tiles, from_seat=phase.discarder)
    else:
        return None
    try:
        concealed = me.without(*used)
    except ValueError:
        return None
    discards = state.seats[phase.discarder].discards
    if discards:
        last = discards[-1]
        taken = DiscardRecord(last.tile, True, last.face_down, last.ting)
        state = state.with_seat(phase.discarder, discards=(*discards[:-1], taken))
    return state.with_seat(
        seat, concealed=concealed, melds=(*me.melds, meld), opened=True, drawn=None
    )


def claim_options(state: RoundState, seat: int, legal: Sequence[Action]) -> list[dict[str, Any]]:
    """Each answer of a claim window (pass, chow, pong, kong) with the hand it leads to: after
    a pass the hand as it is; after a chow or pong the best discard then (``discard``) and the
    hand after it; after a kong the hand before its replacement draw. Wins are not listed (a
    win is the end of the hand)."""
    me = state.seats[seat]
    out: list[dict[str, Any]] = []
    for action in legal:
        if isinstance(action, Pass):
            setting = _Setting.of(state, seat, me.melds)
            value = hand_value(setting, me.concealed, me.melds)
            discard: Tile | None = None
        else:
            after = _claimed(state, seat, action)
            if after is None:
                continue
            mine = after.seats[seat]
            if isinstance(action, ExposedKong):
                setting = _Setting.of(after, seat, mine.melds)
                value = hand_value(setting, mine.concealed, mine.melds)
                discard = None
            else:
                best = best_of(candidates(after, seat, mine.concealed))
                if best is None:
                    continue
                value = (best.shanten, best.effective, best.blocked)
                discard = best.tile
        shanten_, effective, blocked = value
        out.append(
            {
                "action": action.to_json(),
                "shanten": shanten_,
                "effective": [[tile_name(t), n] for t, n in effective],
                "total": sum(n for _, n in effective),
                "blocked": list(blocked),
                "discard": None if discard is None else tile_name(discard),
            }
        )
    return out


def _legal_ready_after(
    state: RoundState,
    seat: int,
    rest: tuple[Tile, ...],
    melds: tuple[Meld, ...],
    drawn: Tile,
    seen: dict[tuple[Tile, ...], bool],
) -> bool:
    """Whether drawing ``drawn`` lets the hand ``rest`` (one tile from ready) discard into a hand
    whose waits the variant accepts (exactly, by its rules): the 进张 of a hand one tile away in a
    variant whose conditions can refuse a ready shape (三色, 幺九, 刻子, 开门, 单吊 …)."""
    held = tuple(sorted((*rest, drawn)))
    known = seen.get(held)
    if known is None:
        known = seen[held] = _legal_ready_in(state, seat, held, melds)
    return known


def _legal_ready_in(
    state: RoundState, seat: int, held: tuple[Tile, ...], melds: tuple[Meld, ...]
) -> bool:
    """Whether some discard from the 3n+2 hand ``held`` leaves a legal wait."""
    counts = [0] * NUM_KINDS
    for t in held:
        counts[t] += 1
    need = (len(held) - 1) // 3
    rules = state.variant.rules
    for discard in ting_discard_candidates(counts):
        counts[discard] -= 1
        ready = shanten(counts, need) <= 0
        counts[discard] += 1
        if not ready:
            continue
        after = list(held)
        after.remove(discard)
        if analyse_waits(rules, ting_context(state, seat, tuple(after), melds)).legal:
            return True
    return False


def best_of(found: Sequence[Candidate]) -> Candidate | None:
    """The best candidate: the lowest shanten, then the most effective tiles."""
    return min(found, key=lambda c: (c.shanten, -c.total, c.tile), default=None)


def discard_marks(found: Sequence[Candidate], played: Tile) -> list[str]:
    """``shanten`` / ``effective`` when the played discard is clearly worse than the best
    candidate (module docstring, thresholds :data:`EFFECTIVE_RATIO`, :data:`EFFECTIVE_GAP`)."""
    mine = next((c for c in found if c.tile == played), None)
    best = best_of(found)
    if mine is None or best is None:
        return []
    if mine.shanten > best.shanten:
        return ["shanten"]
    if mine.total < best.total * EFFECTIVE_RATIO and best.total - mine.total >= EFFECTIVE_GAP:
        return ["effective"]
    return []


# --- the decisions -----------------------------------------------------------------------------


def bot_rng(state: RoundState, seat: int) -> random.Random:
    """The generator the live table gives a bot at this decision (``tables.bots.bot_rng``:
    public facts only), so the review's bot answers what a bot at the table would have."""
    return random.Random(f"{state.commitment}/{state.version}/{seat}")


def bot_choice(state: RoundState, seat: int) -> Action:
    """What the ``hard`` bot plays for ``seat`` here, from its own view only (hints off)."""
    view = seat_view(state, seat, hints=False)
    return choose_action(view, level=BOT_LEVEL, rng=bot_rng(state, seat), options=state.options)


def decision_kind(state: RoundState, legal: Sequence[Action], played: Action) -> str:
    """What sort of decision it was, for the page: ``discard``, ``ting``, ``kong``, ``win``,
    ``claim``, ``void``, ``exchange``, ``chen`` or ``other``."""
    if isinstance(played, ChooseVoid):
        return "void"
    if isinstance(played, ExchangeThree):
        return "exchange"
    if isinstance(played, Chen):
        return "chen"
    if isinstance(played, SelfDrawWin | DeclareWin):
        return "win"
    if isinstance(state.phase, ClaimPhase):
        return "claim"
    if isinstance(played, ConcealedKong | AddedKong | SpecialKong | AddToSpecialKong):
        return "kong"
    if isinstance(played, Discard):
        return "ting" if played.ting else "discard"
    if isinstance(played, Pass) and any(isinstance(a, SelfDrawWin) for a in legal):
        return "win"  # a win passed up on one's own turn
    return "other"


def _threatening(state: RoundState, seat: int) -> set[int]:
    """Seats visibly ready from ``seat``'s view: a declared ting, or :data:`SIGNAL_MELDS` melds."""
    return {
        s
        for s, other in enumerate(state.seats)
        if s != seat and (other.ting or len(other.melds) >= SIGNAL_MELDS)
    }


def _won_on(events: Iterator[Event], seat: int) -> list[int]:
    """The seats that won on ``seat``'s discard, reading the events after it up to the next
    draw or meld (成麻: several seats may win on one discard)."""
    winners: list[int] = []
    for event in events:
        if isinstance(event, SeatWon) and event.discarder == seat:
            winners.append(event.seat)
        elif isinstance(event, RoundEnded):
            if event.discarder == seat and event.winner is not None:
                winners.append(event.winner)
            break
        elif isinstance(event, Drew | Melded | TurnStarted | Discarded):
            break
    return winners


def _after(events: Sequence[Sequence[Event]], start: int) -> Iterator[Event]:
    for step in events[start:]:
        yield from step


def _analyse(
    entry: dict[str, Any], state: RoundState, seat: int, legal: Sequence[Action]
) -> list[Candidate]:
    """Add what the page shows of a decision to ``entry``: in a claim window the discard and each
    answer's hand (:func:`claim_options`); on a turn that discards, every candidate and the best
    (returned, for the marks)."""
    phase = state.phase
    if isinstance(phase, ClaimPhase):
        entry["tile"] = tile_name(phase.tile)
        entry["from"] = phase.discarder
        entry["options"] = claim_options(state, seat, legal)
    offered = [a.tile for a in legal if isinstance(a, Discard)]
    if not (isinstance(phase, TurnPhase) and phase.drawn and offered):
        return []
    if state.seats[seat].ting:
        return []  # a declared hand throws what it draws: nothing to weigh
    found = candidates(state, seat, offered)
    entry["candidates"] = [c.to_json() for c in found]
    best = best_of(found)
    entry["best"] = None if best is None else tile_name(best.tile)
    return found


def advice(state: RoundState, seat: int) -> dict[str, Any] | None:
    """机器人提示 of a practice table (issue 26): what ``hard`` plays for ``seat`` now, chosen from
    the seat's own view as at a live table (:func:`bot_choice`), with the analysis the review
    shows of such a decision (:func:`_analyse`, every figure counted from the seat's view:
    :func:`rules.hints.unseen_counts`). None when the seat has nothing to decide."""
    legal = legal_actions(state, seat)
    if not legal:
        return None
    bot = bot_choice(state, seat)
    entry: dict[str, Any] = {
        "kind": decision_kind(state, legal, bot),
        "bot": bot.to_json(),
        "forced": len(legal) == 1,
    }
    _analyse(entry, state, seat, legal)
    return entry


def review_seat(
    states: Sequence[RoundState],
    actions: Sequence[Action],
    events: Sequence[Sequence[Event]],
    seat: int,
) -> dict[str, Any]:
    """The review of ``seat`` (plain JSON): ``states[i]`` is the state ``actions[i]`` was
    applied to, ``events[i]`` what it caused (``states`` has one more, the last)."""
    decisions: list[dict[str, Any]] = []
    for index, played in enumerate(actions):
        if played.seat != seat:
            continue
        state = states[index]
        legal = legal_actions(state, seat)
        if len(legal) <= 1:
            continue  # forced: nothing was decided
        bot = bot_choice(state, seat)
        kind = decision_kind(state, legal, played)
        entry: dict[str, Any] = {
            "step": index,  # the replay frame the decision was taken on (0: after the deal)
            "kind": kind,
            "played": played.to_json(),
            "bot": bot.to_json(),
            "agree": played == bot,
            "marks": [],
        }
        found = _analyse(entry, state, seat, legal)
        if found and isinstance(played, Discard) and not entry["agree"]:
            entry["marks"].extend(discard_marks(found, played.tile))
        if isinstance(played, Discard):
            winners = _won_on(_after(events, index + 1), seat)
            if winners:
                entry["dealt_in_to"] = winners
                if set(winners) & _threatening(state, seat) and not (
                    isinstance(bot, Discard) and bot.tile == played.tile
                ):
                    entry["marks"].append("deal_in")
        decisions.append(entry)
    agreed = sum(1 for d in decisions if d["agree"])
    marked = sum(1 for d in decisions if d["marks"])
    return {
        "version": REVIEW_VERSION,
        "level": BOT_LEVEL,
        "variant": states[0].variant.key,
        "seat": seat,
        "decisions": decisions,
        "count": len(decisions),
        "agreed": agreed,
        "agreement": round(agreed / len(decisions), 4) if decisions else None,
        "marked": marked,
    }


def review_steps(
    states: Sequence[RoundState],
    actions: Sequence[Action],
    events: Sequence[Sequence[Event]],
    seats: Sequence[int] = (0, 1, 2, 3),
) -> dict[int, dict[str, Any]]:
    """The reviews of several seats of one replayed round (the replay is shared)."""
    return {seat: review_seat(states, actions, events, seat) for seat in seats}


def review_round(
    variant: Variant,
    *,
    seed: bytes,
    dealer: int,
    actions: Sequence[Action],
    options: Mapping[str, Any] | None = None,
    round_wind: Tile = EAST,
    lianzhuang: int = 0,
    seats: Sequence[int] = (0, 1, 2, 3),
) -> dict[int, dict[str, Any]]:
    """Replay a round from its seed and actions (:func:`rules.replay.replay_steps`) and review
    ``seats``."""
    steps = list(
        replay_steps(
            variant,
            seed=seed,
            dealer=dealer,
            actions=actions,
            options=options,
            round_wind=round_wind,
            lianzhuang=lianzhuang,
        )
    )
    states = [s.state for s in steps]
    events = [s.events for s in steps[1:]]
    return review_steps(states, actions, events, seats)
