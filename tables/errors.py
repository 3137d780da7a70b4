"""The refusals of the live tables' services."""

from __future__ import annotations


class TableError(Exception):
    """A refused table operation; ``code`` is the machine-readable reason sent to the client."""

    code = "table_error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


class VersionConflict(Exception):
    """The round moved on between our read and our write (SQLite path); the transaction retries."""
