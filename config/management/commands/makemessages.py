"""``manage.py makemessages`` that also finds the rules' marks.

``rules/`` (no Django) marks the words players read with ``N_(context, text)``
(:mod:`rules.i18n`, like ``pgettext_noop``); this command adds that keyword to xgettext, so the
marks land in the project catalogs (``config/locale``) beside every other message, and the web
layer translates them with ``pgettext`` (:mod:`tables.labels`).
"""

from __future__ import annotations

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [  # noqa: RUF012  (Django's own attribute, read per instance)
        *makemessages.Command.xgettext_options,
        "--keyword=N_:1c,2",
    ]
