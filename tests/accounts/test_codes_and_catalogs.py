"""Invite codes (properties) and the English catalog (every message translated)."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from accounts.codes import CODE_ALPHABET, CODE_LENGTH, normalize_code, random_code

CATALOG = Path(__file__).resolve().parents[2] / "config/locale/en/LC_MESSAGES/django.po"


def test_a_random_code_uses_only_unambiguous_characters():
    code = random_code()
    assert len(code) == CODE_LENGTH
    assert set(code) <= set(CODE_ALPHABET)
    assert not set(code) & set("01IOL")


@given(
    code=st.text(alphabet=CODE_ALPHABET, min_size=CODE_LENGTH, max_size=CODE_LENGTH),
    cuts=st.lists(st.integers(min_value=0, max_value=CODE_LENGTH), max_size=3),
    lower=st.booleans(),
)
def test_a_code_survives_the_way_people_type_it(code, cuts, lower):
    typed = code
    for cut in sorted(cuts, reverse=True):
        typed = typed[:cut] + "-" + typed[cut:]
    typed = f"  {typed.lower() if lower else typed} "
    assert normalize_code(typed) == code


def _has_empty_msgstr(entry: str) -> bool:
    """A ``msgstr ""`` (or ``msgstr[n] ""``) line not continued by more quoted lines."""
    lines = entry.splitlines()
    for number, line in enumerate(lines):
        if re.fullmatch(r'msgstr(\[\d\])? ""', line):
            following = lines[number + 1] if number + 1 < len(lines) else ""
            if not following.startswith('"'):
                return True
    return False


def test_every_message_has_an_english_translation():
    text = CATALOG.read_text(encoding="utf-8")
    entries = text.split("\n\n")[1:]  # the first block is the header
    untranslated = [entry for entry in entries if _has_empty_msgstr(entry)]
    assert untranslated == []
    assert "#, fuzzy" not in text
