"""App config installing ``accounts.admin_site.QueyouAdminSite`` as ``django.contrib.admin.site``.

Kept apart from ``accounts.apps`` so that module holds a single AppConfig (Django picks it
automatically) and so that nothing here imports models before the app registry is ready.
"""

from django.contrib.admin.apps import AdminConfig


class QueyouAdminConfig(AdminConfig):
    """``django.contrib.admin`` with our site as ``admin.site`` (club managers may enter it)."""

    default_site = "accounts.admin_site.QueyouAdminSite"
