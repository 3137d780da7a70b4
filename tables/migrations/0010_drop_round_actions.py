"""``Round.actions`` is in the action log now (0009); the column goes (a transaction of its own:
PostgreSQL does not alter a table with the log's deferred foreign-key checks pending)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0009_round_action_log"),
    ]

    operations = [
        migrations.RemoveField(model_name="round", name="actions"),
    ]
