"""Lobby and table URLs (namespace ``tables``); the websocket is in ``tables.routing``."""

from __future__ import annotations

from django.urls import path

from tables import views

app_name = "tables"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("new/", views.room_create, name="room_create"),
    path("join/", views.room_join, name="room_join"),
    path("<int:room_id>/", views.room, name="room"),
    path("<int:room_id>/sit/", views.seat_sit, name="sit"),
    path("<int:room_id>/leave/", views.seat_leave, name="leave"),
    path("<int:room_id>/ready/", views.seat_ready, name="ready"),
    path("<int:room_id>/bots/", views.seat_bots, name="bots"),
    path("<int:room_id>/back/", views.seat_back, name="back"),
]
