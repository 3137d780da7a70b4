"""A 成麻 concealed kong's payment no longer names the tile to the others.

``RoundEvent.views`` are redacted once, when the event is written, and every delivery path
(live, reconnect, resync) sends them as stored. ``kong_paid`` events of concealed kongs (下雨)
written before ``rules.views.event_for`` hid their tile still name it to every seat and
spectator: a round in play at the upgrade would go on sending it on every reconnect. This
migration rewrites those rows' views as the engine redacts them today: the spectator's (and so
every other seat's) without ``tile``, the owner's the whole event (``payload``), in the stored
form of ``tables.gameplay.views_to_store`` (the spectator's, and a seat's where it differs).

Nothing is imported from the project: the redaction is one key, the stored form one dict. The
full event (``payload``) is untouched, so the replay of an ended round (which checks the stored
payloads against the engine's) is unchanged. Reversible as a no-op (the old views were a leak).
"""

from typing import Any

from django.db import migrations

BATCH = 500


def hidden_kong_views(payload: dict[str, Any]) -> dict[str, Any]:
    """The stored views of a concealed kong's ``kong_paid`` event (its full ``payload``)."""
    others = {key: value for key, value in payload.items() if key != "tile"}
    return {"spectator": others, str(payload["seat"]): payload}


def hide_concealed_kong_tiles(apps: Any, schema_editor: Any) -> None:
    RoundEvent = apps.get_model("tables", "RoundEvent")
    db = schema_editor.connection.alias if schema_editor is not None else "default"
    rows = RoundEvent.objects.using(db).filter(kind="kong_paid").only("payload", "views")
    changed = []
    for row in rows.iterator(chunk_size=BATCH):
        if row.payload.get("kong") != "concealed":
            continue
        views = hidden_kong_views(row.payload)
        if row.views != views:
            row.views = views
            changed.append(row)
    RoundEvent.objects.using(db).bulk_update(changed, ["views"], batch_size=BATCH)


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0011_fill_kong_payments"),
    ]

    operations = [
        migrations.RunPython(hide_concealed_kong_tiles, migrations.RunPython.noop),
    ]
