"""Channel layers for the table sockets: ``RedisChannelLayer`` vs ``RedisPubSubChannelLayer``.

What the tables need from the layer is one thing: "room N changed" reaching every socket of the
room (4 players + a few spectators), fast and without loss (each socket then reads the database).
So the benchmark measures a room-sized group:

* **latency**: one notification at a time (the next sent when all receivers have it), the time
  from ``group_send`` to the LAST receiver's ``receive`` — p50 / p95 / p99 / max;
* **burst**: ``--burst`` notifications sent back to back, then the time until every receiver has
  all of them (deliveries per second) and how many were lost.

Both layers run against the same Redis (``REDIS_URL``, default ``redis://127.0.0.1:6379/0``), in
the same process and run, alternating, so the machine's state is the same for both.

    .venv/bin/python bench/bench_channel_layers.py [--receivers 6] [--pings 1000] [--burst 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import time
from typing import Any

from channels_redis.core import RedisChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer

GROUP = "bench.room"


def make_layer(kind: str, url: str) -> Any:
    if kind == "RedisChannelLayer":
        # The settings' capacity; expiry as in config/settings.py.
        return RedisChannelLayer(hosts=[url], capacity=1000, expiry=30)
    return RedisPubSubChannelLayer(hosts=[url])


async def _join(layer: Any, receivers: int) -> list[str]:
    channels = [await layer.new_channel() for _ in range(receivers)]
    for channel in channels:
        await layer.group_add(GROUP, channel)
    # Pub/sub subscriptions are asynchronous: let them settle before measuring.
    await asyncio.sleep(0.3)
    return channels


async def latency(layer: Any, channels: list[str], pings: int) -> list[float]:
    out = []
    for i in range(pings):
        start = time.perf_counter()
        await layer.group_send(GROUP, {"type": "table.update", "i": i})
        await asyncio.gather(*(layer.receive(c) for c in channels))
        out.append(time.perf_counter() - start)
    return out


async def burst(layer: Any, channels: list[str], count: int) -> tuple[float, int]:
    received = [0] * len(channels)

    async def drain(k: int) -> None:
        while received[k] < count:
            await layer.receive(channels[k])
            received[k] += 1

    start = time.perf_counter()
    tasks = [asyncio.create_task(drain(k)) for k in range(len(channels))]
    for i in range(count):
        await layer.group_send(GROUP, {"type": "table.update", "i": i})
    try:
        await asyncio.wait_for(asyncio.gather(*tasks), timeout=30)
    except TimeoutError:
        for task in tasks:
            task.cancel()
    elapsed = time.perf_counter() - start
    lost = count * len(channels) - sum(received)
    return elapsed, lost


def _ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def bench(kind: str, url: str, receivers: int, pings: int, count: int) -> dict[str, Any]:
    layer = make_layer(kind, url)
    channels = await _join(layer, receivers)
    await latency(layer, channels, 20)  # warm-up: connections, scripts
    lat = await latency(layer, channels, pings)
    elapsed, lost = await burst(layer, channels, count)
    for channel in channels:
        await layer.group_discard(GROUP, channel)
    if hasattr(layer, "flush"):
        await layer.flush()
    return {
        "layer": kind,
        "p50_ms": _ms(lat, 0.50),
        "p95_ms": _ms(lat, 0.95),
        "p99_ms": _ms(lat, 0.99),
        "max_ms": 1000 * max(lat),
        "mean_ms": 1000 * statistics.fmean(lat),
        "burst_deliveries_per_s": count * receivers / elapsed,
        "burst_lost": lost,
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--receivers", type=int, default=6, help="sockets in the room (4+2)")
    parser.add_argument("--pings", type=int, default=1000)
    parser.add_argument("--burst", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3, help="alternating runs per layer")
    args = parser.parse_args()
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    print(f"# {platform.python_implementation()} {platform.python_version()}, Redis at {url}")
    print(f"# {args.receivers} receivers, {args.pings} pings, bursts of {args.burst}")
    header = "| run | layer | p50 ms | p95 ms | p99 ms | max ms | burst deliveries/s | lost |"
    print(header)
    print("|" + "---|" * 8)
    for run in range(1, args.rounds + 1):
        for kind in ("RedisChannelLayer", "RedisPubSubChannelLayer"):
            r = await bench(kind, url, args.receivers, args.pings, args.burst)
            print(
                f"| {run} | {kind} | {r['p50_ms']:.3f} | {r['p95_ms']:.3f} | {r['p99_ms']:.3f} "
                f"| {r['max_ms']:.2f} | {r['burst_deliveries_per_s']:.0f} | {r['burst_lost']} |"
            )


if __name__ == "__main__":
    asyncio.run(main())
