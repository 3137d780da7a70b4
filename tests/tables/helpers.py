"""Helpers shared by the table tests: read a round's state, pick moves, walk JSON."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

from tables import gameplay, rooms
from tables.game import commands, store
from tables.models import Round

_ids = itertools.count(1)


def fresh(rnd: Round) -> Round:
    return Round.objects.select_related("match__room").get(pk=rnd.pk)


def state_of(rnd: Round) -> Any:
    return store.load_state(fresh(rnd))


def decider(rnd: Round) -> int:
    return gameplay.deciders(state_of(rnd))[0]


def act(rnd: Round, seat: int, action: dict[str, Any], cid: str | None = None) -> Any:
    return commands.round_apply_action(
        round_id=rnd.pk,
        seat=seat,
        action_json=action,
        client_action_id=cid or f"c{next(_ids)}",
    )


def first_legal(rnd: Round, seat: int) -> dict[str, Any]:
    return gameplay.action_json(gameplay.legal_actions(state_of(rnd), seat)[0])


def walk(value: Any, path: str = "$") -> Iterator[tuple[str, Any]]:
    """Every (path, leaf-or-key) in a JSON value, keys included, for structural leak checks."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield f"{path}.{key}", key
            yield from walk(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from walk(item, f"{path}[{i}]")
    else:
        yield path, value


def table_opened(room_id: int, user: Any) -> None:
    """The player has the table open in a browser (a presence entry of a socket of the test's
    own, :mod:`tables.presence`), and the seat shows it."""
    from tables import presence

    presence.socket_open(room_id=room_id, user_id=user.pk, channel=f"test-tab-{user.pk}")
    rooms.seat_presence_sync(room_id=room_id)


def table_closed(room_id: int, user: Any) -> None:
    """The player closed that browser tab (see :func:`table_opened`)."""
    from tables import presence

    presence.socket_close(room_id=room_id, user_id=user.pk, channel=f"test-tab-{user.pk}")
    rooms.seat_presence_sync(room_id=room_id)
