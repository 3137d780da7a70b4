"""Celery tasks of the live tables: bots / 托管 moves and the next round after the pause.

Each task only calls a service that re-checks everything under the round's row lock, so running a
task late, twice, or after the clock already acted changes nothing (idempotent by version). The
clock's sweeps (deadlines, lost next rounds) are not tasks: the clock process calls the services
(config/clock.py).
"""

from __future__ import annotations

from celery import shared_task

from tables import matches
from tables.game import commands


@shared_task(name="tables.round_autoplay", ignore_result=True)
def round_autoplay(round_id: int, version: int) -> bool:
    """Bots and 托管 seats that must decide at ``version`` act."""
    return commands.round_autoplay(round_id=round_id, version=version)


@shared_task(name="tables.match_next_round", ignore_result=True)
def match_next_round(match_id: int, after_number: int) -> int | None:
    """The settlement pause is over: deal the next round if all four are still seated."""
    dealt = matches.match_next_round(match_id=match_id, after_number=after_number)
    return None if dealt is None else dealt.pk
