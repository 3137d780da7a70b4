"""Project-wide pages: the API docs work offline, and the navigation reaches every section."""

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


@pytest.mark.django_db
def test_the_navigation_leads_a_player_to_history_and_leaderboards(client, django_user_model):
    user = django_user_model.objects.create_user(username="nav", password="x-long-password")
    client.force_login(user)
    page = client.get("/", follow=True).content.decode()
    assert 'href="/scoring/matches/"' in page
    assert 'href="/scoring/leaderboards/"' in page
