"""Heartbeats: when the clock last swept and when the Celery worker last answered.

A process that is alive is not necessarily working: a clock whose thread is stuck, or a worker
that reconnected to the broker and stopped consuming (a known kombu failure), look fine to a
process table. Each writes a heartbeat when it has really done its work; ``/healthz`` reports
their ages and the launcher restarts a program whose heartbeat has gone stale.

The value is the Unix time of the beat; the keys expire after an hour of silence.
"""

from __future__ import annotations

import logging
import time

import redis

from config.redis_client import redis_client, redis_key

log = logging.getLogger(__name__)

CLOCK = "clock"
"""Written by the clock after every deadline sweep (about once a second)."""
WORKER = "worker"
"""Written by the Celery worker when it runs the clock's ping task (every few seconds)."""


def heartbeat_key(name: str, *, prefix: str | None = None) -> str:
    """The key of a heartbeat (``prefix``: for a process without Django settings, the launcher)."""
    return redis_key("heartbeat", name) if prefix is None else f"{prefix}:heartbeat:{name}"


def beat_age_in(client: redis.Redis, prefix: str, name: str, *, now: float | None = None) -> float:
    """Seconds since the last heartbeat read with ``client``; redis errors propagate: the caller
    does not know, which is not the same as stale.

    A missing key means no beat since Redis started: the keys live in Redis's memory only, so a
    Redis restart empties them (the key also expires after an hour of silence). The age is then
    at least Redis's uptime, and that lower bound is what is returned. ``inf`` called a healthy
    clock stale in the second between Redis's return and its next beat, and the supervisor
    restarted it; a program that stays silent for longer than Redis has been
    up, or that never beat at all, is still found stale."""
    value = client.get(heartbeat_key(name, prefix=prefix))
    if value is None:
        return redis_uptime_s(client)
    return max(0.0, (now or time.time()) - float(value))


def redis_uptime_s(client: redis.Redis) -> float:
    """Seconds since the Redis server behind ``client`` started (``INFO server``)."""
    return float(client.info("server")["uptime_in_seconds"])


def beat(name: str, *, now: float | None = None) -> bool:
    """Record a heartbeat; False (and no exception) when Redis cannot be reached."""
    try:
        redis_client().set(heartbeat_key(name), f"{now or time.time():.3f}", ex=3600)
    except redis.RedisError:
        log.debug("heartbeat %s not written: Redis unreachable", name)
        return False
    return True


def last_beat_age(name: str, *, now: float | None = None) -> float | None:
    """Seconds since the last heartbeat; None when there is none (or Redis is unreachable)."""
    try:
        value = redis_client().get(heartbeat_key(name))
    except redis.RedisError:
        return None
    if value is None:
        return None
    return max(0.0, (now or time.time()) - float(value))
