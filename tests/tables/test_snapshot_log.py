"""A snapshot fills the page's log and names the players: the round's last events,
each as this viewer's stored redaction, and who played each seat of the match."""

from __future__ import annotations

from typing import Any

import pytest

from tables import gameplay, selectors
from tables.models import Round, RoundEvent
from tests.tables.helpers import act, first_legal, fresh, state_of

pytestmark = pytest.mark.django_db


def _play(rnd: Any, moves: int) -> None:
    for _ in range(moves):
        seat = gameplay.deciders(state_of(rnd))[0]
        assert act(rnd, seat, first_legal(rnd, seat)).ok


def test_a_snapshot_carries_the_last_events_as_this_viewer_may_see_them(playing: Any) -> None:
    _play(playing, 12)
    rnd = fresh(playing)
    state = state_of(rnd)
    stored = dict(RoundEvent.objects.filter(round=rnd).values_list("seq", "views"))
    for seat in gameplay.VIEWERS:
        message = selectors.snapshot_message(rnd, state, seat)
        events = message["events"]
        assert events, seat
        assert events[-1][0] == rnd.last_seq == message["seq"]
        assert len(events) <= selectors.RECENT_EVENTS
        key = gameplay.viewer_key(seat)
        for seq, event in events:
            assert event == gameplay.stored_view(stored[seq], key)
        # Another seat's drawn tile is never in it (the stored redaction hides it).
        for _, event in events:
            if event["kind"] == "draw" and event.get("seat") != seat:
                assert event.get("tile") is None, (seat, event)


def test_a_snapshot_carries_only_the_last_eighty_events(playing: Any) -> None:
    _play(playing, 70)
    rnd = fresh(playing)
    assert rnd.last_seq > selectors.RECENT_EVENTS
    events = selectors.snapshot_message(rnd, state_of(rnd), 0)["events"]
    seqs = [seq for seq, _ in events]
    assert seqs == list(range(rnd.last_seq - selectors.RECENT_EVENTS + 1, rnd.last_seq + 1))


def test_a_snapshot_names_who_played_each_seat_after_they_left(
    playing: Any, players: list[Any]
) -> None:
    from tables.models import Seat

    Seat.objects.filter(room_id=playing.match.room_id).delete()  # all four gone
    rnd = fresh(playing)
    message = selectors.snapshot_message(rnd, state_of(rnd), None)
    assert [p["name"] for p in message["players"]] == [u.public_name for u in players]
    assert all(p["bot"] is None for p in message["players"])


def test_a_new_rounds_snapshots_read_the_events_and_names_once(
    playing: Any, django_assert_num_queries: Any
) -> None:
    rnd = fresh(playing)
    state = state_of(rnd)
    with django_assert_num_queries(3):  # the events, the match, its players
        update = selectors.round_start_update(rnd, state, seat_users=[None] * 4)
    assert {key: len(s["events"]) > 0 for key, s in update["snapshots"].items()} == {
        gameplay.viewer_key(seat): True for seat in gameplay.VIEWERS
    }


def _play_to_the_end(rnd: Any) -> Any:
    from tables import bots

    for _ in range(1500):
        rnd = fresh(rnd)
        if rnd.status != Round.Status.PLAYING:
            return rnd
        state = state_of(rnd)
        seat = gameplay.deciders(state)[0]
        assert act(rnd, seat, gameplay.action_json(bots.choose_action(state, seat))).ok
    raise AssertionError("the round did not end")


def test_a_snapshot_during_the_next_round_carries_the_last_settlement(playing: Any) -> None:
    """A page reloaded during the next deal can still open 上一盘结算: the snapshot carries the
    match's last ended round as this viewer saw it at its end."""
    from datetime import timedelta

    from django.utils import timezone

    from tables import matches

    assert selectors.snapshot_message(fresh(playing), state_of(playing), 0)["previous"] is None
    ended = _play_to_the_end(playing)
    assert ended.status == Round.Status.ENDED
    later = timezone.now() + timedelta(minutes=5)
    second = matches.match_next_round(match_id=ended.match_id, after_number=1, now=later)
    assert second is not None
    second = fresh(second)
    for seat in (0, 2, None):
        previous = selectors.snapshot_message(second, state_of(second), seat)["previous"]
        assert previous is not None
        assert previous["round_id"] == ended.pk
        assert previous["round_number"] == 1
        assert previous["status"] == Round.Status.ENDED
        assert "seed" not in previous
        view = previous["decision"]["view"]
        assert view["phase"]["kind"] == "ended"
        assert view["result"]["nets"] == ended.result["nets"]
        assert previous["decision"] == selectors.decision_message(ended, state_of(ended), seat)
    # A new round's notification leaves it out: those pages still hold the round before.
    update = selectors.round_start_update(second, state_of(second), seat_users=[None] * 4)
    assert all(s["previous"] is None for s in update["snapshots"].values())
