"""The table websocket's consumer stays a thin edge over the tested pieces (``SocketStream``, the
notification reading, the socket services): connect, receive, disconnect, parse, call, send."""

from __future__ import annotations

import ast
from pathlib import Path

import tables.consumers

CONSUMER = Path(tables.consumers.__file__)
MAX_LINES = 200


def test_the_consumer_is_under_its_line_budget():
    lines = CONSUMER.read_text(encoding="utf-8").splitlines()
    assert len(lines) < MAX_LINES, f"{CONSUMER.name}: {len(lines)} lines; move logic out"


def test_the_consumer_reads_no_table_itself():
    """What to read and what it means are the services' (``tables.socket_services``): the
    consumer imports no model, selector, store or command."""
    tree = ast.parse(CONSUMER.read_text(encoding="utf-8"))
    imported = {
        f"{node.module}.{alias.name}" if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    database = ("models", "selectors", "game", "delayed", "gameplay")
    assert not [name for name in imported if any(f".{part}" in name for part in database)]
