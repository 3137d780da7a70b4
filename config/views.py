"""Project-level pages: the home page and a health check."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext, pgettext
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from config.health import health_report


def count_word(n: int) -> str:
    """A small count as a word of the page's language (六 / Six), for "六种玩法"."""
    words = (
        pgettext("count", "一"),
        pgettext("count", "二"),
        pgettext("count", "三"),
        pgettext("count", "四"),
        pgettext("count", "五"),
        pgettext("count", "六"),
        pgettext("count", "七"),
        pgettext("count", "八"),
        pgettext("count", "九"),
        pgettext("count", "十"),
    )
    return words[n - 1] if 1 <= n <= len(words) else str(n)


def variants_context() -> dict[str, Any]:
    """The variants as the registry has them (:mod:`rules.registry`): their names and rules, how
    many there are as a word and their names in one phrase. Derived, never written out: the
    home page said "五种玩法" over six and left 成都 out of its intro."""
    from rules.registry import VARIANTS
    from tables.labels import text

    variants = [(text(v.name.name), text(v.name.rule)) for v in VARIANTS.values()]
    return {
        "variants": variants,
        "variant_count_word": count_word(len(variants)),
        "variant_names": gettext("、").join(name for name, _rule in variants),
    }


def home(request: HttpRequest) -> HttpResponse:
    """Signed-in players land on their clubs; a visitor on a page that says what Queyou is: the
    games, how a club plays, and where to sign up, sign in or try the calculator."""
    if request.user.is_authenticated:
        return render(request, "home.html", variants_context())
    return render(request, "landing.html", variants_context())


@cache
def _favicon() -> bytes:
    return (Path(settings.BASE_DIR) / "static" / "img" / "favicon.svg").read_bytes()


@require_safe
@cache_control(max_age=86400, public=True)
def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``: what a browser asks for on pages that name no icon (the Django admin's:
    a 404 in every admin page's log); the site's SVG icon."""
    return HttpResponse(_favicon(), content_type="image/svg+xml")


def healthz(request: HttpRequest) -> JsonResponse:
    """The truth about the site (:func:`config.health.health_report`): 200 when the database,
    the broker, the clock and the worker all work, else 503 with what failed."""
    report = health_report()
    return JsonResponse(report, status=200 if report["ok"] else 503)
