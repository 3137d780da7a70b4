from django.apps import AppConfig


class ConfigConfig(AppConfig):
    """Holds project-wide management commands (``demo``) and the message catalogs."""

    name = "config"
    verbose_name = "Queyou"
