"""The clock: the one process that acts on time (``manage.py clock``, started by the launcher).

Every decision's deadline, the next round after the settlement pause, the expiry of presence and
the settlements whose task was lost are found in the database by sweeps; the clock runs each sweep
on its own thread at its own pace, so a slow settlement sweep never delays a deadline.

Why not Celery beat inside the worker (as before): one ``kill -9`` of that child stopped every
deadline for good while ``/healthz`` said ok, each tick was a broker message (two log lines a
second), and a broker outage stopped the game clock too. The sweeps need only
the database; the clock calls them directly, writes a heartbeat after each deadline sweep (the
launcher restarts a clock whose heartbeat goes stale, ``/healthz`` reports its age), pings the
Celery worker so that its heartbeat says whether it consumes, and survives a database or Redis
restart: a failed sweep is logged (once, then every minute) and tried again at the next tick.
Several clocks may run (the sweeps are idempotent under the round's row lock).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import kombu.exceptions
import redis
from django.db import close_old_connections
from django.db.utils import InterfaceError, OperationalError

from config import heartbeat

log = logging.getLogger(__name__)

OUTAGES = (
    OperationalError,
    InterfaceError,
    redis.ConnectionError,
    redis.TimeoutError,
    kombu.exceptions.OperationalError,
    ConnectionError,
    TimeoutError,
)
"""What a restarting database or broker raises: expected, logged without a traceback."""


@dataclass(frozen=True)
class Job:
    """A sweep the clock runs every ``every_s`` seconds; ``beat``: the heartbeat it writes
    after each successful run."""

    name: str
    every_s: float
    run: Callable[[], object]
    beat: str | None = None


def worker_ping() -> None:
    """Ask the Celery worker to write its heartbeat (a worker that stopped consuming stays
    silent). ``retry=False``: with the broker down this fails at once instead of blocking."""
    from config.tasks import worker_heartbeat

    worker_heartbeat.apply_async(expires=10, retry=False)


def clock_jobs() -> list[Job]:
    from scoring import services as scoring
    from tables import matches, rooms
    from tables.game import commands
    from tables.tournaments import services as tournaments

    return [
        Job("deadlines", 1.0, commands.sweep_deadlines, beat=heartbeat.CLOCK),
        Job("next rounds", 5.0, matches.sweep_overdue),
        Job("presence", 5.0, rooms.sweep_presence),
        Job("settlements", 60.0, scoring.sweep_unsettled),
        Job("tournaments", 5.0, tournaments.sweep_tournaments),
        Job("worker ping", 5.0, worker_ping),
    ]


def run_job(job: Job, stop: threading.Event) -> None:
    """Run ``job`` until ``stop`` is set; a failure is logged and the job goes on."""
    failures = 0
    while not stop.is_set():
        started = time.monotonic()
        try:
            moved = job.run()
        except Exception as exc:
            failures += 1
            if failures == 1 or failures % max(1, round(60 / job.every_s)) == 0:
                # A database or broker that is restarting says so in one line; anything else
                # is a bug and gets its traceback.
                log.error(
                    "clock: %s failed (%d in a row): %s: %s; trying again",
                    job.name,
                    failures,
                    type(exc).__name__,
                    exc,
                    exc_info=not isinstance(exc, OUTAGES),
                )
        else:
            if failures:
                log.warning("clock: %s works again after %d failures", job.name, failures)
            failures = 0
            if moved:  # only what the sweep did, never a line per tick
                log.info("clock: %s: %s", job.name, moved)
            if job.beat is not None:
                heartbeat.beat(job.beat)
        finally:
            close_old_connections()  # a connection broken by a database restart is not reused
        stop.wait(max(0.0, job.every_s - (time.monotonic() - started)))


def clock_run(stop: threading.Event, jobs: list[Job] | None = None) -> None:
    """Run every job on its own thread until ``stop`` is set."""
    threads = [
        threading.Thread(target=run_job, args=(job, stop), name=f"clock {job.name}", daemon=True)
        for job in (jobs if jobs is not None else clock_jobs())
    ]
    for thread in threads:
        thread.start()
    log.info("clock: running %s", ", ".join(t.name for t in threads))
    stop.wait()
    for thread in threads:
        thread.join(timeout=10)
