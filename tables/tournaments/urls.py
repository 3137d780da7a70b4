"""Event pages (namespace ``tournaments``)."""

from __future__ import annotations

from django.urls import path

from tables.tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("club/<int:club_id>/", views.tournament_list, name="list"),
    path("club/<int:club_id>/new/", views.tournament_create, name="create"),
    path("<int:tournament_id>/", views.tournament_detail, name="detail"),
    path("<int:tournament_id>/register/", views.tournament_register, name="register"),
    path("<int:tournament_id>/manage/", views.tournament_manage, name="manage"),
    path("notifications/", views.notification_list, name="notifications"),
]
