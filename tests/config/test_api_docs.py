"""The browsable API docs work without internet access: Swagger UI comes from our static files."""

from __future__ import annotations

import re

import pytest


@pytest.mark.django_db
def test_the_api_docs_page_loads_swagger_ui_from_our_own_static_files(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    page = response.content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', page)
    swagger = [s for s in sources if "swagger-ui" in s]
    assert swagger, page
    assert all(s.startswith("/static/") for s in swagger), swagger


@pytest.mark.django_db
def test_the_schema_is_served_as_openapi(client):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    assert response.json()["openapi"].startswith("3.")
