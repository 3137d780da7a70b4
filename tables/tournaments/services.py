"""The services of club events (比赛): create, register, seat a round, advance, pause,
re-seat a no-show, end; and the clock's sweep that drives the schedule.

Every change runs in one transaction (:func:`tables.notify.transact`) holding the tournament's
row lock (``select_for_update``): two clocks, a clock and an admin's click, or a retried task
serialise on it, and each step checks the state it finds before it acts (idempotent). All of the
schedule's state is in the database (the tournament's status and current round, each round's
clock, each table's match), so a worker or clock restart loses nothing: the next sweep carries on.

Who sits where comes from :func:`tables.tournaments.seating.seating_make` and the standings from
:func:`tables.tournaments.standings.standings_compute` (pure Python, no database); this module
feeds them what the database holds (the seating history, the sit-outs, the forbidden pairs and
each finished table's scores, read from the settlement ledger).
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Collection, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, Literal

from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext, pgettext_lazy

from accounts import membership
from accounts.models import Club, User
from tables.errors import TableError
from tables.game.commands import WIND_ROUND_MAX_HANDS
from tables.matches import end_match, lock_room, match_finish_after_hand, match_start_seated
from tables.models import (
    BotLevel,
    Entrant,
    ForbiddenPair,
    Match,
    Notification,
    Room,
    Round,
    Seat,
    Tournament,
    TournamentRound,
    TournamentTable,
)
from tables.notify import notify_room, transact
from tables.room_options import room_options_validate
from tables.rooms import bot_level_validate
from tables.tournaments.seating import seating_make
from tables.tournaments.standings import StandingRow, TableResult, standings_compute

log = logging.getLogger(__name__)

ENDED_BY_ADMIN = "tournament_ended"
"""``Match.end_reason`` of a table whose event an admin ended while it was playing."""
NO_SHOW_REPLACED = "no_show"
"""Why an entrant stopped being seated: an admin replaced them at their table."""

SEAT_WINDS = ("东", "南", "西", "北")
# The words in the catalog (translated with the context "seat wind" by :func:`seat_line`).
_SEAT_WORDS = (
    pgettext_lazy("seat wind", "东"),
    pgettext_lazy("seat wind", "南"),
    pgettext_lazy("seat wind", "西"),
    pgettext_lazy("seat wind", "北"),
)
"""Seat order of a table as seated: East, South, West, North; East deals first."""


# --- checks ---------------------------------------------------------------------------------


def _require_manager(actor: Any, club_id: int) -> None:
    """Only the club's owner and admins (or site moderators) create and run its events."""
    if not membership.may_manage_club(actor, club_id):
        raise TableError("only the club's admins run its events", code="not_manager")


def _lock(tournament_id: int) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament_id)


def _points_validate(points: Sequence[object]) -> list[int]:
    values = list(points)
    if len(values) != 4 or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise TableError("placement points are four whole numbers", code="bad_points")
    ints = [int(v) for v in values]  # type: ignore[call-overload]
    if ints != sorted(ints, reverse=True):
        raise TableError("placement points go down from first to fourth", code="bad_points")
    return ints


# --- creating and registering -----------------------------------------------------------------


def tournament_create(
    *,
    user: Any,
    club: Club,
    name: str,
    variant: str,
    options: Mapping[str, Any] | None = None,
    base_stake: int = 1,
    turn_timeout_s: int = 15,
    claim_timeout_s: int = 8,
    rounds: int = 4,
    hands_per_round: int = 4,
    round_length: str = Tournament.RoundLength.HANDS,
    starts_at: datetime | None = None,
    registration_open: bool = True,
    fill_with_bots: bool = True,
    bot_level: object = BotLevel.NORMAL,
    placement_points: Sequence[object] = (3, 1, -1, -3),
    round_clock_min: int = 0,
    spectator_delay_s: int = 180,
    duplicate_walls: bool = False,
    round1: str = Tournament.Round1.RANDOM,
) -> Tournament:
    """A club admin creates an event. The room options go through the same checker
    as every room (:func:`tables.room_options.room_options_validate`), the model's bounds
    through ``full_clean``."""
    _require_manager(user, club.pk)
    tournament = Tournament(
        club=club,
        name=name,
        variant=variant,
        options=room_options_validate(
            variant=variant,
            options=options or {},
            base_stake=base_stake,
            spectator_delay_s=spectator_delay_s,
        ),
        base_stake=base_stake,
        turn_timeout_s=turn_timeout_s,
        claim_timeout_s=claim_timeout_s,
        rounds=rounds,
        hands_per_round=hands_per_round,
        round_length=round_length,
        starts_at=starts_at,
        registration_open=registration_open,
        fill_with_bots=fill_with_bots,
        bot_level=bot_level_validate(level=bot_level),
        placement_points=_points_validate(placement_points),
        round_clock_min=round_clock_min,
        spectator_delay_s=spectator_delay_s,
        duplicate_walls=duplicate_walls,
        round1=round1,
        seed=secrets.token_hex(32),
        created_by=user,
    )
    tournament.full_clean()
    tournament.save()
    return tournament


def tournament_register(*, tournament: Tournament, user: Any) -> Entrant:
    """报名: an active member of the club enters while registration is open. Idempotent (a
    second click returns the same entry)."""

    def run() -> Entrant:
        locked = _lock(tournament.pk)
        mine = Entrant.objects.filter(tournament=locked, user=user).first()
        if mine is not None and not mine.withdrawn:
            return mine
        if not membership.is_active_member(user, locked.club_id):
            raise TableError("not a member of this club", code="not_member")
        if locked.status != Tournament.Status.REGISTRATION or not locked.registration_open:
            raise TableError("registration is closed", code="registration_closed")
        if mine is not None:
            mine.withdrawn = False
            mine.save(update_fields=["withdrawn"])
            return mine
        return Entrant.objects.create(tournament=locked, user=user)

    return transact(run)


def tournament_unregister(*, tournament: Tournament, user: Any) -> bool:
    """取消报名, before the event starts. True if an entry was removed."""

    def run() -> bool:
        locked = _lock(tournament.pk)
        if locked.status != Tournament.Status.REGISTRATION:
            raise TableError("the event has started", code="already_started")
        deleted, _ = Entrant.objects.filter(tournament=locked, user=user).delete()
        return bool(deleted)

    return transact(run)


def tournament_registration_set(*, tournament: Tournament, actor: Any, open: bool) -> Tournament:
    """Open or close registration (a club admin)."""
    _require_manager(actor, tournament.club_id)

    def run() -> Tournament:
        locked = _lock(tournament.pk)
        if locked.registration_open != open:
            locked.registration_open = open
            locked.save(update_fields=["registration_open"])
        return locked

    return transact(run)


def tournament_bots_add(
    *, tournament: Tournament, actor: Any, count: int, level: object = None
) -> list[Entrant]:
    """Enter ``count`` bots (of ``level``, default the event's) before the start: a club that
    wants 12 seats with 8 members adds 4 ("8 humans + 4 bots")."""
    _require_manager(actor, tournament.club_id)
    if not 0 < count <= 64:
        raise TableError("between 1 and 64 bots", code="bad_count")

    def run() -> list[Entrant]:
        locked = _lock(tournament.pk)
        if locked.status != Tournament.Status.REGISTRATION:
            raise TableError("the event has started", code="already_started")
        chosen = bot_level_validate(level=level or locked.bot_level)
        return [_bot_entrant(locked, chosen) for _ in range(count)]

    return transact(run)


def _bot_entrant(tournament: Tournament, level: str) -> Entrant:
    number = Entrant.objects.filter(tournament=tournament, is_bot=True).count() + 1
    label = dict(BotLevel.choices)[level]
    with translation.override("zh-hans"):
        name = f"{gettext('机器人')}·{label} {number}"
    return Entrant.objects.create(tournament=tournament, is_bot=True, bot_level=level, name=name)


def tournament_forbid_pair(
    *, tournament: Tournament, actor: Any, first: Entrant, second: Entrant
) -> ForbiddenPair:
    """Two entrants who must never share a table (honoured by the seating). Idempotent."""
    _require_manager(actor, tournament.club_id)
    if first.pk == second.pk or {first.tournament_id, second.tournament_id} != {tournament.pk}:
        raise TableError("two different entrants of this event", code="bad_pair")
    a, b = sorted((first, second), key=lambda e: e.pk)
    pair, _ = ForbiddenPair.objects.get_or_create(tournament=tournament, first=a, second=b)
    return pair


# --- the schedule ---------------------------------------------------------------------------


def tournament_start(*, tournament: Tournament, actor: Any | None) -> Tournament:
    """Close registration and seat round 1 (an admin's click, or the clock at ``starts_at``
    when ``actor`` is None). Idempotent: a started event is returned as it is."""
    if actor is not None:
        _require_manager(actor, tournament.club_id)

    def run() -> Tournament:
        locked = _lock(tournament.pk)
        if locked.status != Tournament.Status.REGISTRATION:
            return locked
        _fill_with_bots(locked)
        active = Entrant.objects.filter(tournament=locked, withdrawn=False).count()
        if active < 4:
            raise TableError("an event needs at least four entrants", code="too_few")
        locked.status = Tournament.Status.RUNNING
        locked.registration_open = False
        locked.save(update_fields=["status", "registration_open"])
        _round_seat(locked, number=1)
        return locked

    return transact(run)


def _fill_with_bots(tournament: Tournament) -> None:
    """Bots fill an odd count when the event says so; otherwise the seating sits the
    extra players out, each at most once."""
    if not tournament.fill_with_bots:
        return
    active = Entrant.objects.filter(tournament=tournament, withdrawn=False).count()
    for _ in range(-active % 4):
        _bot_entrant(tournament, tournament.bot_level)


def _rng(tournament: Tournament, number: int) -> random.Random:
    """The seating's randomness for round ``number``: from the event's secret seed, so a retried
    seating (a transaction retried on conflict) seats exactly the same tables."""
    return random.Random(f"{tournament.seed}:{number}")


def _ranking(
    tournament: Tournament, number: int, entrants: Sequence[int]
) -> tuple[list[int], Literal["random", "ranked"]]:
    """Who ranks where before round ``number``, and how round 1 is seated: the standings after
    the rounds played; round 1 by rating (optional) when the event asks for it and the
    ratings are installed, else at random (the seating draws it)."""
    if number == 1:
        if tournament.round1 == Tournament.Round1.RATING:
            rated = _rating_order(tournament, entrants)
            if rated is not None:
                return rated, "ranked"
        return list(entrants), "random"
    return [row.entrant_id for row in standings_of(tournament, entrants=entrants)], "ranked"


def _rating_order(tournament: Tournament, entrants: Sequence[int]) -> list[int] | None:
    """Round 1 seeded by rating: each human entrant's conservative rating in the
    club and variant (:func:`scoring.ratings.rating_conservative_for`; the unrated get the
    default's), best first; bots after them, in entry order. Imported here: the ratings are
    scoring's, and scoring builds on the tables. None when no entrant is a member (all bots)."""
    from scoring.ratings import rating_conservative_for

    users = dict(
        Entrant.objects.filter(pk__in=entrants, user__isnull=False).values_list("pk", "user_id")
    )
    if not users:
        return None
    ratings: Mapping[int, float] = rating_conservative_for(
        club_id=tournament.club_id, variant=tournament.variant, user_ids=list(users.values())
    )
    floor = float("-inf")
    return sorted(entrants, key=lambda e: -(ratings.get(users.get(e, -1), floor)))


def _history(tournament: Tournament, before: int) -> list[list[list[int]]]:
    rows = TournamentTable.objects.filter(
        round__tournament=tournament, round__number__lt=before
    ).order_by("round__number", "number")
    by_round: dict[int, list[list[int]]] = {}
    for number, seats in rows.values_list("round__number", "seats"):
        by_round.setdefault(number, []).append(list(seats))
    return [by_round[n] for n in sorted(by_round)]


def _round_seat(tournament: Tournament, *, number: int) -> TournamentRound:
    """Seat round ``number`` of the locked ``tournament``: the seating, a room and a match per
    table with the seated players and bots (seat 0 East deals), the first hand dealt, and each
    player told where they sit. Idempotent: a round already seated is returned."""
    existing = TournamentRound.objects.filter(tournament=tournament, number=number).first()
    if existing is not None:
        return existing
    entrants = list(
        Entrant.objects.filter(tournament=tournament, withdrawn=False).values_list("pk", flat=True)
    )
    sat_out_before = {
        e for r in tournament.round_set.values_list("sitting_out", flat=True) for e in r
    }
    forbidden = [
        frozenset(pair)
        for pair in ForbiddenPair.objects.filter(tournament=tournament).values_list(
            "first_id", "second_id"
        )
    ]
    ranking, round1 = _ranking(tournament, number, entrants)
    seating = seating_make(
        round_no=number,
        ranking=ranking,
        history=_history(tournament, number),
        sat_out_before=sat_out_before,
        forbidden_pairs=forbidden,
        rng=_rng(tournament, number),
        round1=round1,
    )
    the_round = TournamentRound.objects.create(
        tournament=tournament,
        number=number,
        sitting_out=list(seating.sitting_out),
        wall_seed=secrets.token_hex(32) if tournament.duplicate_walls else "",
        clock_ends_at=(
            timezone.now() + timedelta(minutes=tournament.round_clock_min)
            if tournament.round_clock_min
            else None
        ),
    )
    tournament.current_round = number
    tournament.save(update_fields=["current_round"])
    by_id = {e.pk: e for e in Entrant.objects.filter(pk__in=entrants).select_related("user")}
    for table_no, seats in enumerate(seating.tables, start=1):
        _table_open(tournament, the_round, table_no, [by_id[e] for e in seats])
    for entrant_id in seating.sitting_out:
        entrant = by_id[entrant_id]
        if entrant.user is not None:
            _notify(
                entrant.user,
                key=f"t{tournament.pk}r{number}",
                link=reverse("tournaments:detail", args=[tournament.pk]),
                text=lambda: (
                    gettext("%(event)s 第 %(round)s 轮：你本轮轮空")
                    % {"event": tournament.name, "round": number}
                ),
            )
    return the_round


def _table_open(
    tournament: Tournament, the_round: TournamentRound, table_no: int, seated: Sequence[Entrant]
) -> TournamentTable:
    with translation.override("zh-hans"):
        name = gettext("%(event)s 第%(round)s轮 %(table)s号桌") % {
            "event": tournament.name,
            "round": the_round.number,
            "table": table_no,
        }
    room = Room(
        club_id=tournament.club_id,
        name=name[:60],
        variant=tournament.variant,
        options=tournament.options,
        base_stake=tournament.base_stake,
        turn_timeout_s=tournament.turn_timeout_s,
        claim_timeout_s=tournament.claim_timeout_s,
        allow_spectators=True,
        allow_bots=True,
        bot_level=tournament.bot_level,
        # Spectators of an event table see it this long ago, every hand open.
        spectator_delay_s=tournament.spectator_delay_s,
        created_by=tournament.created_by,
    )
    room.save()
    for index, entrant in enumerate(seated):
        Seat.objects.create(
            room=room,
            index=index,
            user=entrant.user,
            is_bot=entrant.is_bot,
            bot_level=entrant.bot_level if entrant.is_bot else "",
            ready=True,
        )
    locked = lock_room(room.pk)
    wind = tournament.round_length == Tournament.RoundLength.WIND
    match_start_seated(
        room=locked,
        # A wind round (一圈) ends when the deal leaves North, or at its safety bound.
        hands_limit=WIND_ROUND_MAX_HANDS if wind else tournament.hands_per_round,
        wind_round=wind,
        wall_seed=the_round.wall_seed,
    )
    table = TournamentTable.objects.create(
        round=the_round,
        number=table_no,
        seats=[e.pk for e in seated],
        room=room,
        match=Match.objects.filter(room=room).order_by("-pk").first(),
    )
    link = reverse("tables:room", args=[room.pk])
    for index, entrant in enumerate(seated):
        if entrant.user is None:
            continue
        _notify(
            entrant.user,
            key=f"t{tournament.pk}r{the_round.number}",
            link=link,
            text=lambda index=index: seat_line(tournament.name, the_round.number, table_no, index),
        )
    return table


def seat_line(event: str, round_no: int, table_no: int, index: int) -> str:
    """第 2 轮：你在 3 号桌，东位, in the active language."""
    return gettext("%(event)s 第 %(round)s 轮：你在 %(table)s 号桌，%(seat)s位") % {
        "event": event,
        "round": round_no,
        "table": table_no,
        "seat": str(_SEAT_WORDS[index]),
    }


def _notify(user: User, *, key: str, link: str, text: Any) -> None:
    """A notification in the user's own language (``text`` is called inside it); one per
    ``key`` (a retried seating does not tell anyone twice)."""
    language = getattr(user, "language", "") or "zh-hans"
    with translation.override(language):
        line = str(text())
    Notification.objects.get_or_create(
        user=user, key=key, defaults={"text": line[:300], "link": link}
    )


# --- standings ------------------------------------------------------------------------------


def table_finished(table: TournamentTable) -> bool:
    """A table is finished when its match is over and each of its ended hands is settled
    (its scores are the ledger's)."""
    match = table.match
    if match is None or match.status != Match.Status.FINISHED:
        return False
    ended = Round.objects.filter(match=match, status=Round.Status.ENDED)
    return not ended.filter(settlement__isnull=True).exists()


def _settle_missing(table: TournamentTable) -> None:
    """Settle the table's ended hands whose settlement task has not run yet (lost, or a test
    without a worker): idempotent, the ledger's unique constraint keeps one per hand. A hand whose
    settlement failed before is left to scoring's sweeper and its back-off (the table waits, and
    the failure is in the admin); a new failure is recorded there and logged here. Imported here:
    the ledger is scoring's, and scoring builds on the tables (not the other way)."""
    from scoring.services import settle_round_recording

    if table.match_id is None:
        return
    unsettled = Round.objects.filter(
        match_id=table.match_id,
        status=Round.Status.ENDED,
        settlement__isnull=True,
        settlement_failure__isnull=True,
    ).values_list("pk", flat=True)
    for round_id in list(unsettled):
        try:
            settle_round_recording(round_id)
        except Exception:  # recorded; the other tables and events go on
            log.exception("tournament table %s: hand %s could not be settled", table.pk, round_id)


def table_scores(table: TournamentTable) -> tuple[int, int, int, int]:
    """Each seat's total over the table's settled hands (the ledger)."""
    from scoring.selectors import match_totals

    if table.match_id is None:
        return (0, 0, 0, 0)
    return match_totals(table.match_id)


def table_results(tournament: Tournament) -> list[TableResult]:
    """Every finished table of the event as the standings read it."""
    tables = (
        TournamentTable.objects.filter(round__tournament=tournament)
        .select_related("round", "match")
        .order_by("round__number", "number")
    )
    return [
        TableResult(
            round_no=table.round.number,
            table_no=table.number,
            seats=tuple(table.seats),
            scores=table_scores(table),
        )
        for table in tables
        if table_finished(table)
    ]


def standings_of(
    tournament: Tournament, *, entrants: Collection[int] | None = None
) -> list[StandingRow]:
    """The standings: placement points, then score, then the tie-breaks of
    :data:`tables.tournaments.standings.TIEBREAKS`, over the finished tables."""
    if entrants is None:
        ids = list(Entrant.objects.filter(tournament=tournament).values_list("pk", flat=True))
    else:
        ids = list(entrants)
    return standings_compute(
        entrants=ids,
        results=table_results(tournament),
        placement_points=tuple(tournament.placement_points),
    )


# --- advancing ------------------------------------------------------------------------------


def tournament_advance(*, tournament_id: int, now: datetime | None = None) -> str:
    """One step of the schedule (the clock's sweep, an admin's click): start at ``starts_at``;
    at the round clock, every unfinished table ends after its hand in play; when every table of
    the round is finished, the next round is seated, or after the last one the event is
    finished with its final standings. Idempotent; returns what it did ("" for nothing)."""
    moment = now or timezone.now()
    head = Tournament.objects.filter(pk=tournament_id).values_list("status", "starts_at").first()
    if head is None:
        return ""
    status, starts_at = head
    if status == Tournament.Status.REGISTRATION:
        if starts_at is None or starts_at > moment:
            return ""
        try:
            tournament_start(tournament=Tournament(pk=tournament_id), actor=None)
        except TableError:
            return ""  # too few entrants: an admin decides
        return "started"
    if status != Tournament.Status.RUNNING:
        return ""
    # Settle what a lost task left unsettled before taking the lock (the settlement has its
    # own transaction and lock).
    for table in TournamentTable.objects.filter(
        round__tournament_id=tournament_id, round__status=TournamentRound.Status.PLAYING
    ).select_related("match"):
        if table.match is not None and table.match.status == Match.Status.FINISHED:
            _settle_missing(table)

    def run() -> str:
        locked = _lock(tournament_id)
        if locked.status != Tournament.Status.RUNNING:
            return ""
        current = TournamentRound.objects.filter(
            tournament=locked, number=locked.current_round
        ).first()
        if current is None:
            _round_seat(locked, number=max(1, locked.current_round))
            return "seated"
        if current.status == TournamentRound.Status.PLAYING:
            tables = list(current.tables.select_related("match", "room"))
            unfinished = [t for t in tables if not table_finished(t)]
            if unfinished:
                if (
                    current.clock_ends_at is not None
                    and current.clock_ends_at <= moment
                    and not current.clock_called
                ):
                    current.clock_called = True
                    current.save(update_fields=["clock_called"])
                    for table in unfinished:
                        if table.match_id is not None:
                            match_finish_after_hand(match_id=table.match_id)
                    return "clock"
                return ""
            current.status = TournamentRound.Status.FINISHED
            current.finished_at = moment
            current.save(update_fields=["status", "finished_at"])
            Room.objects.filter(pk__in=[t.room_id for t in tables]).update(
                status=Room.Status.CLOSED
            )
        if current.number < locked.rounds:
            _round_seat(locked, number=current.number + 1)
            return "seated"
        locked.status = Tournament.Status.FINISHED
        locked.finished_at = moment
        locked.save(update_fields=["status", "finished_at"])
        return "finished"

    return transact(run)


def sweep_tournaments(*, now: datetime | None = None) -> list[tuple[int, str]]:
    """The clock's sweep (every few seconds): one :func:`tournament_advance` per event that is
    running, or waiting for its start time. Returns what moved."""
    moment = now or timezone.now()
    ids = Tournament.objects.filter(
        status__in=(Tournament.Status.RUNNING, Tournament.Status.REGISTRATION)
    ).exclude(status=Tournament.Status.REGISTRATION, starts_at__isnull=True)
    moved = []
    for tournament_id in list(ids.values_list("pk", flat=True)):
        did = tournament_advance(tournament_id=tournament_id, now=moment)
        if did:
            moved.append((tournament_id, did))
    return moved


# --- admin interventions --------------------------------------------------------------------


def tournament_pause(*, tournament: Tournament, actor: Any) -> Tournament:
    """Pause: no new round is seated and the round clock stops (tables in play finish their
    hands; nothing is cut in the middle of a hand). Idempotent."""
    _require_manager(actor, tournament.club_id)

    def run() -> Tournament:
        locked = _lock(tournament.pk)
        if locked.status == Tournament.Status.RUNNING:
            locked.status = Tournament.Status.PAUSED
            locked.paused_at = timezone.now()
            locked.save(update_fields=["status", "paused_at"])
        return locked

    return transact(run)


def tournament_resume(*, tournament: Tournament, actor: Any) -> Tournament:
    """Resume: the round clock is moved on by the time the event was paused. Idempotent."""
    _require_manager(actor, tournament.club_id)

    def run() -> Tournament:
        locked = _lock(tournament.pk)
        if locked.status != Tournament.Status.PAUSED:
            return locked
        now = timezone.now()
        if locked.paused_at is not None:
            TournamentRound.objects.filter(
                tournament=locked,
                status=TournamentRound.Status.PLAYING,
                clock_ends_at__isnull=False,
                clock_called=False,
            ).update(clock_ends_at=models_add(now - locked.paused_at))
        locked.status = Tournament.Status.RUNNING
        locked.paused_at = None
        locked.save(update_fields=["status", "paused_at"])
        return locked

    return transact(run)


def models_add(delta: timedelta) -> Any:
    """``clock_ends_at + delta`` as an update expression."""
    from django.db.models import F

    return F("clock_ends_at") + delta


def tournament_end(*, tournament: Tournament, actor: Any) -> Tournament:
    """End the event now: every table still playing ends (its hand in play is voided, never
    settled), and the standings over the settled hands are final. Idempotent."""
    _require_manager(actor, tournament.club_id)

    def run() -> Tournament:
        locked = _lock(tournament.pk)
        if locked.status == Tournament.Status.FINISHED:
            return locked
        playing = TournamentTable.objects.filter(
            round__tournament=locked, match__status=Match.Status.PLAYING
        )
        for room_id in list(playing.values_list("room_id", flat=True)):
            room = lock_room(room_id)
            end_match(room, reason=ENDED_BY_ADMIN)
            Room.objects.filter(pk=room_id).update(status=Room.Status.CLOSED)
            notify_room(room_id)
        now = timezone.now()
        TournamentRound.objects.filter(
            tournament=locked, status=TournamentRound.Status.PLAYING
        ).update(status=TournamentRound.Status.FINISHED, finished_at=now)
        locked.status = Tournament.Status.FINISHED
        locked.finished_at = now
        locked.save(update_fields=["status", "finished_at"])
        return locked

    transact(run)
    for table in TournamentTable.objects.filter(round__tournament=tournament).select_related(
        "match"
    ):
        _settle_missing(table)
    return Tournament.objects.get(pk=tournament.pk)


def tournament_reseat(
    *,
    tournament: Tournament,
    actor: Any,
    entrant: Entrant,
    reserve: Entrant | None = None,
) -> Entrant:
    """Re-seat a no-show: at their table of the current round, a bot of the event's
    level (or ``reserve``, an entrant sitting this round out) takes their seat, in the match in
    play too (the hand goes on; the next decision of that seat is the newcomer's). The no-show
    withdraws (no later round seats them); the newcomer takes over the seat's table score.
    Returns the entrant now in the seat. Idempotent for an entrant already replaced."""
    _require_manager(actor, tournament.club_id)

    def run() -> Entrant:
        locked = _lock(tournament.pk)
        if locked.status not in (Tournament.Status.RUNNING, Tournament.Status.PAUSED):
            raise TableError("the event is not running", code="not_running")
        current = TournamentRound.objects.filter(
            tournament=locked, number=locked.current_round
        ).first()
        if current is None:
            raise TableError("no round is seated yet", code="not_seated")
        table = next((t for t in current.tables.all() if entrant.pk in t.seats), None)
        if table is None:
            raise TableError("that entrant is not seated this round", code="not_seated")
        if reserve is not None:
            if reserve.tournament_id != locked.pk or reserve.is_bot or reserve.withdrawn:
                raise TableError("the reserve must be a player of this event", code="bad_reserve")
            if reserve.pk not in current.sitting_out:
                raise TableError("the reserve must be sitting this round out", code="bad_reserve")
            newcomer = reserve
        else:
            newcomer = _bot_entrant(locked, locked.bot_level)
        index = table.seats.index(entrant.pk)
        room = lock_room(table.room_id)
        seat = Seat.objects.select_for_update().get(room=room, index=index)
        seat.user = newcomer.user
        seat.is_bot = newcomer.is_bot
        seat.bot_level = newcomer.bot_level
        seat.auto_play = False
        seat.consecutive_timeouts = 0
        seat.save()
        if table.match_id is not None:
            match = Match.objects.select_for_update().get(pk=table.match_id)
            players, levels = list(match.players), list(match.bot_levels or ["", "", "", ""])
            players[index] = newcomer.user_id
            levels[index] = newcomer.bot_level if newcomer.is_bot else ""
            match.players, match.bot_levels = players, levels
            match.save(update_fields=["players", "bot_levels"])
        table.seats = [newcomer.pk if e == entrant.pk else e for e in table.seats]
        table.save(update_fields=["seats"])
        if newcomer.pk in current.sitting_out:
            current.sitting_out = [e for e in current.sitting_out if e != newcomer.pk]
            current.save(update_fields=["sitting_out"])
        entrant.withdrawn = True
        entrant.save(update_fields=["withdrawn"])
        notify_room(room.pk)
        if newcomer.user is not None:
            _notify(
                newcomer.user,
                key=f"t{locked.pk}r{current.number}reseat",
                link=reverse("tables:room", args=[room.pk]),
                text=lambda: seat_line(locked.name, current.number, table.number, index),
            )
        return newcomer

    return transact(run)


# --- notifications --------------------------------------------------------------------------


def notifications_mark_read(*, user: Any, ids: Collection[int] | None = None) -> int:
    """Mark the user's notifications read (all of them when ``ids`` is None)."""
    rows = Notification.objects.filter(user=user, read=False)
    if ids is not None:
        rows = rows.filter(pk__in=list(ids))
    return rows.update(read=True)


def entrant_names(tournament: Tournament) -> dict[int, str]:
    """Each entrant's name as the pages show it, in the page's language: a player's public
    name; a bot's label and number among the event's bots (机器人·简单 1)."""
    names = {}
    bots = 0
    levels = dict(BotLevel.choices)
    for entrant in Entrant.objects.filter(tournament=tournament).select_related("user"):
        if entrant.user is not None:
            names[entrant.pk] = entrant.user.public_name
        else:
            bots += 1
            label = levels.get(entrant.bot_level, entrant.bot_level)
            names[entrant.pk] = f"{gettext('机器人')}·{label} {bots}"
    return names
