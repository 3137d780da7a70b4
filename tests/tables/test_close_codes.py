"""One table of websocket close codes (``tables.protocol.CLOSE_CODES``) shared by the server, the
page (``static/js/close_codes.js``) and ``docs/protocol.md``: they agree, the
refusals the page must not retry are marked so, and the server closes with the row's code after
an ``error`` named by the row. The page's side (no reconnection after 4408/4410, the player told
why) is ``tests/js/socket.test.js``."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from tables import consumers, protocol
from tests.tables.helpers import table_closed
from tests.tables.ws import connect

ROOT = Path(__file__).resolve().parents[2]


def _tool() -> Any:
    spec = importlib.util.spec_from_file_location(
        "make_close_codes", ROOT / "tools" / "make_close_codes.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_pages_module_is_the_python_table():
    """Regenerate with ``.venv/bin/python tools/make_close_codes.py``."""
    written = (ROOT / "static/js/close_codes.js").read_text(encoding="utf-8")
    assert written == _tool().render_js()


def test_the_pages_module_reads_back_as_the_python_table():
    """Independently of the generator: every row of the module, parsed, is the Python row."""
    text = (ROOT / "static/js/close_codes.js").read_text(encoding="utf-8")
    rows = re.findall(
        r'(\d+): Object\.freeze\(\{ code: (\d+), name: ("[^"]*"), retry: (true|false), '
        r'message: gettext_noop\(("[^"]*")\) \}\)',
        text,
    )
    parsed = [
        (int(key), int(code), json.loads(name), retry == "true", json.loads(message))
        for key, code, name, retry, message in rows
    ]
    expected = [(r.code, r.code, r.name, r.retry, r.message) for r in protocol.CLOSE_CODES]
    assert parsed == expected


def test_the_protocol_document_shows_the_table():
    document = (ROOT / "docs/protocol.md").read_text(encoding="utf-8")
    assert _tool().render_markdown() in document
    for row in protocol.CLOSE_CODES:
        assert f"| `{row.code}` | `{row.name}` |" in document


def test_a_refusal_that_would_be_refused_again_is_never_retried():
    rows = {row.code: row for row in protocol.CLOSE_CODES}
    assert not rows[protocol.CLOSE_TOO_MANY].retry  # a fifth tab reconnected for ever
    assert not rows[protocol.CLOSE_REVOKED].retry
    assert len(rows) == len(protocol.CLOSE_CODES)  # one row per code
    assert len({row.name for row in protocol.CLOSE_CODES}) == len(rows)
    assert all(4000 <= code <= 4999 for code in rows)  # the application's range (RFC 6455)
    assert all(row.message and row.meaning for row in protocol.CLOSE_CODES)


def test_the_server_closes_with_the_tables_constants():
    """The consumer's codes are the table's (imported, not copied)."""
    assert consumers.CLOSE_TOO_MANY is protocol.CLOSE_TOO_MANY
    assert consumers.CLOSE_REVOKED is protocol.CLOSE_REVOKED
    abuse = next(r for r in protocol.CLOSE_CODES if r.code == protocol.CLOSE_ABUSE)
    assert f"more than {consumers._MAX_REFUSED} refused" in abuse.meaning


def test_every_message_the_page_shows_has_english():
    catalog = (ROOT / "config/locale/en/LC_MESSAGES/djangojs.po").read_text(encoding="utf-8")
    for row in protocol.CLOSE_CODES:
        found = re.search(rf'msgid "{re.escape(row.message)}"\nmsgstr "([^"]+)"', catalog)
        assert found, row.message


# --- the server closes with a row's code after the row's error --------------------------------


def _row(code: int) -> protocol.CloseCode:
    return next(row for row in protocol.CLOSE_CODES if row.code == code)


async def _refused(comm: Any) -> tuple[str, int]:
    message = json.loads(await comm.receive_from(timeout=10))
    close = await comm.receive_output(timeout=10)
    assert close["type"] == "websocket.close"
    return message["code"], close["code"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_one_socket_too_many_is_refused_with_4408(
    seated: Any, players: list[Any], settings: Any
) -> None:
    settings.TABLES_MAX_SOCKETS_PER_USER = 1  # the seated fixture already holds one per player
    comm, connected = await connect(seated.pk, players[1])
    assert connected
    row = _row(protocol.CLOSE_TOO_MANY)
    assert await _refused(comm) == (row.name, row.code)
    await comm.disconnect()
    await sync_to_async(table_closed)(seated.pk, players[1])


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_stranger_is_refused_with_4403(seated: Any, make_user: Any) -> None:
    stranger = await sync_to_async(make_user)("stranger")
    comm, connected = await connect(seated.pk, stranger)
    assert connected
    row = _row(protocol.CLOSE_FORBIDDEN)
    assert await _refused(comm) == (row.name, row.code)
    await comm.disconnect()
