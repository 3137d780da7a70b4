"""rules.json_input: JSON from outside, refused past a nesting limit."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.json_input import MAX_DEPTH, BadValue, TooDeep, loads, nesting_depth


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_the_limit_is_inclusive():
    assert loads(nested(MAX_DEPTH)) == json.loads(nested(MAX_DEPTH))
    with pytest.raises(TooDeep):
        loads(nested(MAX_DEPTH + 1))


@pytest.mark.parametrize(
    "text", ["[" * 1000, '{"a":' * 1000, nested(100_000), '{"a": ' + nested(40) + "}"]
)
def test_deep_json_is_a_json_decode_error_not_a_recursion_error(text):
    with pytest.raises(json.JSONDecodeError, match="nested deeper than"):
        loads(text)


def test_brackets_inside_strings_do_not_count():
    text = json.dumps({"a": "[" * 500, "b": '\\"{{{{{' * 100, "c": ["]]]]"]})
    assert nesting_depth(text) == (2, -1)
    assert loads(text)["a"] == "[" * 500


def test_options_reach_the_decoder():
    assert loads("[1.5]", parse_float=str) == ["1.5"]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\ab', max_size=6),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(st.text(alphabet='[]{}"\\', max_size=3), children, max_size=3)
    ),
    max_leaves=40,
)


def depth_of(value: object) -> int:
    if isinstance(value, list):
        return 1 + max((depth_of(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((depth_of(v) for v in value.values()), default=0)
    return 0


@settings(max_examples=200, deadline=None)
@given(value=JSON, limit=st.integers(1, 6))
def test_a_value_is_refused_exactly_when_it_nests_past_the_limit(value, limit):
    text = json.dumps(value)
    if depth_of(value) > limit:
        with pytest.raises(TooDeep):
            loads(text, limit=limit)
    else:
        assert loads(text, limit=limit) == value


def test_an_integer_too_long_to_convert_is_a_json_decode_error():
    with pytest.raises(json.JSONDecodeError, match="4300 digits") as caught:
        loads("[" + "9" * 5000 + "]")
    assert isinstance(caught.value, BadValue)


def test_a_callers_refusal_is_a_json_decode_error_with_its_message():
    def no_floats(text: str) -> float:
        raise ValueError(f"{text} refused")

    with pytest.raises(json.JSONDecodeError, match=r"1\.5 refused"):
        loads("[1.5]", parse_float=no_floats)


def test_the_judge_answers_a_huge_number_with_an_error_line():
    lines = '{"id": 1, "x": ' + "9" * 5000 + '}\n{"id": 2}\n'
    done = subprocess.run(
        [sys.executable, "-m", "rules", "judge"],
        input=lines,
        capture_output=True,
        text=True,
        check=True,
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == 2
    assert answers[0]["id"] is None
    assert "4300 digits" in answers[0]["error"]
    assert answers[1]["id"] == 2
