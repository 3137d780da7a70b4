"""API of players and clubs: me/profile, a token, clubs, joining and membership decisions.

Permissions mirror the pages (``accounts.views``): a player sees the clubs they belong to (and
their own pending requests); a club's member list is for its active members, its pending
requests for its owner and admins; every change goes through ``accounts.services``, which
checks the role itself.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import Count, Q, QuerySet
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import services
from accounts.display_names import display_name_validate
from accounts.errors import (
    AlreadyMember,
    ClubError,
    ClubPermissionDenied,
    InviteCodeNotFound,
    NameTakenInClub,
)
from accounts.membership import active_club_ids, is_active_member, membership_manages
from accounts.models import Club, Membership, User
from config.api_common import ANY_ID, ERRORS, THROTTLES, ApiAuthThrottle, ApiPagination, refusal


def _me(request: Request) -> User:
    user = request.user
    assert isinstance(user, User)  # IsAuthenticated ran first
    return user


def club_refusal(error: ClubError) -> Response:
    """A club service's refusal as an API answer (403 / 404 / 409)."""
    if isinstance(error, ClubPermissionDenied):
        return refusal(str(error), "permission_denied", status.HTTP_403_FORBIDDEN)
    if isinstance(error, InviteCodeNotFound):
        return refusal(str(error), "invite_code_not_found", status.HTTP_404_NOT_FOUND)
    if isinstance(error, AlreadyMember):
        return refusal(str(error), "already_member", status.HTTP_409_CONFLICT)
    if isinstance(error, NameTakenInClub):
        return refusal(str(error), "name_taken", status.HTTP_409_CONFLICT)
    return refusal(str(error), "membership_state", status.HTTP_409_CONFLICT)


# --- me ---------------------------------------------------------------------------------------


class ProfileSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    public_name = serializers.CharField(read_only=True)
    initials = serializers.CharField(read_only=True)

    class Meta:
        model = User
        fields = (
            "id",
            "username",
            "email",
            "display_name",
            "public_name",
            "initials",
            "avatar_color",
            "language",
        )
        read_only_fields = ("id", "username", "email")

    def validate_display_name(self, value: str) -> str:
        """The one display name check (``accounts.display_names``), as on the profile page."""
        assert isinstance(self.instance, User)  # the serializer edits the signed-in player
        try:
            return display_name_validate(user=self.instance, name=value)
        except DjangoValidationError as error:
            raise serializers.ValidationError(error.messages, code=error.code) from None


class MeView(APIView):
    """The signed-in player's profile: read it, or change display name, colour and language."""

    permission_classes = (IsAuthenticated,)
    throttle_classes = THROTTLES

    @extend_schema(responses=ProfileSerializer, operation_id="me_retrieve")
    def get(self, request: Request) -> Response:
        return Response(ProfileSerializer(_me(request)).data)

    @extend_schema(
        request=ProfileSerializer, responses=ProfileSerializer, operation_id="me_partial_update"
    )
    def patch(self, request: Request) -> Response:
        serializer = ProfileSerializer(_me(request), data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        serializer.save()
        return Response(serializer.data)


class TokenView(ObtainAuthToken):
    """Exchange a username and password for an API token (``Authorization: Token <key>``)."""

    permission_classes = (AllowAny,)
    throttle_classes = (ApiAuthThrottle,)

    @extend_schema(
        request=inline_serializer(
            "TokenRequest",
            {"username": serializers.CharField(), "password": serializers.CharField()},
        ),
        responses={200: inline_serializer("TokenResponse", {"token": serializers.CharField()})},
        auth=[],
        operation_id="auth_token_create",
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = self.get_serializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        token, _ = Token.objects.get_or_create(user=serializer.validated_data["user"])
        return Response({"token": token.key})


# --- clubs ------------------------------------------------------------------------------------


class ClubSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    owner = serializers.CharField(source="owner.public_name", read_only=True)
    member_count = serializers.IntegerField(read_only=True)
    my_role = serializers.SerializerMethodField()
    my_status = serializers.SerializerMethodField()
    invite_code = serializers.SerializerMethodField()

    class Meta:
        model = Club
        fields = (
            "id",
            "name",
            "description",
            "owner",
            "join_policy",
            "member_count",
            "my_role",
            "my_status",
            "invite_code",
            "created_at",
        )
        read_only_fields = ("id", "created_at")

    def _mine(self, club: Club) -> Membership | None:
        mine: dict[int, Membership] = self.context.get("my_memberships", {})
        return mine.get(club.pk)

    def get_my_role(self, club: Club) -> str | None:
        membership = self._mine(club)
        return None if membership is None else membership.role

    def get_my_status(self, club: Club) -> str | None:
        membership = self._mine(club)
        return None if membership is None else membership.status

    def get_invite_code(self, club: Club) -> str | None:
        """Shown to active members (they invite their friends), not to pending applicants."""
        membership = self._mine(club)
        return club.invite_code if membership is not None and membership.is_active else None


class ClubCreateSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    class Meta:
        model = Club
        fields = ("name", "description", "join_policy")


class JoinSerializer(serializers.Serializer):  # type: ignore[type-arg]
    code = serializers.CharField(max_length=16)


class MemberSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    user_id = serializers.IntegerField(read_only=True)
    name = serializers.CharField(source="user.public_name", read_only=True)

    class Meta:
        model = Membership
        fields = ("id", "user_id", "name", "role", "status", "joined_at")


class ClubViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,  # type: ignore[type-arg]
):
    """My clubs (亲友圈): those I belong to or asked to join; open one, join one by its code."""

    permission_classes = (IsAuthenticated,)
    throttle_classes = THROTTLES
    lookup_value_regex = ANY_ID  # a malformed id is a JSON 404, not the site's HTML one
    pagination_class = ApiPagination
    serializer_class = ClubSerializer
    queryset = Club.objects.none()  # for the schema; the real one is per player

    def get_queryset(self) -> QuerySet[Club]:
        if getattr(self, "swagger_fake_view", False):
            return Club.objects.none()
        mine = Membership.objects.filter(user=_me(self.request)).values("club")
        return (
            Club.objects.filter(pk__in=mine)
            .select_related("owner")
            .annotate(
                member_count=Count(
                    "memberships", filter=Q(memberships__status=Membership.Status.ACTIVE)
                )
            )
            .order_by("name", "pk")
        )

    def get_serializer_context(self) -> dict[str, Any]:
        context = dict(super().get_serializer_context())
        if not getattr(self, "swagger_fake_view", False) and self.request.user.is_authenticated:
            context["my_memberships"] = {
                m.club_id: m for m in Membership.objects.filter(user=_me(self.request))
            }
        return context

    @extend_schema(request=ClubCreateSerializer, responses={201: ClubSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Open a club; I become its owner (圈主)."""
        data = ClubCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        club = services.club_create(owner=_me(request), **data.validated_data)
        return Response(
            self.get_serializer(self.get_queryset().get(pk=club.pk)).data,
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(request=JoinSerializer, responses={201: MemberSerializer, **ERRORS})
    @action(detail=False, methods=["post"])
    def join(self, request: Request) -> Response:
        """Join a club by its invite code (a pending request if the club admits by approval)."""
        data = JoinSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            membership = services.club_join_by_code(
                user=_me(request), code=data.validated_data["code"]
            )
        except ClubError as error:
            return club_refusal(error)
        return Response(MemberSerializer(membership).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None, **ERRORS})
    @action(detail=True, methods=["post"])
    def leave(self, request: Request, pk: str | None = None) -> Response:
        """Leave the club (the owner cannot)."""
        club = self.get_object()
        membership = Membership.objects.filter(club=club, user=_me(request)).first()
        if membership is None:
            return refusal("not a member", "not_member", status.HTTP_404_NOT_FOUND)
        try:
            services.membership_remove(actor=_me(request), membership=membership)
        except ClubError as error:
            return club_refusal(error)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(responses={200: MemberSerializer(many=True), **ERRORS})
    @action(detail=True, methods=["get"])
    def members(self, request: Request, pk: str | None = None) -> Response:
        """Active members (for members); managers also see the pending requests."""
        club = self.get_object()
        mine = Membership.objects.filter(club=club, user=_me(request)).first()
        if mine is None or not is_active_member(_me(request), club.pk):
            return refusal("members only", "not_member", status.HTTP_403_FORBIDDEN)
        rows = Membership.objects.filter(club=club).select_related("user")
        if not membership_manages(mine):
            rows = rows.filter(status=Membership.Status.ACTIVE)
        page = self.paginate_queryset(rows.order_by("joined_at", "pk"))
        return self.get_paginated_response(MemberSerializer(page, many=True).data)


class MembershipViewSet(viewsets.GenericViewSet):  # type: ignore[type-arg]
    """A manager's decisions on a membership: approve, reject, remove (as on the club page)."""

    permission_classes = (IsAuthenticated,)
    throttle_classes = THROTTLES
    lookup_value_regex = ANY_ID  # a malformed id is a JSON 404, not the site's HTML one
    serializer_class = MemberSerializer
    queryset = Membership.objects.none()
    decisions: ClassVar[dict[str, Any]] = {
        "approve": services.membership_approve,
        "reject": services.membership_reject,
        "remove": services.membership_remove,
    }

    def get_queryset(self) -> QuerySet[Membership]:
        """Memberships of the clubs I am an active member of (others are not found)."""
        if getattr(self, "swagger_fake_view", False):
            return Membership.objects.none()
        clubs = active_club_ids(_me(self.request))
        return Membership.objects.filter(club__in=clubs).select_related("club", "user")

    def _decide(self, request: Request, name: str) -> Response:
        membership = self.get_object()
        try:
            result = self.decisions[name](actor=_me(request), membership=membership)
        except ClubError as error:
            return club_refusal(error)
        if result is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(MemberSerializer(result).data)

    @extend_schema(request=None, responses={200: MemberSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def approve(self, request: Request, pk: str | None = None) -> Response:
        """Admit a pending request (owner or admin)."""
        return self._decide(request, "approve")

    @extend_schema(request=None, responses={204: None, **ERRORS})
    @action(detail=True, methods=["post"])
    def reject(self, request: Request, pk: str | None = None) -> Response:
        """Turn down a pending request (owner or admin)."""
        return self._decide(request, "reject")

    @extend_schema(request=None, responses={204: None, **ERRORS})
    @action(detail=True, methods=["post"])
    def remove(self, request: Request, pk: str | None = None) -> Response:
        """Remove a member (an admin removes members; only the owner removes an admin)."""
        return self._decide(request, "remove")
