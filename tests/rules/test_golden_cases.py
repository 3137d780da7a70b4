"""Every golden case, shared (``../shared/cases``) and our own (``tests/rules/cases``), through
the judge as ``python -m rules judge`` answers it (cases/README.md: the expected keys must match).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.judge import judge_line

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "cases"
OWN = Path(__file__).resolve().parent / "cases"


def load_cases() -> list:
    params = []
    for folder in (SHARED, OWN):
        for path in sorted(folder.glob("*.jsonl")):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if not line.strip():
                    continue
                entry = json.loads(line)
                case_id = entry["case"].get("id") or f"{path.stem}:{number}"
                params.append(pytest.param(entry["case"], entry["expect"], id=case_id))
    return params


CASES = load_cases()


def test_the_shared_cases_are_found():
    assert SHARED.is_dir()
    assert len(list(SHARED.glob("*.jsonl"))) >= 5


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
