"""算番器 (hand calculator): a public page and its JSON endpoint.

``POST /api/judge/`` takes one judge case (``judge.md``, *A case*) and answers exactly what
``python -m rules judge`` answers for it (the same :func:`rules.judge.judge_case`, hence the same
hand rules the live tables call), without the ``id`` when none was sent. An invalid case is a
400 with ``{"id": ..., "error": "..."}``, the judge's error line.

Decisions: the endpoint is public (the page is for anyone, signed in or not) and has no side
effects; a signed-in browser still sends its CSRF token (DRF's session authentication checks it),
and every client is throttled per address or user (scope ``judge``, 120 requests a minute,
``API_THROTTLE_RATES["judge"]`` overrides). A request body over 16 KB is refused: a case is a few
hundred bytes, and the judge should never be asked to parse a novel.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.exceptions import ParseError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from rules.case_facts import case_facts
from rules.errors import RulesError
from rules.judge import judge_case
from rules.registry import JUDGED
from tables.labels import calculator_labels
from tables.room_options import options_schema

MAX_BODY = 16 * 1024
JUDGE_RATE = "120/min"


class JudgeThrottle(SimpleRateThrottle):
    """Per signed-in user, else per client address."""

    scope = "judge"

    def get_rate(self) -> str:
        rates: dict[str, str] = getattr(settings, "API_THROTTLE_RATES", {})
        return rates.get(self.scope, JUDGE_RATE)

    def get_cache_key(self, request: Any, view: Any) -> str:
        user = getattr(request, "user", None)
        ident = (
            f"user-{user.pk}"
            if user is not None and user.is_authenticated
            else self.get_ident(request)
        )
        return self.cache_format % {"scope": self.scope, "ident": ident}


@extend_schema_field(options_schema(keep_unknown=True))
class CaseOptionsField(serializers.DictField):
    """A case's room options: every variant's, with their types and bounds (unknown keys are
    ignored, judge.md)."""


class MeldSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """An exposed or declared set (judge.md, ``melds``)."""

    type = serializers.ChoiceField(choices=["chow", "pong", "kong", "special_kong"])
    tiles = serializers.CharField(help_text="mpsz notation, e.g. 345m")
    concealed = serializers.BooleanField(required=False, help_text="暗杠 (kong only)")
    name = serializers.ChoiceField(
        choices=["xuanfeng", "xi", "yao", "jiu"], required=False, help_text="special kong"
    )
    from_ = serializers.IntegerField(required=False, min_value=0, max_value=3, label="from")

    def get_fields(self) -> dict[str, Any]:
        fields: dict[str, Any] = super().get_fields()
        fields["from"] = fields.pop("from_")  # ``from`` is a Python keyword
        return fields


class JudgeCaseSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """One case of ``python -m rules judge`` (judge.md, *A case*)."""

    id = serializers.JSONField(required=False, help_text="echoed back")
    kind = serializers.ChoiceField(choices=["win", "ting"])
    variant = serializers.ChoiceField(choices=list(JUDGED))
    options = CaseOptionsField(required=False, help_text="room options; defaults apply")
    dealer = serializers.IntegerField(min_value=0, max_value=3)
    winner = serializers.IntegerField(min_value=0, max_value=3)
    hand = serializers.CharField(help_text="concealed tiles, the winning tile included")
    melds = MeldSerializer(many=True, required=False)
    win_tile = serializers.CharField(required=False)
    win_by = serializers.ChoiceField(
        choices=["discard", "self_draw", "kong_draw", "rob_kong"], required=False
    )
    discarder = serializers.IntegerField(required=False, min_value=0, max_value=3)
    ting = serializers.BooleanField(required=False)
    treasure = serializers.CharField(required=False, allow_null=True)
    treasure_win = serializers.BooleanField(required=False)
    opened = serializers.ListField(child=serializers.BooleanField(), required=False)
    extra = serializers.DictField(required=False)


class JudgeAnswerSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """The judge's answer: a win's verdict, or a ting query's waits (judge.md, *The answer*)."""

    id = serializers.JSONField(required=False, allow_null=True, help_text="the case's id")
    legal = serializers.BooleanField(required=False)
    reason = serializers.CharField(required=False, help_text="the first failing condition")
    fan = serializers.DictField(child=serializers.IntegerField(), required=False)
    total = serializers.IntegerField(required=False)
    payments = serializers.ListField(child=serializers.IntegerField(), required=False)
    waits = serializers.ListField(child=serializers.CharField(), required=False)
    ting_allowed = serializers.BooleanField(required=False)


class JudgeErrorSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """An invalid case: the judge's error line."""

    id = serializers.JSONField(required=False, allow_null=True)
    error = serializers.CharField()


EXAMPLE_CASE = {
    "kind": "win",
    "variant": "changchun",
    "dealer": 0,
    "winner": 1,
    "hand": "234m 678p 345s 678s 77z",
    "win_tile": "7z",
    "win_by": "discard",
    "discarder": 2,
    "ting": True,
}


class JudgeView(APIView):
    """算番器: judge one hand, as ``python -m rules judge`` does."""

    permission_classes = (AllowAny,)
    throttle_classes = (JudgeThrottle,)

    @extend_schema(
        operation_id="judge_hand",
        summary="Judge a hand (算番器)",
        description=(
            "POST one judge case (the JSON object of `python -m rules judge`); the answer is the "
            "judge's: `legal`, `fan`, `total`, `payments` or the failing `reason` for a win, "
            "`waits` and `ting_allowed` for a ting query. Public; throttled."
        ),
        request=JudgeCaseSerializer,
        responses={
            200: JudgeAnswerSerializer,
            400: JudgeErrorSerializer,
            413: JudgeErrorSerializer,
            500: JudgeErrorSerializer,
        },
        examples=[OpenApiExample("Changchun 单调 on 中", value=EXAMPLE_CASE, request_only=True)],
        tags=["judge"],
    )
    def post(self, request: Request) -> Response:
        length = str(request.META.get("CONTENT_LENGTH") or "0")
        if not (length.isascii() and length.isdigit()) or int(length) > MAX_BODY:
            return Response({"id": None, "error": "case too large"}, status=413)
        try:
            case = request.data
        except ParseError as exc:  # the judge's error line, as for any other invalid case
            return Response({"id": None, "error": f"not valid JSON: {exc.detail}"}, status=400)
        case_id = case.get("id") if isinstance(case, dict) else None
        try:
            answer = judge_case(case)
        except RulesError as exc:
            return Response({"id": case_id, "error": str(exc)}, status=status.HTTP_400_BAD_REQUEST)
        except Exception as exc:  # a judge bug: the CLI's error line (judge_line), as a 500
            error = f"internal error: {type(exc).__name__}: {exc}"
            return Response({"id": case_id, "error": error}, status=500)
        body = {"id": case_id, **answer} if case_id is not None else answer
        return Response(body)


def variant_setup() -> dict[str, Any]:
    """What the page needs to build its forms and cases, for every variant the judge knows
    (:func:`rules.case_facts.case_facts`: options, tiles, hand size, treasure, chows, special
    kongs, the ``extra`` facts), so that its script never names a variant."""
    return {key: case_facts(variant) for key, variant in JUDGED.items()}


def calculator_page(request: HttpRequest) -> HttpResponse:
    """The public 算番器 page (plain JS in ``static/calculator/``)."""
    return render(
        request,
        "calculator.html",
        {"calc_labels": calculator_labels(), "calc_variants": variant_setup()},
    )
