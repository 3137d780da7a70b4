from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    """Players, their profiles and their clubs (亲友圈)."""

    name = "accounts"
    verbose_name = _("账户与亲友圈")
    default_auto_field = "django.db.models.BigAutoField"
