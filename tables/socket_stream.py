"""One socket's game stream: the cursor (round shown, last seq sent, last visible seq,
status; the viewer's seat, the table sent, whether the client said ``hello``, the spectator
delay and whether a delayed stream is shown), the choice between catching up and a fresh
snapshot, and the framing of events, with no Channels or database in it.

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

CATCH_UP_LIMIT = 400
"""A reconnecting client missing more events than this gets a fresh snapshot instead."""


@dataclass
class SocketStream:
    """Where one socket's stream of a round stands."""

    round_id: int | None = None
    cursor: int = 0
    """The last seq of the round this socket was brought up to (seen or not)."""
    last_visible: int = 0
    """The last seq this socket was sent, which the next event chains to."""
    round_status: str = ""
    seat: int | None = None
    """The viewer's seat (None: a spectator), as the database last said; never the client's."""
    table_sent: Message | None = None
    """The last ``table`` message sent (a table unchanged for this viewer is not sent again)."""
    greeted: bool = False
    """Whether the client said ``hello``: its game stream starts there."""
    delay_s: int = 0
    """The room's spectator delay, as last read."""
    shown_delayed: bool = False
    """Whether the round shown is the delayed stream (every hand open, moved by a clock)."""

    @property
    def is_delayed(self) -> bool:
        """A spectator of a room with a spectator delay (decided by the seat, never the
        client)."""
        return self.seat is None and self.delay_s > 0

    @property
    def on_clock(self) -> bool:
        """Whether the stream moves with the delayed stream's clock, never with a move's
        notification: a delayed spectator's, or a delayed stream still shown (the delay was
        lifted or the spectator sat down: the next read replaces it with the live stream)."""
        return self.is_delayed or self.shown_delayed

    def table(self, table: Message) -> list[Message]:
        """``table`` to send, unless it is the one sent last."""
        if table == self.table_sent:
            return []
        self.table_sent = table
        return [table]

    def hello_needs_snapshot(
        self, round_id: int, last_seq: int, *, client: tuple[int | None, int | None]
    ) -> bool:
        """Whether a client that says it holds ``client`` (round id, last seq) of a room whose
        round ``round_id`` is at ``last_seq`` needs a fresh snapshot (another round, no
        position, ahead of the database, too much missing, or a delayed stream shown) rather
        than the events since its position."""
        client_round, client_seq = client
        if self.shown_delayed or client_round != round_id or client_seq is None:
            return True
        missing = last_seq - client_seq
        return missing < 0 or missing > CATCH_UP_LIMIT

    def changes_need_snapshot(self, round_id: int, last_seq: int, *, seat_changed: bool) -> bool:
        """Whether a read of the database finding round ``round_id`` at ``last_seq`` must send
        a fresh snapshot rather than continue the stream shown."""
        return (
            seat_changed
            or self.shown_delayed
            or round_id != self.round_id
            or last_seq < self.cursor
        )

    def delayed_needs_snapshot(self, round_id: int, seq: int) -> bool:
        """Whether the delayed stream, now at round ``round_id`` up to ``seq``, must restart
        with a snapshot (not shown yet, another round, or moved back)."""
        return not self.shown_delayed or round_id != self.round_id or seq < self.cursor

    def delayed_round_ends(self, round_id: int) -> bool:
        """Whether the delayed stream shown is of a round older than ``round_id`` (its end is
        shown before the newer round's snapshot)."""
        return self.shown_delayed and self.round_id is not None and round_id > self.round_id

    def is_live_and_behind(self, round_id: int, last_seq: int) -> bool:
        """:meth:`is_behind`, for a live stream the client has asked for (a delayed stream is
        behind on purpose: it moves with its own clock)."""
        if not self.greeted or self.on_clock:
            return False
        return self.is_behind(round_id, last_seq)

    def is_at(self, last_seq: int, status: str) -> bool:
        """Whether the stream shown is at ``last_seq`` with ``status`` already."""
        return last_seq == self.cursor and status == self.round_status

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
