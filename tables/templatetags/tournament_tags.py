"""The site header's notifications count."""

from __future__ import annotations

from typing import Any

from django import template

from tables.models import Notification

register = template.Library()


@register.simple_tag
def unread_notifications(user: Any) -> int:
    """How many of the user's notifications are unread (0 for a visitor)."""
    if not getattr(user, "is_authenticated", False):
        return 0
    return Notification.objects.filter(user=user, read=False).count()
