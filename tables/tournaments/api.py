"""API of club events: list and read the events of my clubs, their standings, and
register or withdraw; club admins create them. In the OpenAPI schema like every endpoint."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.models import Club, User
from config.api_common import ANY_ID, ERRORS, THROTTLES, ApiPagination
from tables.api import RoomOptionsField, table_refusal
from tables.errors import TableError
from tables.models import Entrant, Tournament
from tables.tournaments import selectors, services


def _me(request: Request) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


TOURNAMENT_SETTINGS = (
    "club",
    "name",
    "variant",
    "options",
    "base_stake",
    "turn_timeout_s",
    "claim_timeout_s",
    "rounds",
    "round_length",
    "hands_per_round",
    "starts_at",
    "registration_open",
    "fill_with_bots",
    "bot_level",
    "placement_points",
    "round_clock_min",
    "spectator_delay_s",
    "duplicate_walls",
    "round1",
)
"""What an admin sets when creating a tournament: written by the create serializer, read back by
the tournament serializer with the tournament's state."""


class TournamentSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    club_name = serializers.CharField(source="club.name", read_only=True)
    options = RoomOptionsField(read_only=True)
    entrants = serializers.SerializerMethodField()
    registered = serializers.SerializerMethodField()

    class Meta:
        model = Tournament
        fields = (
            "id",
            "club_name",
            *TOURNAMENT_SETTINGS,
            "status",
            "current_round",
            "entrants",
            "registered",
            "created_at",
        )
        read_only_fields = fields

    def get_entrants(self, tournament: Tournament) -> int:
        return Entrant.objects.filter(tournament=tournament, withdrawn=False).count()

    def get_registered(self, tournament: Tournament) -> bool:
        me = self.context.get("user_id")
        if me is None:
            return False
        return Entrant.objects.filter(tournament=tournament, user_id=me, withdrawn=False).exists()


class TournamentCreateSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    """建比赛 (club owner or admin): the room options are checked by the variant's rules."""

    club = serializers.PrimaryKeyRelatedField(queryset=Club.objects.all())
    options = RoomOptionsField(required=False, default=dict)
    placement_points = serializers.ListField(
        child=serializers.IntegerField(), min_length=4, max_length=4, required=False
    )

    class Meta:
        model = Tournament
        fields = TOURNAMENT_SETTINGS


class StandingSerializer(serializers.Serializer):  # type: ignore[type-arg]
    entrant_id = serializers.IntegerField()
    name = serializers.CharField()
    is_bot = serializers.BooleanField()
    rank = serializers.IntegerField()
    points = serializers.CharField(help_text="placement points, an exact fraction as text")
    score = serializers.IntegerField()
    firsts = serializers.IntegerField()
    tables_played = serializers.IntegerField()
    best_table_score = serializers.IntegerField(allow_null=True)


class RegisterSerializer(serializers.Serializer):  # type: ignore[type-arg]
    withdraw = serializers.BooleanField(default=False)


class TournamentViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,  # type: ignore[type-arg]
):
    """Events (比赛) of my clubs."""

    permission_classes = (IsAuthenticated,)
    throttle_classes = THROTTLES
    lookup_value_regex = ANY_ID
    pagination_class = ApiPagination
    queryset = Tournament.objects.none()

    def get_serializer_class(self) -> type[serializers.BaseSerializer[Any]]:
        return TournamentCreateSerializer if self.action == "create" else TournamentSerializer

    def get_serializer_context(self) -> dict[str, Any]:
        context = dict(super().get_serializer_context())
        context["user_id"] = getattr(self.request.user, "pk", None)
        return context

    def get_queryset(self) -> QuerySet[Tournament]:
        if getattr(self, "swagger_fake_view", False):
            return Tournament.objects.none()
        return selectors.tournaments_visible_to(_me(self.request)).order_by("-created_at", "pk")

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, TableError):
            return table_refusal(exc)
        response: Response = super().handle_exception(exc)
        return response

    def _answer(self, tournament: Tournament, http: int = status.HTTP_200_OK) -> Response:
        fresh = self.get_queryset().get(pk=tournament.pk)
        return Response(
            TournamentSerializer(fresh, context=self.get_serializer_context()).data, http
        )

    @extend_schema(
        request=TournamentCreateSerializer, responses={201: TournamentSerializer, **ERRORS}
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Create an event in a club I own or administer."""
        data = TournamentCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        try:
            made = services.tournament_create(user=_me(request), **fields)
        except DjangoValidationError as error:
            detail = error.message_dict if hasattr(error, "error_dict") else error.messages
            raise serializers.ValidationError(detail) from error
        return self._answer(made, status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: StandingSerializer(many=True), **ERRORS})
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, pk: str | None = None) -> Response:
        """The standings: placement points, then score, then the tie-breaks (live during the
        event, final after)."""
        tournament = self.get_object()
        names = services.entrant_names(tournament)
        rows = [
            {
                "entrant_id": s.row.entrant_id,
                "name": s.name,
                "is_bot": s.is_bot,
                "rank": s.row.rank,
                "points": str(s.row.points),
                "score": s.row.score,
                "firsts": s.row.firsts,
                "tables_played": s.row.tables_played,
                "best_table_score": s.row.best_table_score,
            }
            for s in selectors.standings_view(tournament, names)
        ]
        return Response(StandingSerializer(rows, many=True).data)

    @extend_schema(request=RegisterSerializer, responses={200: TournamentSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def register(self, request: Request, pk: str | None = None) -> Response:
        """报名 (or, with ``withdraw``, 取消报名) while registration is open."""
        tournament = self.get_object()
        data = RegisterSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if data.validated_data["withdraw"]:
            services.tournament_unregister(tournament=tournament, user=_me(request))
        else:
            services.tournament_register(tournament=tournament, user=_me(request))
        return self._answer(tournament)
