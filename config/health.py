"""What ``/healthz`` tells: the database, the broker, the clock and the worker, each checked.

``ok`` only when all four are: a web server that answers while the clock has stopped is not a
working site (a game's deadlines no longer pass), and load balancers and the launcher must know.
Each part says what it found, so an operator reads the cause at once.
"""

from __future__ import annotations

from typing import Any

import redis
from django.db import connection

from config import heartbeat
from config.redis_client import redis_client

CLOCK_STALE_S = 10.0
"""The deadline sweep runs every second: ten seconds without one is a stopped clock."""
WORKER_STALE_S = 30.0
"""The clock pings the worker every five seconds."""


def _database() -> dict[str, Any]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as exc:
        return {"ok": False, "error": type(exc).__name__}
    return {"ok": True}


def _broker() -> dict[str, Any]:
    try:
        redis_client().ping()
    except redis.RedisError as exc:
        return {"ok": False, "error": type(exc).__name__}
    return {"ok": True}


def _beat(name: str, stale_s: float) -> dict[str, Any]:
    age = heartbeat.last_beat_age(name)
    return {
        "ok": age is not None and age < stale_s,
        "last_beat_age_s": None if age is None else round(age, 1),
    }


def health_report() -> dict[str, Any]:
    parts = {
        "database": _database(),
        "broker": _broker(),
        "clock": _beat(heartbeat.CLOCK, CLOCK_STALE_S),
        "worker": _beat(heartbeat.WORKER, WORKER_STALE_S),
    }
    return {"ok": all(p["ok"] for p in parts.values()), **parts}
