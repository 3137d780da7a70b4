"""Template helpers: a player's avatar circle and the signed-in player's clubs (home page)."""

from __future__ import annotations

from django import template
from django.db.models import QuerySet
from django.utils.html import format_html
from django.utils.safestring import SafeString

from accounts.admin_site import may_enter_admin
from accounts.models import Membership, User, default_avatar_colour, initials_of
from accounts.selectors import memberships_of_user

register = template.Library()


@register.simple_tag
def avatar(user: User, size: str = "") -> SafeString:
    """A coloured circle with the player's initials; ``size`` is "", "sm" or "lg".

    An SVG whose circle takes the colour as its ``fill`` attribute: a ``style`` attribute would
    be blocked by the Content-Security-Policy (``style-src 'self'``, config/middleware.py), and
    the colour is the player's own choice, so it cannot be a class in the stylesheet."""
    colour = user.avatar_color or default_avatar_colour(user.username)
    css = f"avatar avatar-{size}" if size else "avatar"
    return format_html(
        '<svg class="{}" viewBox="0 0 40 40" role="img" aria-hidden="true"><title>{}</title>'
        '<circle cx="20" cy="20" r="20" fill="{}"/>'
        '<text x="20" y="20" dy=".35em" text-anchor="middle">{}</text></svg>',
        css,
        user.public_name,
        colour,
        initials_of(user.public_name),
    )


@register.simple_tag(name="may_enter_admin")
def may_enter_admin_tag(user: User) -> bool:
    """Whether to show the admin link: staff, or owner/admin of a club."""
    return may_enter_admin(user)


@register.simple_tag
def my_memberships(user: User) -> QuerySet[Membership]:
    """The player's memberships (pending ones included), for the home page."""
    return memberships_of_user(user=user)
