"""Validation of client messages and the per-connection rate limit (no database)."""

from __future__ import annotations

import json

import pytest

from tables.protocol import (
    MAX_MESSAGE_BYTES,
    ProtocolError,
    RateLimiter,
    parse_client_message,
)


def test_a_valid_action_is_parsed() -> None:
    message = parse_client_message(
        json.dumps(
            {
                "type": "action",
                "client_action_id": "abc-1",
                "action": {"kind": "discard", "tile": "5m"},
                "version": 3,
            }
        )
    )
    assert message.type == "action"
    assert message.fields["action"] == {"kind": "discard", "tile": "5m"}


def test_the_size_limit_counts_utf8_bytes_not_characters() -> None:
    # 中 is three bytes: a message under the limit in characters can be over it in bytes.
    padding = "中" * (MAX_MESSAGE_BYTES // 3)
    text = json.dumps({"type": "ping", "x": padding}, ensure_ascii=False)
    assert len(text) < MAX_MESSAGE_BYTES < len(text.encode())
    with pytest.raises(ProtocolError) as refused:
        parse_client_message(text)
    assert refused.value.code == "too_large"


def test_binary_frames_are_refused() -> None:
    with pytest.raises(ProtocolError) as refused:
        parse_client_message(None)
    assert refused.value.code == "bad_frame"


@pytest.mark.parametrize(
    "data",
    [
        {"type": "hello", "last_seq": -1},
        {"type": "action", "client_action_id": "a", "action": {}, "version": True},
        {"type": "action", "client_action_id": "x" * 65, "action": {}},
        {"type": "ready", "ready": "yes"},
    ],
)
def test_wrong_values_are_refused(data: dict[str, object]) -> None:
    with pytest.raises(ProtocolError) as refused:
        parse_client_message(json.dumps(data))
    assert refused.value.code == "bad_message"


def test_the_rate_limit_allows_a_burst_then_the_sustained_rate() -> None:
    limiter = RateLimiter(rate=20.0, burst=20.0, tokens=20.0, stamp=0.0)
    assert all(limiter.allow(now=0.0) for _ in range(20))
    assert not limiter.allow(now=0.0)
    assert limiter.allow(now=0.05)  # one token back after 1/20 s
    assert not limiter.allow(now=0.05)
    assert sum(limiter.allow(now=10.0) for _ in range(30)) == 20  # never more than the burst
