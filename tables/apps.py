from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TablesConfig(AppConfig):
    """Rooms (房间) of a club with their seats, matches and rounds; club events."""

    name = "tables"
    verbose_name = _("牌桌")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tables import receivers  # noqa: F401  (connects the membership signals)
