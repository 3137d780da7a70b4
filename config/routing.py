"""Websocket routes. The live-table consumer is added by the ``tables`` app."""

from __future__ import annotations

from typing import Any

from tables.routing import websocket_urlpatterns as tables_websocket_urlpatterns

websocket_urlpatterns: list[Any] = [*tables_websocket_urlpatterns]
