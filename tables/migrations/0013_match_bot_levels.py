"""The bots' levels of a match, recorded at its start, so that its bots can be named apart in the
history, the charts and the ledger (机器人·简单 1, 机器人·困难 2:
``tables.bot_names``).

Existing matches: the level a bot played at was never stored, except where its seat still
exists — a match in play still has its four seats, so their levels (the seat's own, else the
room's, as the table plays them) are copied. A finished match's seats are gone, so it stays
``[]`` and its bots are named by number alone (机器人 1, 机器人 2): distinct, and not a guess.
Bots are seats, not accounts, so there is no user to rename. Reversible: the field is dropped.
"""

from django.db import migrations, models


def fill_playing_matches(apps, schema_editor):
    Match = apps.get_model("tables", "Match")
    Seat = apps.get_model("tables", "Seat")
    for match in Match.objects.filter(status="playing").select_related("room"):
        seats = {seat.index: seat for seat in Seat.objects.filter(room_id=match.room_id)}
        levels = []
        for index, user_id in enumerate(match.players or []):
            seat = seats.get(index)
            if user_id is not None or seat is None or not seat.is_bot:
                levels.append("")
            else:
                levels.append(seat.bot_level or match.room.bot_level)
        if any(levels):
            match.bot_levels = levels
            match.save(update_fields=["bot_levels"])


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0012_hide_concealed_kong_tiles"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="bot_levels",
            field=models.JSONField(
                blank=True,
                default=list,
                help_text="开局时各座位机器人的水平（玩家的座位为空字符串），用来给机器人起名。",
                verbose_name="机器人水平",
            ),
        ),
        migrations.RunPython(fill_playing_matches, migrations.RunPython.noop),
    ]
