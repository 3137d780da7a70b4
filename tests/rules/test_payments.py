"""Transfers, nets and the cap (changchun.md, *Cap*)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rules.hand import Transfer
from rules.payments import cap_transfers, nets


def test_nets_sum_what_each_seat_received_minus_paid():
    transfers = [Transfer(1, 0, 8), Transfer(2, 0, 4), Transfer(0, 3, 2)]
    assert nets(transfers) == (10, -8, -4, 2)


def test_the_spec_example_gives_the_extra_point_to_the_next_seat():
    capped = cap_transfers([Transfer(p, 0, 800) for p in (1, 2, 3)], 1000)
    assert [t.amount for t in capped] == [334, 333, 333]


def test_the_remainder_follows_turn_order_after_the_capped_seat():
    capped = cap_transfers([Transfer(p, 2, 800) for p in (0, 1, 3)], 1000)
    # After seat 2 come 3, 0, 1: seat 3 gets the extra point.
    assert nets(capped) == (-333, -333, 1000, -334)


def test_a_payer_is_capped_before_the_receivers():
    # 点炮全包: seat 3 pays three shares of 600 to seat 0.
    capped = cap_transfers([Transfer(3, 0, 600)] * 3, 1000)
    assert nets(capped) == (1000, 0, 0, -1000)
    assert [t.amount for t in capped] == [334, 333, 333]


def test_a_receiver_who_also_pays_is_capped_on_the_net_gain():
    transfers = [Transfer(1, 0, 900), Transfer(2, 0, 900), Transfer(0, 3, 100)]
    assert nets(cap_transfers(transfers, 1000)) == (1000, -550, -550, 100)


def test_no_cap_leaves_the_transfers_alone():
    transfers = (Transfer(1, 0, 5000),)
    assert cap_transfers(transfers, None) == transfers


def test_amounts_below_the_cap_are_unchanged():
    transfers = (Transfer(1, 0, 8), Transfer(2, 0, 4), Transfer(3, 0, 4))
    assert cap_transfers(transfers, 1000) == transfers


transfer_lists = st.lists(
    st.builds(
        Transfer,
        payer=st.integers(0, 3),
        payee=st.integers(0, 3),
        amount=st.integers(0, 5000),
    ).filter(lambda t: t.payer != t.payee),
    max_size=12,
)


@given(transfer_lists, st.integers(1, 3000))
def test_capping_stays_zero_sum_and_within_the_cap(transfers, cap):
    capped = cap_transfers(transfers, cap)
    result = nets(capped)
    assert sum(result) == 0
    assert all(t.amount >= 0 for t in capped)
    assert min(result) >= -cap
    payers = {t.payer for t in transfers if t.amount}
    payees = {t.payee for t in transfers if t.amount}
    if not payers & payees:
        # One pass of the spec's algorithm is exact when no seat both pays and receives.
        assert max(result) <= cap
    assert all(c.amount <= t.amount for c, t in zip(capped, transfers, strict=True))
