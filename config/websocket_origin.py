"""The websocket's Origin check: a socket is accepted only from a page of this very site.

Channels' ``AllowedHostsOriginValidator`` compares host names only, so a page served from
``http://127.0.0.1:9999`` (another program on the player's machine, or another scheme) could open
a player's table socket with their session cookie. Here the Origin must name
the same scheme, host and port the socket was requested at (``Host`` must also be one of
``ALLOWED_HOSTS``), or be listed exactly in ``CSRF_TRUSTED_ORIGINS`` — the origins a deployment
behind a TLS-terminating proxy declares (``https://queyou.example``), as it does for forms.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin_key(url: str) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` of an origin, default ports filled in; None if malformed."""
    try:
        parts = urlsplit(url.strip().lower())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        return None
    return parts.scheme, parts.hostname, port if port is not None else DEFAULT_PORTS[parts.scheme]


def origin_allowed(origin: str | None, host: str | None, socket_scheme: str) -> bool:
    """Whether a socket requested at ``host`` over ``socket_scheme`` (``ws``/``wss``) may be
    opened by a page of ``origin``.

    >>> origin_allowed("http://localhost:8000", "localhost:8000", "ws")
    True
    >>> origin_allowed("http://localhost:9999", "localhost:8000", "ws")
    False
    >>> origin_allowed("https://localhost:8000", "localhost:8000", "ws")
    False
    """
    if not origin:
        return False
    key = _origin_key(origin)
    if key is None:
        return False
    trusted = {_origin_key(o) for o in settings.CSRF_TRUSTED_ORIGINS}
    if key in trusted:
        return True
    if not host:
        return False
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return False
    page_scheme = "https" if socket_scheme == "wss" else "http"
    return key == _origin_key(f"{page_scheme}://{host}")


class SameOriginValidator:
    """ASGI middleware: deny a websocket whose Origin is not this site (see the module)."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        headers = dict(scope.get("headers", []))
        origin = headers.get(b"origin", b"").decode("latin1") or None
        host = headers.get(b"host", b"").decode("latin1") or None
        if origin_allowed(origin, host, scope.get("scheme", "ws")):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)
