"""What every API view shares: throttles, pagination, the error body and small helpers.

Throttle rates are class attributes (not ``DEFAULT_THROTTLE_RATES``) so the API works with the
project settings as they are; ``API_THROTTLE_RATES`` in settings overrides them by scope.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework import serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

ANY_ID = "[^/]+"
"""Router lookup pattern: any path segment reaches the view, which answers 404 in JSON."""

DEFAULT_RATES = {"user": "600/min", "anon": "60/min", "auth": "10/min"}


def _rate(scope: str) -> str:
    rates: dict[str, str] = getattr(settings, "API_THROTTLE_RATES", {})
    return rates.get(scope, DEFAULT_RATES[scope])


class ApiUserThrottle(UserRateThrottle):
    """Signed-in clients: a generous rate, enough for a table's worth of polling."""

    scope = "user"

    def get_rate(self) -> str:
        return _rate(self.scope)


class ApiAnonThrottle(AnonRateThrottle):
    scope = "anon"

    def get_rate(self) -> str:
        return _rate(self.scope)


class ApiAuthThrottle(AnonRateThrottle):
    """Token requests per client address: password guessing is slow (django-axes locks too)."""

    scope = "auth"

    def get_rate(self) -> str:
        return _rate(self.scope)


THROTTLES = (ApiUserThrottle, ApiAnonThrottle)


class ApiPagination(PageNumberPagination):
    """``?page=`` and ``?page_size=`` (at most 100)."""

    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100


class ErrorSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """The body of a refusal: a readable ``detail`` and, for table refusals, a ``code``."""

    detail = serializers.CharField()
    code = serializers.CharField(required=False)


def refusal(detail: str, code: str, status: int) -> Response:
    """A refusal in the :class:`ErrorSerializer` shape."""
    return Response({"detail": detail, "code": code}, status=status)


ERRORS = {403: ErrorSerializer, 404: ErrorSerializer, 409: ErrorSerializer}
"""The refusals an action may answer, for its OpenAPI responses."""


def int_param(raw: Any) -> int | None:
    """A query parameter as a positive int, or None when absent or not a number."""
    text = str(raw) if raw is not None else ""
    return int(text) if text.isascii() and text.isdigit() and len(text) < 12 else None
