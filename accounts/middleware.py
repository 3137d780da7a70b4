"""The interface language follows the signed-in player's profile.

Django's ``LocaleMiddleware`` picks a language from the URL, the language cookie and the browser's
``Accept-Language``; it has no notion of a user. ``UserLanguageMiddleware`` *replaces* it (it is a
subclass, so the ``Vary``/``Content-Language`` handling in ``process_response`` is unchanged): for a
signed-in player it activates ``user.language``; for a visitor it defers to the standard lookup.

It must come after ``AuthenticationMiddleware`` (it reads ``request.user``) and before
``CommonMiddleware`` (as ``LocaleMiddleware`` must). Switching language while signed in goes
through ``accounts:set_language``, which stores the choice on the profile as well as in the
cookie, so the two never disagree.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.middleware.locale import LocaleMiddleware
from django.utils import translation


def user_language(request: HttpRequest) -> str | None:
    """The language of the signed-in player, if they have one the site offers."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return None
    language = getattr(user, "language", "")
    offered = {code for code, _name in settings.LANGUAGES}
    return language if language in offered else None


class UserLanguageMiddleware(LocaleMiddleware):
    """``LocaleMiddleware`` that prefers the signed-in player's profile language."""

    def process_request(self, request: HttpRequest) -> None:
        language = user_language(request)
        if language is None:
            super().process_request(request)
            return
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        """Keep the language cookie equal to the profile, so the site stays in the player's
        language after they log out (on this browser)."""
        response = super().process_response(request, response)
        language = user_language(request)
        if language and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != language:
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                language,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                path=settings.LANGUAGE_COOKIE_PATH,
                domain=settings.LANGUAGE_COOKIE_DOMAIN,
                secure=settings.LANGUAGE_COOKIE_SECURE,
                httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,
            )
        return response
