"""Hostile HTTP: a forged X-Forwarded-For does not escape the throttles, and every page
carries a Content-Security-Policy that its own markup obeys (no inline script or style)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.core.cache import cache

pytestmark = pytest.mark.django_db

CASE = {"kind": "ting", "variant": "shape", "dealer": 0, "winner": 1, "hand": "1112345678999m"}


@pytest.fixture(autouse=True)
def _judge_rate(settings: Any) -> None:
    cache.clear()
    settings.API_THROTTLE_RATES = {"judge": "3/min"}


def _judge(client: Any, forwarded_for: str) -> int:
    response = client.post(
        "/api/judge/",
        json.dumps(CASE),
        content_type="application/json",
        HTTP_X_FORWARDED_FOR=forwarded_for,
    )
    return int(response.status_code)


def test_a_forged_forwarded_for_header_does_not_escape_the_throttle(client: Any) -> None:
    """NUM_PROXIES = 0 (the default): the client's own address counts, whatever it claims."""
    codes = [_judge(client, f"203.0.113.{n}") for n in range(5)]
    assert codes == [200, 200, 200, 429, 429]


def test_behind_one_proxy_the_address_it_appended_counts(client: Any, settings: Any) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    # The client forges the left part; our proxy appends the real address on the right.
    codes = [_judge(client, f"198.51.100.{n}, 203.0.113.7") for n in range(4)]
    assert codes == [200, 200, 200, 429]
    assert _judge(client, "198.51.100.1, 203.0.113.8") == 200  # another real client


@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/calculator/", "/api/docs/"])
def test_every_page_carries_a_strict_content_security_policy(client: Any, path: str) -> None:
    response = client.get(path, follow=True)
    policy = response["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in policy
    assert directives["connect-src"] == "'self' ws://testserver"


@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/calculator/", "/api/docs/"])
def test_no_page_has_inline_script_or_style(client: Any, path: str) -> None:
    page = client.get(path, follow=True).content.decode()
    scripts = re.findall(r"<script(?P<attrs>[^>]*)>(?P<body>.*?)</script>", page, re.S)
    for attrs, body in scripts:
        assert "src=" in attrs or 'type="application/json"' in attrs, (path, attrs, body[:80])
    assert "<style" not in page
    assert not re.search(r"\sstyle=\"", page), path
    assert not re.search(r"\son[a-z]+=\"", page), path
