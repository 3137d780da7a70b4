"""History, match, round, replay, leaderboard and player rating pages (namespace ``scoring``)."""

from __future__ import annotations

from django.urls import path

from scoring import views

app_name = "scoring"

urlpatterns = [
    path("matches/", views.my_matches, name="my_matches"),
    path("matches/<int:match_id>/", views.match_detail, name="match"),
    path("rounds/<int:round_id>/", views.round_detail, name="round"),
    path("rounds/<int:round_id>/replay/", views.round_replay, name="replay"),
    path("rounds/<int:round_id>/result.png", views.round_result_image, name="result_image"),
    path("rounds/<int:round_id>/review/<int:seat>/", views.round_review, name="review"),
    path("leaderboards/", views.leaderboard, name="leaderboard"),
    path("players/<int:user_id>/ratings/", views.player_ratings, name="player_ratings"),
]
