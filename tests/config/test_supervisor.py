"""The launcher's supervisor (config/supervisor.py): programs come back by themselves."""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

from config.heartbeat import heartbeat_key
from config.launcher import heartbeat_reader
from config.supervisor import Program, Supervisor

SLEEPER = [sys.executable, "-c", "import time; time.sleep(60)"]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is dead too.
    status = Path(f"/proc/{pid}/status")
    return not (status.exists() and "State:\tZ" in status.read_text())


def _wait(predicate, timeout_s: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def test_a_program_that_dies_is_started_again_and_a_failing_one_backs_off() -> None:
    lines: list[str] = []
    crasher = Program("crasher", [sys.executable, "-c", "raise SystemExit(3)"])
    sleeper = Program("sleeper", SLEEPER)
    supervisor = Supervisor([crasher, sleeper], log=lines.append)
    now = 1000.0
    for program in (crasher, sleeper):
        supervisor.check(program, now)
    assert crasher.process is not None
    crasher.process.wait(timeout=10)
    supervisor.check(crasher, now + 0.1)
    assert crasher.process is None
    assert crasher.next_start == now + 0.1  # the first exit: at once
    supervisor.check(crasher, now + 0.1)
    crasher.process.wait(timeout=10)  # type: ignore[union-attr]
    supervisor.check(crasher, now + 0.2)
    assert crasher.next_start == now + 1.2  # then 1, 2, 4 … seconds
    assert any("crasher exited with 3" in line for line in lines)
    assert sleeper.process is not None
    assert sleeper.process.poll() is None  # the others are not touched
    sleeper_pid = sleeper.process.pid
    supervisor.stop_all()
    assert _wait(lambda: not _alive(sleeper_pid))


def test_a_program_alive_but_silent_is_restarted() -> None:
    lines: list[str] = []
    ages = {"clock": 0.5}
    clock = Program("clock", SLEEPER, heartbeat="clock", stale_after_s=30, grace_s=5)
    supervisor = Supervisor([clock], log=lines.append, heartbeat_age=ages.get)
    supervisor.check(clock, 0.0)
    first = clock.process
    assert first is not None
    supervisor.check(clock, 10.0)
    assert clock.stopping_since is None  # beating
    ages["clock"] = float("inf")  # no heartbeat at all
    supervisor.check(clock, 2.0)
    assert clock.stopping_since is None  # still in its start-up grace
    supervisor.check(clock, 20.0)
    assert clock.stopping_since == 20.0
    first.wait(timeout=10)
    supervisor.check(clock, 21.0)
    supervisor.check(clock, 21.0)
    assert clock.process is not None
    assert clock.process is not first
    assert any("heartbeat is stale" in line for line in lines)
    ages["clock"] = None  # Redis cannot say: nobody is restarted for that
    supervisor.check(clock, 100.0)
    assert clock.stopping_since is None
    supervisor.stop_all()


def test_stopping_ends_the_programs_and_their_children(tmp_path: Path) -> None:
    """Celery's pool processes are the worker's children: a stop must not leave them behind."""
    pid_file = tmp_path / "child.pid"
    parent = [
        sys.executable,
        "-c",
        "import subprocess, sys, time;"
        f"p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)']);"
        f"open({str(pid_file)!r}, 'w').write(str(p.pid)); time.sleep(60)",
    ]
    program = Program("parent", parent)
    supervisor = Supervisor([program], log=lambda _line: None)
    stop = threading.Event()
    runner = threading.Thread(target=supervisor.run, args=(stop,), kwargs={"tick_s": 0.05})
    runner.start()
    assert _wait(lambda: pid_file.exists() and pid_file.read_text().strip() != "")
    child = int(pid_file.read_text())
    assert program.process is not None
    parent_pid = program.process.pid
    stop.set()
    runner.join(timeout=20)
    assert not runner.is_alive()
    assert _wait(lambda: not _alive(parent_pid) and not _alive(child))


def test_a_worker_whose_pinger_is_silent_is_not_blamed() -> None:
    """The worker beats when the clock pings it: a dead clock must not get the worker killed."""
    ages = {"worker": 100.0, "clock": 100.0}
    worker = Program("worker", SLEEPER, heartbeat="worker", heartbeat_needs="clock", grace_s=0)
    supervisor = Supervisor([worker], log=lambda _line: None, heartbeat_age=ages.get)
    supervisor.check(worker, 0.0)
    supervisor.check(worker, 50.0)
    assert worker.stopping_since is None
    ages["clock"] = 1.0  # the clock pings, the worker does not answer
    supervisor.check(worker, 51.0)
    assert worker.stopping_since == 51.0
    supervisor.stop_all()


def test_a_heartbeat_lost_with_a_redis_restart_is_unknown_but_a_stale_one_restarts(
    private_redis: Any,
) -> None:
    """The heartbeat keys live in Redis's memory: after a Redis restart the clock's key is gone
    until its next sweep, which must not get a healthy clock restarted; a
    heartbeat really too old, or none for longer than Redis has been up, still does."""
    lines: list[str] = []
    key = heartbeat_key("clock", prefix="sup-test")
    private_redis.client().set(key, f"{time.time():.3f}")
    clock = Program("clock", SLEEPER, heartbeat="clock", stale_after_s=5, grace_s=0)
    supervisor = Supervisor(
        [clock], log=lines.append, heartbeat_age=heartbeat_reader(private_redis.url(), "sup-test")
    )
    supervisor.check(clock, 0.0)
    first = clock.process
    assert first is not None
    supervisor.check(clock, 1.0)
    assert clock.stopping_since is None  # beating

    private_redis.restart()
    assert private_redis.client().get(key) is None
    supervisor.check(clock, 2.0)
    assert clock.stopping_since is None, lines  # not known to be stale: not restarted
    assert first.poll() is None

    private_redis.client().set(key, f"{time.time() - 60:.3f}")  # a minute without a beat
    supervisor.check(clock, 3.0)
    assert clock.stopping_since == 3.0
    assert any("heartbeat is stale" in line for line in lines)
    first.wait(timeout=10)
    supervisor.check(clock, 4.0)
    supervisor.check(clock, 4.0)
    second = clock.process
    assert second is not None
    assert second is not first

    # No beat at all since Redis came back, for longer than stale_after_s: stale too.
    private_redis.restart()
    supervisor.check(clock, 5.0)
    assert clock.stopping_since is None
    assert _wait(lambda: private_redis.client().info("server")["uptime_in_seconds"] > 5, 20)
    supervisor.check(clock, 6.0)
    assert clock.stopping_since == 6.0
    supervisor.stop_all()
