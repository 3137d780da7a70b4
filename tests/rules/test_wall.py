"""The wall: DRBG, shuffle, dice, break point, deal, reserve and the fairness commitment."""

from __future__ import annotations

import hashlib
import hmac
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from rules.tiles import full_set, tile_name
from rules.wall import (
    Drbg,
    break_point,
    build_wall,
    canonical_wall_bytes,
    commitment,
    deal,
    live_limit,
    seed_from_text,
    shuffle,
    stack_top_from_far,
    verify,
    verify_main,
)

ROOT = Path(__file__).resolve().parents[2]


def reference_shuffle(seed: bytes, n_tiles: list[int]) -> list[int]:
    """The module docstring's algorithm, written again from the text (independent of Drbg)."""
    words: list[int] = []

    def word(i: int) -> int:
        while len(words) <= i:
            block = hmac.new(seed, (len(words) // 8).to_bytes(8, "big"), hashlib.sha256).digest()
            words.extend(int.from_bytes(block[k : k + 4], "big") for k in range(0, 32, 4))
        return words[i]

    counter = 0
    out = list(n_tiles)
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        limit = (2**32 // n) * n
        while True:
            x = word(counter)
            counter += 1
            if x < limit:
                break
        j = x % n
        out[i], out[j] = out[j], out[i]
    return out


def test_known_answer_pins_the_wall_for_the_zero_seed() -> None:
    setup = build_wall(bytes(32), range(34), dealer=0)
    first = ",".join(tile_name(t) for t in setup.wall[:16])
    assert first == "9p,7s,7m,4p,1p,2s,7s,3p,3z,6z,4z,9s,5s,3m,8s,9p"
    assert setup.dice == (6, 5)
    assert setup.commitment == "6738afd5806e5f9d94e90b030f6e186ca0e747b99ba3dd99369c4761dec1ff5f"


def test_the_documented_algorithm_reproduces_the_shuffle() -> None:
    seed = seed_from_text("queyou")
    tiles = full_set(range(34))
    assert list(shuffle(tiles, Drbg(seed))) == reference_shuffle(seed, tiles)


def test_same_seed_same_wall_and_different_seed_different_wall() -> None:
    a = build_wall(seed_from_text("a"), range(34), 0)
    assert build_wall(seed_from_text("a"), range(34), 0) == a
    assert build_wall(seed_from_text("b"), range(34), 0).wall != a.wall


def test_the_shuffle_keeps_every_tile() -> None:
    setup = build_wall(seed_from_text("x"), range(34), 1)
    assert Counter(setup.wall) == Counter(full_set(range(34)))
    assert len(setup.wall) == 136


def test_randbelow_stays_in_range_and_rejects_bad_bounds() -> None:
    drbg = Drbg(bytes(32))
    values = {drbg.randbelow(6) for _ in range(500)}
    assert values == set(range(6))
    with pytest.raises(ValueError, match="randbelow"):
        drbg.randbelow(0)


def test_the_drbg_resumes_from_a_stored_counter() -> None:
    a = Drbg(bytes(32))
    [a.randbelow(100) for _ in range(13)]
    b = Drbg(bytes(32), a.counter)
    assert [a.randbelow(1000) for _ in range(5)] == [b.randbelow(1000) for _ in range(5)]


def test_dice_are_between_one_and_six() -> None:
    dice = Drbg(seed_from_text("dice")).dice(200)
    assert set(dice) == {1, 2, 3, 4, 5, 6}


@pytest.mark.parametrize(
    ("dealer", "dice", "seat"),
    [(0, (1, 4), 0), (0, (1, 1), 1), (0, (2, 1), 2), (0, (3, 1), 3), (2, (6, 6), 1)],
)
def test_the_dice_total_counts_counter_clockwise_from_the_dealer(dealer, dice, seat) -> None:
    point = break_point(dealer, dice)
    assert point.seat == seat
    assert point.stack == sum(dice)


def test_the_deal_gives_the_dealer_14_and_the_others_13_from_the_live_end() -> None:
    wall = build_wall(seed_from_text("deal"), range(34), 2).wall
    hands = deal(wall, dealer=2)
    assert [len(h) for h in hands] == [13, 13, 14, 13]
    assert sorted(t for h in hands for t in h) == sorted(wall[:53])
    # 4-4-4 then 1 each then the dealer's extra: the dealer's first four are wall[0:4].
    assert hands[2][:4] == wall[0:4]
    assert hands[3][:4] == wall[4:8]
    assert hands[2][-1] == wall[52]


def test_a_taiwan_deal_gives_17_and_16() -> None:
    wall = tuple(range(144))
    assert [len(h) for h in deal(wall, dealer=0, hand_size=16)] == [17, 16, 16, 16]


def test_the_reserve_counts_whole_stacks_from_the_far_end() -> None:
    assert live_limit(136, far_drawn=0, reserve_stacks=7) == 122
    # One replacement draw leaves a lone tile: it is not a stack, so the reserve moves one stack.
    assert live_limit(136, far_drawn=1, reserve_stacks=7) == 120
    assert live_limit(136, far_drawn=2, reserve_stacks=7) == 120
    assert live_limit(136, far_drawn=2, reserve_stacks=8) == 118


def test_the_treasure_stack_is_counted_from_the_far_end() -> None:
    assert stack_top_from_far(136, live=60, far_drawn=0, stacks=1) == 134
    assert stack_top_from_far(136, live=60, far_drawn=1, stacks=1) == 132
    assert stack_top_from_far(136, live=60, far_drawn=0, stacks=5) == 126
    # Fewer whole stacks than the dice: the one nearest the live end.
    assert stack_top_from_far(136, live=131, far_drawn=0, stacks=12) == 132
    assert stack_top_from_far(136, live=136, far_drawn=0, stacks=3) is None


def test_the_commitment_verifies_and_detects_a_changed_wall() -> None:
    setup = build_wall(seed_from_text("commit"), range(34), 0)
    names = ",".join(tile_name(t) for t in setup.wall)
    assert canonical_wall_bytes(setup.wall) == names.encode()
    assert verify(commitment=setup.commitment, salt_hex=setup.salt.hex(), wall=names)
    swapped = list(setup.wall)
    swapped[0], swapped[-1] = swapped[-1], swapped[0]
    if swapped != list(setup.wall):
        assert not verify(commitment=setup.commitment, salt_hex=setup.salt.hex(), wall=swapped)
    assert not verify(commitment=setup.commitment, salt_hex="00" * 32, wall=names)
    assert not verify(commitment=setup.commitment, salt_hex="zz", wall=names)
    assert commitment(setup.salt, setup.wall) == setup.commitment


def test_verify_main_prints_ok_and_sets_the_exit_status(tmp_path, capsys) -> None:
    setup = build_wall(seed_from_text("cli"), range(34), 0)
    good = tmp_path / "good.json"
    data = {
        "commitment": setup.commitment,
        "salt": setup.salt.hex(),
        "wall": ",".join(tile_name(t) for t in setup.wall),
    }
    good.write_text(json.dumps(data))
    assert verify_main(str(good)) == 0
    assert json.loads(capsys.readouterr().out) == {"ok": True}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**data, "salt": "11" * 32}))
    assert verify_main(str(bad)) == 1
    assert json.loads(capsys.readouterr().out) == {"ok": False}


def test_python_m_rules_verify_reads_standard_input() -> None:
    setup = build_wall(seed_from_text("stdin"), range(34), 0)
    data = {
        "commitment": setup.commitment,
        "salt": setup.salt.hex(),
        "wall": ",".join(tile_name(t) for t in setup.wall),
    }
    done = subprocess.run(
        [sys.executable, "-m", "rules", "verify", "-"],
        input=json.dumps(data),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0
    assert json.loads(done.stdout) == {"ok": True}
