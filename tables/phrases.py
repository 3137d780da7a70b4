"""快捷语: the fixed quick phrases a seated player may send to the table ("quick
phrases (快捷语, a fixed list, rate-limited)").

A phrase travels as its number only: the server checks it (:func:`phrase_send`, the one
service every path goes through), and each page shows it in its own language from
:func:`phrase_texts`. No free text: nothing to moderate. Spectators may not send; a seat may send
one phrase every :data:`PHRASE_INTERVAL_S` seconds (counted in Redis, so that several tabs or
server processes share the limit; in this process alone while Redis is unreachable).
"""

from __future__ import annotations

import threading
import time
from typing import Any

import redis
from django.utils.translation import gettext_lazy as _

from config.redis_client import redis_client, redis_key
from tables import notify
from tables.errors import TableError
from tables.models import Seat

PHRASES: tuple[Any, ...] = (
    _("快点吧，等得花儿都谢了"),
    _("不好意思，刚才走神了"),
    _("这牌打得漂亮！"),
    _("又断线了，网太差"),
    _("别吵了，专心打牌"),
    _("今天手气不错"),
    _("和你合作真愉快"),
    _("再来一局！"),
)
"""The phrases by number (their index): append only, never reorder (the number is the phrase)."""

PHRASE_INTERVAL_S = 3.0
"""A seat may send one phrase this often."""

MESSAGE_TYPE = "table.phrase"
"""The channel-layer message type (:meth:`tables.consumers.TableConsumer.table_phrase`)."""

_local_last: dict[tuple[int, int], float] = {}
_local_lock = threading.Lock()


def phrase_texts() -> list[str]:
    """Every phrase in the active language, by number: what the table page shows."""
    return [str(phrase) for phrase in PHRASES]


def _first_in_interval(room_id: int, seat: int, now: float) -> bool:
    """True when the seat has sent no phrase in the last :data:`PHRASE_INTERVAL_S` (and counts
    this one): ``SET NX PX`` in Redis, a dictionary of this process without it."""
    try:
        stored = redis_client().set(
            redis_key("phrase", room_id, seat), "1", nx=True, px=int(PHRASE_INTERVAL_S * 1000)
        )
        return bool(stored)
    except redis.RedisError:
        with _local_lock:
            last = _local_last.get((room_id, seat))
            if last is not None and now - last < PHRASE_INTERVAL_S:
                return False
            _local_last[(room_id, seat)] = now
            return True


def phrase_send(
    *, room_id: int, user: Any, phrase: object, now: float | None = None
) -> dict[str, Any]:
    """Send quick phrase number ``phrase`` from the user's seat to everyone at the table
    (players and spectators); returns what the table is sent. Refused (:class:`TableError`):
    an unknown phrase (``bad_phrase``), a viewer without a seat (``not_seated``: spectators may
    not send), a second phrase within :data:`PHRASE_INTERVAL_S` (``too_fast``)."""
    if not isinstance(phrase, int) or isinstance(phrase, bool) or not 0 <= phrase < len(PHRASES):
        raise TableError("no such phrase", code="bad_phrase")
    user_id = getattr(user, "pk", None)
    seat = (
        None
        if user_id is None
        else Seat.objects.filter(room_id=room_id, user_id=user_id, is_bot=False)
        .values_list("index", flat=True)
        .first()
    )
    if seat is None:
        raise TableError("only seated players send phrases", code="not_seated")
    if not _first_in_interval(room_id, seat, time.monotonic() if now is None else now):
        raise TableError("one phrase every few seconds", code="too_fast")
    message = {"type": "phrase", "seat": seat, "phrase": phrase}
    notify.room_broadcast(room_id, {"type": MESSAGE_TYPE, "message": message})
    return message
