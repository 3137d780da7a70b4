"""The table socket's loops on its event loop: Channels' consumer loop, with a bounded wait for
the reads it cancels at the end and a cleanup however the socket ends, and a repeat every few
seconds until the socket leaves (its presence refresh, the clock of a delayed stream).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)

INBOX_SIZE = 1000
"""Messages a socket may have waiting in its inbox (channels_redis's ``capacity``); past it the
socket misses notifications, and the stream watcher catches it up from the database."""
CANCEL_WAIT_S = 5.0
"""How long a finished socket waits for its pending reads to acknowledge their cancellation."""


async def dispatch_until_stopped(
    sources: Sequence[Callable[[], Awaitable[dict[str, Any]]]],
    dispatch: Callable[[dict[str, Any]], Awaitable[None]],
) -> None:
    """Channels' ``await_many_dispatch`` (the client's messages and the channel layer's, each
    dispatched as it comes), except that at the end the pending reads are cancelled and waited
    for at most :data:`CANCEL_WAIT_S`. A channel layer read cancelled inside its Redis
    ``BZPOPMIN`` sometimes never acknowledges the cancellation (channels_redis 4.3 on redis-py
    8.2; about one socket in three of ``tests/reliability/test_ghost_presence.py``'s flood):
    Channels' own loop then waits for ever and the socket's coroutine never ends."""
    tasks = [asyncio.ensure_future(source()) for source in sources]
    try:
        while True:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            for i, task in enumerate(tasks):
                if task.done():
                    result = task.result()
                    await dispatch(result)
                    tasks[i] = asyncio.ensure_future(sources[i]())
    finally:
        for task in tasks:
            task.cancel()
        _done, stuck = await asyncio.wait(tasks, timeout=CANCEL_WAIT_S)
        if stuck:
            log.info("a socket's %d read(s) did not stop when cancelled: left behind", len(stuck))


async def repeat_until(
    leaving: asyncio.Event, *, every_s: float, step: Callable[[], Awaitable[bool]]
) -> None:
    """Run ``step`` every ``every_s`` seconds until ``leaving`` is set, or until ``step``
    answers False. The socket sets ``leaving`` and then waits for this task, so no step lands
    after the socket's cleanup (a presence refresh after its entries were removed)."""
    while True:
        try:
            await asyncio.wait_for(leaving.wait(), timeout=every_s)
            return
        except TimeoutError:
            if not await step():
                return


class LeavingConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]
    """Channels' websocket consumer, run by :func:`dispatch_until_stopped`, that calls
    :meth:`leave` however it ends.

    Channels calls ``disconnect`` only for the client's ``websocket.disconnect``. A consumer
    that dies of an error instead (every socket blocked on the channel layer when Redis
    restarts; a send to a client that has just gone) never gets it: before, a table socket's
    presence refresher went on for ever, the user was refused everywhere (4408) and the seat
    stayed "connected"."""

    inbox: asyncio.Queue[dict[str, Any]]
    """Messages handed to the socket in memory (:mod:`tables.socket_hub`), dispatched in order
    with the client's and the channel layer's."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.scope = scope
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        self.base_send = send
        self.inbox = asyncio.Queue(maxsize=INBOX_SIZE)
        sources = [receive, self.inbox.get]
        try:
            if self.channel_layer is not None:
                self.channel_name = await self.channel_layer.new_channel()
                self.channel_receive = functools.partial(
                    self.channel_layer.receive, self.channel_name
                )
                sources.append(self.channel_receive)
            await dispatch_until_stopped(sources, self.dispatch)
        except StopConsumer:
            pass
        finally:
            await self.leave()

    def hub_deliver(self, message: dict[str, Any]) -> None:
        """Queue ``message`` for :meth:`dispatch` (on this socket's event loop); a full inbox
        drops it (a stuck client: the stream watcher repairs what it misses)."""
        try:
            self.inbox.put_nowait(message)
        except asyncio.QueueFull:
            log.info("a socket's inbox is full: a notification dropped")

    async def disconnect(self, code: int) -> None:
        await self.leave()

    async def leave(self) -> None:
        """Undo what the socket holds; it runs more than once (``disconnect``, then the end)."""
