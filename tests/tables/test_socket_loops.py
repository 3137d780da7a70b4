"""The table socket's loops without a socket: the dispatch loop that does not wait for ever for a
read that ignores its cancellation, the repeat that ends with the socket, the consumer base that
cleans up however the socket ends, and the delayed stream's clock (:class:`SocketPresence`)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from channels.exceptions import StopConsumer

from tables import socket_loops
from tables.socket_loops import LeavingConsumer, dispatch_until_stopped, repeat_until
from tables.socket_presence import SocketPresence
from tables.socket_stream import SocketStream


def _queue_source(queue: asyncio.Queue[dict[str, Any]]) -> Any:
    return queue.get


async def test_messages_are_dispatched_in_order_until_a_handler_stops() -> None:
    queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    for n in range(3):
        queue.put_nowait({"type": "m", "n": n})
    queue.put_nowait({"type": "stop"})
    seen: list[int] = []

    async def dispatch(message: dict[str, Any]) -> None:
        if message["type"] == "stop":
            raise StopConsumer
        seen.append(message["n"])

    with pytest.raises(StopConsumer):
        await dispatch_until_stopped([_queue_source(queue)], dispatch)
    assert seen == [0, 1, 2]


async def test_a_read_that_ignores_its_cancellation_is_left_behind(monkeypatch: Any) -> None:
    """A channel layer read cancelled inside Redis's ``BZPOPMIN`` may never end: the socket
    waits for it at most ``CANCEL_WAIT_S`` (Channels' own loop waited for ever)."""
    monkeypatch.setattr(socket_loops, "CANCEL_WAIT_S", 0.2)
    released = asyncio.Event()

    async def stubborn() -> dict[str, Any]:
        while not released.is_set():
            try:
                await released.wait()
            except asyncio.CancelledError:
                continue  # swallowed: the read goes on
        return {"type": "late"}

    queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    queue.put_nowait({"type": "stop"})

    async def dispatch(message: dict[str, Any]) -> None:
        raise StopConsumer

    start = time.monotonic()
    with pytest.raises(StopConsumer):
        await asyncio.wait_for(
            dispatch_until_stopped([_queue_source(queue), stubborn], dispatch), 5
        )
    assert time.monotonic() - start < 2
    released.set()  # let the stubborn read end with the test
    await asyncio.sleep(0)


async def test_a_read_that_stops_when_cancelled_is_cancelled_at_the_end() -> None:
    cancelled = asyncio.Event()

    async def idle() -> dict[str, Any]:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            cancelled.set()
            raise
        return {}

    ready: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    ready.put_nowait({"type": "stop"})

    async def dispatch(message: dict[str, Any]) -> None:
        raise StopConsumer

    with pytest.raises(StopConsumer):
        await dispatch_until_stopped([idle, ready.get], dispatch)
    assert cancelled.is_set()


async def test_a_repeat_runs_its_step_until_the_socket_leaves() -> None:
    leaving = asyncio.Event()
    steps = 0

    async def step() -> bool:
        nonlocal steps
        steps += 1
        if steps == 3:
            leaving.set()
        return True

    await asyncio.wait_for(repeat_until(leaving, every_s=0.01, step=step), 5)
    assert steps == 3


async def test_a_repeat_ends_when_its_step_says_so() -> None:
    steps = 0

    async def step() -> bool:
        nonlocal steps
        steps += 1
        return steps < 2

    await asyncio.wait_for(repeat_until(asyncio.Event(), every_s=0.01, step=step), 5)
    assert steps == 2


class _Recorder(LeavingConsumer):
    channel_layer_alias = "no-such-layer"  # no channel layer: the client's messages only

    def __init__(self, failure: BaseException) -> None:
        self.failure, self.left = failure, 0

    async def dispatch(self, message: dict[str, Any]) -> None:
        raise self.failure

    async def leave(self) -> None:
        self.left += 1


async def _client() -> dict[str, Any]:
    return {"type": "websocket.receive", "text": "{}"}


async def _send(message: dict[str, Any]) -> None:
    raise AssertionError("nothing is sent")


async def test_the_consumer_leaves_when_it_stops() -> None:
    consumer = _Recorder(StopConsumer())
    await consumer({"type": "websocket"}, _client, _send)
    assert consumer.left == 1


async def test_the_consumer_leaves_when_it_dies_of_an_error() -> None:
    """Channels calls ``disconnect`` only for the client's ``websocket.disconnect``."""
    consumer = _Recorder(ConnectionError("Redis restarted"))
    with pytest.raises(ConnectionError):
        await consumer({"type": "websocket"}, _client, _send)
    assert consumer.left == 1


class _Layer:
    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        self.sent.append((channel, message))


async def test_the_delayed_clock_ticks_through_the_sockets_channel_once_per_socket(
    settings: Any,
) -> None:
    settings.TABLES_DELAYED_TICK_MS = 10
    layer, closed = _Layer(), False
    stream = SocketStream(delay_s=60)  # a spectator of a delayed room
    socket = SocketPresence(room_id=1, user_id=2, channel="chan")
    socket.clock_start(layer, stream, lambda: closed)
    socket.clock_start(layer, stream, lambda: closed)
    assert len(socket.tasks) == 1
    await asyncio.sleep(0.1)
    assert layer.sent
    assert all(sent == ("chan", {"type": "table.delayed"}) for sent in layer.sent)
    stream.delay_s = 0  # the delay was lifted and the live stream shown: no more ticks
    await asyncio.sleep(0.05)
    count = len(layer.sent)
    await asyncio.sleep(0.1)
    assert len(layer.sent) == count
    closed = True
    await asyncio.wait_for(socket.tasks[0], 5)  # a closed socket's clock stops by itself
    await socket.stop()
