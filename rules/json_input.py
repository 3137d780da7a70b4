"""JSON from outside the process, decoded with a nesting limit.

Python's decoder recurses once per ``[`` or ``{``: about a thousand levels (``[`` × 1000, five
kilobytes) raise :class:`RecursionError`, which is no :class:`ValueError`, so every caller that
answered bad JSON with an error answered this one with a crash (a 500 from the API, a traceback
from ``python -m rules judge``). A few hundred levels decode, and then crash whatever walks the
value recursively later (encoding it back for the database, copying it). Nothing we read nests
more than a handful of levels (a judge case with its melds: 3; a settle case's ``kong_income``:
4), so :func:`loads` refuses anything deeper than :data:`MAX_DEPTH` before decoding.

Every JSON input goes through here: the API's parser (``config.api_common.JSONParser``), the
table websocket's frames (:func:`tables.protocol.parse_client_message`) and the judge's lines
(:func:`rules.judge.judge_line`). Standard library only, like the rest of ``rules``.
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_DEPTH = 32
"""The deepest nesting of arrays and objects accepted (a judge case needs 4)."""

_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.DOTALL)
"""A string (skipped whole, so that brackets inside it do not count) or a bracket."""


class TooDeep(json.JSONDecodeError):
    """JSON nested deeper than :data:`MAX_DEPTH`: a :class:`json.JSONDecodeError`, so that
    whoever answers bad JSON answers it the same way."""


class BadValue(json.JSONDecodeError):
    """A value the decoder could not convert: an integer longer than Python's
    ``sys.get_int_max_str_digits()`` (4,300 digits), or whatever a caller's ``parse_float`` /
    ``parse_constant`` refused. The decoder raises a bare :class:`ValueError` for these, which
    the judge did not answer as bad JSON (a traceback instead of an error line)."""


def nesting_depth(text: str, *, limit: int = MAX_DEPTH) -> tuple[int, int]:
    """``(depth, position)``: the deepest nesting of ``[`` and ``{`` outside strings, and where
    it first went past ``limit`` (or -1). Stops at the first bracket past ``limit``; closing
    brackets that do not match are left to the decoder."""
    depth = deepest = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if depth > limit:
                return deepest, match.start()
        elif token in "]}":
            depth -= 1
    return deepest, -1


def check_depth(text: str, *, limit: int = MAX_DEPTH) -> None:
    """Raise :class:`TooDeep` when ``text`` nests deeper than ``limit``."""
    if text.count("[") + text.count("{") <= limit:  # the common case, without a scan
        return
    _deepest, position = nesting_depth(text, limit=limit)
    if position >= 0:
        raise TooDeep(f"nested deeper than {limit} levels", text, position)


def loads(text: str, *, limit: int = MAX_DEPTH, **options: Any) -> Any:
    """:func:`json.loads` for input from outside: :class:`TooDeep` (a JSONDecodeError) when it
    nests deeper than ``limit``, :class:`BadValue` (one too) for a value that cannot be
    converted; ``options`` go to :func:`json.loads` (``parse_constant`` …)."""
    check_depth(text, limit=limit)
    try:
        return json.loads(text, **options)
    except json.JSONDecodeError:
        raise
    except ValueError as exc:
        raise BadValue(str(exc), text, 0) from exc
