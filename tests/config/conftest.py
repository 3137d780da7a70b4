"""A Redis of the test's own, to kill and start again (the machine's shared Redis is never
restarted by a test)."""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
import redis


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class PrivateRedis:
    """``redis-server`` without persistence on a free port: a restart empties it, as a Redis
    restarted in production without persistence (the launcher's embedded one) comes back."""

    binary: str
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    restarts: int = 0

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def client(self, db: int = 0) -> redis.Redis:
        return redis.Redis(
            port=self.port, db=db, socket_timeout=5, socket_connect_timeout=5, decode_responses=True
        )

    def start(self) -> None:
        args = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1"]
        args += ["--save", "", "--appendonly", "no", "--loglevel", "warning"]
        self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while True:
            try:
                self.client().ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise
                time.sleep(0.05)

    def kill(self) -> None:
        """``kill -9``: its clients see their connections reset, its memory is gone."""
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
            self.process = None

    def restart(self, down_s: float = 0.0) -> None:
        self.kill()
        time.sleep(down_s)
        self.start()
        self.restarts += 1


@pytest.fixture
def private_redis() -> Iterator[PrivateRedis]:
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("no redis-server on this machine")
    server = PrivateRedis(binary)
    server.start()
    try:
        yield server
    finally:
        server.kill()
