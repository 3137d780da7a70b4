"""Who has a table open: presence that expires by itself.

Every open table socket is a member of two sorted sets in Redis, scored by the moment it expires:
the sockets of a user at a room (is the seat online?) and all the sockets of a user (the per-user
cap). A socket refreshes its entries every :data:`REFRESH_S` while its consumer runs, and removes
them when it ends, however it ends (:class:`tables.consumers.TableConsumer`: the refresher lives
and dies with the consumer; one that died of Redis's connection error used to leave its refresher
writing for ever). A socket whose ASGI worker was killed closes nothing: its
entries simply expire after :data:`TTL_S`, so a seat can no longer stay "connected" for ever, as
the old database counter (``Seat.connections ± 1``) did. ``Seat.connected`` stays as what the
others were last shown; :func:`tables.rooms.seat_presence_sync` brings it in line with this
module, on connect and disconnect and from the clock for the expiries nobody announced.

Redis being unreachable makes presence unknown (``None``), never "everyone left": a match is not
ended as abandoned because Redis restarted.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable

import redis
from django.conf import settings

from config.redis_client import redis_client, redis_key

log = logging.getLogger(__name__)

TTL_S = 30.0
"""A socket not refreshed for this long is gone."""
REFRESH_S = 10.0
"""How often an open socket refreshes its presence (well within :data:`TTL_S`)."""


def max_sockets_per_user() -> int:
    """Open table sockets one user may hold at once (``TABLES_MAX_SOCKETS_PER_USER``): a few
    tabs and a phone, not the dozens that slowed everybody's table."""
    return int(settings.TABLES_MAX_SOCKETS_PER_USER)


def _room_key(room_id: int, user_id: int) -> str:
    return redis_key("presence", "room", room_id, "user", user_id)


def _user_key(user_id: int) -> str:
    return redis_key("presence", "user", user_id)


def socket_open(*, room_id: int, user_id: int, channel: str, now: float | None = None) -> bool:
    """Count a new socket in; False when the user already holds the maximum of live sockets.

    Redis unreachable: the socket is let in (the channel layer decides whether it can work)."""
    moment = time.time() if now is None else now
    try:
        client = redis_client()
        user_key = _user_key(user_id)
        client.zremrangebyscore(user_key, "-inf", moment)
        if client.zcard(user_key) >= max_sockets_per_user():
            return False
        _write(client, room_id, user_id, channel, moment)
    except redis.RedisError:
        log.warning("presence of user %s not recorded: Redis unreachable", user_id)
    return True


def socket_refresh(*, room_id: int, user_id: int, channel: str, now: float | None = None) -> None:
    """The socket is still open (also re-creates entries lost with a restarted Redis)."""
    try:
        _write(redis_client(), room_id, user_id, channel, time.time() if now is None else now)
    except redis.RedisError:
        log.debug("presence of user %s not refreshed: Redis unreachable", user_id)


def socket_close(*, room_id: int, user_id: int, channel: str) -> None:
    try:
        pipe = redis_client().pipeline(transaction=False)
        pipe.zrem(_room_key(room_id, user_id), channel)
        pipe.zrem(_user_key(user_id), f"{room_id}|{channel}")
        pipe.execute()
    except redis.RedisError:
        log.debug("presence of user %s not removed: Redis unreachable (it expires)", user_id)


def _write(client: redis.Redis, room_id: int, user_id: int, channel: str, now: float) -> None:
    expires = now + TTL_S
    pipe = client.pipeline(transaction=False)
    pipe.zadd(_room_key(room_id, user_id), {channel: expires})
    pipe.expire(_room_key(room_id, user_id), int(TTL_S) + 5)
    pipe.zadd(_user_key(user_id), {f"{room_id}|{channel}": expires})
    pipe.expire(_user_key(user_id), int(TTL_S) + 5)
    pipe.execute()


def user_sockets(user_id: int, *, now: float | None = None) -> int | None:
    """How many live (unexpired) sockets the user holds, at any table: what the per-user cap
    counts; None when Redis cannot say."""
    moment = time.time() if now is None else now
    try:
        return int(redis_client().zcount(_user_key(user_id), f"({moment}", "+inf"))
    except redis.RedisError:
        return None


def users_online(
    room_id: int, user_ids: Iterable[int], *, now: float | None = None
) -> set[int] | None:
    """Which of ``user_ids`` have a live socket at the room; None when Redis cannot say."""
    users = list(user_ids)
    if not users:
        return set()
    moment = time.time() if now is None else now
    try:
        pipe = redis_client().pipeline(transaction=False)
        for user_id in users:
            pipe.zcount(_room_key(room_id, user_id), f"({moment}", "+inf")
        counts = pipe.execute()
    except redis.RedisError:
        return None
    return {user_id for user_id, count in zip(users, counts, strict=True) if count}
