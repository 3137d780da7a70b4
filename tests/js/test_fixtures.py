"""The reducer's fixtures (``tests/js/fixtures/*.json``) are what the engine sends today.

The node tests read the server's messages from these files; when the views change shape this
fails, and ``python -m tests.js.fixtures`` writes them again (then run ``node --test tests/js/``).
"""

from __future__ import annotations

import pytest

from tests.js.fixtures import FIXTURES, HERE, text


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_the_fixture_is_what_the_engine_sends_now(name: str) -> None:
    assert (HERE / f"{name}.json").read_text(encoding="utf-8") == text(name)
