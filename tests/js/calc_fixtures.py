"""The calculator's variant facts for its node tests (``tests/js/calculator_state.test.js``).

``tests/js/fixtures/calc_variants.json`` is what :func:`rules.case_facts.case_facts` builds for
every judged variant, the very data the page embeds (``tables.calculator.variant_setup``,
json_script ``calc-variants``); ``tests/aids/test_calculator_fixtures.py`` fails when the file
differs from what the server builds now. Write it again with ``python -m tests.js.calc_fixtures``
(then run ``node --test tests/js/``).
"""

from __future__ import annotations

import json
from pathlib import Path

from rules.case_facts import case_facts
from rules.registry import JUDGED

PATH = Path(__file__).resolve().parent / "fixtures" / "calc_variants.json"


def text() -> str:
    facts = {key: case_facts(variant) for key, variant in JUDGED.items()}
    return json.dumps(facts, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def main() -> None:
    PATH.write_text(text(), encoding="utf-8")
    print(f"wrote {PATH.name}")


if __name__ == "__main__":
    main()
