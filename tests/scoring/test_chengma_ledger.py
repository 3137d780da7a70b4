"""成麻 (血战到底) rounds with several winners reach the ledger.

Two winners of one round often score the same item (平胡 twice): the fan items belong to a win,
not to the round, so the second 平胡 is not a duplicate. Before the fix ``write_ledger`` broke the
unique (settlement, key) of ``FanItem``, the settlement was retried for ever and the round was
missing from 我的对局, the match page and the boards.
"""

from __future__ import annotations

import importlib
from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from django.apps import apps as django_apps
from django.urls import reverse
from django.utils import timezone

from scoring import services
from scoring.models import FanItem, LedgerEntry, RoundSettlement, SettlementFailure
from tables.models import Round

pytestmark = pytest.mark.django_db

TWO_PINGHU = 29
"""Round 29 of seed text ``chengma pages`` (bot 29, dealer 0): seats 1 and 3 both win 平胡."""


@pytest.fixture
def chengma_match(room: Any, make_match: Any) -> Any:
    room.variant = "chengma"
    room.options = {}
    room.save(update_fields=["variant", "options"])
    return make_match(options={})


@pytest.fixture
def two_winners(chengma_match: Any, make_round: Any) -> Round:
    """An ended 成麻 round whose two winners share a fan key."""
    rnd = make_round(chengma_match, TWO_PINGHU, seed_text="chengma pages")
    wins = _wins(rnd)
    assert len(wins) == 2
    keys = Counter(key for win in wins for key in win["fan"])
    assert any(count > 1 for count in keys.values()), keys
    return rnd


def _wins(rnd: Round) -> list[dict[str, Any]]:
    from tables.game.store import replay_steps

    final = replay_steps(rnd)[-1].state
    return [
        {
            "seat": w["seat"],
            "fan": dict(w["verdict"].fan),
            "total": w["verdict"].total,
            "self_drawn": w["win_by"] in ("self_draw", "kong_draw"),
        }
        for w in final.extra["wins"]
    ]


def _assert_per_win_items(settlement: RoundSettlement, wins: list[dict[str, Any]]) -> None:
    for win in wins:
        items = FanItem.objects.filter(settlement=settlement, winner=win["seat"])
        assert dict(items.values_list("key", "value")) == win["fan"]
    assert FanItem.objects.filter(settlement=settlement).count() == sum(len(w["fan"]) for w in wins)
    entries = {e.seat: e for e in LedgerEntry.objects.filter(settlement=settlement)}
    assert {s for s, e in entries.items() if e.won} == {w["seat"] for w in wins}
    for win in wins:
        assert entries[win["seat"]].fan_total == win["total"]


def test_two_winners_sharing_a_fan_key_are_settled_into_the_ledger(two_winners):
    settlement = services.settle_round(two_winners.pk)
    assert settlement is not None
    assert list(settlement.nets) == two_winners.result["nets"]
    _assert_per_win_items(settlement, _wins(two_winners))


def test_the_match_page_and_api_show_each_wins_fan_items(client, players, two_winners):
    services.settle_round(two_winners.pk)
    wins = _wins(two_winners)
    client.force_login(players[0])
    page = client.get(reverse("scoring:match", args=[two_winners.match_id]))
    assert page.status_code == 200
    (row,) = page.context["rows"]
    assert [w.seat for w in row.wins] == [w["seat"] for w in wins]
    for shown, win in zip(row.wins, wins, strict=True):
        assert {f.key: f.value for f in shown.fan} == win["fan"]
        assert shown.fan_total == win["total"]
    body = page.content.decode()
    assert body.count('class="fan-list win-fan"') == 2
    for win in wins:
        assert players[win["seat"]].public_name in body

    api = client.get(f"/api/matches/{two_winners.match_id}/").json()
    (round_json,) = api["rounds"]
    assert [w["seat"] for w in round_json["wins"]] == [w["seat"] for w in wins]
    for shown, win in zip(round_json["wins"], wins, strict=True):
        assert {f["key"]: f["value"] for f in shown["fan"]} == win["fan"]
        assert shown["fan_total"] == win["total"]
    assert Counter(f["winner"] for f in round_json["fan"]) == Counter(
        w["seat"] for w in wins for _ in w["fan"]
    )
    one = client.get(f"/api/rounds/{two_winners.pk}/").json()
    assert one["settlement"]["wins"] == round_json["wins"]


def test_the_admin_names_every_winner(client, make_user, players, two_winners):
    settlement = services.settle_round(two_winners.pk)
    assert settlement is not None
    admin = make_user("root", is_staff=True, is_superuser=True)
    client.force_login(admin)
    changelist = client.get(reverse("admin:scoring_roundsettlement_changelist")).content.decode()
    for win in _wins(two_winners):
        how = "自摸" if win["self_drawn"] else "胡"
        assert f"{players[win['seat']].public_name} {how}" in changelist
    page = client.get(reverse("admin:scoring_roundsettlement_change", args=[settlement.pk]))
    assert page.status_code == 200
    body = page.content.decode()
    fan_inline = body[body.index('id="fan_items-group"') :]
    fan_inline = fan_inline[: fan_inline.index("</fieldset>")]
    assert fan_inline.count('class="field-winner"') == sum(
        len(w["fan"]) for w in _wins(two_winners)
    )


def _release_stuck_settlements() -> Any:
    module = importlib.import_module("scoring.migrations.0007_fan_items_per_win")
    return module.release_stuck_settlements


def test_a_round_stuck_by_the_old_constraint_is_settled_by_the_sweep(two_winners):
    """The state the old code left: no settlement, a failure row backing off for up to a day. The
    migration makes it due again and the clock's sweep settles it."""
    now = timezone.now()
    Round.objects.filter(pk=two_winners.pk).update(ended_at=now - timedelta(days=3))
    SettlementFailure.objects.create(
        round=two_winners,
        attempts=12,
        last_error=(
            "IntegrityError: UNIQUE constraint failed: "
            "scoring_fanitem.settlement_id, scoring_fanitem.key"
        ),
        failed_at=now - timedelta(hours=1),
        next_attempt_at=now + timedelta(hours=23),
    )
    other = SettlementFailure.objects.create(  # a failure for another reason keeps its wait
        round=Round.objects.create(
            match=two_winners.match,
            number=99,
            seed="00" * 32,
            status=Round.Status.ENDED,
            ended_at=now - timedelta(days=3),
        ),
        attempts=3,
        last_error="OverflowError: integer out of range",
        failed_at=now,
        next_attempt_at=now + timedelta(minutes=4),
    )
    assert services.sweep_unsettled(now=now) == []  # backing off: still stuck

    _release_stuck_settlements()(django_apps, None)

    assert services.sweep_unsettled() == [two_winners.pk]
    settlement = RoundSettlement.objects.get(round=two_winners)
    _assert_per_win_items(settlement, _wins(two_winners))
    assert not SettlementFailure.objects.filter(round=two_winners).exists()
    other.refresh_from_db()
    assert other.next_attempt_at == now + timedelta(minutes=4)
