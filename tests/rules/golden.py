"""Where the golden cases are, and how a test reads them.

The shared cases (``../shared/cases`` in the workspace, the authority) travel with the repository as
a copy under ``tests/rules/cases/shared/``, so that a clone with no ``../shared`` still tests them;
``test_golden_cases.test_the_repository_copy_matches_the_workspace`` fails when the two differ.
``next/`` holds the cases of a variant being built: they run once the variant is in the registry
(:data:`rules.registry.JUDGED`).
Our own cases sit beside them in ``tests/rules/cases/*.jsonl``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rules.registry import JUDGED

HERE = Path(__file__).resolve().parent
OWN = HERE / "cases"
SHARED_COPY = OWN / "shared"
WORKSPACE_SHARED = HERE.parents[1].parent / "shared" / "cases"


def case_files(*, own: bool = False) -> list[Path]:
    """The shared case files of the repository's copy (``next/`` included), then ours if asked."""
    files = sorted(SHARED_COPY.glob("*.jsonl")) + sorted((SHARED_COPY / "next").glob("*.jsonl"))
    if own:
        files += sorted(OWN.glob("*.jsonl"))
    return files


def golden_entries(*, own: bool = False) -> list[tuple[Path, int, dict[str, Any]]]:
    """``(file, line number, {"case": …, "expect": …})`` for every case of a built variant."""
    entries = []
    for path in case_files(own=own):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            entry = json.loads(line)
            if entry["case"].get("variant") in JUDGED or path.parent.name != "next":
                entries.append((path, number, entry))
    return entries


def expects_error(entry: dict[str, Any]) -> bool:
    """Whether the case is invalid input, answered with an ``error`` line."""
    return "error_contains" in entry["expect"]
