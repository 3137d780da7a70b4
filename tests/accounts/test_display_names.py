"""Display names: hidden or reordering characters, the bot mark and bots'
names, and another member's name are refused by one check (``accounts.display_names``) on every
path that sets a name — the sign-up page, the profile page, ``PATCH /api/me/``, the admin's user
form, and joining a club."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from accounts import services
from accounts.display_names import (
    display_name_validate,
    hidden_character,
    name_key,
    reads_as_a_bot,
)
from accounts.errors import NameTakenInClub
from accounts.models import Club, Membership, User
from tables.bot_names import bot_name
from tables.models import BotLevel

pytestmark = pytest.mark.django_db

RTL_OVERRIDE = "\u202e"
ZERO_WIDTH_SPACE = "\u200b"
HIDDEN = [
    f"abc{RTL_OVERRIDE}gnp.exe",  # right-to-left override (Cf)
    f"Ali{ZERO_WIDTH_SPACE}ce",  # zero-width space (Cf)
    "Ali\u200dce",  # zero-width joiner (Cf)
    "\u2066小林\u2069",  # left-to-right isolate … pop directional isolate (Cf)
    "小\u200e林",  # left-to-right mark (Cf)
    "a\u00adb",  # soft hyphen (Cf)
    "\ufeff小林",  # byte-order mark (Cf)
    "a\x00b",  # NUL (Cc)
    "a\nb",  # newline (Cc)
    "a\x1b[31mb",  # an escape sequence (Cc)
    "a\u2028b",  # line separator (Zl)
    "a\u00a0b",  # no-break space (Zs other than the plain and ideographic spaces)
    "\u3164",  # Hangul filler: an invisible letter
    "\u2800",  # braille blank
    "a\ue000b",  # private use (Co)
    "\u0301abc",  # starts with a combining mark
    "Z\u0301\u0302\u0303\u0304",  # four stacked marks
    "a\U000e0041b",  # tag character (Cf)
]
FINE = ["小林", "Li Wei", "阿梅 2", "Nguyễn", "老　赵", "❤️小王", "Zoë", "O'Brien"]
BOTTISH = ["🤖", "小林🤖", "机器人", "机器人 1", "机器人·简单 1", "Bot · Easy 1", "BOT 2", "bot"]


def test_hidden_and_reordering_characters_are_found():
    for name in HIDDEN:
        assert hidden_character(name) is not None, repr(name)
    for name in FINE:
        assert hidden_character(name) is None, name


def test_the_bot_mark_and_every_bots_name_read_as_a_bot():
    for name in BOTTISH:
        assert reads_as_a_bot(name), name
    for name in [*FINE, "Bottle", "robot fan", "小机器人迷"]:
        assert not reads_as_a_bot(name), name


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_no_player_may_take_a_name_the_product_gives_a_bot(language):
    with translation.override(language):
        names = [bot_name(number=n, level=level) for n in (1, 2, 3) for level in BotLevel.values]
        names += [bot_name(number=n) for n in (1, 2, 3)]
    for name in names:
        assert reads_as_a_bot(name), name


def test_names_compare_without_case_and_width():
    assert name_key("Ａｌｉｃｅ") == name_key("alice") == name_key("ALICE")
    assert name_key("老　赵") == name_key("老 赵")
    assert name_key("Straße") == name_key("STRASSE")
    assert name_key("❤️小王") == name_key("❤小王")
    assert name_key("小林") != name_key("小琳")


@pytest.fixture
def clubmates(make_user, make_club) -> dict[str, Any]:
    """``me`` and ``alice`` share a club; ``outsider`` is in another club."""
    me, alice = make_user("me"), make_user("alice_u", display_name="Alice")
    outsider = make_user("out_u", display_name="Bob")
    club = make_club(owner=me, members=(alice,))
    make_club(owner=outsider)
    return {"me": me, "alice": alice, "outsider": outsider, "club": club}


def test_another_members_name_is_refused_in_any_spelling(clubmates, make_user):
    me = clubmates["me"]
    Membership.objects.create(club=clubmates["club"], user=make_user("carl"))  # no display name
    for taken in ("Alice", "alice", "ＡＬＩＣＥ", " Alice "):
        with pytest.raises(ValidationError) as refused:
            display_name_validate(user=me, name=taken)
        assert refused.value.code == "name_taken"
    assert display_name_validate(user=me, name="Bob") == "Bob"  # not a clubmate
    # A player keeps their own name, and a username shown for want of a name counts too.
    assert display_name_validate(user=clubmates["alice"], name="Alice") == "Alice"
    with pytest.raises(ValidationError):
        display_name_validate(user=me, name="CARL")


def test_an_applicants_name_counts_too(clubmates, make_user):
    club = clubmates["club"]
    club.join_policy = Club.JoinPolicy.APPROVAL
    club.save()
    applicant = make_user("applicant", display_name="Carol")
    services.club_join_by_code(user=applicant, code=club.invite_code)
    with pytest.raises(ValidationError):
        display_name_validate(user=clubmates["me"], name="carol")


# --- every path ------------------------------------------------------------------------------


def _signup(client: Any, display_name: str, username: str = "newbie") -> Any:
    return client.post(
        reverse("accounts:signup"),
        {
            "username": username,
            "display_name": display_name,
            "email": "",
            "password1": "a-long-enough-pass-42",
            "password2": "a-long-enough-pass-42",
        },
    )


@pytest.mark.parametrize("name", [HIDDEN[0], HIDDEN[1], "🤖", "机器人·简单 1", "Bot · Easy 2"])
def test_the_signup_page_refuses(client, name):
    response = _signup(client, name)
    assert response.status_code == 200
    assert response.context["form"].errors["display_name"]
    assert not User.objects.filter(username="newbie").exists()


def test_the_signup_page_refuses_a_bot_shaped_username_without_a_name(client):
    response = _signup(client, "", username="bot3")
    assert response.status_code == 200
    assert response.context["form"].non_field_errors()
    assert not User.objects.filter(username="bot3").exists()
    assert _signup(client, "小新", username="bot3").status_code == 302  # a name of their own


def _profile(client: Any, display_name: str) -> Any:
    return client.post(
        reverse("accounts:profile"),
        {"display_name": display_name, "avatar_color": "#2980b9", "language": "zh-hans"},
    )


@pytest.mark.parametrize("name", [HIDDEN[0], HIDDEN[2], "🤖", "机器人 2", "Alice", "ａｌｉｃｅ"])
def test_the_profile_page_refuses(client, clubmates, name):
    client.force_login(clubmates["me"])
    response = _profile(client, name)
    assert response.status_code == 200
    assert response.context["form"].errors["display_name"]
    clubmates["me"].refresh_from_db()
    assert clubmates["me"].display_name == ""


def test_the_profile_page_accepts_a_fine_name_and_trims_it(client, clubmates):
    client.force_login(clubmates["me"])
    assert _profile(client, "  Bob  ").status_code == 302
    clubmates["me"].refresh_from_db()
    assert clubmates["me"].display_name == "Bob"


@pytest.mark.parametrize("name", [HIDDEN[0], HIDDEN[1], "🤖", "机器人·困难 3", "ALICE"])
def test_the_api_refuses(client, clubmates, name):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(clubmates["me"])
    response = api.patch("/api/me/", {"display_name": name}, format="json")
    assert response.status_code == 400
    assert "display_name" in response.json()
    clubmates["me"].refresh_from_db()
    assert clubmates["me"].display_name == ""
    assert api.patch("/api/me/", {"display_name": "Bob"}, format="json").status_code == 200


@pytest.mark.parametrize("name", [HIDDEN[0], "🤖", "机器人·普通 1", "Alice"])
def test_the_admin_user_form_refuses(client, clubmates, make_user, name):
    staff = make_user("root", is_staff=True, is_superuser=True)
    client.force_login(staff)
    me = clubmates["me"]
    url = reverse("admin:accounts_user_change", args=(me.pk,))
    form = client.get(url).context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None and k != "password"}
    data.update(
        display_name=name,
        date_joined_0=me.date_joined.strftime("%Y-%m-%d"),
        date_joined_1=me.date_joined.strftime("%H:%M:%S"),
        groups=[],
        user_permissions=[],
    )
    data.pop("date_joined", None)
    data.pop("last_login", None)
    response = client.post(url, data)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["display_name"]
    me.refresh_from_db()
    assert me.display_name == ""


def test_joining_a_club_where_the_name_is_taken_is_refused(clubmates, make_user, client):
    club = clubmates["club"]
    twin = make_user("twin", display_name="ALICE")
    with pytest.raises(NameTakenInClub):
        services.club_join_by_code(user=twin, code=club.invite_code)
    assert not Membership.objects.filter(club=club, user=twin).exists()

    client.force_login(twin)
    page = client.post(reverse("accounts:club_join"), {"code": club.invite_code})
    assert page.status_code == 200
    assert page.context["form"].errors["code"]

    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(twin)
    answer = api.post("/api/clubs/join/", {"code": club.invite_code}, format="json")
    assert answer.status_code == 409
    assert answer.json()["code"] == "name_taken"
    assert not Membership.objects.filter(club=club, user=twin).exists()


def test_the_migration_clears_the_names_now_refused(make_user):
    import importlib

    from django.apps import apps

    bad = [make_user(display_name=name) for name in ("🤖", f"a{RTL_OVERRIDE}b", "机器人·简单 1")]
    good = make_user(display_name="小林")
    migration = importlib.import_module("accounts.migrations.0002_clear_refused_display_names")
    migration.clear_refused_names(apps, None)
    assert [User.objects.get(pk=u.pk).display_name for u in bad] == ["", "", ""]
    assert User.objects.get(pk=good.pk).display_name == "小林"
