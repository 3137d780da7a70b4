"""Small typed readers of the environment that fail loudly on a bad value (healthchecks style).

Every setting that may differ between machines is read through one of these, so that a typo
in production stops the process at start-up with a message naming the variable, instead of
running with a silently wrong default.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit


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


@dataclass(frozen=True)
class DatabaseUrl:
    engine: str
    name: str
    user: str = ""
    password: str = ""
    host: str = ""
    port: str = ""
    options: dict[str, str] | None = None

    def as_django(self, *, pool_size: int = 0) -> dict[str, object]:
        """Django's ``DATABASES`` entry. ``pool_size`` > 0 gives PostgreSQL a connection pool
        (psycopg_pool), so that a websocket's database calls reuse connections instead of opening
        one each time (``CONN_MAX_AGE`` must then stay 0)."""
        config: dict[str, object] = {
            "ENGINE": self.engine,
            "NAME": self.name,
            "USER": self.user,
            "PASSWORD": self.password,
            "HOST": self.host,
            "PORT": self.port,
            "ATOMIC_REQUESTS": False,
            "CONN_MAX_AGE": 0,
        }
        if self.options:
            config["OPTIONS"] = dict(self.options)
        if self.engine.endswith("postgresql") and pool_size > 0:
            options: dict[str, object] = dict(self.options or {})
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


_SCHEMES = {
    "postgres": "django.db.backends.postgresql",
    "postgresql": "django.db.backends.postgresql",
    "sqlite": "django.db.backends.sqlite3",
}


def parse_database_url(url: str, *, base_dir: Path) -> DatabaseUrl:
    """``postgres://user:pass@host:5432/name`` or ``sqlite:///relative/or//absolute.sqlite3``."""
    parts = urlsplit(url)
    engine = _SCHEMES.get(parts.scheme)
    if engine is None:
        raise ImproperlyConfiguredEnv(
            f"DATABASE_URL scheme {parts.scheme!r} is not supported (use postgres:// or sqlite:///)"
        )
    if parts.scheme == "sqlite":
        path = unquote(parts.path)
        # sqlite:////abs/path is absolute; sqlite:///rel/path is relative to the project.
        name = path[1:] if path.startswith("//") else str(base_dir / path.lstrip("/"))
        return DatabaseUrl(engine=engine, name=name)
    name = unquote(parts.path.lstrip("/"))
    if not name:
        raise ImproperlyConfiguredEnv("DATABASE_URL names no database")
    options = {k: v[-1] for k, v in parse_qs(parts.query).items()}
    return DatabaseUrl(
        engine=engine,
        name=name,
        user=unquote(parts.username or ""),
        password=unquote(parts.password or ""),
        host=parts.hostname or "",
        port=str(parts.port or ""),
        options=options or None,
    )


def check_redis_url(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in {"redis", "rediss", "unix"}:
        raise ImproperlyConfiguredEnv(
            f"REDIS_URL={url!r} must start with redis://, rediss:// or unix://"
        )
    return url
