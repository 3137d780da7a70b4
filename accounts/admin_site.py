"""The admin site, open to club owners and admins as well as to staff.

Why a site permission rather than setting ``is_staff`` when someone becomes a club admin:
``is_staff`` is a site-wide flag that other code (and people) read as "works for Queyou"; keeping
it in sync with club roles needs signals on every membership change, and would silently strip the
flag from a real staff member who stops administering a club. Deriving admin access from the club
role at request time has neither problem. What a club manager may *see* inside the admin is
decided per model by ``accounts.admin_scoping.ClubScopedAdminMixin``; models without it (users,
groups, axes logs) stay invisible to them because they hold no Django model permissions.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from accounts import membership
from accounts.models import User


def may_enter_admin(user: AbstractBaseUser | AnonymousUser) -> bool:
    """Active staff, or an active owner/admin of at least one club (``accounts.membership``)."""
    if not user.is_active or not user.is_authenticated:
        return False
    if getattr(user, "is_staff", False):
        return True
    return isinstance(user, User) and membership.managed_club_ids(user).exists()


class ClubManagerAuthenticationForm(AdminAuthenticationForm):
    """The admin log-in form, letting club owners and admins in besides staff."""

    def confirm_login_allowed(self, user: AbstractBaseUser) -> None:
        if not may_enter_admin(user):
            raise forms.ValidationError(
                _("只有工作人员或亲友圈的圈主、管理员可以进入管理后台。"), code="invalid_login"
            )


class QueyouAdminSite(admin.AdminSite):
    """Default admin site of the project (installed via ``accounts.apps.QueyouAdminConfig``)."""

    site_header = "雀友 Queyou"
    site_title = "雀友 Queyou"
    login_form = ClubManagerAuthenticationForm

    def has_permission(self, request: HttpRequest) -> bool:
        return may_enter_admin(request.user)
