"""听牌提示: the wait hints of a seat's own view (``rules.hints``)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from rules.engine import Discard, RoundState, apply, legal_actions, new_round
from rules.engine.arrange import arrange_round
from rules.engine.state import ClaimPhase, DiscardRecord, TurnPhase, replace
from rules.hints import analyse_waits, seat_hint, ting_context, unseen_counts
from rules.registry import VARIANTS, judged_variant
from rules.simulate import random_bot, seats_to_act
from rules.tiles import parse_tile, tile_name
from rules.views import seat_view
from rules.wall import seed_from_text
from tests.rules.engine_helpers import T, act, eager_bot, pass_claims

READY_DEALER = "123m456p789s234s7z5z"
"""Discarding 5z waits on 7z alone (单调), discarding 7z on 5z."""


def test_a_discard_that_keeps_the_hand_ready_lists_its_waits_and_unseen_copies() -> None:
    state = arrange_round(VARIANTS["changchun"], hands=[READY_DEALER, "", "", ""])
    hint = seat_view(state, 0)["hint"]
    assert hint["mode"] == "discard"
    by_tile = {entry["tile"]: entry for entry in hint["discards"]}
    assert set(by_tile) == {"5z", "7z"}
    assert by_tile["5z"]["waits"] == [{"tile": "7z", "unseen": 3}]
    assert by_tile["5z"]["declare_ting"] is True
    assert by_tile["7z"]["waits"] == [{"tile": "5z", "unseen": 3}]


def test_a_shape_wait_the_variant_refuses_carries_its_reason() -> None:
    # No bamboo after the 9s goes: every wait is 缺门 (changchun.md, missing_suit).
    state = arrange_round(VARIANTS["changchun"], hands=["123m456m789m23m55p9s", "", "", ""])
    (entry,) = seat_view(state, 0)["hint"]["discards"]
    assert entry["tile"] == "9s"
    assert entry["waits"] == []
    assert entry["declare_ting"] is False
    assert [(b["tile"], b["reason"]) for b in entry["blocked"]] == [
        ("1m", "missing_suit"),
        ("4m", "missing_suit"),
        ("7m", "missing_suit"),
    ]


def test_after_ting_the_locked_waits_stay_up_and_a_discarded_copy_is_seen() -> None:
    state = arrange_round(
        VARIANTS["changchun"], hands=[READY_DEALER, "1m9m1p9p1s9s1z2z3z4z6z6z7z", "", ""], live="2z"
    )
    state = act(state, Discard(seat=0, tile=T("5z"), ting=True))
    state = pass_claims(state)
    hint = seat_view(state, 0)["hint"]
    assert hint == {
        "seat": 0,
        "mode": "ting",
        "waits": [{"tile": "7z", "unseen": 3}],
        "blocked": [],
    }
    # Seat 1 throws its 中: seat 0 may win on it; the hint now counts that copy as seen.
    state = act(state, Discard(seat=1, tile=T("7z")))
    assert isinstance(state.phase, ClaimPhase)
    assert seat_view(state, 0)["hint"]["waits"] == [{"tile": "7z", "unseen": 2}]


def test_a_ready_hand_between_turns_shows_its_waits() -> None:
    state = arrange_round(VARIANTS["changchun"], hands=[READY_DEALER, "", "", ""])
    state = pass_claims(act(state, Discard(seat=0, tile=T("5z"))))
    hint = seat_view(state, 0)["hint"]
    assert hint["mode"] == "ready"
    assert [w["tile"] for w in hint["waits"]] == ["7z"]


def test_no_hint_for_a_hand_that_no_discard_makes_ready() -> None:
    state = arrange_round(VARIANTS["changchun"], hands=["1m4m7m2p5p8p3s6s9s1z2z3z5z7z", "", "", ""])
    assert seat_view(state, 0)["hint"] is None


def test_the_room_option_turns_hints_off() -> None:
    state = arrange_round(
        VARIANTS["changchun"], hands=[READY_DEALER, "", "", ""], options={"hints": False}
    )
    assert "hint" not in seat_view(state, 0)
    on = arrange_round(VARIANTS["changchun"], hands=[READY_DEALER, "", "", ""])
    assert "hint" not in seat_view(on, 0, hints=False)


def test_spectators_and_other_seats_never_get_this_seats_hint() -> None:
    state = arrange_round(VARIANTS["changchun"], hands=[READY_DEALER, "", "", ""])
    assert "hint" not in seat_view(state, None)
    for viewer in (1, 2, 3):
        hint = seat_view(state, viewer).get("hint")
        assert hint is None or hint["seat"] == viewer


def test_a_face_down_discard_is_seen_only_by_its_owner() -> None:
    state = arrange_round(VARIANTS["changchun"], hands=[READY_DEALER, "", "", ""])
    state = act(state, Discard(seat=0, tile=T("5z")))
    before = unseen_counts(state, 1)[T("5z")]
    seats = list(state.seats)
    record = DiscardRecord(T("5z"), face_down=True)
    seats[0] = replace(seats[0], discards=(record,))
    hidden = replace(state, seats=tuple(seats))
    assert unseen_counts(hidden, 1)[T("5z")] == before + 1
    assert unseen_counts(hidden, 0)[T("5z")] == unseen_counts(state, 0)[T("5z")]


def _rounds(variant: str, seed: str) -> Iterator[RoundState]:
    rng = random.Random(seed)
    bot = eager_bot(rng) if seed.startswith("eager") else random_bot(rng)
    state, _ = new_round(variant=VARIANTS[variant], seed=seed_from_text(seed), dealer=0)
    yield state
    while state.result is None:
        seat = seats_to_act(state)[0]
        state, _ = apply(state, bot(legal_actions(state, seat)))
        yield state


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("seed", ["eager-h0", "eager-h1", "random-h2"])
def test_hint_waits_are_the_judges_legal_waits_over_whole_rounds(variant: str, seed: str) -> None:
    checked = 0
    for state in _rounds(variant, seed):
        phase = state.phase
        if not isinstance(phase, TurnPhase) or not phase.drawn:
            continue
        seat = phase.seat
        me = state.seats[seat]
        hint = seat_hint(state, seat)
        if me.ting:
            assert hint is not None
            assert hint["mode"] == "ting"
            assert [w["tile"] for w in hint["waits"]] == [tile_name(t) for t in me.waits]
            continue
        rules = state.variant.rules
        ting_discards = {
            a.tile for a in legal_actions(state, seat) if isinstance(a, Discard) and a.ting
        }
        entries = {parse_tile(e["tile"]): e for e in (hint or {}).get("discards", [])}
        assert ting_discards <= set(entries)
        for tile, entry in entries.items():
            ctx = ting_context(state, seat, me.without(tile), me.melds)
            verdict = rules.judge_ting(ctx)
            legal = [tile_name(t) for t in verdict.waits] if verdict.ting_allowed else []
            assert [w["tile"] for w in entry["waits"]] == legal
            assert entry["declare_ting"] == (tile in ting_discards)
            unseen = unseen_counts(state, seat)
            for wait in entry["waits"] + entry["blocked"]:
                t = parse_tile(wait["tile"])
                assert wait["unseen"] == unseen[t]
                assert 0 <= wait["unseen"] <= 4 - me.concealed.count(t)
            checked += 1
    if seed.startswith("eager") and variant != "taiyuan_lisi":
        assert checked  # eager bots get ready (Li-Si's face-down ting discards may not come)


def test_blocked_waits_give_each_tile_its_own_reason() -> None:
    state = arrange_round(VARIANTS["changchun"], hands=["123m456m789m23m55p9s", "", "", ""])
    me = state.seats[0]
    ctx = ting_context(state, 0, me.without(T("9s")), me.melds)
    rules = judged_variant("changchun").rules
    analysis = analyse_waits(rules, ctx)
    assert analysis.legal == ()
    assert analysis.ready
    verdict = rules.judge_ting(ctx)
    assert not verdict.ting_allowed
    assert verdict.reason == analysis.blocked[0][1]


def _recount_from_view(view: dict[str, object], tile: str) -> int:
    """4 minus the copies of ``tile`` this seat's own view shows: what a player could count."""
    me = view["seats"][view["you"]]  # type: ignore[index]
    seen = me["concealed"].count(tile) + (me["drawn"] == tile)
    for seat in view["seats"]:  # type: ignore[attr-defined]
        seen += sum(1 for d in seat["discards"] if d.get("tile") == tile and not d["claimed"])
        seen += sum(m.get("tiles", []).count(tile) for m in seat["melds"])
    treasure = view.get("treasure") or {}
    seen += treasure.get("tile") == tile  # type: ignore[attr-defined]
    return 4 - seen


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_unseen_counts_are_what_the_seats_own_view_shows(variant: str) -> None:
    # The count uses nothing the seat may not see: a player could recount it from the view.
    checked = 0
    states = [s for n in range(3) for s in _rounds(variant, f"eager-unseen-{variant}-{n}")]
    for state in states:
        for seat in range(4):
            view = seat_view(state, seat)
            hint = view.get("hint")
            if not hint:
                continue
            entries = hint.get("discards", [hint])
            for entry in entries:
                for wait in entry["waits"] + entry["blocked"]:
                    assert wait["unseen"] == _recount_from_view(view, wait["tile"]), wait
                    checked += 1
    assert checked
