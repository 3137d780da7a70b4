"""Profile fields of the player."""

from __future__ import annotations

import pytest

from accounts.models import AVATAR_PALETTE, default_avatar_colour, initials_of


def test_the_default_avatar_colour_is_stable_and_from_the_palette():
    assert default_avatar_colour("laowang") == default_avatar_colour("laowang")
    assert default_avatar_colour("laowang") in AVATAR_PALETTE


@pytest.mark.parametrize(
    ("name", "initials"),
    [("王小明", "王"), ("li wei", "LW"), ("zhang_san_feng", "ZS"), ("bob", "B"), ("  ", "?")],
)
def test_initials_follow_the_name(name, initials):
    assert initials_of(name) == initials


@pytest.mark.django_db
def test_a_new_player_gets_a_colour_derived_from_the_username(make_user):
    user = make_user("laowang")
    assert user.avatar_color == default_avatar_colour("laowang")


@pytest.mark.django_db
def test_the_public_name_falls_back_to_the_username(make_user):
    assert make_user("laowang").public_name == "laowang"
    assert make_user("xm", display_name="小明").public_name == "小明"
    assert make_user("xm2", display_name="小明").initials == "小"
