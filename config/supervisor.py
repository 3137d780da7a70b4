"""A small process supervisor for ``make run``: every program restarts by itself.

The launcher used to stop everything when one child died: a Celery worker killed by a kombu bug
during a Redis restart took the web server down with it. Here each program is
restarted when it exits — at once the first time, then after 1, 2, 4 … up to 30 seconds while it
keeps failing (a program that ran for a minute starts afresh) — and a program with a heartbeat
(the clock, the Celery worker) is also restarted when it is alive but silent: a stuck clock or a
worker that stopped consuming looks fine to a process table.

Each child runs in its own process group, so that a stop or a restart also ends the group's
children (Celery's pool processes) and a Ctrl-C in the terminal reaches the supervisor only,
which then stops the children in reverse order (SIGTERM, then SIGKILL after a grace period).
SIGTERM to the supervisor does the same (it used to leave the children running).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

BACKOFF_MAX_S = 30.0
HEALTHY_AFTER_S = 60.0
"""A program that ran this long before exiting is restarted at once, its backoff forgotten."""
STOP_GRACE_S = 10.0


@dataclass
class Program:
    """A command to keep running; ``heartbeat``/``stale_after_s``: restart it when its heartbeat
    is older than that (after ``grace_s`` from its start)."""

    name: str
    argv: Sequence[str]
    cwd: Path | None = None
    env: Mapping[str, str] | None = None
    heartbeat: str | None = None
    stale_after_s: float = 30.0
    grace_s: float = 30.0
    heartbeat_needs: str | None = None
    """Another heartbeat this one depends on (the worker beats when the clock pings it): while
    that one is stale too, this program is not blamed."""
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)
    started_at: float = 0.0
    failures: int = 0
    next_start: float = 0.0
    restarts: int = 0
    stopping_since: float | None = None


HeartbeatAge = Callable[[str], float | None]
"""Seconds since a heartbeat, or at least that many (a heartbeat lost with a Redis restart: the
time since Redis started, config/heartbeat.py); None when it cannot be known now."""


class Supervisor:
    def __init__(
        self,
        programs: Sequence[Program],
        *,
        log: Callable[[str], None],
        heartbeat_age: HeartbeatAge | None = None,
    ) -> None:
        self.programs = list(programs)
        self.log = log
        self.heartbeat_age = heartbeat_age
        self._stopping = threading.Lock()

    # --- one program ----------------------------------------------------------------------
    def start(self, program: Program, now: float) -> None:
        env = None if program.env is None else dict(program.env)
        program.process = subprocess.Popen(
            list(program.argv), cwd=program.cwd, env=env, start_new_session=True
        )
        program.started_at, program.stopping_since = now, None
        self.log(f"{program.name} started (pid {program.process.pid})")

    def _exited(self, program: Program, now: float, code: int) -> None:
        ran = now - program.started_at
        program.failures = 1 if ran >= HEALTHY_AFTER_S else program.failures + 1
        delay = 0.0 if program.failures == 1 else min(BACKOFF_MAX_S, 2.0 ** (program.failures - 2))
        self.log(
            f"{program.name} exited with {code} after {ran:.0f} s; "
            f"restarting {'now' if delay == 0 else f'in {delay:.0f} s'}"
        )
        _signal_group(program, signal.SIGKILL)  # what its children left behind
        program.process = None
        program.next_start = now + delay
        program.restarts += 1

    def _silent(self, program: Program, now: float) -> bool:
        if program.heartbeat is None or self.heartbeat_age is None:
            return False
        if program.stopping_since is not None or now - program.started_at < program.grace_s:
            return False
        age = self.heartbeat_age(program.heartbeat)
        if age is None or age <= program.stale_after_s:
            return False
        if program.heartbeat_needs is not None:
            needed = self.heartbeat_age(program.heartbeat_needs)
            return needed is not None and needed <= program.stale_after_s
        return True

    def check(self, program: Program, now: float) -> None:
        """Start, restart or stop ``program`` as its state asks."""
        process = program.process
        if process is None:
            if now >= program.next_start:
                self.start(program, now)
            return
        code = process.poll()
        if code is not None:
            self._exited(program, now, code)
        elif program.stopping_since is not None:
            if now - program.stopping_since > STOP_GRACE_S:
                _signal_group(program, signal.SIGKILL)
        elif self._silent(program, now):
            self.log(f"{program.name} is alive but its heartbeat is stale: restarting it")
            program.stopping_since = now
            _signal_group(program, signal.SIGTERM)
            _signal_group(program, signal.SIGCONT)  # a stopped process must run to hear it

    # --- all of them ----------------------------------------------------------------------
    def run(self, stop: threading.Event, *, tick_s: float = 0.5) -> None:
        """Keep every program running until ``stop`` is set (SIGINT/SIGTERM set it when this
        runs in the main thread), then stop them all."""
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                signal.signal(sig, lambda *_: stop.set())
        try:
            while not stop.is_set():
                now = time.monotonic()
                for program in self.programs:
                    self.check(program, now)
                stop.wait(tick_s)
        finally:
            self.stop_all()

    def stop_all(self) -> None:
        with self._stopping:  # the signal handler's thread and the loop may both get here
            running = [(p, p.process) for p in reversed(self.programs) if p.process is not None]
            for program, _process in running:
                _signal_group(program, signal.SIGTERM)
                _signal_group(program, signal.SIGCONT)
            deadline = time.monotonic() + STOP_GRACE_S
            for program, process in running:
                assert process is not None
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(timeout=max(0.1, deadline - time.monotonic()))
                _signal_group(program, signal.SIGKILL)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(timeout=5)
                program.process = None
            if running:
                self.log("stopped " + ", ".join(p.name for p, _process in running))


def _signal_group(program: Program, sig: int) -> None:
    """Signal the program's whole process group (it leads it: ``start_new_session``)."""
    if program.process is None:
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(program.process.pid, sig)
