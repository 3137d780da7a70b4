"""The Celery task of the settlement: one per ended round.

``acks_late``: the broker keeps the message until the task returns, so a worker killed mid-way
leaves it to be redelivered; together with the idempotent service (``settle_round`` finds an
existing settlement and returns it) a redelivery or a duplicate changes nothing. The clock's
settlement sweep (``services.sweep_unsettled``, config/clock.py) settles ended rounds whose
message was lost altogether.
"""

from __future__ import annotations

from celery import shared_task

from scoring import services


@shared_task(name="scoring.settle_round", acks_late=True, ignore_result=True)
def settle_round(round_id: int) -> int | None:
    """Settle one ended round; the settlement's id (None if the round did not end)."""
    settlement = services.settle_round_recording(round_id)
    return None if settlement is None else settlement.pk
