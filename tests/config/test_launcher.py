"""``make run`` in production mode, end to end.

The launcher is started as a real process with ``DEBUG=0`` (the manifest static storage), its own
SQLite file and a Redis key prefix of its own. The test fetches the pages that answered 500 before
``collectstatic`` was part of the start, waits for ``/healthz`` to report a working clock and
worker, kills the clock and the worker with SIGKILL and waits for them to come back (the web
server keeps answering meanwhile), then sends SIGTERM to the launcher and checks that no child is
left running.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()
    except OSError:
        return 0, b""


def _health(base: str) -> dict[str, Any]:
    code, body = _get(f"{base}/healthz")
    return json.loads(body) if code in (200, 503) else {"ok": False}


def _wait(predicate: Any, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


def _children(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-eo", "pid,ppid,pgid,args"], capture_output=True, text=True)
    found = []
    for line in out.stdout.splitlines()[1:]:
        parts = line.split(None, 3)
        if len(parts) == 4 and int(parts[1]) == pid:
            found.append(int(parts[0]))
    return found


def _pid_of(pattern: str, parent: int) -> int | None:
    for child in _children(parent):
        cmdline = Path(f"/proc/{child}/cmdline")
        if cmdline.exists() and pattern in cmdline.read_bytes().replace(b"\0", b" ").decode():
            return child
    return None


@pytest.fixture
def launcher(tmp_path: Path) -> Any:
    port = _free_port()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("QUEYOU_TESTING", "PYTEST"))},
        "DEBUG": "0",
        "SECRET_KEY": "launcher-test-" + "k" * 60,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL": "0",
        "PORT": str(port),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'launcher.sqlite3'}",
        "REDIS_KEY_PREFIX": f"launcher-test-{os.getpid()}",
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    log = (tmp_path / "launcher.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "config.launcher", "run"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    yield process, f"http://127.0.0.1:{port}", tmp_path / "launcher.log"
    if process.poll() is None:
        process.kill()
        process.wait(timeout=10)
    log.close()


def test_the_production_start_serves_pages_and_keeps_its_programs_running(launcher: Any) -> None:
    process, base, log_path = launcher
    assert _wait(lambda: _health(base).get("ok") is True, 90), log_path.read_text()[-3000:]
    for path in ("/accounts/login/", "/admin/login/", "/api/docs/", "/api/docs/?script"):
        assert _get(base + path)[0] == 200, path
    # The clock, killed, comes back and beats again; the web server answered all along.
    for program in ("manage.py clock", "celery"):
        pid = _pid_of(program, process.pid)
        assert pid is not None, program
        os.kill(pid, signal.SIGKILL)
        assert _wait(
            lambda program=program, pid=pid: _pid_of(program, process.pid) not in (None, pid), 20
        )
        assert _get(base + "/accounts/login/")[0] == 200
    assert _wait(lambda: _health(base).get("ok") is True, 60), log_path.read_text()[-3000:]
    log = log_path.read_text()
    assert "clock exited with -9" in log
    assert "worker exited with -9" in log
    # SIGTERM stops everything it started (it used to leave its children running).
    children = _children(process.pid)
    assert len(children) >= 3
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 0
    assert _wait(lambda: not any(Path(f"/proc/{c}").exists() for c in children), 15)
