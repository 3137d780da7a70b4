"""The settlement task and the ledger in the database: idempotent, concurrent-safe, swept, and
guarded by the database's own constraints."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.payments import nets
from rules.tiles import format_tiles, parse_tile
from scoring import services, tasks
from scoring.models import FanItem, KongPayment, LedgerEntry, RoundSettlement
from tables.models import Round, RoundAction

pytestmark = pytest.mark.django_db


def _settle(rnd: Round) -> RoundSettlement:
    settlement = services.settle_round(rnd.pk)
    assert settlement is not None
    return settlement


def test_settling_a_round_writes_one_entry_per_seat_matching_the_engine(make_match, make_round):
    rnd = make_round(make_match(), 1, seed_text="one")
    settlement = _settle(rnd)
    entries = list(LedgerEntry.objects.filter(settlement=settlement).order_by("seat"))
    assert [e.seat for e in entries] == [0, 1, 2, 3]
    assert [e.net for e in entries] == rnd.result["nets"] == list(settlement.nets)
    assert [e.user_id for e in entries] == rnd.match.players
    assert settlement.next_dealer == rnd.result["next_dealer"]
    assert settlement.winner == rnd.result["winner"]
    fan = dict(FanItem.objects.filter(settlement=settlement).values_list("key", "value"))
    assert fan == rnd.result["fan"]
    assert sum(e.net for e in entries) == 0


def test_kong_payments_are_stored_with_their_kong(make_match, make_round):
    # Search a few seeds for a round with a kong; every kong payment names its kong.
    match = make_match()
    for number in range(1, 40):
        rnd = make_round(match, number, seed_text="kong")
        settlement = _settle(rnd)
        payments = list(KongPayment.objects.filter(settlement=settlement))
        if payments:
            break
    else:
        pytest.fail("no round with a kong in 40 seeds")
    for p in payments:
        assert p.kind
        assert p.tiles
        assert p.payer != p.konger
        assert p.amount > 0
    kong = nets(_transfer(p) for p in payments)
    entries = {e.seat: e for e in settlement.entries.all()}
    assert all(entries[s].kong_amount == kong[s] for s in range(4))


def _round_with_kong_money(make_match: Any, make_round: Any) -> Round:
    match = make_match()
    for number in range(1, 40):
        rnd = make_round(match, number, seed_text="kong")
        if RoundAction.objects.filter(round=rnd).exclude(kong_payments=[]).exists():
            return rnd
    pytest.fail("no round with a kong payment in 40 seeds")


def test_the_kong_lines_are_the_logged_kong_payments(make_match, make_round):
    rnd = _round_with_kong_money(make_match, make_round)
    facts = RoundAction.objects.filter(round=rnd).order_by("n").values_list("kong_payments")
    paid = [made for (made,) in facts if made]  # one kong per action that paid
    logged = [(index, p) for index, made in enumerate(paid, start=1) for p in made]
    stored = list(KongPayment.objects.filter(settlement=_settle(rnd)).order_by("pk"))
    assert [(p.kong_index, p.payer, p.konger, p.amount) for p in stored] == [
        (index, p["payer"], p["payee"], p["amount"]) for index, p in logged
    ]
    assert [p.tiles for p in stored] == [
        format_tiles(parse_tile(t) for t in p["kong"]["tiles"]) for _index, p in logged
    ]


@pytest.mark.parametrize("tamper", ["dropped", "amount"])
def test_logged_kong_payments_the_replay_does_not_pay_are_not_settled(
    make_match, make_round, tamper
):
    rnd = _round_with_kong_money(make_match, make_round)
    row = RoundAction.objects.filter(round=rnd).exclude(kong_payments=[]).first()
    assert row is not None
    if tamper == "dropped":  # an action logged without its facts (as 0009 migrated them)
        row.kong_payments = []
    else:
        row.kong_payments = [{**row.kong_payments[0], "amount": row.kong_payments[0]["amount"] + 1}]
    row.save(update_fields=["kong_payments"])
    with pytest.raises(services.KongPaymentsMismatch, match=f"action {row.n}"):
        services.settle_round(rnd.pk)
    assert not RoundSettlement.objects.filter(round=rnd).exists()


def _transfer(p: KongPayment) -> Any:
    from rules.hand import Transfer

    return Transfer(p.payer, p.konger, p.amount)


def test_a_capped_round_records_the_cap_adjustment(make_match, make_round):
    match = make_match(options={"cap": 1})
    for number in range(1, 40):
        settlement = _settle(make_round(match, number, seed_text="cap"))
        if settlement.capped:
            break
    else:
        pytest.fail("no capped round in 40 seeds")
    entries = list(settlement.entries.all())
    assert any(e.cap_adjustment != 0 for e in entries)
    assert all(abs(e.net) <= 1 for e in entries)
    assert all(e.net == e.win_amount + e.kong_amount + e.cap_adjustment for e in entries)


def test_settling_twice_leaves_one_ledger(make_match, make_round):
    rnd = make_round(make_match(), 1)
    first = _settle(rnd)
    second = _settle(rnd)
    tasks.settle_round.run(rnd.pk)
    assert first.pk == second.pk
    assert RoundSettlement.objects.filter(round=rnd).count() == 1
    assert LedgerEntry.objects.filter(settlement__round=rnd).count() == 4


def test_a_round_still_in_play_or_aborted_is_not_settled(make_match, make_round):
    match = make_match()
    playing = make_round(match, 1, ended=False)
    assert services.settle_round(playing.pk) is None
    aborted = make_round(match, 2, ended=False)
    Round.objects.filter(pk=aborted.pk).update(status=Round.Status.ABORTED, ended_at=timezone.now())
    assert services.settle_round(aborted.pk) is None
    assert services.settle_round(999_999) is None
    assert not RoundSettlement.objects.exists()


def test_the_task_acknowledges_late():
    assert tasks.settle_round.acks_late is True


def test_the_sweeper_settles_a_round_whose_worker_died(make_match, make_round):
    match = make_match()
    lost = make_round(match, 1)  # ended, its task never ran (the worker was killed)
    Round.objects.filter(pk=lost.pk).update(ended_at=timezone.now() - timedelta(minutes=5))
    recent = make_round(match, 2)  # its task may still be on its way: left alone
    open_round = make_round(match, 3, ended=False)
    assert services.sweep_unsettled() == [lost.pk]
    assert RoundSettlement.objects.filter(round=lost).exists()
    assert not RoundSettlement.objects.filter(round__in=[recent, open_round]).exists()
    assert services.sweep_unsettled() == []  # nothing left to do


# --- the database refuses a broken ledger -----------------------------------------------------


def _settlement_row(rnd: Round, **overrides: Any) -> RoundSettlement:
    fields: dict[str, Any] = {
        "round": rnd,
        "match": rnd.match,
        "club_id": rnd.match.room.club_id,
        "variant": rnd.match.variant,
        "number": rnd.number,
        "ended_at": timezone.now(),
        "dealer": 0,
        "next_dealer": 0,
        "net_0": 3,
        "net_1": -1,
        "net_2": -1,
        "net_3": -1,
    }
    fields.update(overrides)
    return RoundSettlement(**fields)


def test_the_database_refuses_a_settlement_that_is_not_zero_sum(make_match, make_round):
    rnd = make_round(make_match(), 1)
    with pytest.raises(IntegrityError), transaction.atomic():
        _settlement_row(rnd, net_0=4).save()
    _settlement_row(rnd).save()  # the zero-sum one is fine


def test_the_database_refuses_a_net_beyond_the_cap(make_match, make_round):
    rnd = make_round(make_match(), 1)
    with pytest.raises(IntegrityError), transaction.atomic():
        _settlement_row(rnd, cap=2).save()
    with pytest.raises(IntegrityError), transaction.atomic():
        _settlement_row(rnd, cap=2, net_0=-3, net_1=1, net_2=1, net_3=1).save()
    _settlement_row(rnd, cap=3).save()


def test_the_database_refuses_a_second_settlement_of_a_round(make_match, make_round):
    rnd = make_round(make_match(), 1)
    _settle(rnd)
    with pytest.raises(IntegrityError), transaction.atomic():
        _settlement_row(rnd).save()


def test_the_database_refuses_an_entry_that_does_not_add_up(make_match, make_round):
    rnd = make_round(make_match(), 1)
    settlement = _settlement_row(rnd)
    settlement.save()
    base = {
        "settlement": settlement,
        "match": rnd.match,
        "club_id": settlement.club_id,
        "variant": settlement.variant,
        "ended_at": settlement.ended_at,
    }
    with pytest.raises(IntegrityError), transaction.atomic():
        LedgerEntry.objects.create(**base, seat=0, win_amount=2, kong_amount=1, net=4)
    LedgerEntry.objects.create(**base, seat=0, win_amount=2, kong_amount=1, net=3)
    with pytest.raises(IntegrityError), transaction.atomic():
        LedgerEntry.objects.create(**base, seat=0, win_amount=2, kong_amount=1, net=3)


# --- concurrency: real threads, real transactions --------------------------------------------


def _in_threads(n: int, job: Any) -> list[Any]:
    barrier = threading.Barrier(n)
    results: list[Any] = [None] * n

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = job()
        except BaseException as exc:
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    for r in results:
        if isinstance(r, BaseException):
            raise r
    return results


@pytest.mark.django_db(transaction=True)
def test_settling_at_once_from_four_workers_leaves_one_ledger(make_match, make_round):
    rnd = make_round(make_match(), 1, seed_text="race")
    results = _in_threads(4, lambda: services.settle_round(rnd.pk).pk)
    assert len(set(results)) == 1
    assert RoundSettlement.objects.filter(round=rnd).count() == 1
    assert LedgerEntry.objects.filter(settlement__round=rnd).count() == 4


@pytest.mark.django_db(transaction=True)
def test_the_sweeper_and_the_task_racing_leave_one_ledger(make_match, make_round):
    rnd = make_round(make_match(), 1, seed_text="sweep-race")
    Round.objects.filter(pk=rnd.pk).update(ended_at=timezone.now() - timedelta(minutes=5))
    jobs = iter([services.sweep_unsettled, lambda: services.settle_round(rnd.pk)] * 2)
    lock = threading.Lock()

    def job() -> Any:
        with lock:
            fn = next(jobs)
        return fn()

    _in_threads(4, job)
    assert RoundSettlement.objects.filter(round=rnd).count() == 1
    assert LedgerEntry.objects.filter(settlement__round=rnd).count() == 4


# --- the writer over many simulated rounds ---------------------------------------------------

_numbers = iter(range(1, 1_000_000))


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    seed=st.text(min_size=1, max_size=6),
    dealer=st.integers(min_value=0, max_value=3),
    cap=st.one_of(st.none(), st.integers(min_value=1, max_value=12)),
)
def test_the_written_ledger_is_zero_sum_capped_and_adds_up(
    make_match, make_round, seed, dealer, cap
):
    match = make_match(options={} if cap is None else {"cap": cap})
    rnd = make_round(match, next(_numbers), seed_text=seed, dealer=dealer)
    settlement = _settle(rnd)
    entries = list(settlement.entries.all())
    assert len(entries) == 4
    assert sum(e.net for e in entries) == 0
    assert [e.net for e in sorted(entries, key=lambda e: e.seat)] == list(settlement.nets)
    assert [e.net for e in sorted(entries, key=lambda e: e.seat)] == rnd.result["nets"]
    if cap is not None:
        assert all(abs(e.net) <= cap for e in entries)
    kong = nets(_transfer(p) for p in settlement.kong_payments.all())
    for e in entries:
        assert e.net == e.win_amount + e.kong_amount + e.cap_adjustment
        assert e.kong_amount == kong[e.seat]
        assert e.won == (e.seat == settlement.winner)
    if settlement.winner is None:
        assert all(e.win_amount == 0 for e in entries)
        assert not settlement.fan_items.exists()


def test_a_round_that_cannot_be_settled_does_not_block_the_others(
    make_match, make_round, monkeypatch
):
    """Poisoned rounds used to fill the sweeper's window for good."""
    from scoring.models import SettlementFailure

    match = make_match()
    rounds = [make_round(match, n) for n in (1, 2, 3)]
    for minutes, rnd in zip((7, 6, 5), rounds, strict=True):  # the poisoned one is the oldest
        Round.objects.filter(pk=rnd.pk).update(ended_at=timezone.now() - timedelta(minutes=minutes))
    poisoned = rounds[0].pk
    real_settle = services.settle_round

    def settle(round_id):
        if round_id == poisoned:
            raise OverflowError("integer out of range")
        return real_settle(round_id)

    monkeypatch.setattr(services, "settle_round", settle)
    monkeypatch.setattr(services, "SWEEP_WINDOW", 1)  # the poisoned round is the oldest
    assert services.sweep_unsettled() == []
    failure = SettlementFailure.objects.get(round_id=poisoned)
    assert failure.attempts == 1
    assert "integer out of range" in failure.last_error
    assert failure.next_attempt_at > timezone.now()
    # The window now starts after the failed round: the others are settled, one per run.
    assert services.unsettled_rounds(limit=1) == [rounds[1].pk]
    assert services.sweep_unsettled() == [rounds[1].pk]
    assert services.sweep_unsettled() == [rounds[2].pk]
    # Once due, it is tried again, and the wait doubles.
    later = failure.next_attempt_at + timedelta(seconds=1)
    assert services.sweep_unsettled(now=later) == []
    failure.refresh_from_db()
    assert failure.attempts == 2
    assert failure.next_attempt_at >= later + timedelta(seconds=2 * SettlementFailure.RETRY_FIRST_S)
    monkeypatch.setattr(services, "settle_round", real_settle)
    assert services.sweep_unsettled(now=failure.next_attempt_at + timedelta(seconds=1)) == [
        poisoned
    ]
    assert not SettlementFailure.objects.exists()
