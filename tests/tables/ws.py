"""Websocket helpers for the consumer tests: a signed-in communicator and message draining."""

from __future__ import annotations

import json
from typing import Any

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

ORIGIN = b"http://localhost"


@sync_to_async
def session_cookie(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


async def connect(
    room_id: int, user: Any = None, *, origin: bytes = ORIGIN
) -> tuple[WebsocketCommunicator, bool]:
    """A communicator through the real ASGI stack (Origin check + session auth + routing)."""
    from config.asgi import application

    headers = [(b"origin", origin), (b"host", b"localhost")]
    if user is not None:
        headers.append((b"cookie", (await session_cookie(user)).encode()))
    comm = WebsocketCommunicator(application, f"/ws/table/{room_id}/", headers=headers)
    connected, _ = await comm.connect(timeout=5)
    return comm, connected


async def send(comm: WebsocketCommunicator, message: dict[str, Any]) -> None:
    await comm.send_to(text_data=json.dumps(message))


async def drain(comm: WebsocketCommunicator, *, quiet: float = 0.3) -> list[dict[str, Any]]:
    """Every message until the socket has been quiet for ``quiet`` seconds."""
    out: list[dict[str, Any]] = []
    while not await comm.receive_nothing(timeout=quiet):
        out.append(json.loads(await comm.receive_from(timeout=5)))
    return out


async def drain_until(
    comm: WebsocketCommunicator, done: Any, *, timeout: float = 60, quiet: float = 0.3
) -> list[dict[str, Any]]:
    """Every message until one satisfies ``done`` (however slow a loaded machine is), then
    whatever follows until the socket is quiet."""
    out: list[dict[str, Any]] = []
    while True:
        message = json.loads(await comm.receive_from(timeout=timeout))
        out.append(message)
        if done(message):
            return out + await drain(comm, quiet=quiet)


async def until(comm: WebsocketCommunicator, kind: str, *, timeout: float = 5) -> dict[str, Any]:
    """The next message of type ``kind`` (skipping others)."""
    while True:
        message = json.loads(await comm.receive_from(timeout=timeout))
        if message["type"] == kind:
            return message
