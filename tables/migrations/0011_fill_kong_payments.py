"""Kong payments for the actions logged before they were facts of their own.

0009 moved every round's ``Round.actions`` into the action log with ``kong_payments=[]`` (the
rows with an empty ``source``): a round that ended, or was still in play, before the log existed
has no kong facts for those actions, and the settlement, which makes its kong lines of the facts
and checks them against the replay (``scoring.services.settle_round``), would refuse it. This
migration replays each such round from its seed, dealer, match variant, options and setup, and
writes on every migrated row the kong payments the engine makes in that action, in the format
the table logs (``tables.gameplay.kong_payments``: ``payer``, ``payee``, ``amount`` and the
kong's meld as ``rules.engine.events.meld_json``, or None).

Why the migration imports the ``rules`` engine, and nothing else of the project: a round's kong
payments are not in the database in any other form; they exist only as what the engine does with
the logged actions (spec README: a round is a pure function of its seed, dealer and actions).
``rules`` is a pure library (no Django, no models; ``tests/rules/test_import_boundary.py``), so it
cannot drift from a historical schema the way a model or a service does, and any engine that
replays the round at all is the engine the settlement and the replay page would replay it with.
What would drift is the web layer's code around it, so it is not imported: the tiny kong payment
difference (:func:`_kong_payments`) and the wind round setup (:func:`_setup`) are copied here as
they are at 0011 (the first is a stored data format: if it ever changes, a migration converts
the stored rows; the second reads the match's earlier rounds through the historical models).

Which rounds: those with a migrated row (``source`` empty) and a kong among their events (a kong
payment is made in the action that lays the kong down; a round without a kong has nothing to
fill). Only rows whose facts are empty are written; a row with facts is never touched. A round
whose replay fails, or does not reach the round's version, is left as it is and named in the
log: its facts cannot be established, and its settlement refuses it loudly anyway.

Batched: rounds are read :data:`BATCH` at a time and each batch is written in a transaction of
its own (``atomic = False``), so a large table is not locked for the whole run and a run stopped
midway is finished by running it again (it only fills empty rows). Reversible as a no-op: the
facts agree with the log they belong to, and 0009's reverse drops the log altogether.
"""

import logging
from typing import Any

from django.db import migrations, transaction
from django.db.models import Exists, OuterRef

BATCH = 200
KONG_MELDS = ("kong", "special_kong")

log = logging.getLogger(__name__)


def _kong_payments(before: Any, after: Any, events: Any) -> list[dict[str, Any]]:
    """The kong payments one action made, as ``tables.gameplay.kong_payments`` logs them at
    0011: the engine appends a kong's payments to ``kong_transfers`` in the ``apply`` that lays
    the kong down, with its ``Melded`` event."""
    from rules.engine.events import Melded, meld_json

    new = after.kong_transfers[len(before.kong_transfers) :]
    if not new:
        return []
    kongs = [e.meld for e in events if isinstance(e, Melded) and e.meld.is_kong]
    meld = meld_json(kongs[-1]) if kongs else None
    return [{"payer": t.payer, "payee": t.payee, "amount": t.amount, "kong": meld} for t in new]


def _setup(Round: Any, rnd: Any, variant: Any) -> dict[str, Any]:
    """The round wind and 連莊 count ``rnd`` was dealt with in a match of wind rounds (Taiwan 16,
    ``tables.game.store.match_setup`` at 0011); nothing for the other variants (东, no count)."""
    from rules.tiles import EAST

    flow = variant.flow
    if not flow.wind_rounds:
        return {}
    earlier = list(
        Round.objects.filter(match_id=rnd.match_id, number__lt=rnd.number).order_by("number")
    )
    first = earlier[0].dealer if earlier else rnd.dealer
    wind, count = EAST, 0
    for r in earlier:
        following = int(r.result["next_dealer"]) if r.result else r.dealer
        nxt = flow.next_round(
            first_dealer=first,
            dealer=r.dealer,
            round_wind=wind,
            lianzhuang=count,
            next_dealer=following,
        )
        wind, count = nxt.round_wind, nxt.lianzhuang
    return {"round_wind": wind, "lianzhuang": count}


def _replayed_kong_payments(Round: Any, rnd: Any, actions: list[Any]) -> list[list[Any]] | None:
    """Each action's kong payments, replaying ``rnd``; None when the replay does not reach the
    round's version (or the engine refuses it)."""
    from rules import engine
    from rules.errors import RulesError
    from rules.registry import get_variant

    try:
        variant = get_variant(rnd.match.variant)
        state, _events = engine.new_round(
            variant=variant,
            options=dict(rnd.match.options),
            seed=bytes.fromhex(rnd.seed),
            dealer=rnd.dealer,
            **_setup(Round, rnd, variant),
        )
        paid = []
        for data in actions:
            after, events = engine.apply(state, engine.action_from_json(dict(data)))
            paid.append(_kong_payments(state, after, events))
            state = after
    except (RulesError, KeyError, ValueError) as exc:
        log.warning("round %s: no kong payments filled, its replay failed: %s", rnd.pk, exc)
        return None
    if state.version != rnd.version:
        log.warning(
            "round %s: no kong payments filled, its replay reached version %s, not %s",
            rnd.pk,
            state.version,
            rnd.version,
        )
        return None
    return paid


def fill_kong_payments(apps: Any, schema_editor: Any) -> None:
    Round = apps.get_model("tables", "Round")
    RoundAction = apps.get_model("tables", "RoundAction")
    RoundEvent = apps.get_model("tables", "RoundEvent")
    db = schema_editor.connection.alias
    migrated = RoundAction.objects.using(db).filter(round_id=OuterRef("pk"), source="")
    konged = RoundEvent.objects.using(db).filter(
        round_id=OuterRef("pk"), kind="meld", payload__meld__type__in=KONG_MELDS
    )
    ids = list(
        Round.objects.using(db)
        .filter(Exists(migrated), Exists(konged))
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    for start in range(0, len(ids), BATCH):
        chunk = ids[start : start + BATCH]
        with transaction.atomic(using=db):
            rows_of: dict[int, list[Any]] = {}
            for row in RoundAction.objects.using(db).filter(round_id__in=chunk).order_by("n"):
                rows_of.setdefault(row.round_id, []).append(row)
            filled = []
            for rnd in Round.objects.using(db).filter(pk__in=chunk).select_related("match"):
                rows = rows_of.get(rnd.pk, [])
                paid = _replayed_kong_payments(Round, rnd, [row.action for row in rows])
                if paid is None:
                    continue
                for row, made in zip(rows, paid, strict=True):
                    if made and not row.kong_payments:
                        row.kong_payments = made
                        filled.append(row)
            RoundAction.objects.using(db).bulk_update(filled, ["kong_payments"], batch_size=BATCH)


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("tables", "0010_drop_round_actions"),
    ]

    operations = [
        migrations.RunPython(fill_kong_payments, migrations.RunPython.noop),
    ]
