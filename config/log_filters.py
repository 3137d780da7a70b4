"""Logging filters of the project's console handler (``LOGGING`` in config/settings.py)."""

from __future__ import annotations

import logging


class ClientErrorOnOneLine(logging.Filter):
    """A client's error (a 4xx) is one line: what was refused, the path and the reason.

    Django 5 logs a ``PermissionDenied`` (403, ``django.request``) and a ``SuspiciousOperation``
    (400, ``django.security.*``) with the exception as ``exc_info``: under ``DEBUG=0`` every
    refused request printed a full traceback, of Django's own code, for what is no bug. The
    traceback is dropped and the exception's text ends the line instead. A server
    error (5xx) and any record without a status keep their traceback.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if not isinstance(status, int) or status >= 500 or not record.exc_info:
            return True
        error = record.exc_info[1]
        message = record.getMessage()
        reason = printable(str(error)) if error is not None else ""
        if reason and reason not in message:
            message = f"{message}: {reason}"
        record.msg, record.args = message, None
        record.exc_info, record.exc_text = None, None
        return True


def printable(text: str) -> str:
    """``text`` on one line: control and format characters escaped (a reason may quote what the
    client sent, e.g. a bad ``Host`` header, which must not forge log lines)."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)
