from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    """Ledgers, history and leaderboards; empty until matches are played."""

    name = "scoring"
    verbose_name = _("积分")
    default_auto_field = "django.db.models.BigAutoField"
