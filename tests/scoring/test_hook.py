"""The hook from the live tables: a round played to its end through ``tables.game.commands`` is
settled by the task enqueued after the commit (``tables.signals.round_finished``)."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import tasks
from scoring.models import LedgerEntry, RoundSettlement
from tables import gameplay, matches, rooms, selectors
from tables.game import commands, store
from tables.models import Round
from tests.tables.helpers import table_opened, win_or_default

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def live_round(room: Any, players: list[Any], settings: Any) -> Round:
    settings.TABLES_SCHEDULE_TASKS = False
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    for index, user in enumerate(players):
        rooms.seat_take(room=room, user=user, index=index)
        table_opened(room.pk, user)
    for user in players:
        rooms.seat_set_ready(room=room, user=user)
    rnd = selectors.current_round(room.pk)
    assert rnd is not None
    return rnd


def _play_to_the_end(rnd: Round) -> Round:
    for n in range(2000):
        rnd = Round.objects.select_related("match__room").get(pk=rnd.pk)
        if rnd.status != Round.Status.PLAYING:
            return rnd
        state = store.load_state(rnd)
        seat = gameplay.deciders(state)[0]
        action = win_or_default(state, seat)
        outcome = commands.round_apply_action(
            round_id=rnd.pk,
            seat=seat,
            action_json=gameplay.action_json(action),
            client_action_id=f"hook{n}",
        )
        assert outcome.ok
    raise AssertionError("the round did not end")


def test_ending_a_round_enqueues_its_settlement_after_the_commit(live_round, settings, monkeypatch):
    settings.SCORING_ENQUEUE_SETTLEMENT = True
    enqueued: list[int] = []

    def delay(round_id: int) -> None:
        # The round must already be committed and ended when the task is enqueued.
        assert Round.objects.get(pk=round_id).status == Round.Status.ENDED
        enqueued.append(round_id)
        tasks.settle_round.run(round_id)

    monkeypatch.setattr(tasks.settle_round, "delay", delay)
    rnd = _play_to_the_end(live_round)
    assert enqueued == [rnd.pk]
    settlement = RoundSettlement.objects.get(round=rnd)
    assert list(settlement.nets) == rnd.result["nets"]
    assert settlement.next_dealer == rnd.result["next_dealer"]
    users = list(LedgerEntry.objects.filter(settlement=settlement).values_list("user", flat=True))
    assert users == rnd.match.players


def test_a_broker_outage_leaves_the_round_to_the_sweeper(live_round, settings, monkeypatch):
    settings.SCORING_ENQUEUE_SETTLEMENT = True

    def broken(round_id: int) -> None:
        raise ConnectionError("broker down")

    monkeypatch.setattr(tasks.settle_round, "delay", broken)
    rnd = _play_to_the_end(live_round)  # the outage does not break the table
    assert not RoundSettlement.objects.filter(round=rnd).exists()
    from scoring.services import sweep_unsettled

    assert sweep_unsettled(grace_s=0) == [rnd.pk]
    assert RoundSettlement.objects.filter(round=rnd).exists()


def test_the_next_round_is_dealt_once_by_the_table_with_the_settled_next_dealer(
    live_round, settings, monkeypatch
):
    """Coordination with tables: the table deals the next round (after its pause) with the
    dealer the settlement recorded; settling does not deal a second one."""
    from datetime import timedelta

    from django.utils import timezone

    settings.SCORING_ENQUEUE_SETTLEMENT = True
    monkeypatch.setattr(tasks.settle_round, "delay", tasks.settle_round.run)
    rnd = _play_to_the_end(live_round)
    settlement = RoundSettlement.objects.get(round=rnd)
    assert Round.objects.filter(match=rnd.match).count() == 1  # settling dealt nothing
    later = timezone.now() + timedelta(minutes=5)
    nxt = matches.match_next_round(match_id=rnd.match_id, after_number=rnd.number, now=later)
    assert nxt is not None
    assert nxt.dealer == settlement.next_dealer
    tasks.settle_round.run(rnd.pk)  # a late duplicate of the task
    assert Round.objects.filter(match=rnd.match).count() == 2
    assert RoundSettlement.objects.filter(match=rnd.match).count() == 1
