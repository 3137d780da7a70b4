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
