"""The REST API under ``/api/`` (documented at ``/api/schema/`` and ``/api/docs/``).

Authentication: the site's session (the browser, with its CSRF token) or a token from
``POST /api/auth/token/`` sent as ``Authorization: Token <key>``.
"""

from __future__ import annotations

from django.urls import include, path
from rest_framework.routers import SimpleRouter

from accounts.api import ClubViewSet, MembershipViewSet, MeView, TokenView
from scoring.api import LeaderboardView, MatchViewSet, PlayerRatingsView, RoundViewSet
from tables.api import RoomViewSet
from tables.calculator import JudgeView
from tables.tournaments.api import TournamentViewSet

router = SimpleRouter()
router.register("clubs", ClubViewSet, basename="api-club")
router.register("memberships", MembershipViewSet, basename="api-membership")
router.register("rooms", RoomViewSet, basename="api-room")
router.register("matches", MatchViewSet, basename="api-match")
router.register("rounds", RoundViewSet, basename="api-round")
router.register("tournaments", TournamentViewSet, basename="api-tournament")

urlpatterns = [
    path("me/", MeView.as_view(), name="api-me"),
    path("auth/token/", TokenView.as_view(), name="api-token"),
    path("leaderboards/", LeaderboardView.as_view(), name="api-leaderboards"),
    path("players/<str:user_id>/ratings/", PlayerRatingsView.as_view(), name="api-player-ratings"),
    path("judge/", JudgeView.as_view(), name="api-judge"),
    path("", include(router.urls)),
]
