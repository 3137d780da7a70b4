"""Project-level pages: the home page and a health check."""

from __future__ import annotations

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render


def home(request: HttpRequest) -> HttpResponse:
    """Signed-in players land on their clubs; visitors on the sign-up page."""
    if request.user.is_authenticated:
        return render(request, "home.html")
    return redirect("accounts:signup")


def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness for the launcher and load balancers: the database answers."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"ok": True})
