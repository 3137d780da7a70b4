"""Tasks a real Celery worker of the tests runs (``--include tests.config.worker_tasks``)."""

from __future__ import annotations

import os

from celery import shared_task

from config.redis_client import redis_client


@shared_task(name="tests.worker_mark", ignore_result=True)
def worker_mark(key: str) -> None:
    """Leave the worker's pid under ``key``: the worker consumes, and which process it is."""
    redis_client().set(key, str(os.getppid()), ex=600)


@shared_task(name="tests.worker_noop", ignore_result=True)
def worker_noop() -> None:
    """Held by the worker until its ``countdown``: delivered, not yet acknowledged."""
