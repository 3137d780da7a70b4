"""Project-level pages: the home page and a health check."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render

from config.health import health_report


def home(request: HttpRequest) -> HttpResponse:
    """Signed-in players land on their clubs; visitors on the sign-up page."""
    if request.user.is_authenticated:
        return render(request, "home.html")
    return redirect("accounts:signup")


def healthz(request: HttpRequest) -> JsonResponse:
    """The truth about the site (:func:`config.health.health_report`): 200 when the database,
    the broker, the clock and the worker all work, else 503 with what failed."""
    report = health_report()
    return JsonResponse(report, status=200 if report["ok"] else 503)
