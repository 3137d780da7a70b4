"""Settlement (结算): turn an ended round into its ledger, once.

The round's truth is its seed, dealer and action log (``tables.game.store``); the settlement
replays it through the engine (``tables.game.store.replay_steps``) instead of trusting a summary,
because the ledger needs what the summary does not keep: the payments before the cap, each win's
items. Which kong each kong payment belongs to is not worked out again: it was logged as a fact
with the action that paid it (``RoundAction.kong_payments``), and the ledger's kong
lines are read from those facts, after the replay has checked them (:func:`check_kong_payments`:
the engine, replaying, must pay exactly what was logged, else :class:`KongPaymentsMismatch`).
:func:`draft_ledger` is pure (no database): it is what the property tests drive over thousands of
simulated rounds. :func:`settle_round` writes the draft under the round's row lock; it is
idempotent (a second run, or a concurrent one, finds the settlement and returns it) and the
database's unique and check constraints (``scoring.models``) are the last guard. Once a round
is settled, its club and variant's ratings are brought up to date (``scoring.ratings``).

Dealer and next round: the engine's result names the next dealer (``RoundResult.next_dealer``,
spec README item 7), and ``tables.matches`` already deals the match's next round with it (after
its settlement pause, or as soon as all four seats are ready; ``tables.tasks.match_next_round``
and its sweeper). The settlement therefore records ``next_dealer`` and does **not** start a round
itself: doing it here too would deal twice.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError
from django.utils import timezone

from config.retry import with_retries
from rules.engine import RoundState
from rules.engine.events import meld_from_json
from rules.hand import Meld, Transfer
from rules.payments import nets
from rules.tiles import format_tiles, tile_name
from scoring import ratings
from scoring.models import (
    FanItem,
    KongPayment,
    LedgerEntry,
    PaymentLine,
    RoundSettlement,
    SettlementFailure,
)
from tables.game.store import replay_steps, round_kong_payments
from tables.gameplay import ReplayStep, replay_kong_payments
from tables.models import Round

log = logging.getLogger(__name__)

SEATS = range(4)


# --- the ledger draft (pure) ------------------------------------------------------------------


@dataclass(frozen=True)
class KongLine:
    """A kong payment with its kong (``meld`` is None only if it could not be tied to one)."""

    kong_index: int
    meld: Meld | None
    transfer: Transfer

    @property
    def kind(self) -> str:
        """``exposed``, ``added``, ``concealed`` or the special kong's name."""
        meld = self.meld
        if meld is None:
            return ""
        if meld.kind == "special_kong":
            return meld.name or "special"
        if meld.concealed:
            return "concealed"
        return "added" if meld.added else "exposed"


@dataclass(frozen=True)
class SeatLine:
    """One seat's ledger line: ``net = win + kong + settle + cap_adjustment``; ``won``,
    ``self_drawn``, ``dealt_in`` and ``fan_total`` describe its part in the round's win(s)."""

    seat: int
    win: int
    kong: int
    cap_adjustment: int
    net: int
    settle: int = 0
    won: bool = False
    self_drawn: bool = False
    dealt_in: bool = False
    fan_total: int = 0


@dataclass(frozen=True)
class PaymentLineDraft:
    """One labelled payment of a variant that keeps its own ledger (成麻)."""

    kind: str
    payer: int
    payee: int
    amount: int
    winner: int | None = None
    detail: str = ""


@dataclass(frozen=True)
class FanItemDraft:
    """One item of a win's fan breakdown; ``winner`` (the seat) names the win: a seat wins at
    most once a round, and two wins of a 成麻 round may score the same item (平胡 twice)."""

    winner: int
    key: str
    value: int


SETTLE_KINDS = frozenset({"huazhu", "chajiao", "tuishui"})
"""成麻's end-of-wall payments (查花猪, 查大叫, 退税)."""
KONG_KINDS = frozenset({"kong", "zhuanyi"})
"""Kong money: the kong payments and 呼叫转移 moving them."""


@dataclass(frozen=True)
class LedgerDraft:
    """Everything a settlement writes, computed from the replay alone."""

    dealer: int
    next_dealer: int
    winner: int | None
    win_by: str | None
    discarder: int | None
    win_tile: str
    fan: tuple[tuple[str, int], ...]
    fan_total: int
    cap: int | None
    nets: tuple[int, int, int, int]
    seats: tuple[SeatLine, ...]
    kongs: tuple[KongLine, ...] = field(default=())
    lines: tuple[PaymentLineDraft, ...] = field(default=())
    fan_items: tuple[FanItemDraft, ...] = field(default=())
    """Every win's items, the wins in the order they were made (one win: ``fan``, its winner's)."""

    @property
    def capped(self) -> bool:
        return any(line.cap_adjustment for line in self.seats)


class NotEnded(ValueError):
    """The replay did not reach the end of the round (nothing to settle)."""


KongPayments = Sequence[Sequence[Mapping[str, Any]]]
"""The kong payments of a round, one list per logged action in log order (the deal is not an
action): each payment as :attr:`tables.models.RoundAction.kong_payments` holds it (``payer``,
``payee``, ``amount``, ``kong``: the kong's meld as ``meld_json``, or None), made by
:func:`tables.gameplay.kong_payments` when the action was applied."""


class KongPaymentsMismatch(RuntimeError):
    """The kong payments logged with the round's actions are not what replaying those actions
    pays (a row without its facts, or an engine that has changed since): settling from either
    would settle a round that did not happen as logged, so nothing is settled (like
    :class:`scoring.replay.ReplayMismatch` for the events)."""


def check_kong_payments(logged: KongPayments, steps: Sequence[ReplayStep]) -> None:
    """Raise :class:`KongPaymentsMismatch` unless ``logged`` is, action by action, what the
    replay's engine paid (:func:`tables.gameplay.replay_kong_payments` of ``steps``)."""
    replayed = replay_kong_payments(steps)
    if len(logged) != len(replayed):
        raise KongPaymentsMismatch(
            f"{len(logged)} logged actions' kong payments for {len(replayed)} replayed actions"
        )
    for n, (made, paid) in enumerate(zip(logged, replayed, strict=True), start=1):
        if [dict(p) for p in made] != paid:
            raise KongPaymentsMismatch(
                f"action {n}: logged kong payments {list(made)!r}, the replay paid {paid!r}"
            )


def _kong_lines(kong_payments: KongPayments, settled: Sequence[Transfer]) -> tuple[KongLine, ...]:
    """The settled kong payments, each with its kong, read from the facts logged as they happened
    (each action's ``kong_payments``; the kongs are numbered in the order of the actions
    that paid for them, as ``KongPayment.kong_index`` says)."""
    attributed: list[tuple[int, Meld | None, Transfer]] = []
    index = 0
    for made in kong_payments:
        if not made:
            continue
        index += 1
        for paid in made:
            kong = paid.get("kong")
            meld = None if kong is None else meld_from_json(kong)
            transfer = Transfer(int(paid["payer"]), int(paid["payee"]), int(paid["amount"]))
            attributed.append((index, meld, transfer))
    # A variant may settle only some of the kong payments (``settled_kong_transfers``): keep the
    # attributed ones it settled, in order, and any it added without a kong.
    remaining = list(settled)
    lines = []
    for kong_index, meld, transfer in attributed:
        if transfer in remaining:
            remaining.remove(transfer)
            lines.append(KongLine(kong_index, meld, transfer))
    lines += [KongLine(0, None, t) for t in remaining]
    return tuple(lines)


def draft_ledger(
    steps: Sequence[ReplayStep], *, kong_payments: KongPayments | None = None
) -> LedgerDraft:
    """The ledger of a round from its replay (spec README item 7; the cap as ``changchun.md``
    *Cap*: the cap adjustment of a seat is its capped net minus its uncapped net).

    ``kong_payments``: each action's logged kong payments (:data:`KongPayments`; the kong
    lines are made of them). Without a log (simulated rounds, benchmarks) they are the replay's
    own (:func:`tables.gameplay.replay_kong_payments`), which is what a table logs."""
    final = steps[-1].state
    result = final.result
    if result is None:
        raise NotEnded("the round has not ended")
    if kong_payments is None:
        kong_payments = replay_kong_payments(steps)
    elif len(kong_payments) != len(steps) - 1:
        raise ValueError(f"{len(kong_payments)} actions' kong payments for {len(steps) - 1} steps")
    win = nets(result.win_transfers)
    kong = nets(result.kong_transfers)
    capped = result.nets
    seats = tuple(
        SeatLine(
            seat=s,
            win=win[s],
            kong=kong[s],
            cap_adjustment=capped[s] - win[s] - kong[s],
            net=capped[s],
        )
        for s in SEATS
    )
    verdict = result.verdict
    fan = tuple((str(k), int(v)) for k, v in verdict.fan.items()) if verdict else ()
    own = final.variant.flow.settlement_lines(final)
    if own is not None:
        # 成麻 settles every kong payment at once (呼叫转移 moves some later, as its own lines).
        return _draft_from_lines(final, _kong_lines(kong_payments, final.kong_transfers), own, fan)
    cap = final.options.get("cap")
    winner = result.winner
    return LedgerDraft(
        dealer=final.dealer,
        next_dealer=result.next_dealer,
        winner=result.winner,
        win_by=result.win_by,
        discarder=result.discarder,
        win_tile="" if result.win_tile is None else tile_name(result.win_tile),
        fan=fan,
        fan_total=verdict.total if verdict else 0,
        cap=int(cap) if cap is not None else None,
        nets=capped,
        seats=seats,
        kongs=_kong_lines(kong_payments, result.kong_transfers),
        fan_items=() if winner is None else tuple(FanItemDraft(winner, k, v) for k, v in fan),
    )


def _draft_from_lines(
    final: RoundState,
    kongs: tuple[KongLine, ...],
    own: Sequence[Mapping[str, Any]],
    fan: tuple[tuple[str, int], ...],
) -> LedgerDraft:
    """The ledger of a variant that lists its own payments (成麻): several wins, kong payments
    settled at once and moved by 呼叫转移, the end-of-wall checks. Each payment is a line;
    each seat's win, kong and settle amounts are the nets of its lines (no cap on the round:
    成麻's cap is in fan, applied to each win)."""
    result = final.result
    assert result is not None
    lines = tuple(_payment_line(line) for line in own if int(line["amount"]) > 0)

    def net_of(kinds: frozenset[str]) -> tuple[int, int, int, int]:
        return nets(Transfer(x.payer, x.payee, x.amount) for x in lines if x.kind in kinds)

    win, kong, settle = net_of(frozenset({"win"})), net_of(KONG_KINDS), net_of(SETTLE_KINDS)
    wins = {line["winner"]: line for line in own if line["kind"] == "win"}
    dealt_in = {x.payer for x in lines if x.kind == "win" and wins[x.winner]["win_by"] == "discard"}
    seats = tuple(
        SeatLine(
            seat=s,
            win=win[s],
            kong=kong[s],
            settle=settle[s],
            cap_adjustment=result.nets[s] - win[s] - kong[s] - settle[s],
            net=result.nets[s],
            won=s in wins,
            self_drawn=s in wins and wins[s]["win_by"] in ("self_draw", "kong_draw"),
            dealt_in=s in dealt_in,
            fan_total=int(wins[s]["total"]) if s in wins else 0,
        )
        for s in SEATS
    )
    items: list[FanItemDraft] = []
    seen: set[int] = set()
    for line in own:  # a win has one line per payer, each with the win's items: take them once
        if line["kind"] != "win":
            continue
        winner = int(line["winner"])
        if winner not in seen:
            seen.add(winner)
            items += [FanItemDraft(winner, str(k), int(v)) for k, v in line["items"]]
    verdict = result.verdict
    return LedgerDraft(
        dealer=final.dealer,
        next_dealer=result.next_dealer,
        winner=result.winner,
        win_by=result.win_by,
        discarder=result.discarder,
        win_tile="" if result.win_tile is None else tile_name(result.win_tile),
        fan=fan,
        fan_total=verdict.total if verdict else 0,
        cap=None,
        nets=result.nets,
        seats=seats,
        kongs=kongs,
        lines=lines,
        fan_items=tuple(items),
    )


def _payment_line(line: Mapping[str, Any]) -> PaymentLineDraft:
    kind = str(line["kind"])
    detail = ""
    if kind == "win":
        detail = f"{line['win_by']} {line['total']}"
    elif kind == "kong":
        detail = f"{line.get('kong', '')} {''.join(line.get('tiles', [])[:1])}".strip()
    return PaymentLineDraft(
        kind=kind,
        payer=int(line["payer"]),
        payee=int(line["payee"]),
        amount=int(line["amount"]),
        winner=line.get("winner"),
        detail=detail[:64],
    )


# --- writing ----------------------------------------------------------------------------------


def write_ledger(rnd: Round, draft: LedgerDraft) -> RoundSettlement:
    """Insert the settlement, its four entries, fan items and kong payments (in the caller's
    transaction). The constraints refuse a draft that is not zero-sum or breaks the cap."""
    match = rnd.match
    ended_at = rnd.ended_at or timezone.now()
    club_id = match.room.club_id
    settlement = RoundSettlement.objects.create(
        round=rnd,
        match=match,
        club_id=club_id,
        variant=match.variant,
        number=rnd.number,
        ended_at=ended_at,
        dealer=draft.dealer,
        next_dealer=draft.next_dealer,
        winner=draft.winner,
        win_by=draft.win_by or "",
        discarder=draft.discarder,
        win_tile=draft.win_tile,
        fan_total=draft.fan_total,
        practice=match.practice,
        cap=draft.cap,
        capped=draft.capped,
        net_0=draft.nets[0],
        net_1=draft.nets[1],
        net_2=draft.nets[2],
        net_3=draft.nets[3],
    )
    players = list(match.players) + [None] * 4
    LedgerEntry.objects.bulk_create(
        LedgerEntry(
            settlement=settlement,
            match=match,
            club_id=club_id,
            variant=match.variant,
            ended_at=ended_at,
            practice=match.practice,
            seat=line.seat,
            user_id=players[line.seat],
            is_dealer=line.seat == draft.dealer,
            won=line.won if draft.lines else line.seat == draft.winner,
            self_drawn=line.self_drawn
            if draft.lines
            else line.seat == draft.winner and draft.win_by in ("self_draw", "kong_draw"),
            dealt_in=line.dealt_in if draft.lines else line.seat == draft.discarder,
            fan_total=line.fan_total
            if draft.lines
            else (draft.fan_total if line.seat == draft.winner else 0),
            win_amount=line.win,
            kong_amount=line.kong,
            settle_amount=line.settle,
            cap_adjustment=line.cap_adjustment,
            net=line.net,
        )
        for line in draft.seats
    )
    FanItem.objects.bulk_create(
        FanItem(
            settlement=settlement, winner=item.winner, position=i, key=item.key, value=item.value
        )
        for i, item in enumerate(draft.fan_items)
    )
    PaymentLine.objects.bulk_create(
        PaymentLine(
            settlement=settlement,
            position=i,
            kind=line.kind,
            payer=line.payer,
            payee=line.payee,
            amount=line.amount,
            winner=line.winner,
            detail=line.detail,
        )
        for i, line in enumerate(draft.lines)
    )
    KongPayment.objects.bulk_create(
        KongPayment(
            settlement=settlement,
            kong_index=line.kong_index,
            konger=line.transfer.payee,
            kind=line.kind,
            tiles="" if line.meld is None else format_tiles(line.meld.tiles),
            payer=line.transfer.payer,
            amount=line.transfer.amount,
        )
        for line in draft.kongs
    )
    return settlement


def settle_round(round_id: int) -> RoundSettlement | None:
    """Settle an ended round: its settlement (new or the existing one), or None when the round
    has not ended (still playing, or aborted: an aborted round pays nothing, spec README item 1).

    Idempotent and safe to run concurrently: the replay is done outside the transaction, then the
    round row is locked (PostgreSQL; SQLite's ``BEGIN IMMEDIATE`` serialises writers) and the
    settlement is looked for before it is written. Should two writers still race, the unique
    ``round`` constraint refuses the second, which then returns the first's settlement.
    """
    rnd = Round.objects.select_related("match__room").filter(pk=round_id).first()
    if rnd is None or rnd.status != Round.Status.ENDED:
        return None
    existing = RoundSettlement.objects.filter(round_id=round_id).first()
    if existing is not None:
        return _rated(existing)
    # The replay is the check that the log is honest: the ledger's kong lines are the facts
    # logged as the kongs were paid, and only if the engine, replaying, pays exactly those.
    steps = replay_steps(rnd)
    logged = round_kong_payments(rnd)
    check_kong_payments(logged, steps)
    draft = draft_ledger(steps, kong_payments=logged)

    def write() -> RoundSettlement | None:
        locked = Round.objects.select_for_update().select_related("match__room").get(pk=round_id)
        found = RoundSettlement.objects.filter(round_id=round_id).first()
        if found is not None:
            return found
        if locked.status != Round.Status.ENDED:
            return None
        return write_ledger(locked, draft)

    try:
        settlement = with_retries(write)
    except IntegrityError:
        settlement = RoundSettlement.objects.filter(round_id=round_id).first()
        if settlement is None:
            raise
    return None if settlement is None else _rated(settlement)


def _rated(settlement: RoundSettlement) -> RoundSettlement:
    """Bring the settlement's club and variant ratings up to date (after each round's
    settlement), unless it is rated already or a practice round (never rated); a failure is
    left to the sweep."""
    if not settlement.rated and not settlement.practice:
        ratings.ratings_update_safely(club_id=settlement.club_id, variant=settlement.variant)
    return settlement


def fan_items_replayed(round_id: int) -> tuple[FanItemDraft, ...]:
    """The fan items of an ended round, each with its win, worked out again from the replay: how
    ``scoring.migrations.0007_fan_items_per_win`` tells apart the wins of a 成麻 round settled
    before the items named their win."""
    rnd = Round.objects.select_related("match").get(pk=round_id)
    return draft_ledger(replay_steps(rnd)).fan_items


SWEEP_WINDOW = 500
"""Rounds the sweeper looks at per run, oldest first."""


def unsettled_rounds(
    *, now: datetime | None = None, grace_s: float = 30.0, limit: int | None = None
) -> list[int]:
    """Rounds that ended more than ``grace_s`` ago and have no settlement (their task was lost:
    a worker killed before it acknowledged, a broker outage …), leaving out those whose last
    failure asks to wait (:class:`~scoring.models.SettlementFailure`)."""
    moment = now or timezone.now()
    return list(
        Round.objects.filter(
            status=Round.Status.ENDED,
            settlement__isnull=True,
            ended_at__lt=moment - timedelta(seconds=grace_s),
        )
        .exclude(settlement_failure__next_attempt_at__gt=moment)
        .order_by("ended_at", "pk")
        .values_list("pk", flat=True)[: limit or SWEEP_WINDOW]
    )


def settle_round_recording(round_id: int, *, now: datetime | None = None) -> RoundSettlement | None:
    """:func:`settle_round`, recording a failure (and clearing an old one on success) so that the
    sweeper backs off a round that keeps failing; the exception is raised again."""
    try:
        settlement = settle_round(round_id)
    except Exception as exc:
        settlement_failure_record(round_id=round_id, error=exc, now=now)
        raise
    if settlement is not None:
        SettlementFailure.objects.filter(round_id=round_id).delete()
    return settlement


def settlement_failure_record(
    *, round_id: int, error: BaseException, now: datetime | None = None
) -> SettlementFailure | None:
    """Count one more failure of ``round_id``; the next try waits 1, 2, 4 … minutes (≤ a day)."""
    moment = now or timezone.now()
    if not Round.objects.filter(pk=round_id).exists():
        return None
    return SettlementFailure.record(round_id=round_id, error=error, moment=moment)


def sweep_unsettled(*, now: datetime | None = None, grace_s: float = 30.0) -> list[int]:
    """The clock's settlement sweep: settle every round :func:`unsettled_rounds` finds, then
    enqueue the reviews missing for settled rounds (``scoring.tasks.enqueue_missing_reviews``)."""
    done = []
    for round_id in unsettled_rounds(now=now, grace_s=grace_s):
        try:
            if settle_round_recording(round_id, now=now) is not None:
                done.append(round_id)
        except Exception:  # one broken round must not block the others; it is logged
            log.exception("could not settle round %s", round_id)
    ratings.ratings_sweep()  # a rating cut off after its settlement
    from scoring.tasks import enqueue_missing_reviews  # tasks imports this module

    try:
        enqueue_missing_reviews(now=now)  # reviews whose message was lost
    except Exception:  # never blocks the settlements
        log.exception("could not enqueue the missing reviews")
    return done
