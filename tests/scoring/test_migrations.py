"""The fan-items-per-win migrations on a database the old code left.

The database is taken back to ``scoring`` 0006 (a fan item has no winner; (settlement, key) is
unique) and given what the old code wrote: a one-win 成麻 round's settlement, a two-win one whose
winners' items happened to differ (平胡 and 七对: it settled), and a two-win round whose winners
both scored 平胡, which never settled (its ``SettlementFailure`` backs off for hours). Migrated
forward, every item names its win, and the stuck round is due at once: the clock's sweep settles
it. The fixture migrates forward again whatever happens, before pytest-django empties the
database, so the other tests find it as they expect.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from scoring import services
from scoring.models import FanItem, RoundSettlement, SettlementFailure
from tables.game.store import replay_steps
from tables.models import Round

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = ("scoring", "0006_chengma_payment_lines")


def _executor() -> MigrationExecutor:
    return MigrationExecutor(connection)


@pytest.fixture
def old_apps(transactional_db: None) -> Iterator[Any]:
    latest = _executor().loader.graph.leaf_nodes()
    _executor().migrate([BEFORE])
    try:
        yield _executor().loader.project_state([BEFORE]).apps
    finally:
        _executor().migrate(latest)


def _old_settle(apps: Any, rnd: Round) -> int:
    """What the old ``write_ledger`` stored of the round (the parts the migration reads): the
    settlement, its fan items without their win, and its payment lines."""
    draft = services.draft_ledger(replay_steps(rnd))
    settlement = apps.get_model("scoring", "RoundSettlement").objects.create(
        round_id=rnd.pk,
        match_id=rnd.match_id,
        club_id=rnd.match.room.club_id,
        variant=rnd.match.variant,
        number=rnd.number,
        ended_at=rnd.ended_at,
        dealer=draft.dealer,
        next_dealer=draft.next_dealer,
        winner=draft.winner,
        win_by=draft.win_by or "",
        discarder=draft.discarder,
        win_tile=draft.win_tile,
        fan_total=draft.fan_total,
        net_0=draft.nets[0],
        net_1=draft.nets[1],
        net_2=draft.nets[2],
        net_3=draft.nets[3],
    )
    apps.get_model("scoring", "FanItem").objects.bulk_create(
        apps.get_model("scoring", "FanItem")(
            settlement=settlement, position=i, key=item.key, value=item.value
        )
        for i, item in enumerate(draft.fan_items)
    )
    apps.get_model("scoring", "PaymentLine").objects.bulk_create(
        apps.get_model("scoring", "PaymentLine")(
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
    return int(settlement.pk)


def _wins(rnd: Round) -> list[tuple[int, dict[str, int]]]:
    final = replay_steps(rnd)[-1].state
    return [(w["seat"], dict(w["verdict"].fan)) for w in final.extra["wins"]]


def test_old_fan_items_get_their_win_and_stuck_rounds_settle(
    old_apps: Any, room: Any, make_match: Any, make_round: Any
) -> None:
    room.variant = "chengma"
    room.options = {}
    room.save(update_fields=["variant", "options"])
    one = make_round(make_match(options={}), 6, seed_text="chengma pages")  # one win: 平胡 + 根
    differ = make_round(make_match(options={}), 6, seed_text="chengma migrate", level="hard")
    stuck = make_round(make_match(options={}), 29, seed_text="chengma pages")  # 平胡 twice
    assert len(_wins(one)) == 1
    assert [set(fan) for _, fan in _wins(differ)] == [{"pinghu"}, {"qidui"}]
    assert [set(fan) for _, fan in _wins(stuck)] == [{"pinghu"}, {"pinghu"}]
    settled = {rnd.pk: _old_settle(old_apps, rnd) for rnd in (one, differ)}
    now = timezone.now()
    Round.objects.filter(pk=stuck.pk).update(ended_at=now - timedelta(days=2))
    old_failure = old_apps.get_model("scoring", "SettlementFailure")
    old_failure.objects.create(
        round_id=stuck.pk,
        attempts=11,
        last_error='IntegrityError: duplicate key value violates unique constraint "fanitem_'
        'unique_key"\nDETAIL:  Key (settlement_id, key)=(7, pinghu) already exists.',
        failed_at=now - timedelta(hours=2),
        next_attempt_at=now + timedelta(hours=22),
    )

    _executor().migrate(_executor().loader.graph.leaf_nodes())

    for rnd in (one, differ):
        items = FanItem.objects.filter(settlement_id=settled[rnd.pk]).order_by("position")
        assert [(f.winner, f.key, f.value) for f in items] == [
            (seat, key, value) for seat, fan in _wins(rnd) for key, value in fan.items()
        ]
    assert SettlementFailure.objects.get(round=stuck).next_attempt_at <= timezone.now()
    assert services.sweep_unsettled() == [stuck.pk]
    settlement = RoundSettlement.objects.get(round=stuck)
    assert sorted(settlement.fan_items.values_list("winner", "key")) == sorted(
        (seat, "pinghu") for seat, _ in _wins(stuck)
    )
    assert not SettlementFailure.objects.exists()
