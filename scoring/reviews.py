"""牌谱分析: the stored reviews of an ended round, and the seat's-view frames the
review page steps through.

A review is computed by :mod:`rules.review` from THE replay (``tables.game.store.replay_steps``:
the seed and the action log) — one replay for the four seats — and stored once per round, seat
and review version (:class:`scoring.models.RoundReview`, unique). The task after the settlement
(``scoring.tasks.review_round``) computes them; a page or API call that finds none computes
them then (:func:`round_review_get`). Both are idempotent: a second run finds the rows, and two
racing writers meet the unique constraint, the loser reading the winner's row.

Only an ended round is ever reviewed: during play a review would reveal the seat's hand (and
the bot's opinion of it) to whoever asked.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count
from django.utils import timezone

from rules import review as rules_review
from rules.engine import Action, RoundState, action_from_json
from rules.tiles import tile_name
from rules.views import event_for, seat_view
from scoring.models import ReviewFailure, RoundReview
from tables.game.store import replay_steps
from tables.gameplay import ReplayStep
from tables.models import Round

SEATS = (0, 1, 2, 3)


REVIEW_SWEEP_WINDOW = 50
"""At most this many rounds a sweep enqueues (a review costs up to about 0.4 s of a worker's CPU;
a backlog of old rounds is worked off a window a minute, the newest first)."""


def unreviewed_rounds(
    *, now: datetime | None = None, grace_s: float = 120.0, limit: int = REVIEW_SWEEP_WINDOW
) -> list[int]:
    """Settled rounds that ended more than ``grace_s`` ago (their own review task has had its
    chance) and lack the current version's review of one seat or more, leaving out those whose
    last failure asks to wait (:class:`~scoring.models.ReviewFailure`); the newest first."""
    moment = now or timezone.now()
    complete = (
        RoundReview.objects.filter(version=rules_review.REVIEW_VERSION)
        .values("round")
        .annotate(seats=Count("seat", distinct=True))
        .filter(seats=len(SEATS))
        .values("round")
    )
    return list(
        Round.objects.filter(
            status=Round.Status.ENDED,
            settlement__isnull=False,
            ended_at__lt=moment - timedelta(seconds=grace_s),
        )
        .exclude(pk__in=complete)
        .exclude(review_failure__next_attempt_at__gt=moment)
        .order_by("-ended_at", "-pk")
        .values_list("pk", flat=True)[:limit]
    )


class RoundNotEnded(ValueError):
    """Only an ended round has a review."""


def _replayed(rnd: Round) -> tuple[list[ReplayStep], list[RoundState], list[Action]]:
    steps = replay_steps(rnd)
    states = [step.state for step in steps]
    actions = [action_from_json(dict(step.action)) for step in steps[1:] if step.action]
    return steps, states, actions


def round_reviews_compute(*, round_id: int) -> dict[int, RoundReview]:
    """The current version's reviews of the four seats of an ended round, computing and storing
    those that are missing (one replay for all); raises :class:`RoundNotEnded` otherwise."""
    rnd = Round.objects.select_related("match").get(pk=round_id)
    if rnd.status != Round.Status.ENDED:
        raise RoundNotEnded(f"round {round_id} has not ended")
    version = rules_review.REVIEW_VERSION
    found = {r.seat: r for r in RoundReview.objects.filter(round=rnd, version=version)}
    missing = [seat for seat in SEATS if seat not in found]
    if not missing:
        return found
    steps, states, actions = _replayed(rnd)
    events = [step.events for step in steps[1:]]
    computed = rules_review.review_steps(states, actions, events, missing)
    for seat, data in computed.items():
        found[seat] = _store(rnd, seat, version, data)
    ReviewFailure.objects.filter(round=rnd).delete()
    return found


def review_failure_record(
    *, round_id: int, error: BaseException, now: datetime | None = None
) -> ReviewFailure:
    """Count a failed review of ``round_id``: the sweep leaves it alone for 1, 2, 4 … minutes
    (≤ a day, :meth:`scoring.models.FailureBackoff.record`)."""
    return ReviewFailure.record(round_id=round_id, error=error, moment=now or timezone.now())


def _store(rnd: Round, seat: int, version: int, data: dict[str, Any]) -> RoundReview:
    """Write one review unless a concurrent writer did (the unique constraint decides)."""
    try:
        with transaction.atomic():
            return RoundReview.objects.create(round=rnd, seat=seat, version=version, data=data)
    except IntegrityError:
        return RoundReview.objects.get(round=rnd, seat=seat, version=version)


def round_review_get(*, rnd: Round, seat: int) -> RoundReview:
    """The stored review of ``seat`` (the current version), computed now if missing."""
    version = rules_review.REVIEW_VERSION
    review = RoundReview.objects.filter(round=rnd, seat=seat, version=version).first()
    if review is not None:
        return review
    return round_reviews_compute(round_id=rnd.pk)[seat]


def _seat_table(state: RoundState, seat: int) -> dict[str, Any]:
    """The table as ``seat`` saw it: its own view (:func:`rules.views.seat_view`, the engine's
    redaction: its hand, the public table, the treasure only once seen), without hints and
    offers (the review says what was offered)."""
    view = seat_view(state, seat, hints=False)
    view.pop("legal_actions", None)
    view.pop("commitment", None)
    return view


def review_page_json(rnd: Round, seat: int) -> dict[str, Any]:
    """What the review page needs: the seat's review and one frame per step of the round as
    that seat saw it (its own hand, the public table, the events redacted for it)."""
    review = round_review_get(rnd=rnd, seat=seat)
    steps = replay_steps(rnd)
    frames = []
    for index, step in enumerate(steps):
        frames.append(
            {
                "index": index,
                "events": [event_for(e, seat) for e in step.events],
                "table": _seat_table(step.state, seat),
            }
        )
    final = steps[-1].state
    result = final.result
    return {
        "round_id": rnd.pk,
        "variant": final.variant.key,
        "dealer": final.dealer,
        "seat": seat,
        "winner": None if result is None else result.winner,
        "discarder": None if result is None else result.discarder,
        "win_by": None if result is None else result.win_by,
        "win_tile": (
            None if result is None or result.win_tile is None else tile_name(result.win_tile)
        ),
        "review": review.data,
        "frames": frames,
    }
