"""The one retry loop around a transaction (tables and scoring services use it).

On PostgreSQL the writers hold row locks, conflicts cannot happen and the loop runs once. On
SQLite two writers may both read the same version, or find the database busy: the loser sees
``OperationalError`` ("database is locked"), or a conflict its caller names in ``retry_on``, and
the whole decision runs again on fresh rows — what the lock would have done.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TypeVar

from django.db import OperationalError, transaction

MAX_ATTEMPTS = 8
"""Attempts before the last error is raised to the caller."""

T = TypeVar("T")


def with_retries(fn: Callable[[], T], *, retry_on: tuple[type[Exception], ...] = ()) -> T:
    """Run ``fn`` in a transaction; run it again (after a short jittered pause) when it fails
    with ``OperationalError`` or one of ``retry_on``, at most :data:`MAX_ATTEMPTS` times."""
    retriable: tuple[type[Exception], ...] = (OperationalError, *retry_on)
    for attempt in range(MAX_ATTEMPTS):
        try:
            with transaction.atomic():
                return fn()
        except retriable:
            if attempt == MAX_ATTEMPTS - 1:
                raise
            time.sleep(0.005 * (attempt + 1) + random.random() * 0.01)  # jitter, not a secret
    raise AssertionError("unreachable")
