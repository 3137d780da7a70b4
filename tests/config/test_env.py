"""Settings are read from the environment and a bad value stops the process with its name."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from config.env import (
    ImproperlyConfiguredEnv,
    check_redis_url,
    env_bool,
    env_int,
    env_list,
    parse_database_url,
)

BASE_DIR = Path(__file__).resolve().parents[2]


def test_env_bool_reads_the_usual_spellings(monkeypatch):
    for raw, expected in [("1", True), ("yes", True), ("On", True), ("0", False), ("false", False)]:
        monkeypatch.setenv("FLAG", raw)
        assert env_bool("FLAG", not expected) is expected


def test_env_bool_rejects_a_typo_naming_the_variable(monkeypatch):
    monkeypatch.setenv("DEBUG", "ture")
    with pytest.raises(ImproperlyConfiguredEnv, match="DEBUG='ture'"):
        env_bool("DEBUG", False)


def test_env_int_rejects_text_and_values_below_the_minimum(monkeypatch):
    monkeypatch.setenv("N", "ten")
    with pytest.raises(ImproperlyConfiguredEnv, match="not an integer"):
        env_int("N", 1)
    monkeypatch.setenv("N", "0")
    with pytest.raises(ImproperlyConfiguredEnv, match="below its minimum 1"):
        env_int("N", 1, minimum=1)


def test_env_list_splits_on_commas_and_drops_blanks(monkeypatch):
    monkeypatch.setenv("HOSTS", " a.example, ,b.example ")
    assert env_list("HOSTS", []) == ["a.example", "b.example"]
    monkeypatch.delenv("HOSTS")
    assert env_list("HOSTS", ["x"]) == ["x"]


def test_database_url_for_postgres_gives_every_part():
    db = parse_database_url("postgres://root:p%40ss@127.0.0.1:5432/queyou", base_dir=BASE_DIR)
    config = db.as_django()
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["NAME"], config["USER"], config["PASSWORD"]) == ("queyou", "root", "p@ss")
    assert (config["HOST"], config["PORT"]) == ("127.0.0.1", "5432")


def test_database_url_for_sqlite_is_relative_to_the_project_unless_absolute():
    assert (
        parse_database_url("sqlite:///var/x.sqlite3", base_dir=Path("/p")).name
        == "/p/var/x.sqlite3"
    )
    assert (
        parse_database_url("sqlite:////tmp/x.sqlite3", base_dir=Path("/p")).name == "/tmp/x.sqlite3"
    )


def test_database_url_with_an_unknown_scheme_is_refused():
    with pytest.raises(ImproperlyConfiguredEnv, match="'mysql' is not supported"):
        parse_database_url("mysql://root@localhost/db", base_dir=BASE_DIR)
    with pytest.raises(ImproperlyConfiguredEnv, match="names no database"):
        parse_database_url("postgres://root@localhost", base_dir=BASE_DIR)


def test_redis_url_must_be_a_redis_url():
    assert check_redis_url("redis://127.0.0.1:6379/0")
    with pytest.raises(ImproperlyConfiguredEnv, match="REDIS_URL"):
        check_redis_url("http://127.0.0.1:6379")


def _django_check(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v for k, v in os.environ.items() if k not in {"QUEYOU_TESTING", "DEBUG", "SECRET_KEY"}
    }
    return subprocess.run(
        [sys.executable, "manage.py", "check", *args],
        cwd=BASE_DIR,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_settings_refuse_to_start_without_a_secret_key():
    result = _django_check({"DEBUG": "0"})
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_production_settings_pass_the_deploy_check_without_warnings():
    env = {
        "DEBUG": "0",
        "SECRET_KEY": "x7" * 30 + "production-like-secret",
        "ALLOWED_HOSTS": "queyou.example",
    }
    result = _django_check(env, "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_postgres_gets_a_connection_pool_and_sqlite_does_not():
    postgres = parse_database_url("postgres://root@127.0.0.1/q", base_dir=BASE_DIR)
    assert postgres.as_django(pool_size=20)["OPTIONS"]["pool"]["max_size"] == 20
    assert postgres.as_django(pool_size=20)["CONN_HEALTH_CHECKS"] is True  # pooled ones checked
    assert "OPTIONS" not in postgres.as_django(pool_size=0)
    sqlite = parse_database_url("sqlite:///var/x.sqlite3", base_dir=BASE_DIR)
    assert "pool" not in sqlite.as_django(pool_size=20)["OPTIONS"]


def test_database_url_options_and_socket_hosts_come_through_dj_database_url():
    """``DATABASE_URL`` is parsed by dj-database-url, so a managed PostgreSQL's
    ``?sslmode=require`` and a Unix socket directory as host reach Django."""
    managed = parse_database_url(
        "postgres://app:s%2Fcret@db.example:6432/queyou?sslmode=require", base_dir=BASE_DIR
    ).as_django(pool_size=5)
    assert managed["OPTIONS"]["sslmode"] == "require"
    assert managed["OPTIONS"]["pool"]["max_size"] == 5
    assert (managed["PASSWORD"], managed["PORT"]) == ("s/cret", "6432")
    socket = parse_database_url("postgres://app@%2Fvar%2Frun%2Fpostgresql/q", base_dir=BASE_DIR)
    assert socket.as_django()["HOST"] == "/var/run/postgresql"


def test_sqlite_test_database_is_named_per_process():
    config = parse_database_url("sqlite:///var/db.sqlite3", base_dir=Path("/p")).as_django()
    assert config["TEST"] == {"NAME": f"/p/var/db.test-{os.getpid()}.sqlite3"}
