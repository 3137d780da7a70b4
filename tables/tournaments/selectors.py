"""What the event pages and the API read: seating per round with each table's scores
and hands, and the standings with names."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from accounts import membership
from tables.models import Entrant, Round, Tournament, TournamentRound, TournamentTable
from tables.tournaments import services
from tables.tournaments.standings import StandingRow


def tournaments_visible_to(user: Any) -> QuerySet[Tournament]:
    """Events of the clubs the user is an active member of (others do not exist for them)."""
    return Tournament.objects.filter(club__in=membership.active_club_ids(user)).select_related(
        "club"
    )


@dataclass(frozen=True)
class SeatView:
    wind: str
    entrant_id: int
    name: str
    score: int | None


@dataclass(frozen=True)
class HandView:
    round_id: int
    number: int
    ended: bool
    replay: bool


@dataclass(frozen=True)
class TableView:
    number: int
    room_id: int
    match_id: int | None
    finished: bool
    seats: list[SeatView]
    hands: list[HandView]


@dataclass(frozen=True)
class RoundView:
    number: int
    finished: bool
    tables: list[TableView]
    sitting_out: list[str]


def rounds_view(tournament: Tournament, names: dict[int, str]) -> list[RoundView]:
    """Each round's tables (seat order E, S, W, N) with links to the table and each hand.
    With duplicate walls a hand's replay waits for the whole round: another table may still be
    playing the same wall."""
    out = []
    rounds = TournamentRound.objects.filter(tournament=tournament).order_by("number")
    for the_round in rounds:
        finished_round = the_round.status == TournamentRound.Status.FINISHED
        tables = []
        rows = the_round.tables.select_related("match").order_by("number")
        for table in rows:
            done = services.table_finished(table)
            scores = services.table_scores(table) if table.match_id else None
            hands = []
            if table.match_id is not None:
                for rnd in Round.objects.filter(match_id=table.match_id).order_by("number"):
                    ended = rnd.status == Round.Status.ENDED
                    hidden = bool(the_round.wall_seed) and not finished_round
                    hands.append(HandView(rnd.pk, rnd.number, ended, ended and not hidden))
            seats = [
                SeatView(
                    wind=services.SEAT_WINDS[i],
                    entrant_id=e,
                    name=names.get(e, "?"),
                    score=scores[i] if scores is not None else None,
                )
                for i, e in enumerate(table.seats)
            ]
            tables.append(
                TableView(table.number, table.room_id, table.match_id, done, seats, hands)
            )
        out.append(
            RoundView(
                the_round.number,
                finished_round,
                tables,
                [names.get(e, "?") for e in the_round.sitting_out],
            )
        )
    return out


@dataclass(frozen=True)
class StandingView:
    row: StandingRow
    name: str
    is_bot: bool
    withdrawn: bool


def standings_view(tournament: Tournament, names: dict[int, str]) -> list[StandingView]:
    entrants = {e.pk: e for e in Entrant.objects.filter(tournament=tournament)}
    return [
        StandingView(
            row=row,
            name=names.get(row.entrant_id, "?"),
            is_bot=entrants[row.entrant_id].is_bot,
            withdrawn=entrants[row.entrant_id].withdrawn,
        )
        for row in services.standings_of(tournament)
    ]


def my_table(tournament: Tournament, user: Any) -> TournamentTable | None:
    """The user's table in the current round, if seated."""
    entrant = Entrant.objects.filter(tournament=tournament, user=user).first()
    if entrant is None:
        return None
    current = TournamentTable.objects.filter(
        round__tournament=tournament, round__number=tournament.current_round
    )
    return next((t for t in current if entrant.pk in t.seats), None)
