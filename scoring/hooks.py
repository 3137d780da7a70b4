"""The hook from the live tables: ``tables.signals.round_finished`` enqueues the settlement.

``tables.game.commands`` sends the signal inside ``transaction.on_commit`` of the transaction that
ended the round, so the task is enqueued only once the ended round is committed (a worker never
looks for a round that is not there yet). If the broker is down the message is lost, and the
clock's settlement sweep (``scoring.services.sweep_unsettled``) settles the round later.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings

log = logging.getLogger(__name__)


def enqueue_enabled() -> bool:
    """``SCORING_ENQUEUE_SETTLEMENT`` (default: on, except under tests, which call the service)."""
    return bool(getattr(settings, "SCORING_ENQUEUE_SETTLEMENT", not settings.TESTING))


def on_round_finished(sender: Any, round: Any, **kwargs: Any) -> None:
    """Enqueue ``scoring.settle_round`` for the round that just ended."""
    if not enqueue_enabled():
        return
    from scoring.tasks import settle_round

    try:
        settle_round.delay(round.pk)
    except Exception:  # the sweeper settles it later
        log.exception("could not enqueue the settlement of round %s", round.pk)
