"""Scoring: settlement ledgers, match history, replays and leaderboards."""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    """Ledgers, history, replays and leaderboards."""

    name = "scoring"
    verbose_name = _("积分")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from scoring.hooks import on_round_finished
        from tables.signals import round_finished

        round_finished.connect(on_round_finished, dispatch_uid="scoring.settle_on_round_finished")
