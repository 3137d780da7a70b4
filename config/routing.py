"""Websocket routes. The live-table consumer is added by the ``tables`` app."""

from __future__ import annotations

from typing import Any

websocket_urlpatterns: list[Any] = []
