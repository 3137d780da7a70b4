"""A variant is one package and one registry line: outside its package nothing names it.

The engine, the bots, the decision review, the judge, the page templates and the static files
read what a variant is (its :class:`~rules.variant.Variant`: flow hooks, hand rules,
:class:`~rules.variant.BotFacts`, judge kinds; facts sent to a page as data), never which one
it is. The one form allowed is a citation of its spec page, ``<key>.md`` (``changchun.md,
*Ting*``), in a docstring or comment; a doctest takes its variant from the registry.
"""

from __future__ import annotations

import re
from pathlib import Path

from rules.registry import VARIANTS

ROOT = Path(__file__).resolve().parents[2]

KEYLESS = ("rules/engine", "rules/bots", "rules/review.py", "rules/judge.py", "static", "templates")
"""Where no variant key may appear (a file, or every file under a folder)."""


def key_mentions(text: str, keys: list[str]) -> list[str]:
    """Each mention of a key in ``text``, as written or in capitals (a constant's name), as a
    whole word (``_`` and ``-`` separate words too), that is not a spec citation ``<key>.md``.
    The region's name in prose (Changchun, Harbin) is a place, not a key."""
    found: list[str] = []
    for key in keys:
        for spelling in (key, key.upper()):
            pattern = rf"(?<![A-Za-z0-9]){re.escape(spelling)}(?![A-Za-z0-9])(?!\.md\b)"
            found += [m.group(0) for m in re.finditer(pattern, text)]
    return found


def keyless_files() -> list[Path]:
    files: list[Path] = []
    for place in KEYLESS:
        path = ROOT / place
        files += [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
    return files


def test_no_variant_key_outside_the_variants_and_the_registry() -> None:
    keys = list(VARIANTS)
    assert len(keys) >= 6
    files = keyless_files()
    assert any(p.suffix == ".css" for p in files)
    assert any(p.suffix == ".html" for p in files)
    named: dict[str, list[str]] = {}
    for path in files:
        found = key_mentions(path.read_bytes().decode("utf-8", errors="replace"), keys)
        if found:
            named[str(path.relative_to(ROOT))] = found
    assert named == {}


def test_a_key_is_found_in_code_and_only_a_spec_citation_is_allowed() -> None:
    keys = ["changchun", "taiyuan_lisi", "taiwan16"]
    assert key_mentions('if variant == "changchun":', keys) == ["changchun"]
    assert key_mentions('[data-variant="taiwan16"]', keys) == ["taiwan16"]
    assert key_mentions("VARIANTS['taiyuan_lisi'] # harbin", keys) == ["taiyuan_lisi"]
    assert key_mentions("CHANGCHUN_FOLDS; changchun-style", keys) == ["changchun", "CHANGCHUN"]
    assert key_mentions("Changchun's cap; the Taiwan 16 layout", keys) == []
    assert key_mentions("(changchun.md, *Ting*) and ``taiwan16.md``", keys) == []
    assert key_mentions("changchun.mdx taiwan16s", keys) == ["changchun"]
