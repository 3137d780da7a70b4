"""Helpers of the event tests: play every table of an event out with bots and 托管."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from fractions import Fraction

from django.utils import timezone

from scoring.models import LedgerEntry
from tables import matches
from tables.game import commands
from tables.models import Match, Round, Seat, Tournament, TournamentTable


def play_out(tournament: Tournament, *, limit: int = 20000) -> None:
    """Every table of the event plays on until its match is over: the humans are in 托管
    (auto-play at the room's bot level, as a player who is away is), the bots play, and the
    settlement pause is skipped. What the worker's tasks do, called here in order."""
    Seat.objects.filter(room__tournament_tables__round__tournament=tournament, is_bot=False).update(
        auto_play=True
    )
    for _ in range(limit):
        rounds = list(
            Round.objects.filter(
                match__tournament_tables__round__tournament=tournament,
                status=Round.Status.PLAYING,
            )
        )
        waiting = list(
            Match.objects.filter(
                tournament_tables__round__tournament=tournament, status=Match.Status.PLAYING
            ).exclude(rounds__status=Round.Status.PLAYING)
        )
        if not rounds and not waiting:
            return
        for rnd in rounds:
            commands.round_autoplay(round_id=rnd.pk, version=rnd.version)
        for match in waiting:
            last = match.rounds.order_by("-number").first()
            assert last is not None
            later = timezone.now() + timedelta(seconds=commands.NEXT_ROUND_AFTER_S + 5)
            matches.match_next_round(match_id=match.pk, after_number=last.number, now=later)
    raise AssertionError("the tables did not finish")


def expected_points(
    tournament: Tournament, points: Sequence[int] = (3, 1, -1, -3)
) -> dict[int, tuple[Fraction, int]]:
    """Each entrant's (placement points, score), worked out by hand from the ledger rows: each
    table's seats' sums of net, places by score, tied places sharing their points equally."""
    totals: dict[int, tuple[Fraction, int]] = {}
    for table in TournamentTable.objects.filter(round__tournament=tournament):
        nets = [0, 0, 0, 0]
        for entry in LedgerEntry.objects.filter(match_id=table.match_id):
            nets[entry.seat] += entry.net
        for seat, entrant in enumerate(table.seats):
            above = sum(1 for n in nets if n > nets[seat])
            tied = sum(1 for n in nets if n == nets[seat])
            share = Fraction(sum(points[above : above + tied]), tied)
            old = totals.get(entrant, (Fraction(0), 0))
            totals[entrant] = (old[0] + share, old[1] + nets[seat])
    return totals


def seated_sets(tournament: Tournament, number: int) -> list[frozenset[int]]:
    return [
        frozenset(t.seats)
        for t in TournamentTable.objects.filter(round__tournament=tournament, round__number=number)
    ]
