"""The Room model: options checked against the variant, invite codes, stake."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError

from tables.models import Room, Variant
from tables.room_options import room_options_validate

pytestmark = pytest.mark.django_db


def test_every_variant_fills_in_its_default_options():
    for variant in Variant.values:
        options = room_options_validate(variant=variant, options={}, base_stake=1)
        assert isinstance(options, dict)


def test_clean_merges_the_options_with_the_variants_defaults(make_club):
    room = Room(club=make_club(), name="桌", variant="changchun", options={})
    room.full_clean()
    assert room.options == room_options_validate(variant="changchun", options={}, base_stake=1)


def test_options_that_are_not_an_object_are_refused(make_club):
    room = Room(club=make_club(), name="桌", variant="harbin", options=[1, 2])
    with pytest.raises(ValidationError) as error:
        room.full_clean()
    assert "options" in error.value.message_dict


def test_an_option_of_the_wrong_type_is_refused(make_club):
    room = Room(club=make_club(), name="桌", variant="siping", options={"base": "lots"})
    with pytest.raises(ValidationError) as error:
        room.full_clean()
    assert "options" in error.value.message_dict


def test_rooms_get_distinct_invite_codes(make_club):
    club = make_club()
    codes = {
        Room.objects.create(club=club, name=str(i), variant="harbin").invite_code for i in range(5)
    }
    assert len(codes) == 5


def test_the_stake_is_at_least_one(make_club):
    room = Room(club=make_club(), name="桌", variant="taiyuan_lisi", base_stake=0)
    with pytest.raises(ValidationError):
        room.full_clean()
    with pytest.raises(IntegrityError):
        room.save()


def test_a_club_lists_its_rooms(make_club):
    club = make_club()
    room = Room.objects.create(club=club, name="桌", variant="changchun")
    assert list(club.rooms.all()) == [room]
