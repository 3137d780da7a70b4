"""Display names the site now refuses are cleared on the accounts that have one:
a name with characters that hide or reorder text (a right-to-left override, a zero-width space …)
or one that passes for a bot (🤖, 机器人·简单 1). The player is then shown by their username until
they choose a new name, which goes through ``accounts.display_names`` like any other.

The checks are the pure functions of ``accounts.display_names`` (``hidden_character``,
``reads_as_a_bot``: text in, answer out, no model), imported rather than copied so that the
migration refuses exactly what the forms refuse. Names that are merely another clubmate's are
not touched: which of two players keeps a name is not for a migration to decide (the next change
of either name, or a join, is checked). Reversing restores nothing (the names are gone).
"""

from django.db import migrations


def clear_refused_names(apps, schema_editor):
    from accounts.display_names import hidden_character, reads_as_a_bot

    User = apps.get_model("accounts", "User")
    refused = [
        pk
        for pk, name in User.objects.exclude(display_name="").values_list("pk", "display_name")
        if hidden_character(name.strip()) is not None or reads_as_a_bot(name)
    ]
    User.objects.filter(pk__in=refused).update(display_name="")


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(clear_refused_names, migrations.RunPython.noop),
    ]
