"""Fan items per win: ``FanItem.winner`` names the win an item belongs to.

成麻 (血战到底) has several wins a round and two winners often score the same item (平胡 twice):
the old unique (settlement, key) refused such a round's settlement, which was then retried for
ever (``SettlementFailure``, backing off up to a day). This migration

* gives every existing item its win: the settlement's winner where the round had one win; for a
  成麻 round settled with several (their keys happened to differ), the wins are told apart by
  replaying the round (``scoring.services.fan_items_replayed``);
* makes the rounds that failed on that constraint due again, so that the clock's settlement sweep
  (``scoring.services.sweep_unsettled``, every minute) settles them at once instead of after their
  back-off.

The new constraint and the NOT NULL are in 0008: on PostgreSQL a table cannot be altered in the
transaction that has just updated its rows.
"""

import logging

from django.db import migrations, models
from django.db.models import Count, OuterRef, Subquery
from django.utils import timezone

log = logging.getLogger(__name__)


def fill_winners(apps, schema_editor):
    FanItem = apps.get_model("scoring", "FanItem")
    RoundSettlement = apps.get_model("scoring", "RoundSettlement")
    PaymentLine = apps.get_model("scoring", "PaymentLine")
    winner = RoundSettlement.objects.filter(pk=OuterRef("settlement_id")).values("winner")[:1]
    # An item is only ever written for a win, so its settlement has a winner (the first win's).
    FanItem.objects.filter(winner__isnull=True).update(winner=Subquery(winner))
    FanItem.objects.filter(winner__isnull=True).update(winner=0)  # none known: never written
    several = (
        PaymentLine.objects.filter(kind="win", winner__isnull=False)
        .values("settlement_id")
        .annotate(wins=Count("winner", distinct=True))
        .filter(wins__gt=1)
        .values_list("settlement_id", flat=True)
    )
    for settlement in RoundSettlement.objects.filter(pk__in=list(several)):
        _split_wins(FanItem, settlement)


def _split_wins(FanItem, settlement):
    """Give each item of a several-win settlement its win, from the replay of the round (the
    items were written in the order of the wins, each win's items in its own order)."""
    items = list(FanItem.objects.filter(settlement=settlement).order_by("position"))
    try:
        from scoring.services import fan_items_replayed

        replayed = fan_items_replayed(settlement.round_id)
    except Exception:  # an engine that cannot replay it any more: keep the first win's seat
        log.exception("fan items of settlement %s: the replay failed", settlement.pk)
        return
    if [(i.key, i.value) for i in items] != [(r.key, r.value) for r in replayed]:
        log.warning("fan items of settlement %s differ from its replay", settlement.pk)
        return
    for item, again in zip(items, replayed, strict=True):
        item.winner = again.winner
    FanItem.objects.bulk_update(items, ["winner"])


def release_stuck_settlements(apps, schema_editor):
    """Rounds whose settlement failed on the old fan item constraint (its name, or the table's
    in SQLite's message) are due now: the sweep settles them on its next run."""
    SettlementFailure = apps.get_model("scoring", "SettlementFailure")
    SettlementFailure.objects.filter(last_error__icontains="fanitem").update(
        next_attempt_at=timezone.now()
    )


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0006_chengma_payment_lines"),
    ]

    operations = [
        migrations.AddField(
            model_name="fanitem",
            name="winner",
            field=models.PositiveSmallIntegerField(null=True, verbose_name="胡牌座位"),
        ),
        migrations.RunPython(fill_winners, migrations.RunPython.noop),
        migrations.RunPython(release_stuck_settlements, migrations.RunPython.noop),
    ]
