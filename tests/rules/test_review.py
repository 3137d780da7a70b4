"""牌谱分析 (``rules.review``): the candidate analysis pinned on hand-made positions of
every variant, the marks and their thresholds, a deal-in against a declared ting, and a round the
``hard`` bot played itself, which it must agree with everywhere."""

from __future__ import annotations

from typing import Any

import pytest

from rules.engine import (
    Action,
    DeclareWin,
    Discard,
    Event,
    Pass,
    RoundState,
    apply,
    legal_actions,
    new_round,
)
from rules.engine.actions import ChooseVoid
from rules.engine.arrange import arrange_round
from rules.engine.core import seats_to_act
from rules.engine.state import ClaimPhase, EndedPhase
from rules.registry import VARIANTS
from rules.review import (
    EFFECTIVE_GAP,
    Candidate,
    bot_choice,
    candidates,
    claim_options,
    discard_marks,
    review_round,
    review_seat,
)
from rules.tiles import parse_tile, tile_name
from rules.wall import seed_from_text

T = parse_tile


def _table(
    key: str, hand: str, *, options: dict[str, Any] | None = None, voids: str = ""
) -> RoundState:
    state = arrange_round(VARIANTS[key], hands=[hand, "", "", ""], options=options)
    for seat, suit in enumerate(voids):
        state, _ = apply(state, ChooseVoid(seat=seat, suit=suit))
    return state


def _analysis(state: RoundState) -> dict[str, tuple[int, int, list[str], tuple[str, ...]]]:
    """Each candidate as (shanten, effective total, effective kinds, blocked reasons)."""
    offered = [a.tile for a in legal_actions(state, 0) if isinstance(a, Discard)]
    return {
        tile_name(c.tile): (c.shanten, c.total, [tile_name(t) for t, _ in c.effective], c.blocked)
        for c in candidates(state, 0, offered)
    }


# --- the candidates, per variant ----------------------------------------------------------------


def test_changchun_a_ready_shape_missing_a_suit_is_one_away_and_says_why() -> None:
    found = _analysis(_table("changchun", "123m456m789m1122s5z"))
    # Throwing 白 leaves 1s/2s 对倒 in shape, but 长春 needs all three suits.
    assert found["5z"] == (1, 0, [], ("missing_suit",))
    # Keeping 白: the shape is one away and the missing suit one more (the estimate).
    assert found["2s"] == (2, 15, ["1s", "2s", "3s", "4s", "5z"], ())
    assert found["1m"][0] == 2


def test_changchun_ready_waits_count_the_unseen_copies_only() -> None:
    found = _analysis(_table("changchun", "123m456p789s234s7z5z"))
    # 单调 on the other dragon: one copy in the hand, three unseen.
    assert found["5z"] == (0, 3, ["7z"], ())
    assert found["7z"] == (0, 3, ["5z"], ())
    assert found["1m"] == (2, 13, ["1m", "4m", "5z", "7z"], ())


def test_changchun_one_away_counts_only_draws_that_make_a_legal_ready_hand() -> None:
    found = _analysis(_table("changchun", "4m4m3p6p7p7p8p8p1s5s6s7s7s8s"))
    # Throwing 3p: 6p/9p/6s/9s would make the shape ready, but every such hand lacks the
    # triplet 长春 needs (the 4m pair is no dragon): no draw makes it legally ready.
    shanten, total, kinds, blocked = found["3p"]
    assert (shanten, total, kinds) == (1, 0, [])
    assert blocked == ()


def test_harbin_and_siping_a_closed_hand_cannot_win_and_siping_s_liting_lets_it() -> None:
    hand = "123m456m789p23s11s7z"
    assert _analysis(_table("harbin", hand))["1s"] == (1, 0, [], ("not_opened",))
    assert _analysis(_table("siping", hand))["1s"] == (1, 0, [], ("not_opened",))
    liting = _analysis(_table("siping", hand, options={"liting": True}))
    assert liting["1s"] == (0, 3, ["7z"], ())
    # 四平 needs a triplet (or a dragon or round-wind pair): 1s/4s on the 1s pair is refused.
    assert liting["7z"] == (1, 0, [], ("no_triplet",))


def test_siping_s_chen_zfb_has_the_hand_rules_judge_a_hand_its_shape_counts_far() -> None:
    # Two of 中发白 wait on the third under 抻中发白: the shape alone counts 56z as two tiles
    # away, the hand rules see a wait (refused here: the hand is closed).
    hand = "123m456p789s11p56z9s"
    assert _analysis(_table("siping", hand))["9s"] == (2, 8, ["1p", "5z", "6z"], ())
    chen = _analysis(_table("siping", hand, options={"chen_zfb": True}))
    assert chen["9s"] == (1, 0, [], ("not_opened",))


def test_taiyuan_lisi_has_no_condition_beyond_the_shape() -> None:
    found = _analysis(_table("taiyuan_lisi", "123m456m789p23s11s7z"))
    assert found["7z"] == (0, 6, ["1s", "4s"], ())
    assert found["1s"] == (0, 3, ["7z"], ())
    assert found["2s"] == (1, 19, ["1s", "2s", "3s", "4s", "5s", "7z"], ())


def test_taiwan16_counts_five_sets_and_a_pair() -> None:
    found = _analysis(_table("taiwan16", "123m456m789m123p45p11s9s"))
    assert found["9s"] == (0, 7, ["3p", "6p"], ())
    assert found["1p"][:2] == (1, 36)
    assert found["3p"] == (1, 7, ["3p", "6p"], ())


def test_chengma_the_void_suit_must_go_and_seven_pairs_count() -> None:
    only_void = _analysis(_table("chengma", "123m456m789m11p23p5s", voids="spmm"))
    # 打缺: the only discard allowed is the void tile, and it leaves 1p/4p.
    assert only_void == {"5s": (0, 6, ["1p", "4p"], ())}
    pairs = _analysis(_table("chengma", "11p33p55p77p99p22s4s6s", voids="mpsp"))
    assert pairs["4s"] == (0, 3, ["6s"], ())
    assert pairs["1p"] == (1, 8, ["1p", "4s", "6s"], ())


def test_a_claim_window_lists_the_hand_each_answer_leads_to() -> None:
    state = arrange_round(
        VARIANTS["changchun"], hands=["19m28p37s12z5z5m4p6s3m7z", "123m456p789s77z13s", "", ""]
    )
    state, _ = apply(state, Discard(seat=0, tile=T("7z")))
    options = {o["action"]["kind"]: o for o in claim_options(state, 1, legal_actions(state, 1))}
    assert set(options) == {"pass", "pong"}
    # Passing keeps the 2s 夹 wait (the 中 pair stands in for the triplet).
    assert (options["pass"]["shanten"], options["pass"]["discard"]) == (0, None)
    assert options["pass"]["effective"] == [["2s", 4]]
    # Ponging 中 and throwing 1s (or 3s) leaves a 单调 on the other: fewer copies to win on.
    pong = options["pong"]
    assert pong["shanten"] == 0
    assert pong["discard"] == "1s"
    assert pong["effective"] == [["3s", 3]]


# --- the marks ----------------------------------------------------------------------------------


def test_marks_more_shanten_or_clearly_fewer_effective_tiles() -> None:
    best = Candidate(T("1m"), 1, ((T("2m"), 4), (T("5m"), 4), (T("8m"), 4)))
    worse = Candidate(T("9m"), 2, ((T("2m"), 4),) * 5)
    assert discard_marks([best, worse], T("9m")) == ["shanten"]
    fewer = Candidate(T("9p"), 1, ((T("2m"), 4),))
    assert discard_marks([best, fewer], T("9p")) == ["effective"]
    assert discard_marks([best, fewer], T("1m")) == []
    # A few copies fewer is not "clearly" fewer.
    near = Candidate(T("9s"), 1, ((T("2m"), 12 - EFFECTIVE_GAP + 1),))
    assert discard_marks([best, near], T("9s")) == []


def _scripted_deal_in() -> tuple[list[RoundState], list[Action], list[list[Event]]]:
    """长春: seat 1 declares ting on 1s/4s; the dealer, far from ready, then throws 4s."""
    state = arrange_round(
        VARIANTS["changchun"],
        hands=["19m28p37s12z56z5m4p6s3m", "123m456p789s23s55z", "", ""],
        live="9m2z3z4s",
    )
    states, actions, events = [state], [], []
    while not isinstance(state.phase, EndedPhase):
        seat = seats_to_act(state)[0]
        legal = legal_actions(state, seat)
        me = state.seats[seat]
        discards = [a for a in legal if isinstance(a, Discard)]
        action: Action
        if isinstance(state.phase, ClaimPhase):
            win = [a for a in legal if isinstance(a, DeclareWin)]
            action = win[0] if win else next(a for a in legal if isinstance(a, Pass))
        elif seat == 1 and any(a.ting for a in discards):
            action = next(a for a in discards if a.ting)
        elif seat == 0 and (T("4s") in me.concealed or T("5m") in me.concealed):
            throw = T("4s") if T("4s") in me.concealed else T("5m")
            action = next(a for a in discards if a.tile == throw)
        else:
            action = next(a for a in discards if a.tile == me.drawn and not a.ting)
        state, out = apply(state, action)
        states.append(state)
        actions.append(action)
        events.append(out)
    return states, actions, events


@pytest.mark.parametrize(("bot_throws", "marked"), [("9m", True), ("4s", False)])
def test_a_deal_in_to_a_declared_ting_is_marked_when_the_bot_would_have_avoided_it(
    monkeypatch: pytest.MonkeyPatch, bot_throws: str, marked: bool
) -> None:
    """The mark depends on the bot's answer, not on how the bot defends (a stand-in bot here:
    9m is a tile seat 1 threw, 现物; 4s is the winning tile)."""
    import rules.review

    def stand_in(state: RoundState, seat: int) -> Action:
        if seat == 0 and T(bot_throws) in state.seats[0].concealed:
            return Discard(seat=0, tile=T(bot_throws))
        return legal_actions(state, seat)[0]

    monkeypatch.setattr(rules.review, "bot_choice", stand_in)
    states, actions, events = _scripted_deal_in()
    assert states[-1].result is not None
    assert states[-1].result.winner == 1
    review = review_seat(states, actions, events, 0)
    last = review["decisions"][-1]
    assert last["played"]["tile"] == "4s"
    assert last["dealt_in_to"] == [1]
    assert ("deal_in" in last["marks"]) is marked
    assert last["agree"] is not marked


def test_the_winner_of_the_scripted_deal_in_declared_ting_and_nothing_of_it_is_marked() -> None:
    states, actions, events = _scripted_deal_in()
    winner = review_seat(states, actions, events, 1)
    assert any(d["kind"] == "ting" for d in winner["decisions"])
    assert all("deal_in" not in d["marks"] for d in winner["decisions"])


def _hard_round(key: str, n: int) -> tuple[bytes, int, list[Action]]:
    """A round of ``key`` where every seat plays the review's own bot call."""
    seed = seed_from_text(f"review-test/{key}/{n}")
    state, _ = new_round(variant=VARIANTS[key], seed=seed, dealer=n % 4)
    actions: list[Action] = []
    while not isinstance(state.phase, EndedPhase):
        seat = seats_to_act(state)[0]
        legal = legal_actions(state, seat)
        action = legal[0] if len(legal) == 1 else bot_choice(state, seat)
        actions.append(action)
        state, _ = apply(state, action)
    return seed, n % 4, actions


@pytest.mark.parametrize("key", list(VARIANTS))
def test_a_round_the_hard_bot_played_agrees_everywhere_and_has_no_marks(key: str) -> None:
    seed, dealer, actions = _hard_round(key, 1)
    reviews = review_round(VARIANTS[key], seed=seed, dealer=dealer, actions=actions)
    assert set(reviews) == {0, 1, 2, 3}
    assert sum(r["count"] for r in reviews.values()) > 0
    for review in reviews.values():
        assert review["agreement"] in (None, 1.0)
        assert review["marked"] == 0
        for decision in review["decisions"]:
            assert decision["played"] == decision["bot"]
            for candidate in decision.get("candidates", ()):
                assert candidate["shanten"] >= 0
                assert candidate["total"] == sum(n for _, n in candidate["effective"])
