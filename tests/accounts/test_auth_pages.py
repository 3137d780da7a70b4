"""Sign up, log in/out, passwords, login limiting, and the profile language driving the UI."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db


def test_signing_up_creates_the_player_and_signs_them_in(client):
    response = client.post(
        reverse("accounts:signup"),
        {
            "username": "xiaoming",
            "display_name": "小明",
            "email": "xm@example.com",
            "password1": "a-long-enough-pass-42",
            "password2": "a-long-enough-pass-42",
        },
    )
    assert response.status_code == 302
    assert response.url == reverse("home")
    user = User.objects.get(username="xiaoming")
    assert user.display_name == "小明"
    home = client.get(reverse("home"))
    assert home.status_code == 200
    assert home.context["user"] == user


def test_signing_up_rejects_mismatched_passwords(client):
    response = client.post(
        reverse("accounts:signup"),
        {"username": "x", "password1": "a-long-enough-pass-42", "password2": "other-pass-42"},
    )
    assert response.status_code == 200
    assert not User.objects.filter(username="x").exists()


def test_a_visitor_lands_on_a_page_that_says_what_the_site_is(client):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    page = response.content.decode()
    assert "亲友圈" in page
    assert "长春" in page
    assert "台湾十六张" in page
    for name in ("accounts:signup", "accounts:login", "calculator"):
        assert f'href="{reverse(name)}"' in page


def test_a_player_logs_in_with_the_right_password_and_out_by_post(client, make_user, password):
    user = make_user("laowang")
    response = client.post(reverse("accounts:login"), {"username": "laowang", "password": password})
    assert response.status_code == 302
    assert client.get(reverse("home")).context["user"] == user

    assert client.get(reverse("accounts:logout")).status_code == 405  # logging out needs a POST
    response = client.post(reverse("accounts:logout"))
    assert response.status_code == 302
    assert not client.get(reverse("home")).context["user"].is_authenticated


def test_a_wrong_password_does_not_log_in(client, make_user):
    make_user("laowang")
    response = client.post(reverse("accounts:login"), {"username": "laowang", "password": "nope"})
    assert response.status_code == 200
    assert not response.context["user"].is_authenticated


def test_five_failed_logins_lock_out_even_the_right_password(client, make_user, password):
    make_user("target")
    for _ in range(5):
        client.post(reverse("accounts:login"), {"username": "target", "password": "guess"})
    response = client.post(reverse("accounts:login"), {"username": "target", "password": password})
    assert response.status_code == 429
    assert "accounts/locked_out.html" in [t.name for t in response.templates]
    assert not client.get(reverse("home")).wsgi_request.user.is_authenticated


def test_four_failed_logins_still_let_the_right_password_in(client, make_user, password):
    make_user("target")
    for _ in range(4):
        client.post(reverse("accounts:login"), {"username": "target", "password": "guess"})
    response = client.post(reverse("accounts:login"), {"username": "target", "password": password})
    assert response.status_code == 302


def test_a_player_changes_their_password(client, make_user, password):
    user = make_user()
    client.force_login(user)
    response = client.post(
        reverse("accounts:password_change"),
        {
            "old_password": password,
            "new_password1": "brand-new-pass-777",
            "new_password2": "brand-new-pass-777",
        },
    )
    assert response.url == reverse("accounts:password_change_done")
    user.refresh_from_db()
    assert user.check_password("brand-new-pass-777")


def test_password_reset_mails_a_link_that_sets_a_new_password(client, make_user):
    user = make_user("forgetful", email="f@example.com")
    response = client.post(reverse("accounts:password_reset"), {"email": "f@example.com"})
    assert response.url == reverse("accounts:password_reset_done")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["f@example.com"]
    link = re.search(r"https?://[^/\s]+(/\S+)", str(message.body))
    assert link is not None

    confirm = client.get(link.group(1), follow=True)  # Django swaps the token for a session one
    assert confirm.context["validlink"]
    response = client.post(
        confirm.redirect_chain[-1][0],
        {"new_password1": "reset-pass-20261202", "new_password2": "reset-pass-20261202"},
    )
    assert response.url == reverse("accounts:password_reset_complete")
    user.refresh_from_db()
    assert user.check_password("reset-pass-20261202")


def test_pages_are_in_chinese_by_default(client):
    response = client.get(reverse("accounts:login"))
    assert "忘记密码" in response.content.decode()


def test_the_profile_language_switches_the_interface_to_english(client, make_user):
    user = make_user()
    client.force_login(user)
    response = client.post(
        reverse("accounts:profile"),
        {"display_name": "Lao Wang", "avatar_color": "#2980b9", "language": "en"},
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.language == "en"
    page = client.get(reverse("accounts:profile")).content.decode()
    assert "Profile" in page
    assert "个人资料" not in page


def test_the_profile_language_wins_over_the_browser_language(client, make_user):
    client.force_login(make_user(language="zh-hans"))
    response = client.get(reverse("accounts:profile"), HTTP_ACCEPT_LANGUAGE="en")
    assert response.headers["Content-Language"] == "zh-hans"


def test_a_visitor_gets_the_browser_language(client):
    response = client.get(reverse("accounts:login"), HTTP_ACCEPT_LANGUAGE="en")
    assert response.headers["Content-Language"] == "en"
    assert "Forgot your password?" in response.content.decode()


def test_the_language_switcher_stores_the_choice_on_the_profile(client, make_user):
    user = make_user()
    client.force_login(user)
    response = client.post(reverse("accounts:set_language"), {"language": "en", "next": "/"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.language == "en"


def test_the_language_switcher_works_for_visitors_with_a_cookie(client, settings):
    client.post(reverse("accounts:set_language"), {"language": "en", "next": "/"})
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    assert client.get(reverse("accounts:login")).headers["Content-Language"] == "en"


def test_the_profile_rejects_a_colour_that_is_not_hex(client, make_user):
    user = make_user()
    client.force_login(user)
    response = client.post(
        reverse("accounts:profile"),
        {"display_name": "", "avatar_color": "red", "language": "zh-hans"},
    )
    assert response.status_code == 200
    assert response.context["form"].errors["avatar_color"]


def test_an_invite_link_survives_signing_up(client, make_club):
    """Invite link -> log-in page -> "sign up" -> the join form with the code filled in."""
    club = make_club()
    join = reverse("accounts:club_join") + f"?code={club.invite_code}"
    login_page = client.get(join, follow=True)
    signup_link = re.search(r'href="(/accounts/signup/\?next=[^"]+)"', login_page.content.decode())
    assert signup_link is not None
    signup_url = signup_link.group(1).replace("&amp;", "&")
    response = client.post(
        signup_url,
        {
            "username": "newcomer",
            "password1": "a-long-enough-pass-42",
            "password2": "a-long-enough-pass-42",
        },
    )
    assert response.url == join
    assert client.get(response.url).context["form"].initial["code"] == club.invite_code


def test_sign_up_ignores_a_next_pointing_elsewhere(client):
    response = client.post(
        reverse("accounts:signup") + "?next=https://evil.example/",
        {
            "username": "x1",
            "password1": "a-long-enough-pass-42",
            "password2": "a-long-enough-pass-42",
        },
    )
    assert response.url == reverse("home")


def test_the_site_stays_in_the_players_language_after_logging_out(client, make_user):
    client.force_login(make_user(language="en"))
    client.get(reverse("home"))
    client.post(reverse("accounts:logout"))
    response = client.get(reverse("accounts:login"), HTTP_ACCEPT_LANGUAGE="zh-CN")
    assert response.headers["Content-Language"] == "en"


def test_resetting_the_password_lifts_a_lock_out(client, make_user):
    make_user("locked", email="locked@example.com")
    for _ in range(5):
        client.post(reverse("accounts:login"), {"username": "locked", "password": "guess"})
    client.post(reverse("accounts:password_reset"), {"email": "locked@example.com"})
    path = re.search(r"https?://[^/\s]+(/\S+)", str(mail.outbox[0].body))
    assert path is not None
    confirm = client.get(path.group(1), follow=True)
    client.post(
        confirm.redirect_chain[-1][0],
        {"new_password1": "fresh-pass-20261202", "new_password2": "fresh-pass-20261202"},
    )
    response = client.post(
        reverse("accounts:login"), {"username": "locked", "password": "fresh-pass-20261202"}
    )
    assert response.status_code == 302
