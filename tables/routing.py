"""Websocket routes of the live tables (included by ``config/routing.py``)."""

from __future__ import annotations

from typing import Any

from django.urls import path

from tables.consumers import TableConsumer

websocket_urlpatterns: list[Any] = [
    path("ws/table/<int:room_id>/", TableConsumer.as_asgi()),
]
