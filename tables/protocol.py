"""The table websocket's messages: validation of what clients send, builders of what they get.

Every message is a JSON object with a ``type``. ``docs/protocol.md`` documents each one with an
example; this module is the code it describes. Validation is strict: unknown types, unknown or
missing fields, wrong types, JSON nested deeper than :data:`rules.json_input.MAX_DEPTH`, messages
over :data:`MAX_MESSAGE_BYTES` and more than
:data:`RATE_PER_SECOND` messages a second are refused with an ``error`` and change nothing.
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass, field
from typing import Any

from rules import json_input

MAX_MESSAGE_BYTES = 4096
RATE_PER_SECOND = 20.0
RATE_BURST = 20.0
CLIENT_ACTION_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")


# --- close codes -----------------------------------------------------------------------------


@dataclass(frozen=True)
class CloseCode:
    """One way the server closes a table socket on purpose (a websocket close code).

    ``name`` is the ``code`` of the ``error`` message sent just before the close; ``retry`` says
    whether the page may reconnect by itself (False: the same request would be refused again,
    so the page stops and tells the player ``message``, 简体中文 source text of the page's
    catalog); ``meaning`` is the documentation's English.
    """

    code: int
    name: str
    retry: bool
    meaning: str
    message: str


CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_TOO_MANY = 4408
CLOSE_REVOKED = 4410
CLOSE_ABUSE = 4429

CLOSE_CODES: tuple[CloseCode, ...] = (
    CloseCode(
        CLOSE_UNAUTHENTICATED,
        "not_authenticated",
        False,
        "not signed in",
        "请先登录，再进入牌桌",
    ),
    CloseCode(
        CLOSE_FORBIDDEN,
        "not_allowed",
        False,
        "not an active member of the room's club, or a spectator where the room allows none",
        "无法进入这个牌桌",
    ),
    CloseCode(CLOSE_NOT_FOUND, "no_room", False, "no such room", "没有这个房间"),
    CloseCode(
        CLOSE_TOO_MANY,
        "too_many_sockets",
        False,
        "the user already has `TABLES_MAX_SOCKETS_PER_USER` table sockets open (other tabs)",
        "你打开的牌桌太多了：关掉其他牌桌页面后刷新本页",
    ),
    CloseCode(
        CLOSE_REVOKED,
        "not_member",
        False,
        "no longer an active member of the room's club (left, removed, or the account closed)",
        "你已不是这个亲友圈的成员，连接已关闭",
    ),
    CloseCode(
        CLOSE_ABUSE,
        "too_many_refusals",
        False,
        "more than 200 refused messages on one socket (after the last refusal's own `error`)",
        "消息太多，连接被关闭",
    ),
)
"""Every close code the server uses on purpose: the one table that the server (these
constants), the page (``static/js/close_codes.js``, generated from it by
``tools/make_close_codes.py``) and ``docs/protocol.md`` (the same tool writes its table) share;
``tests/tables/test_close_codes.py`` fails when they disagree. Any other close (a network drop,
a server restart: 1001, 1006, 1011 …) is retried with back-off."""


class ProtocolError(ValueError):
    """A client message that is not valid; ``code`` goes into the ``error`` reply."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


# type -> {field: (python types, required)}
_SCHEMAS: dict[str, dict[str, tuple[tuple[type, ...], bool]]] = {
    "hello": {"round_id": ((int, type(None)), False), "last_seq": ((int, type(None)), False)},
    "resync": {},
    "action": {
        "client_action_id": ((str,), True),
        "action": ((dict,), True),
        "round_id": ((int,), False),
        "version": ((int,), False),
    },
    "ready": {"ready": ((bool,), False)},
    "back": {},
    "ping": {},
    "phrase": {"phrase": ((int,), True)},
}


@dataclass(frozen=True)
class ClientMessage:
    type: str
    fields: dict[str, Any]


def parse_client_message(text: str | None) -> ClientMessage:
    """Decode and validate one client frame (text only; size first, then JSON, then schema)."""
    if text is None:
        raise ProtocolError("bad_frame", "only text frames are accepted")
    if len(text.encode("utf-8")) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"messages are limited to {MAX_MESSAGE_BYTES} bytes")
    try:
        # json_input refuses nesting past MAX_DEPTH before decoding: 4 KB of "[" recursed past
        # Python's limit, and a few hundred levels reached the round and its records.
        data = json_input.loads(text, parse_constant=_no_constant, parse_float=_finite_float)
    except ValueError as exc:  # JSONDecodeError and json_input.TooDeep among them
        raise ProtocolError("bad_json", f"the message is not JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message is a JSON object")
    if not _storable(data):
        raise ProtocolError("bad_message", "strings may not hold NUL or lone surrogates")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _SCHEMAS:
        raise ProtocolError("unknown_type", f"unknown message type: {kind!r}")
    schema = _SCHEMAS[kind]
    extra = set(data) - set(schema) - {"type"}
    if extra:
        raise ProtocolError("bad_message", f"unknown fields: {sorted(extra)}")
    for name, (types, required) in schema.items():
        if name not in data:
            if required:
                raise ProtocolError("bad_message", f"missing field: {name}")
            continue
        value = data[name]
        # bool is an int in Python: never accept true/false where a number is expected.
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            raise ProtocolError("bad_message", f"field {name} has the wrong type")
        if isinstance(value, int) and not isinstance(value, bool) and value < 0:
            raise ProtocolError("bad_message", f"field {name} must not be negative")
    if kind == "action" and not CLIENT_ACTION_ID.match(data["client_action_id"]):
        raise ProtocolError("bad_message", "client_action_id: 1-64 of A-Z a-z 0-9 _ . : -")
    return ClientMessage(type=kind, fields={k: v for k, v in data.items() if k != "type"})


def _no_constant(name: str) -> float:
    """``NaN`` and ``Infinity`` are Python's JSON, not JSON: stored in a refused action's record
    they broke the database's JSON check and crashed the socket (found by fuzzing)."""
    raise ValueError(f"{name} is not JSON")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e400 parses to inf, which is written back as Infinity
        raise ValueError(f"{text} is out of range")
    return value


_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def _storable(data: Any) -> bool:
    """No NUL and no lone surrogate in any string or key (JSON escapes can carry both): PostgreSQL's
    jsonb refuses them, so recording the refusal of such an action crashed the socket (found by
    tests/reliability/test_fuzz_consumer.py). Iterative: a 4 KB message may nest ~1000 deep."""
    pending = [data]
    while pending:
        value = pending.pop()
        if isinstance(value, str):
            if _UNSTORABLE.search(value):
                return False
        elif isinstance(value, dict):
            pending.extend(value.keys())
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
    return True


@dataclass
class RateLimiter:
    """A token bucket per connection: ``RATE_PER_SECOND`` sustained, ``RATE_BURST`` at once."""

    rate: float = RATE_PER_SECOND
    burst: float = RATE_BURST
    tokens: float = RATE_BURST
    stamp: float = field(default_factory=time.monotonic)

    def allow(self, now: float | None = None) -> bool:
        moment = time.monotonic() if now is None else now
        self.tokens = min(self.burst, self.tokens + (moment - self.stamp) * self.rate)
        self.stamp = moment
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


# --- server messages ------------------------------------------------------------------------


def error(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message, **extra}


def ack(client_action_id: str, *, version: int, seq: int, duplicate: bool) -> dict[str, Any]:
    return {
        "type": "ack",
        "client_action_id": client_action_id,
        "version": version,
        "seq": seq,
        "duplicate": duplicate,
    }


def event(*, round_id: int, seq: int, prev_seq: int, payload: dict[str, Any]) -> dict[str, Any]:
    """One event as this viewer sees it; ``prev_seq`` is the previous event THIS viewer was sent
    (events it may not see are skipped without a trace), so a client detects a gap when
    ``prev_seq`` is not the last ``seq`` it holds."""
    return {
        "type": "event",
        "round_id": round_id,
        "seq": seq,
        "prev_seq": prev_seq,
        "event": payload,
    }
