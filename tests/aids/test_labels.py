"""The words players read: every key a page can meet has a label in the rules, marked for
translation (``rules.i18n``), translated by Django's catalogs, and sent to the pages as JSON."""

from __future__ import annotations

import ast
import json
import random
import re
from pathlib import Path

import pytest
from django.utils import translation

from rules.engine import apply, legal_actions, new_round
from rules.judge import judge_case
from rules.labels import TILE_NAMES, WIN_BY
from rules.registry import JUDGED, VARIANTS
from rules.simulate import random_bot, seats_to_act
from rules.wall import seed_from_text
from tables.labels import calculator_labels, table_labels, text
from tests.rules.golden import expects_error, golden_entries

ROOT = Path(__file__).resolve().parents[2]
CJK = re.compile(r"[\u3400-\u9fff]")


def rules_marks() -> dict[tuple[str, str], str]:
    """Every ``N_(context, text)`` in ``rules/`` (what makemessages finds), with its place."""
    found: dict[tuple[str, str], str] = {}
    for path in sorted((ROOT / "rules").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "N_":
                context, message = node.args
                assert isinstance(context, ast.Constant), f"{path}:{node.lineno}"
                assert isinstance(message, ast.Constant), f"{path}:{node.lineno}"
                found[(context.value, message.value)] = f"{path.name}:{node.lineno}"
    return found


def test_every_mark_in_the_rules_has_an_english_translation() -> None:
    marks = rules_marks()
    assert len(marks) > 200
    with translation.override("en"):
        untranslated = [
            where
            for (context, message), where in marks.items()
            if translation.pgettext(context, message) == message
        ]
    assert untranslated == []
    with translation.override("zh-hans"):
        assert all(translation.pgettext(c, m) == m for c, m in marks)


def test_every_reason_fan_and_option_of_every_variant_is_labelled() -> None:
    for key, variant in JUDGED.items():
        for reason in (*variant.rules.conditions, "not_ready"):
            assert reason in variant.reasons, (key, reason)
        for option in variant.options:
            assert option.label.name.text, (key, option.key)
            assert option.label.rule.text, (key, option.key)
        assert variant.name.name.text, key
    assert set(WIN_BY) == {"discard", "self_draw", "kong_draw", "rob_kong"}
    assert len(TILE_NAMES) == 42


def test_every_fan_and_reason_in_the_golden_answers_is_labelled() -> None:
    seen = 0
    for _path, _number, entry in golden_entries():
        if expects_error(entry):
            continue
        case = entry["case"]
        answer = judge_case(case)
        variant = JUDGED[case["variant"]]
        for key in answer.get("fan", {}):
            assert key in variant.fan, (case["id"], key)
        if "reason" in answer:
            assert answer["reason"] in variant.reasons, (case["id"], answer)
        seen += 1
    assert seen >= 40


@pytest.mark.parametrize("key", list(VARIANTS))
def test_every_fan_key_scored_in_simulated_rounds_is_labelled(key: str) -> None:
    variant = VARIANTS[key]
    for n in range(12):
        bot = random_bot(random.Random(n))
        state, _ = new_round(variant=variant, seed=seed_from_text(f"labels-{n}"), dealer=0)
        while state.result is None:
            seat = seats_to_act(state)[0]
            state, _ = apply(state, bot(legal_actions(state, seat)))
        verdict = state.result.verdict
        for fan in verdict.fan if verdict is not None else {}:
            assert fan in variant.fan, (key, fan)


def test_every_fan_key_the_hand_rules_can_score_is_labelled() -> None:
    # Read from the source (``fan["key"]``, ``"key": n`` in a fan dict, and the wait items) so
    # that a new item added to a variant's rules fails here until it has its label.
    for key, variant in VARIANTS.items():
        source = (ROOT / "rules" / "variants" / key / "wins.py").read_text(encoding="utf-8")
        keys = set(re.findall(r'fan\["([a-z_]+)"\]', source))
        keys |= set(re.findall(r'\{"(pinghu)": \d+\}', source))
        keys |= set(re.findall(r'"(?:edge|closed|single)": "([a-z_]+)"', source))
        assert keys, key
        assert keys <= set(variant.fan), (key, keys - set(variant.fan))


@pytest.mark.parametrize("key", list(VARIANTS))
def test_the_table_page_labels_cover_its_variant_and_read_in_english(key: str) -> None:
    variant = VARIANTS[key]
    with translation.override("en"):
        labels = table_labels(key)
    assert set(labels["fan"]) == set(variant.fan)
    assert set(labels["reasons"]) == set(variant.reasons)
    assert set(labels["options"]) == {o.key for o in variant.options}
    assert set(labels["win_by"]) == set(WIN_BY)
    assert len(labels["tiles"]) == 42
    names = [
        *labels["tiles"].values(),
        labels["name"]["name"],
        *(
            entry["name"]
            for group in ("fan", "reasons", "options", "win_by")
            for entry in labels[group].values()
        ),
    ]
    assert [n for n in names if CJK.search(n)] == []
    assert labels["tiles"]["1z"] == "East"
    with translation.override("zh-hans"):
        assert table_labels(key)["tiles"]["1z"] == "东"
    assert json.loads(json.dumps(labels)) == labels


def test_equal_chinese_names_read_differently_where_the_variants_mean_different_items() -> None:
    with translation.override("en"):
        assert text(VARIANTS["changchun"].fan["pinghu"].name) == "Basic win"
        assert text(VARIANTS["taiwan16"].fan["pinghu"].name) == "All chows"
        assert text(WIN_BY["discard"].name) == "On a discard"
        assert text(VARIANTS["changchun"].fan["dianpao"].name) == "Discard win"


def test_the_calculator_gets_every_judged_variant_in_the_page_language() -> None:
    with translation.override("en"):
        labels = calculator_labels()
    assert set(labels["variants"]) == set(JUDGED)
    assert labels["reasons"]["siping"]["piao_only"]["name"] == "Piao only"
    assert labels["variants"]["changchun"]["name"] == "Changchun mahjong"
    assert labels["options"]["taiwan16"]["tai_value"]["name"] == "Per tai"


def test_the_table_script_keeps_no_list_of_names_of_its_own() -> None:
    """The table, the replay and the calculator name rules only from the page's labels, which
    the shared i18n module reads (static/js/i18n.js)."""
    scripts = [ROOT / "static" / "tables" / name for name in ("table.js", "view.js", "state.js")]
    scripts += [ROOT / "static" / "js" / name for name in ("events.js", "tiles.js")]
    scripts += [ROOT / "static" / "scoring" / "replay.js"]
    for path in scripts:
        script = path.read_text(encoding="utf-8")
        assert "FAN_NAMES" not in script
        assert "HINT_REASONS" not in script
        for key in ("jiahu", "kadang", "qinglong", "menqing_zimo", "piao_only"):
            assert key not in script, (path.name, key)
    shared = (ROOT / "static" / "js" / "i18n.js").read_text(encoding="utf-8")
    assert 'getElementById("rules-labels")' in shared


def test_makemessages_finds_the_rules_marks_with_their_context() -> None:
    import shutil
    import subprocess

    from config.management.commands.makemessages import Command

    assert "--keyword=N_:1c,2" in Command.xgettext_options
    if shutil.which("xgettext") is None:
        pytest.skip("GNU xgettext is not installed (makemessages needs it)")
    source = ROOT / "rules" / "variants" / "taiwan16" / "labels.py"
    pot = subprocess.run(
        ["xgettext", "--language=Python", *Command.xgettext_options, "--output=-", str(source)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert 'msgctxt "taiwan16"\nmsgid "平胡"' in pot


def test_the_marks_and_the_ledgers_drawn_round_come_from_the_rules_marks() -> None:
    """庄, 胡, 自摸, 点炮, 宝牌 and 荒庄 are the rules' marks (``rules.labels.MARKS``): the pages
    get them in their language with the other rule words; the ledgers' 荒庄 is the same mark."""
    from rules.labels import MARKS
    from scoring.labels import win_by_label
    from tables.labels import page_labels

    assert set(MARKS) >= {"dealer", "winner", "self_draw", "dealt_in", "treasure", "drawn"}
    with translation.override("en"):
        marks = page_labels("changchun")["marks"]
        assert marks["dealer"] == "Dealer"
        assert marks["dealt_in"] == "Dealt in"
        assert page_labels()["marks"] == marks  # the calculator's and the ledgers' pages too
        assert win_by_label(None) == "Drawn round" == marks["drawn"]
    with translation.override("zh-hans"):
        assert page_labels()["marks"] == {key: msg.text for key, msg in MARKS.items()}
        assert win_by_label(None) == "荒庄"
    source = (ROOT / "scoring" / "labels.py").read_text(encoding="utf-8")
    assert not re.search(r"_\(\"", source), "scoring/labels.py translates no literal of its own"
