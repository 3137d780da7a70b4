"""机器人提示: in a practice room, a seated player may ask what the ``hard`` bot would play.

Issue 26: "a 'what would the bot do' hint at the table for practice rooms (off by default, never
in rated rooms or events)". The hint is the review's advice at the seat's current decision
(:func:`rules.review.advice`): the bot chooses from the seat's own redacted view, the same
program and generator a bot at that seat would use, and every figure (effective tiles, copies
left) is counted from what that seat has seen, so a hint tells the player nothing their own
screen does not. It is allowed only when the room is a practice room with hints on **and** the
match in play started as practice (:attr:`tables.models.Match.practice`): turning a room into a
practice room mid-match does not open hints in a rated match, and a tournament's table is never
a practice room (:meth:`tables.models.Room.clean_practice`).
"""

from __future__ import annotations

from typing import Any

from rules import review
from tables.errors import TableError
from tables.game import store
from tables.models import Match, Room, Round, Seat


def hint_for_seat(*, room: Room, user: Any) -> dict[str, Any]:
    """The hard bot's move for ``user``'s seat at ``room``'s current decision, with the
    candidates' shanten and effective tiles on a discard.

    Refused (:class:`~tables.errors.TableError`): ``hints_off`` (not a practice room with hints,
    or the match in play is not practice), ``not_a_player`` (not seated here), ``no_round``
    (nothing in play), ``not_your_decision`` (the seat has nothing to decide now)."""
    if not (room.practice and room.bot_hints):
        raise TableError("the bot's hints are off in this room", code="hints_off")
    seat = Seat.objects.filter(room=room, user=user).first()
    if seat is None:
        raise TableError("only a player seated here may ask for a hint", code="not_a_player")
    rnd = (
        Round.objects.select_related("match")
        .filter(match__room=room, match__status=Match.Status.PLAYING, status=Round.Status.PLAYING)
        .first()
    )
    if rnd is None:
        raise TableError("no round is in play", code="no_round")
    if not rnd.match.practice:
        raise TableError("the match in play is not a practice match", code="hints_off")
    state = store.load_state(rnd)
    advice = review.advice(state, seat.index)
    if advice is None:
        raise TableError("it is not your decision", code="not_your_decision")
    return {"round": rnd.pk, "version": state.version, "seat": seat.index, **advice}
