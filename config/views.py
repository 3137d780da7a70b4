"""Project-level pages: the home page and a health check."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from config.health import health_report


def home(request: HttpRequest) -> HttpResponse:
    """Signed-in players land on their clubs; a visitor on a page that says what Queyou is: the
    games, how a club plays, and where to sign up, sign in or try the calculator."""
    if request.user.is_authenticated:
        return render(request, "home.html")
    from rules.registry import VARIANTS
    from tables.labels import text

    variants = [(text(v.name.name), text(v.name.rule)) for v in VARIANTS.values()]
    return render(request, "landing.html", {"variants": variants})


def healthz(request: HttpRequest) -> JsonResponse:
    """The truth about the site (:func:`config.health.health_report`): 200 when the database,
    the broker, the clock and the worker all work, else 503 with what failed."""
    report = health_report()
    return JsonResponse(report, status=200 if report["ok"] else 503)
