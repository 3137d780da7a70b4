"""快捷语: a seated player sends a phrase by its number; everyone at the table,
spectators too, gets it with the seat; one a seat every few seconds; spectators may not send."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from asgiref.sync import sync_to_async
from django.utils.translation import override

from config.redis_client import redis_client, redis_key
from tables import phrases
from tables.errors import TableError
from tests.tables.ws import connect, drain, send, until

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _fresh_limits(room: Any) -> None:
    """No phrase of an earlier test (same room id, same seat) counts against this one."""
    phrases._local_last.clear()
    try:
        client = redis_client()
        for seat in range(4):
            client.delete(redis_key("phrase", room.pk, seat))
    except redis.RedisError:
        pass  # the service keeps the pace in the process then


def test_the_service_checks_the_phrase_the_seat_and_the_pace(
    seated: Any, players: list[Any], make_user: Any
) -> None:
    sent = phrases.phrase_send(room_id=seated.pk, user=players[2], phrase=1, now=100.0)
    assert sent == {"type": "phrase", "seat": 2, "phrase": 1}
    with pytest.raises(TableError) as fast:
        phrases.phrase_send(room_id=seated.pk, user=players[2], phrase=0, now=101.0)
    assert fast.value.code == "too_fast"
    # Another seat is not held back by seat 2.
    assert phrases.phrase_send(room_id=seated.pk, user=players[1], phrase=0)["seat"] == 1
    for bad in (-1, len(phrases.PHRASES), True, "1", None):
        with pytest.raises(TableError) as refused:
            phrases.phrase_send(room_id=seated.pk, user=players[3], phrase=bad)
        assert refused.value.code == "bad_phrase"
    with pytest.raises(TableError) as spectator:
        phrases.phrase_send(room_id=seated.pk, user=make_user("watcher"), phrase=0)
    assert spectator.value.code == "not_seated"


def test_without_redis_the_pace_is_kept_in_the_process(
    seated: Any, players: list[Any], monkeypatch: Any
) -> None:
    def down() -> Any:
        raise redis.ConnectionError("down")

    monkeypatch.setattr(phrases, "redis_client", down)
    phrases.phrase_send(room_id=seated.pk, user=players[0], phrase=0, now=10.0)
    with pytest.raises(TableError):
        phrases.phrase_send(room_id=seated.pk, user=players[0], phrase=0, now=12.0)
    phrases.phrase_send(room_id=seated.pk, user=players[0], phrase=0, now=13.5)


def test_the_phrases_have_english_texts() -> None:
    chinese = phrases.phrase_texts()
    with override("en"):
        english = phrases.phrase_texts()
    assert len(english) == len(chinese) == len(phrases.PHRASES)
    assert all(text.isascii() for text in english), english


@pytest.mark.asyncio
async def test_a_phrase_reaches_the_table_and_a_spectator_may_not_send(
    seated: Any, players: list[Any], make_user: Any
) -> None:
    from accounts.models import Membership

    @sync_to_async
    def member() -> Any:
        user = make_user("watcher")
        Membership.objects.create(club=seated.club, user=user)
        return user

    watcher = await member()
    player, _ = await connect(seated.pk, players[1])
    spectator, _ = await connect(seated.pk, watcher)
    await until(player, "table")
    await until(spectator, "table")
    await drain(player)
    await drain(spectator)

    await send(player, {"type": "phrase", "phrase": 3})
    heard = await until(spectator, "phrase")
    assert heard == {"type": "phrase", "seat": 1, "phrase": 3}
    assert await until(player, "phrase") == heard

    await send(player, {"type": "phrase", "phrase": 2})  # too soon
    refused = await until(player, "error")
    assert refused["code"] == "too_fast"

    await send(spectator, {"type": "phrase", "phrase": 0})
    assert (await until(spectator, "error"))["code"] == "not_seated"
    await send(spectator, {"type": "phrase", "phrase": "hi"})
    assert (await until(spectator, "error"))["code"] == "bad_message"
    assert await drain(player) == []  # nothing from the spectator reached the table
    await player.disconnect()
    await spectator.disconnect()


def test_the_table_message_carries_the_match_scores(playing: Any, players: list[Any]) -> None:
    """The seat plates' running score: the ended rounds' nets, summed."""
    from tables import selectors
    from tables.models import Round

    room = playing.match.room
    assert selectors.table_state(room)["match"] == {
        "id": playing.match_id,
        "totals": [0, 0, 0, 0],
        "through": 0,
    }
    Round.objects.filter(pk=playing.pk).update(
        status=Round.Status.ENDED, result={"nets": [3, -1, -1, -1], "winner": 0}
    )
    assert selectors.table_state(room)["match"]["totals"] == [3, -1, -1, -1]
    assert selectors.table_state(room)["match"]["through"] == playing.number
