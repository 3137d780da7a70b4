"""``manage.py clock``: the game clock (config/clock.py); SIGTERM or Ctrl-C stops it."""

from __future__ import annotations

import signal
import threading
from typing import Any

from django.core.management.base import BaseCommand

from config.clock import clock_run


class Command(BaseCommand):
    help = "Run the clock: deadlines, next rounds, presence and lost settlements."

    def handle(self, *args: Any, **options: Any) -> None:
        stop = threading.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: stop.set())
        clock_run(stop)
