"""API of the rooms: find a room, open one, sit down (join), stand up (leave), get ready.

The game itself is played over the table websocket (``docs/protocol.md``); the API never shows
anything of a round in play beyond what the table shows everyone (who sits where, whose match):
no tiles, no seed, no events (scoring's round endpoints give those once a round has ended).
Rooms of clubs the player is not an active member of do not exist here (404), as on the pages.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import Count, OuterRef, Prefetch, QuerySet, Subquery
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from accounts import membership
from accounts.codes import normalize_code
from accounts.models import Club, User
from config.api_common import (
    ANY_ID,
    ERRORS,
    THROTTLES,
    ApiHintThrottle,
    ApiPagination,
    int_param,
    refusal,
)
from tables import bot_names, club_admin, hints, rooms
from tables.errors import TableError
from tables.models import BotLevel, Match, Room, Round, Seat, Variant
from tables.room_options import options_schema

_FORBIDDEN_CODES = {"not_member", "not_manager", "hints_off", "not_a_player"}


def _me(request: Request) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


def table_refusal(error: TableError) -> Response:
    """A table service's refusal: 403 for a missing role, else 409 (the table's state)."""
    code = getattr(error, "code", "table_error")
    http = status.HTTP_403_FORBIDDEN if code in _FORBIDDEN_CODES else status.HTTP_409_CONFLICT
    return refusal(str(error), code, http)


SEATS_SCHEMA: dict[str, Any] = {
    "type": "array",
    "minItems": 4,
    "maxItems": 4,
    "description": "Seats 0-3 in turn order; null where nobody sits.",
    "items": {
        "type": "object",
        "nullable": True,
        "properties": {
            "index": {"type": "integer"},
            "name": {"type": "string"},
            "is_bot": {"type": "boolean"},
            "ready": {"type": "boolean"},
            "auto_play": {"type": "boolean"},
            "connected": {"type": "boolean"},
        },
        "required": ["index", "name", "is_bot", "ready", "auto_play", "connected"],
    },
}


@extend_schema_field(options_schema(keep_unknown=False))
class RoomOptionsField(serializers.DictField):
    """A room's options: the schema lists every variant's, with their types and bounds."""


class RoundBriefSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """The public facts of a room's current round (details: ``/api/rounds/{id}/``)."""

    id = serializers.IntegerField()
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Round.Status.choices)


class RoomSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    club_name = serializers.CharField(source="club.name", read_only=True)
    seated = serializers.IntegerField(read_only=True)
    seats = serializers.SerializerMethodField()
    your_seat = serializers.SerializerMethodField()
    match_id = serializers.IntegerField(read_only=True, allow_null=True)
    options = RoomOptionsField(read_only=True)

    class Meta:
        model = Room
        fields = (
            "id",
            "club",
            "club_name",
            "name",
            "variant",
            "options",
            "base_stake",
            "turn_timeout_s",
            "claim_timeout_s",
            "allow_spectators",
            "allow_bots",
            "bot_level",
            "spectator_delay_s",
            "practice",
            "bot_hints",
            "status",
            "invite_code",
            "seated",
            "seats",
            "your_seat",
            "match_id",
            "created_at",
        )
        read_only_fields = fields

    @extend_schema_field(SEATS_SCHEMA)
    def get_seats(self, room: Room) -> list[dict[str, Any] | None]:
        """Four places, ``null`` where nobody sits."""
        seats: list[dict[str, Any] | None] = [None, None, None, None]
        rows = list(room.seats.all())
        bots = bot_names.table_bots(rows, room.bot_level)
        for seat in rows:
            seats[seat.index] = {
                "index": seat.index,
                "name": bot_names.seated_name(seat, bots),
                "is_bot": seat.is_bot,
                "ready": seat.ready,
                "auto_play": seat.auto_play,
                "connected": seat.is_bot or seat.connected,
            }
        return seats

    def get_your_seat(self, room: Room) -> int | None:
        me = self.context.get("user_id")
        for seat in room.seats.all():
            if me is not None and seat.user_id == me:
                return seat.index
        return None


class RoomDetailSerializer(RoomSerializer):
    current_round = serializers.SerializerMethodField()

    class Meta(RoomSerializer.Meta):
        fields = (*RoomSerializer.Meta.fields, "current_round")  # type: ignore[assignment]
        read_only_fields = fields  # type: ignore[assignment]

    @extend_schema_field(RoundBriefSerializer(allow_null=True))
    def get_current_round(self, room: Room) -> dict[str, Any] | None:
        rnd = (
            Round.objects.filter(match__room=room)
            .order_by("-match_id", "-number")
            .only("pk", "number", "status")
            .first()
        )
        return None if rnd is None else {"id": rnd.pk, "number": rnd.number, "status": rnd.status}


class RoomCreateSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    """开房间: the club must be one of mine; ``options`` are checked by the variant's rules."""

    club = serializers.PrimaryKeyRelatedField(queryset=Club.objects.all())
    options = RoomOptionsField(required=False, default=dict)

    class Meta:
        model = Room
        fields = (
            "club",
            "name",
            "variant",
            "options",
            "base_stake",
            "turn_timeout_s",
            "claim_timeout_s",
            "allow_spectators",
            "allow_bots",
            "bot_level",
            "spectator_delay_s",
            "practice",
            "bot_hints",
        )
        extra_kwargs = {  # noqa: RUF012  # DRF reads a plain dict here
            "spectator_delay_s": {
                "help_text": "Seconds (0-1800) spectators watch behind the play, seeing every "
                "hand; 0 = live, no hands. Club owners and admins only."
            },
            "practice": {
                "help_text": "A practice room (练习房): its rounds are kept in the history but "
                "never rated nor on a leaderboard."
            },
            "bot_hints": {
                "help_text": "Practice rooms only: a seated player may ask what the hard bot "
                "would play (GET /api/rooms/{id}/hint/)."
            },
        }


class HintSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """The hard bot's advice at my seat's decision (``rules.review.advice``)."""

    round = serializers.IntegerField()
    version = serializers.IntegerField(help_text="the round's version the hint is for")
    seat = serializers.IntegerField()
    kind = serializers.CharField(help_text="discard, ting, kong, win, claim, void, exchange, …")
    bot = serializers.DictField(help_text="the action, as the table's legal actions are written")
    forced = serializers.BooleanField(help_text="the seat has only this one action")
    candidates = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text="on a discard: each kind's shanten, effective tiles [[tile, copies]], total",
    )
    best = serializers.CharField(required=False, allow_null=True)
    tile = serializers.CharField(required=False, help_text="in a claim window: the discard")
    options = serializers.ListField(
        child=serializers.DictField(), required=False, help_text="in a claim window: each answer"
    )


class SeatRequestSerializer(serializers.Serializer):  # type: ignore[type-arg]
    index = serializers.IntegerField(min_value=0, max_value=3, required=False, allow_null=True)


class JoinByCodeSerializer(SeatRequestSerializer):
    code = serializers.CharField(max_length=16)


class BotsSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """机器人补位: the level (简单 easy, 普通 normal, 困难 hard; default the room's) and, to fill
    one seat only, its index."""

    level = serializers.ChoiceField(choices=BotLevel.choices, required=False)
    index = serializers.IntegerField(min_value=0, max_value=3, required=False, allow_null=True)


class ReadySerializer(serializers.Serializer):  # type: ignore[type-arg]
    ready = serializers.BooleanField(default=True)


class DissolveSerializer(serializers.Serializer):  # type: ignore[type-arg]
    reason = serializers.CharField(max_length=200)


def rooms_visible_to(user: User) -> QuerySet[Room]:
    """Rooms of the clubs the player is an active member of, with what the list shows."""
    playing = Match.objects.filter(room=OuterRef("pk"), status=Match.Status.PLAYING)
    return (
        Room.objects.filter(club__in=membership.active_club_ids(user))
        .select_related("club")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .annotate(
            seated=Count("seats", distinct=True),
            match_id=Subquery(playing.values("pk")[:1]),
        )
        .order_by("club__name", "-created_at", "pk")
    )


ROOM_FILTERS = [
    OpenApiParameter("variant", OpenApiTypes.STR, enum=Variant.values),
    OpenApiParameter("club", OpenApiTypes.INT, description="a club id"),
    OpenApiParameter(
        "status",
        OpenApiTypes.STR,
        enum=Room.Status.values,
        description="default: every room that is not closed",
    ),
    OpenApiParameter("free_seat", OpenApiTypes.BOOL, description="only rooms with a free seat"),
]


@extend_schema_view(list=extend_schema(parameters=ROOM_FILTERS))
class RoomViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,  # type: ignore[type-arg]
):
    """Rooms of my clubs: the lobby (大厅), a room's table, and the seat actions."""

    permission_classes = (IsAuthenticated,)
    throttle_classes = THROTTLES
    lookup_value_regex = ANY_ID  # a malformed id is a JSON 404, not the site's HTML one
    pagination_class = ApiPagination
    queryset = Room.objects.none()

    def get_serializer_class(self) -> type[serializers.BaseSerializer[Any]]:
        if self.action == "create":
            return RoomCreateSerializer
        if self.action == "list":
            return RoomSerializer
        return RoomDetailSerializer

    def get_serializer_context(self) -> dict[str, Any]:
        context = dict(super().get_serializer_context())
        context["user_id"] = getattr(self.request.user, "pk", None)
        return context

    def get_queryset(self) -> QuerySet[Room]:
        if getattr(self, "swagger_fake_view", False):
            return Room.objects.none()
        rooms = rooms_visible_to(_me(self.request))
        if self.action != "list":
            return rooms
        params = self.request.query_params
        if params.get("variant"):
            rooms = rooms.filter(variant=params["variant"])
        club = int_param(params.get("club"))
        if club is not None:
            rooms = rooms.filter(club_id=club)
        if params.get("status"):
            rooms = rooms.filter(status=params["status"])
        else:
            rooms = rooms.exclude(status=Room.Status.CLOSED)
        if params.get("free_seat") in {"true", "1", "True"}:
            rooms = rooms.filter(seated__lt=4)  # type: ignore[misc]  # an annotation
        return rooms

    def handle_exception(self, exc: Exception) -> Response:
        """A table service's refusal (:class:`tables.TableError`) from any action is
        answered by :func:`table_refusal`; everything else as DRF does."""
        if isinstance(exc, TableError):
            return table_refusal(exc)
        response: Response = super().handle_exception(exc)
        return response

    def _room_answer(self, room: Room, http: int = status.HTTP_200_OK) -> Response:
        fresh = self.get_queryset().get(pk=room.pk)
        return Response(
            RoomDetailSerializer(fresh, context=self.get_serializer_context()).data, http
        )

    @extend_schema(request=RoomCreateSerializer, responses={201: RoomDetailSerializer, **ERRORS})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Open a room in one of my clubs."""
        data = RoomCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        try:
            room = rooms.room_create(user=_me(request), **fields)
        except DjangoValidationError as error:
            raise serializers.ValidationError(_validation_detail(error)) from error
        return self._room_answer(room, status.HTTP_201_CREATED)

    @extend_schema(request=SeatRequestSerializer, responses={200: RoomDetailSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def join(self, request: Request, pk: str | None = None) -> Response:
        """Sit down (入座): at ``index``, or at the first free seat."""
        room = self.get_object()
        data = SeatRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rooms.seat_take(room=room, user=_me(request), index=data.validated_data.get("index"))
        return self._room_answer(room)

    @extend_schema(request=JoinByCodeSerializer, responses={200: RoomDetailSerializer, **ERRORS})
    @action(detail=False, methods=["post"], url_path="join-by-code")
    def join_by_code(self, request: Request) -> Response:
        """Sit down in the room with this invite code (a room of one of my clubs)."""
        data = JoinByCodeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        code = normalize_code(data.validated_data["code"])
        room = self.get_queryset().filter(invite_code=code).first()
        if room is None:
            return refusal("no such room in your clubs", "room_not_found", 404)
        rooms.seat_take(room=room, user=_me(request), index=data.validated_data.get("index"))
        return self._room_answer(room)

    @extend_schema(request=None, responses={200: RoomDetailSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def leave(self, request: Request, pk: str | None = None) -> Response:
        """Stand up (离座); during a match this ends the match (spec README, item 1)."""
        room = self.get_object()
        rooms.seat_leave(room=room, user=_me(request))
        return self._room_answer(room)

    @extend_schema(request=ReadySerializer, responses={200: RoomDetailSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def ready(self, request: Request, pk: str | None = None) -> Response:
        """准备 (or not): when all four seats are ready the match, or its next round, starts."""
        room = self.get_object()
        data = ReadySerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rooms.seat_set_ready(room=room, user=_me(request), ready=data.validated_data["ready"])
        return self._room_answer(room)

    @extend_schema(request=BotsSerializer, responses={200: RoomDetailSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def bots(self, request: Request, pk: str | None = None) -> Response:
        """Fill the empty seats (or seat ``index``) with bots of ``level`` (default: the room's
        bot level) in a room that allows bots; I must be seated, or manage the club."""
        room = self.get_object()
        data = BotsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rooms.seats_fill_with_bots(
            room=room,
            user=_me(request),
            level=data.validated_data.get("level"),
            index=data.validated_data.get("index"),
        )
        return self._room_answer(room)

    @extend_schema(request=None, responses={200: HintSerializer, **ERRORS})
    @action(detail=True, methods=["get"], throttle_classes=(*THROTTLES, ApiHintThrottle))
    def hint(self, request: Request, pk: str | None = None) -> Response:
        """机器人提示 (practice rooms with hints on): what the hard bot would play at my seat's
        decision now, from my seat's view, with each candidate discard's shanten and effective
        tiles. 403 ``hints_off`` / ``not_a_player``; 409 ``no_round`` / ``not_your_decision``."""
        room = self.get_object()
        return Response(hints.hint_for_seat(room=room, user=_me(request)))

    @extend_schema(request=None, responses={200: RoomDetailSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def close(self, request: Request, pk: str | None = None) -> Response:
        """关闭房间 (club owner or admin): everyone stands up; refused while a match is in play."""
        room = self.get_object()
        club_admin.room_close(room=room, actor=_me(request))
        return self._room_answer(room)

    @extend_schema(request=DissolveSerializer, responses={200: RoomDetailSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def dissolve(self, request: Request, pk: str | None = None) -> Response:
        """网管解散 (club owner or admin): the round in play is voided, the match ends, everyone
        at the table is told the reason."""
        room = self.get_object()
        data = DissolveSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        club_admin.table_dissolve(
            room=room, actor=_me(request), reason=data.validated_data["reason"]
        )
        return self._room_answer(room)


def _validation_detail(error: DjangoValidationError) -> Any:
    return (
        error.message_dict if hasattr(error, "error_dict") else {"non_field_errors": error.messages}
    )
