"""The Celery tasks of scoring: the settlement of an ended round, then its review.

``acks_late``: the broker keeps the message until the task returns, so a worker killed mid-way
leaves it to be redelivered; together with the idempotent services (``settle_round`` finds an
existing settlement and returns it, ``round_reviews_compute`` the stored reviews) a redelivery or
a duplicate changes nothing. The clock's settlement sweep (``services.sweep_unsettled``,
config/clock.py) settles ended rounds whose message was lost altogether, then enqueues the
reviews missing for settled rounds (:func:`enqueue_missing_reviews`); a review asked for before
that is computed when its page or API asks for it (``scoring.reviews.round_review_get``).
"""

from __future__ import annotations

import logging
from datetime import datetime

from celery import shared_task

from scoring import hooks, reviews, services
from tables.models import Round

log = logging.getLogger(__name__)


@shared_task(name="scoring.settle_round", acks_late=True, ignore_result=True)
def settle_round(round_id: int) -> int | None:
    """Settle one ended round; the settlement's id (None if the round did not end). A settled
    round's review is enqueued next."""
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
    """牌谱分析 of the four seats of an ended round, stored once (idempotent); how many exist.
    A review that fails is logged and recorded (:func:`scoring.reviews.review_failure_record`):
    the sweep tries it again later, each time waiting twice as long."""
    try:
        return len(reviews.round_reviews_compute(round_id=round_id))
    except (reviews.RoundNotEnded, Round.DoesNotExist):
        return 0
    except Exception as exc:
        log.exception("the review of round %s failed", round_id)
        reviews.review_failure_record(round_id=round_id, error=exc)
        return 0


def enqueue_missing_reviews(*, now: datetime | None = None) -> list[int]:
    """The sweep's second half: enqueue ``review_round`` for the settled rounds whose reviews are
    missing (:func:`scoring.reviews.unreviewed_rounds`: their message was lost, or they were
    settled before reviews existed). Idempotent: a round whose reviews are stored is never
    enqueued again, and the task itself stores each review once. The rounds enqueued."""
    if not hooks.enqueue_enabled():
        return []
    sent = []
    for round_id in reviews.unreviewed_rounds(now=now):
        try:
            review_round.delay(round_id)
        except Exception:  # the broker is down: the next sweep tries again
            log.exception("could not enqueue the review of round %s", round_id)
            break
        sent.append(round_id)
    return sent
