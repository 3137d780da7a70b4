"""The one service that changes a round, and the seat/match services around it."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from rules.registry import VARIANTS
from tables import gameplay, rooms
from tables.errors import TableError
from tables.game import commands, store
from tables.models import Match, Round, RoundAction, RoundEvent, Seat
from tables.signals import round_finished
from tests.tables.helpers import act, decider, first_legal, fresh, state_of

pytestmark = pytest.mark.django_db


def _seqs(rnd: Round) -> list[int]:
    return list(RoundEvent.objects.filter(round=rnd).order_by("seq").values_list("seq", flat=True))


def test_four_ready_players_start_a_match_with_a_committed_secret_seed(playing: Round) -> None:
    assert playing.match.status == Match.Status.PLAYING
    assert playing.number == 1
    assert playing.status == Round.Status.PLAYING
    assert len(playing.seed) == 64
    assert len(playing.commitment) == 64
    assert playing.commitment == state_of(playing).commitment
    assert _seqs(playing) == list(range(1, playing.last_seq + 1))
    assert playing.deadline is not None
    assert not Seat.objects.filter(room=playing.match.room, ready=True).exists()


def test_a_match_does_not_start_until_all_four_are_ready(seated: Any, players: list[Any]) -> None:
    for user in players[:3]:
        rooms.seat_set_ready(room=seated, user=user)
    assert not Match.objects.filter(room=seated).exists()


def test_a_legal_action_appends_events_with_consecutive_seq(playing: Round) -> None:
    seat = decider(playing)
    before = fresh(playing)
    outcome = act(playing, seat, first_legal(playing, seat))
    after = fresh(playing)
    assert outcome.ok
    assert after.version == before.version + 1
    assert after.last_seq > before.last_seq
    # What the client is told is the decision's token (the last event before it), never the
    # state's version, which counts every pass.
    assert outcome.version == after.decision_version == after.last_seq
    assert _seqs(after) == list(range(1, after.last_seq + 1))
    assert after.action_count == 1
    assert [a.source for a in after.log.all()] == ["player"]


def test_an_illegal_action_is_refused_and_changes_nothing(playing: Round) -> None:
    seat = decider(playing)
    other = (seat + 1) % 4
    before = fresh(playing)
    held = gameplay.seat_view(state_of(playing), other)["seats"][other]["concealed"][0]
    outcome = act(playing, other, {"kind": "discard", "tile": held})
    after = fresh(playing)
    assert not outcome.ok
    assert outcome.code == "illegal"
    assert (after.version, after.last_seq, after.action_count) == (
        before.version,
        before.last_seq,
        before.action_count,
    )


def test_a_retried_client_action_id_returns_the_first_outcome_and_changes_nothing(
    playing: Round,
) -> None:
    seat = decider(playing)
    action = first_legal(playing, seat)
    first = act(playing, seat, action, cid="same-id")
    middle = fresh(playing)
    again = act(playing, seat, action, cid="same-id")
    assert first.ok
    assert again.ok
    assert again.duplicate
    assert (again.version, again.seq) == (first.version, first.seq)
    assert fresh(playing).version == middle.version
    assert RoundAction.objects.filter(round=playing, client_action_id="same-id").count() == 1


def test_an_action_naming_another_seat_is_refused_as_forged(playing: Round) -> None:
    seat = decider(playing)
    action = {**first_legal(playing, seat), "seat": (seat + 1) % 4}
    outcome = act(playing, seat, action)
    assert not outcome.ok
    assert outcome.code == "bad_action"


@pytest.mark.parametrize(
    "garbage",
    [{"kind": "teleport"}, {"kind": "discard", "tile": "9x"}, {"kind": "discard"}, "discard"],
)
def test_malformed_actions_are_refused(playing: Round, garbage: Any) -> None:
    outcome = act(playing, decider(playing), garbage)
    assert not outcome.ok
    assert outcome.code == "bad_action"
    assert fresh(playing).version == playing.version


def test_a_click_for_an_earlier_decision_is_refused_as_stale(playing: Round) -> None:
    seat = decider(playing)
    act(playing, seat, first_legal(playing, seat))
    nxt = fresh(playing)
    seat2 = decider(nxt)
    outcome = commands.round_apply_action(
        round_id=nxt.pk,
        seat=seat2,
        action_json=first_legal(nxt, seat2),
        client_action_id="late",
        expected_version=nxt.decision_version - 1,
    )
    assert not outcome.ok
    assert outcome.code == "stale"


def test_the_stored_snapshot_and_the_replay_from_the_seed_agree(playing: Round) -> None:
    moves = store.SNAPSHOT_EVERY + 4
    for _ in range(moves):
        seat = decider(playing)
        assert act(playing, seat, first_legal(playing, seat)).ok
    stored = fresh(playing)
    # The snapshot is a cache written every SNAPSHOT_EVERY actions; the log holds every action.
    assert (stored.action_count, stored.state_actions) == (moves, store.SNAPSHOT_EVERY)
    assert [a.n for a in stored.log.all()] == list(range(1, moves + 1))
    live = state_of(playing)
    gameplay.cache_clear()
    from_snapshot = state_of(playing)  # the snapshot and the 4 logged actions after it
    assert from_snapshot == live
    assert store.replay_state(fresh(playing)) == live


@pytest.mark.parametrize("moves_before", [1, store.SNAPSHOT_EVERY - 1])
def test_a_read_of_a_round_that_moves_meanwhile_gives_the_state_it_read(
    playing: Round, moves_before: int
) -> None:
    """A resync reads the round row, then its log, without the round's lock: a move committed
    in between (the clock's timeout, another seat) must not make the replay overshoot the row's
    version (it raised "replay … reached version 2, not 1" and killed the socket). The log is
    append-only, so the first ``action_count`` actions are the state the row names. The second
    case crosses a snapshot: the row read has none, the store has one past it."""
    for _ in range(moves_before):
        seat = decider(playing)
        assert act(playing, seat, first_legal(playing, seat)).ok
    read = fresh(playing)
    expected = state_of(playing)
    for _ in range(2):  # the round moves on after the reader read the row
        seat = decider(playing)
        assert act(playing, seat, first_legal(playing, seat)).ok
    gameplay.cache_clear()
    assert fresh(playing).version > read.version
    state = store.load_state(read)
    assert state == expected
    assert state.version == read.version


def test_every_viewer_reads_back_the_redaction_it_was_sent(playing: Round) -> None:
    """Event views are stored once per distinct view (a seat's only where it differs from the
    spectator's); what each viewer reads back is the engine's redaction for it."""
    for _ in range(8):
        seat = decider(playing)
        assert act(playing, seat, first_legal(playing, seat)).ok
    events = [e for step in store.replay_steps(fresh(playing)) for e in step.events]
    rows = list(RoundEvent.objects.filter(round=playing).order_by("seq"))
    assert len(rows) == len(events)
    for row, event in zip(rows, events, strict=True):
        for key, view in gameplay.event_views(event).items():
            assert gameplay.stored_view(row.views, key) == view
    assert any(len(row.views) < len(gameplay.VIEWERS) for row in rows)


def _play_out(rnd: Round) -> Round:
    """Play a round to its end, every decision as a timeout would take it."""
    for _ in range(600):
        rnd = fresh(rnd)
        if rnd.status != Round.Status.PLAYING:
            return rnd
        state = state_of(rnd)
        for seat in gameplay.deciders(state):
            action = gameplay.action_json(gameplay.default_action(state_of(rnd), seat))
            if seat in gameplay.deciders(state_of(rnd)):
                assert act(rnd, seat, action).ok
    raise AssertionError("the round did not end")


def test_a_finished_round_stores_its_result_and_sends_round_finished(
    playing: Round, players: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    heard: list[Round] = []

    def listener(sender: Any, round: Round, **kwargs: Any) -> None:
        heard.append(round)

    round_finished.connect(listener)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            ended = _play_out(playing)
    finally:
        round_finished.disconnect(listener)
    assert ended.status == Round.Status.ENDED
    assert ended.deadline is None
    assert ended.result is not None
    assert sum(ended.result["nets"]) == 0
    assert [r.pk for r in heard] == [ended.pk]
    # The next round starts when the four press ready again, dealt by the engine's next dealer.
    for user in players:
        rooms.seat_set_ready(room=ended.match.room, user=user)
    second = Round.objects.get(match=ended.match, number=2)
    assert second.dealer == ended.result["next_dealer"]


def test_an_action_after_the_end_is_refused(playing: Round) -> None:
    ended = _play_out(playing)
    outcome = act(ended, 0, {"kind": "pass"})
    assert not outcome.ok
    assert outcome.code == "round_over"


def test_leaving_during_a_match_ends_it(playing: Round, players: list[Any]) -> None:
    rooms.seat_leave(room=playing.match.room, user=players[2])
    assert fresh(playing).status == Round.Status.ABORTED
    match = Match.objects.get(pk=playing.match_id)
    assert match.status == Match.Status.FINISHED
    assert match.end_reason == "player_left"


def test_a_voided_round_never_reveals_its_seed(playing: Round, players: list[Any]) -> None:
    """Every hand of a voided round could once be rebuilt from its seed: it stays hidden."""
    from tables import selectors

    rooms.seat_leave(room=playing.match.room, user=players[2])
    voided = fresh(playing)
    for viewer in (0, 1, None):
        snapshot = selectors.snapshot_message(voided, store.load_state(voided), viewer)
        assert snapshot["seed"] is None
        assert voided.seed not in json.dumps(snapshot)


def test_a_player_holds_one_seat_per_table(seated: Any, players: list[Any]) -> None:
    with pytest.raises(TableError) as taken:
        rooms.seat_take(room=seated, user=players[0], index=1)
    assert taken.value.code == "already_seated"
    assert Seat.objects.filter(room=seated, user=players[0]).count() == 1


def test_a_taken_seat_cannot_be_taken_again(room: Any, players: list[Any]) -> None:
    rooms.seat_take(room=room, user=players[0], index=2)
    with pytest.raises(TableError) as taken:
        rooms.seat_take(room=room, user=players[1], index=2)
    assert taken.value.code == "seat_taken"


def test_a_stranger_cannot_sit(room: Any, make_user: Any) -> None:
    with pytest.raises(TableError) as refused:
        rooms.seat_take(room=room, user=make_user("stranger"))
    assert refused.value.code == "not_member"


def test_bots_fill_the_empty_seats_and_a_match_starts(room: Any, players: list[Any]) -> None:
    rooms.seat_take(room=room, user=players[0])
    rooms.seats_fill_with_bots(room=room, user=players[0])
    rooms.seat_set_ready(room=room, user=players[0])
    rnd = Round.objects.get(match__room=room)
    for _ in range(400):
        rnd = fresh(rnd)
        if rnd.status != Round.Status.PLAYING:
            break
        seats = gameplay.deciders(state_of(rnd))
        if 0 in seats:
            commands.round_timeout(
                round_id=rnd.pk,
                decision_version=rnd.decision_version,
                now=timezone.now() + timedelta(hours=1),
            )
        else:
            assert commands.round_autoplay(round_id=rnd.pk, version=rnd.version)
    assert fresh(rnd).status == Round.Status.ENDED


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_built_variant_plays_a_whole_round_through_the_service(
    variant: str, players: list[Any], make_club: Any
) -> None:
    club = make_club(owner=players[0], members=tuple(players[1:]))
    room = rooms.room_create(user=players[0], club=club, name=variant, variant=variant)
    for index, user in enumerate(players):
        rooms.seat_take(room=room, user=user, index=index)
        rooms.seat_set_ready(room=room, user=user)
    rnd = Round.objects.get(match__room=room)
    from tables import bots

    for _ in range(1000):
        rnd = fresh(rnd)
        if rnd.status != Round.Status.PLAYING:
            break
        state = state_of(rnd)
        seat = gameplay.deciders(state)[0]
        action = gameplay.action_json(bots.choose_action(state, seat))
        assert act(rnd, seat, action).ok
    ended = fresh(rnd)
    assert ended.status == Round.Status.ENDED
    assert sum(ended.result["nets"]) == 0


def test_a_state_cached_by_a_rolled_back_move_is_never_served(
    playing: Round, django_capture_on_commit_callbacks: Any
) -> None:
    """States are cached only once their transaction committed: a move whose transaction rolls
    back leaves nothing in the cache, and when another move then commits at the same version,
    that one is served."""
    rnd = fresh(playing)
    state, seat = state_of(rnd), decider(rnd)
    first, second = gameplay.legal_actions(state, seat)[:2]
    gameplay.cache_clear()

    class RolledBack(Exception):
        pass

    def move_then_roll_back() -> None:
        with transaction.atomic():
            assert act(rnd, seat, gameplay.action_json(first)).ok
            raise RolledBack

    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RolledBack):
        move_then_roll_back()
    assert gameplay.cached_state(rnd.pk, rnd.version + 1) is None
    with django_capture_on_commit_callbacks(execute=True):
        assert act(rnd, seat, gameplay.action_json(second)).ok  # "the other worker" commits
    served = store.load_state(fresh(rnd))
    assert gameplay.cached_state(rnd.pk, served.version) is served
    assert gameplay.dump_state(served) == gameplay.dump_state(store.replay_state(fresh(rnd)))
    rolled_back, _ = gameplay.apply(state, first)
    assert gameplay.dump_state(served) != gameplay.dump_state(rolled_back)


def test_a_closed_account_stands_up_from_its_clubs_tables(
    playing: Round, players: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        players[3].is_active = False
        players[3].save()
    assert not Seat.objects.filter(user=players[3]).exists()
    assert fresh(playing).status == Round.Status.ABORTED
    assert Match.objects.get(pk=playing.match_id).end_reason == rooms.LEFT_CLUB


def test_a_member_who_stays_keeps_the_seat(playing: Round, players: list[Any]) -> None:
    assert rooms.member_lost(club_id=playing.match.room.club_id, user_id=players[1].pk) == []
    assert Seat.objects.filter(user=players[1]).exists()
