"""The production channel layer keeps an idle socket's consumer alive (found by bench/ws_load.py).

redis-py reads with a 5 s socket timeout by default and channels_redis waits for a message with a
5 s blocking pop: before ``CHANNEL_LAYER_SOCKET_TIMEOUT_S`` a consumer that heard nothing for 5 s
died of a ``TimeoutError`` and its player was disconnected (docs/reliability.md).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from channels_redis.core import RedisChannelLayer
from django.conf import settings


def _production_layer(**overrides: Any) -> RedisChannelLayer:
    config: dict[str, Any] = dict(settings.CHANNEL_LAYERS["default"]["CONFIG"])  # type: ignore[arg-type]
    config.update(prefix=f"reliability{time.monotonic_ns()}", **overrides)
    return RedisChannelLayer(**config)


def test_the_layer_read_timeout_outlasts_its_blocking_pop() -> None:
    layer = _production_layer()
    (host,) = layer.hosts
    assert host["socket_timeout"] is None or host["socket_timeout"] > layer.brpop_timeout


@pytest.mark.asyncio
async def test_an_idle_consumer_waits_past_the_pop_timeout_without_error() -> None:
    layer = _production_layer()
    name = await layer.new_channel()
    try:
        with pytest.raises(asyncio.TimeoutError):  # our own deadline, not an error of the layer
            await asyncio.wait_for(layer.receive(name), timeout=layer.brpop_timeout + 1.5)
        await layer.send(name, {"type": "table.update"})
        assert (await asyncio.wait_for(layer.receive(name), timeout=5))["type"] == "table.update"
    finally:
        await layer.flush()


@pytest.mark.asyncio
async def test_a_burst_of_sockets_joining_their_groups_at_once_is_not_refused() -> None:
    layer = _production_layer()
    channels = [f"{await layer.new_channel()}" for _ in range(250)]
    try:
        await asyncio.gather(
            *(layer.group_add(f"table.{i % 60}", c) for i, c in enumerate(channels))
        )
        await asyncio.gather(*(layer.group_send(f"table.{i}", {"type": "x"}) for i in range(60)))
    finally:
        await layer.flush()
