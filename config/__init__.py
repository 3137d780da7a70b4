"""Project configuration: settings, URLs, ASGI application, Celery app and the launcher."""

from config.celery import app as celery_app

__all__ = ["celery_app"]
