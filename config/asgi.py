"""ASGI entry: HTTP through Django, websockets through Channels (session auth + Origin check)."""

from __future__ import annotations

import os
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402  (needs the app registry ready)
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402
from config.websocket_origin import SameOriginValidator  # noqa: E402


def build_application(http: Any = django_asgi_app) -> ProtocolTypeRouter:
    """The whole app; the browser tests build theirs here too, so they run the same checks."""
    return ProtocolTypeRouter(
        {
            "http": http,
            "websocket": SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
        }
    )


application = build_application()
