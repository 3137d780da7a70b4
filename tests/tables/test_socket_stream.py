"""SocketStream: the cursor and the framing of one socket's stream, without a socket."""

from tables.socket_stream import SocketStream


def _move(round_id, prev_seq, last_seq, events, viewer="s0", status="playing"):
    return {
        "round_id": round_id,
        "prev_seq": prev_seq,
        "last_seq": last_seq,
        "status": status,
        "views": {viewer: {"frames": [{"events": events, "decision": {"type": "decision"}}]}},
    }


def test_a_snapshot_begins_the_round_and_an_older_one_is_ignored():
    stream = SocketStream()
    assert stream.is_behind(3, 0)
    snap = {"round_id": 3, "last_seq": 5, "status": "playing", "snapshots": {"s0": {"s": 1}}}
    assert stream.from_round_update(snap, "s0") == [{"s": 1}]
    assert stream.position() == [3, 5, "playing"]
    assert not stream.is_behind(3, 5)
    assert stream.is_behind(3, 6)
    assert stream.is_behind(4, 0)
    assert stream.from_round_update({**snap, "round_id": 2}, "s0") == []


def test_events_chain_to_the_last_visible_and_a_gap_asks_for_a_resync():
    stream = SocketStream()
    stream.begin(3, last_seq=5, status="playing")
    out = stream.from_round_update(_move(3, 5, 8, [[7, {"k": "a"}], [8, {"k": "b"}]]), "s0")
    assert [m.get("prev_seq") for m in out[:2]] == [5, 7]
    assert out[-1] == {"type": "decision"}
    assert (stream.cursor, stream.last_visible) == (8, 8)
    assert stream.from_round_update(_move(3, 5, 8, []), "s0") == []  # already sent
    assert stream.from_round_update(_move(3, 9, 10, []), "s0") is None  # a gap
    assert stream.from_round_update(_move(4, 8, 9, []), "s0") is None  # another round


def test_hidden_events_move_the_cursor_but_not_the_chain():
    stream = SocketStream()
    stream.begin(1, last_seq=0, status="playing")
    assert stream.advance(1, [], last_seq=4, status="playing", decisions=[{"d": 1}]) == [{"d": 1}]
    out = stream.advance(1, [[6, {}]], last_seq=6, status="ended")
    assert out[0]["prev_seq"] == 0
    assert stream.position() == [1, 6, "ended"]


def test_a_decision_without_events_is_sent_only_at_the_cursor():
    stream = SocketStream()
    stream.begin(1, last_seq=4, status="playing")
    assert stream.from_round_update(_move(1, 4, 4, []), "s0") == [{"type": "decision"}]
    assert stream.from_round_update(_move(1, 3, 3, []), "s0") == []
    assert stream.from_round_update(_move(1, 5, 5, []), "s0") is None


def test_a_table_is_sent_only_when_it_changed():
    stream = SocketStream()
    assert stream.table({"type": "table", "n": 1}) == [{"type": "table", "n": 1}]
    assert stream.table({"type": "table", "n": 1}) == []
    assert stream.table({"type": "table", "n": 2}) == [{"type": "table", "n": 2}]
    assert stream.table_sent == {"type": "table", "n": 2}


def test_a_spectator_of_a_delayed_room_is_delayed_and_a_seat_never():
    assert not SocketStream().is_delayed
    assert SocketStream(delay_s=60).is_delayed
    assert not SocketStream(delay_s=60, seat=2).is_delayed


def test_hello_catches_up_in_the_same_round_within_the_limit_else_a_snapshot():
    from tables.socket_stream import CATCH_UP_LIMIT

    stream = SocketStream()
    assert not stream.hello_needs_snapshot(3, 10, client=(3, 4))
    assert not stream.hello_needs_snapshot(3, 10, client=(3, 10))
    assert stream.hello_needs_snapshot(3, 10, client=(3, None))  # a fresh page
    assert stream.hello_needs_snapshot(3, 10, client=(2, 4))  # another round
    assert stream.hello_needs_snapshot(3, 10, client=(3, 11))  # ahead of the database
    assert stream.hello_needs_snapshot(3, CATCH_UP_LIMIT + 5, client=(3, 4))  # too much missing
    assert not stream.hello_needs_snapshot(3, CATCH_UP_LIMIT + 4, client=(3, 4))
    stream.shown_delayed = True  # the delay was lifted, or the spectator sat down
    assert stream.hello_needs_snapshot(3, 10, client=(3, 4))


def test_a_database_read_continues_the_round_shown_else_a_snapshot():
    stream = SocketStream()
    assert stream.changes_need_snapshot(3, 5, seat_changed=False)  # nothing shown yet
    stream.begin(3, last_seq=5, status="playing")
    assert not stream.changes_need_snapshot(3, 5, seat_changed=False)
    assert not stream.changes_need_snapshot(3, 9, seat_changed=False)
    assert stream.changes_need_snapshot(3, 9, seat_changed=True)
    assert stream.changes_need_snapshot(4, 0, seat_changed=False)
    assert stream.changes_need_snapshot(3, 4, seat_changed=False)  # the database went back
    assert stream.is_at(5, "playing")
    assert not stream.is_at(5, "ended")
    assert not stream.is_at(6, "playing")
    stream.shown_delayed = True
    assert stream.changes_need_snapshot(3, 5, seat_changed=False)


def test_the_delayed_stream_restarts_on_another_round_or_going_back():
    stream = SocketStream(delay_s=60)
    assert stream.delayed_needs_snapshot(3, 5)  # not shown yet
    assert not stream.delayed_round_ends(4)
    stream.begin(3, last_seq=5, status="playing")
    stream.shown_delayed = True
    assert not stream.delayed_needs_snapshot(3, 5)
    assert not stream.delayed_needs_snapshot(3, 7)
    assert stream.delayed_needs_snapshot(3, 4)
    assert stream.delayed_needs_snapshot(4, 1)
    assert stream.delayed_round_ends(4)
    assert not stream.delayed_round_ends(3)


def test_the_stream_watcher_sees_only_a_live_stream_the_client_asked_for():
    stream = SocketStream(seat=1)
    assert not stream.is_live_and_behind(3, 5)  # no hello yet
    stream.greeted = True
    assert stream.is_live_and_behind(3, 5)
    stream.begin(3, last_seq=5, status="playing")
    assert not stream.is_live_and_behind(3, 5)
    assert stream.is_live_and_behind(3, 6)
    stream.shown_delayed = True
    assert not stream.is_live_and_behind(3, 6)
    spectator = SocketStream(delay_s=60, greeted=True)
    assert not spectator.is_live_and_behind(3, 6)


def test_a_delayed_stream_moves_with_its_clock_until_the_live_one_replaces_it():
    assert not SocketStream().on_clock
    assert SocketStream(delay_s=60).on_clock  # a delayed spectator
    assert not SocketStream(delay_s=60, seat=1).on_clock  # a seat never
    # The delay lifted (or the spectator sat down): the delayed stream shown still moves with
    # the clock until a database read replaces it with the live one.
    assert SocketStream(shown_delayed=True).on_clock
