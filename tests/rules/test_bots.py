"""Bots: shanten and effective tiles, views-only decisions, determinism, legality,
and the duplicate arena."""

from __future__ import annotations

import json
import random
from itertools import product

import pytest

from rules.__main__ import main
from rules.arena import rotations, run_arena
from rules.bots import ALL_LEVELS, LEVELS, choose_action
from rules.bots.evaluate import danger, value_of
from rules.bots.shanten import effective_tiles, shanten, useful_kinds
from rules.bots.view import read_view
from rules.engine import apply, legal_actions, new_round
from rules.engine.core import seats_to_act
from rules.engine.state import EndedPhase, RoundState, replace
from rules.registry import VARIANTS
from rules.shapes import is_complete, shape_waits
from rules.tiles import count_tiles, parse_tiles
from rules.views import seat_view
from rules.wall import seed_from_text


def counts(text: str) -> list[int]:
    return count_tiles(parse_tiles(text))


# --- shanten -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("11122233344455m", -1),
        ("123456789m1234p", 0),
        ("1122334455667m", 0),
        ("123m456p789s1122z", 0),
        ("123m456p789s1z2z3z4z", 2),
        ("147m258p369s1234z", 8),
        ("13m46p79s1234567z", 5),
    ],
)
def test_shanten_of_known_hands(hand: str, expected: int) -> None:
    c = counts(hand)
    assert shanten(c, sum(c) // 3) == expected


def test_shanten_agrees_with_the_shape_checks_on_random_hands() -> None:
    """-1 exactly for complete hands, 0 exactly for hands with a shape wait (rules.shapes)."""
    rng = random.Random(19)
    pool = [t for t in range(34) for _ in range(4)]
    for _ in range(3000):
        hand = rng.sample(pool, 13)
        c = count_tiles(hand)
        s = shanten(c, 4)
        assert (s == 0) == bool(shape_waits(c)), hand
        extra = rng.choice([t for t in range(34) if c[t] < 4])
        c[extra] += 1
        assert (shanten(c, 4) == -1) == is_complete(c), hand


def test_effective_tiles_count_only_unseen_copies_that_lower_the_shanten() -> None:
    c = counts("123456789m1234p")  # ready on 1p and 4p
    unseen = [4] * 34
    assert effective_tiles(c, 4, unseen) == (0, 8)
    unseen[9] = 1  # three 1p seen
    assert effective_tiles(c, 4, unseen) == (0, 5)
    assert set(useful_kinds(c)) >= {9, 12}


# --- views only -------------------------------------------------------------------------------


def _decision_states(variant_key: str, seed: str, limit: int = 40) -> list[tuple[RoundState, int]]:
    """States of a round played by normal bots where some seat has a real choice."""
    state, _ = new_round(variant=VARIANTS[variant_key], seed=seed_from_text(seed), dealer=0)
    rng = random.Random(seed)
    found: list[tuple[RoundState, int]] = []
    while not isinstance(state.phase, EndedPhase) and len(found) < limit:
        seat = seats_to_act(state)[0]
        legal = legal_actions(state, seat)
        if len(legal) > 1:
            found.append((state, seat))
        view = seat_view(state, seat, hints=False)
        action = choose_action(view, level="hard", rng=rng, options=state.options)
        state, _ = apply(state, action)
    return found


def _hide_differently(state: RoundState, seat: int, rng: random.Random) -> RoundState:
    """The same round with the tiles ``seat`` cannot see dealt differently: the other seats'
    concealed tiles (their drawn tile kept) shuffled among them, and the wall left to draw
    (a treasure indicator's place kept) shuffled."""
    others = [s for s in range(4) if s != seat]
    pool: list[int] = []
    kept: dict[int, list[int]] = {}
    for s in others:
        tiles = list(state.seats[s].concealed)
        drawn = state.seats[s].drawn
        kept[s] = [drawn] if drawn is not None else []
        if drawn is not None:
            tiles.remove(drawn)
        pool += tiles
    rng.shuffle(pool)
    seats = list(state.seats)
    for s in others:
        size = len(state.seats[s].concealed) - len(kept[s])
        mine, pool = pool[:size], pool[size:]
        seats[s] = replace(seats[s], concealed=tuple(sorted(mine + kept[s])))
    wall = list(state.wall)
    fixed = {state.treasure.position} if state.treasure is not None else set()
    places = [i for i in range(state.live, len(wall) - state.far) if i not in fixed]
    rest = [wall[i] for i in places]
    rng.shuffle(rest)
    for i, tile in zip(places, rest, strict=True):
        wall[i] = tile
    return replace(state, seats=tuple(seats), wall=tuple(wall))


def _public(view: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in view.items() if k != "commitment"}


@pytest.mark.parametrize("variant_key", sorted(VARIANTS))
def test_a_bot_decides_the_same_whatever_the_hidden_tiles(variant_key: str) -> None:
    """Two rounds that differ only in tiles the seat cannot see give it the same view (the
    commitment aside) and the same decision at every level: the bot is fed the view only."""
    rng = random.Random(7)
    checked = 0
    for state, seat in _decision_states(variant_key, f"hidden-{variant_key}"):
        other = _hide_differently(state, seat, rng)
        view_a = seat_view(state, seat, hints=False)
        view_b = seat_view(other, seat, hints=False)
        assert _public(view_a) == _public(view_b)
        assert other.seats[(seat + 1) % 4].concealed != state.seats[(seat + 1) % 4].concealed or (
            other.wall != state.wall
        )
        for level in ALL_LEVELS:
            a = choose_action(view_a, level=level, rng=random.Random(1), options=state.options)
            b = choose_action(view_b, level=level, rng=random.Random(1), options=other.options)
            assert a == b
        checked += 1
    assert checked >= 20


def test_the_view_carries_no_hidden_tile() -> None:
    """What the bot reads: its own hand, and of the others only counts and public tiles."""
    state, _ = new_round(variant=VARIANTS["changchun"], seed=seed_from_text("v"), dealer=0)
    bv = read_view(seat_view(state, 1, hints=False), state.options)
    assert bv.hand == state.seats[1].concealed
    assert [o.concealed_count for o in bv.opponents] == [14, 13, 13]
    assert sum(bv.unseen) == 136 - 13


# --- decisions ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("variant_key", "level"), list(product(sorted(VARIANTS), ALL_LEVELS)))
def test_every_level_plays_whole_rounds_legally_and_deterministically(
    variant_key: str, level: str
) -> None:
    def play(seed: str) -> tuple[list[object], RoundState]:
        state, _ = new_round(variant=VARIANTS[variant_key], seed=seed_from_text(seed), dealer=1)
        rngs = [random.Random(f"{seed}/{s}") for s in range(4)]
        taken: list[object] = []
        while not isinstance(state.phase, EndedPhase):
            seat = seats_to_act(state)[0]
            view = seat_view(state, seat, hints=False)
            action = choose_action(view, level=level, rng=rngs[seat], options=state.options)
            assert action in legal_actions(state, seat)
            taken.append(action)
            state, _ = apply(state, action)
        return taken, state

    for i in range(2):
        first, end = play(f"{variant_key}-{level}-{i}")
        again, _ = play(f"{variant_key}-{level}-{i}")
        assert first == again
        assert end.result is not None


def test_normal_keeps_the_better_shape() -> None:
    """A normal bot throws a tile after which no other discard leaves a better hand."""
    state, _ = new_round(variant=VARIANTS["changchun"], seed=seed_from_text("k"), dealer=0)
    view = seat_view(state, 0, hints=False)
    bv = read_view(view, state.options)
    hand_counts = count_tiles(list(bv.hand))
    action = choose_action(view, level="normal", rng=random.Random(0), options=state.options)
    assert action.kind == "discard"
    tile = action.tile  # type: ignore[attr-defined]
    hand_counts[tile] -= 1
    after = value_of(bv, hand_counts, ())
    for other in set(bv.hand):
        c = count_tiles(list(bv.hand))
        c[other] -= 1
        assert value_of(bv, c, ()).key() >= after.key()


def test_danger_prefers_genbutsu_and_suji() -> None:
    """Against a ready opponent: a tile they threw is safest, a suji tile safer than a middle."""
    state, _ = new_round(variant=VARIANTS["changchun"], seed=seed_from_text("d"), dealer=0)
    bv = read_view(seat_view(state, 0, hints=False), state.options)
    opp = replace(bv.opponents[0], discards=(3,), ting=True)  # threw 4m
    bv = replace(bv, opponents=(opp, *bv.opponents[1:]))
    assert danger(bv, 3, [0]) < danger(bv, 0, [0]) < danger(bv, 4, [0])  # 4m < 1m(suji) < 5m
    assert danger(bv, 6, [0]) < danger(bv, 4, [0])  # 7m is suji of 4m


def test_unknown_level_is_refused() -> None:
    state, _ = new_round(variant=VARIANTS["changchun"], seed=seed_from_text("u"), dealer=0)
    with pytest.raises(ValueError, match="unknown bot level"):
        choose_action(seat_view(state, 0), level="grandmaster", rng=random.Random(0))
    assert LEVELS == ("easy", "normal", "hard")


# --- arena ------------------------------------------------------------------------------------


def test_rotations_are_the_distinct_seatings() -> None:
    assert len(rotations(["hard", "basic", "basic", "basic"])) == 4
    assert rotations(["hard", "basic", "hard", "basic"]) == [
        ("hard", "basic", "hard", "basic"),
        ("basic", "hard", "basic", "hard"),
    ]
    assert len(rotations(["easy"] * 4)) == 1


def test_arena_is_zero_sum_duplicate_and_reproducible() -> None:
    variant = VARIANTS["changchun"]
    stats, margins = run_arena(variant, ["hard", "basic", "basic", "basic"], 3, "t")
    assert stats["hard"].rounds == 12
    assert stats["basic"].rounds == 36
    assert stats["hard"].points + stats["basic"].points == 0
    assert len(margins) == 3
    assert len(stats["hard"].per_deal) == 3
    again, _ = run_arena(variant, ["hard", "basic", "basic", "basic"], 3, "t")
    assert again["hard"].points == stats["hard"].points
    assert again["hard"].wins == stats["hard"].wins


def test_arena_cli_reports_each_bot_and_the_margin(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["arena", "--variant", "harbin", "--bots", "hard,basic,hard,basic", "--rounds", "2"]
    )
    assert code == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    bots = {line["bot"]: line for line in lines if "bot" in line}
    assert set(bots) == {"hard", "basic"}
    for line in bots.values():
        assert line["seat_rounds"] == 8
        low, high = line["ci95"]
        assert low <= line["points_per_round"] <= high
        assert 0 <= line["win_rate"] <= 1
        assert 0 <= line["deal_in_rate"] <= 1
        assert line["decisions"] > 0
        assert line["decision_ms_mean"] > 0
    summary = lines[-1]
    assert summary["games"] == 4
    assert summary["margin"]["of"] == "hard - basic"


def test_arena_cli_refuses_a_bad_lineup() -> None:
    with pytest.raises(SystemExit):
        main(["arena", "--bots", "hard,basic", "--rounds", "1"])
