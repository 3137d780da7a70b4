"""One variant, one package, one registry line; options with bounds; states that are values."""

from __future__ import annotations

import copy
import dataclasses
import json
import threading
from pathlib import Path

import pytest

from rules.engine import apply, legal_actions, new_round
from rules.engine.flow import Flow
from rules.engine.state import TurnPhase, replace
from rules.errors import InvalidCase, RulesError
from rules.hand_rules import HandRules
from rules.options import BASE, HINTS, Option, cap, flag, number, validate_options
from rules.persist import state_from_json, state_to_json
from rules.registry import JUDGED, VARIANTS, get_variant, judged_variant
from rules.variant import Variant
from rules.wall import seed_from_text

PACKAGES = Path(__file__).resolve().parents[2] / "rules" / "variants"
FILES = {"__init__.py", "flow.py", "wins.py", "options.py", "labels.py"}


def test_every_variant_package_is_registered_and_holds_the_whole_variant() -> None:
    packages = sorted(p.name for p in PACKAGES.iterdir() if (p / "__init__.py").exists())
    assert sorted(VARIANTS) == packages
    for key, variant in VARIANTS.items():
        assert {f.name for f in (PACKAGES / key).iterdir()} >= FILES, key
        assert variant.key == key
        assert isinstance(variant.flow, Flow)
        assert isinstance(variant.rules, HandRules)
        assert variant.option("base") is not None
        assert variant.option("hints") is not None
    assert list(VARIANTS) == [
        "changchun",
        "harbin",
        "siping",
        "taiyuan_lisi",
        "taiwan16",
        "chengma",
    ]


def test_the_judge_also_knows_the_shape_pseudo_variant_which_no_room_plays() -> None:
    assert set(JUDGED) == {*VARIANTS, "shape"}
    assert judged_variant("shape").rules.hand_sizes() == (13, 16)
    with pytest.raises(RulesError):
        get_variant("shape")
    with pytest.raises(InvalidCase):
        judged_variant("taiwan17")


def test_a_variant_is_one_object_compared_by_identity() -> None:
    variant = VARIANTS["harbin"]
    assert copy.copy(variant) is variant
    assert copy.deepcopy({"v": variant})["v"] is variant
    twin = dataclasses.replace(variant)
    assert twin != variant
    assert repr(variant) == "<Variant harbin>"


def test_a_variants_flow_is_built_once_on_first_read_even_by_two_threads_at_once() -> None:
    built: list[Flow] = []
    release = threading.Event()

    def load_flow() -> Flow:
        release.wait(5)  # both threads are inside the first read before either flow exists
        flow = Flow()
        built.append(flow)
        return flow

    base = VARIANTS["changchun"]
    variant = Variant(
        key="test", name=base.name, load_flow=load_flow, rules=base.rules, options=base.options
    )
    assert not built  # nothing is built with the variant
    seen: list[Flow] = []
    readers = [threading.Thread(target=lambda: seen.append(variant.flow)) for _ in range(2)]
    for reader in readers:
        reader.start()
    release.set()
    for reader in readers:
        reader.join()
    assert len(built) == 1
    assert seen == [built[0], built[0]]
    assert variant.flow is built[0]
    with pytest.raises(AttributeError, match="'Variant' object has no attribute 'nope'"):
        variant.nope  # noqa: B018 (an unknown attribute is still an AttributeError)


def test_options_are_typed_and_bounded() -> None:
    assert BASE.minimum == 1
    assert BASE.maximum == 1000
    loose = cap(None)
    loose.check(None)
    loose.check(1_000_000)
    for bad in (0, 1_000_001, 2.5, "3", True):
        with pytest.raises(InvalidCase):
            loose.check(bad)
    with pytest.raises(InvalidCase, match="true or false"):
        HINTS.check(1)
    with pytest.raises(ValueError, match="nullable"):
        number("x", BASE.label, default=None, minimum=0, maximum=1)
    assert not Option("x", 3, BASE.label, 1, 5).is_flag


def test_validating_merges_the_defaults_and_keeps_or_refuses_unknown_keys() -> None:
    options = (BASE, flag("house_rule", HINTS.label))
    assert validate_options(options, {}) == {"base": 1, "house_rule": False}
    assert validate_options(options, {"music": "loud"})["music"] == "loud"
    with pytest.raises(InvalidCase, match="unknown option 'music'"):
        validate_options(options, {"music": "loud"}, keep_unknown=False)
    with pytest.raises(InvalidCase, match="an object"):
        validate_options(options, [1])


def test_every_default_passes_its_own_check() -> None:
    for variant in JUDGED.values():
        for option in variant.options:
            option.check(option.default)
        assert variant.validate_options({}) == variant.default_options


# --- the state is a value -------------------------------------------------------------------


def dealt() -> tuple:
    return new_round(variant=VARIANTS["changchun"], seed=seed_from_text("registry"), dealer=0)


def test_a_handed_out_state_lists_its_turns_offers_and_a_changed_copy_drops_them() -> None:
    state, _ = dealt()
    assert isinstance(state.phase, TurnPhase)
    assert state.offers is not None
    assert list(state.offers) == legal_actions(state, 0)
    assert replace(state, kongs=0).offers is None
    assert dataclasses.replace(state, kongs=0).offers is None
    fresh = replace(state, kongs=0)
    assert legal_actions(fresh, 0) == legal_actions(state, 0)  # computed again, the same
    assert fresh == state  # the offers follow from the state: no part of comparisons


def test_apply_builds_a_new_state_and_leaves_its_input_as_it_was() -> None:
    state, _ = dealt()
    before = dict(state.__dict__)
    after, _ = apply(state, legal_actions(state, 0)[-1])
    assert state.__dict__ == before
    assert after is not state
    assert after.version == state.version + 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        after.version = 7  # type: ignore[misc]


def test_a_stored_state_keeps_its_variants_key_and_lists_its_offers_again() -> None:
    state, _ = dealt()
    data = json.loads(json.dumps(state_to_json(state)))
    assert data["variant"] == "changchun"
    assert "offers" not in data
    restored = state_from_json(data)
    assert restored.variant is VARIANTS["changchun"]
    assert restored == state
    assert restored.offers == state.offers
    data["variant"] = "taiwan17"
    with pytest.raises(RulesError):
        state_from_json(data)


def test_the_engine_is_handed_a_variant_object() -> None:
    variant: Variant = VARIANTS["siping"]
    state, events = new_round(variant=variant, seed=seed_from_text("handed"), dealer=1)
    assert state.variant is variant
    assert events[0].to_json()["variant"] == "siping"
    assert state.options == variant.default_options
    with pytest.raises(InvalidCase):
        new_round(variant=variant, seed=seed_from_text("x"), dealer=0, options={"base": 0})
