"""The pieces of the ``hard`` bot on hand-made positions: ready hands ranked by the
variant's payments, defence against a declared ting where the discarder pays alone, and 成麻's
定缺 and 换三张 by what is left of the hand."""

from __future__ import annotations

import random
from dataclasses import replace

from rules.bots import choose_action
from rules.bots.evaluate import HandValue, counts_of, discard_values
from rules.bots.hard import (
    HardPlayer,
    claim_worth_it,
    defends,
    rank_by_value,
    void_cost,
)
from rules.bots.policy import normal
from rules.bots.value import ready_value, win_chance, win_gain
from rules.bots.view import BotView, discard_order, passed_after_ting, read_view
from rules.engine import new_round
from rules.engine.actions import ChooseVoid, Chow, Discard, ExchangeThree
from rules.registry import VARIANTS
from rules.tiles import parse_tiles, tile_name
from rules.views import seat_view
from rules.wall import seed_from_text


def _view(variant: str, hand: str, *, seat: int = 0, dealer: int = 1) -> BotView:
    """Seat ``seat``'s view of a fresh round of ``variant``, its hand replaced by ``hand`` (its
    tiles taken out of the unseen counts) and every distinct tile of it offered as a discard."""
    state, _ = new_round(variant=VARIANTS[variant], seed=seed_from_text("hard"), dealer=dealer)
    bv = read_view(seat_view(state, seat, hints=False), state.options)
    tiles = tuple(sorted(parse_tiles(hand)))
    unseen = [4] * 34
    for t in tiles:
        unseen[t] -= 1
    legal = tuple(Discard(seat=seat, tile=t) for t in sorted(set(tiles)))
    phase = {"kind": "turn", "seat": seat}
    return replace(bv, hand=tiles, drawn=None, unseen=tuple(unseen), legal=legal, phase=phase)


def _discarded(bv: BotView, level: str) -> str:
    action = HardPlayer(bv, random.Random(0)).choose() if level == "hard" else None
    if action is None:
        action = normal(bv, random.Random(0))
    assert isinstance(action, Discard)
    return tile_name(action.tile)


# --- value -----------------------------------------------------------------------------------


def test_a_closed_wait_pays_double_in_changchun() -> None:
    """长春: 夹胡 (+1 fan) doubles every payment; a two-sided wait scores no 夹胡."""
    bv = _view("changchun", "111m234p789s55s56p8p")
    kanchan = counts_of(parse_tiles("111m234p789s55s68p"))
    ryanmen = counts_of(parse_tiles("111m234p789s55s56p"))
    (seven,) = parse_tiles("7p")
    (four,) = parse_tiles("4p")
    assert win_gain(bv, kanchan, (), seven) == 2 * win_gain(bv, ryanmen, (), four) > 0


def test_hard_waits_on_the_closed_tile_where_it_is_worth_more() -> None:
    """Ready either way: ``normal`` keeps the two-sided 56p (more winning tiles), ``hard`` the
    closed 7p wait (half the tiles, twice the points: more expected points), throwing 5p (68p
    left) or 2p (345p 68p left)."""
    bv = _view("changchun", "111m234p789s55s56p8p")
    assert _discarded(bv, "normal") == "8p"
    assert _discarded(bv, "hard") in {"2p", "5p"}


def test_ready_value_weighs_copies_less_than_proportionally() -> None:
    assert win_chance(0) == 0.0
    assert win_chance(4) < win_chance(8) < 2 * win_chance(4)
    bv = _view("changchun", "111m234p789s55s56p8p")
    hand = counts_of(parse_tiles("111m234p789s55s56p"))
    waits = tuple(parse_tiles("4p7p"))
    dead = replace(bv, unseen=tuple(0 if t in waits else n for t, n in enumerate(bv.unseen)))
    no_treasure = replace(dead, facts=replace(dead.facts, treasure_wild=False))
    assert ready_value(no_treasure, hand, (), waits) == 0.0
    assert ready_value(bv, hand, (), waits) > 0.0


def test_the_changchun_treasure_wins_on_dead_waits_and_favours_the_closed_wait() -> None:
    """长春: a declared ting wins with the treasure (摸宝, +2 fan) whatever its waits' copies, so a
    hand whose waits are all seen is still worth something, and a closed wait (夹胡, ×2) with one
    copy left beats the two-sided wait on the same tile and another (four copies), which it would
    not without the treasure."""
    bv = _view("changchun", "111m234p789s55s56p8p")
    ryanmen = counts_of(parse_tiles("111m234p789s55s56p"))
    kanchan = counts_of(parse_tiles("111m234p789s55s68p"))
    waits = tuple(parse_tiles("4p7p"))
    (seven,) = parse_tiles("7p")
    dead = replace(bv, unseen=tuple(0 if t in waits else n for t, n in enumerate(bv.unseen)))
    assert 0.0 < ready_value(dead, ryanmen, (), waits) < ready_value(bv, ryanmen, (), waits)
    one_left = replace(bv, unseen=tuple(1 if t == seven else n for t, n in enumerate(bv.unseen)))
    assert ready_value(one_left, kanchan, (), (seven,)) > ready_value(one_left, ryanmen, (), waits)
    tame = replace(one_left, facts=replace(one_left.facts, treasure_wild=False))
    assert ready_value(tame, kanchan, (), (seven,)) < ready_value(tame, ryanmen, (), waits)


def test_rank_by_value_leaves_hands_that_are_not_ready_alone() -> None:
    bv = _view("changchun", "147m258p369s1234z")
    counts = counts_of(bv.hand)
    values = discard_values(bv, counts, (), sorted(set(bv.hand)))
    ordered = sorted(values, key=lambda t: values[t].key())
    assert rank_by_value(bv, counts, ordered, values) == ordered


# --- defence ---------------------------------------------------------------------------------


def _against_ting(bv: BotView, discards: str) -> BotView:
    """``bv`` with its first opponent declared ting, having thrown ``discards``."""
    opp = replace(bv.opponents[0], ting=True, discards=tuple(parse_tiles(discards)))
    return replace(bv, opponents=(opp, *bv.opponents[1:]))


def test_defence_folds_a_far_hand_onto_the_ting_players_discard() -> None:
    """立四 (a discarder who has not declared ting pays alone): far from ready against a declared
    ting, ``hard`` throws a tile the ting player threw (现物); ``normal`` its least useful tile."""
    bv = _view("taiyuan_lisi", "159m159p159s1234z5p")
    assert defends(bv)
    safe = _against_ting(bv, "5s")
    assert _discarded(safe, "hard") == "5s"
    assert _discarded(safe, "normal") != "5s"


def test_no_folding_where_everyone_pays() -> None:
    """长春: a deal-in costs one share more, as the winner's self-draw would: ``hard`` does not
    fold (it keeps the hand ``normal`` keeps)."""
    bv = _against_ting(_view("changchun", "159m159p159s12345z5p"), "5s")
    assert not defends(bv)
    assert _discarded(bv, "hard") != "5s"


def test_taiwan_takes_the_safest_of_equal_discards() -> None:
    """台湾十六张: no fold, but among discards exactly as good (four lone winds) ``hard`` throws
    the one the ting player threw; ``normal`` takes the last in tile order."""
    bv = _view("taiwan16", "123m456m789m234p56p1234z5s")
    assert not defends(bv)
    threat = _against_ting(bv, "2z")
    assert _discarded(threat, "hard") == "2z"
    assert _discarded(threat, "normal") == "4z"


def test_defence_pushes_a_ready_hand() -> None:
    """Ready against a declared ting: ``hard`` keeps a wait, taking the safest discard that
    keeps one as good (here the ting player's own 9s)."""
    bv = _against_ting(_view("taiyuan_lisi", "123m456m789m234p5s9s"), "9s")
    assert _discarded(bv, "hard") == "9s"


# --- 成麻 定缺 / 换三张 ------------------------------------------------------------------------


def test_void_suit_between_equal_counts_by_value() -> None:
    """成麻 定缺: 123456m 2468p 1199s. p and s are held as often (four tiles each) and ``normal``'s
    connectedness ties them, so it voids p (the first); ``hard`` voids s: giving up the two
    pairs keeps 2468p, which more unseen draws improve."""
    bv = _view("chengma", "123456m2468p1199s")
    bv = replace(bv, legal=tuple(ChooseVoid(seat=0, suit=s) for s in "mps"), phase={"kind": "void"})
    counts = counts_of(bv.hand)
    assert void_cost(bv, counts, 2) < void_cost(bv, counts, 1)
    assert HardPlayer(bv, random.Random(0)).choose() == ChooseVoid(seat=0, suit="s")
    assert normal(bv, random.Random(0)) == ChooseVoid(seat=0, suit="p")


def test_void_suit_is_the_one_held_least() -> None:
    """成麻 定缺: 123456m 1479p 234s: s is held least (three tiles), so it is void, though its
    tiles make a set: ordering by the rest's shanten alone measured worse in the arena."""
    bv = _view("chengma", "123456m1479p234s")
    bv = replace(bv, legal=tuple(ChooseVoid(seat=0, suit=s) for s in "mps"), phase={"kind": "void"})
    counts = counts_of(bv.hand)
    assert void_cost(bv, counts, 1) < void_cost(bv, counts, 2)
    assert HardPlayer(bv, random.Random(0)).choose() == ChooseVoid(seat=0, suit="s")


def test_exchange_passes_the_tiles_that_keep_the_best_hand() -> None:
    """成麻 换三张: 123456m 1479p 234s; passing 1p 4p 7p (of the suit to void) keeps every set,
    passing 2s 3s 4s breaks one."""
    bv = _view("chengma", "123456m1479p234s")
    options = (
        ExchangeThree(seat=0, tiles=tuple(parse_tiles("234s"))),  # type: ignore[arg-type]
        ExchangeThree(seat=0, tiles=tuple(parse_tiles("147p"))),  # type: ignore[arg-type]
    )
    bv = replace(bv, legal=options, phase={"kind": "exchange"})
    assert HardPlayer(bv, random.Random(0)).choose() == options[1]


def test_hard_is_reachable_by_name() -> None:
    state, _ = new_round(variant=VARIANTS["chengma"], seed=seed_from_text("n"), dealer=0)
    view = seat_view(state, 0, hints=False)
    legal = view["legal_actions"]
    action = choose_action(view, level="hard", rng=random.Random(0), options=state.options)
    assert action.kind in {a["kind"] for a in legal}


# --- claims ----------------------------------------------------------------------------------


def test_claims_where_a_closed_hand_scores_only_bring_the_hand_closer() -> None:
    """台湾 (门清): a chow that only adds effective tiles keeps the hand closed under ``hard``
    (``normal`` claims it); one that lowers the shanten, or opens a hand that must be opened
    (哈尔滨, 四平), is made. 长春 claims as ``normal``: its ting sees the treasure, worth more
    than 立胡."""
    chow = Chow(seat=0, tiles=(0, 1, 2))
    now = HandValue(2, 20)
    wider = HandValue(2, 30)
    closer = HandValue(1, 10)
    assert not claim_worth_it(chow, now, wider, best_key=now.key(), must_open=False)
    assert claim_worth_it(chow, now, closer, best_key=now.key(), must_open=False)
    assert claim_worth_it(chow, now, wider, best_key=now.key(), must_open=True)
    for variant, closed_scores in (("changchun", False), ("taiwan16", True), ("chengma", False)):
        player = HardPlayer(_view(variant, "123456789m1234p"), random.Random(0))
        made = player._worth_claiming(chow, now, wider, best_key=now.key(), must_open=False)
        assert made is not closed_scores
        assert VARIANTS[variant].bots.closed_scores is closed_scores


# --- 台湾: a declared ting locks the hand --------------------------------------------------------


def _row(*tiles: str, claimed: tuple[int, ...] = (), ting: int | None = None) -> list[dict]:
    return [{"tile": t, "claimed": i in claimed, "ting": i == ting} for i, t in enumerate(tiles)]


def test_the_discard_order_is_rebuilt_from_the_rows_and_the_claims() -> None:
    """Dealer 0: 1m; 1's 7s ponged by 3 (not by 2, whose 789s chow takes 1's later 7s), 3
    declares ting on 2z; 9p, 1's 7s chowed by 2, 5p, 3m, 6m. Everything after 3's ting passed
    its locked hand; the rows alone (3's own later discards) would say only 3m."""
    seats = [
        {"discards": _row("1m", "9p", "6m"), "melds": []},
        {"discards": _row("7s", "7s", claimed=(0, 1)), "melds": []},
        {
            "discards": _row("5p"),
            "melds": [{"type": "chow", "tiles": ["7s", "8s", "9s"], "from": 1}],
        },
        {
            "discards": _row("2z", "3m", ting=0),
            "melds": [{"type": "pong", "tiles": ["7s", "7s", "7s"], "from": 1}],
        },
    ]
    assert discard_order(seats, 0) == [
        (0, 0), (1, 0), (3, 0), (0, 1), (1, 1), (2, 0), (3, 1), (0, 2)
    ]  # fmt: skip
    assert passed_after_ting(seats, 0) == {3: frozenset(parse_tiles("9p7s5p3m6m"))}
    assert discard_order(seats, 1) == []  # dealer 1 cannot have thrown these rows


def test_taiwan_plays_on_with_a_tile_the_locked_hand_let_go() -> None:
    """台湾十六张: one tile from ready (1s, 5s and 2z equally good) against a declared ting that
    has let 5s go by since: ``hard`` throws 5s (safe: a locked hand always wins when it can);
    without that knowledge the terminal 1s (the safest guess), ``normal`` the lone wind."""
    bv = _view("taiwan16", "123m456m789m234p57p1s5s2z")
    assert bv.facts.ting_locks
    assert not defends(bv)
    blind = replace(bv.opponents[0], ting=True)
    assert _discarded(replace(bv, opponents=(blind, *bv.opponents[1:])), "hard") == "1s"
    seen = replace(blind, passed=frozenset(parse_tiles("5s")))
    threat = replace(bv, opponents=(seen, *bv.opponents[1:]))
    assert _discarded(threat, "hard") == "5s"
    assert _discarded(threat, "normal") == "2z"
    assert not any(VARIANTS[v].bots.ting_locks for v in VARIANTS if v != "taiwan16")
