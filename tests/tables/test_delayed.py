"""Spectating with a delay: a spectator of a room with ``spectator_delay_s`` sees the
table as it was that long ago with every hand open, and nothing newer; players and the
spectators of ordinary rooms keep today's views. The events' times are set by the test (their
``created_at``) and the delayed stream's clock is fixed (``tables.delayed.clock``), so nothing
waits for minutes."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from tables import delayed, gameplay
from tables.game import commands, store
from tables.models import Room, Round, RoundAction, RoundEvent
from tests.tables.helpers import fresh, state_of, walk, win_or_default
from tests.tables.ws import connect, drain, send, until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

DELAY_S = 60


@pytest.fixture
def now(monkeypatch: pytest.MonkeyPatch, settings: Any) -> datetime:
    """The delayed stream's clock, fixed; ticks every 50 ms."""
    settings.TABLES_DELAYED_TICK_MS = 50
    fixed = timezone.now()
    monkeypatch.setattr(delayed, "clock", lambda: fixed)
    return fixed


def _play(rnd: Round, moves: int) -> list[int]:
    """``moves`` timeout-like moves; the last event seq after each logged action so far."""
    for _ in range(moves):
        rnd = fresh(rnd)
        state = state_of(rnd)
        seat = gameplay.deciders(state)[0]
        action = win_or_default(state, seat)
        outcome = commands.round_apply_action(
            round_id=rnd.pk,
            seat=seat,
            action_json=gameplay.action_json(action),
            client_action_id=f"d{rnd.pk}-{rnd.version}",
        )
        assert outcome.ok
    return list(
        RoundAction.objects.filter(round=rnd).order_by("n").values_list("last_seq", flat=True)
    )


def _age(rnd: Round, *, upto_seq: int, at: datetime) -> None:
    """Events up to ``upto_seq`` happened at ``at``; later ones now (after the cutoff)."""
    RoundEvent.objects.filter(round=rnd, seq__lte=upto_seq).update(created_at=at)
    RoundEvent.objects.filter(round=rnd, seq__gt=upto_seq).update(created_at=timezone.now())
    Round.objects.filter(pk=rnd.pk).update(started_at=at)


def _delay(room_id: int, seconds: int) -> None:
    Room.objects.filter(pk=room_id).update(spectator_delay_s=seconds)


def _open_view_after(rnd: Round, actions: int) -> dict[str, Any]:
    """The engine's open view after the deal and the first ``actions`` actions (independent of
    the module under test: the whole replay, then the step)."""
    steps = store.replay_steps(fresh(rnd))
    return gameplay.open_view(steps[actions].state)


@sync_to_async
def _watcher(rnd: Round, make_user: Any) -> Any:
    from accounts.models import Membership

    user = make_user("delayed_watcher")
    Membership.objects.create(club=rnd.match.room.club, user=user)
    return user


def _secret_keys(message: dict[str, Any]) -> list[str]:
    return [path for path, value in walk(message) if value in ("wall", "salt")]


async def test_a_delayed_spectator_sees_nothing_newer_than_the_delay_and_every_hand(
    playing: Round, players: list[Any], make_user: Any, now: datetime
) -> None:
    room_id = playing.match.room_id
    await sync_to_async(_delay)(room_id, DELAY_S)
    boundaries = await sync_to_async(_play)(playing, 12)
    # Old enough: the first 5 actions' events and the first event of the 6th (cut mid-action).
    await sync_to_async(_age)(
        playing, upto_seq=boundaries[4] + 1, at=now - timedelta(seconds=DELAY_S + 30)
    )
    assert boundaries[5] > boundaries[4] + 1  # the 6th action made more than one event
    spectator = await _watcher(playing, make_user)

    comm, connected = await connect(room_id, spectator)
    assert connected
    table = await until(comm, "table")
    assert table["room"]["spectator_delay_s"] == DELAY_S
    await send(comm, {"type": "hello"})
    snapshot = await until(comm, "snapshot")
    assert snapshot["seq"] == boundaries[4]  # the last action all of whose events are old
    assert snapshot["delay_s"] == DELAY_S
    assert snapshot["seed"] is None
    assert snapshot["result"] is None
    assert snapshot["status"] == "playing"
    decision = snapshot["decision"]
    assert decision["legal_actions"] == []
    assert decision["deadline"] is None
    view = decision["view"]
    assert view["open"] is True
    assert all("concealed" in seat for seat in view["seats"])  # every hand
    expected = await sync_to_async(_open_view_after)(playing, 5)
    expected["version"] = boundaries[4]
    assert view == expected
    assert _secret_keys(snapshot) == []
    assert await drain(comm, quiet=0.3) == []  # nothing newer arrives with the clock still

    # A seated player in the same room: their own hand only, live.
    player, connected = await connect(room_id, players[1])
    assert connected
    await send(player, {"type": "hello"})
    live = await until(player, "snapshot")
    rnd = await sync_to_async(fresh)(playing)
    assert live["seq"] == rnd.last_seq
    assert "delay_s" not in live
    seats = live["decision"]["view"]["seats"]
    assert [("concealed" in seat) for seat in seats] == [False, True, False, False]
    await player.disconnect()

    # Six more actions age past the delay: their events come, every hand open, then a decision.
    await sync_to_async(_age)(
        playing, upto_seq=boundaries[10], at=now - timedelta(seconds=DELAY_S + 1)
    )
    messages = await drain(comm, quiet=0.5)
    events = [m for m in messages if m["type"] == "event"]
    assert [m["seq"] for m in events] == list(range(boundaries[4] + 1, boundaries[10] + 1))
    assert [m["prev_seq"] for m in events] == list(range(boundaries[4], boundaries[10]))
    draws = [m["event"] for m in events if m["event"]["kind"] == "draw"]
    assert draws
    assert all("tile" in draw for draw in draws)
    assert messages[-1]["type"] == "decision"
    expected = await sync_to_async(_open_view_after)(playing, 11)
    expected["version"] = boundaries[10]
    assert messages[-1]["view"] == expected
    assert all(_secret_keys(m) == [] for m in messages)
    assert max(m.get("seq", 0) for m in messages) <= boundaries[10]

    # A resync starts again from a snapshot of the same point.
    await send(comm, {"type": "resync"})
    again = await until(comm, "snapshot")
    assert again["seq"] == boundaries[10]
    await comm.disconnect()


async def test_events_are_shown_as_their_own_seat_sees_them(
    playing: Round, make_user: Any, now: datetime
) -> None:
    """The delayed payload of every stored event is the engine's :func:`rules.views.event_open`
    of the replayed event (its seat's redaction; a spectator's for the rest)."""
    from rules.views import event_open

    await sync_to_async(_play)(playing, 20)

    @sync_to_async
    def compare() -> None:
        rnd = fresh(playing)
        replayed = [e for step in store.replay_steps(rnd) for e in step.events]
        rows = list(RoundEvent.objects.filter(round=rnd).order_by("seq"))
        assert len(rows) == len(replayed)
        for row, event in zip(rows, replayed, strict=True):
            assert delayed.open_payload(row.payload, row.views) == event_open(event)

    await compare()


async def test_an_ordinary_room_keeps_the_live_spectator_view(
    playing: Round, make_user: Any, now: datetime
) -> None:
    await sync_to_async(_play)(playing, 6)
    spectator = await _watcher(playing, make_user)
    comm, connected = await connect(playing.match.room_id, spectator)
    assert connected
    await send(comm, {"type": "hello"})
    snapshot = await until(comm, "snapshot")
    rnd = await sync_to_async(fresh)(playing)
    assert snapshot["seq"] == rnd.last_seq
    assert "delay_s" not in snapshot
    view = snapshot["decision"]["view"]
    assert "open" not in view
    assert not any("concealed" in seat for seat in view["seats"])
    await comm.disconnect()


async def test_a_delayed_spectator_sees_a_round_end_before_the_next_round(
    playing: Round,
    players: list[Any],
    make_user: Any,
    monkeypatch: pytest.MonkeyPatch,
    settings: Any,
) -> None:
    """The next round dealt within one tick of the end: the delayed stream shows the end (and
    the seed then, not before), then the new round's snapshot."""
    from tables import rooms

    settings.TABLES_DELAYED_TICK_MS = 50
    monkeypatch.setattr(delayed, "clock", lambda: timezone.now() + timedelta(seconds=DELAY_S + 1))
    room_id = playing.match.room_id
    await sync_to_async(_delay)(room_id, DELAY_S)
    spectator = await _watcher(playing, make_user)
    comm, connected = await connect(room_id, spectator)
    assert connected
    await send(comm, {"type": "hello"})
    first = await until(comm, "snapshot")
    assert first["round_id"] == playing.pk

    @sync_to_async
    def finish_and_deal() -> Round:
        while fresh(playing).status == Round.Status.PLAYING:
            _play(playing, 1)
        room = Room.objects.get(pk=room_id)
        for user in players:
            rooms.seat_set_ready(room=room, user=user)
        return Round.objects.get(match=playing.match, number=playing.number + 1)

    second = await finish_and_deal()
    messages: list[dict[str, Any]] = []
    while not any(m["type"] == "snapshot" and m["round_id"] == second.pk for m in messages):
        messages.append(json.loads(await comm.receive_from(timeout=10)))
    kinds = [m["event"]["kind"] for m in messages if m["type"] == "event"]
    assert "round_ended" in kinds
    end = next(i for i, m in enumerate(messages) if m.get("event", {}).get("kind") == "round_ended")
    seed = (await sync_to_async(fresh)(playing)).seed
    assert all(seed not in json.dumps(m) for m in messages[:end])
    assert messages[-1]["type"] == "snapshot"
    assert messages[-1]["round_id"] == second.pk
    await comm.disconnect()


async def test_lifting_the_delay_turns_the_stream_live_at_the_next_tick(
    playing: Round, make_user: Any, now: datetime
) -> None:
    room_id = playing.match.room_id
    await sync_to_async(_delay)(room_id, DELAY_S)
    boundaries = await sync_to_async(_play)(playing, 8)
    await sync_to_async(_age)(
        playing, upto_seq=boundaries[2], at=now - timedelta(seconds=DELAY_S + 5)
    )
    comm, connected = await connect(room_id, await _watcher(playing, make_user))
    assert connected
    await send(comm, {"type": "hello"})
    behind = await until(comm, "snapshot")
    assert behind["seq"] == boundaries[2]
    await sync_to_async(_delay)(room_id, 0)
    live = await until(comm, "snapshot")
    rnd = await sync_to_async(fresh)(playing)
    assert live["seq"] == rnd.last_seq
    assert "delay_s" not in live
    assert not any("concealed" in seat for seat in live["decision"]["view"]["seats"])
    await comm.disconnect()
