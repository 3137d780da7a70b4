"""Queyou settings: one module, every machine-specific value read from the environment.

Variables (all optional on a developer machine):
``SECRET_KEY``, ``DEBUG``, ``ALLOWED_HOSTS``, ``CSRF_TRUSTED_ORIGINS``, ``DATABASE_URL``
(default: a SQLite file in ``var/``), ``REDIS_URL`` (default: the Redis that
``python -m config.launcher`` starts on port 6390), ``SECURE_SSL`` (HTTPS-only cookies, HSTS and
redirect; default: on when ``DEBUG`` is off),
``EMAIL_URL``-less e-mail: ``EMAIL_BACKEND`` (default: console), ``DEFAULT_FROM_EMAIL``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from django.utils.translation import gettext_lazy as _

from config.env import (
    ImproperlyConfiguredEnv,
    check_redis_url,
    env_bool,
    env_int,
    env_list,
    env_str,
    parse_database_url,
)

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

DEBUG = env_bool("DEBUG", False)
# Under pytest, test settings are the default: pytest-django loads this module before any conftest
# runs, so ``QUEYOU_TESTING`` set in tests/conftest.py would come too late.
TESTING = env_bool("QUEYOU_TESTING", "pytest" in sys.modules)

_DEV_SECRET = "dev-only-insecure-secret-key-do-not-use-in-production-0123456789abcdef"
SECRET_KEY = env_str("SECRET_KEY", _DEV_SECRET if (DEBUG or TESTING) else "")
if not SECRET_KEY:
    raise ImproperlyConfiguredEnv("SECRET_KEY must be set when DEBUG is off")
if len(SECRET_KEY) < 50 and not (DEBUG or TESTING):
    raise ImproperlyConfiguredEnv("SECRET_KEY must be at least 50 characters long")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "whitenoise.runserver_nostatic",
    "accounts.admin_apps.QueyouAdminConfig",  # django.contrib.admin with the club-aware site
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served from our own static files, no CDN
    "axes",
    "config",
    "accounts",
    "tables",
    "scoring",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.middleware.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Replaces LocaleMiddleware (a subclass): the signed-in player's profile language wins,
    # so it must follow AuthenticationMiddleware; like LocaleMiddleware it precedes Common.
    "accounts.middleware.UserLanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # AxesMiddleware must be last: it turns a lockout into the lockout response.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = None
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": parse_database_url(
        env_str("DATABASE_URL", f"sqlite:///{VAR_DIR.relative_to(BASE_DIR)}/db.sqlite3"),
        base_dir=BASE_DIR,
    ).as_django(pool_size=env_int("DATABASE_POOL_SIZE", 20, minimum=0))
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    # Axes first: it refuses a locked-out username/IP before any password is checked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
if TESTING:
    # Tests create many users; the slow default hasher would dominate the suite's time.
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Login brute-force limit (django-axes): lock a username+IP pair after 5 failures for 15 minutes.
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_TIME = env_int("AXES_COOLOFF_MINUTES", 15, minimum=1) / 60  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "accounts/locked_out.html"

LANGUAGE_CODE = "zh-hans"
LANGUAGES = [("zh-hans", _("简体中文")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "config" / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "Asia/Shanghai")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG or TESTING
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Queyou 雀友 <noreply@localhost>")

# Threads per ASGI process that run the table sockets' database work (tables.consumers); keep it
# below DATABASE_POOL_SIZE so that HTTP requests and Channels' own calls still find connections.
TABLES_DATABASE_THREADS = env_int("TABLES_DATABASE_THREADS", 6, minimum=1)
# How often each ASGI process checks that its table sockets are not behind the database, the
# backstop for a notification lost with the process that committed the move (tables/stream_watch.py;
# 0: off, the clients' idle hello is then the only backstop).
TABLES_STREAM_WATCH_MS = env_int("TABLES_STREAM_WATCH_MS", 1000, minimum=0)
# How often a spectator socket of a room with a spectator delay looks for moves that have aged
# past the delay (tables/delayed.py).
TABLES_DELAYED_TICK_MS = env_int("TABLES_DELAYED_TICK_MS", 1000, minimum=50)
# Open table sockets one user may hold at once (tables/presence.py).
TABLES_MAX_SOCKETS_PER_USER = env_int("TABLES_MAX_SOCKETS_PER_USER", 4, minimum=1)
# Seconds a seated player may have no table socket open before their seat is freed, outside a
# match (tables/rooms.py, sweep_absent_seats; inside a match 托管 plays for them instead).
TABLES_FREE_ABSENT_SEAT_S = env_int("TABLES_FREE_ABSENT_SEAT_S", 60, minimum=1)
# The largest websocket frame the server reads (uvicorn's --ws-max-size, the launcher): the
# biggest client message is a few hundred bytes; uvicorn's default (16 MB) was read before refusal.
WS_MAX_MESSAGE_BYTES = env_int("WS_MAX_MESSAGE_BYTES", 16 * 1024, minimum=1024)

# --- Redis: channel layer and Celery broker ---------------------------------------------------
EMBEDDED_REDIS_PORT = env_int("QUEYOU_REDIS_PORT", 6390, minimum=1)
REDIS_URL = check_redis_url(env_str("REDIS_URL", f"redis://127.0.0.1:{EMBEDDED_REDIS_PORT}/0"))
# The project's own keys in Redis (presence, heartbeats: config/redis_client.py); each test
# process has its own prefix, so parallel runs against one Redis never see each other's keys.
REDIS_KEY_PREFIX = (
    f"queyou-test-{os.getpid()}" if TESTING else env_str("REDIS_KEY_PREFIX", "queyou")
)

# redis-py (>= 6) reads with a 5 s socket timeout by default, and channels_redis waits for a
# message with a 5 s blocking BZPOPMIN: a socket that heard nothing for 5 s had its consumer
# killed by a TimeoutError (the player was disconnected). The read timeout must outlast the pop.
CHANNEL_LAYER_SOCKET_TIMEOUT_S = 15
# redis-py's asyncio pool refuses a 101st concurrent connection (MaxConnectionsError) instead of
# waiting: a burst of sockets joining or leaving their groups at once (a worker's clients
# reconnecting together) crashed handshakes and disconnects. Connections are opened on demand.
CHANNEL_LAYER_MAX_CONNECTIONS = 1000
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {
            "hosts": [
                {
                    "address": REDIS_URL,
                    "socket_timeout": CHANNEL_LAYER_SOCKET_TIMEOUT_S,
                    "max_connections": CHANNEL_LAYER_MAX_CONNECTIONS,
                }
            ],
            "capacity": 1000,
            "expiry": 30,
        },
    }
}

# One cache for every process (API throttle counters, cached leaderboard ratings): Redis in
# production; each test process keeps its own in memory so tests never see each other's counters.
CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
        if TESTING
        else {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "queyou",
        }
    )
}

CELERY_BROKER_URL = REDIS_URL
# kombu's Redis transport with a restore of unacknowledged messages that cannot kill the worker
# when Redis goes away (config/broker.py).
CELERY_BROKER_TRANSPORT = "config.broker:Transport"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# The worker never gives up on the broker: a Redis restart costs a reconnect, not the process.
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_timeout": 5,
    "socket_connect_timeout": 5,
    "health_check_interval": 10,
    "retry_on_timeout": True,
}
# No beat schedule: the clock process (config/clock.py, ``manage.py clock``) runs the sweeps.

# --- API --------------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # JSON with a nesting limit (rules.json_input); forms as DRF's defaults.
    "DEFAULT_PARSER_CLASSES": [
        "config.api_common.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 20,
    "NUM_PROXIES": None,  # set below from the environment
}
# Reverse proxies in front of the app that append to X-Forwarded-For (0: none, clients connect
# directly). The API throttles and the login lockout (django-axes) take the client's address from
# REMOTE_ADDR when it is 0, else from the entry the outermost trusted proxy appended: trusting the
# raw header would let a client choose its own address and escape every per-address limit.
NUM_PROXIES = env_int("NUM_PROXIES", 0, minimum=0)
REST_FRAMEWORK["NUM_PROXIES"] = NUM_PROXIES
if NUM_PROXIES:
    AXES_IPWARE_PROXY_COUNT = NUM_PROXIES
    AXES_IPWARE_PROXY_ORDER = "right-most"
    AXES_IPWARE_META_PRECEDENCE_ORDER = ("HTTP_X_FORWARDED_FOR", "REMOTE_ADDR")
SPECTACULAR_SETTINGS = {
    "TITLE": "Queyou 雀友 API",
    "DESCRIPTION": "Clubs, rooms, matches, results and the hand judge of Queyou.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Four models have a ``status``: name each enum after its model.
    "ENUM_NAME_OVERRIDES": {
        "RoomStatusEnum": "tables.models.Room.Status",
        "MatchStatusEnum": "tables.models.Match.Status",
        "RoundStatusEnum": "tables.models.Round.Status",
        "MembershipStatusEnum": "accounts.models.Membership.Status",
        "VariantEnum": "tables.models.Variant",
        "BotLevelEnum": "tables.models.BotLevel",
    },
}

# --- Security (``manage.py check --deploy`` passes with DEBUG off) ------------------------------
SECURE_SSL = env_bool("SECURE_SSL", not DEBUG and not TESTING)
SECURE_SSL_REDIRECT = SECURE_SSL
# Health checks (Docker, systemd's watch, a load balancer) ask over plain HTTP on the inside: a
# redirect to https:// would read as unhealthy (docs/deploy.md).
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = SECURE_SSL
CSRF_COOKIE_SECURE = SECURE_SSL
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000 if SECURE_SSL else 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_SSL
SECURE_HSTS_PRELOAD = SECURE_SSL
SECURE_PROXY_SSL_HEADER = (
    ("HTTP_X_FORWARDED_PROTO", "https") if env_bool("BEHIND_PROXY", False) else None
)
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # A refused request (4xx) is one line with its path and reason, no traceback; a 500 keeps it.
    "filters": {"client_errors": {"()": "config.log_filters.ClientErrorOnOneLine"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["client_errors"]},
    },
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {
        "axes": {"level": "WARNING"},
        # A line for every task received and done (bots' moves, the clock's worker ping) would
        # drown what matters; failures are still logged at ERROR.
        "celery.app.trace": {"level": "WARNING"},
        "celery.worker.strategy": {"level": "WARNING"},
    },
}
