"""The ledgers in the admin are read-only, even for a superuser."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import services

pytestmark = pytest.mark.django_db


def test_the_settlement_admin_shows_but_never_edits(client, make_user, make_match, make_round):
    settlement = services.settle_round(make_round(make_match(), 1, seed_text="admin").pk)
    admin = make_user("root", is_staff=True, is_superuser=True)
    client.force_login(admin)
    changelist = client.get(reverse("admin:scoring_roundsettlement_changelist"))
    assert changelist.status_code == 200
    page = client.get(reverse("admin:scoring_roundsettlement_change", args=[settlement.pk]))
    assert page.status_code == 200
    assert b'name="_save"' not in page.content
    assert client.get(reverse("admin:scoring_roundsettlement_add")).status_code == 403
    delete = reverse("admin:scoring_roundsettlement_delete", args=[settlement.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    settlement.refresh_from_db()
