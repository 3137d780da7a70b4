"""The project's own Redis keys (presence of sockets, heartbeats of the clock and the worker).

One synchronous client per process, from ``REDIS_URL``, with short timeouts and retries: Redis is
where liveness lives, so a Redis that restarts must cost a missed beat, never a stuck thread.
Channels and Celery keep their own connections; these keys are prefixed with
``REDIS_KEY_PREFIX`` (a test process has its own) so they never meet anyone else's.
"""

from __future__ import annotations

import functools

import redis
from django.conf import settings
from redis.backoff import ExponentialBackoff
from redis.retry import Retry

TIMEOUT_S = 1.0


@functools.cache
def _client(url: str) -> redis.Redis:
    return redis.Redis.from_url(
        url,
        socket_timeout=TIMEOUT_S,
        socket_connect_timeout=TIMEOUT_S,
        health_check_interval=15,
        retry=Retry(ExponentialBackoff(cap=0.5, base=0.05), retries=2),
        retry_on_error=[redis.ConnectionError, redis.TimeoutError],
        decode_responses=True,
    )


def redis_client() -> redis.Redis:
    """This process's client of ``settings.REDIS_URL`` (connections are made on demand)."""
    return _client(settings.REDIS_URL)


def redis_key(*parts: object) -> str:
    """``<REDIS_KEY_PREFIX>:part:part…``."""
    return ":".join((settings.REDIS_KEY_PREFIX, *(str(p) for p in parts)))
