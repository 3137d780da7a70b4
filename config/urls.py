"""Top-level URLs. Each app owns its own ``urls.py``; the API lives under ``/api/``."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config import views
from tables.calculator import calculator_page

admin.site.site_header = "雀友 Queyou"
admin.site.site_title = "雀友 Queyou"

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("calculator/", calculator_page, name="calculator"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("accounts/", include("accounts.urls")),
    path("tables/", include("tables.urls")),
    path("scoring/", include("scoring.urls")),
    path("tournaments/", include("tables.tournaments.urls")),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/", include("config.api_urls")),
]
