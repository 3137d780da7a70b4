"""A club admin opens a Taiwan 16 room: 每台 (``tai_value``) belongs to that variant only."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tables.models import Room
from tests.admin.test_rooms_admin import room_post

pytestmark = pytest.mark.django_db


def test_a_taiwan_room_stores_its_tai_value_and_defaults(manager_client, world):
    response = manager_client.post(
        reverse("admin:tables_room_add"),
        room_post(world["a"], variant="taiwan16", opt_tai_value="3", opt_hints="on"),
    )
    assert response.status_code == 302
    room = Room.objects.get(name="新桌")
    assert room.options["tai_value"] == 3
    assert room.options["base"] == 2
    assert room.options["cap"] is None
    assert room.options["hints"] is True


def test_tai_value_is_refused_for_another_variant(manager_client, world):
    response = manager_client.post(
        reverse("admin:tables_room_add"), room_post(world["a"], opt_tai_value="3")
    )
    assert response.status_code == 200
    assert "opt_tai_value" in response.context["adminform"].form.errors
    assert not Room.objects.filter(name="新桌").exists()
