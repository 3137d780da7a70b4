"""Display names (昵称): the one check every path that sets a player's name goes through.

The sign-up and profile pages and the admin's user form (``User.clean``, which Django's model
forms call), the API's ``PATCH /api/me/`` (``ProfileSerializer.validate_display_name``), the demo
command, and joining a club (``accounts.services.club_join_by_code``: the newcomer's name must
not be a member's already) all call :func:`display_name_validate` or :func:`name_taken_in_club`.
A name is shown to other players at the table, in the history, on the charts and in the
leaderboard, so it is refused when it:

* **hides or reorders text**: any character of the Unicode categories ``Cc`` (controls: NUL,
  tab, newline, escape …), ``Cf`` (format: the bidirectional embeddings, overrides and isolates
  U+202A–202E and U+2066–2069, the marks LRM/RLM/ALM, zero-width space/joiner/non-joiner
  U+200B–200D, word joiner U+2060, soft hyphen, BOM U+FEFF, the tag characters …), ``Zl`` and
  ``Zp`` (line and paragraph separators), ``Cs`` (lone surrogates), ``Co`` (private use: no
  agreed glyph) and ``Cn`` (unassigned); spaces other than the ordinary U+0020 and the
  ideographic U+3000 (no-break, thin, hair, em spaces … make two names look alike); the
  invisible letters and marks that no category gives away (:data:`INVISIBLE`: Hangul fillers,
  braille blank, the combining grapheme joiner, variation selectors other than the emoji ones);
  a name that starts with a combining mark (it would attach to the text before it), or more than
  :data:`MAX_MARKS_IN_A_ROW` combining marks in a row (stacked marks paint over the next line);
* **carries the bot mark** 🤖 (the product marks bot seats with it) or **reads as a bot's name**
  (``机器人·简单 1``, ``Bot · Easy 1``, ``机器人 2``: the names ``tables.bot_names`` gives bots);
* **is another member's name** in a club the player belongs to (pending requests included),
  compared by :func:`name_key`. What is compared is the *public* name (``User.public_name``: the
  display name, or the username when none is set), since that is what other players read.

Limits: confusable letters of different scripts (Cyrillic "а" and Latin "a", Unicode TR 39) are
not folded, and two players choosing one name at the same instant are not serialised (there is
no cross-table constraint); the join check catches the clash when either joins another club.
"""

from __future__ import annotations

import re
import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from accounts.models import Membership, User

BOT_MARK = "🤖"
"""The mark of a bot seat in the product (tables, history, admin)."""

HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
ALLOWED_SPACES = frozenset({" ", "\u3000"})
EMOJI_SELECTORS = frozenset({"\ufe0e", "\ufe0f"})  # text / emoji presentation: harmless
INVISIBLE = frozenset(
    {
        "\u034f",  # combining grapheme joiner
        "\u115f",  # Hangul choseong filler
        "\u1160",  # Hangul jungseong filler
        "\u17b4",  # Khmer vowel inherent aq
        "\u17b5",  # Khmer vowel inherent aa
        "\u180b",  # Mongolian free variation selectors one to four (U+180E is Cf)
        "\u180c",
        "\u180d",
        "\u180f",
        "\u2800",  # braille pattern blank
        "\u3164",  # Hangul filler
        "\uffa0",  # halfwidth Hangul filler
        *(chr(c) for c in range(0xFE00, 0xFE0E)),  # variation selectors 1–14
        *(chr(c) for c in range(0xE0100, 0xE01F0)),  # variation selectors 17–256
    }
)
MAX_MARKS_IN_A_ROW = 3
"""Vietnamese stacks two marks on a letter, Thai up to three; more is "Zalgo" text."""

_BOT_WORDS = "简单|普通|困难|easy|normal|hard|basic"
_BOT_SHAPED = re.compile(rf"(?:机器人|bot)[\s·・.•:-]*(?:(?:{_BOT_WORDS})[\s·・.•:-]*)?\d*")
"""The shape of a bot's name after :func:`name_key` (``tables.bot_names``: 机器人·简单 1)."""


def name_key(name: str) -> str:
    """The form two names are compared in: NFKC, case-folded, NFKC again, without the emoji
    presentation selectors, blanks collapsed.

    Why: names are *read* by people at a table, so names that look the same must count as the
    same. NFKC folds the compatibility variants that render alike — full-width letters
    (``Ａｌｉｃｅ``), half-width katakana, the ideographic space, ligatures (``ﬁ``), circled and
    superscript digits (``①``, ``²``); case folding makes ``Alice`` and ``alice`` (and ``ß`` and
    ``ss``) one name, because a seat label or a chart legend does not tell players which of two
    spellings is whose; the second NFKC re-composes what case folding decomposed.
    """
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    folded = "".join(ch for ch in folded if ch not in EMOJI_SELECTORS)
    return " ".join(folded.split())


def hidden_character(name: str) -> str | None:
    """The first character of ``name`` that hides or reorders text (see the module), or None."""
    marks = 0
    for index, ch in enumerate(name):
        category = unicodedata.category(ch)
        if category in {"Mn", "Me"} and ch not in EMOJI_SELECTORS:
            marks += 1
            if index == 0 or marks > MAX_MARKS_IN_A_ROW:
                return ch
        else:
            marks = 0
        if category in HIDDEN_CATEGORIES or ch in INVISIBLE:
            return ch
        if category == "Zs" and ch not in ALLOWED_SPACES:
            return ch
    return None


def reads_as_a_bot(name: str) -> bool:
    """The bot mark anywhere, or a name shaped like a bot's (``机器人·简单 1``, ``Bot 2``)."""
    key = name_key(name)
    return BOT_MARK in key or _BOT_SHAPED.fullmatch(key) is not None


def _names_around(user: User) -> dict[str, str]:
    """The public names of the other players in every club ``user`` belongs to (pending
    requests on either side included), by :func:`name_key`. Clubs are circles of friends (tens
    of players), so they are read and folded here: the database cannot apply NFKC."""
    clubs = Membership.objects.filter(user_id=user.pk).values("club")
    others = (
        User.objects.filter(memberships__club__in=clubs)
        .exclude(pk=user.pk)
        .distinct()
        .values_list("display_name", "username")
    )
    return {name_key(display or username): display or username for display, username in others}


def name_taken_in_club(*, user: User, club_id: int) -> bool:
    """Whether ``user``'s public name is, by :func:`name_key`, that of another player of the club
    (a member or an applicant): joining it would put two players of one name at its tables."""
    key = name_key(user.public_name)
    others = (
        User.objects.filter(memberships__club_id=club_id)
        .exclude(pk=user.pk)
        .values_list("display_name", "username")
    )
    return any(name_key(display or username) == key for display, username in others)


def display_name_validate(*, user: User, name: str) -> str:
    """``name`` as it will be stored (blanks at the ends removed), or a ``ValidationError``
    (codes ``hidden_characters``, ``bot_name``, ``name_taken``) whose message is for the player.

    ``user`` is the player whose name it will be (unsaved for a sign-up). An empty name is
    allowed (the username is shown instead), but the username is then checked as the public
    name, since it is what others will read.
    """
    cleaned = name.strip()
    public = cleaned or user.username
    if hidden_character(public) is not None:
        raise ValidationError(
            _("昵称不能包含控制字符、零宽字符或改变文字方向的字符。"), code="hidden_characters"
        )
    if reads_as_a_bot(public):
        raise ValidationError(_("昵称不能使用机器人标记（🤖）或机器人的名字。"), code="bot_name")
    if user.pk is not None and name_key(public) in _names_around(user):
        raise ValidationError(
            _("你所在的亲友圈里已经有人叫这个名字了（不区分大小写和全角半角），请换一个。"),
            code="name_taken",
        )
    return cleaned
