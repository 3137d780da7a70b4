"""rules.labels: a Chinese and an English name and rule text for every key a player can meet."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from rules.engine import apply, legal_actions, new_round
from rules.judge import judge_case
from rules.labels import FAN, LANGS, OPTIONS, REASONS, VARIANT_NAMES, WIN_BY, catalog, label
from rules.simulate import random_bot, seats_to_act
from rules.variants import get_variant
from rules.wall import seed_from_text
from rules.wins import VARIANTS, hand_rules
from tests.rules.golden import expects_error, golden_entries


def test_every_reason_key_of_every_variant_has_both_languages() -> None:
    for variant in VARIANTS:
        for key in (*hand_rules(variant).conditions, "not_ready"):
            found = REASONS[variant][key]
            assert all(found.name(lang) and found.rule(lang) for lang in LANGS), (variant, key)


def test_every_option_and_way_of_winning_has_both_languages() -> None:
    for variant in VARIANTS:
        assert variant in VARIANT_NAMES
        for key in hand_rules(variant).default_options:
            assert OPTIONS[key].zh, key
            assert OPTIONS[key].en, key
    assert set(WIN_BY) == {"discard", "self_draw", "kong_draw", "rob_kong"}


def test_every_fan_and_reason_in_the_golden_answers_is_labelled() -> None:
    seen = 0
    for _path, _number, entry in golden_entries():
        if expects_error(entry):
            continue
        case = entry["case"]
        answer = judge_case(case)
        table = FAN[case["variant"]]
        for key in answer.get("fan", {}):
            assert key in table, (case["id"], key)
        if "reason" in answer:
            assert answer["reason"] in REASONS[case["variant"]], (case["id"], answer)
        seen += 1
    assert seen >= 40


@pytest.mark.parametrize("variant", ["changchun", "harbin", "siping", "taiyuan_lisi", "taiwan16"])
def test_every_fan_key_scored_in_simulated_rounds_is_labelled(variant: str) -> None:
    wins_key = get_variant(variant).wins_key
    for n in range(12):
        rng = random.Random(n)
        bot = random_bot(rng)
        state, _ = new_round(variant=variant, seed=seed_from_text(f"labels-{n}"), dealer=0)
        while state.result is None:
            seat = seats_to_act(state)[0]
            state, _ = apply(state, bot(legal_actions(state, seat)))
        verdict = state.result.verdict
        for key in verdict.fan if verdict is not None else {}:
            assert key in FAN[wins_key], (variant, key)


def test_label_falls_back_to_the_key_and_the_catalog_is_plain_json() -> None:
    assert label("changchun", "jiahu", "zh") == "夹胡"
    assert label("changchun", "jiahu", "en") == "Single-wait win"
    assert label("harbin", "missing_suit") == "missing_suit"  # not a Harbin condition
    data = catalog()
    assert json.loads(json.dumps(data, ensure_ascii=False)) == data
    assert data["reasons"]["siping"]["piao_only"]["en"] == "Piao only"


def test_every_fan_key_the_hand_rules_can_score_is_labelled() -> None:
    # Read from the source (``fan["key"]`` and ``"key": n`` in a fan dict) so that a new item
    # added to a variant's rules fails here until it has its Chinese and English names.
    import re

    import rules.wins

    folder = Path(rules.wins.__file__).parent
    for variant in VARIANTS:
        if variant == "shape":
            continue
        source = (folder / f"{variant}.py").read_text(encoding="utf-8")
        keys = set(re.findall(r'fan\["([a-z_]+)"\]', source))
        keys |= set(re.findall(r'\{"(pinghu)": \d+\}', source))
        assert keys, variant
        missing = keys - set(FAN[variant])
        assert not missing, (variant, missing)
