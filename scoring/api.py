"""API of results: my matches, a match with its rounds, ledgers and fan breakdowns, a round, its
event log and replay (only once it has ended), and the leaderboards.

Permissions mirror the pages (``scoring.views``): a match, its rounds and their replays are for
the active members of the room's club (others get 404: the object is not in their scope), a
round's seed, result, event log and replay only once the round has ended (during play they would
show every hand), and a club's board for its members.
"""

from __future__ import annotations

from dataclasses import asdict
from datetime import date
from typing import Any

from django.db.models import Q, QuerySet
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
from rest_framework.views import APIView

from accounts.models import User
from config.api_common import ANY_ID, ERRORS, THROTTLES, ApiPagination, int_param, refusal
from rules import review as rules_review
from scoring import ratings, reviews, selectors
from scoring.models import LedgerEntry
from scoring.replay import ReplayMismatch, replay_json
from tables import bot_names
from tables.models import Match, Round, RoundEvent, Variant
from tables.selectors import wall_still_in_play

FOUR_INTS: dict[str, Any] = {
    "type": "array",
    "items": {"type": "integer"},
    "minItems": 4,
    "maxItems": 4,
}


def _me(request: Request) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


# --- serializers ------------------------------------------------------------------------------


class FanLineSerializer(serializers.Serializer):  # type: ignore[type-arg]
    key = serializers.CharField()
    value = serializers.IntegerField()
    label = serializers.CharField()  # type: ignore[assignment]  # a field named label
    winner = serializers.IntegerField(help_text="the seat whose win scored the item")


class WinSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """One win of a round with its own fan items (成麻: up to three wins a round)."""

    seat = serializers.IntegerField()
    self_drawn = serializers.BooleanField()
    fan_total = serializers.IntegerField()
    fan = FanLineSerializer(many=True)


class KongLineSerializer(serializers.Serializer):  # type: ignore[type-arg]
    kong_index = serializers.IntegerField()
    konger = serializers.IntegerField()
    kind = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # a field named label
    tiles = serializers.CharField()
    payers = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2),
        help_text="[payer seat, amount] for each payer of this kong",
    )


class RoundRowSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """One settled round: winner, fan breakdown (番种), kong payments (杠分) and the nets."""

    round_id = serializers.IntegerField()
    number = serializers.IntegerField()
    dealer = serializers.IntegerField()
    winner = serializers.IntegerField(allow_null=True)
    win_by = serializers.CharField(allow_blank=True)
    win_by_label = serializers.CharField()
    discarder = serializers.IntegerField(allow_null=True)
    win_tile = serializers.CharField(allow_blank=True)
    fan_total = serializers.IntegerField(help_text="the first win's total")
    fan = FanLineSerializer(many=True, help_text="every win's items, in the order of the wins")
    wins = WinSerializer(many=True, help_text="each win with its own items, in order")
    kongs = KongLineSerializer(many=True)
    capped = serializers.BooleanField()
    cap = serializers.IntegerField(allow_null=True)
    nets = serializers.SerializerMethodField()
    cumulative = serializers.SerializerMethodField()
    ended_at = serializers.DateTimeField()

    @extend_schema_field(FOUR_INTS)
    def get_nets(self, row: Any) -> list[int]:
        return list(row["nets"])

    @extend_schema_field(FOUR_INTS)
    def get_cumulative(self, row: Any) -> list[int]:
        return list(row["cumulative"])


class MatchSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    room_name = serializers.CharField(source="room.name")
    club = serializers.IntegerField(source="room.club_id")
    club_name = serializers.CharField(source="room.club.name")
    seat_names = serializers.SerializerMethodField()
    my_net = serializers.IntegerField(allow_null=True, required=False)
    rounds_settled = serializers.IntegerField(required=False)

    class Meta:
        model = Match
        fields = (
            "id",
            "room",
            "room_name",
            "club",
            "club_name",
            "variant",
            "status",
            "seat_names",
            "started_at",
            "ended_at",
            "end_reason",
            "my_net",
            "rounds_settled",
        )
        read_only_fields = fields

    @extend_schema_field(
        {
            "type": "array",
            "items": {"type": "string"},
            "description": "seats 0-3; a bot is named by its number and level (机器人·简单 1)",
        }
    )
    def get_seat_names(self, match: Match) -> list[str]:
        names: dict[int, str] = self.context.get("names", {})
        if not names:
            return selectors.player_names(match.players, match.bot_levels or ())
        return bot_names.seat_names(match.players, names, match.bot_levels or ())


class MatchDetailSerializer(MatchSerializer):
    totals = serializers.SerializerMethodField()
    places = serializers.SerializerMethodField()
    rounds = serializers.SerializerMethodField()

    class Meta(MatchSerializer.Meta):
        fields = (*MatchSerializer.Meta.fields, "totals", "places", "rounds")  # type: ignore[assignment]
        read_only_fields = fields  # type: ignore[assignment]

    @extend_schema_field(FOUR_INTS)
    def get_totals(self, match: Match) -> list[int]:
        return list(selectors.match_totals(match))

    @extend_schema_field(FOUR_INTS)
    def get_places(self, match: Match) -> list[int]:
        return selectors.placements(selectors.match_totals(match))

    @extend_schema_field(RoundRowSerializer(many=True))
    def get_rounds(self, match: Match) -> list[dict[str, Any]]:
        rows = [asdict(row) for row in selectors.ledger_rows_for_match(match)]
        return [dict(RoundRowSerializer(row).data) for row in rows]


class LedgerLineSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    """账目: one seat's line of a settled round (``user`` null for a bot)."""

    name = serializers.SerializerMethodField()

    class Meta:
        model = LedgerEntry
        fields = (
            "seat",
            "user",
            "name",
            "is_dealer",
            "won",
            "self_drawn",
            "dealt_in",
            "fan_total",
            "win_amount",
            "kong_amount",
            "cap_adjustment",
            "net",
        )
        read_only_fields = fields

    def get_name(self, entry: LedgerEntry) -> str:
        if entry.user is not None:
            return str(entry.user.public_name)
        match = self.context.get("match") or entry.settlement.match
        return selectors.bot_seat_name(match, entry.seat)


class RoundSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    """A round's public record; ``seed``, ``result``, the settlement and the ledger lines stay
    null (empty) until it has ended."""

    seed = serializers.SerializerMethodField()
    result = serializers.SerializerMethodField()
    settlement = serializers.SerializerMethodField()
    ledger = serializers.SerializerMethodField()

    class Meta:
        model = Round
        fields = (
            "id",
            "match",
            "number",
            "status",
            "dealer",
            "commitment",
            "seed",
            "result",
            "settlement",
            "ledger",
            "started_at",
            "ended_at",
        )
        read_only_fields = fields

    @extend_schema_field(LedgerLineSerializer(many=True))
    def get_ledger(self, rnd: Round) -> list[dict[str, Any]]:
        if rnd.status != Round.Status.ENDED:
            return []
        lines = LedgerEntry.objects.filter(settlement__round=rnd).select_related("user")
        serializer = LedgerLineSerializer(
            lines.order_by("seat"), many=True, context={"match": rnd.match}
        )
        return [dict(row) for row in serializer.data]

    @extend_schema_field({"type": "string", "nullable": True})
    def get_seed(self, rnd: Round) -> str | None:
        if rnd.status != Round.Status.ENDED or wall_still_in_play(rnd):
            return None  # duplicate walls: another table still plays this seed
        return rnd.seed

    @extend_schema_field({"type": "object", "nullable": True, "additionalProperties": True})
    def get_result(self, rnd: Round) -> Any:
        return rnd.result if rnd.status == Round.Status.ENDED else None

    @extend_schema_field(RoundRowSerializer(allow_null=True))
    def get_settlement(self, rnd: Round) -> dict[str, Any] | None:
        if rnd.status != Round.Status.ENDED:
            return None
        for row in selectors.ledger_rows_for_match(rnd.match_id):
            if row.round_id == rnd.pk:
                return dict(RoundRowSerializer(asdict(row)).data)
        return None


class EventSerializer(serializers.Serializer):  # type: ignore[type-arg]
    seq = serializers.IntegerField()
    kind = serializers.CharField()
    payload = serializers.DictField()


class ReviewDecisionSerializer(serializers.Serializer):  # type: ignore[type-arg]
    step = serializers.IntegerField(help_text="The replay step (frame) the decision was taken on.")
    kind = serializers.CharField(
        help_text="discard, ting, kong, win, claim, void, exchange, chen or other."
    )
    played = serializers.DictField(help_text="The action played (the engine's JSON).")
    bot = serializers.DictField(help_text="The hard bot's choice from the same seat view.")
    agree = serializers.BooleanField()
    marks = serializers.ListField(
        child=serializers.ChoiceField(choices=rules_review.MARKS),
        help_text="Why the decision is worth another look (empty: it is not).",
    )
    candidates = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text="Discards only: each candidate tile with shanten, effective tiles "
        "([tile, unseen copies]), their total and the reasons a ready shape cannot win.",
    )
    best = serializers.CharField(required=False, allow_null=True)
    tile = serializers.CharField(required=False, help_text="Claims: the tile of the window.")
    from_seat = serializers.IntegerField(
        source="from", required=False, help_text="Claims: the seat that discarded it."
    )
    options = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text="Claims: each answer (pass, chow, pong, kong) with the hand it leads to: "
        "shanten, effective tiles, and after a chow or pong its best discard.",
    )
    dealt_in_to = serializers.ListField(child=serializers.IntegerField(), required=False)


class ReviewSerializer(serializers.Serializer):  # type: ignore[type-arg]
    round_id = serializers.IntegerField()
    seat = serializers.IntegerField(min_value=0, max_value=3)
    version = serializers.IntegerField()
    level = serializers.CharField(help_text="The bot compared with.")
    variant = serializers.CharField()
    count = serializers.IntegerField(help_text="Decisions reviewed.")
    agreed = serializers.IntegerField(help_text="Decisions where the bot played the same.")
    agreement = serializers.FloatField(allow_null=True, help_text="agreed / count.")
    marked = serializers.IntegerField(help_text="Decisions worth another look.")
    decisions = ReviewDecisionSerializer(many=True)
    created = serializers.DateTimeField()


class LeaderboardRowSerializer(serializers.Serializer):  # type: ignore[type-arg]
    rank = serializers.IntegerField()
    user_id = serializers.IntegerField(allow_null=True, help_text="null for a bot level's row")
    bot = serializers.CharField(
        help_text="a bot row's level (easy, normal, hard, unknown); empty for a player"
    )
    name = serializers.CharField()
    net = serializers.IntegerField()
    rounds = serializers.IntegerField()
    wins = serializers.IntegerField()
    self_draws = serializers.IntegerField()
    win_rate = serializers.FloatField()
    self_draw_rate = serializers.FloatField()
    average_fan = serializers.FloatField()
    rating_games = serializers.IntegerField(help_text="rounds counted in the rating")
    rating = serializers.FloatField(
        allow_null=True,
        help_text="the conservative rating (mu - 3 sigma) x 60 in the board's club and variant; "
        "null when the board spans several clubs or variants, or the row is not rated",
    )
    provisional = serializers.BooleanField(help_text="fewer rated rounds than provisional_games")


class LeaderboardSerializer(serializers.Serializer):  # type: ignore[type-arg]
    club = serializers.IntegerField(allow_null=True)
    variant = serializers.CharField(allow_null=True)
    period = serializers.CharField()
    order = serializers.CharField()
    bots = serializers.BooleanField()
    provisional_games = serializers.IntegerField()
    rows = LeaderboardRowSerializer(many=True)


# --- views ------------------------------------------------------------------------------------


def _date_param(raw: Any) -> date | None:
    try:
        return date.fromisoformat(str(raw)) if raw else None
    except ValueError:
        return None


MATCH_FILTERS = [
    OpenApiParameter("variant", OpenApiTypes.STR, enum=Variant.values),
    OpenApiParameter("club", OpenApiTypes.INT, description="a club id"),
    OpenApiParameter("since", OpenApiTypes.DATE, description="started on or after"),
    OpenApiParameter("until", OpenApiTypes.DATE, description="started on or before"),
]


@extend_schema_view(list=extend_schema(parameters=MATCH_FILTERS))
class MatchViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet,  # type: ignore[type-arg]
):
    """我的对局 (the list: matches I played a settled round in) and any match of my clubs."""

    permission_classes = (IsAuthenticated,)
    throttle_classes = THROTTLES
    lookup_value_regex = ANY_ID  # a malformed id is a JSON 404, not the site's HTML one
    pagination_class = ApiPagination
    queryset = Match.objects.none()

    def get_serializer_class(self) -> type[serializers.BaseSerializer[Any]]:
        return MatchSerializer if self.action == "list" else MatchDetailSerializer

    def get_queryset(self) -> QuerySet[Match]:
        if getattr(self, "swagger_fake_view", False):
            return Match.objects.none()
        me = _me(self.request)
        if self.action == "list":
            params = self.request.query_params
            variant = params.get("variant")
            return selectors.matches_for_user(
                me,
                variant=variant if variant in Variant.values else None,
                club_id=int_param(params.get("club")),
                since=_date_param(params.get("since")),
                until=_date_param(params.get("until")),
            )
        return Match.objects.filter(room__club_id__in=selectors.member_club_ids(me)).select_related(
            "room__club"
        )

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        matches = list(page or [])
        ids = {u for m in matches for u in m.players if u is not None}
        names = {u.pk: u.public_name for u in User.objects.filter(pk__in=ids)}
        data = MatchSerializer(matches, many=True, context={"names": names}).data
        return self.get_paginated_response(data)


class RoundViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):  # type: ignore[type-arg]
    """A round of a match of my clubs; its event log and replay once it has ended."""

    permission_classes = (IsAuthenticated,)
    throttle_classes = THROTTLES
    lookup_value_regex = ANY_ID  # a malformed id is a JSON 404, not the site's HTML one
    serializer_class = RoundSerializer
    queryset = Round.objects.none()
    pagination_class = None  # a round's event log is one document, served whole

    def get_queryset(self) -> QuerySet[Round]:
        if getattr(self, "swagger_fake_view", False):
            return Round.objects.none()
        me = _me(self.request)
        clubs = selectors.member_club_ids(me)
        visible = Q(match__room__club_id__in=clubs)
        if self.action == "review":  # and the round's own players, even out of the club now
            visible |= Q(pk__in=selectors.rounds_played_by(me))
        return Round.objects.filter(visible).select_related("match__room").defer("state")

    def _ended(self) -> Round | Response:
        rnd: Round = self.get_object()
        if rnd.status != Round.Status.ENDED or wall_still_in_play(rnd):
            return refusal(
                "available once the round has ended", "round_not_ended", status.HTTP_403_FORBIDDEN
            )
        return rnd

    @extend_schema(responses={200: EventSerializer(many=True), **ERRORS})
    @action(detail=True, methods=["get"])
    def events(self, request: Request, pk: str | None = None) -> Response:
        """The round's whole event log, nothing hidden (ended rounds only)."""
        rnd = self._ended()
        if isinstance(rnd, Response):
            return rnd
        rows = RoundEvent.objects.filter(round=rnd).order_by("seq")
        data = [{"seq": e.seq, "kind": e.kind, "payload": e.payload} for e in rows]
        return Response(EventSerializer(data, many=True).data)

    @extend_schema(responses={200: OpenApiTypes.OBJECT, **ERRORS})
    @action(detail=True, methods=["get"])
    def replay(self, request: Request, pk: str | None = None) -> Response:
        """回放: every step with every hand visible, checked against the log (ended rounds only)."""
        rnd = self._ended()
        if isinstance(rnd, Response):
            return rnd
        try:
            return Response(replay_json(rnd))
        except ReplayMismatch as error:
            return refusal(str(error), "replay_mismatch", status.HTTP_409_CONFLICT)

    @extend_schema(
        parameters=[OpenApiParameter("seat", int, OpenApiParameter.PATH, enum=[0, 1, 2, 3])],
        responses={200: ReviewSerializer, **ERRORS},
    )
    @action(detail=True, methods=["get"], url_path=r"review/(?P<seat>[^/]+)")
    def review(self, request: Request, pk: str | None = None, seat: str = "0") -> Response:
        """牌谱分析 of one seat: each of its decisions with the hard bot's choice, the candidate
        discards' shanten and effective tiles, and the marks (ended rounds only; for the
        round's players and whoever may see its replay). Computed on first request if the task
        after the settlement has not stored it yet."""
        if seat not in ("0", "1", "2", "3"):  # any segment reaches here: a JSON 404, not HTML
            return refusal("a seat is 0, 1, 2 or 3", "not_found", status.HTTP_404_NOT_FOUND)
        rnd = self._ended()
        if isinstance(rnd, Response):
            return rnd
        review = reviews.round_review_get(rnd=rnd, seat=int(seat))
        data = {**review.data, "round_id": rnd.pk, "created": review.created}
        return Response(ReviewSerializer(data).data)


class LeaderboardView(APIView):
    """排行榜 of one club (its members only) or of all the caller's clubs, per variant and
    period."""

    permission_classes = (IsAuthenticated,)
    throttle_classes = THROTTLES

    @extend_schema(
        parameters=[
            OpenApiParameter("club", OpenApiTypes.INT, description="a club id (members only)"),
            OpenApiParameter("variant", OpenApiTypes.STR, enum=Variant.values),
            OpenApiParameter("period", OpenApiTypes.STR, enum=list(selectors.PERIODS)),
            OpenApiParameter("order", OpenApiTypes.STR, enum=["net", "rating"]),
            OpenApiParameter(
                "bots",
                OpenApiTypes.BOOL,
                description="also list a row per bot level (default false: players only)",
            ),
            OpenApiParameter("limit", OpenApiTypes.INT, description="at most 100 rows"),
        ],
        responses={200: LeaderboardSerializer, **ERRORS},
        operation_id="leaderboards_retrieve",
    )
    def get(self, request: Request) -> Response:
        params = request.query_params
        club = int_param(params.get("club"))
        mine = selectors.member_club_ids(_me(request))
        if club is not None and club not in mine:
            return refusal("members only", "not_member", status.HTTP_403_FORBIDDEN)
        variant = params.get("variant") if params.get("variant") in Variant.values else None
        period = params.get("period") if params.get("period") in selectors.PERIODS else "all"
        order = "rating" if params.get("order") == "rating" else "net"
        limit = min(int_param(params.get("limit")) or 100, 100)
        bots = str(params.get("bots", "")).lower() in ("1", "true", "yes", "on")
        rows = selectors.leaderboard_rows(
            club=club if club is not None else mine,
            variant=variant,
            period=str(period),
            order=order,
            limit=limit,
            bots=bots,
        )
        data = {
            "club": club,
            "variant": variant,
            "period": period,
            "order": order,
            "bots": bots,
            "provisional_games": ratings.provisional_games(),
            "rows": [
                {
                    **asdict(row),
                    "win_rate": row.win_rate,
                    "self_draw_rate": row.self_draw_rate,
                    "average_fan": row.average_fan,
                }
                for row in rows
            ],
        }
        return Response(LeaderboardSerializer(data).data)


class RatingPointSerializer(serializers.Serializer):  # type: ignore[type-arg]
    games = serializers.IntegerField(help_text="the player's rated rounds up to this one")
    ended_at = serializers.DateTimeField()
    round = serializers.IntegerField(source="round_id")
    rating = serializers.FloatField(help_text="shown rating after this round")
    change = serializers.FloatField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()


class RatingCardSerializer(serializers.Serializer):  # type: ignore[type-arg]
    club = serializers.IntegerField(source="club_id")
    club_name = serializers.CharField()
    variant = serializers.CharField()
    rating = serializers.FloatField(help_text="(mu - 3 sigma) x 60")
    provisional = serializers.BooleanField()
    games = serializers.IntegerField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    history = RatingPointSerializer(many=True, help_text="newest first, at most `limit`")


class PlayerRatingsSerializer(serializers.Serializer):  # type: ignore[type-arg]
    user_id = serializers.IntegerField()
    name = serializers.CharField()
    provisional_games = serializers.IntegerField()
    ratings = RatingCardSerializer(many=True)


class PlayerRatingsView(APIView):
    """等级分记录: a player's rating in each club (of the caller's) and variant, with its history
    (the page ``/scoring/players/<id>/ratings/``); 404 for a player who shares no club."""

    permission_classes = (IsAuthenticated,)
    throttle_classes = THROTTLES

    @extend_schema(
        parameters=[
            OpenApiParameter("user_id", OpenApiTypes.INT, OpenApiParameter.PATH),
            OpenApiParameter(
                "limit", OpenApiTypes.INT, description="history points per rating (≤ 1000)"
            ),
        ],
        responses={200: PlayerRatingsSerializer, **ERRORS},
        operation_id="player_ratings_retrieve",
    )
    def get(self, request: Request, user_id: str) -> Response:
        player_id = int_param(user_id)
        found = None if player_id is None else selectors.ratings_for_viewer(_me(request), player_id)
        if found is None:
            return refusal("no ratings of this player in your clubs", "not_found", 404)
        player, cards = found
        limit = min(int_param(request.query_params.get("limit")) or 200, 1000)
        data = {
            "user_id": player.pk,
            "name": player.public_name,
            "provisional_games": ratings.provisional_games(),
            "ratings": [
                {
                    "club_id": card.club_id,
                    "club_name": card.club_name,
                    "variant": card.variant,
                    "rating": card.rating,
                    "provisional": card.provisional,
                    "games": card.games,
                    "mu": card.mu,
                    "sigma": card.sigma,
                    "history": card.points[::-1][:limit],
                }
                for card in cards
            ],
        }
        return Response(PlayerRatingsSerializer(data).data)
