"""Scoring: settlement ledgers, match history, replays and leaderboards."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

LOCALE_DIR = Path(__file__).resolve().parent / "locale"


def compile_catalogs(locale_dir: Path = LOCALE_DIR) -> None:
    """Compile this app's ``.po`` catalogs to ``.mo`` when stale (pure Python, via Babel).

    ``.mo`` files are not committed, and the launcher only compiles ``config/locale``; the app's
    own English labels (fan items, page texts) live in ``scoring/locale`` so that this app does not
    edit the shared catalog. Written to a temporary file and renamed, so parallel test workers
    never read half a file.
    """
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po_path in locale_dir.glob("*/LC_MESSAGES/*.po"):
        mo_path = po_path.with_suffix(".mo")
        if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        with po_path.open("rb") as po_file:
            catalog = read_po(po_file)
        fd, tmp = tempfile.mkstemp(dir=po_path.parent, suffix=".mo.tmp")
        with os.fdopen(fd, "wb") as mo_file:
            write_mo(mo_file, catalog)
        os.replace(tmp, mo_path)


class ScoringConfig(AppConfig):
    """Ledgers, history, replays and leaderboards."""

    name = "scoring"
    verbose_name = _("积分")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from scoring.hooks import on_round_finished
        from tables.signals import round_finished

        round_finished.connect(on_round_finished, dispatch_uid="scoring.settle_on_round_finished")
        # A read-only install: the catalogs were compiled at build time.
        with contextlib.suppress(OSError):
            compile_catalogs()
