"""One socket's game stream: the cursor (round shown, last seq sent, last visible seq,
status) and the framing of events, with no Channels or database in it.

The consumer feeds it round updates from notifications, or snapshots and events read from
the database; it answers the messages to send, or ``None`` when only a fresh read from the
database can continue the stream (a gap: the consumer resyncs).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tables import protocol

Message = dict[str, Any]
"""A JSON message as sent to the client (its shape is ``tables.protocol``'s)."""


@dataclass
class SocketStream:
    """Where one socket's stream of a round stands."""

    round_id: int | None = None
    cursor: int = 0
    """The last seq of the round this socket was brought up to (seen or not)."""
    last_visible: int = 0
    """The last seq this socket was sent, which the next event chains to."""
    round_status: str = ""

    def position(self) -> list[int | str] | None:
        """``[round id, last seq, status]`` as a table message's ``round`` names it."""
        if self.round_id is None:
            return None
        return [self.round_id, self.cursor, self.round_status]

    def is_behind(self, round_id: int, last_seq: int) -> bool:
        """Whether this stream has shown less than round ``round_id`` up to ``last_seq``."""
        if self.round_id is None or self.round_id < round_id:
            return True
        return self.round_id == round_id and self.cursor < last_seq

    def begin(self, round_id: int, *, last_seq: int, status: str) -> None:
        """This socket now shows round ``round_id`` from a snapshot taken at ``last_seq``."""
        self.round_id, self.cursor, self.last_visible = round_id, last_seq, last_seq
        self.round_status = status

    def advance(
        self,
        round_id: int,
        events: Iterable[Sequence[Any]],
        *,
        last_seq: int,
        status: str,
        decisions: Iterable[Message] = (),
    ) -> list[Message]:
        """The ``(seq, payload)`` pairs this viewer may see, each chained to the previous one
        it was sent, then the decisions; the cursor moves to ``last_seq``."""
        messages = self._frame(round_id, events)
        self.cursor, self.round_status = last_seq, status
        messages.extend(decisions)
        return messages

    def _frame(self, round_id: int, events: Iterable[Sequence[Any]]) -> list[Message]:
        messages = []
        for seq, payload in events:
            messages.append(
                protocol.event(
                    round_id=round_id, seq=seq, prev_seq=self.last_visible, payload=payload
                )
            )
            self.last_visible = seq
        return messages

    def from_round_update(self, update: Mapping[str, Any], viewer: str) -> list[Message] | None:
        """This viewer's part of a round's update (a new round's snapshot, or a move's events
        and decision), or None when it does not continue this stream (resync).  The caller
        has checked that the seat is still the viewer's."""
        if "snapshots" in update:
            if self.round_id is not None and update["round_id"] <= self.round_id:
                return []  # an older or already shown round (a resync got there first)
            self.begin(update["round_id"], last_seq=update["last_seq"], status=update["status"])
            return [update["snapshots"][viewer]]
        if update["round_id"] != self.round_id:
            return None
        frames = update["views"][viewer]["frames"]
        if update["last_seq"] == update["prev_seq"]:
            # No event: a seat's own new decision after a pass (nobody else is shown anything).
            if update["last_seq"] != self.cursor:
                return None if update["last_seq"] > self.cursor else []
            return [frame["decision"] for frame in frames]
        if update["last_seq"] <= self.cursor:
            return []  # already sent (a resync or a reordered notification got there first)
        if update["prev_seq"] != self.cursor:
            return None
        messages: list[Message] = []
        for frame in frames:
            messages.extend(self._frame(update["round_id"], frame["events"]))
            messages.append(frame["decision"])
        self.cursor, self.round_status = update["last_seq"], update["status"]
        return messages
