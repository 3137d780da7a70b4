"""The Celery tasks of scoring: the settlement of an ended round, then its review.

``acks_late``: the broker keeps the message until the task returns, so a worker killed mid-way
leaves it to be redelivered; together with the idempotent services (``settle_round`` finds an
existing settlement and returns it, ``round_reviews_compute`` the stored reviews) a redelivery or
a duplicate changes nothing. The clock's settlement sweep (``services.sweep_unsettled``,
config/clock.py) settles ended rounds whose message was lost altogether; a review whose message
was lost is computed when its page or API asks for it (``scoring.reviews.round_review_get``).
"""

from __future__ import annotations

import logging

from celery import shared_task

from scoring import hooks, reviews, services
from tables.models import Round

log = logging.getLogger(__name__)


@shared_task(name="scoring.settle_round", acks_late=True, ignore_result=True)
def settle_round(round_id: int) -> int | None:
    """Settle one ended round; the settlement's id (None if the round did not end). A settled
    round's review is enqueued next (issue 26)."""
    settlement = services.settle_round_recording(round_id)
    if settlement is None:
        return None
    if hooks.enqueue_enabled():
        try:
            review_round.delay(round_id)
        except Exception:  # computed on demand when asked for
            log.exception("could not enqueue the review of round %s", round_id)
    return settlement.pk


@shared_task(name="scoring.review_round", acks_late=True, ignore_result=True)
def review_round(round_id: int) -> int:
    """牌谱分析 of the four seats of an ended round, stored once (idempotent); how many exist."""
    try:
        return len(reviews.round_reviews_compute(round_id=round_id))
    except (reviews.RoundNotEnded, Round.DoesNotExist):
        return 0
