"""The action log: one ``RoundAction`` row per applied action becomes the round's truth;
``Round.actions`` (the whole list, rewritten on every move) is moved to the log (and dropped by
the next migration, in a transaction of its own);
``Round.state`` stays as a snapshot cache (``state_actions``: how many logged actions it holds).
Old rounds keep replaying and scoring: their actions are the log's rows, in order."""

import django.db.models.deletion
from django.db import migrations, models

BATCH = 500


def actions_to_log(apps, schema_editor):
    Round = apps.get_model("tables", "Round")
    RoundAction = apps.get_model("tables", "RoundAction")
    rows = []
    for rnd in Round.objects.order_by("pk").iterator(chunk_size=BATCH):
        actions = list(rnd.actions or [])
        for n, action in enumerate(actions, start=1):
            rows.append(
                RoundAction(
                    round_id=rnd.pk,
                    n=n,
                    seat=int(action.get("seat", 0)),
                    source="",
                    action=action,
                    client_action_id="",
                    last_seq=rnd.last_seq if n == len(actions) else 0,
                    decision=rnd.decision_version if n == len(actions) else 0,
                )
            )
        # The stored snapshot is the state after every action of the list.
        Round.objects.filter(pk=rnd.pk).update(
            action_count=len(actions), state_actions=len(actions) if rnd.state else 0
        )
        if len(rows) >= BATCH:
            RoundAction.objects.bulk_create(rows)
            rows = []
    RoundAction.objects.bulk_create(rows)


def log_to_actions(apps, schema_editor):
    Round = apps.get_model("tables", "Round")
    RoundAction = apps.get_model("tables", "RoundAction")
    for rnd in Round.objects.order_by("pk").iterator(chunk_size=BATCH):
        log = RoundAction.objects.filter(round_id=rnd.pk).order_by("n")
        actions = list(log.values_list("action", flat=True))
        # A snapshot older than the log cannot stand for the whole list: it is dropped (the
        # round is replayed from its seed instead).
        state = rnd.state if rnd.state_actions == len(actions) else {}
        Round.objects.filter(pk=rnd.pk).update(actions=actions, state=state)


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0008_bot_level"),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="state_actions",
            field=models.PositiveIntegerField(
                default=0,
                help_text="引擎状态快照之后的动作在动作日志中重放。",
                verbose_name="快照包含的动作数",
            ),
        ),
        migrations.AddField(
            model_name="round",
            name="action_count",
            field=models.PositiveIntegerField(default=0, verbose_name="动作数"),
        ),
        migrations.CreateModel(
            name="RoundAction",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("n", models.PositiveIntegerField(verbose_name="序号")),
                ("seat", models.PositiveSmallIntegerField(verbose_name="座位号")),
                ("source", models.CharField(blank=True, max_length=8, verbose_name="来源")),
                ("action", models.JSONField(verbose_name="动作")),
                (
                    "client_action_id",
                    models.CharField(blank=True, max_length=64, verbose_name="客户端动作 id"),
                ),
                ("last_seq", models.PositiveIntegerField(default=0, verbose_name="最后事件序号")),
                ("decision", models.PositiveIntegerField(default=0, verbose_name="之后的决策序号")),
                (
                    "kong_payments",
                    models.JSONField(blank=True, default=list, verbose_name="杠钱"),
                ),
                (
                    "round",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="log",
                        to="tables.round",
                        verbose_name="牌局",
                    ),
                ),
            ],
            options={
                "verbose_name": "动作日志",
                "verbose_name_plural": "动作日志",
                "ordering": ("round_id", "n"),
                "constraints": [
                    models.UniqueConstraint(
                        fields=("round", "n"), name="roundaction_unique_round_n"
                    ),
                    models.UniqueConstraint(
                        condition=models.Q(("client_action_id", ""), _negated=True),
                        fields=("round", "seat", "client_action_id"),
                        name="roundaction_unique_client_id",
                    ),
                ],
            },
        ),
        migrations.RunPython(actions_to_log, log_to_actions),
    ]
