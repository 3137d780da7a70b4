"""Schemathesis against the OpenAPI schema, in process (the Django WSGI app, no network).

Every operation is called with generated data as a seeded club member (token auth) who has a
room, a settled match and a round in play; the checks are: no 5xx, and every response's body and
content type match the schema. Examples are few so the suite stays fast.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import count
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
)

from tests.api.helpers import settled_match, start_round

pytestmark = pytest.mark.django_db

CHECKS = [not_a_server_error, response_schema_conformance, content_type_conformance]


@pytest.fixture
def seeded(players: list[Any], room: Any, settings: Any) -> dict[str, Any]:
    """A club owner's token, and the ids worth calling: an idle room with a settled match and a
    room with a round in play (so detail endpoints answer with real objects, not only 404s)."""
    from rest_framework.authtoken.models import Token

    from accounts.models import Membership
    from tables import rooms

    settings.API_THROTTLE_RATES = {"user": "100000/min", "anon": "100000/min", "auth": "1000/min"}
    settled = settled_match(room, players)
    second = rooms.room_create(user=players[0], club=room.club, name="西风桌", variant="harbin")
    playing = start_round(second, players)
    token, _ = Token.objects.get_or_create(user=players[0])
    member = Membership.objects.get(club=room.club, user=players[3])
    return {
        "token": token.key,
        "ids": {
            "rooms": [room.pk, second.pk],
            "matches": [settled.pk, playing.match_id],
            "rounds": [settled.rounds.get().pk, playing.pk],
            "clubs": [room.club_id],
            "memberships": [member.pk],
        },
    }


@pytest.fixture
def _keep_connection() -> Iterator[None]:
    """Django's per-request connection closing switched off (as the test client does): the
    test's transaction must survive each request of the WSGI app."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def _load_schema() -> Any:
    """The schema as ``/api/schema/`` serves it, bound to the in-process WSGI app.

    Built at import (not from a fixture): schemathesis' lazy fixture loader does not run on this
    pytest. Generating the document needs no database.
    """
    from drf_spectacular.generators import SchemaGenerator

    document = SchemaGenerator().get_schema(request=None, public=True)
    loaded = schemathesis.openapi.from_dict(_jsonable(document))
    loaded.app = get_wsgi_application()
    # Generated examples only: the coverage phase's exhaustive boundary cases ignore
    # ``max_examples`` and took most of the run (hundreds of calls on /api/judge/ alone).
    loaded.config.phases.update(phases=["examples", "fuzzing"])
    return loaded


def _jsonable(document: Any) -> Any:
    """Lazy translation strings and other Python objects as the JSON renderer would write them."""
    import json

    from rest_framework.utils.encoders import JSONEncoder

    return json.loads(json.dumps(document, cls=JSONEncoder))


schema = _load_schema()


@schema.parametrize()
@settings(
    max_examples=5,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
@pytest.mark.usefixtures("_keep_connection")
def test_every_operation_answers_within_its_schema(case: Any, seeded: dict[str, Any]) -> None:
    _aim_at_seeded_objects(case, seeded["ids"])
    response = case.call(headers={"Authorization": f"Token {seeded['token']}"})
    case.validate_response(response, checks=CHECKS)


_calls = count()


def _aim_at_seeded_objects(case: Any, ids: dict[str, list[int]]) -> None:
    """Most generated ids name nothing (404); every other call is sent to a seeded object
    instead, in turn, so the real answers are checked against the schema too."""
    if not case.path_parameters or "id" not in case.path_parameters:
        return
    n = next(_calls)
    if n % 2:
        return
    candidates = ids.get(case.operation.path.split("/")[2], [])
    if candidates:
        case.path_parameters["id"] = candidates[(n // 2) % len(candidates)]
