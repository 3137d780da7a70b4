"""Hostile input to the judge: whatever a case holds, ``judge_case`` answers or
raises a :class:`RulesError` with a message — never another exception (the calculator's API would
answer 500, and ``python -m rules judge`` an "internal error" line).

The cases start from the golden ones, so that the mutations reach deep into the checks instead of
failing at the first field.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.errors import RulesError
from rules.judge import judge_case, judge_line
from tests.rules.golden import golden_entries

VALID = [
    entry["case"]
    for _path, _n, entry in golden_entries()
    if "error_contains" not in entry["expect"]
]
FIELDS = sorted({key for case in VALID for key in case} | {"extra.flowers", "extra.duibao"})

tile_like = st.text(alphabet="0123456789mpszf ²³¹١٢٣٤٥٦٧٨٩٠ⅫmＭ\u0000\ud7ff-+.", max_size=24)
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | tile_like
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=8,
)


def _mutated(case: dict[str, Any], field: str, value: Any) -> dict[str, Any]:
    out = json.loads(json.dumps(case))
    if field.startswith("extra."):
        extra = out.get("extra") if isinstance(out.get("extra"), dict) else {}
        extra[field.split(".", 1)[1]] = value
        out["extra"] = extra
    else:
        out[field] = value
    return out


def _judged(case: Any) -> None:
    try:
        answer = judge_case(case)
    except RulesError as exc:
        message = str(exc)
    else:
        message = None
        assert isinstance(answer, dict)
        json.dumps(answer)
    assert message is None or message.strip()


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    base=st.sampled_from(VALID),
    changes=st.lists(st.tuples(st.sampled_from(FIELDS), json_values), min_size=1, max_size=3),
)
def test_a_mutated_case_is_answered_or_refused_with_a_rules_error(base, changes):
    case = base
    for field, value in changes:
        case = _mutated(case, field, value)
    _judged(case)


@settings(max_examples=300, deadline=None)
@given(base=st.sampled_from(VALID), hand=tile_like, melds=st.lists(json_values, max_size=3))
def test_a_hand_in_any_notation_is_answered_or_refused(base, hand, melds):
    _judged({**base, "hand": hand})
    _judged({**base, "melds": melds})
    _judged({**base, "win_tile": hand})


def test_unicode_digits_are_not_ranks():
    answer = judge_line(json.dumps({**VALID[0], "hand": "²m"}, ensure_ascii=False))
    assert "error" in answer
    assert "internal error" not in answer["error"]
