"""Which ASGI server runs Queyou: uvicorn (uvloop + httptools) or daphne (Twisted)?

Starts each server in turn on 127.0.0.1 with production-like settings (DEBUG off) and the same
Django app, loads ``/healthz`` (a view that queries the database) with ``wrk`` from Debian's
packages, and reads the server's peak RSS. Both run on the same 2 cores as wrk, so the numbers
compare with each other; they are not absolute.

    .venv/bin/pip install daphne==4.2.3   # bench-only
    .venv/bin/python bench/bench_asgi_servers.py [--seconds 10] [--connections 64]
"""

from __future__ import annotations

import argparse
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
PY = sys.executable

SERVERS = {
    "uvicorn+uvloop": [
        PY,
        "-m",
        "uvicorn",
        "config.asgi:application",
        "--port",
        "{port}",
        "--loop",
        "uvloop",
        "--http",
        "httptools",
        "--lifespan",
        "off",
        "--log-level",
        "warning",
        "--no-access-log",
    ],
    "daphne": [
        PY,
        "-m",
        "daphne",
        "-p",
        "{port}",
        "-b",
        "127.0.0.1",
        "-v",
        "0",
        "config.asgi:application",
    ],
}


def wait_for_port(port: int) -> None:
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"server on {port} did not start")


def peak_rss_kib(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    match = re.search(r"VmHWM:\s+(\d+) kB", status)
    return int(match.group(1)) if match else 0


def run_one(name: str, port: int, seconds: int, connections: int) -> dict[str, str]:
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECURE_SSL": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECRET_KEY": "bench-" + "k" * 60,
        "LOG_LEVEL": "WARNING",
    }
    args = [a.format(port=port) for a in SERVERS[name]]
    server = subprocess.Popen(args, cwd=BASE_DIR, env=env)
    try:
        wait_for_port(port)
        url = f"http://127.0.0.1:{port}/healthz"
        subprocess.run(
            ["wrk", "-t1", "-c8", "-d2s", url], capture_output=True, check=True
        )  # warm-up
        out = subprocess.run(
            ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", url],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        rps = re.search(r"Requests/sec:\s+([\d.]+)", out)
        p50 = re.search(r"50%\s+(\S+)", out)
        p99 = re.search(r"99%\s+(\S+)", out)
        errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
        return {
            "server": name,
            "req/s": rps.group(1) if rps else "?",
            "p50": p50.group(1) if p50 else "?",
            "p99": p99.group(1) if p99 else "?",
            "non-2xx": errors.group(1) if errors else "0",
            "peak RSS MiB": f"{peak_rss_kib(server.pid) / 1024:.0f}",
        }
    finally:
        server.terminate()
        try:
            server.wait(timeout=5)
        except subprocess.TimeoutExpired:  # daphne drains connections for a long time
            server.kill()
            server.wait()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=64)
    args = parser.parse_args()
    (BASE_DIR / "var" / "staticfiles").mkdir(parents=True, exist_ok=True)
    rows = [
        run_one(name, 8700 + i, args.seconds, args.connections) for i, name in enumerate(SERVERS)
    ]
    keys = list(rows[0])
    print("| " + " | ".join(keys) + " |")
    print("|" + "---|" * len(keys))
    for row in rows:
        print("| " + " | ".join(row[k] for k in keys) + " |")


if __name__ == "__main__":
    main()
