"""Every message of the scoring app has an English translation in ``scoring/locale``."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
CATALOG = ROOT / "scoring/locale/en/LC_MESSAGES/django.po"


def _messages() -> set[str]:
    found: set[str] = set()
    for path in (ROOT / "scoring").rglob("*.py"):
        found |= set(re.findall(r'\b_\(\s*"((?:[^"\\]|\\.)*)"\s*\)', path.read_text()))
    for path in (ROOT / "templates/scoring").glob("*.html"):
        text = path.read_text()
        found |= {m[1] for m in re.findall(r'{%\s*translate\s+(["\'])(.*?)\1\s*%}', text)}
        for body in re.findall(
            r"{%\s*blocktranslate[^%]*%}(.*?){%\s*endblocktranslate\s*%}", text, re.S
        ):
            found.add(re.sub(r"{{\s*(\w+)\s*}}", r"%(\1)s", body))
    return found


def test_every_scoring_message_has_an_english_translation():
    with CATALOG.open("rb") as po:
        catalog = read_po(po)
    translated = {m.id: m.string for m in catalog if m.id}
    missing = sorted(m for m in _messages() if not translated.get(m))
    assert missing == []
    assert len(_messages()) > 100
