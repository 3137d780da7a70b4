"""Small typed readers of the environment that fail loudly on a bad value (healthchecks style).

Every setting that may differ between machines is read through one of these, so that a typo
in production stops the process at start-up with a message naming the variable, instead of
running with a silently wrong default.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import dj_database_url


class ImproperlyConfiguredEnv(ValueError):
    """An environment variable holds a value its setting cannot take."""


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfiguredEnv(f"{name}={raw!r} is not a boolean (use 1/0, true/false, yes/no)")


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfiguredEnv(f"{name}={raw!r} is not an integer") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfiguredEnv(f"{name}={value} is below its minimum {minimum}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    """A comma-separated list; blanks are dropped."""
    raw = os.environ.get(name)
    if raw is None:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


_ENGINES = {
    "django.db.backends.postgresql": "postgres",
    "django.db.backends.sqlite3": "sqlite",
}
"""The engines this project runs on (dj-database-url knows more; their drivers are absent)."""


@dataclass(frozen=True)
class DatabaseUrl:
    """``DATABASE_URL`` as dj-database-url parsed it (``config``), with this project's additions
    made by :meth:`as_django`."""

    config: Mapping[str, Any]

    @property
    def engine(self) -> str:
        return str(self.config["ENGINE"])

    @property
    def name(self) -> str:
        return str(self.config["NAME"])

    def as_django(self, *, pool_size: int = 0) -> dict[str, object]:
        """Django's ``DATABASES`` entry. ``pool_size`` > 0 gives PostgreSQL a connection pool
        (psycopg_pool), so that a websocket's database calls reuse connections instead of opening
        one each time (``CONN_MAX_AGE`` must then stay 0)."""
        config: dict[str, object] = {
            "ENGINE": self.engine,
            "NAME": self.name,
            "USER": str(self.config.get("USER", "")),
            "PASSWORD": str(self.config.get("PASSWORD", "")),
            "HOST": str(self.config.get("HOST", "")),
            "PORT": str(self.config.get("PORT", "")),
            "ATOMIC_REQUESTS": False,
            "CONN_MAX_AGE": 0,
        }
        url_options = dict(self.config.get("OPTIONS") or {})
        if url_options:
            config["OPTIONS"] = url_options
        if self.engine.endswith("postgresql") and pool_size > 0:
            options: dict[str, object] = dict(url_options)
            options["pool"] = {"min_size": 1, "max_size": pool_size, "timeout": 10}
            config["OPTIONS"] = options
            # Django then has the pool test a connection before handing it out, so that after a
            # PostgreSQL restart the dead ones are replaced instead of failing a request each.
            config["CONN_HEALTH_CHECKS"] = True
        if self.engine.endswith("sqlite3"):
            # WAL and a busy timeout let the ASGI server, Celery and tests share one file.
            config["OPTIONS"] = {
                "timeout": 20,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            }
            # One test database file per process, so that concurrent test runs never share one.
            test_name = Path(self.name).with_suffix(f".test-{os.getpid()}.sqlite3")
            config["TEST"] = {"NAME": str(test_name)}
        return config


def parse_database_url(url: str, *, base_dir: Path) -> DatabaseUrl:
    """``postgres://user:pass@host:5432/name?sslmode=require`` or
    ``sqlite:///relative/or//absolute.sqlite3``, parsed by dj-database-url (no
    hand-written parser); a relative SQLite path is relative to the project."""
    scheme = url.split("://", 1)[0] if "://" in url else url
    try:
        parsed = dj_database_url.parse(url)
    except ValueError as exc:  # an unknown scheme or a badly quoted URL
        raise ImproperlyConfiguredEnv(f"DATABASE_URL is not usable: {exc}") from None
    engine = str(parsed.get("ENGINE", ""))
    if engine not in _ENGINES:
        raise ImproperlyConfiguredEnv(
            f"DATABASE_URL scheme {scheme!r} is not supported (use postgres:// or sqlite:///)"
        )
    config: dict[str, Any] = dict(parsed)
    name = str(config.get("NAME") or "")
    if not name:
        raise ImproperlyConfiguredEnv("DATABASE_URL names no database")
    if engine.endswith("sqlite3") and name != ":memory:" and not Path(name).is_absolute():
        config["NAME"] = str(base_dir / name)
    return DatabaseUrl(config=config)


def check_redis_url(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in {"redis", "rediss", "unix"}:
        raise ImproperlyConfiguredEnv(
            f"REDIS_URL={url!r} must start with redis://, rediss:// or unix://"
        )
    return url
