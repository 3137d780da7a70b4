"""The ``demo`` management command."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from accounts.models import Club, Membership, User
from tables.models import Room, Variant

pytestmark = pytest.mark.django_db


def run_demo() -> str:
    out = StringIO()
    call_command("demo", stdout=out)
    return out.getvalue()


def test_demo_creates_four_players_a_club_and_a_room_per_variant():
    output = run_demo()
    players = User.objects.filter(username__in=["demo1", "demo2", "demo3", "demo4"])
    assert players.count() == 4
    assert all(p.check_password("mahjong-demo") for p in players)
    club = Club.objects.get()
    assert club.owner.username == "demo1"
    assert Membership.objects.filter(club=club, status="active").count() == 4
    assert sorted(Room.objects.filter(club=club).values_list("variant", flat=True)) == sorted(
        Variant.values
    )
    assert "mahjong-demo" in output
    assert club.invite_code in output


def test_demo_is_idempotent():
    run_demo()
    counts = (
        User.objects.count(),
        Club.objects.count(),
        Membership.objects.count(),
        Room.objects.count(),
    )
    output = run_demo()
    assert (
        User.objects.count(),
        Club.objects.count(),
        Membership.objects.count(),
        Room.objects.count(),
    ) == counts
    assert "created" not in output


def test_demo_restores_a_changed_demo_password():
    run_demo()
    user = User.objects.get(username="demo2")
    user.set_password("something-else-1")
    user.save()
    run_demo()
    user.refresh_from_db()
    assert user.check_password("mahjong-demo")
