"""What the production log says about a refused request: one line for a 403,
with its path and reason; a 500 keeps its traceback."""

from __future__ import annotations

import copy
import io
import logging
import logging.config
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.http import HttpResponse
from django.urls import reverse
from django.utils.log import log_response


@pytest.fixture
def console() -> Iterator[io.StringIO]:
    """The console handler of ``settings.LOGGING`` (what ``DEBUG=0`` servers print), writing
    into a buffer; the root logger is put back as it was afterwards."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    logging.config.dictConfig(copy.deepcopy(settings.LOGGING))
    buffer = io.StringIO()
    for handler in root.handlers:
        assert isinstance(handler, logging.StreamHandler)
        handler.setStream(buffer)
    try:
        yield buffer
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)


@pytest.mark.django_db
def test_a_403_is_one_line_with_its_path_and_reason(
    client, make_user, make_club, console: io.StringIO
) -> None:
    assert settings.DEBUG is False
    other_club = make_club(owner=make_user("owner"))
    client.force_login(make_user("stranger"))
    path = reverse("scoring:leaderboard")
    assert client.get(path, {"club": other_club.pk}).status_code == 403
    lines = console.getvalue().splitlines()
    assert len(lines) == 1, lines
    assert "Forbidden" in lines[0]
    assert path in lines[0]
    assert "only members of this club may see its board" in lines[0]
    assert "Traceback" not in console.getvalue()


def test_a_500_keeps_its_traceback(console: io.StringIO) -> None:
    try:
        raise RuntimeError("a bug")
    except RuntimeError as error:
        # What Django's handler logs for an uncaught exception (handle_uncaught_exception).
        log_response(
            "Internal Server Error: %s",
            "/boom/",
            response=HttpResponse(status=500),
            exception=error,
        )
    text = console.getvalue()
    assert "Internal Server Error: /boom/" in text
    assert "Traceback (most recent call last)" in text
    assert "RuntimeError: a bug" in text


@pytest.mark.django_db
def test_a_bad_host_is_one_line_that_cannot_forge_another(client, console: io.StringIO) -> None:
    """A 400 (``django.security``) too; its reason quotes what the client sent."""
    response = client.get("/", HTTP_HOST="evil.example\nFAKE LINE")
    assert response.status_code == 400
    lines = console.getvalue().splitlines()
    assert lines, "nothing logged"
    # Django logs the bad host once per place that reads it (here twice): a line each.
    for line in lines:
        assert line.startswith("Invalid HTTP_HOST header: 'evil.example\\nFAKE LINE'"), lines
