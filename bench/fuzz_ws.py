"""Malformed and hostile input against a live server (the production stack of ``ws_load.py``).

    .venv/bin/python bench/fuzz_ws.py [--seconds 60] [--seed 1]

Two bounded phases, each ``--seconds`` long, on 127.0.0.1 only:

1. **Websocket.** A seated player's socket in a round in play is sent random and mutated frames
   (from a corpus of valid messages and of the legal actions the server offers: fields dropped,
   retyped, renamed, duplicated, nested, truncated; other seats; JSON escapes such as ``\\u0000``;
   binary frames; oversized frames), about 8 a second so that the rate limit does not hide them.
   After each frame a ``ping``: every reply up to the ``pong`` belongs to the frame. A frame
   answered with an ``error`` must leave the round and the seats exactly as they were (read from
   the database before and after). A socket closed by the server other than with 4429 (too many
   refused messages, by design) is a crash.
2. **HTTP.** Every operation of ``/api/schema/`` is called with random path ids, query strings
   and JSON bodies mutated from plausible ones, signed in (token) or not, plus random paths and
   form posts. No answer may be a 5xx, and a 4xx must change nothing (a fingerprint of the
   database's tables of clubs, rooms, seats, matches, rounds and settlements).

Exit status 1 when anything failed; the server's own log is in ``var/load/fuzz-server.log``.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import json
import random
import string
import sys
import time
from typing import Any

import ws_load
from ws_load import Player, Stack, log

PROBLEMS: list[str] = []


def problem(text: str) -> None:
    if len(PROBLEMS) < 200:
        PROBLEMS.append(text)
    print(f"  PROBLEM {text}", flush=True)


# --- mutations ----------------------------------------------------------------------------------

ODD_STRINGS = ["", " ", "\x00", "\u202e", "☃" * 50, "1m" * 40, "null", "../../etc", "' OR 1=1 --"]
ODD_VALUES: list[Any] = [None, True, False, 0, -1, 2**63, -(2**64), 1.5, float("inf"), [], {}]


def random_value(rng: random.Random, depth: int = 0) -> Any:
    pick = rng.random()
    if pick < 0.3:
        return rng.choice(ODD_VALUES)
    if pick < 0.55:
        return rng.choice(ODD_STRINGS)
    if pick < 0.7:
        return "".join(rng.choice(string.printable) for _ in range(rng.randint(0, 12)))
    if pick < 0.8:
        return rng.randint(-(2**40), 2**40)
    if depth < 3 and pick < 0.9:
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    if depth < 3:
        return {random_key(rng): random_value(rng, depth + 1) for _ in range(rng.randint(0, 3))}
    return None


def random_key(rng: random.Random) -> str:
    keys = ["type", "kind", "tile", "tiles", "seat", "ting", "round_id", "version", "last_seq"]
    keys += ["client_action_id", "action", "ready", "name", "yes", "id", "variant", "options"]
    return rng.choice(keys) if rng.random() < 0.7 else rng.choice(ODD_STRINGS) + "x"


def mutate(rng: random.Random, value: Any, depth: int = 0) -> Any:
    """One random change somewhere in a JSON value (dicts and lists are walked into)."""
    if isinstance(value, dict) and value and rng.random() < 0.7:
        key = rng.choice(list(value))
        out = dict(value)
        choice = rng.random()
        if choice < 0.2:
            del out[key]
        elif choice < 0.35:
            out[random_key(rng)] = random_value(rng)
        elif choice < 0.5:
            out[key + rng.choice(["", "_", "X"])] = out.pop(key)
        elif depth < 4:
            out[key] = mutate(rng, value[key], depth + 1)
        else:
            out[key] = random_value(rng)
        return out
    if isinstance(value, list) and value and rng.random() < 0.7:
        out_list = list(value)
        i = rng.randrange(len(out_list))
        if rng.random() < 0.3:
            del out_list[i]
        else:
            out_list[i] = mutate(rng, out_list[i], depth + 1)
        return out_list
    return random_value(rng)


def frame_for(rng: random.Random, corpus: list[dict[str, Any]]) -> str | bytes:
    """A frame: mostly a mutated valid message, sometimes raw junk."""
    pick = rng.random()
    if pick < 0.05:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 64)))
    if pick < 0.1:
        return "".join(rng.choice(string.printable) for _ in range(rng.randint(0, 80)))
    if pick < 0.13:
        return json.dumps({"type": "ping", "pad": "x" * rng.randint(4000, 9000)})
    if pick < 0.16:
        n = rng.randint(500, 2040)
        return "[" * n + "]" * n
    message = copy.deepcopy(rng.choice(corpus))
    for _ in range(rng.randint(1, 3)):
        message = mutate(rng, message)
    text = json.dumps(message)
    if rng.random() < 0.15 and '"' in text:  # a raw escape json.dumps never writes
        at = rng.choice([i for i, c in enumerate(text) if c == '"'])
        text = text[: at + 1] + rng.choice(["\\u0000", "\\ud800", "\\udc00"]) + text[at + 1 :]
    if rng.random() < 0.05:
        text = text[: rng.randrange(max(1, len(text)))]
    return text


# --- websocket phase ----------------------------------------------------------------------------


def round_facts(room_id: int) -> tuple[Any, ...]:
    from django.db import close_old_connections

    from tables import selectors
    from tables.models import Seat

    close_old_connections()
    rnd = selectors.current_round(room_id)
    seats = tuple(
        Seat.objects.filter(room_id=room_id)
        .order_by("index")
        .values_list("index", "ready", "auto_play", "user_id", "is_bot")
    )
    if rnd is None:
        return (None, seats)
    return (rnd.pk, rnd.version, rnd.last_seq, rnd.status, rnd.action_count, seats)


async def websocket_phase(player: Player, port: int, seconds: float, rng: random.Random) -> int:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    loop = asyncio.get_running_loop()
    corpus: list[dict[str, Any]] = [
        {"type": "hello", "round_id": 1, "last_seq": 3},
        {"type": "resync"},
        {"type": "ping"},
        {"type": "ready", "ready": True},
        {"type": "back"},
        {"type": "action", "client_action_id": "fz-1", "action": {"kind": "pass"}},
    ]
    url = f"ws://{ws_load.HOST}:{port}/ws/table/{player.room_id}/"
    headers = {"Cookie": f"sessionid={player.session}", "Origin": f"http://{ws_load.HOST}:{port}"}
    deadline = time.monotonic() + seconds
    sent = abuse_closes = 0
    while time.monotonic() < deadline:
        async with connect(url, additional_headers=headers, open_timeout=20) as ws:
            try:
                while time.monotonic() < deadline:
                    frame = frame_for(rng, corpus)
                    before = await loop.run_in_executor(None, round_facts, player.room_id)
                    await ws.send(frame)
                    await ws.send('{"type": "ping"}')
                    sent += 1
                    replies = []
                    while True:
                        reply = json.loads(await asyncio.wait_for(ws.recv(), timeout=20))
                        if reply["type"] == "pong":
                            break
                        replies.append(reply)
                        if reply["type"] == "decision":  # learn the legal actions to mutate
                            for action in reply.get("legal_actions", [])[:3]:
                                corpus.append(
                                    {
                                        "type": "action",
                                        "client_action_id": f"fz{rng.randrange(10**9)}",
                                        "round_id": reply["round_id"],
                                        "version": reply["version"],
                                        "action": action,
                                    }
                                )
                            del corpus[6:-40]
                    kinds = {r["type"] for r in replies}
                    if "error" in kinds and "ack" not in kinds:
                        after = await loop.run_in_executor(None, round_facts, player.room_id)
                        if after != before:
                            problem(f"refused frame changed state: {frame!r:.200} {replies!r:.300}")
                    await asyncio.sleep(0.12)  # 2 messages per frame, under the 20/s limit
            except ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd else None
                if code == 4429:
                    abuse_closes += 1  # 200 refused messages: closed by design; reconnect
                else:
                    problem(f"socket closed by the server with {code} after {frame!r:.200}")
            except TimeoutError:
                problem(f"no pong within 20 s after {frame!r:.200}")
    print(f"  websocket: {sent} frames sent, {abuse_closes} closes for abuse (4429, by design)")
    return sent


# --- HTTP phase ----------------------------------------------------------------------------------


def judge_cases(limit: int = 200) -> list[dict[str, Any]]:
    """Cases of the shared golden files (the judge's input), if they are on this machine."""
    from pathlib import Path

    cases = []
    for path in sorted(Path("/work/shared/cases").glob("*.jsonl")):
        for line in path.read_text().splitlines():
            if line.strip().startswith("{"):
                cases.append(json.loads(line)["case"])
    return cases[:limit]


JUDGE_CASES: list[dict[str, Any]] = []


def fingerprint() -> tuple[Any, ...]:
    from django.db import close_old_connections
    from django.db.models import Count, Max

    from accounts.models import Club, Membership
    from tables.models import Match, Room, Seat

    # What only a player's request changes: the rounds themselves move on their own (bots and
    # deadlines run in Celery), so rounds, settlements and seat flags are left out.
    close_old_connections()
    return (
        Club.objects.aggregate(n=Count("id"), m=Max("id")),
        tuple(Membership.objects.values_list("id", "status", "role").order_by("id")),
        tuple(Room.objects.values_list("id", "status", "name", "options").order_by("id")),
        tuple(Seat.objects.values_list("id", "index", "user_id", "is_bot").order_by("id")),
        tuple(Match.objects.values_list("id", "status").order_by("id")),
    )


def http_phase(port: int, token: str, seconds: float, rng: random.Random) -> int:
    import requests

    base = f"http://{ws_load.HOST}:{port}"
    http = requests.Session()
    schema = http.get(
        f"{base}/api/schema/?format=json", headers={"Authorization": f"Token {token}"}, timeout=30
    )
    operations: list[tuple[str, str, dict[str, Any]]] = []
    if schema.status_code == 200:
        for path, item in schema.json().get("paths", {}).items():
            for method, op in item.items():
                if method in ("get", "post", "put", "patch", "delete"):
                    operations.append((method.upper(), path, op))
    else:
        problem(f"schema: HTTP {schema.status_code}")
    extra = [("GET", "/"), ("GET", "/accounts/login/"), ("POST", "/accounts/login/")]
    extra += [("GET", "/tables/"), ("POST", "/accounts/clubs/join/"), ("GET", "/healthz")]
    deadline = time.monotonic() + seconds
    count = 0
    statuses: dict[int, int] = {}
    while time.monotonic() < deadline:
        if operations and rng.random() < 0.85:
            method, template, _ = rng.choice(operations)
        else:
            method, template = rng.choice(extra)
        path = template
        while "{" in path:
            start, end = path.index("{"), path.index("}")
            value = rng.choice(["1", "2", "0", "-1", "99999999999999999999", "abc", "%00", "1.5"])
            path = path[:start] + value + path[end + 1 :]
        if path == "/api/judge/" and JUDGE_CASES:  # mutate a real case, deeper than noise
            body = copy.deepcopy(rng.choice(JUDGE_CASES))
            for _ in range(rng.randint(1, 3)):
                body = mutate(rng, body)
        else:
            body = mutate(rng, {"name": "x", "variant": "changchun", "ready": True, "index": 1})
        query = {random_key(rng): str(random_value(rng))[:40]} if rng.random() < 0.3 else {}
        headers = {"Authorization": f"Token {token}"} if rng.random() < 0.8 else {}
        before = fingerprint()
        try:
            answer = http.request(
                method,
                base + path,
                params=query,
                data=json.dumps(body) if rng.random() < 0.9 else "{not json",
                headers={**headers, "Content-Type": "application/json"},
                timeout=30,
                allow_redirects=False,
            )
        except requests.RequestException as exc:
            problem(f"{method} {path}: {exc!r}")
            continue
        count += 1
        statuses[answer.status_code] = statuses.get(answer.status_code, 0) + 1
        if answer.status_code >= 500:
            problem(f"{method} {path} {body!r:.150} -> HTTP {answer.status_code}")
        elif answer.status_code >= 400 and fingerprint() != before:
            problem(f"{method} {path} {body!r:.150} -> {answer.status_code} changed the database")
    print(f"  http: {count} requests over {len(operations)} API operations; statuses {statuses}")
    return count


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    ws_load.ensure_database()
    env = ws_load.server_env()
    ws_load.migrate(env)
    ws_load.django_setup(env)
    (players,) = ws_load.prepare_tables(1, first=940)
    from rest_framework.authtoken.models import Token

    from accounts.models import User

    token = Token.objects.get_or_create(user=User.objects.get(username=players[0].username))[0]
    stack = Stack(workers=1)
    stack.start()
    rng = random.Random(args.seed)
    try:
        import faults

        from tables import rooms
        from tables.models import Room

        # No deadline may fire during the run: only our frames may move the round.
        Room.objects.filter(pk=players[0].room_id).update(turn_timeout_s=900, claim_timeout_s=900)
        faults.fresh_rounds([players])
        log(f"websocket fuzz for {args.seconds:.0f} s as {players[0].username}")
        asyncio.run(websocket_phase(players[0], stack.ports[0], args.seconds, rng))
        room = Room.objects.get(pk=players[0].room_id)
        for p in players:  # the match ends: nothing moves in the background any more
            rooms.seat_leave(room=room, user=User.objects.get(username=p.username))
        JUDGE_CASES[:] = judge_cases()
        log(f"HTTP fuzz for {args.seconds:.0f} s ({len(JUDGE_CASES)} judge cases to mutate)")
        http_phase(stack.ports[0], token.key, args.seconds, rng)
        alive = all(p.poll() is None for p in stack.procs.values())
        if not alive:
            problem("a server process died")
    finally:
        stack.stop()
    print(f"\n{len(PROBLEMS)} problems" + "".join(f"\n  - {p}" for p in PROBLEMS[:30]))
    return 1 if PROBLEMS else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
