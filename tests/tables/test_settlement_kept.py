"""The settlement stays on the table until the next deal, explained; a 离座 says who left.

A page that is reloaded (or switches language) after a round has no state of its own: whatever it
asks, the socket must give it the ended round with its settlement, every line labelled and
adding up to each seat's net.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from tables import bots, gameplay, rooms
from tables.models import Round
from tests.rules.engine_helpers import line_nets
from tests.tables.helpers import act, fresh, state_of
from tests.tables.ws import connect, drain_until, send, until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@sync_to_async
def _play_to_the_end(rnd: Round) -> Round:
    rng = random.Random(17)
    while (rnd := fresh(rnd)).status == Round.Status.PLAYING:
        state = state_of(rnd)
        seat = gameplay.deciders(state)[0]
        legal = gameplay.legal_actions(state, seat)
        claims = gameplay.phase_kind(state) != "turn"
        action = rng.choice(legal) if claims else bots.choose_action(state, seat)
        assert act(rnd, seat, gameplay.action_json(action)).ok
    return rnd


def _check_settlement(view: dict[str, Any], nets: list[int]) -> None:
    result = view["result"]
    settlement = result["settlement"]
    assert settlement["nets"] == nets == result["nets"]
    assert list(line_nets(settlement["lines"])) == nets
    for line in settlement["lines"]:
        assert line["kind"] in ("win", "kong", "cap")
        if line["kind"] == "win":
            assert line["items"]


async def test_a_fresh_page_after_the_round_gets_the_settlement(
    playing: Round, players: list[Any]
) -> None:
    ended = await _play_to_the_end(playing)
    nets = ended.result["nets"]
    assert list(line_nets(ended.result["settlement"]["lines"])) == nets
    for user in (players[1], players[3]):
        comm, _ = await connect(playing.match.room_id, user)
        # A reloaded page knows nothing: its hello names no round.
        await send(comm, {"type": "hello"})
        snapshot = await until(comm, "snapshot")
        assert snapshot["status"] == "ended"
        assert snapshot["result"]["settlement"] == ended.result["settlement"]
        _check_settlement(snapshot["decision"]["view"], nets)
        await comm.disconnect()


async def test_a_page_that_saw_the_end_gets_it_again_on_resume(
    playing: Round, players: list[Any]
) -> None:
    ended = await _play_to_the_end(playing)
    comm, _ = await connect(playing.match.room_id, players[2])
    await send(comm, {"type": "hello", "round_id": ended.pk, "last_seq": ended.last_seq})
    got = await drain_until(comm, lambda m: m["type"] in ("decision", "snapshot"))
    last = got[-1] if got[-1]["type"] == "decision" else got[-1]["decision"]
    assert last["status"] == "ended"
    _check_settlement(last["view"], ended.result["nets"])
    await comm.disconnect()


async def test_the_settlement_stays_until_the_next_deal(playing: Round, players: list[Any]) -> None:
    ended = await _play_to_the_end(playing)
    room = playing.match.room
    comm, _ = await connect(room.pk, players[0])
    await send(comm, {"type": "hello"})
    assert (await until(comm, "snapshot"))["round_id"] == ended.pk
    for user in players:
        await sync_to_async(rooms.seat_set_ready)(room=room, user=user)
    snapshot = await until(comm, "snapshot")
    assert snapshot["round_id"] != ended.pk
    assert snapshot["status"] == "playing"
    assert "result" not in snapshot["decision"]["view"]
    await comm.disconnect()


async def test_a_leave_that_voids_the_round_says_who_left(
    playing: Round, players: list[Any]
) -> None:
    comm, _ = await connect(playing.match.room_id, players[0])
    await send(comm, {"type": "hello"})
    await until(comm, "snapshot")
    await sync_to_async(rooms.seat_leave)(room=playing.match.room, user=players[2])
    got = await drain_until(comm, lambda m: m["type"] == "decision")
    notices = [m["event"] for m in got if m["type"] == "event"]
    assert {"kind": "player_left", "seat": 2, "name": players[2].public_name} in notices
    assert got[-1]["status"] == "aborted"
    await comm.disconnect()


async def test_a_page_opened_after_the_leave_is_told_who_left(
    playing: Round, players: list[Any]
) -> None:
    await sync_to_async(rooms.seat_leave)(room=playing.match.room, user=players[1])
    comm, _ = await connect(playing.match.room_id, players[0])
    await send(comm, {"type": "hello"})
    snapshot = await until(comm, "snapshot")
    assert snapshot["status"] == "aborted"
    assert snapshot["notice"] == {"kind": "player_left", "seat": 1, "name": players[1].public_name}
    await comm.disconnect()
