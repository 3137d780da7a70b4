"""The action log's migrations on a database holding rounds played before the log.

The database is taken back to ``tables`` 0008 (rounds keep their actions in ``Round.actions``),
given rounds really played by the engine's bots (one ended, one still in play, both with kong
money), and migrated forward: 0009 moves the actions into the log, 0010 drops the column, 0011
fills the kong payments 0009 could not know. The rounds must then be what a table playing them
today would have stored: the log, its counters, the kong facts, a replay reaching the same state,
and a settlement equal to the engine's. The fixture migrates the database forward again whatever
happens, before pytest-django empties it, so the other tests find it as they expect.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from rules.hand import Transfer
from rules.payments import nets
from rules.tiles import format_tiles, parse_tile
from rules.wall import seed_from_text
from scoring.models import KongPayment
from scoring.services import draft_ledger, settle_round
from tables import gameplay
from tables.game import store
from tables.models import Round, RoundAction, RoundEvent
from tests.scoring.helpers import play

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE_LOG = ("tables", "0008_bot_level")
LOG_MOVED = ("tables", "0010_drop_round_actions")
VARIANT = "changchun"


def _executor() -> MigrationExecutor:
    """A new executor each time: its loader reads which migrations are applied when made."""
    return MigrationExecutor(connection)


@pytest.fixture
def old_apps(transactional_db: None) -> Iterator[Any]:
    """The database at ``tables`` 0008 and its models as they were then; migrated back to the
    latest migrations afterwards (before the database is emptied for the next test)."""
    latest = _executor().loader.graph.leaf_nodes()
    _executor().migrate([BEFORE_LOG])
    try:
        yield _executor().loader.project_state([BEFORE_LOG]).apps
    finally:
        _executor().migrate(latest)


def _played_with_kong_money() -> tuple[bytes, int, list[Any], list[Any], Any]:
    """A round played by the bots in which a kong was paid before the last action (searched
    over seeds): (seed, dealer, actions, events, final state)."""
    for k in range(200):
        seed, dealer = seed_from_text(f"migrate/{k}"), k % 4
        state, actions, events = play(VARIANT, seed=seed, dealer=dealer, bot=k)
        steps = _steps(seed, dealer, actions)
        paid = gameplay.replay_kong_payments(steps)
        if any(paid[:-1]):
            return seed, dealer, actions, events, state
    raise AssertionError("no round with a kong payment in 200 seeds")


def _steps(seed: bytes, dealer: int, actions: list[Any]) -> list[gameplay.ReplayStep]:
    return gameplay.replay(
        variant=VARIANT,
        options={},
        seed=seed,
        dealer=dealer,
        actions=[a.to_json() for a in actions],
    )


def _store_old_round(
    apps: Any, match: Any, number: int, seed: bytes, dealer: int, steps: list[Any]
) -> int:
    """A round stored as the table stored it before the log: the action list on the row, the
    snapshot after all of it, the events with their views; ended if its last state has."""
    OldRound = apps.get_model("tables", "Round")
    OldEvent = apps.get_model("tables", "RoundEvent")
    state = steps[-1].state
    events = [e for step in steps for e in step.events]
    ended = gameplay.is_ended(state)
    rnd = OldRound.objects.create(
        match_id=match.pk,
        number=number,
        dealer=dealer,
        seed=seed.hex(),
        commitment=steps[0].state.commitment,
        actions=[step.action for step in steps[1:]],
        state=gameplay.dump_state(state),
        version=state.version,
        last_seq=len(events),
        decision_version=len(events),
        status="ended" if ended else "playing",
        result=gameplay.result_json(state),
        ended_at=timezone.now() if ended else None,
    )
    OldEvent.objects.bulk_create(
        OldEvent(
            round_id=rnd.pk,
            seq=i,
            kind=str(e.kind),
            payload=gameplay.event_json(e),
            views=gameplay.views_to_store(gameplay.event_views(e)),
        )
        for i, e in enumerate(events, start=1)
    )
    return int(rnd.pk)


def test_rounds_played_before_the_log_are_logged_with_their_kong_payments(
    old_apps: Any, make_user: Callable[..., Any]
) -> None:
    seed, dealer, actions, _events, final = _played_with_kong_money()
    steps = _steps(seed, dealer, actions)
    paid = gameplay.replay_kong_payments(steps)  # what a table logs with each action
    # The round still in play stops just after its first kong was paid.
    live_len = next(n for n, made in enumerate(paid, start=1) if made)
    live_steps = steps[: live_len + 1]
    players = [make_user(f"m{i}") for i in range(4)]
    match = _match(old_apps, players)
    ended_id = _store_old_round(old_apps, match, 1, seed, dealer, steps)
    live_id = _store_old_round(old_apps, match, 2, seed, dealer, live_steps)

    _executor().migrate([LOG_MOVED])
    moved = _executor().loader.project_state([LOG_MOVED]).apps.get_model("tables", "RoundAction")
    assert moved.objects.filter(round_id__in=[ended_id, live_id]).count() == len(actions) + live_len
    # 0009 could not know the kong payments: every row is without them until 0011.
    assert not moved.objects.exclude(kong_payments=[]).exists()

    _executor().migrate(_executor().loader.graph.leaf_nodes())
    for round_id, logged_steps in ((ended_id, steps), (live_id, live_steps)):
        rnd = Round.objects.select_related("match__room").get(pk=round_id)
        rows = list(RoundAction.objects.filter(round=rnd).order_by("n"))
        count = len(logged_steps) - 1
        assert [row.n for row in rows] == list(range(1, count + 1))
        assert [row.action for row in rows] == [step.action for step in logged_steps[1:]]
        assert [row.seat for row in rows] == [step.action["seat"] for step in logged_steps[1:]]
        assert {row.source for row in rows} == {""}
        assert rnd.action_count == count
        assert rnd.state_actions == count  # the snapshot held the whole old list
        assert [row.kong_payments for row in rows] == paid[:count]
        assert any(row.kong_payments for row in rows)
        assert store.replay_state(rnd) == logged_steps[-1].state
        assert store.load_state(rnd) == logged_steps[-1].state

    ended = Round.objects.select_related("match__room").get(pk=ended_id)
    assert final.result is not None
    settlement = settle_round(ended.pk)
    assert settlement is not None
    assert settlement.nets == final.result.nets
    entries = {e.seat: e for e in settlement.entries.all()}
    kong = nets(final.result.kong_transfers)
    assert [entries[s].kong_amount for s in range(4)] == list(kong)
    draft = draft_ledger(steps)  # the engine's ledger, from its own kong payments
    stored = KongPayment.objects.filter(settlement=settlement).order_by("pk")
    assert [(p.kong_index, p.konger, p.payer, p.amount, p.kind, p.tiles) for p in stored] == [
        (
            line.kong_index,
            line.transfer.payee,
            line.transfer.payer,
            line.transfer.amount,
            line.kind,
            format_tiles(line.meld.tiles) if line.meld else "",
        )
        for line in draft.kongs
    ]
    assert draft.kongs
    assert settle_round(live_id) is None  # still in play: nothing to settle


def _match(apps: Any, players: list[Any]) -> Any:
    """A match as stored at 0008 (its historical model: columns added since are not there yet)."""
    from accounts import services as accounts

    club = accounts.club_create(owner=players[0], name="迁移俱乐部")
    # The room too as stored at 0008: today's model has columns added since (0015's delay).
    room = apps.get_model("tables", "Room").objects.create(
        club_id=club.pk, name="老桌", variant=VARIANT, invite_code="MIGRATE8"
    )
    return apps.get_model("tables", "Match").objects.create(
        room_id=room.pk,
        variant=VARIANT,
        options={},  # as the rounds were played
        players=[u.pk for u in players],
        status="finished",
    )


BEFORE_HIDDEN_KONG = ("tables", "0011_fill_kong_payments")


def test_a_concealed_kong_payment_stored_with_its_tile_is_hidden_from_the_others(
    transactional_db: None, players: list[Any], make_club: Callable[..., Any], settings: Any
) -> None:
    """0012: a 成麻 round in play whose ``kong_paid`` event of a concealed kong was stored with
    its tile in every viewer's view (before migration 0012) sends it no more: the others' and
    the spectators' views lose the tile, the owner's keeps it, the full event is untouched, and
    the views are those a table writes today."""
    from rules.engine.events import KongPaid
    from tables import rooms
    from tests.tables.helpers import act, concealed_kong_seed, kong_eager_move, state_of

    seed, konger, tile = concealed_kong_seed()
    settings.TABLES_FIXED_SEED = seed.hex()
    club = make_club(owner=players[0], members=tuple(players[1:]))
    room = rooms.room_create(user=players[0], club=club, name="成都桌", variant="chengma")
    for index, user in enumerate(players):
        rooms.seat_take(room=room, user=user, index=index)
        rooms.seat_set_ready(room=room, user=user)
    rnd = Round.objects.get(match__room=room)
    paid = RoundEvent.objects.filter(round=rnd, kind="kong_paid", payload__kong="concealed")
    for _ in range(500):
        if paid.exists():
            break
        state = state_of(rnd)
        seat = gameplay.deciders(state)[0]
        assert act(rnd, seat, gameplay.action_json(kong_eager_move(state, seat))).ok
    row = paid.get()
    assert row.payload["tile"] == tile
    assert row.payload["seat"] == konger
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.PLAYING
    row.views = {"spectator": row.payload}  # what the table stored before the fix
    row.save(update_fields=["views"])
    others = RoundEvent.objects.filter(round=rnd).exclude(pk=row.pk)
    before = {e.pk: e.views for e in others}

    _executor().migrate([BEFORE_HIDDEN_KONG])
    _executor().migrate(_executor().loader.graph.leaf_nodes())

    row.refresh_from_db()
    event = KongPaid(
        seat=konger,
        kong="concealed",
        tile=parse_tile(tile),
        transfers=tuple(
            Transfer(t["payer"], t["payee"], t["amount"]) for t in row.payload["transfers"]
        ),
    )
    assert row.payload == gameplay.event_json(event)
    assert row.views == gameplay.views_to_store(gameplay.event_views(event))
    for viewer in (0, 1, 2, 3, None):
        view = gameplay.stored_view(row.views, gameplay.viewer_key(viewer))
        assert ("tile" in view) == (viewer == konger), viewer
    assert {e.pk: e.views for e in others} == before
