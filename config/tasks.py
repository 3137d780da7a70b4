"""Celery tasks of the project itself."""

from __future__ import annotations

from celery import shared_task

from config import heartbeat


@shared_task(name="config.worker_heartbeat", ignore_result=True)
def worker_heartbeat() -> None:
    """The clock's ping: the worker is consuming (``/healthz``, the launcher's watchdog)."""
    heartbeat.beat(heartbeat.WORKER)
