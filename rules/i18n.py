"""Words players read, marked for translation without translating them here.

``rules/`` imports nothing from Django, so it never translates: it marks its texts with
:func:`N_` (like gettext's ``pgettext_noop``), keeps them as :class:`Msg` values, and the web
layer translates them with Django's catalogs (``pgettext(msg.context, msg.text)``). The source
language is Chinese, as everywhere in Queyou; the English is in ``config/locale/en``.

The *context* tells apart equal Chinese texts that read differently in English: 平胡 is a basic
win in Changchun ("Basic win") but the all-chows item in Taiwan 16 ("All chows"). Label texts of
a variant use its key as the context; shared texts use what they are (``tile``, ``win by``,
``option``, ``reason``, ``variant``). ``makemessages`` finds every mark through the keyword
``N_:1c,2`` (``config/management/commands/makemessages.py``); the context and the text must
therefore be string literals in the call.

>>> N_("tile", "东")
Msg(context='tile', text='东')
>>> str(Label(N_("changchun", "平胡"), N_("changchun", "每次胡牌都有，1 番。")))
'平胡'
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Msg:
    """A text marked for translation: ``context`` and the Chinese ``text`` (the msgid)."""

    context: str
    text: str

    def __str__(self) -> str:
        return self.text


def N_(context: str, text: str) -> Msg:
    """Mark ``text`` for translation in ``context``; nothing is translated here."""
    return Msg(context, text)


@dataclass(frozen=True, slots=True)
class Label:
    """A key's short ``name`` and its ``rule`` text (condensed from the spec page, which stays the
    authority): what the calculator, the table and the ledgers show for a fan item, a refused
    win's reason, a room option or a variant."""

    name: Msg
    rule: Msg

    def __str__(self) -> str:
        return self.name.text
