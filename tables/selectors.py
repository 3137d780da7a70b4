"""Read-only queries of the live tables, and the per-viewer messages built from them.

Everything a socket sends is built here from the database (the truth) and redacted for one viewer
(a seat 0-3, or ``None`` for a spectator) with the engine's view functions.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, OuterRef, QuerySet, Subquery

from accounts import membership
from rules.engine import RoundState
from rules.engine.state import TurnPhase
from tables import bot_names, gameplay
from tables.models import Match, Room, Round, RoundEvent, Seat


def rooms_for_lobby(user: Any) -> QuerySet[Room]:
    """Rooms of the user's clubs (active membership) that are not closed, with a seat count."""
    return (
        Room.objects.filter(club__in=membership.active_club_ids(user))
        .exclude(status=Room.Status.CLOSED)
        .annotate(seated=Count("seats", distinct=True))
        .select_related("club")
        .order_by("club__name", "-created_at")
    )


def user_can_watch(user: Any, room: Room) -> bool:
    """Spectators: active members of the room's club, when the room allows spectators."""
    return room.allow_spectators and membership.is_active_member(user, room.club_id)


def seat_of(room_id: int, user: Any) -> Seat | None:
    return Seat.objects.filter(room_id=room_id, user=user).first()


def current_round(room_id: int) -> Round | None:
    """The round shown at a table: the newest round of the newest match (ended rounds stay on
    the table, with their settlement, until the next one starts)."""
    return _rounds_shown_first(room_id).select_related("match__room").first()


def _rounds_shown_first(room_id: int) -> QuerySet[Round]:
    """The room's rounds, the one its table shows (:func:`current_round`) first."""
    return Round.objects.filter(match__room_id=room_id).order_by("-match_id", "-number")


def stream_positions(room_ids: Iterable[int]) -> dict[int, tuple[int, int]]:
    """Where each room's round stream stands in the database: room id -> (the id of the round
    its table shows, that round's last ``seq``), for the rooms that have one. One statement for
    any number of rooms (:mod:`tables.stream_watch` runs it every tick), reading per room its
    newest match and that match's last round by their indexes, not every round it ever had."""
    ids = list(room_ids)
    if not ids:
        return {}
    newest_match = Match.objects.filter(room_id=OuterRef("pk")).order_by("-pk").values("pk")[:1]
    last_round = Round.objects.filter(match_id=OuterRef("match_shown")).order_by("-number")
    rows = (
        Room.objects.filter(pk__in=ids)
        .annotate(match_shown=Subquery(newest_match))
        .annotate(
            round_id=Subquery(last_round.values("pk")[:1]),
            last_seq=Subquery(last_round.values("last_seq")[:1]),
        )
        .order_by()  # not the rooms' own ordering (a join on their club)
        .values_list("pk", "round_id", "last_seq")
    )
    return {room: (rnd, seq) for room, rnd, seq in rows if rnd is not None}


def playing_match(room_id: int) -> Match | None:
    return Match.objects.filter(room_id=room_id, status=Match.Status.PLAYING).first()


def match_scores(match: Match) -> dict[str, Any]:
    """The match in play as the seat plates show it ("the running match score on each
    seat plate"): each seat's total over its ended rounds (the rounds' own nets, known at once,
    not waiting for the ledger) and ``through``, the number of the last round counted (the page
    adds the round just ended itself when it is not counted yet)."""
    totals = [0, 0, 0, 0]
    through = 0
    ended = Round.objects.filter(match=match, status=Round.Status.ENDED)
    for number, nets in ended.values_list("number", "result__nets"):
        if isinstance(nets, list) and len(nets) == 4:
            totals = [total + int(net) for total, net in zip(totals, nets, strict=True)]
            through = max(through, number)
    return {"id": match.pk, "totals": totals, "through": through}


def table_state(room: Room) -> dict[str, Any]:
    """The room, its four seats and the match in play as every viewer sees them, plus who sits
    where (``seat_users``, server side only) and where the room's round stream stands
    (``round``: id, last seq, status, or None): what a room notification carries, read once by
    the writer after its commit instead of once by every socket."""
    seats: list[dict[str, Any] | None] = [None] * 4
    seat_users: list[int | None] = [None] * 4
    rows = list(Seat.objects.filter(room=room).select_related("user"))
    bots = bot_names.table_bots(rows, room.bot_level)
    for seat in rows:
        seat_users[seat.index] = seat.user_id
        seats[seat.index] = {
            "index": seat.index,
            # Sent to every viewer at once: the name in the site's language, and the bot's number
            # and level for the page to name it in the viewer's (static/tables/state.js).
            "name": bot_names.seated_name(seat, bots),
            "bot": bots.get(seat.index),
            "is_bot": seat.is_bot,
            "ready": seat.ready,
            "auto_play": seat.auto_play,
            "connected": seat.is_bot or seat.connected,
        }
    match = playing_match(room.pk)
    rnd = _rounds_shown_first(room.pk).values("pk", "last_seq", "status").first()
    return {
        "room": {
            "id": room.pk,
            "name": room.name,
            "variant": room.variant,
            "status": room.status,
            "allow_bots": room.allow_bots,
            "bot_level": room.bot_level,
            "allow_spectators": room.allow_spectators,
            "turn_timeout_s": room.turn_timeout_s,
            "claim_timeout_s": room.claim_timeout_s,
            "spectator_delay_s": room.spectator_delay_s,
            "practice": room.practice,
            "bot_hints": room.bot_hints,
        },
        "seats": seats,
        "match": None if match is None else match_scores(match),
        "seat_users": seat_users,
        "round": None if rnd is None else [rnd["pk"], rnd["last_seq"], rnd["status"]],
    }


def viewer_seat(table: dict[str, Any], viewer_user_id: int | None) -> int | None:
    """The seat index ``viewer_user_id`` holds in a :func:`table_state`, or None."""
    users = table["seat_users"]
    if viewer_user_id is None or viewer_user_id not in users:
        return None
    index: int = users.index(viewer_user_id)
    return index


def table_message_for(table: dict[str, Any], viewer_user_id: int | None) -> dict[str, Any]:
    """``table`` for one viewer: the public part of a :func:`table_state` and ``you``."""
    return {
        "type": "table",
        "room": table["room"],
        "seats": table["seats"],
        "you": viewer_seat(table, viewer_user_id),
        "match": table["match"],
    }


def table_message(room: Room, viewer_user_id: int | None) -> dict[str, Any]:
    """``table``: the room, its four seats (who, ready, 托管, online) and the match in play."""
    return table_message_for(table_state(room), viewer_user_id)


def _iso(value: Any) -> str | None:
    return None if value is None else value.isoformat()


def decision_message(
    rnd: Round,
    state: RoundState,
    seat: int | None,
    *,
    token: int | None = None,
    deadline: bool = True,
) -> dict[str, Any]:
    """``decision``: what this viewer must decide now and until when.

    Whose turn it is is public; who may claim a discard is not (it would tell the others what a
    hand holds), so in a claim window only the seats asked see a deadline and their choices.
    ``version`` (and ``decision_version``, the same) is the decision's token (the number of the
    last event before it, ``token`` or the round's ``decision_version``): a client sends it
    back with an action; the state's own version counts every pass and stays on the server.
    ``deadline``: False for a frame of a stage already gone (the round has moved on).
    """
    in_play = rnd.status == Round.Status.PLAYING  # a voided (aborted) round offers nothing
    legal = [] if seat is None or not in_play else gameplay.legal_actions(state, seat)
    phase = gameplay.phase_kind(state)
    turn_seat = state.phase.seat if isinstance(state.phase, TurnPhase) else None
    show_clock = deadline and in_play and (phase == "turn" or bool(legal))
    version = rnd.decision_version if token is None else token
    view = gameplay.seat_view(state, seat)
    view["version"] = version
    # Li-Si: a ready player wins by themselves, with no 胡 to press; the page says so.
    view["auto_win"] = state.variant.flow.wins_after_ting
    return {
        "type": "decision",
        "round_id": rnd.pk,
        "status": rnd.status if deadline else Round.Status.PLAYING,
        "version": version,
        "decision_version": version,
        "phase": phase,
        "turn_seat": turn_seat,
        "deadline": _iso(rnd.deadline) if show_clock else None,
        "legal_actions": [gameplay.action_json(a) for a in legal],
        # The whole redacted table after this batch, so a client can redraw from it without
        # re-implementing the rules; events stay the record (log, animation, seq).
        "view": view,
    }


RECENT_EVENTS = 80
"""How many of a round's last events a snapshot carries, so that a page opened (or reloaded) in
the middle of a round fills its log (牌局记录) again."""


def recent_event_rows(rnd: Round) -> list[tuple[int, dict[str, Any]]]:
    """The round's last :data:`RECENT_EVENTS` events as ``(seq, views)``, oldest first: every
    viewer's redaction, as stored with the event."""
    rows = (
        RoundEvent.objects.filter(round=rnd)
        .order_by("-seq")
        .values_list("seq", "views")[:RECENT_EVENTS]
    )
    return [(seq, views) for seq, views in reversed(list(rows))]


def events_for(rows: list[tuple[int, dict[str, Any]]], seat: int | None) -> list[list[Any]]:
    """``[seq, event]`` of ``rows`` as this viewer may see them (its own redaction)."""
    key = gameplay.viewer_key(seat)
    out: list[list[Any]] = []
    for seq, views in rows:
        payload = gameplay.stored_view(views, key)
        if payload is not None:
            out.append([seq, payload])
    return out


def round_players(rnd: Round) -> list[dict[str, Any]]:
    """Who played each seat of the round's match, for a page to name them after they left the
    table (a settlement shown once all four left named "座位 1…4"): a player's public
    name, or a bot's number and level (named in the viewer's language, ``static/js/bots.js``)."""
    from accounts.models import User

    match = Match.objects.only("players", "bot_levels").get(pk=rnd.match_id)
    players: list[int | None] = list(match.players or [None] * 4)
    names = {
        user.pk: str(user.public_name)
        for user in User.objects.filter(pk__in=[u for u in players if u is not None])
    }
    numbers = bot_names.bot_numbers(players)
    levels = list(match.bot_levels or [])
    out: list[dict[str, Any]] = []
    for seat, user in enumerate(players):
        if user is None:
            level = levels[seat] if seat < len(levels) else ""
            name = bot_names.bot_name(number=numbers[seat], level=level)
            out.append({"name": name, "bot": {"number": numbers[seat], "level": level}})
        else:
            out.append({"name": names.get(user, "?"), "bot": None})
    return out


def snapshot_message(
    rnd: Round,
    state: RoundState,
    seat: int | None,
    *,
    recent: list[tuple[int, dict[str, Any]]] | None = None,
    players: list[dict[str, Any]] | None = None,
    with_previous: bool = True,
) -> dict[str, Any]:
    """``snapshot``: the whole table for this viewer (the engine's redacted ``seat_view`` is in
    ``decision.view``), the round's last events for its log (``events``: ``[seq, event]``,
    this viewer's redaction) and who played each seat (``players``). ``recent`` and
    ``players``: read once by a caller that builds every viewer's snapshot. ``previous``: the
    match's last ended round as this viewer saw it at its end (its settlement stays reachable,
    "上一盘结算", after a reload during the next round); left out (``with_previous`` False) of
    a new round's notification, whose pages still hold the round before."""
    ended = rnd.status == Round.Status.ENDED
    rows = recent_event_rows(rnd) if recent is None else recent
    return {
        "type": "snapshot",
        "round_id": rnd.pk,
        "match_id": rnd.match_id,
        "round_number": rnd.number,
        "status": rnd.status,
        "seq": rnd.last_seq,
        "version": rnd.decision_version,
        "seat": seat,
        "commitment": rnd.commitment,
        # The seed is secret until the round has ended (then anyone may check the commitment);
        # a voided (aborted) round never reveals it: every hand could be rebuilt from it, and
        # those hands were never shown.
        "seed": rnd.seed if ended else None,
        "result": rnd.result if ended else None,
        # Why a voided round was voided (who left, who dissolved the table): a page opened
        # afterwards has not seen the event that said so.
        "notice": _notice(rnd) if rnd.status == Round.Status.ABORTED else None,
        "decision": decision_message(rnd, state, seat),
        "events": events_for(rows, seat),
        "players": round_players(rnd) if players is None else players,
        "previous": previous_round_message(rnd, seat) if with_previous else None,
    }


def previous_round_message(rnd: Round, seat: int | None) -> dict[str, Any] | None:
    """The round before ``rnd`` in its match, ended, as ``seat`` saw it at its end (the snapshot
    fields that show a settlement: its decision with the view, who played each seat; not the
    seed, which the round's own pages publish); None for a match's first round or a previous
    round that did not end (voided)."""
    if rnd.number <= 1:
        return None
    before = Round.objects.filter(
        match_id=rnd.match_id, number=rnd.number - 1, status=Round.Status.ENDED
    ).first()
    if before is None:
        return None
    from tables.game import store

    return {
        "round_id": before.pk,
        "round_number": before.number,
        "status": before.status,
        "commitment": before.commitment,
        "decision": decision_message(before, store.load_state(before), seat),
        "players": round_players(before),
    }


NOTICE_KINDS = ("player_left", "player_removed", "table_dissolved")


def round_notice(rnd: Round) -> dict[str, Any] | None:
    """Why ``rnd`` was voided: its public notice, if any (see :func:`snapshot_message`)."""
    return _notice(rnd)


def _notice(rnd: Round) -> dict[str, Any] | None:
    """The public notice appended when ``rnd`` was voided, if any (the same for every viewer)."""
    payload = (
        RoundEvent.objects.filter(round=rnd, kind__in=NOTICE_KINDS)
        .order_by("-seq")
        .values_list("payload", flat=True)
        .first()
    )
    return payload if isinstance(payload, dict) else None


def visible_events(
    rnd: Round, seat: int | None, *, after_seq: int, upto_seq: int
) -> list[tuple[int, dict[str, Any]]]:
    """``(seq, payload)`` of the events in ``(after_seq, upto_seq]`` this viewer may see."""
    key = gameplay.viewer_key(seat)
    rows = RoundEvent.objects.filter(round=rnd, seq__gt=after_seq, seq__lte=upto_seq).order_by(
        "seq"
    )
    out = []
    for seq, views in rows.values_list("seq", "views"):
        payload = gameplay.stored_view(views, key)
        if payload is not None:
            out.append((seq, payload))
    return out


@dataclass(frozen=True)
class Frame:
    """What every viewer is shown at once after a write: some events (``(seq, views)`` rows),
    then the decision of ``state``. A write makes several frames when the engine cut it into
    stages (a claim window nobody was asked in is shown on its own). ``last``:
    the frame that ends the write (its decision carries the deadline)."""

    state: RoundState
    rows: list[tuple[int, dict[str, Any]]]
    token: int
    last: bool = False


def round_update(
    rnd: Round,
    state: RoundState,
    frames: list[Frame],
    *,
    prev_seq: int,
    seat_users: list[int | None],
    actors: frozenset[int] = frozenset(),
) -> dict[str, Any]:
    """A move's notification (``table.update`` ``round``): for every viewer, its frames —
    the events of each frame it may see and the decision that follows — built once by the
    writer from the states it holds, so that the room's sockets do not read the database after
    a move.

    Every viewer gets the same frames (each its own redaction): whether someone could claim a
    discard changes nothing the others are shown. A seat that acted without any event (a pass
    in a claim window still open) gets its own decision alone; nobody else hears of it.

    ``prev_seq``/``last_seq`` bound the update: a socket whose stream is not at ``prev_seq`` (it
    missed or reordered a notification) reads the database instead. ``seat_users``: who held
    each seat when the move was committed; a socket uses a seat's view only for that user.
    """
    views: dict[str, Any] = {}
    for seat in gameplay.VIEWERS:
        key = gameplay.viewer_key(seat)
        shown = [
            {
                "events": [[seq, v[key]] for seq, v in frame.rows],
                "decision": decision_message(
                    rnd, frame.state, seat, token=frame.token, deadline=frame.last
                ),
            }
            for frame in frames
        ]
        if not shown and seat in actors:
            shown = [{"events": [], "decision": decision_message(rnd, state, seat)}]
        views[key] = {"frames": shown}
    return {
        "round_id": rnd.pk,
        "prev_seq": prev_seq,
        "last_seq": rnd.last_seq,
        "status": rnd.status,
        "seat_users": seat_users,
        "views": views,
    }


def round_start_update(
    rnd: Round, state: RoundState, *, seat_users: list[int | None]
) -> dict[str, Any]:
    """A new round's notification: every viewer's ``snapshot`` of it, built once by the writer
    (see :func:`round_update`; a socket takes its viewer's part when the round is newer than the
    one it shows)."""
    recent, players = recent_event_rows(rnd), round_players(rnd)
    return {
        "round_id": rnd.pk,
        "last_seq": rnd.last_seq,
        "status": rnd.status,
        "seat_users": seat_users,
        "snapshots": {
            gameplay.viewer_key(seat): snapshot_message(
                rnd, state, seat, recent=recent, players=players, with_previous=False
            )
            for seat in gameplay.VIEWERS
        },
    }


def wall_still_in_play(rnd: Round) -> bool:
    """Duplicate walls: another table is still playing a hand dealt from the same
    seed as ``rnd``. Until it ends, ``rnd``'s seed, wall, event log and replay stay unpublished
    (they would show that table every hand). Only matches dealt from a shared ``wall_seed`` can
    share a seed; any other round answers at once."""
    if not rnd.match.wall_seed:
        return False
    return (
        Round.objects.filter(seed=rnd.seed, status=Round.Status.PLAYING).exclude(pk=rnd.pk).exists()
    )
