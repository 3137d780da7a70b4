"""How many tables one machine holds: K tables of four websocket clients playing whole rounds.

The whole production stack runs on loopback, started by this script: ``W`` uvicorn workers (each
its own port: a client that loses its worker reconnects to the next one), a Celery worker and the
clock (``manage.py clock``) kept running by the product's supervisor (config/supervisor.py), our
own ``redis-server`` (port 6391, no persistence: the machine's shared Redis is left alone) and the
PostgreSQL database ``queyou_load`` on 127.0.0.1:5432 (``QUEYOU_LOAD_PG`` overrides host:port;
created here). Settings are
the production ones (``DEBUG=0``, manifest static files, axes, real password hasher) except
``SECURE_SSL=0`` (no TLS on loopback).

Each client signs in, connects to ``/ws/table/<room>/`` with its session cookie (the tables arrive
spread over the first half of the warm-up, not all in one instant), sends ``hello``
and then only reacts to what the server sends: it picks one of its ``legal_actions`` after a
think time (uniform in ``[0.5, 1.5] × --think`` seconds), sends ``ready`` when a round is over,
resyncs when an event's ``prev_seq`` is not the last seq it holds, and reconnects (to the next
worker) with ``hello {round_id, last_seq}`` when its socket drops. Every message received is
audited for what its seat may not see (the same structural checks as
``tests/tables/test_consumers.py``).

Sign-in: the first table's four players sign in through the real login form (CSRF, axes and the
production PBKDF2 hasher, about 0.3 s of CPU each); the others get their session row written
directly (what ``login()`` writes), because 4 × K password checks would spend minutes of the
two cores before the measurement even starts.

Latency of an action = from its send to the moment the LAST of the table's four sockets has
received the ``decision`` that follows its events (the event itself arrives in the same batch,
just before). Actions that change no event (a pass that does not close a claim window) send
nothing to anyone and are counted apart ("silent"). The floor: the same clients against a bare
Channels consumer that relays each message to the four sockets of its group through the same
Redis channel layer, same workers, same pace.

    .venv/bin/python bench/ws_load.py run --tables 50 --seconds 60      # one point
    .venv/bin/python bench/ws_load.py sweep --tables 25,50,100,200,300  # points + floor + report
    .venv/bin/python bench/ws_load.py report                            # rewrite the .md and .svg

Bounded: every run stops after ``--seconds`` (plus a 20 s drain at most); every connection and
request has a timeout; only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import json
import logging
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BASE_DIR = Path(__file__).resolve().parent.parent
BENCH_DIR = BASE_DIR / "bench"
VAR_DIR = BASE_DIR / "var" / "load"
RESULTS_JSON = VAR_DIR / "results.json"
RESULTS_MD = BENCH_DIR / "results" / "ws_load.md"
PLOT_SVG = BASE_DIR / "docs" / "img" / "latency_vs_tables.svg"
PY = sys.executable
HOST = "127.0.0.1"
DB_NAME = os.environ.get("QUEYOU_LOAD_DB", "queyou_load")
"""The PostgreSQL database of the stack (created here; ``QUEYOU_LOAD_DB`` overrides it)."""
PG = os.environ.get("QUEYOU_LOAD_PG", "127.0.0.1:5432")
"""host:port of the PostgreSQL the stack uses (bench/faults.py runs a private one)."""
REDIS_PORT = int(os.environ.get("QUEYOU_LOAD_REDIS_PORT", "6391"))
FIRST_PORT = int(os.environ.get("QUEYOU_LOAD_PORT", "8111"))
"""The first worker's port (``QUEYOU_LOAD_PORT``); worker i listens on FIRST_PORT + i."""
PASSWORD = "load-test-password-7731"
SECRET = "load-bench-secret-key-not-for-production-0123456789abcdefghijklmnop"
TABLE_PREFIX = "load-"


def log(message: str) -> None:
    print(f"[ws_load {time.strftime('%H:%M:%S', time.gmtime())}] {message}", flush=True)


# --- the stack --------------------------------------------------------------------------------


def server_env(*, db_name: str = DB_NAME, redis_port: int = REDIS_PORT) -> dict[str, str]:
    """Production settings on loopback (no TLS); the same for servers, Celery and our setup."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env.pop("QUEYOU_TESTING", None)
    env.update(
        DEBUG="0",
        SECURE_SSL="0",
        SECRET_KEY=SECRET,
        ALLOWED_HOSTS="127.0.0.1,localhost",
        DATABASE_URL=f"postgres://root@{PG}/{db_name}",
        REDIS_URL=f"redis://127.0.0.1:{redis_port}/0",
        LOG_LEVEL="WARNING",
        DJANGO_SETTINGS_MODULE="config.settings",
        AXES_FAILURE_LIMIT="1000",
    )
    return env


def port_open(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection((HOST, port), timeout=0.3):
        return True
    return False


def wait_port(port: int, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if port_open(port):
            return
        time.sleep(0.05)
    raise SystemExit(f"nothing answers on {HOST}:{port} after {seconds:.0f} s")


def ensure_database(db_name: str = DB_NAME) -> None:
    import psycopg

    with psycopg.connect(f"postgresql://root@{PG}/postgres", autocommit=True) as conn:
        found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (db_name,)).fetchone()
        if not found:
            conn.execute(f'CREATE DATABASE "{db_name}"')
            log(f"created database {db_name}")


def vm_hwm_kib(pid: int) -> int:
    """Peak resident memory of a process (``VmHWM``), 0 if it is gone."""
    with contextlib.suppress(OSError):
        found = re.search(r"VmHWM:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text())
        return int(found.group(1)) if found else 0
    return 0


def children_of(pid: int) -> list[int]:
    with contextlib.suppress(OSError):
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
        return [int(p) for p in text.split()]
    return []


@dataclass
class Stack:
    """The server processes of one measurement; ``stop()`` ends exactly these."""

    workers: int = 2
    app: str = "config.asgi:application"
    factory: bool = False
    celery: bool = True
    db_name: str = DB_NAME
    redis_port: int = REDIS_PORT
    first_port: int = FIRST_PORT
    procs: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    supervisor: Any = None
    supervisor_stop: Any = None
    supervisor_thread: Any = None

    @property
    def ports(self) -> list[int]:
        return [self.first_port + i for i in range(self.workers)]

    conn_max_age: int = 0

    def env(self) -> dict[str, str]:
        env = server_env(db_name=self.db_name, redis_port=self.redis_port)
        if self.conn_max_age:
            # An experiment, not the product: persistent database connections (the production
            # settings close each connection after every request / database_sync_to_async call).
            VAR_DIR.mkdir(parents=True, exist_ok=True)
            (VAR_DIR / "load_settings.py").write_text(
                "from config.settings import *  # noqa: F403\n"
                f'DATABASES["default"]["CONN_MAX_AGE"] = {self.conn_max_age}  # noqa: F405\n'
                'DATABASES["default"]["CONN_HEALTH_CHECKS"] = True  # noqa: F405\n'
            )
            env["PYTHONPATH"] = f"{VAR_DIR}:{BASE_DIR}"
            env["DJANGO_SETTINGS_MODULE"] = "load_settings"
        return env

    def start_redis(self) -> None:
        if port_open(self.redis_port):
            raise SystemExit(f"port {self.redis_port} is busy: stop the Redis there first")
        redis_dir = VAR_DIR / f"redis-{self.redis_port}"
        redis_dir.mkdir(parents=True, exist_ok=True)
        binary = shutil.which("redis-server") or "redis-server"
        args = [binary, "--port", str(self.redis_port), "--bind", HOST, "--save", ""]
        args += ["--appendonly", "no", "--dir", str(redis_dir), "--logfile", "redis.log"]
        self.procs["redis"] = subprocess.Popen(args)
        wait_port(self.redis_port)

    def start_worker(self, index: int) -> None:
        port = self.ports[index]
        args = [PY, "-m", "uvicorn", self.app, "--host", HOST, "--port", str(port)]
        args += ["--loop", "uvloop", "--ws", "websockets", "--lifespan", "off"]
        args += ["--log-level", "warning", "--no-access-log"]
        if self.factory:
            args += ["--factory", "--app-dir", str(BENCH_DIR)]
        self.procs[f"asgi-{index}"] = subprocess.Popen(args, cwd=BASE_DIR, env=self.env())
        wait_port(port)

    def start_celery(self) -> None:
        """The Celery worker and the clock, kept running (restarted when they die or their
        heartbeat goes stale) by the product's own supervisor, in a thread of this process."""
        import threading

        sys.path.insert(0, str(BASE_DIR))
        from config.launcher import heartbeat_reader
        from config.supervisor import Program, Supervisor

        env = self.env()
        worker = [PY, "-m", "celery", "-A", "config", "worker", "--concurrency", "1"]
        worker += ["--loglevel", "WARNING", "--without-heartbeat", "--without-gossip"]
        worker += ["--without-mingle"]
        programs = [
            Program(
                "celery",
                worker,
                cwd=BASE_DIR,
                env=env,
                heartbeat="worker",
                heartbeat_needs="clock",
                stale_after_s=60,
            ),
            Program(
                "clock",
                [PY, "manage.py", "clock"],
                cwd=BASE_DIR,
                env=env,
                heartbeat="clock",
                stale_after_s=30,
            ),
        ]
        reader = heartbeat_reader(env["REDIS_URL"], env.get("REDIS_KEY_PREFIX", "queyou"))
        self.supervisor = Supervisor(programs, log=log, heartbeat_age=reader)
        self.supervisor_stop = threading.Event()
        self.supervisor_thread = threading.Thread(
            target=self.supervisor.run, args=(self.supervisor_stop,), kwargs={"tick_s": 0.2}
        )
        self.supervisor_thread.start()

    def program(self, name: str) -> Any:
        """A supervised program (``celery``, ``clock``) by name."""
        return next(p for p in self.supervisor.programs if p.name == name)

    def pid_of(self, name: str) -> int | None:
        if name in self.procs:
            return self.procs[name].pid
        process = self.program(name).process
        return None if process is None else int(process.pid)

    def start(self) -> None:
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        self.start_redis()
        for index in range(self.workers):
            self.start_worker(index)
        if self.celery:
            self.start_celery()
        time.sleep(1.0)

    def kill(self, name: str, sig: int = signal.SIGKILL) -> int:
        """Send ``sig`` to one of our processes (kill -9 by default); its pid. A supervised
        program comes back by itself (that is what the fault scenarios check)."""
        if name not in self.procs:
            pid = self.pid_of(name)
            assert pid is not None, f"{name} is not running"
            os.kill(pid, sig)
            return pid
        proc = self.procs[name]
        proc.send_signal(sig)
        proc.wait(timeout=30)
        return proc.pid

    def peak_memory(self) -> dict[str, int]:
        """VmHWM (KiB) of each server process still running, Celery's pool children included."""
        out: dict[str, int] = {}
        running = dict(self.procs)
        if self.supervisor is not None:
            running.update({p.name: p.process for p in self.supervisor.programs if p.process})
        for name, proc in running.items():
            if proc.poll() is None:
                out[name] = vm_hwm_kib(proc.pid)
                for n, child in enumerate(children_of(proc.pid)):
                    out[f"{name}-child{n}"] = vm_hwm_kib(child)
        return out

    def stop(self) -> None:
        """SIGTERM (then SIGKILL after 15 s) to the clients of Redis first, Redis last."""
        if self.supervisor is not None:
            self.supervisor_stop.set()  # its thread stops the programs and ends
            self.supervisor_thread.join(timeout=60)
        redis = self.procs.get("redis")
        others = [p for p in self.procs.values() if p is not redis]
        # Celery's pool and embedded beat can outlive a main process that died first: end them.
        children = [c for p in others if p.poll() is None for c in children_of(p.pid)]
        for group in (others, [redis] if redis is not None else []):
            for proc in group:
                if proc.poll() is None:
                    proc.send_signal(signal.SIGTERM)
            for proc in group:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=15)
                if proc.poll() is None:
                    proc.kill()
                    proc.wait(timeout=5)
            for pid in children if group is others else []:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)


def postgres_backends_peak(db_name: str = DB_NAME) -> tuple[int, int]:
    """(number of backends on ``db_name``, the largest VmHWM among them in KiB)."""
    import psycopg

    with psycopg.connect(f"postgresql://root@{PG}/{db_name}", autocommit=True) as conn:
        pids = [
            r[0]
            for r in conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                (db_name,),
            ).fetchall()
        ]
    return len(pids), max((vm_hwm_kib(p) for p in pids), default=0)


# --- setup: users, clubs, rooms, seats, sessions (Django ORM, same settings as the servers) --


def django_setup(env: dict[str, str]) -> None:
    for key in ("DEBUG", "SECURE_SSL", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL"):
        os.environ[key] = env[key]
    for key in ("REDIS_URL", "LOG_LEVEL", "DJANGO_SETTINGS_MODULE", "AXES_FAILURE_LIMIT"):
        os.environ[key] = env[key]
    sys.path.insert(0, str(BASE_DIR))
    import django

    django.setup()


def migrate(env: dict[str, str]) -> None:
    run = subprocess.run
    run([PY, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=BASE_DIR, env=env, check=True)
    args = [PY, "manage.py", "collectstatic", "--noinput", "-v", "0"]
    run(args, cwd=BASE_DIR, env=env, check=True)


@dataclass(frozen=True)
class Player:
    table: int
    room_id: int
    seat: int
    username: str
    session: str


def prepare_tables(count: int, *, variant: str = "changchun", first: int = 0) -> list[list[Player]]:
    """``count`` rooms of four seated players (made once, reused by later runs); a fresh session
    for each player. Call after :func:`django_setup`."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.hashers import make_password
    from django.contrib.sessions.backends.db import SessionStore

    from accounts import services as account_services
    from accounts.models import Membership, User
    from tables import rooms
    from tables.models import Room, Seat

    # The stack may not run yet: seat changes' notifications would log a Redis error each.
    logging.getLogger("tables.notify").setLevel(logging.CRITICAL)
    hashed = make_password(PASSWORD)  # one hash for all: the hasher runs once, not 4 × K times
    tables: list[list[Player]] = []
    for t in range(first, first + count):
        name = f"{TABLE_PREFIX}{variant}-{t:04d}"
        room = Room.objects.filter(name=name).select_related("club").first()
        users = []
        for s in range(4):
            user, _ = User.objects.get_or_create(
                username=f"load{variant[:2]}{t:04d}s{s}",
                defaults={"password": hashed, "email": f"load{t}s{s}@example.com"},
            )
            users.append(user)
        if room is None:
            club = account_services.club_create(owner=users[0], name=f"load club {t}")
            for user in users[1:]:
                Membership.objects.create(club=club, user=user)
            room = rooms.room_create(
                user=users[0], club=club, name=name, variant=variant, allow_bots=False
            )
        for s, user in enumerate(users):
            if not Seat.objects.filter(room=room, user=user, index=s).exists():
                rooms.seat_take(room=room, user=user, index=s)
        players = []
        for s, user in enumerate(users):
            store = SessionStore()
            store[SESSION_KEY] = str(user.pk)
            store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            store[HASH_SESSION_KEY] = user.get_session_auth_hash()
            store.create()
            players.append(Player(t, room.pk, s, user.username, str(store.session_key)))
        tables.append(players)
    logging.getLogger("tables.notify").setLevel(logging.NOTSET)
    return tables


def reseat_tables(tables: list[list[Player]]) -> None:
    """Seat again every player of ``tables`` whose seat was freed since :func:`prepare_tables`
    (the clock's absent-seat sweep between points); a seat still held is left alone."""
    from accounts.models import User
    from tables import rooms
    from tables.models import Room, Seat

    logging.getLogger("tables.notify").setLevel(logging.CRITICAL)  # the stack is not up
    reseated = 0
    for players in tables:
        room = Room.objects.get(pk=players[0].room_id)
        held = dict(Seat.objects.filter(room=room).values_list("index", "user__username"))
        for p in players:
            if held.get(p.seat) != p.username:
                user = User.objects.get(username=p.username)
                Seat.objects.filter(room=room, user=user).exclude(index=p.seat).delete()
                rooms.seat_take(room=room, user=user, index=p.seat)
                reseated += 1
    logging.getLogger("tables.notify").setLevel(logging.NOTSET)
    if reseated:
        log(f"{reseated} seats freed by the absent-seat clock taken again")


def sign_in_over_http(port: int, username: str) -> str:
    """The real login form (GET for the CSRF token, POST the password); the session id."""
    import requests

    base = f"http://{HOST}:{port}"
    with requests.Session() as http:
        page = http.get(f"{base}/accounts/login/", timeout=10)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
        if page.status_code != 200 or token is None:
            raise RuntimeError(f"login page: HTTP {page.status_code}")
        answer = http.post(
            f"{base}/accounts/login/",
            data={"username": username, "password": PASSWORD, "csrfmiddlewaretoken": token[1]},
            headers={"Referer": f"{base}/accounts/login/"},
            timeout=30,
            allow_redirects=False,
        )
        session = http.cookies.get("sessionid")
        if answer.status_code != 302 or not session:
            raise RuntimeError(f"login of {username}: HTTP {answer.status_code}")
        return str(session)


# --- the audit: what a seat may never see before the round is over ----------------------------


def _walk(value: Any, path: str = "$") -> Any:
    if isinstance(value, dict):
        for key, item in value.items():
            yield f"{path}.{key}", key
            yield from _walk(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _walk(item, f"{path}[{i}]")
    else:
        yield path, value


def leaks(message: dict[str, Any], viewer: int | None) -> list[str]:
    """Structural check of one message for ``viewer`` (docs/protocol.md, *What a viewer never
    gets*): another seat's concealed tiles, draws or deal, the wall, the salt, the seed before the
    end, an unseen treasure, a claim window's asked seats, another seat's legal actions."""
    found: list[str] = []
    previous = message.get("previous")
    if isinstance(previous, dict) and previous.get("status") == "ended":
        # A snapshot's round before (its settlement): ended, so its wall and salt are public.
        message = {key: value for key, value in message.items() if key != "previous"}
    kind = message.get("type")
    ended = (
        message.get("status") in ("ended", "aborted")
        or message.get("phase") == "ended"
        or (kind == "event" and message["event"].get("kind") == "round_ended")
    )
    if ended:
        return found
    for path, value in _walk(message):
        if value in ("wall", "salt") or (value == "seed" and message.get("seed") is not None):
            found.append(f"{path}: {value}")
    view = message.get("view") or (message.get("decision") or {}).get("view")
    if view is not None:
        for seat in view["seats"]:
            if seat["seat"] != viewer and {"concealed", "drawn", "waits"} & set(seat):
                found.append(f"seat {seat['seat']} hand shown to {viewer}")
        treasure = view.get("treasure")
        sees = viewer is not None and view["seats"][viewer]["ting"]
        if treasure and "tile" in treasure and not sees:
            found.append(f"treasure shown to {viewer}")
    decision = message if kind == "decision" else message.get("decision")
    if decision:
        for action in decision.get("legal_actions", []):
            if action.get("seat") != viewer:
                found.append(f"an action of seat {action.get('seat')} offered to {viewer}")
    if kind == "event":
        event = message["event"]
        owner = event.get("seat")
        others = owner != viewer
        meld = event.get("meld", {})
        hidden = {
            "draw": others and "tile" in event,
            "dealt": others and "tiles" in event,
            "claim_answered": True,  # answers are not events any more
            "treasure_seen": others and "tile" in event,
            "claim_window": "asked" in event,
            "meld": others and "tiles" in meld and meld.get("concealed"),
            "discard": others and event.get("face_down") and "tile" in event,
        }
        if hidden.get(event.get("kind")):
            found.append(f"{event.get('kind')} of seat {owner} shown to {viewer}")
    return found


# --- the clients ------------------------------------------------------------------------------


@dataclass
class Stats:
    """Everything the clients of one run record (one process, one clock)."""

    sent: list[tuple[int, int, float, str]] = field(default_factory=list)  # table, seat, t, cid
    acks: dict[str, tuple[int, int, int]] = field(default_factory=dict)  # cid -> round, ver, seq
    decisions: dict[tuple[int, int, int], list[tuple[int, float]]] = field(default_factory=dict)
    first_seen: dict[tuple[int, int], float] = field(default_factory=dict)  # (round, seq) -> t
    errors: Counter[str] = field(default_factory=Counter)
    error_samples: list[str] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)
    resyncs: int = 0
    retried: int = 0
    idle_hellos: int = 0
    duplicates: int = 0
    reconnects: int = 0
    messages: int = 0
    rounds_ended: set[int] = field(default_factory=set)
    loop_lag: list[float] = field(default_factory=list)

    def error(self, code: str, detail: str) -> None:
        self.errors[code] += 1
        if len(self.error_samples) < 20:
            self.error_samples.append(f"{code}: {detail[:300]}")


def choose(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A plausible player: take a win, usually let a discard go, discard at random otherwise
    (declaring ting when the discard allows it), now and then a kong or a claim."""
    wins = [a for a in legal if a["kind"] in ("self_draw_win", "declare_win")]
    if wins:
        return wins[0]
    passes = [a for a in legal if a["kind"] == "pass"]
    others = [a for a in legal if a["kind"] != "pass"]
    if passes and (not others or rng.random() < 0.8):
        return passes[0]
    discards = [a for a in others if a["kind"] == "discard"]
    if discards and rng.random() < 0.95:
        ting = [a for a in discards if a.get("ting")]
        return rng.choice(ting or discards)
    return rng.choice(others)


@dataclass
class SeatClient:
    """One player's browser tab, reduced to what the protocol needs."""

    player: Player
    ports: list[int]
    stats: Stats
    think: float
    deadline: float
    rng: random.Random
    port_index: int = 0
    round_id: int | None = None
    last_seq: int = 0
    acted_version: int = -1
    ready_for: tuple[int | None, str] | None = None
    pending: asyncio.Task[None] | None = None
    floor: bool = False
    ws: Any = None
    serial: int = 0
    stopped: bool = False
    in_flight: dict[str, Any] | None = None
    last_sent: float = 0.0
    act_until: float = float("inf")

    @property
    def url(self) -> str:
        port = self.ports[self.port_index % len(self.ports)]
        path = "floor" if self.floor else "table"
        return f"ws://{HOST}:{port}/ws/{path}/{self.player.room_id}/"

    start_delay: float = 0.0

    async def run(self) -> None:
        from websockets.asyncio.client import connect

        await asyncio.sleep(self.start_delay)  # players arrive over the warm-up, not at once
        attempts = 0
        while time.perf_counter() < self.deadline and not self.stopped:
            port = self.ports[self.port_index % len(self.ports)]
            # The page the socket belongs to: same scheme, host and port (the Origin check).
            origin = f"http://{HOST}:{port}"
            headers = {"Cookie": f"sessionid={self.player.session}", "Origin": origin}
            try:
                async with connect(
                    self.url,
                    additional_headers=headers,
                    open_timeout=20,
                    close_timeout=2,
                    max_size=2**22,
                    ping_interval=None,
                ) as ws:
                    self.ws = ws
                    attempts = 0
                    await self.on_open(ws)
                    idle = asyncio.get_running_loop().create_task(self.idle_hello(ws))
                    try:
                        async for raw in ws:
                            self.on_message(json.loads(raw))
                            if time.perf_counter() >= self.deadline:
                                break
                    finally:
                        idle.cancel()
                    if time.perf_counter() >= self.deadline or self.stopped:
                        return
                    self.stats.error("closed", f"{self.player.username} on {port}")
            except Exception as exc:  # any failure of the socket: count it, reconnect
                if time.perf_counter() >= self.deadline or self.stopped:
                    return
                self.stats.error("connection", f"{self.player.username} on {port}: {exc!r}")
            finally:
                self.ws = None
            attempts += 1
            self.stats.reconnects += 1
            self.port_index += 1  # another worker: the one we had may be gone
            await asyncio.sleep(min(2.0, 0.1 * attempts))

    def hello(self) -> dict[str, Any]:
        hello: dict[str, Any] = {"type": "hello"}
        if self.round_id is not None:
            hello.update(round_id=self.round_id, last_seq=self.last_seq)
        return hello

    async def idle_hello(self, ws: Any) -> None:
        """As static/tables/table.js: ``hello`` when nothing was sent for 15 s (checked every
        5 s), the backstop for a lost notification (docs/protocol.md)."""
        if self.floor:
            return
        while True:
            await asyncio.sleep(5.0)
            if time.perf_counter() - self.last_sent > 15.0:
                self.last_sent = time.perf_counter()
                self.stats.idle_hellos += 1
                await ws.send(json.dumps(self.hello()))

    async def on_open(self, ws: Any) -> None:
        if self.floor:
            return
        self.last_sent = time.perf_counter()
        await ws.send(json.dumps(self.hello()))
        if self.in_flight is not None:
            # Sent before the socket died, no answer: send it again with the same id. The
            # server applies it once (a duplicate is acked with "duplicate": true).
            self.stats.retried += 1
            await ws.send(json.dumps(self.in_flight))

    def send_later(self, message: dict[str, Any], delay: float) -> None:
        if self.pending is not None and not self.pending.done():
            self.pending.cancel()
        self.pending = asyncio.get_running_loop().create_task(self._send_after(message, delay))

    async def _send_after(self, message: dict[str, Any], delay: float) -> None:
        await asyncio.sleep(delay)
        ws = self.ws
        if ws is None or time.perf_counter() >= self.deadline:
            return
        if message.get("type") == "action":
            if time.perf_counter() >= self.act_until:
                return
            self.in_flight = message
            self.stats.sent.append(
                (
                    self.player.table,
                    self.player.seat,
                    time.perf_counter(),
                    message["client_action_id"],
                )
            )
        self.last_sent = time.perf_counter()
        with contextlib.suppress(Exception):
            await ws.send(json.dumps(message))

    def think_time(self) -> float:
        return self.think * self.rng.uniform(0.5, 1.5)

    def on_message(self, message: dict[str, Any]) -> None:
        now = time.perf_counter()
        stats = self.stats
        stats.messages += 1
        if self.floor:
            self.on_floor(message, now)
            return
        found = leaks(message, self.player.seat)
        if found:
            stats.leaks.extend(f"{self.player.username}: {f}" for f in found)
        kind = message.get("type")
        if kind == "table":
            self.on_table(message)
        elif kind == "snapshot":
            self.round_id, self.last_seq = message["round_id"], message["seq"]
            self.on_decision(message["decision"], now, status=message["status"])
        elif kind == "event":
            self.on_event(message, now)
        elif kind == "decision":
            self.on_decision(message, now, status=message["status"])
        elif kind == "ack":
            if self.in_flight and self.in_flight["client_action_id"] == message["client_action_id"]:
                self.in_flight = None
            stats.duplicates += bool(message.get("duplicate"))
            stats.acks[message["client_action_id"]] = (
                self.round_id or 0,
                message["version"],
                message["seq"],
            )
        elif kind == "error":
            if self.in_flight and self.in_flight["client_action_id"] == message.get(
                "client_action_id"
            ):
                self.in_flight = None
            stats.error(message.get("code", "?"), json.dumps(message, ensure_ascii=False))

    def on_table(self, message: dict[str, Any]) -> None:
        seat = (message.get("seats") or [None] * 4)[self.player.seat]
        if seat is not None and seat["auto_play"]:
            self.send_later({"type": "back"}, 0.0)  # 托管 after timeouts: "I'm back"
        if message.get("match") is None and seat is not None and not seat["ready"]:
            key = (None, "no-match")
            if self.ready_for != key:
                self.ready_for = key
                self.send_later({"type": "ready"}, self.think_time())

    def on_event(self, message: dict[str, Any], now: float) -> None:
        round_id, seq = message["round_id"], message["seq"]
        self.stats.first_seen.setdefault((round_id, seq), now)
        if round_id != self.round_id or message["prev_seq"] != self.last_seq:
            self.stats.resyncs += 1
            self.send_later({"type": "resync"}, 0.0)
            return
        self.last_seq = seq

    def on_decision(self, decision: dict[str, Any], now: float, *, status: str) -> None:
        round_id, version = decision["round_id"], decision["version"]
        self.round_id = round_id
        key = (self.player.table, self.player.seat, round_id)
        self.stats.decisions.setdefault(key, []).append((version, now))
        if status != "playing":
            self.stats.rounds_ended.add(round_id)
            if self.ready_for != (round_id, status):
                self.ready_for = (round_id, status)
                self.send_later({"type": "ready"}, self.think_time())
            return
        legal = [
            {k: v for k, v in a.items() if k != "seat"} for a in decision.get("legal_actions", [])
        ]
        if not legal or version <= self.acted_version:
            return
        self.acted_version = version
        self.serial += 1
        cid = f"{RUN_ID}-t{self.player.table}s{self.player.seat}-{self.serial}"
        action = {
            "type": "action",
            "client_action_id": cid,
            "round_id": round_id,
            "version": version,
            "action": choose(legal, self.rng),
        }
        self.send_later(action, self.think_time())

    # --- floor: a bare relay of one message to the four sockets of a group ----------------------

    def on_floor(self, message: dict[str, Any], now: float) -> None:
        stats = self.stats
        key = (self.player.table, self.player.seat, 0)
        stats.decisions.setdefault(key, []).append((int(message["n"]), now))
        if message["from"] == self.player.seat:
            return
        # The next seat round the table "moves" after a think time, like a turn.
        if (message["from"] + 1) % 4 == self.player.seat:
            self.floor_move(int(message["n"]) + 1)

    def floor_move(self, n: int) -> None:
        cid = f"f{self.player.table}-{n}"
        self.stats.acks[cid] = (0, n, n)
        self.send_later(
            {"type": "action", "client_action_id": cid, "n": n, "from": self.player.seat},
            self.think_time(),
        )


async def loop_lag_probe(stats: Stats, deadline: float) -> None:
    """How late the client's event loop wakes up: the harness's own share of every latency."""
    while time.perf_counter() < deadline:
        start = time.perf_counter()
        await asyncio.sleep(0.05)
        stats.loop_lag.append(time.perf_counter() - start - 0.05)


async def play(
    tables: list[list[Player]],
    ports: list[int],
    *,
    seconds: float,
    think: float,
    seed: int,
    floor: bool = False,
    ramp: float = 0.0,
) -> Stats:
    stats = Stats()
    deadline = time.perf_counter() + seconds
    rng = random.Random(seed)
    clients = []
    for t, players in enumerate(tables):
        for player in players:
            clients.append(
                SeatClient(
                    player=player,
                    ports=ports,
                    stats=stats,
                    think=think,
                    deadline=deadline,
                    rng=random.Random(rng.random()),
                    port_index=t,
                    floor=floor,
                    start_delay=ramp * t / max(1, len(tables)),
                )
            )
    tasks = [asyncio.create_task(c.run()) for c in clients]
    probe = asyncio.create_task(loop_lag_probe(stats, deadline))
    if floor:
        await asyncio.sleep(ramp + 2.0)  # all four of every table joined their group
        for t in range(len(tables)):
            clients[4 * t].floor_move(1)
    # A client only notices the deadline when a message arrives: stop them all 3 s after it.
    await asyncio.wait([*tasks, probe], timeout=seconds + 3)
    for c in clients:
        c.stopped = True
        if c.ws is not None:
            with contextlib.suppress(Exception):
                await c.ws.close()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return stats


# --- analysis ----------------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def latencies(stats: Stats, *, warmup: float, start: float) -> tuple[list[float], int, int]:
    """(latency of each measured action in ms, silent actions, actions never delivered)."""
    index = {k: ([v for v, _ in rows], [t for _, t in rows]) for k, rows in stats.decisions.items()}
    out: list[float] = []
    silent = undelivered = 0
    for table, _seat, t_send, cid in stats.sent:
        ack = stats.acks.get(cid)
        if ack is None or t_send < start + warmup:
            continue
        round_id, version, seq = ack
        first = stats.first_seen.get((round_id, seq))
        if round_id and (first is None or first < t_send):
            silent += 1  # a pass inside a claim window: no event, nothing sent to anyone
            continue
        worst = 0.0
        for seat in range(4):
            versions, times = index.get((table, seat, round_id), ([], []))
            i = bisect.bisect_left(versions, version)
            while i < len(versions) and times[i] < t_send:
                i += 1
            if i == len(versions):
                worst = -1.0
                break
            worst = max(worst, times[i] - t_send)
        if worst < 0:
            undelivered += 1
        else:
            out.append(worst * 1000)
    return out, silent, undelivered


def summarise(
    stats: Stats, *, tables: int, seconds: float, warmup: float, start: float
) -> dict[str, Any]:
    lat, silent, undelivered = latencies(stats, warmup=warmup, start=start)
    acked = sum(1 for _, _, t, cid in stats.sent if cid in stats.acks and t >= start + warmup)
    return {
        "tables": tables,
        "clients": 4 * tables,
        "seconds": seconds,
        "warmup": warmup,
        "actions_acked": acked,
        "actions_per_s": acked / max(1e-9, seconds - warmup),
        "measured": len(lat),
        "silent": silent,
        "undelivered": undelivered,
        "p50_ms": percentile(lat, 50),
        "p95_ms": percentile(lat, 95),
        "p99_ms": percentile(lat, 99),
        "max_ms": max(lat) if lat else float("nan"),
        "mean_ms": statistics.fmean(lat) if lat else float("nan"),
        "errors": dict(stats.errors),
        "error_samples": stats.error_samples,
        "leaks": len(stats.leaks),
        "leak_samples": stats.leaks[:10],
        "resyncs": stats.resyncs,
        "retried": stats.retried,
        "idle_hellos": stats.idle_hellos,
        "duplicates": stats.duplicates,
        "reconnects": stats.reconnects,
        "messages": stats.messages,
        "rounds_ended": len(stats.rounds_ended),
        "client_loop_lag_p99_ms": percentile(stats.loop_lag, 99) * 1000,
    }


def save_result(result: dict[str, Any]) -> None:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    results = json.loads(RESULTS_JSON.read_text()) if RESULTS_JSON.exists() else []
    results.append(result)
    RESULTS_JSON.write_text(json.dumps(results, indent=1))


# --- commands ----------------------------------------------------------------------------------


def measure(args: argparse.Namespace, count: int, *, floor: bool) -> dict[str, Any]:
    """One point: start the stack, play ``count`` tables for ``args.seconds``, stop the stack."""
    if floor:
        stack = Stack(workers=args.workers, app="ws_load:floor_application", factory=True)
        stack.celery = False
    else:
        stack = Stack(workers=args.workers, conn_max_age=args.conn_max_age)
    tables = ALL_TABLES[:count]
    if not floor:
        # The points before this one (and their floors) left these seats absent for minutes:
        # the clock frees a seat absent for ``TABLES_FREE_ABSENT_SEAT_S`` when no match is in
        # play, and every ``ready`` would then be answered ``not_seated`` (nothing measured).
        reset_load_rooms()
        reseat_tables(tables)
    # Every table starts a new match (connect, four readies, a deal): a burst of seat changes
    # that is not the steady play measured here. The warm-up (not measured) grows with the
    # tables, so that the last table has been dealt before the measured window opens.
    warmup = args.warmup + args.warmup_per_table * count
    seconds = args.seconds + args.warmup_per_table * count
    load_before = Path("/proc/loadavg").read_text().split()[:3]
    stack.start()
    try:
        sign_in_error = ""
        if not floor:
            try:
                sessions = {
                    p.username: sign_in_over_http(stack.ports[0], p.username) for p in tables[0]
                }
                tables[0] = [
                    Player(p.table, p.room_id, p.seat, p.username, sessions[p.username])
                    for p in tables[0]
                ]
            except RuntimeError as exc:  # reported with the run; the direct sessions are used
                sign_in_error = str(exc)
                log(f"sign-in over HTTP failed: {exc}")
        log(f"{'floor' if floor else 'queyou'}: {count} tables, {4 * count} sockets")
        profiler = (
            start_profiler(stack, count, floor, warmup=warmup, seconds=seconds)
            if args.profile
            else None
        )
        start = time.perf_counter()
        stats = asyncio.run(
            play(
                tables,
                stack.ports,
                seconds=seconds,
                think=args.think,
                seed=args.seed,
                floor=floor,
                ramp=warmup / 2,
            )
        )
        load_after = Path("/proc/loadavg").read_text().split()[:3]
        result = summarise(stats, tables=count, seconds=seconds, warmup=warmup, start=start)
        result["memory_kib"] = stack.peak_memory()
        if sign_in_error:
            result["errors"]["sign_in"] = 1
            result["error_samples"].insert(0, sign_in_error)
        if profiler is not None:
            profiler.wait(timeout=60)
        if not floor:
            result["postgres_backends"], result["postgres_backend_peak_kib"] = (
                postgres_backends_peak()
            )
    finally:
        stack.stop()
    result.update(
        kind="floor" if floor else ("queyou" if not args.conn_max_age else "queyou-persistent-db"),
        label=args.label,
        workers=args.workers,
        think=args.think,
        loadavg_before=load_before,
        loadavg_after=load_after,
        at=time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        command=" ".join(["bench/ws_load.py", *sys.argv[1:]]),
    )
    log(
        f"{result['kind']} K={count}: {result['actions_per_s']:.0f} actions/s, "
        f"p50 {result['p50_ms']:.1f} p95 {result['p95_ms']:.1f} p99 {result['p99_ms']:.1f} "
        f"max {result['max_ms']:.1f} ms, errors {result['errors']}, leaks {result['leaks']}, "
        f"resyncs {result['resyncs']}, load {load_after}"
    )
    save_result(result)
    return result


ALL_TABLES: list[list[Player]] = []
RUN_ID = f"r{int(time.time()) % 100000:05d}"
"""In every ``client_action_id``: a retried id is answered with its first outcome (protocol.md),
so ids must not repeat across runs that resume the same round."""


def profile_path(count: int, floor: bool) -> Path:
    return VAR_DIR / f"profile-{'floor' if floor else 'queyou'}-{count}.txt"


def start_profiler(
    stack: Stack, count: int, floor: bool, *, warmup: float, seconds: float
) -> subprocess.Popen[bytes]:
    """py-spy (bench/requirements.txt) samples ASGI worker 0 for the measured part of the run."""
    spy = str(Path(PY).parent / "py-spy")
    pid = stack.procs["asgi-0"].pid
    duration = max(1, int(seconds - warmup))
    out = profile_path(count, floor)
    cmd = [spy, "record", "-p", str(pid), "-d", str(duration), "-r", "100", "--format", "raw"]
    cmd += ["-o", str(out), "--nonblocking", "--threads"]
    return subprocess.Popen(
        ["sh", "-c", f"sleep {warmup}; exec " + " ".join(cmd)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def summarise_profile(path: Path, top: int = 25) -> str:
    """The functions (inclusive and self) that the sampled worker spent its time in."""
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack_text, _, n = line.rpartition(" ")
        if not n.isdigit():
            continue
        count = int(n)
        frames = stack_text.split(";")
        total += count
        for frame in set(frames):
            inclusive[frame] += count
        own[frames[-1]] += count
    lines = [f"{total} samples"]
    lines += [f"incl {100 * n / total:5.1f}%  {f}" for f, n in inclusive.most_common(top)]
    lines += [f"self {100 * n / total:5.1f}%  {f}" for f, n in own.most_common(top)]
    return "\n".join(lines)


def reset_load_rooms() -> None:
    """Every run starts from quiet rooms: the matches earlier runs left in play are ended (else
    their seats, 托管 after two timeouts, would play on in the background through the clock and
    the auto-play tasks, and race this run's players) and the seats' counters are cleared."""
    from django.utils import timezone

    from tables.models import Match, Round, Seat

    rooms = {"room__name__startswith": TABLE_PREFIX}
    now = timezone.now()
    Round.objects.filter(
        status=Round.Status.PLAYING, match__room__name__startswith=TABLE_PREFIX
    ).update(status=Round.Status.ABORTED, deadline=None, ended_at=now)
    Match.objects.filter(status=Match.Status.PLAYING, **rooms).update(
        status=Match.Status.FINISHED, ended_at=now, end_reason="bench_reset"
    )
    # ``absent_since`` cleared: a seat left absent by an earlier run (or by this run's smaller
    # points) would be freed by the clock's absent-seat sweep (``TABLES_FREE_ABSENT_SEAT_S``)
    # as soon as the stack starts.
    Seat.objects.filter(**rooms).update(
        ready=False, auto_play=False, consecutive_timeouts=0, connected=False, absent_since=None
    )
    from tables.models import Room

    Room.objects.filter(name__startswith=TABLE_PREFIX).update(status=Room.Status.OPEN)


def prepare(count: int) -> None:
    ensure_database()
    env = server_env()
    migrate(env)
    django_setup(env)
    reset_load_rooms()
    t0 = time.perf_counter()
    ALL_TABLES[:] = prepare_tables(count)
    log(f"{count} tables ready in {time.perf_counter() - t0:.1f} s")


def cmd_cost(args: argparse.Namespace) -> int:
    """Where a move's time goes, in one process: the action service, then the work one socket
    does for it (``tables.socket_services.socket_changes``: its queries, the redaction, the
    decision), and the price of a new PostgreSQL connection (production closes it after every
    database call)."""
    import cProfile
    import io
    import pstats

    stack = Stack(workers=0, celery=False)
    stack.start()  # Redis only: the after-commit notifications and task messages go somewhere
    try:
        prepare(0)
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        from accounts.models import User
        from tables import gameplay, rooms, selectors
        from tables.game import commands, store
        from tables.models import Room
        from tables.socket_services import socket_changes, socket_hello
        from tables.socket_stream import SocketStream
        from tests.tables.helpers import win_or_default

        (players,) = prepare_tables(1, first=950)
        room_id = players[0].room_id
        room_users = [User.objects.get(username=p.username) for p in players]
        room = Room.objects.get(pk=room_id)
        rooms.seat_leave(room=room, user=room_users[0])  # ends a match in play: a new round
        rooms.seat_take(room=room, user=room_users[0], index=0)
        for user in room_users:
            rooms.seat_set_ready(room=room, user=user)
        sockets = []
        for user in room_users:
            viewer = {"room_id": room_id, "user": user, "stream": SocketStream()}
            socket_hello(**viewer)  # as the socket's ``hello`` leaves its stream
            sockets.append(viewer)
        timings: dict[str, list[float]] = {"action": [], "socket update": [], "new connection": []}
        queries: dict[str, list[int]] = {"action": [], "socket update": []}
        profile = cProfile.Profile()
        for i in range(args.moves):
            rnd = selectors.current_round(room_id)
            if rnd is None or rnd.status != "playing":
                break
            state = store.load_state(rnd)
            seat = gameplay.deciders(state)[0]
            action = gameplay.action_json(win_or_default(state, seat))
            with CaptureQueriesContext(connection) as captured:
                start = time.perf_counter()
                commands.round_apply_action(
                    round_id=rnd.pk, seat=seat, action_json=action, client_action_id=f"{RUN_ID}c{i}"
                )
                timings["action"].append(time.perf_counter() - start)
            queries["action"].append(len(captured))
            for viewer in sockets:
                if i % 2:  # every other move under cProfile, the others timed without it
                    profile.runcall(socket_changes, **viewer)
                    continue
                with CaptureQueriesContext(connection) as captured:
                    start = time.perf_counter()
                    socket_changes(**viewer)
                    timings["socket update"].append(time.perf_counter() - start)
                queries["socket update"].append(len(captured))
            connection.close()
            start = time.perf_counter()
            with connection.cursor() as cursor:  # connect, as Channels does for each call
                cursor.execute("SELECT 1")
            timings["new connection"].append(time.perf_counter() - start)
        print(f"load average {Path('/proc/loadavg').read_text().split()[:3]}")
        for name, values in timings.items():
            q = f", {statistics.median(queries[name]):.0f} queries" if name in queries else ""
            print(
                f"{name}: median {1000 * statistics.median(values):.1f} ms, "
                f"p90 {1000 * percentile(values, 90):.1f} ms over {len(values)}{q}"
            )
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(25)
        print("\nsocket update, cProfile (cumulative):")
        print("\n".join(line for line in out.getvalue().splitlines() if line.strip())[:5000])
    finally:
        stack.stop()
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    counts = [int(k) for k in str(args.tables).split(",")]
    prepare(max(counts))
    for count in counts:
        if args.floor in ("both", "only"):
            measure(args, count, floor=True)
        if args.floor != "only":
            measure(args, count, floor=False)
    write_report()
    return 0


# --- report: markdown table and an SVG plot drawn by hand ---------------------------------------


def _fmt(value: float) -> str:
    return "—" if value != value else f"{value:.1f}"


BEFORE_LABEL = "before"
"""Runs of an earlier design kept to be plotted beside the main series (``--label before``)."""


def latest_points(
    label: str = "main",
) -> tuple[dict[int, dict[str, Any]], dict[int, dict[str, Any]]]:
    """The latest run of each table count of series ``label``: Queyou's and the floor's."""
    results = json.loads(RESULTS_JSON.read_text()) if RESULTS_JSON.exists() else []
    ours: dict[int, dict[str, Any]] = {}
    floor: dict[int, dict[str, Any]] = {}
    for r in results:
        if r.get("label", "main") != label:
            continue
        if r["kind"] in ("floor", "queyou"):
            (floor if r["kind"] == "floor" else ours)[r["tables"]] = r
    return ours, floor


def experiment_rows() -> list[str]:
    """Every run not in the main series (other workers, persistent connections, think time)."""
    results = json.loads(RESULTS_JSON.read_text()) if RESULTS_JSON.exists() else []
    rows = [
        "| label | kind | tables | workers | think s | actions/s | p50 ms | p99 ms | max ms "
        "| errors | leaks | loadavg before → after | at |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---|---|",
    ]
    for r in results:
        if r.get("label", "main") in ("main", BEFORE_LABEL):
            continue
        errors = ", ".join(f"{c} {n}" for c, n in r["errors"].items()) or "0"
        rows.append(
            f"| {r['label']} | {r['kind']} | {r['tables']} | {r['workers']} | {r['think']} "
            f"| {r['actions_per_s']:.0f} | {_fmt(r['p50_ms'])} | {_fmt(r['p99_ms'])} "
            f"| {_fmt(r['max_ms'])} | {errors} | {r['leaks']} "
            f"| {' '.join(r['loadavg_before'])} → {' '.join(r['loadavg_after'])} | {r['at']} |"
        )
    return rows if len(rows) > 2 else []


def verdict(ours: dict[int, dict[str, Any]], floor: dict[int, dict[str, Any]]) -> str:
    """The load targets, against the main series: p99 under 50 ms without errors and never over
    100 ms; p50 at most 3× the floor's."""
    lines = []
    broke = [k for k in sorted(ours) if not ours[k]["p99_ms"] <= 100]
    held = [k for k in sorted(ours) if ours[k]["p99_ms"] < 50 and not ours[k]["errors"]]
    lines.append(
        f"- p99 under 50 ms with no errors: up to {max(held)} tables"
        if held
        else "- p99 under 50 ms with no errors: at no measured table count"
    )
    lines.append(
        f"- p99 passes 100 ms at {broke[0]} tables" if broke else "- p99 stayed under 100 ms"
    )
    for k in sorted(ours):
        if k in floor and floor[k]["p50_ms"] == floor[k]["p50_ms"] and floor[k]["p50_ms"]:
            ratio = ours[k]["p50_ms"] / floor[k]["p50_ms"]
            lines.append(f"- {k} tables: p50 is {ratio:.1f}× the floor's (target ≤ 3×)")
    leaks = sum(r["leaks"] for r in ours.values())
    lines.append(f"- hidden-tile leaks over all runs: {leaks}")
    return "\n".join(lines)


def _measured(value: Any) -> bool:
    """A latency that can be drawn on a log axis (not None, NaN or zero: nothing measured)."""
    return isinstance(value, int | float) and value == value and value > 0


def plot_svg(
    ours: dict[int, dict[str, Any]],
    floor: dict[int, dict[str, Any]],
    before: dict[int, dict[str, Any]] | None = None,
) -> str:
    """Latency (p50, p99) against tables, Queyou and the floor, and an earlier design's Queyou
    series (``before``) when there is one; both axes logarithmic (the floor is milliseconds, a
    saturated server seconds), dependency-free."""
    import math

    before = before or {}
    width, height, left, bottom, top, right = 660, 400, 60, 50, 30, 170
    xs = sorted(set(ours) | set(floor) | set(before)) or [1]
    values = [
        r[k]
        for r in [*ours.values(), *floor.values(), *before.values()]
        for k in ("p50_ms", "p99_ms")
        if _measured(r[k])
    ]
    lo = 10 ** math.floor(math.log10(max(0.1, min(values, default=1.0))))
    hi = 10 ** math.ceil(math.log10(max(100.0, max(values, default=100.0))))
    x_lo, x_hi = math.log10(min(xs)) - 0.1, math.log10(max(xs)) + 0.1

    def px(x: float) -> float:
        return left + (width - left - right) * (math.log10(x) - x_lo) / (x_hi - x_lo)

    def py(y: float) -> float:
        frac = (math.log10(max(y, lo)) - math.log10(lo)) / (math.log10(hi) - math.log10(lo))
        return height - bottom - (height - bottom - top) * frac

    ymax = hi
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{left}" y="18" font-size="14">Latency: action sent → last of four seats '
        f"received (ms, log scale)</text>",
    ]
    decade = lo
    while decade <= ymax:
        y = decade
        decade *= 10
        parts.append(
            f'<line x1="{left}" x2="{width - right}" y1="{py(y):.1f}" y2="{py(y):.1f}" '
            f'stroke="#ddd"/><text x="{left - 6}" y="{py(y) + 4:.1f}" text-anchor="end">'
            f"{y:g}</text>"
        )
    for x in xs:
        parts.append(
            f'<text x="{px(x):.1f}" y="{height - bottom + 16}" text-anchor="middle">{x}</text>'
        )
    parts.append(
        f'<text x="{(left + width - right) / 2}" y="{height - 12}" text-anchor="middle">'
        f"concurrent tables (4 websocket players each)</text>"
    )
    for target, colour in ((50, "#2a2"), (100, "#c22")):
        if target <= ymax:
            parts.append(
                f'<line x1="{left}" x2="{width - right}" y1="{py(target):.1f}" '
                f'y2="{py(target):.1f}" stroke="{colour}" stroke-dasharray="4 4"/>'
                f'<text x="{width - right + 4}" y="{py(target) + 4:.1f}" fill="{colour}">'
                f"{target} ms</text>"
            )
    series = [
        ("Queyou p99", ours, "p99_ms", "#c0392b", ""),
        ("Queyou p50", ours, "p50_ms", "#e67e22", ""),
        ("floor p99", floor, "p99_ms", "#2c3e50", "6 3"),
        ("floor p50", floor, "p50_ms", "#7f8c8d", "6 3"),
    ]
    if before:
        series += [
            ("before #18: p99", before, "p99_ms", "#e6a0a0", "2 3"),
            ("before #18: p50", before, "p50_ms", "#f5c99b", "2 3"),
        ]
    for n, (label, data, key, colour, dash) in enumerate(series):
        points = [(x, data[x][key]) for x in sorted(data) if _measured(data[x][key])]
        if points:
            path = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in points)
            parts.append(
                f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2" '
                f'stroke-dasharray="{dash}"/>'
            )
            parts += [
                f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{colour}"/>'
                for x, y in points
            ]
        ly = top + 30 + 18 * n
        parts.append(
            f'<line x1="{width - right + 10}" x2="{width - right + 34}" y1="{ly}" y2="{ly}" '
            f'stroke="{colour}" stroke-width="2" stroke-dasharray="{dash}"/>'
            f'<text x="{width - right + 40}" y="{ly + 4}">{label}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def write_report() -> None:
    ours, floor = latest_points()
    before, _ = latest_points(BEFORE_LABEL)
    PLOT_SVG.parent.mkdir(parents=True, exist_ok=True)
    PLOT_SVG.write_text(plot_svg(ours, floor, before))
    rows = [
        "| tables | sockets | actions/s | p50 ms | p95 ms | p99 ms | max ms | floor p50 | "
        "floor p99 | p50 ÷ floor | measured / undelivered | errors | leaks | resyncs "
        "| reconnects | client lag p99 ms | loadavg before → after |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|---:|---:|---:|---|",
    ]
    for k in sorted(set(ours) | set(floor)):
        r, f = ours.get(k), floor.get(k)
        ratio = r["p50_ms"] / f["p50_ms"] if r and f and f["p50_ms"] else float("nan")
        errors = ", ".join(f"{c} {n}" for c, n in r["errors"].items()) if r else ""
        rows.append(
            "| "
            + " | ".join(
                [
                    str(k),
                    str(4 * k),
                    f"{r['actions_per_s']:.0f}" if r else "—",
                    *(_fmt(r[x]) if r else "—" for x in ("p50_ms", "p95_ms", "p99_ms", "max_ms")),
                    _fmt(f["p50_ms"]) if f else "—",
                    _fmt(f["p99_ms"]) if f else "—",
                    _fmt(ratio),
                    f"{r['measured']} / {r['undelivered']}" if r else "—",
                    errors or ("0" if r else "—"),
                    str(r["leaks"]) if r else "—",
                    str(r["resyncs"]) if r else "—",
                    str(r["reconnects"]) if r else "—",
                    _fmt(r["client_loop_lag_p99_ms"]) if r else "—",
                    " ".join((r or f or {}).get("loadavg_before", []))
                    + " → "
                    + " ".join((r or f or {}).get("loadavg_after", [])),
                ]
            )
            + " |"
        )
    memory = []
    for k in sorted(ours):
        mem = ours[k].get("memory_kib", {})
        parts = ", ".join(f"{n} {v / 1024:.0f}" for n, v in sorted(mem.items()))
        pg = ours[k].get("postgres_backend_peak_kib", 0) / 1024
        n_pg = ours[k].get("postgres_backends", 0)
        memory.append(f"| {k} | {parts} | {n_pg} backends, largest {pg:.0f} |")
    commands = sorted({r["command"] for r in [*ours.values(), *floor.values()]})
    times = sorted({r["at"] for r in [*ours.values(), *floor.values()]})
    text = REPORT_HEAD.format(
        commands="\n".join(f"    .venv/bin/python {c}" for c in commands),
        when=f"{times[0]} … {times[-1]}" if times else "—",
    )
    text += "\n".join(rows) + "\n\n## Against the targets\n\n" + verdict(ours, floor) + "\n"
    extra = experiment_rows()
    if extra:
        text += "\n## Experiments (not the product's settings unless said)\n\n" + "\n".join(extra)
        text += "\n"
    text += "\n## Peak memory (VmHWM, MiB) at the end of each run\n\n"
    text += "| tables | server processes | PostgreSQL |\n|---:|---|---|\n" + "\n".join(memory)
    text += "\n\n" + REPORT_NOTES_FILE_MARK + "\n"
    notes = ""
    if RESULTS_MD.exists() and REPORT_NOTES_FILE_MARK in RESULTS_MD.read_text():
        notes = RESULTS_MD.read_text().split(REPORT_NOTES_FILE_MARK, 1)[1].lstrip("\n")
    RESULTS_MD.write_text(text + notes)
    log(f"wrote {RESULTS_MD.relative_to(BASE_DIR)} and {PLOT_SVG.relative_to(BASE_DIR)}")


REPORT_NOTES_FILE_MARK = "<!-- notes below are kept by the report command -->"
REPORT_HEAD = """# Websocket load: tables per machine, latency to the four seats, the floor

Measured by `bench/ws_load.py` (see its docstring for the method) on this 2-core, 24 GiB machine,
everything on loopback: uvicorn workers (uvloop, websockets), Celery worker + beat, our own
redis-server, PostgreSQL `queyou_load`, and the load clients (one asyncio process) all share the
same two cores. Runs: {when}.

{commands}

Latency: from an action's send to the moment the last of the table's four sockets received the
`decision` that follows its events (ms), after the warm-up (the tables connect during its first
half). Think time: uniform 0.5–1.5 × the mean shown (a brisk game). The floor is a bare Channels
consumer relaying one message to the four sockets of a group through the same Redis channel layer,
same workers, same clients and pace. "client lag p99" is how late the load generator's own event
loop woke up (its share of every number). Load average is `/proc/loadavg` right after the run.

![latency against tables](../../docs/img/latency_vs_tables.svg)

"""


# --- the floor application (run by uvicorn --factory ws_load:floor_application) ----------------


def floor_application() -> Any:
    """A bare Channels app: each message a socket sends is relayed to the four sockets of its
    group (``/ws/floor/<n>/``) through the same ``RedisChannelLayer`` configuration as Queyou."""
    import django
    from django.conf import settings

    if not settings.configured:
        settings.configure(
            DEBUG=False,
            INSTALLED_APPS=["channels"],
            CHANNEL_LAYERS={
                "default": {
                    "BACKEND": "channels_redis.core.RedisChannelLayer",
                    "CONFIG": {  # as config/settings.py
                        "hosts": [
                            {
                                "address": os.environ["REDIS_URL"],
                                "socket_timeout": 15,
                                "max_connections": 1000,
                            }
                        ],
                        "capacity": 1000,
                        "expiry": 30,
                    },
                }
            },
        )
        django.setup()
    from channels.generic.websocket import AsyncWebsocketConsumer
    from channels.routing import URLRouter
    from django.urls import path

    class Relay(AsyncWebsocketConsumer):  # type: ignore[misc]
        async def connect(self) -> None:
            self.group = f"floor.{self.scope['url_route']['kwargs']['n']}"
            await self.channel_layer.group_add(self.group, self.channel_name)
            await self.accept()

        async def disconnect(self, code: int) -> None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

        async def receive(self, text_data: str | None = None, bytes_data: Any = None) -> None:
            await self.channel_layer.group_send(self.group, {"type": "relay", "text": text_data})

        async def relay(self, message: dict[str, Any]) -> None:
            await self.send(text_data=message["text"])

    return URLRouter([path("ws/floor/<int:n>/", Relay.as_asgi())])


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="measure one or more table counts (comma-separated)")
    run.add_argument("--tables", default="10")
    run.add_argument("--seconds", type=float, default=60.0)
    run.add_argument("--warmup", type=float, default=10.0)
    run.add_argument(
        "--warmup-per-table",
        type=float,
        default=0.2,
        help="extra warm-up (and run) seconds per table: the tables' start is not measured",
    )
    run.add_argument("--think", type=float, default=1.0, help="mean think time (s)")
    run.add_argument("--workers", type=int, default=2)
    run.add_argument("--seed", type=int, default=8)
    run.add_argument("--floor", choices=("both", "no", "only"), default="both")
    run.add_argument("--profile", action="store_true", help="py-spy on worker 0")
    run.add_argument("--label", default="main", help="series name (main = the plotted one)")
    run.add_argument(
        "--conn-max-age", type=int, default=0, help="experiment: persistent DB connections"
    )
    cost = sub.add_parser("cost", help="in-process cost of one move and of one socket update")
    cost.add_argument("--moves", type=int, default=30)
    prof = sub.add_parser("profile", help="summarise a py-spy raw profile")
    prof.add_argument("path")
    sub.add_parser("report", help="rewrite the markdown and the SVG from var/load/results.json")
    args = parser.parse_args(argv)
    if args.command == "cost":
        return cmd_cost(args)
    if args.command == "profile":
        print(summarise_profile(Path(args.path)))
        return 0
    if args.command == "report":
        write_report()
        return 0
    return cmd_run(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
