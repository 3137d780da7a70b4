"""What every API view shares: the JSON parser, throttles, pagination, the error body and small
helpers.

Throttle rates are class attributes (not ``DEFAULT_THROTTLE_RATES``) so the API works with the
project settings as they are; ``API_THROTTLE_RATES`` in settings overrides them by scope.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework import parsers, serializers
from rest_framework.exceptions import ParseError
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle
from rest_framework.utils.json import strict_constant

from rules import json_input

ANY_ID = "[^/]+"
"""Router lookup pattern: any path segment reaches the view, which answers 404 in JSON."""

DEFAULT_RATES = {"user": "600/min", "anon": "60/min", "auth": "10/min", "hint": "30/min"}


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser (``DEFAULT_PARSER_CLASSES``) through :func:`rules.json_input.loads`:
    JSON nested deeper than :data:`rules.json_input.MAX_DEPTH` is a 400 ``{"detail": "JSON parse
    error - nested deeper than 32 levels: …"}`` like any other malformed body, where ``[`` × 1000
    raised RecursionError, a 500. The judge view answers the same ParseError
    with its error line."""

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        # DRF's own check of the request's charset (text codecs only); not in the stubs.
        encoding = parsers.get_encoding(parser_context or {})  # type: ignore[attr-defined]
        try:
            text = stream.read().decode(encoding)
            return json_input.loads(text, parse_constant=strict_constant if self.strict else None)
        except ValueError as exc:  # UnicodeDecodeError, JSONDecodeError, json_input.TooDeep
            raise ParseError(f"JSON parse error - {exc}") from exc


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


class ApiHintThrottle(UserRateThrottle):
    """机器人提示 per player: each asks the hard bot and the review's analysis (milliseconds of
    CPU), so a practice hint is a button, not a feed."""

    scope = "hint"

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
