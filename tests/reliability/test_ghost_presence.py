"""Redis dies under open table sockets: their presence must expire.

Every consumer blocked on the channel layer dies with Redis's connection error, without running
its ``disconnect``. Before the fix each one left its presence refresher running: after Redis came
back the refresher wrote the socket's entries again every few seconds, for ever, so the user was
refused everywhere (close 4408 ``too_many_sockets``) and the seat stayed "connected". Here a
Redis server of the test's own (port 6411, never the machine's) is killed under four sockets of
one player (the most one user may hold) and started again, empty; the entries must expire, the
clock's presence sweep must show the seat offline, and the player must be able to sit again.
The same for the abrupt client: four sockets flood resyncs and the process exits while the
server is answering (the send fails as uvicorn's does; before the fix that killed the consumer,
and its refresher went on).
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from asgiref.sync import sync_to_async
from uvicorn.protocols.utils import ClientDisconnected

from tables import presence, rooms
from tables.models import Round, Seat
from tests.tables.ws import ORIGIN, connect, session_cookie, until

REDIS_PORT = 6411
REDIS_SERVER = shutil.which("redis-server")
NO_PERSISTENCE = ("--save", "", "--appendonly", "no")

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.skipif(REDIS_SERVER is None, reason="needs redis-server"),
]


class OwnRedis:
    """A throw-away ``redis-server`` on :data:`REDIS_PORT` (no persistence: a restart is empty,
    as the faults scenario's)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.url = f"redis://127.0.0.1:{port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        assert REDIS_SERVER is not None
        self.process = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", *NO_PERSISTENCE],
            stdout=subprocess.DEVNULL,
        )
        client = redis.Redis(port=self.port, socket_connect_timeout=1)
        limit = time.monotonic() + 30
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > limit:
                    raise
                time.sleep(0.05)

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=30)
            self.process = None


@pytest.fixture
def own_redis() -> Iterator[OwnRedis]:
    server = OwnRedis(REDIS_PORT)
    server.start()
    yield server
    server.kill()


@pytest.fixture
def on_own_redis(playing: Round, own_redis: OwnRedis, settings: Any, monkeypatch: Any) -> Round:
    """The round of ``playing``, with presence and the production channel layer on the test's
    own Redis; presence expires within seconds (the same mechanism, a shorter time)."""
    settings.REDIS_URL = own_redis.url
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": own_redis.url,
                        "socket_timeout": settings.CHANNEL_LAYER_SOCKET_TIMEOUT_S,
                        "max_connections": settings.CHANNEL_LAYER_MAX_CONNECTIONS,
                    }
                ],
                "prefix": f"ghost{time.monotonic_ns()}",
            },
        }
    }
    monkeypatch.setattr(presence, "TTL_S", 3.0)
    monkeypatch.setattr(presence, "REFRESH_S", 0.5)
    return playing


async def _wait_for(condition: Any, *, seconds: float) -> bool:
    """Poll ``condition`` (a sync callable, run in a thread) until true or ``seconds`` pass."""
    limit = time.monotonic() + seconds
    while time.monotonic() < limit:
        if await sync_to_async(condition)():
            return True
        await asyncio.sleep(0.25)
    return bool(await sync_to_async(condition)())


async def _assert_gone_and_back(room_id: int, player: Any) -> None:
    """The player's sockets are gone: their presence expires and stays expired, the clock's
    presence sweep shows the seat offline, and the player is let in again (not refused with
    4408 too_many_sockets) and shown online."""

    def no_socket_left() -> bool:
        return presence.user_sockets(player.pk) == 0 and not presence.users_online(
            room_id, [player.pk]
        )

    # Long enough for every entry to expire (TTL 3 s) and for a refresher that outlived its
    # socket to have written again many times (every 0.5 s); generous for a loaded machine.
    await asyncio.sleep(presence.TTL_S + 4 * presence.REFRESH_S)
    assert await _wait_for(no_socket_left, seconds=30)
    await asyncio.sleep(4 * presence.REFRESH_S)
    assert await sync_to_async(no_socket_left)()

    await sync_to_async(rooms.sweep_presence)()
    assert not (await Seat.objects.aget(room_id=room_id, user=player)).connected

    comm, connected = await connect(room_id, player)
    assert connected
    table = await until(comm, "table", timeout=30)
    assert table["you"] is not None
    assert table["seats"][table["you"]]["connected"]
    await comm.disconnect()
    assert await _wait_for(no_socket_left, seconds=30)


async def _all_done(tasks: list[asyncio.Future[Any]], *, seconds: float) -> bool:
    limit = time.monotonic() + seconds
    while not all(task.done() for task in tasks) and time.monotonic() < limit:
        await asyncio.sleep(0.1)
    return all(task.done() for task in tasks)


async def test_sockets_killed_with_redis_leave_no_presence_behind(
    on_own_redis: Round, own_redis: OwnRedis, players: list[Any]
) -> None:
    room_id = on_own_redis.match.room_id
    player = players[0]
    sockets = []
    for _ in range(presence.max_sockets_per_user()):
        comm, connected = await connect(room_id, player)
        assert connected
        await until(comm, "table", timeout=30)
        sockets.append(comm)
    assert await sync_to_async(presence.user_sockets)(player.pk) == len(sockets)
    assert (await Seat.objects.aget(room_id=room_id, index=0)).connected

    own_redis.kill()
    # Every consumer is blocked on the channel layer: each one dies of the connection error.
    assert await _all_done([comm.future for comm in sockets], seconds=60)
    for comm in sockets:
        assert comm.future.exception() is not None  # died; no websocket.disconnect was read
    own_redis.start()  # empty, as after a restart without persistence

    await _assert_gone_and_back(room_id, player)


class VanishingClient:
    """The server's side of one socket (the whole ASGI stack), whose client can vanish as a
    process that exits does: from then on a send fails as uvicorn's does
    (``ClientDisconnected``) and the next thing received is ``websocket.disconnect``."""

    def __init__(self, room_id: int, cookie: str) -> None:
        from config.asgi import application

        headers = [(b"origin", ORIGIN), (b"host", b"localhost"), (b"cookie", cookie.encode())]
        scope = {
            "type": "websocket",
            "path": f"/ws/table/{room_id}/",
            "query_string": b"",
            "headers": headers,
            "subprotocols": [],
        }
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.sent: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.gone = False
        self.task = asyncio.ensure_future(application(scope, self.inbox.get, self._send))

    async def _send(self, message: dict[str, Any]) -> None:
        if self.gone:
            raise ClientDisconnected
        await self.sent.put(message)

    async def open(self) -> None:
        await self.inbox.put({"type": "websocket.connect"})
        assert (await asyncio.wait_for(self.sent.get(), 30))["type"] == "websocket.accept"
        while True:
            message = await asyncio.wait_for(self.sent.get(), 30)
            if json.loads(message["text"])["type"] == "table":
                return

    def flood(self, message: dict[str, Any], times: int) -> None:
        for _ in range(times):
            self.inbox.put_nowait({"type": "websocket.receive", "text": json.dumps(message)})

    async def vanish_mid_answer(self) -> None:
        await asyncio.wait_for(self.sent.get(), 30)  # the server is answering the flood
        self.gone = True
        self.inbox.put_nowait({"type": "websocket.disconnect", "code": 1006})


async def test_a_client_that_floods_resyncs_and_vanishes_leaves_no_presence_behind(
    on_own_redis: Round, players: list[Any]
) -> None:
    room_id = on_own_redis.match.room_id
    player = players[0]
    cookie = await session_cookie(player)
    clients = [VanishingClient(room_id, cookie) for _ in range(presence.max_sockets_per_user())]
    for client in clients:
        await client.open()
    assert await sync_to_async(presence.user_sockets)(player.pk) == len(clients)
    for client in clients:
        client.flood({"type": "resync"}, 60)
    for client in clients:
        await client.vanish_mid_answer()
    assert await _all_done([client.task for client in clients], seconds=60)
    for client in clients:
        client.task.exception()  # retrieved (before the fix: the failed send killed it)

    await _assert_gone_and_back(room_id, player)
