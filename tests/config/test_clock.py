"""The clock (config/clock.py) and what /healthz says of it."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from config import clock, heartbeat


@pytest.mark.django_db(transaction=True)  # run_job closes broken connections after each run
def test_a_job_that_fails_goes_on_and_beats_again_once_it_works(caplog: Any) -> None:
    stop = threading.Event()
    calls: list[int] = []

    def flaky() -> None:
        calls.append(1)
        if len(calls) <= 2:
            raise ConnectionError("database restarting")
        if len(calls) >= 4:
            stop.set()

    job = clock.Job("flaky", 0.01, flaky, beat="test-flaky")
    redis_key = heartbeat.heartbeat_key("test-flaky")
    from config.redis_client import redis_client

    redis_client().delete(redis_key)
    clock.run_job(job, stop)
    assert len(calls) == 4
    assert heartbeat.last_beat_age("test-flaky") < 5
    failures = [r for r in caplog.records if "flaky failed" in r.getMessage()]
    assert len(failures) == 1  # the first failure is logged; the next ones are not repeated
    assert any("works again after 2 failures" in r.getMessage() for r in caplog.records)


@pytest.mark.django_db(transaction=True)
def test_a_job_that_did_nothing_logs_nothing(caplog: Any) -> None:
    stop = threading.Event()
    clock.run_job(clock.Job("quiet", 0.01, lambda: stop.set() or []), stop)
    assert not [r for r in caplog.records if "quiet" in r.getMessage()]


@pytest.mark.django_db(transaction=True)
def test_clock_run_starts_every_job_and_stops() -> None:
    stop = threading.Event()
    seen: set[str] = set()
    jobs = [clock.Job(name, 0.01, lambda name=name: seen.add(name)) for name in ("a", "b")]
    runner = threading.Thread(target=clock.clock_run, args=(stop, jobs))
    runner.start()
    deadline = time.monotonic() + 5
    while seen != {"a", "b"} and time.monotonic() < deadline:
        time.sleep(0.01)
    stop.set()
    runner.join(timeout=5)
    assert seen == {"a", "b"}
    assert not runner.is_alive()


@pytest.mark.django_db
def test_healthz_tells_the_truth_about_the_clock_and_the_worker(client: Any) -> None:
    from config.redis_client import redis_client

    redis_client().delete(heartbeat.heartbeat_key(heartbeat.CLOCK))
    redis_client().delete(heartbeat.heartbeat_key(heartbeat.WORKER))
    stopped = client.get("/healthz")
    assert stopped.status_code == 503
    body = stopped.json()
    assert body["database"]["ok"]
    assert body["broker"]["ok"]
    assert body["clock"] == {"ok": False, "last_beat_age_s": None}
    heartbeat.beat(heartbeat.CLOCK)
    heartbeat.beat(heartbeat.WORKER)
    running = client.get("/healthz")
    assert running.status_code == 200
    assert running.json()["clock"]["ok"] is True
    heartbeat.beat(heartbeat.CLOCK, now=time.time() - 60)  # a clock silent for a minute
    assert client.get("/healthz").status_code == 503


@pytest.mark.django_db
def test_healthz_says_when_the_broker_is_unreachable(client: Any, settings: Any) -> None:
    settings.REDIS_URL = "redis://127.0.0.1:9/0"  # nothing listens on the discard port
    body = client.get("/healthz").json()
    assert body["broker"] == {"ok": False, "error": "ConnectionError"}
    assert body["ok"] is False


def test_the_worker_ping_task_writes_the_worker_heartbeat() -> None:
    from config.tasks import worker_heartbeat

    heartbeat.beat(heartbeat.WORKER, now=time.time() - 100)
    worker_heartbeat.apply().get()
    assert heartbeat.last_beat_age(heartbeat.WORKER) < 5
