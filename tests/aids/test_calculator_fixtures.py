"""The calculator's node tests read what the server sends (fixtures from the server's
own builders, not copied by hand), and its scripts name no variant."""

from __future__ import annotations

import json
import re
from pathlib import Path

from rules.registry import JUDGED
from tables.calculator import variant_setup
from tests.js.calc_fixtures import PATH, text

STATIC = Path(__file__).resolve().parents[2] / "static" / "calculator"


def test_the_variant_facts_fixture_is_what_the_page_embeds_now() -> None:
    """Run ``python -m tests.js.calc_fixtures`` when this fails, then ``node --test tests/js/``."""
    assert PATH.read_text(encoding="utf-8") == text()
    assert json.loads(text()) == variant_setup()


def test_the_calculator_scripts_name_no_variant() -> None:
    """What a variant has comes from ``calc-variants`` (rules/case_facts.py), not from checks
    of its key in the script."""
    for script in ("state.js", "view.js"):
        source = (STATIC / script).read_text(encoding="utf-8")
        for key in JUDGED:
            assert not re.search(rf"[\"'`]{key}[\"'`]", source), (script, key)
