"""``manage.py rating_recompute [--club ID] [--variant KEY]``: rebuild the ratings from the ledger.

The rating is "recomputed from the ledger by a management command". Every club and
variant with settled rounds (or only the given club and/or variant) is rebuilt from its
settlements in the order the rounds ended (``scoring.ratings.ratings_rebuild``), replacing its
``RatingState`` and ``RatingHistory`` rows; safe to run while the site runs (each club and variant
is rebuilt under the lock the incremental updates take).
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring import ratings
from tables.models import Variant


class Command(BaseCommand):
    help = "Recompute the ratings (OpenSkill, per club and variant) from the settled rounds."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--club", type=int, help="only this club (id)")
        parser.add_argument("--variant", help="only this variant (key, e.g. changchun)")

    def handle(self, *args: Any, **options: Any) -> None:
        variant = options.get("variant")
        if variant is not None and variant not in Variant.values:
            raise CommandError(f"unknown variant {variant!r}: one of {', '.join(Variant.values)}")
        started = time.perf_counter()
        rounds = ratings.ratings_recompute(club_id=options.get("club"), variant=variant)
        self.stdout.write(f"rated {rounds} rounds in {time.perf_counter() - started:.1f}s")
