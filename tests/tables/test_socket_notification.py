"""What a room's notification means for one socket (``from_notification``), without a socket or a
database: the messages it sends from the notification alone, or None when only the database can
say (the consumer then reads it)."""

from __future__ import annotations

from typing import Any

from tables.socket_notification import from_notification
from tables.socket_stream import SocketStream

ME, OTHER = 7, 8


def _table(*, seat_users: list[int | None], delay: int = 0, round_: Any = None) -> dict[str, Any]:
    room = {"id": 1, "name": "r", "spectator_delay_s": delay}
    return {
        "room": room,
        "seats": [None] * 4,
        "match": None,
        "seat_users": seat_users,
        "round": round_,
    }


def _update(table: dict[str, Any] | None = None, round_: Any = None) -> Any:
    message: dict[str, Any] = {"type": "table.update", "table": table}
    if round_ is not None:
        message["round"] = round_
    return message


def _move(prev_seq: int, last_seq: int, *, seat_users: list[int | None]) -> dict[str, Any]:
    frames = [{"events": [[last_seq, {"k": "e"}]], "decision": {"type": "decision"}}]
    return {
        "round_id": 3,
        "prev_seq": prev_seq,
        "last_seq": last_seq,
        "status": "playing",
        "seat_users": seat_users,
        "views": {key: {"frames": frames} for key in ("0", "1", "2", "3", "spectator")},
    }


def _greeted(seat: int | None, *, cursor: int = 5) -> SocketStream:
    stream = SocketStream(seat=seat, greeted=True)
    stream.begin(3, last_seq=cursor, status="playing")
    return stream


def test_a_table_for_the_same_seat_is_sent_once_with_the_viewers_seat():
    stream = SocketStream(seat=1)
    table = _table(seat_users=[OTHER, ME, None, None])
    (sent,) = from_notification(stream, _update(table), user_id=ME)
    assert (sent["type"], sent["you"]) == ("table", 1)
    assert "seat_users" not in sent  # who sits where never leaves the server
    assert from_notification(stream, _update(table), user_id=ME) == []


def test_a_seat_that_changed_or_a_changed_delay_needs_the_database():
    seated = _table(seat_users=[None, ME, None, None])
    assert from_notification(SocketStream(seat=None), _update(seated), user_id=ME) is None
    assert from_notification(SocketStream(seat=1), _update(seated), user_id=ME) is not None
    stood_up = _table(seat_users=[None, None, None, None])
    assert from_notification(SocketStream(seat=1), _update(stood_up), user_id=ME) is None
    delayed = _table(seat_users=[None] * 4, delay=60)
    assert from_notification(SocketStream(), _update(delayed), user_id=ME) is None
    assert from_notification(SocketStream(delay_s=60), _update(delayed), user_id=ME) is not None


def test_before_hello_only_the_table_is_sent():
    stream = SocketStream(seat=0)
    move = _move(0, 1, seat_users=[ME, None, None, None])
    assert from_notification(stream, _update(None, move), user_id=ME) == []
    assert stream.round_id is None  # the client's ``hello`` says where its stream starts


def test_a_move_that_continues_the_stream_is_sent_and_a_gap_needs_the_database():
    stream = _greeted(0)
    users: list[int | None] = [ME, None, None, None]
    out = from_notification(stream, _update(None, _move(5, 6, seat_users=users)), user_id=ME)
    assert [m["type"] for m in out or []] == ["event", "decision"]
    assert stream.cursor == 6
    assert (
        from_notification(stream, _update(None, _move(7, 8, seat_users=users)), user_id=ME) is None
    )


def test_a_move_on_a_seat_no_longer_mine_needs_the_database():
    stream = _greeted(0)
    move = _move(5, 6, seat_users=[OTHER, None, None, None])
    assert from_notification(stream, _update(None, move), user_id=ME) is None
    assert stream.cursor == 5


def test_a_new_round_already_shown_is_nothing_even_when_the_seat_changed_hands():
    stream = _greeted(0)
    snapshot = {
        "round_id": 3,
        "last_seq": 5,
        "status": "playing",
        "seat_users": [OTHER, None, None, None],
        "snapshots": {"0": {"type": "snapshot"}},
    }
    assert from_notification(stream, _update(None, snapshot), user_id=ME) == []
    newer = {**snapshot, "round_id": 4}
    assert from_notification(stream, _update(None, newer), user_id=ME) is None


def test_a_spectator_sees_the_spectators_frames():
    stream = _greeted(None)
    move = _move(5, 6, seat_users=[OTHER, None, None, None])
    out = from_notification(stream, _update(None, move), user_id=ME)
    assert [m["type"] for m in out or []] == ["event", "decision"]


def test_a_delayed_stream_never_takes_a_moves_frames():
    stream = _greeted(None)
    stream.delay_s = 60
    move = _move(5, 6, seat_users=[OTHER, None, None, None])
    assert from_notification(stream, _update(None, move), user_id=ME) == []
    stream.delay_s, stream.shown_delayed = 0, True  # lifted: the next database read switches
    assert from_notification(stream, _update(None, move), user_id=ME) == []
    assert stream.cursor == 5


def test_a_room_change_whose_round_moved_without_a_usable_notice_needs_the_database():
    stream = _greeted(None)
    here = _table(seat_users=[OTHER, None, None, None], round_=[3, 5, "playing"])
    assert from_notification(stream, _update(here), user_id=ME) is not None
    moved = _table(seat_users=[OTHER, None, None, None], round_=[3, 9, "playing"])
    assert from_notification(stream, _update(moved), user_id=ME) is None
