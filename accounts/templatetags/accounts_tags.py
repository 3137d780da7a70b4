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
    """A coloured circle with the player's initials; ``size`` is "", "sm" or "lg"."""
    colour = user.avatar_color or default_avatar_colour(user.username)
    css = f"avatar avatar-{size}" if size else "avatar"
    return format_html(
        '<span class="{}" style="background:{}" title="{}" aria-hidden="true">{}</span>',
        css,
        colour,
        user.public_name,
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
