"""Check that the production process definitions start the site.

    .venv/bin/python tools/check_deploy.py systemd-like  # the unit files' commands, here
    .venv/bin/python tools/check_deploy.py docker        # docker compose up, when Docker runs
    .venv/bin/python tools/check_deploy.py auto          # docker if its daemon answers, else
                                                         # systemd-like

``systemd-like`` needs neither systemd nor Docker: it reads ``deploy/systemd/*.service``
(``systemd-analyze verify`` first, when the machine has it), and starts what their ``ExecStart``
lines say — ``/opt/queyou`` standing for this checkout, the environment file built from
``deploy/env.example`` with a throw-away database on the machine's PostgreSQL
(``QUEYOU_CHECK_PG``, default ``postgres://root@127.0.0.1:5432``) and the machine's Redis
(``QUEYOU_CHECK_REDIS``, default ``redis://127.0.0.1:6379/11``, the heartbeats under a prefix of
their own). The release must exit 0; then two ``queyou-web@PORT`` instances, the worker and the
clock must pass the units' health checks (``config.launcher alive``: both ``/healthz`` 200, both
heartbeats fresh), a signed-in demo player's table socket, opened on the OTHER web server than the
one that signed in, must answer ``hello`` and ``ping``; then everything is stopped and the
database dropped.

``docker`` builds the image and runs ``compose.yaml`` under a project name of its own with an
environment file built the same way (no TLS), waits for web, worker and clock to be healthy,
fetches ``/healthz`` through the nginx proxy, plays the same socket exchange through it, and
tears everything down (``down -v``).

Prints ``<mode>: ok`` and exits 0, or names what failed and exits 1 (3: that mode cannot run on
this machine).
"""

from __future__ import annotations

import configparser
import contextlib
import http.cookiejar
import json
import os
import re
import secrets
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
UNITS_DIR = ROOT / "deploy" / "systemd"
ENV_EXAMPLE = ROOT / "deploy" / "env.example"
INSTALL_DIR = "/opt/queyou"
"""Where the unit files expect the checkout; this one stands for it here."""
PYTHON = sys.executable
DEMO_PASSWORD = "mahjong-demo"  # config/management/commands/demo.py
START_TIMEOUT_S = 120.0


class CheckFailed(Exception):
    pass


def log(message: str) -> None:
    print(f"[check_deploy {time.strftime('%H:%M:%S', time.gmtime())}] {message}", flush=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def port_open(host: str, port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.5):
        return True
    return False


# --- the definitions ----------------------------------------------------------------------------


def systemd_units() -> dict[str, dict[str, dict[str, str]]]:
    """Every unit file of ``deploy/systemd``: ``{file name: {section: {key: value}}}``."""
    units = {}
    for path in sorted(UNITS_DIR.iterdir()):
        if path.suffix not in (".service", ".target", ".timer"):
            continue
        parser = configparser.ConfigParser(interpolation=None, strict=False)
        parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys keep their case
        parser.read(path, encoding="utf-8")
        units[path.name] = {section: dict(parser[section]) for section in parser.sections()}
    return units


def compose_file() -> dict[str, Any]:
    import yaml

    with (ROOT / "compose.yaml").open(encoding="utf-8") as file:
        data: dict[str, Any] = yaml.safe_load(file)
    return data


def env_file_values(path: Path) -> dict[str, str]:
    """``KEY=VALUE`` lines as systemd's ``EnvironmentFile`` and compose's ``env_file`` read them
    (no quotes used in ours); comments and blanks skipped."""
    values = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            key, _, value = line.partition("=")
            values[key.strip()] = value.strip()
    return values


def check_environment(**overrides: str) -> dict[str, str]:
    """``deploy/env.example`` with what a check on this machine must change: a fresh key, plain
    HTTP, small pools (the machine's PostgreSQL is shared)."""
    values = env_file_values(ENV_EXAMPLE)
    values.update(
        SECRET_KEY="check-" + secrets.token_urlsafe(48),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        CSRF_TRUSTED_ORIGINS="",
        SECURE_SSL="0",
        DATABASE_POOL_SIZE="4",
        TABLES_DATABASE_THREADS="2",
        LOG_LEVEL="WARNING",
    )
    values.update(overrides)
    return values


# --- a player at the site -----------------------------------------------------------------------


def http_get(url: str, *, opener: urllib.request.OpenerDirector | None = None) -> tuple[int, str]:
    try:
        with (opener or urllib.request.build_opener()).open(url, timeout=10) as response:
            return response.status, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8", "replace")
    except OSError as error:
        return 0, str(error)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def sign_in(base: str, username: str) -> str:
    """The real login form (CSRF cookie and token, then the password); the session id."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), _NoRedirect)
    status, page = http_get(f"{base}/accounts/login/", opener=opener)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    if status != 200 or token is None:
        raise CheckFailed(f"login page at {base}: HTTP {status}")
    form = {"username": username, "password": DEMO_PASSWORD, "csrfmiddlewaretoken": token[1]}
    request = urllib.request.Request(
        f"{base}/accounts/login/",
        data=urllib.parse.urlencode(form).encode(),
        headers={"Referer": f"{base}/accounts/login/"},
    )
    try:
        with opener.open(request, timeout=30) as response:
            status = response.status
    except urllib.error.HTTPError as error:
        status = error.code
    session = next((c.value for c in jar if c.name == "sessionid"), None)
    if status != 302 or not session:
        raise CheckFailed(f"sign-in of {username} at {base}: HTTP {status}, no session")
    return session


def socket_hello(base: str, room_id: int, session: str) -> list[str]:
    """Open the table socket of ``room_id`` at ``base`` with the session; the types received:
    the ``table`` on connect, what ``hello`` brings, and the ``pong``."""
    from websockets.sync.client import connect

    url = base.replace("http://", "ws://", 1) + f"/ws/table/{room_id}/"
    headers = {"Cookie": f"sessionid={session}", "Origin": base}
    received: list[str] = []
    with connect(url, additional_headers=headers, open_timeout=20, close_timeout=2) as ws:
        received.append(json.loads(ws.recv(timeout=20))["type"])
        ws.send(json.dumps({"type": "hello"}))
        ws.send(json.dumps({"type": "ping"}))
        while "pong" not in received:
            message = json.loads(ws.recv(timeout=20))
            received.append(message["type"])
            if message["type"] == "error":
                raise CheckFailed(f"the socket answered an error: {message}")
    if received[0] != "table":
        raise CheckFailed(f"the socket's first message was {received[0]!r}, not 'table'")
    return received


ROOM_ID_SCRIPT = (
    "from tables.models import Room; "
    "print(Room.objects.filter(club__owner__username='demo1').order_by('pk').first().pk)"
)


def play_hello(manage: Callable[..., str], login_base: str, socket_base: str) -> None:
    """Seed the demo (idempotent), sign ``demo1`` in at ``login_base`` and talk to its first
    room's socket at ``socket_base``."""
    manage("demo")
    room_id = int(manage("shell", "-c", ROOM_ID_SCRIPT).strip().splitlines()[-1])
    session = sign_in(login_base, "demo1")
    received = socket_hello(socket_base, room_id, session)
    log(f"table socket of room {room_id} at {socket_base}: {' '.join(received)}")


# --- systemd-like -------------------------------------------------------------------------------


def verify_units() -> None:
    """``systemd-analyze verify`` when the machine has it: an unknown key, a bad value or a
    forbidden combination fails; only the absence of /opt/queyou here is forgiven."""
    if shutil.which("systemd-analyze") is None:
        log("no systemd-analyze here: the unit files are only parsed")
        return
    names = [p.name for p in sorted(UNITS_DIR.iterdir()) if not p.name.endswith("@.service")]
    names += ["queyou-web@8001.service"]
    with tempfile.TemporaryDirectory() as tmp:
        for path in UNITS_DIR.iterdir():
            shutil.copy(path, tmp)
        done = subprocess.run(
            ["systemd-analyze", "verify", "--man=no", *(str(Path(tmp) / n) for n in names)],
            capture_output=True,
            text=True,
            timeout=120,
        )
    problems = [
        line
        for line in (done.stdout + done.stderr).splitlines()
        if line.strip() and f"Command {INSTALL_DIR}/" not in line
    ]
    if problems:
        raise CheckFailed("systemd-analyze verify: " + "\n".join(problems))
    log(f"systemd-analyze verify: {len(names)} units fine")


def unit_command(unit: dict[str, dict[str, str]], instance: str = "") -> list[str]:
    """The unit's ``ExecStart`` with ``%i`` filled in and ``/opt/queyou`` standing for here."""
    argv = shlex.split(unit["Service"]["ExecStart"].replace("%i", instance))
    return [str(ROOT) + a[len(INSTALL_DIR) :] if a.startswith(INSTALL_DIR) else a for a in argv]


def unit_environment(
    unit: dict[str, dict[str, str]], env_file: dict[str, str], instance: str = ""
) -> dict[str, str]:
    """What the process gets: the environment file, then the unit's ``Environment=`` lines."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "QUEYOU_TESTING"))}
    for name in ("DEBUG", "SECRET_KEY", "DJANGO_SETTINGS_MODULE", "HOST", "PORT"):
        env.pop(name, None)
    env.update(env_file)
    for assignment in shlex.split(unit["Service"].get("Environment", "").replace("%i", instance)):
        key, _, value = assignment.partition("=")
        env[key] = value
    return env


@contextlib.contextmanager
def scratch_database(server_url: str) -> Iterator[str]:
    """A database of its own on the machine's PostgreSQL, dropped afterwards."""
    import psycopg

    name = f"queyou_deploycheck_{os.getpid()}"
    admin = f"{server_url}/postgres"
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{server_url}/{name}"
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class Processes:
    """The started units' processes, each in its own process group (stopped as systemd would:
    SIGTERM to the group, SIGKILL after 15 s)."""

    def __init__(self, log_dir: Path) -> None:
        self.log_dir = log_dir
        self.running: dict[str, subprocess.Popen[bytes]] = {}

    def start(self, name: str, argv: list[str], env: dict[str, str]) -> None:
        out = (self.log_dir / f"{name}.log").open("wb")
        self.running[name] = subprocess.Popen(
            argv, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
        out.close()
        log(f"{name}: {' '.join(argv[1:])} (pid {self.running[name].pid})")

    def dead(self) -> list[str]:
        return [n for n, p in self.running.items() if p.poll() is not None]

    def tail(self, name: str, chars: int = 1500) -> str:
        path = self.log_dir / f"{name}.log"
        return path.read_text(errors="replace")[-chars:] if path.exists() else ""

    def stop_all(self) -> None:
        for process in self.running.values():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + 15
        for process in self.running.values():
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


def run_alive(name: str, env: dict[str, str]) -> tuple[int, str]:
    """The health check as the watch and compose run it: ``config.launcher alive NAME``."""
    done = subprocess.run(
        [PYTHON, "-m", "config.launcher", "alive", name],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    return done.returncode, (done.stdout + done.stderr).strip()


def systemd_like() -> None:
    units = systemd_units()
    verify_units()
    pg = os.environ.get("QUEYOU_CHECK_PG", "postgres://root@127.0.0.1:5432")
    redis_url = os.environ.get("QUEYOU_CHECK_REDIS", "redis://127.0.0.1:6379/11")
    started = time.monotonic()
    with scratch_database(pg) as database_url, tempfile.TemporaryDirectory() as tmp:
        env_file = check_environment(
            DATABASE_URL=database_url,
            REDIS_URL=redis_url,
            REDIS_KEY_PREFIX=f"deploycheck-{os.getpid()}",
            CELERY_CONCURRENCY="1",
        )
        processes = Processes(Path(tmp))
        try:
            release = units["queyou-release.service"]
            log("queyou-release.service: " + " ".join(unit_command(release)[1:]))
            done = subprocess.run(
                unit_command(release),
                cwd=ROOT,
                env=unit_environment(release, env_file),
                capture_output=True,
                text=True,
                timeout=300,
            )
            if done.returncode != 0:
                raise CheckFailed(f"the release failed:\n{(done.stdout + done.stderr)[-3000:]}")
            ports = [str(free_port()), str(free_port())]
            web = units["queyou-web@.service"]
            for port in ports:
                argv, env = unit_command(web, port), unit_environment(web, env_file, port)
                processes.start(f"queyou-web@{port}", argv, env)
            for name in ("queyou-worker.service", "queyou-clock.service"):
                unit = units[name]
                processes.start(name, unit_command(unit), unit_environment(unit, env_file))
            checks = {f"web@{p}": unit_environment(web, env_file, p) for p in ports}
            checks["worker"] = checks["clock"] = unit_environment(
                units["queyou-worker.service"], env_file
            )
            wait_healthy(processes, checks)
            log(f"healthy after {time.monotonic() - started:.0f} s")
            check_env = unit_environment(release, env_file)

            def manage(*args: str) -> str:
                return subprocess.run(
                    [PYTHON, "manage.py", *args],
                    cwd=ROOT,
                    env=check_env,
                    capture_output=True,
                    text=True,
                    timeout=120,
                    check=True,
                ).stdout

            first, second = (f"http://127.0.0.1:{p}" for p in ports)
            play_hello(manage, first, second)
            if processes.dead():
                raise CheckFailed(f"exited meanwhile: {processes.dead()}")
        finally:
            processes.stop_all()
            forget_heartbeats(redis_url, env_file["REDIS_KEY_PREFIX"])
    log(f"all stopped, database dropped ({time.monotonic() - started:.0f} s in all)")


def forget_heartbeats(url: str, prefix: str) -> None:
    """The check's own keys (they would expire in an hour anyway)."""
    import redis

    with contextlib.suppress(redis.RedisError):
        client = redis.Redis.from_url(url, socket_timeout=5)
        keys = list(client.scan_iter(f"{prefix}:*"))
        if keys:
            client.delete(*keys)


def wait_healthy(processes: Processes, checks: dict[str, dict[str, str]]) -> None:
    """Until every check passes: ``alive web`` on each port, ``alive worker``, ``alive clock``."""
    deadline = time.monotonic() + START_TIMEOUT_S
    passed: set[str] = set()
    last: dict[str, str] = {}
    while time.monotonic() < deadline:
        if processes.dead():
            name = processes.dead()[0]
            raise CheckFailed(f"{name} exited:\n{processes.tail(name)}")
        for label, env in checks.items():
            if label in passed:
                continue
            name = label.split("@")[0]
            code, said = run_alive(name, env)
            last[label] = said
            if code == 0:
                passed.add(label)
                log(f"alive {label}: {said}")
        if passed == set(checks):
            return
        time.sleep(1)
    logs = "\n".join(f"--- {n}\n{processes.tail(n)}" for n in processes.running)
    raise CheckFailed(f"not healthy in {START_TIMEOUT_S:.0f} s: {last}\n{logs}")


# --- docker -------------------------------------------------------------------------------------


def docker_available() -> bool:
    if shutil.which("docker") is None:
        return False
    for probe in (["docker", "info"], ["docker", "compose", "version"]):
        with contextlib.suppress(subprocess.TimeoutExpired):
            if subprocess.run(probe, capture_output=True, timeout=30).returncode == 0:
                continue
        return False
    return True


def docker() -> None:
    project = f"queyou-check-{os.getpid()}"
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        env_path = Path(tmp) / "queyou.env"
        values = check_environment(ALLOWED_HOSTS="127.0.0.1,localhost,web", CELERY_CONCURRENCY="1")
        env_path.write_text("".join(f"{k}={v}\n" for k, v in values.items()), encoding="utf-8")
        env = {**os.environ, "QUEYOU_ENV_FILE": str(env_path), "QUEYOU_HTTP_PORT": str(port)}
        compose = ["docker", "compose", "-p", project, "-f", str(ROOT / "compose.yaml")]

        def run(*args: str, timeout: float = 900) -> str:
            argv = [*compose, *args]
            done = subprocess.run(
                argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
            )
            if done.returncode != 0:
                raise CheckFailed(f"{' '.join(args)}:\n{(done.stdout + done.stderr)[-3000:]}")
            return done.stdout

        try:
            log(f"docker compose up -d --build (project {project}, proxy on port {port})")
            run("up", "-d", "--build")
            wait_compose_healthy(run)
            base = f"http://127.0.0.1:{port}"
            status, body = http_get(f"{base}/healthz")
            if status != 200:
                raise CheckFailed(f"/healthz through the proxy: {status} {body[:500]}")
            log(f"/healthz through the proxy: 200 {body[:200]}")

            def manage(*args: str) -> str:
                return run("exec", "-T", "web", "python", "manage.py", *args, timeout=120)

            play_hello(manage, base, base)
        finally:
            with contextlib.suppress(CheckFailed, subprocess.TimeoutExpired):
                run("down", "-v", "--remove-orphans", timeout=300)
    log("compose project removed")


def wait_compose_healthy(run: Callable[..., str]) -> None:
    """Until both web replicas, the worker and the clock report healthy; a failed release ends
    the wait at once."""
    deadline = time.monotonic() + 300
    rows: list[dict[str, Any]] = []
    while time.monotonic() < deadline:
        rows = []
        # One JSON object per line (newer compose) or one array (older).
        for line in run("ps", "-a", "--format", "json").splitlines():
            with contextlib.suppress(json.JSONDecodeError):
                row = json.loads(line)
                rows += row if isinstance(row, list) else [row]
        healthy = [r["Service"] for r in rows if r.get("Health") == "healthy"]
        if healthy.count("web") >= 2 and {"worker", "clock"} <= set(healthy):
            log("healthy: " + ", ".join(f"{r['Name']} {r.get('Status', '')}" for r in rows))
            return
        failed = [
            r
            for r in rows
            if r["Service"] == "release"
            and r.get("State") == "exited"
            and int(r.get("ExitCode", 0)) != 0
        ]
        if failed:
            raise CheckFailed(f"the release failed:\n{run('logs', 'release')[-3000:]}")
        time.sleep(3)
    states = {r.get("Name"): (r.get("State"), r.get("Health")) for r in rows}
    raise CheckFailed(f"not healthy in 300 s: {states}\n{run('logs', '--tail', '40')[-4000:]}")


def main(argv: list[str]) -> int:
    mode = argv[0] if argv else "auto"
    if mode == "auto":
        mode = "docker" if docker_available() else "systemd-like"
    try:
        if mode == "systemd-like":
            systemd_like()
        elif mode == "docker":
            if not docker_available():
                print("docker: no Docker daemon or compose plugin on this machine")
                return 3
            docker()
        else:
            print(__doc__)
            return 2
    except CheckFailed as failure:
        print(f"{mode}: FAILED: {failure}", flush=True)
        return 1
    print(f"{mode}: ok", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
