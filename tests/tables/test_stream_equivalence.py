"""The live stream equals the database: at every step of whole rounds, what each socket built
from the room's notifications alone is what a fresh read of the database gives its viewer.

Four seats and a spectator each hold a socket's :class:`SocketStream` fed only the
notifications the services committed (through JSON, as the channel layer carries them), by the
consumer's own :func:`~tables.socket_notification.from_notification`. After every move (and
every ready that deals a round), for each viewer:

* the events the notification gave it are exactly the events a socket reconnecting at the
  same point gets from the database (``socket_hello`` with the last seq the client holds), each
  chained to the same ``prev_seq``, and the stream's cursor lands where the database is;
* the decision it holds is the database's decision for that viewer now;
* a fresh connection (``socket_hello`` with no position) gets the table it holds, and a snapshot
  whose decision is the one it holds and whose recent events end its own event log;
* a new round's snapshot from the notification is the database's snapshot of it.

So a notification that carried more (or less) than the database view of that viewer (a
redaction left out, an event dropped or added) fails here.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from accounts.models import Membership
from tables import bots, gameplay, notify, rooms, selectors
from tables.models import Round
from tables.socket_notification import from_notification
from tables.socket_services import socket_admit, socket_hello, socket_table
from tables.socket_stream import SocketStream
from tests.tables.helpers import act, fresh, room_set_variant, state_of

pytestmark = pytest.mark.django_db(transaction=True)

Message = dict[str, Any]


def _wire(value: Any) -> Any:
    """As it reaches the other side (the channel layer, the client): JSON."""
    return json.loads(json.dumps(value, ensure_ascii=False))


class Socket:
    """A socket's stream as :meth:`TableConsumer.connect` leaves it, without a transport; the
    consumer's services and notification reading, called as the consumer calls them."""

    def __init__(self, room_id: int, user: Any) -> None:
        self.room_id, self.user, self.stream = room_id, user, SocketStream()
        assert socket_admit(room_id=room_id, user=user, stream=self.stream) is None

    def table(self) -> list[Message]:
        return socket_table(room_id=self.room_id, user=self.user, stream=self.stream)

    def hello(self, round_id: int | None, last_seq: int | None) -> list[Message]:
        return socket_hello(
            room_id=self.room_id,
            user=self.user,
            stream=self.stream,
            round_id=round_id,
            last_seq=last_seq,
        )

    def notified(self, message: Any) -> list[Message] | None:
        return from_notification(self.stream, message, user_id=self.user.pk)


class Viewer:
    """One browser tab: its live socket and what the page holds from what it was sent."""

    def __init__(self, room_id: int, user: Any, seat: int | None) -> None:
        self.room_id, self.user, self.seat = room_id, user, seat
        self.sock = Socket(room_id, user)
        self.table: Message | None = None
        self.decision: Message | None = None
        self.round_id: int | None = None
        self.last_seq: int | None = None  # the last event seq the page holds (its ``hello``)
        self.log: list[list[Any]] = []  # [seq, event] of the round shown, as the page holds it
        self.receive(_wire(self.sock.table()))
        self.receive(_wire(self.sock.hello(None, None)))

    def receive(self, messages: list[Message]) -> list[Message]:
        for message in messages:
            kind = message["type"]
            if kind == "table":
                self.table = message
            elif kind == "snapshot":
                self.round_id, self.last_seq = message["round_id"], message["seq"]
                self.decision = message["decision"]
                self.log = [list(e) for e in message["events"]]
            elif kind == "decision":
                assert message["round_id"] == self.round_id
                self.decision = message
            elif kind == "event":
                assert message["round_id"] == self.round_id
                assert message["prev_seq"] == self.last_seq, "a gap in the live stream"
                self.last_seq = message["seq"]
                self.log.append([message["seq"], message["event"]])
            else:
                raise AssertionError(f"unexpected {kind}")
        return messages


def _viewers(room: Any, players: list[Any], make_user: Any) -> list[Viewer]:
    watcher = make_user("watcher")
    Membership.objects.create(club=room.club, user=watcher)
    seats = [Viewer(room.pk, user, i) for i, user in enumerate(players)]
    return [*seats, Viewer(room.pk, watcher, None)]


def _notified(viewers: list[Viewer], sent: list[tuple[str, Message]], room_id: int) -> None:
    """Each viewer's socket takes the room's notifications, as its ``table_update`` does."""
    group = notify.room_group(room_id)
    for _, message in [(g, m) for g, m in sent if g == group]:
        message = _wire(message)  # every socket gets its own copy, through the channel layer
        for viewer in viewers:
            before = (viewer.round_id, viewer.last_seq, viewer.sock.stream.cursor)
            messages = viewer.sock.notified(_wire(message))
            assert messages is not None, f"seat {viewer.seat}: a notification in order resyncs"
            viewer.receive(_wire(messages))
            _same_as_database(viewer, before, messages)


def _same_as_database(viewer: Viewer, before: tuple[Any, Any, int], live: list[Message]) -> None:
    round_id, last_seq, cursor = before
    who = f"seat {viewer.seat}"
    rnd = selectors.current_round(viewer.room_id)
    # A page reconnecting where this one stood gets the same events, then the same decision.
    again = Socket(viewer.room_id, viewer.user)
    again.stream.table_sent = viewer.table
    caught_up = _wire(again.hello(round_id, last_seq))
    if rnd is None:
        assert caught_up == [], who
        assert [m for m in live if m["type"] != "table"] == [], who
        return
    snapshots = [m for m in live if m["type"] == "snapshot"]
    if snapshots or round_id != rnd.pk:
        assert [m["type"] for m in caught_up] == ["snapshot"], who
        # A reconnecting page is also given the previous round's settlement; pages that saw the
        # new round's broadcast still hold it, so the broadcast leaves it out.
        fetched = [{k: v for k, v in m.items() if k != "previous"} for m in caught_up]
        sent = [{k: v for k, v in m.items() if k != "previous"} for m in snapshots]
        assert sent == fetched, f"{who}: the new round's snapshot"
    else:
        live_events = [m for m in live if m["type"] == "event"]
        db_events = [m for m in caught_up if m["type"] == "event"]
        assert live_events == db_events, f"{who}: events since seq {last_seq}"
        assert caught_up[-1]["type"] == "decision", who
        assert viewer.decision == caught_up[-1], f"{who}: the decision after seq {last_seq}"
        assert (viewer.sock.stream.cursor, viewer.sock.stream.round_status) == (
            rnd.last_seq,
            rnd.status,
        ), f"{who}: the cursor (was {cursor})"
        assert viewer.sock.stream.last_visible == viewer.last_seq == again.stream.last_visible
    # A fresh page gets the table and the round the live one holds.
    new = Socket(viewer.room_id, viewer.user)
    opened = _wire(new.table() + new.hello(None, None))
    assert [m["type"] for m in opened] == ["table", "snapshot"], who
    table, snapshot = opened
    assert viewer.table == table, f"{who}: the table"
    assert viewer.round_id == snapshot["round_id"] == rnd.pk, who
    assert viewer.decision == snapshot["decision"], f"{who}: the snapshot's decision"
    recent = snapshot["events"]
    assert viewer.log[len(viewer.log) - len(recent) :] == recent, f"{who}: the snapshot's events"
    assert viewer.last_seq == (recent[-1][0] if recent else viewer.last_seq), who


def _play(room: Any, players: list[Any], viewers: list[Viewer], rounds: int) -> int:
    """Deal and play ``rounds`` whole rounds with the bots, checking after every step; the
    number of moves played."""
    moves = 0
    for _ in range(rounds):
        for user in players:
            with notify.notifications_collected() as sent:
                rooms.seat_set_ready(room=room, user=user)
            _notified(viewers, sent, room.pk)
        rnd = selectors.current_round(room.pk)
        assert rnd is not None
        assert rnd.status == Round.Status.PLAYING
        while fresh(rnd).status == Round.Status.PLAYING:
            state = state_of(rnd)
            seat = gameplay.deciders(state)[0]
            action = gameplay.action_json(bots.choose_action(state, seat))
            with notify.notifications_collected() as sent:
                assert act(rnd, seat, action).ok
            _notified(viewers, sent, room.pk)
            moves += 1
        assert all(v.decision is not None and v.decision["phase"] == "ended" for v in viewers)
    return moves


@pytest.mark.parametrize("variant", ["changchun", "chengma"])
def test_every_socket_streams_what_the_database_shows_its_viewer(
    variant: str, seated: Any, players: list[Any], make_user: Any
) -> None:
    room_set_variant(seated, variant)
    viewers = _viewers(seated, players, make_user)
    moves = _play(seated, players, viewers, rounds=2)
    assert moves > 40
    # Each seat saw its own hand and no other: the redactions differ (a spectator sees none).
    logs = [json.dumps(v.log) for v in viewers]
    assert len(set(logs)) == len(viewers)
