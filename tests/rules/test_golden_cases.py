"""Every golden case, shared (the repository's copy of ``../shared/cases``) and our own
(``tests/rules/cases``), through the judge as ``python -m rules judge`` answers it
(cases/README.md: the expected keys must match).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.judge import judge_line
from tests.rules.golden import SHARED_COPY, WORKSPACE_SHARED, golden_entries

CASES = [
    pytest.param(entry["case"], entry["expect"], id=entry["case"].get("id") or f"{path.stem}:{n}")
    for path, n, entry in golden_entries(own=True)
]


def test_the_shared_cases_are_found():
    assert len(list(SHARED_COPY.glob("*.jsonl"))) >= 6
    assert len(CASES) >= 100


def _files_under(folder: Path) -> dict[Path, bytes]:
    return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.skipif(not WORKSPACE_SHARED.is_dir(), reason="no ../shared/cases beside this clone")
def test_the_repository_copy_matches_the_workspace():
    """The copy must be refreshed (``cp -r ../shared/cases/. tests/rules/cases/shared/``) whenever
    the shared cases change, so that a clone without ``../shared`` tests the same cases."""
    theirs = _files_under(WORKSPACE_SHARED)
    ours = _files_under(SHARED_COPY)
    assert sorted(ours) == sorted(theirs)
    assert [name for name in theirs if ours[name] != theirs[name]] == []


@pytest.mark.parametrize(("case", "expect"), CASES)
def test_golden_case(case, expect):
    answer = judge_line(json.dumps(case, ensure_ascii=False))
    assert answer["id"] == case.get("id")
    if "error_contains" in expect:
        assert "error" in answer, answer
        assert expect["error_contains"] in answer["error"]
        return
    assert "error" not in answer, answer
    for key, value in expect.items():
        assert answer.get(key) == value, (key, answer)
