"""The JSON-lines judge (judge.md): one answer line per input line, errors for invalid cases."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules.judge import judge_line, judge_main

ROOT = Path(__file__).resolve().parents[2]
GOOD = {
    "id": "g",
    "kind": "win",
    "variant": "changchun",
    "dealer": 0,
    "winner": 1,
    "hand": "234m 678p 345s 999s 55p",
    "win_tile": "5p",
    "win_by": "self_draw",
}


def answer(**changes):
    return judge_line(json.dumps({**GOOD, **changes}, ensure_ascii=False))


def test_it_answers_every_line_in_order_even_blank_and_broken_ones(tmp_path):
    lines = [json.dumps(GOOD), "", "{nope", json.dumps({**GOOD, "id": "h"})]
    out = io.StringIO()
    source = tmp_path / "cases.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert judge_main(str(source), out=out) == 0
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a["id"] for a in answers] == ["g", None, None, "h"]
    assert answers[0]["legal"] is True
    assert "error" in answers[1]
    assert "error" in answers[2]


def test_an_unreadable_file_exits_non_zero(tmp_path):
    assert judge_main(str(tmp_path / "missing.jsonl"), out=io.StringIO()) != 0


def test_the_command_line_reads_standard_input():
    done = subprocess.run(
        [sys.executable, "-m", "rules", "judge"],
        input=json.dumps({**GOOD, "kind": "ting", "hand": "234m 678p 345s 999s 5p"}) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    assert json.loads(done.stdout) == {"id": "g", "waits": ["5p", "8p"], "ting_allowed": True}


def test_deeply_nested_lines_get_error_lines_not_a_traceback():
    """``[`` × 1000 raised RecursionError out of ``python -m rules judge``
    (exit 1, no more answers); every line must get its error line, and the next is judged."""
    lines = [
        "[" * 1000,
        '{"a":' * 1000,
        "[" * 100_000 + "]" * 100_000,
        json.dumps({**GOOD, "extra": {"deep": json.loads("[" * 40 + "]" * 40)}}),
        json.dumps(GOOD),
    ]
    done = subprocess.run(
        [sys.executable, "-m", "rules", "judge"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(lines)
    for deep in answers[:4]:
        assert deep["id"] is None
        assert deep["error"].startswith("not valid JSON: nested deeper than")
    assert answers[4]["legal"] is True


def test_json_as_deep_as_a_case_needs_is_judged():
    """The limit is far above any real case: 32 levels of ``id`` still decode."""
    deep_id = json.loads("[" * 31 + "]" * 31)
    assert answer(id=deep_id)["id"] == deep_id


def test_waits_are_canonical_tile_names():
    result = answer(kind="ting", variant="shape", hand="1112345678999m")
    assert result["waits"] == [f"{n}m" for n in range(1, 10)]


def test_the_shape_variant_scores_nothing():
    assert answer(variant="shape") == {
        "id": "g",
        "legal": True,
        "fan": {},
        "total": 0,
        "payments": [0, 0, 0, 0],
    }


@pytest.mark.parametrize(
    ("changes", "text"),
    [
        ({"kind": "draw"}, "kind"),
        ({"variant": "nowhere"}, "unknown variant"),
        ({"hand": "234m 678p 345s 999s 5p"}, "tiles"),
        ({"hand": "234m 678p 345s 99999s"}, "copies"),
        ({"hand": "234m 678p 345s 99s 55p1f", "win_tile": "5p"}, "flower"),
        ({"win_tile": "1z"}, "not in the hand"),
        ({"win_by": "magic"}, "win_by"),
        ({"win_by": "discard"}, "discarder"),
        ({"win_by": "rob_kong"}, "discarder"),
        ({"win_by": "discard", "discarder": 1}, "discarder"),
        ({"win_by": "kong_draw"}, "kong_draw"),
        ({"treasure_win": True, "treasure": "9s"}, "treasure_win"),
        ({"extra": {"duibao": True}, "treasure": "9s"}, "duibao"),
        ({"options": {"dianpao_quanbao": 1}}, "dianpao_quanbao"),
        ({"options": []}, "options"),
        ({"dealer": 4}, "dealer"),
        ({"opened": [True]}, "opened"),
        ({"ting": "yes"}, "ting"),
        (
            {
                "hand": "234m 678p 345s 55p",
                "melds": [{"type": "chow", "tiles": "135m", "concealed": False}],
            },
            "not a chow",
        ),
        (
            {
                "hand": "234m 678p 345s 55p",
                "melds": [{"type": "pong", "tiles": "999s", "concealed": True}],
            },
            "concealed",
        ),
    ],
)
def test_invalid_cases_get_an_error_line(changes, text):
    result = answer(**changes)
    assert set(result) == {"id", "error"}, result
    assert text in result["error"]


def test_the_shape_variant_takes_a_sixteen_tile_hand_with_five_sets():
    result = answer(variant="shape", hand="123m 456m 789m 234p 567p 99s", win_tile="9s")
    assert result["legal"] is True
    ting = answer(variant="shape", kind="ting", hand="123m 456m 789m 234p 567p 9s")
    assert ting["waits"] == ["9s"]
    assert "tiles" in answer(variant="changchun", hand="123m 456m 789m 234p 567p 99s")["error"]


def test_taiwan16_is_judged_with_a_sixteen_tile_hand():
    assert "need 17" in answer(variant="taiwan16")["error"]
    result = answer(variant="taiwan16", hand="123m 456m 789m 234p 567p 99s", win_tile="9s")
    assert result["legal"] is True


def test_unknown_option_keys_are_ignored():
    assert answer(options={"music": "loud"})["legal"] is True


def test_a_non_object_line_is_an_error_with_a_null_id():
    assert judge_line("[1, 2]") == {"id": None, "error": "a case must be a JSON object"}


def test_an_option_the_variant_does_not_have_is_ignored_even_with_a_bad_value():
    """``shape`` has no cap: ``{"cap": "x"}`` is an unknown key there, not a crash (judge.md)."""
    result = answer(variant="shape", hand="11123455678999m", win_tile="5m", options={"cap": "x"})
    assert result == {"id": "g", "legal": True, "fan": {}, "total": 0, "payments": [0, 0, 0, 0]}


def test_a_program_talking_to_the_judge_gets_each_answer_before_its_next_line() -> None:
    """Answers from standard input are flushed while no further line waits (a file's
    answers are written in blocks; a program asking one case at a time must not hang)."""
    judge = subprocess.Popen(
        [sys.executable, "-m", "rules", "judge"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert judge.stdin is not None
    assert judge.stdout is not None
    try:
        for n in range(3):
            case = {"id": n, "kind": "ting", "variant": "shape", "dealer": 0, "winner": 0}
            judge.stdin.write(json.dumps({**case, "hand": "1112345678999m"}) + "\n")
            judge.stdin.flush()
            answer = json.loads(judge.stdout.readline())
            assert answer["id"] == n
            assert len(answer["waits"]) == 9
    finally:
        judge.stdin.close()
        judge.wait(timeout=30)


SETTLE = {
    "id": "s",
    "kind": "settle",
    "variant": "chengma",
    "dealer": 0,
    "seats": [
        {"won": True, "que": "s"},
        {"hand": "1112345678999s", "que": "m"},
        {"won": True, "que": "p"},
        {"hand": "1358m 123679p", "melds": [{"type": "kong", "tiles": "4444m"}], "que": "s"},
    ],
}


def test_a_kind_of_a_variant_s_own_is_answered_for_that_variant_only():
    from rules.registry import JUDGED

    own = [key for key in JUDGED if "settle" in JUDGED[key].judge_kinds]
    other = next(key for key in JUDGED if key not in own)
    assert judge_line(json.dumps(SETTLE))["status"][1] == "ready"
    refused = judge_line(json.dumps({**SETTLE, "variant": other}))
    assert refused["error"] == "kind must be 'win' or 'ting', got 'settle'"
    unknown = judge_line(json.dumps({**SETTLE, "variant": "nowhere"}))
    assert "unknown variant" in unknown["error"]
