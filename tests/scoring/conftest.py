"""Fixtures of the scoring tests: a club with a room of four players, and ended rounds made by
playing the real engine with random bots and storing them the way ``tables.game.commands`` does."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone

from rules.wall import seed_from_text
from tests.scoring.helpers import play


@pytest.fixture
def players(make_user: Callable[..., Any]) -> list[Any]:
    return [make_user(f"s{i}") for i in range(4)]


@pytest.fixture
def club(players: list[Any], make_club: Callable[..., Any]) -> Any:
    return make_club(owner=players[0], members=tuple(players[1:]), name="雀友会")


@pytest.fixture
def room(club: Any, players: list[Any]) -> Any:
    from tables import rooms

    return rooms.room_create(user=players[0], club=club, name="东风桌", variant="changchun")


@pytest.fixture
def make_match(room: Any, players: list[Any]) -> Callable[..., Any]:
    from tables.models import Match

    def make(options: dict[str, Any] | None = None, users: list[Any] | None = None) -> Any:
        who = users if users is not None else players
        return Match.objects.create(
            room=room,
            variant=room.variant,
            options=options if options is not None else room.options,
            players=[None if u is None else u.pk for u in who],
            status=Match.Status.FINISHED,
        )

    return make


@pytest.fixture
def make_round() -> Callable[..., Any]:
    """``make_round(match, number, seed_text="…", dealer=0, ended=True, level=None)`` -> a stored
    Round (``level``: played by the table's bots of that level instead of random ones)."""
    from tables import gameplay
    from tables.models import Round, RoundEvent
    from tests.stored_rounds import log_played

    def make(
        match: Any,
        number: int = 1,
        *,
        seed_text: str = "r",
        dealer: int = 0,
        ended: bool = True,
        level: str | None = None,
    ) -> Any:
        seed = seed_from_text(f"{seed_text}/{number}")
        state, actions, events = play(
            match.variant,
            seed=seed,
            dealer=dealer,
            options=dict(match.options),
            bot=number,
            level=level,
        )
        if not ended:  # keep the round open: drop the final action
            actions = actions[:-1]
        rnd = Round.objects.create(
            match=match,
            number=number,
            dealer=dealer,
            seed=seed.hex(),
            commitment=state.commitment,
            version=len(actions),
            last_seq=len(events),
            status=Round.Status.ENDED if ended else Round.Status.PLAYING,
            result=gameplay.result_json(state) if ended else None,
            ended_at=timezone.now() if ended else None,
        )
        log_played(rnd, [gameplay.action_json(a) for a in actions])
        if ended:
            RoundEvent.objects.bulk_create(
                RoundEvent(
                    round=rnd,
                    seq=i + 1,
                    kind=str(e.kind),
                    payload=gameplay.event_json(e),
                    views=gameplay.event_views(e),
                )
                for i, e in enumerate(events)
            )
        return rnd

    return make
