"""Scripted faults against the production stack on loopback; each prints what it did and checked.

    .venv/bin/python bench/faults.py worker    # kill -9 the ASGI worker every client is on
    .venv/bin/python bench/faults.py redis     # kill -9 Redis mid-round, start it again
    .venv/bin/python bench/faults.py ghost     # 4 sockets flood resyncs, the client exits abruptly
    .venv/bin/python bench/faults.py celery    # kill -9 Celery while rounds are being settled
    .venv/bin/python bench/faults.py beat      # kill -9, then freeze (SIGSTOP), the clock
    .venv/bin/python bench/faults.py postgres  # restart PostgreSQL mid-round
    .venv/bin/python bench/faults.py two_processes  # kill -9 a worker between commit and broadcast
    .venv/bin/python bench/faults.py all       # every scenario, in that order

The stack and the clients are those of ``bench/ws_load.py``; the Celery worker and the clock run
under the product's supervisor (config/supervisor.py), as ``make run`` runs them. The database
``queyou_load`` lives in a private PostgreSQL cluster this script starts (``/tmp/queyou-faults-pg``,
port 5499, trust auth) so that restarting it disturbs nobody else's database. Each scenario is
bounded (fixed durations, every wait has a deadline) and exits non-zero when a check fails.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PG_DIR = Path("/tmp/queyou-faults-pg")
PG_PORT = 5499
os.environ.setdefault("QUEYOU_LOAD_PG", f"127.0.0.1:{PG_PORT}")
os.environ.setdefault("QUEYOU_LOAD_REDIS_PORT", "6399")

import ws_load  # noqa: E402  (reads QUEYOU_LOAD_PG)
from ws_load import Player, SeatClient, Stack, Stats, log  # noqa: E402

FAILURES: list[str] = []


def check(ok: bool, what: str) -> None:
    print(f"  [{'ok' if ok else 'FAIL'}] {what}", flush=True)
    if not ok:
        FAILURES.append(what)


async def play_with_fault(
    tables: list[list[Player]],
    ports: list[int],
    *,
    seconds: float,
    act_for: float,
    fault_at: float,
    fault: Callable[[], None],
    same_worker: bool = True,
) -> tuple[Stats, list[SeatClient]]:
    """Clients play for ``act_for`` s, then stay connected until ``seconds`` (a quiet end, so
    that what they hold can be compared with the database); ``fault`` runs at ``fault_at``."""
    stats = Stats()
    start = time.perf_counter()
    rng = random.Random(11)
    clients = [
        SeatClient(
            player=p,
            ports=ports,
            stats=stats,
            think=0.6,
            deadline=start + seconds,
            rng=random.Random(rng.random()),
            port_index=0 if same_worker else t,
            act_until=start + act_for,
        )
        for t, players in enumerate(tables)
        for p in players
    ]
    tasks = [asyncio.create_task(c.run()) for c in clients]
    loop = asyncio.get_running_loop()
    await asyncio.sleep(fault_at)
    await loop.run_in_executor(None, fault)
    # The truth at the end of the quiet period; then 3 s for the last notifications to arrive.
    await asyncio.sleep(max(0.0, start + seconds - 3 - time.perf_counter()))
    TRUTH.clear()
    TRUTH.update(await loop.run_in_executor(None, database_versions, tables))
    await asyncio.wait(tasks, timeout=seconds + 20)
    for c in clients:
        c.stopped = True
        if c.ws is not None:
            await c.ws.close()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return stats, clients


TRUTH: dict[int, tuple[int, int]] = {}
"""room id -> (current round id, its decision token), read 3 s before the clients stop."""


def database_versions(tables: list[list[Player]]) -> dict[int, tuple[int, int]]:
    from django.db import close_old_connections

    from tables import selectors

    close_old_connections()
    out = {}
    for players in tables:
        rnd = selectors.current_round(players[0].room_id)
        # The decision token (what a socket is told), not the state's version (docs/protocol.md).
        out[players[0].room_id] = (0, 0) if rnd is None else (rnd.pk, rnd.decision_version)
    return out


def last_versions(
    stats: Stats, clients: list[SeatClient]
) -> dict[tuple[int, int], tuple[int, int]]:
    """(table, seat) -> (round id, version of the last decision the socket received)."""
    out = {}
    for c in clients:
        key = (c.player.table, c.player.seat)
        rows = stats.decisions.get((c.player.table, c.player.seat, c.round_id or 0), [])
        out[key] = (c.round_id or 0, max((v for v, _ in rows), default=-1))
    return out


def check_database(tables: list[list[Player]], stats: Stats, clients: list[SeatClient]) -> None:
    """What every scenario must leave: the same truth in the database and in every socket."""
    from django.db import close_old_connections

    from tables import gameplay, selectors
    from tables.game import store
    from tables.models import ActionRecord, RoundAction

    close_old_connections()  # this process's own connection may have died with PostgreSQL
    held = last_versions(stats, clients)
    converged = 0
    for players in tables:
        rnd = selectors.current_round(players[0].room_id)
        assert rnd is not None
        replayed = store.replay_state(rnd)
        gameplay._cache.clear()  # the stored snapshot and the log's tail
        same = gameplay.dump_state(replayed) == gameplay.dump_state(store.load_state(rnd))
        check(
            same,
            f"room {rnd.match.room_id} round {rnd.pk}: seed + {rnd.action_count} logged "
            f"actions replay to the stored state (v{rnd.version})",
        )
        truth = TRUTH[players[0].room_id]
        for p in players:
            have = held[(p.table, p.seat)]
            ok = have[0] == truth[0] and have[1] >= truth[1]
            converged += ok
            if not ok:
                print(f"    {p.username}: holds round/version {have}, database {truth}")
    check(
        converged == 4 * len(tables),
        f"{converged}/{4 * len(tables)} sockets hold the "
        "database's round and version at the end of the quiet period",
    )
    sent = {cid for *_, cid in stats.sent}
    records = list(
        ActionRecord.objects.filter(client_action_id__in=sent).values_list(
            "client_action_id", "outcome"
        )
    ) + [  # accepted actions are answered from the log
        (cid, {"ok": True})
        for cid in RoundAction.objects.filter(client_action_id__in=sent).values_list(
            "client_action_id", flat=True
        )
    ]
    per_cid: dict[str, int] = {}
    for cid, _ in records:
        per_cid[cid] = per_cid.get(cid, 0) + 1
    applied = {cid for cid, outcome in records if outcome.get("ok")}
    acked = {cid for cid in stats.acks if cid in sent}
    check(max(per_cid.values(), default=1) == 1, "no client action id was recorded twice")
    check(acked <= applied, f"all {len(acked)} acked actions are applied in the database")
    unanswered = sent - acked - {cid for cid, _ in records}
    print(
        f"  {len(sent)} sent: {len(applied)} applied, {len(records) - len(applied)} refused, "
        f"{len(unanswered)} never reached the database",
        flush=True,
    )
    check(not stats.leaks, f"no message leaked a hidden tile ({stats.messages} audited)")
    for sample in stats.leaks[:10]:
        print(f"    leak: {sample}", flush=True)


def scenario_worker(tables: list[list[Player]]) -> None:
    print("\n== kill -9 an ASGI worker mid-round ==", flush=True)
    stack = Stack(workers=2)
    stack.start()
    killed: list[int] = []

    def fault() -> None:
        killed.append(stack.kill("asgi-0"))
        log(
            f"kill -9 ASGI worker 0 (pid {killed[0]}, port {stack.ports[0]}): "
            "every client was on it"
        )

    try:
        stats, clients = asyncio.run(
            play_with_fault(tables, stack.ports, seconds=40, act_for=32, fault_at=12, fault=fault)
        )
        print(
            f"  did: {len(clients)} sockets on worker 0, killed it at 12 s, played on to 32 s, "
            f"quiet until 40 s; {len(stats.sent)} actions sent, {stats.retried} re-sent after "
            f"reconnecting ({stats.duplicates} answered as duplicates), {stats.reconnects} "
            f"reconnects, {stats.resyncs} resyncs, {stats.idle_hellos} idle hellos"
            f", errors {dict(stats.errors)}"
        )
        check(stats.reconnects >= len(clients), "every socket reconnected to the other worker")
        check_database(tables, stats, clients)
    finally:
        stack.stop()


def scenario_redis(tables: list[list[Player]]) -> None:
    print("\n== Redis killed mid-round and started again ==", flush=True)
    stack = Stack(workers=2)
    stack.start()

    def fault() -> None:
        pid = stack.kill("redis")
        log(f"kill -9 redis-server (pid {pid}); starting it again in 3 s (empty: no persistence)")
        time.sleep(3)
        stack.start_redis()
        log("redis-server is back")

    try:
        stats, clients = asyncio.run(
            play_with_fault(
                tables,
                stack.ports,
                seconds=60,
                act_for=35,
                fault_at=12,
                fault=fault,
                same_worker=False,
            )
        )
        print(
            f"  did: killed Redis at 12 s for 3 s, played on to 35 s, quiet until 60 s; "
            f"{len(stats.sent)} actions sent, {stats.retried} re-sent, {stats.reconnects} "
            f"reconnects, {stats.resyncs} resyncs, {stats.idle_hellos} idle hellos"
            f", errors {dict(stats.errors)}"
        )
        check(all(stack.procs[f"asgi-{i}"].poll() is None for i in range(2)), "web workers alive")
        health = wait_healthy(stack, 60)
        check(health.get("ok") is True, f"/healthz ok again (worker and clock beat): {health}")
        restarts = {p.name: p.restarts for p in stack.supervisor.programs}
        print(f"  supervisor restarts during the scenario: {restarts}")
        check_database(tables, stats, clients)
        # Every socket open during the restart died of Redis's connection error; the clients
        # have closed the sockets they reconnected with. Nothing may be left of either.
        check_presence_recovers(stack, [p for players in tables for p in players])
    finally:
        stack.stop()


# --- presence after a fault ---------------------------------------------------------------------


def presence_left(players: list[Player]) -> tuple[int | None, int]:
    """(these players' live presence entries at any table, None when Redis cannot say; their
    seats shown connected)."""
    from django.db import close_old_connections

    from accounts.models import User
    from tables import presence
    from tables.models import Seat

    close_old_connections()
    users = list(User.objects.filter(username__in=[p.username for p in players]))
    counts = [presence.user_sockets(user.pk) for user in users]
    sockets = None if None in counts else sum(c or 0 for c in counts)
    connected = Seat.objects.filter(user__in=users, connected=True).count()
    return sockets, connected


async def sockets_answered(player: Player, port: int, count: int) -> list[str]:
    """Open ``count`` sockets of one player at its table, one after the other, each held open
    until all are: the first thing each was told (``table``, or the error's code)."""
    from websockets.asyncio.client import connect

    url = f"ws://{ws_load.HOST}:{port}/ws/table/{player.room_id}/"
    headers = {"Cookie": f"sessionid={player.session}", "Origin": f"http://{ws_load.HOST}:{port}"}
    answers, held = [], []
    try:
        for _ in range(count):
            ws = await connect(url, additional_headers=headers, open_timeout=20, ping_interval=None)
            held.append(ws)
            try:
                first = json.loads(await asyncio.wait_for(ws.recv(), timeout=20))
                answers.append("table" if first["type"] == "table" else str(first.get("code")))
            except Exception as exc:  # closed or silent: say so, the check fails
                answers.append(repr(exc))
    finally:
        for ws in held:
            await ws.close()
    return answers


def check_presence_recovers(stack: Stack, players: list[Player]) -> None:
    """After a fault and with every client gone: the players' presence expires and their seats
    show offline (the clock's sweep), then each can open the most sockets a user may hold at
    its table, and is shown there (not refused with 4408 too_many_sockets)."""
    from tables import presence

    limit = time.monotonic() + presence.TTL_S + 30
    start = time.monotonic()
    left = presence_left(players)
    while left != (0, 0) and time.monotonic() < limit:
        time.sleep(1)
        left = presence_left(players)
    took = time.monotonic() - start
    check(
        left == (0, 0),
        f"presence of {len(players)} players gone {took:.0f} s after their clients left (live "
        f"sockets, seats shown connected: {left}; entries expire after {presence.TTL_S:.0f} s)",
    )
    most = presence.max_sockets_per_user()

    async def everyone() -> list[list[str]]:
        return await asyncio.gather(
            *(
                sockets_answered(p, stack.ports[i % len(stack.ports)], most)
                for i, p in enumerate(players)
            )
        )

    answers = asyncio.run(everyone())
    refused = {p.username: a for p, a in zip(players, answers, strict=True) if set(a) != {"table"}}
    check(
        not refused,
        f"each of {len(players)} players opened {most} sockets at its table again "
        f"(refused: {refused or 'none'})",
    )


def abrupt_client(port: int, room_id: int, session: str, *, sockets: int, resyncs: int) -> None:
    """Run in a process of its own (:func:`scenario_ghost`): open ``sockets`` sockets at the
    table, send ``resyncs`` resyncs on each without reading, wait for the server's first answer,
    then exit without closing anything (``os._exit``: the kernel drops the connections)."""
    from websockets.asyncio.client import connect

    async def flood() -> None:
        url = f"ws://{ws_load.HOST}:{port}/ws/table/{room_id}/"
        headers = {"Cookie": f"sessionid={session}", "Origin": f"http://{ws_load.HOST}:{port}"}
        held = []
        for _ in range(sockets):
            ws = await connect(url, additional_headers=headers, open_timeout=20, ping_interval=None)
            held.append(ws)
            await asyncio.wait_for(ws.recv(), timeout=20)  # the table: the socket is counted
        message = json.dumps({"type": "resync"})
        for ws in held:
            for _ in range(resyncs):
                await ws.send(message)
        for ws in held:
            await asyncio.wait_for(ws.recv(), timeout=20)  # the server is answering
        print(f"  client of room {room_id}: {sockets} sockets, {resyncs} resyncs each, exits")
        sys.stdout.flush()
        os._exit(0)

    asyncio.run(flood())


def scenario_ghost(tables: list[list[Player]]) -> None:
    print("\n== abrupt clients: 4 sockets flood resyncs, then the process exits ==", flush=True)
    from tables import presence

    stack = Stack(workers=1)
    stack.start()
    try:
        fresh_rounds(tables)  # rounds in play: each resync is answered with a snapshot
        ghosts = [players[0] for players in tables]
        code = "import faults; faults.abrupt_client({}, {}, {!r}, sockets={}, resyncs={})"
        most = presence.max_sockets_per_user()
        clients = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    code.format(stack.ports[0], p.room_id, p.session, most, 60),
                ],
                cwd=ws_load.BENCH_DIR,
            )
            for p in ghosts
        ]
        codes = [c.wait(timeout=120) for c in clients]
        check(codes == [0] * len(clients), f"{len(clients)} abrupt clients ran and exited: {codes}")
        check(stack.procs["asgi-0"].poll() is None, "the web worker is alive")
        check_presence_recovers(stack, ghosts)
    finally:
        stack.stop()


def drive_to_end(room_ids: list[int], on_end: Callable[[int], None], deadline: float) -> None:
    """Play the rounds of these rooms in-process (the room bots' moves: they take every win and
    declare ting when they can, so rounds end in wins as well as draws), one move per room in
    turn, until each round has ended; ``on_end(round_id)`` after each end."""
    from tables import bots, gameplay, selectors
    from tables.game import commands, store
    from tables.models import Round

    live = set(room_ids)
    serial = 0
    while live and time.monotonic() < deadline:
        for room_id in sorted(live):
            rnd = selectors.current_round(room_id)
            assert rnd is not None
            if rnd.status != Round.Status.PLAYING:
                live.discard(room_id)
                on_end(rnd.pk)
                continue
            state = store.load_state(rnd)
            seat = gameplay.deciders(state)[0]
            serial += 1
            commands.round_apply_action(
                round_id=rnd.pk,
                seat=seat,
                action_json=gameplay.action_json(bots.choose_action(state, seat)),
                client_action_id=f"{ws_load.RUN_ID}-fault-{serial}",
            )


def fresh_rounds(tables: list[list[Player]]) -> list[int]:
    """Deal a new round in each room (end any match in play, four ready presses)."""
    from accounts.models import User
    from tables import rooms
    from tables.models import Room

    for players in tables:
        room = Room.objects.get(pk=players[0].room_id)
        users = [User.objects.get(username=p.username) for p in players]
        rooms.seat_leave(room=room, user=users[0])  # ends a match in play
        rooms.seat_take(room=room, user=users[0], index=0)
        for user in users:
            rooms.seat_set_ready(room=room, user=user)
    return [players[0].room_id for players in tables]


def scenario_celery(tables: list[list[Player]]) -> None:
    print("\n== kill -9 the Celery worker during settlement ==", flush=True)
    from scoring.models import RoundSettlement
    from scoring.services import draft_ledger
    from tables.game.store import replay_steps
    from tables.models import Round

    stack = Stack(workers=1)
    stack.start()
    ended: list[int] = []
    killed = threading.Event()
    try:
        rooms = fresh_rounds(tables)

        def watch() -> None:
            limit = time.monotonic() + 120
            while not killed.is_set() and time.monotonic() < limit:
                if ended and RoundSettlement.objects.filter(round_id__in=ended).exists():
                    pid = stack.pid_of("celery")
                    assert pid is not None
                    pool = ws_load.children_of(pid)
                    for victim in [pid, *pool]:
                        with_suppress_kill(victim)
                    n = RoundSettlement.objects.filter(round_id__in=ended).count()
                    log(
                        f"kill -9 Celery (pid {pid}, pool {pool}) with {len(ended)} rounds "
                        f"ended and {n} settled; the supervisor restarts it"
                    )
                    killed.set()
                    return
                time.sleep(0.01)

        watcher = threading.Thread(target=watch)
        watcher.start()
        drive_to_end(rooms, ended.append, time.monotonic() + 150)
        watcher.join(timeout=130)
        settled_before = RoundSettlement.objects.filter(round_id__in=ended).count()
        check(killed.is_set(), "Celery was killed while rounds were still being settled")
        log(f"all {len(ended)} rounds ended; {settled_before} settled")
        check(stack.program("celery").restarts >= 1, "the supervisor restarted the worker")
        limit = time.monotonic() + 150  # the clock's settlement sweep: every 60 s, 30 s grace
        while time.monotonic() < limit:
            if RoundSettlement.objects.filter(round_id__in=ended).count() == len(ended):
                break
            time.sleep(1)
        took = 150 - (limit - time.monotonic())
        settlements = list(RoundSettlement.objects.filter(round_id__in=ended))
        check(
            len(settlements) == len(ended),
            f"{len(settlements)}/{len(ended)} rounds settled, {took:.0f} s after the restart",
        )
        per_round = {s.round_id for s in settlements}
        check(len(per_round) == len(settlements), "exactly one settlement per round")
        for s in settlements:
            nets = (s.net_0, s.net_1, s.net_2, s.net_3)
            draft = draft_ledger(replay_steps(Round.objects.get(pk=s.round_id)))
            check(
                sum(nets) == 0 and nets == draft.nets,
                f"round {s.round_id}: nets {nets} sum to 0 and equal a fresh replay's",
            )
    finally:
        killed.set()
        stack.stop()


def with_suppress_kill(pid: int) -> None:
    import contextlib
    import os

    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


# --- the clock --------------------------------------------------------------------------------


def health(stack: Stack) -> dict[str, object]:
    url = f"http://{ws_load.HOST}:{stack.ports[0]}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return dict(json.loads(response.read()))
    except urllib.error.HTTPError as error:
        return dict(json.loads(error.read()))
    except OSError as error:
        return {"ok": False, "error": repr(error)}


def wait_healthy(stack: Stack, seconds: float) -> dict[str, object]:
    limit = time.monotonic() + seconds
    found = health(stack)
    while found.get("ok") is not True and time.monotonic() < limit:
        time.sleep(0.5)
        found = health(stack)
    return found


def overdue_everywhere(room_ids: list[int], *, in_s: float) -> dict[int, tuple[int, int]]:
    """Every round in play in these rooms gets a deadline ``in_s`` from now (and its seats'
    timeout counts cleared, so no seat goes into 托管 and moves without the clock): round id ->
    (version, decision token) now."""
    from datetime import timedelta

    from django.utils import timezone

    from tables import selectors
    from tables.models import Round, Seat

    now = timezone.now()
    Seat.objects.filter(room_id__in=room_ids).update(consecutive_timeouts=0, auto_play=False)
    out = {}
    for room_id in room_ids:
        rnd = selectors.current_round(room_id)
        assert rnd is not None
        assert rnd.status == Round.Status.PLAYING
        Round.objects.filter(pk=rnd.pk).update(deadline=now + timedelta(seconds=in_s))
        out[rnd.pk] = (rnd.version, rnd.decision_version)
    return out


def moved(before: dict[int, tuple[int, int]]) -> set[int]:
    from django.db import close_old_connections

    from tables.models import Round

    close_old_connections()
    now = dict(Round.objects.filter(pk__in=before).values_list("pk", "version"))
    return {pk for pk, (version, _token) in before.items() if now.get(pk, version) != version}


def wait_moved(before: dict[int, tuple[int, int]], seconds: float) -> tuple[set[int], float]:
    start = time.monotonic()
    done = moved(before)
    while done != set(before) and time.monotonic() - start < seconds:
        time.sleep(0.2)
        done = moved(before)
    return done, time.monotonic() - start


def scenario_beat(tables: list[list[Player]]) -> None:
    print("\n== the clock killed (kill -9), then frozen (SIGSTOP) ==", flush=True)
    stack = Stack(workers=1)
    stack.start()
    try:
        rooms = fresh_rounds(tables)
        check(wait_healthy(stack, 60).get("ok") is True, "/healthz ok at the start")
        # 1. kill -9: the supervisor starts another clock at once; deadlines keep passing.
        killed = stack.kill("clock")
        before = overdue_everywhere(rooms, in_s=1)
        done, took = wait_moved(before, 20)
        new_pid = stack.pid_of("clock")
        log(f"kill -9 clock (pid {killed}); a new clock (pid {new_pid}); {len(done)} rounds moved")
        check(new_pid not in (None, killed), "the supervisor started a new clock")
        check(
            done == set(before),
            f"every round past its deadline moved, {took:.1f} s after the kill (deadline 1 s)",
        )
        # 2. SIGSTOP: alive but silent, as a stuck clock. /healthz must say so, the supervisor
        # must replace it, and what fell due meanwhile must be acted on within seconds.
        frozen = stack.kill("clock", signal.SIGSTOP)
        before = overdue_everywhere(rooms, in_s=1)
        stopped_at = time.monotonic()
        time.sleep(13)
        stale = health(stack)
        log(f"SIGSTOP clock (pid {frozen}); 13 s later /healthz: {stale}")
        check(stale.get("ok") is False, "/healthz reports the stopped clock (503)")
        check(not moved(before), "nothing moved while the clock was frozen")
        limit = time.monotonic() + 60
        while stack.pid_of("clock") in (None, frozen) and time.monotonic() < limit:
            time.sleep(0.2)
        replaced = time.monotonic() - stopped_at
        check(
            stack.pid_of("clock") not in (None, frozen),
            f"the supervisor replaced the silent clock after {replaced:.0f} s",
        )
        done, took = wait_moved(before, 30)
        check(
            done == set(before),
            f"every round overdue during the freeze moved {took:.1f} s after the replacement",
        )
        check(took <= 10, "… within seconds (≤ 10 s, the new clock's start included)")
        check(wait_healthy(stack, 30).get("ok") is True, "/healthz ok again")
    finally:
        stack.stop()


# --- PostgreSQL ---------------------------------------------------------------------------------


def _pg_bin(name: str) -> str:
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin"))
    if not versions:
        raise SystemExit("PostgreSQL's server programs are not installed")
    return str(versions[-1] / name)


def _as_postgres(*args: str) -> None:
    subprocess.run(
        ["runuser", "-u", "postgres", "--", *args], check=True, stdout=subprocess.DEVNULL
    )


def private_postgres(action: str = "start") -> None:
    """The scenarios' own PostgreSQL cluster (created on first use): ``start``, ``stop`` (an
    immediate stop: every connection dies) or ``restart``."""
    pg_ctl = [_pg_bin("pg_ctl"), "-D", str(PG_DIR), "-w"]
    options = f"-p {PG_PORT} -k {PG_DIR} -c listen_addresses=127.0.0.1"
    if action == "start":
        if not (PG_DIR / "PG_VERSION").exists():
            shutil.rmtree(PG_DIR, ignore_errors=True)
            PG_DIR.mkdir(parents=True)
            shutil.chown(PG_DIR, "postgres", "postgres")
            _as_postgres(_pg_bin("initdb"), "-D", str(PG_DIR), "--auth=trust", "-U", "root")
        if ws_load.port_open(PG_PORT):
            return
        _as_postgres(*pg_ctl, "-o", options, "-l", str(PG_DIR / "server.log"), "start")
    elif action == "stop":
        _as_postgres(*pg_ctl, "-m", "immediate", "stop")
    else:
        private_postgres("stop")
        private_postgres("start")


def scenario_postgres(tables: list[list[Player]]) -> None:
    print("\n== PostgreSQL stopped mid-round (immediate) and started again 3 s later ==")
    stack = Stack(workers=2)
    stack.start()

    def fault() -> None:
        log("PostgreSQL: immediate stop (every connection dies)")
        private_postgres("stop")
        time.sleep(3)
        private_postgres("start")
        log("PostgreSQL is back")

    try:
        stats, clients = asyncio.run(
            play_with_fault(
                tables,
                stack.ports,
                seconds=55,
                act_for=35,
                fault_at=12,
                fault=fault,
                same_worker=False,
            )
        )
        print(
            f"  did: stopped PostgreSQL at 12 s for 3 s, played on to 35 s, quiet until 55 s; "
            f"{len(stats.sent)} actions sent, {stats.retried} re-sent, {stats.reconnects} "
            f"reconnects, {stats.resyncs} resyncs, errors {dict(stats.errors)}"
        )
        check(all(stack.procs[f"asgi-{i}"].poll() is None for i in range(2)), "web workers alive")
        found = wait_healthy(stack, 60)
        check(found.get("ok") is True, f"/healthz ok again: {found}")
        check_database(tables, stats, clients)
    finally:
        stack.stop()


# --- two ASGI processes, one killed between a commit and its notification ---------------------

KILL_DIR = ws_load.VAR_DIR / "faults-kill"
"""Where ``two_processes`` tells a worker to die (``kill-<pid>``) and the worker says what it
took with it (``killed-<pid>.json``)."""
LOST_MOVE_BOUND_S = 3.0
"""The other process's sockets must have every move within this (the stream watcher's tick of
1 s and grace of 0.5 s, and a margin for a loaded machine); before it they waited for an idle
hello or a deadline (15 s)."""


def two_processes_application() -> Any:
    """``uvicorn --factory``: the product's ASGI app, in a process that kills itself (SIGKILL)
    right after one of its sockets committed a move and before the move's notification leaves,
    once told to (the file ``KILL_DIR/kill-<its pid>``, naming the seats whose turn the move must
    give). Exactly the window a kill -9, an OOM kill or a dying host can hit by chance."""
    from config.asgi import application
    from tables import notify

    send = notify.notifications_send
    order = KILL_DIR / f"kill-{os.getpid()}"

    async def send_or_die(notifications: list[tuple[str, dict[str, Any]]]) -> None:
        if order.exists():
            lost = _move_giving_turn(notifications, json.loads(order.read_text())["turn_seats"])
            if lost is not None:
                lost["killed_at"] = time.time()
                (KILL_DIR / f"killed-{os.getpid()}.json").write_text(json.dumps(lost))
                os.kill(os.getpid(), signal.SIGKILL)
        await send(notifications)

    notify.notifications_send = send_or_die
    return application


def _move_giving_turn(
    notifications: list[tuple[str, dict[str, Any]]], seats: list[int]
) -> dict[str, Any] | None:
    """The committed move among these notifications whose events end on the turn of one of
    ``seats`` (room, round and seqs), else None."""
    for group, message in notifications:
        update = message.get("round") or {}
        if "views" not in update or update["last_seq"] == update["prev_seq"]:
            continue
        decision = update["views"]["spectator"]["frames"][-1]["decision"]
        if decision["phase"] == "turn" and decision["turn_seat"] in seats:
            return {
                "room_id": int(group.rsplit(".", 1)[1]),
                "round_id": update["round_id"],
                "prev_seq": update["prev_seq"],
                "last_seq": update["last_seq"],
                "turn_seat": decision["turn_seat"],
            }
    return None


@dataclass
class TimedSeatClient(SeatClient):
    """A seat client that notes (wall clock, as the killed worker's report) when its stream
    reached each seq of each round, by an event or a snapshot."""

    reached: dict[int, list[tuple[int, float]]] = field(default_factory=dict)
    events_at: dict[tuple[int, int], float] = field(default_factory=dict)

    def on_message(self, message: dict[str, Any]) -> None:
        super().on_message(message)
        now = time.time()
        kind = message.get("type")
        if kind == "snapshot":
            self.reached.setdefault(message["round_id"], []).append((message["seq"], now))
        elif kind == "event" and (self.round_id, self.last_seq) == (
            message["round_id"],
            message["seq"],
        ):
            self.reached.setdefault(message["round_id"], []).append((message["seq"], now))
            self.events_at[(message["round_id"], message["seq"])] = now


def lateness(
    survivors: list[TimedSeatClient],
    everyone: list[TimedSeatClient],
    *,
    lost: dict[str, Any],
    until: float,
) -> tuple[list[tuple[str, int, int, float]], list[float]]:
    """For each surviving socket and each event of its rounds first seen (by any socket) before
    ``until``: how long after that the socket's stream reached it — the lost move counted from
    the kill. Returns the events a socket never reached ``(user, round, seq, first seen)`` and
    the lost move's delays (one per surviving socket of its room)."""
    first: dict[tuple[int, int], float] = {}
    for c in everyone:
        for key, at in c.events_at.items():
            first[key] = min(first.get(key, at), at)
    for seq in range(lost["prev_seq"] + 1, lost["last_seq"] + 1):
        first[(lost["round_id"], seq)] = lost["killed_at"]
    never: list[tuple[str, int, int, float]] = []
    lost_delays: list[float] = []
    for c in survivors:
        for round_id, marks in c.reached.items():
            start = marks[0][0]
            for (r, seq), seen in sorted(first.items()):
                if r != round_id or seq <= start or seen >= until:
                    continue
                when = min((at for s, at in marks if s >= seq), default=None)
                if when is None:
                    never.append((c.player.username, r, seq, seen))
                elif r == lost["round_id"] and seq == lost["last_seq"]:
                    lost_delays.append(when - lost["killed_at"])
    return never, lost_delays


def all_delays(survivors: list[TimedSeatClient], everyone: list[TimedSeatClient]) -> list[float]:
    """Every event's delay at the surviving sockets after its first sighting anywhere."""
    first: dict[tuple[int, int], float] = {}
    for c in everyone:
        for key, at in c.events_at.items():
            first[key] = min(first.get(key, at), at)
    out = []
    for c in survivors:
        for round_id, marks in c.reached.items():
            for (r, seq), seen in first.items():
                if r == round_id and seq > marks[0][0]:
                    when = min((at for s, at in marks if s >= seq), default=None)
                    if when is not None:
                        out.append(when - seen)
    return out


async def play_split(
    tables: list[list[Player]],
    stack: Stack,
    *,
    seconds: float,
    act_for: float,
    fault_at: float,
    fault: Callable[[], None],
) -> tuple[Stats, list[TimedSeatClient]]:
    """As :func:`play_with_fault`, each table's seats 0-1 on worker 0 and seats 2-3 on worker 1."""
    stats = Stats()
    start = time.perf_counter()
    rng = random.Random(13)
    clients = [
        TimedSeatClient(
            player=p,
            ports=stack.ports,
            stats=stats,
            think=0.6,
            deadline=start + seconds,
            rng=random.Random(rng.random()),
            port_index=0 if p.seat < 2 else 1,
            act_until=start + act_for,
        )
        for players in tables
        for p in players
    ]
    tasks = [asyncio.create_task(c.run()) for c in clients]
    loop = asyncio.get_running_loop()
    await asyncio.sleep(fault_at)
    await loop.run_in_executor(None, fault)
    await asyncio.sleep(max(0.0, start + seconds - 3 - time.perf_counter()))
    TRUTH.clear()
    TRUTH.update(await loop.run_in_executor(None, database_versions, tables))
    await asyncio.wait(tasks, timeout=seconds + 20)
    for c in clients:
        c.stopped = True
        if c.ws is not None:
            await c.ws.close()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return stats, clients


def scenario_two_processes(tables: list[list[Player]]) -> None:
    print(
        "\n== two ASGI workers, each table split across them; kill -9 worker 0 right after it "
        "commits a move, before the move's notification leaves ==",
        flush=True,
    )
    shutil.rmtree(KILL_DIR, ignore_errors=True)
    KILL_DIR.mkdir(parents=True)
    stack = Stack(workers=2, app="faults:two_processes_application", factory=True)
    stack.start()
    lost: dict[str, Any] = {}

    def fault() -> None:
        worker = stack.procs["asgi-0"]
        (KILL_DIR / f"kill-{worker.pid}").write_text(json.dumps({"turn_seats": [2, 3]}))
        log(f"worker 0 (pid {worker.pid}): die after your next move giving seat 2 or 3 the turn")
        with contextlib.suppress(subprocess.TimeoutExpired):
            worker.wait(timeout=30)
        report = KILL_DIR / f"killed-{worker.pid}.json"
        if report.exists():
            lost.update(json.loads(report.read_text()))
            log(
                f"worker 0 killed itself after committing room {lost['room_id']} round "
                f"{lost['round_id']} seq {lost['prev_seq']}→{lost['last_seq']} (seat "
                f"{lost['turn_seat']}'s turn), before notifying"
            )

    seconds, act_for = 45.0, 35.0
    started = time.time()
    try:
        stats, clients = asyncio.run(
            play_split(tables, stack, seconds=seconds, act_for=act_for, fault_at=10, fault=fault)
        )
        print(
            f"  did: {len(clients)} sockets, seats 0-1 of each table on worker 0, seats 2-3 on "
            f"worker 1; worker 0 killed at about 10 s, played on to {act_for:.0f} s, quiet until "
            f"{seconds:.0f} s; {len(stats.sent)} actions sent, {stats.retried} re-sent after "
            f"reconnecting ({stats.duplicates} duplicates), {stats.reconnects} reconnects, "
            f"{stats.resyncs} resyncs, {stats.idle_hellos} idle hellos, errors {dict(stats.errors)}"
        )
        check(bool(lost), "worker 0 died between a commit and its notification")
        check(stack.procs["asgi-1"].poll() is None, "worker 1 alive")
        if lost:
            survivors = [c for c in clients if c.player.seat >= 2 and c.port_index == 1]
            check(
                len(survivors) == 2 * len(tables),
                f"{len(survivors)}/{2 * len(tables)} sockets of worker 1 stayed on it",
            )
            # Events first seen in the last 5 s may still be on their way when the clients stop.
            until = started + seconds - 5
            never, lost_delays = lateness(survivors, clients, lost=lost, until=until)
            in_room = [c for c in survivors if c.player.room_id == lost["room_id"]]
            check(
                len(lost_delays) == len(in_room) and bool(in_room),
                f"the {len(in_room)} worker-1 sockets of room {lost['room_id']} got the move "
                "lost with worker 0",
            )
            shown = ", ".join(f"{d:.2f}" for d in sorted(lost_delays))
            check(
                bool(lost_delays) and max(lost_delays) <= LOST_MOVE_BOUND_S,
                f"… {shown} s after the kill (bound {LOST_MOVE_BOUND_S:.0f} s)",
            )
            delays = sorted(all_delays(survivors, clients))
            worst = delays[-1] if delays else 0.0
            print(
                f"  every event at the worker-1 sockets after its first sighting: {len(delays)} "
                f"deliveries, p50 {delays[len(delays) // 2] * 1000:.0f} ms, max {worst:.2f} s"
            )
            check(not never, f"worker-1 sockets reached every event of their rounds: {never[:5]}")
            check(worst <= LOST_MOVE_BOUND_S, "every move reached them within the bound")
        check_database(tables, stats, clients)
    finally:
        stack.stop()


SCENARIOS: dict[str, tuple[Callable[[list[list[Player]]], None], int, int]] = {
    # name: (scenario, first table, tables) — each uses its own rooms of the load database.
    "worker": (scenario_worker, 900, 4),
    "redis": (scenario_redis, 910, 4),
    "ghost": (scenario_ghost, 970, 4),
    "celery": (scenario_celery, 920, 6),
    "beat": (scenario_beat, 930, 4),
    "postgres": (scenario_postgres, 940, 4),
    "two_processes": (scenario_two_processes, 980, 4),
}


def main(argv: list[str]) -> int:
    names = list(SCENARIOS) if not argv or argv[0] == "all" else argv
    if ws_load.PG.endswith(f":{PG_PORT}"):
        private_postgres("start")
    ws_load.ensure_database()
    env = ws_load.server_env()
    ws_load.migrate(env)
    ws_load.django_setup(env)
    for name in names:
        scenario, first, count = SCENARIOS[name]
        tables = ws_load.prepare_tables(count, first=first)
        scenario(tables)
    print(f"\n{len(FAILURES)} failed checks" + "".join(f"\n  - {f}" for f in FAILURES))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
