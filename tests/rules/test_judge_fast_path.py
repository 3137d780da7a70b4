"""The judge's fast path for plain ting cases (``rules.judge._plain_ting_answer``, issue 29)
writes exactly the line the careful path writes (:func:`rules.judge.judge_line`, encoded), for
valid and invalid input alike, and it is the path a plain ting case takes.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.bench_judge_cli import waiting_hand, write_cases
from rules.__main__ import _plain_judge, build_parser
from rules.judge import _ENCODE, _plain_ting_answer, _ting_body, answer_line, judge_line, judge_main
from rules.registry import JUDGED
from rules.tiles import format_tiles, parse_tiles
from tests.rules.golden import golden_entries

ROOT = Path(__file__).resolve().parents[2]


def careful(line: str) -> str:
    """What the judge wrote for every line before the fast path."""
    return _ENCODE(judge_line(line))


def same_answer(line: str) -> str:
    fast = answer_line(line)
    assert fast == careful(line), line
    return fast


# --- the golden cases, and plain ting questions made from them --------------------------------

GOLDEN = [
    json.dumps(entry["case"], ensure_ascii=False) for _p, _n, entry in golden_entries(own=True)
]


@pytest.mark.parametrize("line", GOLDEN)
def test_every_golden_case_gets_the_careful_answer(line: str) -> None:
    same_answer(line)


def plain_ting_of(case: dict[str, Any]) -> dict[str, Any]:
    """A golden win without melds as a plain ting question: its hand less the winning tile."""
    hand = parse_tiles(case["hand"], max_copies=None)
    hand.remove(parse_tiles(case["win_tile"])[0])
    keep = ("id", "variant", "dealer", "winner")
    return {**{k: case[k] for k in keep if k in case}, "kind": "ting", "hand": format_tiles(hand)}


PLAIN_TINGS = [
    json.dumps(plain_ting_of(entry["case"]))
    for _p, _n, entry in golden_entries(own=True)
    if entry["case"].get("kind") == "win"
    and not entry["case"].get("melds")
    and "error_contains" not in entry["expect"]
] + [
    json.dumps(entry["case"])
    for _p, _n, entry in golden_entries(own=True)
    if entry["case"].get("kind") == "ting"
    and not ({"melds", "options", "extra", "opened"} & set(entry["case"]))
]


def test_plain_ting_questions_are_many_and_of_every_variant() -> None:
    assert len(PLAIN_TINGS) >= 100
    assert {json.loads(line)["variant"] for line in PLAIN_TINGS} >= set(JUDGED) - {"chengma"}


@pytest.mark.parametrize("line", PLAIN_TINGS)
def test_a_plain_ting_question_takes_the_fast_path_unless_it_is_an_error(line: str) -> None:
    answer = same_answer(line)
    if "error" not in json.loads(answer):  # 成麻 wants extra.que: an error line, the careful way
        assert _plain_ting_answer(line) == answer


@pytest.mark.parametrize("variant", sorted(JUDGED))
def test_the_benchmark_questions_get_the_careful_answers(variant: str, tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    write_cases(source, 300, variant, seed=29)
    for line in source.read_text(encoding="utf-8").splitlines():
        answer = same_answer(line)
        assert (_plain_ting_answer(line) is not None) == ("error" not in json.loads(answer))


def test_the_judge_writes_the_careful_lines_for_a_mixed_file(tmp_path: Path) -> None:
    lines = [*PLAIN_TINGS[:40], *GOLDEN[:40], "", "{nope", "[1]", '{"kind": "ting"}  ']
    random.Random(29).shuffle(lines)
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = _Sink()
    assert judge_main(str(source), out=out) == 0
    assert out.text.splitlines() == [careful(line) for line in lines]


class _Sink:
    """A text stream without a file descriptor (``io.StringIO`` would do as well)."""

    def __init__(self) -> None:
        self.text = ""

    def write(self, text: str) -> int:
        self.text += text
        return len(text)

    def flush(self) -> None:
        pass


# --- hypothesis: plain ting questions, changed a little or not at all ----------------------------

DELETE = object()
"""A change that takes the field out of the case."""

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)
waiting_hands = st.randoms(use_true_random=False).map(lambda rng: format_tiles(waiting_hand(rng)))
any_13 = st.lists(st.integers(min_value=0, max_value=33), min_size=13, max_size=13)
unsorted_13 = any_13.map(lambda tiles: "".join(format_tiles([t]) for t in tiles))
"""Plain notation in the order drawn (``"7z1m5p1m…"``): the careful path sorts it."""
hands = (
    waiting_hands
    | any_13.map(format_tiles)
    | st.lists(st.integers(min_value=0, max_value=41), min_size=11, max_size=17).map(format_tiles)
    | waiting_hands.map(lambda text: text.replace("m", "m "))
    | st.text(alphabet="0123456789mpszfx ²", max_size=20)
    | json_values
)
SEATS = [-1, 0, 3, 4, True, False, None, "0", 1.0]
VALUES: dict[str, list[Any]] = {
    "id": [2**70, -1, 1.5, True, "é", None, [1], {"a": {}}],
    "kind": ["win", "settle", "Ting", "ting ", 1, None],
    "variant": [*sorted(JUDGED), "nope", "", 3, None],
    "dealer": SEATS,
    "winner": SEATS,
    "hand": [
        "1112345678999m",
        "1112345678999",
        "1112345678999m ",
        "11112345678999m",
        "112345678999m",
        "1111m2345678999m",
        "123m456p789s1234z",
        "123m456p789s11z1f",
        "123m456p789s11z8z",
        "",
        13,
        None,
    ],
    "options": [{}, {"base": 2}, {"base": "x"}, {"x": 1}, [], None],
    "melds": [[], {}, None, [{"type": "pong", "tiles": "111z", "from": 1}]],
    "extra": [{}, {"que": "m"}, {"duibao": 1}, {"x": []}, [], None],
    "opened": [[False] * 4, [True, False, False, False], [], "x", None],
    "win_tile": ["1m", None],
    "other": [None, [[[]]]],
}
"""Values a plain ting question's fields are changed to (or the field taken out, DELETE)."""

seats = st.integers(min_value=-1, max_value=4) | st.sampled_from(SEATS)
CHANGES: dict[str, st.SearchStrategy[Any]] = {
    field: st.sampled_from(values) for field, values in VALUES.items()
}
CHANGES["id"] = CHANGES["id"] | json_values
CHANGES["dealer"] = CHANGES["winner"] = seats
CHANGES["hand"] = CHANGES["hand"] | hands
CHANGES["win_tile"] = CHANGES["other"] = json_values
plain_tings = st.fixed_dictionaries(
    {
        "id": json_values,
        "kind": st.just("ting"),
        "variant": st.sampled_from(sorted(JUDGED)),
        "dealer": st.integers(min_value=0, max_value=3),
        "winner": st.integers(min_value=0, max_value=3),
        "hand": waiting_hands | any_13.map(format_tiles) | unsorted_13,
    }
)
changes = st.lists(
    st.sampled_from(sorted(CHANGES)).flatmap(
        lambda field: st.tuples(st.just(field), st.just(DELETE) | CHANGES[field])
    ),
    max_size=2,
)


def _changed(case: dict[str, Any], edits: list[tuple[str, Any]]) -> dict[str, Any]:
    case = dict(case)
    for field, value in edits:
        if value is DELETE:
            case.pop(field, None)
        else:
            case[field] = value
    return case


def _text_of(case: dict[str, Any], ascii_only: bool, spaced: bool, edit: int, cut: float) -> str:
    """The case as a line, sometimes spoilt: a space before or after, cut short, a bracket
    too many, nested deeper than json_input allows, an escaped letter."""
    line = json.dumps(case, ensure_ascii=ascii_only, separators=None if spaced else (",", ":"))
    if edit == 1:
        line = " " + line
    elif edit == 2:
        line += " "
    elif edit == 3:
        line = line[: int(len(line) * cut)]
    elif edit == 4:
        line += "{"
    elif edit == 5:
        line = line[:-1] + ', "deep": ' + "[" * 40 + "]" * 40 + "}"
    elif edit == 6:
        line = line.replace('"ting"', '"ti\\u006eg"')
    return line


@settings(
    max_examples=3000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example],
)
@given(
    case=plain_tings,
    edits=changes,
    ascii_only=st.booleans(),
    spaced=st.booleans(),
    edit=st.integers(min_value=0, max_value=12),
    cut=st.floats(min_value=0, max_value=1),
)
def test_the_fast_path_writes_the_careful_line(
    case: dict[str, Any],
    edits: list[tuple[str, Any]],
    ascii_only: bool,
    spaced: bool,
    edit: int,
    cut: float,
) -> None:
    same_answer(_text_of(_changed(case, edits), ascii_only, spaced, edit, cut))


@pytest.mark.parametrize(
    "case_id", [2**70, -(2**70), 10**20, 0, -1, 1.5, True, 'é\n"', None, [1, {"a": None}], {}]
)
def test_any_id_is_echoed_as_the_careful_path_echoes_it(case_id: Any) -> None:
    line = json.dumps(
        {
            "id": case_id,
            "kind": "ting",
            "variant": "shape",
            "dealer": 0,
            "winner": 0,
            "hand": "1112345678999m",
        },
        ensure_ascii=False,
    )
    assert _plain_ting_answer(line) == careful(line)


def test_a_verdict_body_is_cached_apart_for_true_and_one() -> None:
    assert _ting_body((0,), True, None).endswith('"ting_allowed": true}')
    assert _ting_body((0,), 1, None).endswith('"ting_allowed": 1}')


BASES = [
    {"id": 7, "kind": "ting", "variant": key, "dealer": 1, "winner": 2, "hand": "1112345678999m"}
    for key in sorted(JUDGED)
] + [
    {"id": "s", "kind": "ting", "variant": key, "dealer": 0, "winner": 0, "hand": "23m456p789s11z"}
    for key in sorted(JUDGED)
]


@pytest.mark.parametrize("base", BASES, ids=lambda base: f"{base['variant']}-{base['id']}")
def test_every_single_change_gets_the_careful_line(base: dict[str, Any]) -> None:
    """Each field of a plain question changed to each of :data:`VALUES`, or taken out."""
    same_answer(json.dumps(base))
    for field, values in VALUES.items():
        for value in [DELETE, *values]:
            same_answer(json.dumps(_changed(base, [(field, value)]), ensure_ascii=False))


@given(line=st.text(max_size=40))
def test_any_text_gets_the_careful_line(line: str) -> None:
    same_answer(line)


# --- start-up: no argparse, no engine, no other variant -----------------------------------------


@pytest.mark.parametrize(
    ("argv", "plain"),
    [
        (["judge"], True),
        (["judge", "-"], True),
        (["judge", "cases.jsonl"], True),
        (["judge", ""], True),
        (["judge", "-h"], False),
        (["judge", "--", "x"], False),
        (["judge", "a", "b"], False),
        (["simulate"], False),
        (["judg"], False),
        ([], False),
    ],
)
def test_the_plain_judge_command_is_what_argparse_reads_as_it(argv: list[str], plain: bool) -> None:
    assert _plain_judge(argv) is plain
    if plain:
        args = build_parser().parse_args(argv)
        assert (args.command, args.file) == ("judge", argv[1] if len(argv) == 2 else "-")


def test_judging_plain_ting_questions_imports_no_engine_no_other_variant_no_argparse(
    tmp_path: Path,
) -> None:
    source = tmp_path / "in.jsonl"
    write_cases(source, 5, "changchun", seed=1)
    code = (
        "import runpy, sys\n"
        f"sys.argv = ['rules', 'judge', {str(source)!r}]\n"
        "try:\n"
        "    runpy.run_module('rules', run_name='__main__', alter_sys=True)\n"
        "except SystemExit as done:\n"
        "    assert not done.code\n"
        "wanted = ('rules.engine', 'rules.bots', 'rules.variants', 'argparse')\n"
        "print(sorted(m for m in sys.modules if m.startswith(wanted)), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert len(done.stdout.splitlines()) == 5
    assert json.loads(done.stderr.strip().replace("'", '"')) == [
        "rules.variants",
        "rules.variants.changchun",
        "rules.variants.changchun.labels",
        "rules.variants.changchun.options",
        "rules.variants.changchun.wins",
    ]
