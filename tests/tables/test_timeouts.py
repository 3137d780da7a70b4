"""Deadlines (Celery tasks) and the overdue sweeper: idempotent by decision version."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from config.celery import app as celery_app
from tables import gameplay, matches, rooms, tasks
from tables.game import commands
from tables.models import Round, Seat
from tests.tables.helpers import (
    act,
    decider,
    first_legal,
    fresh,
    state_of,
    table_closed,
    table_opened,
)

pytestmark = pytest.mark.django_db

LATER = timedelta(seconds=60)


def _timeout(rnd: Round, *, at: Any = None, version: int | None = None) -> bool:
    rnd = fresh(rnd)
    return commands.round_timeout(
        round_id=rnd.pk,
        decision_version=rnd.decision_version if version is None else version,
        now=at or timezone.now() + LATER,
    )


def test_the_deadline_follows_the_room_timeouts(playing: Round) -> None:
    room = playing.match.room
    granted = (playing.deadline - playing.started_at).total_seconds()
    assert abs(granted - room.turn_timeout_s) < 1


def test_nothing_happens_before_the_deadline(playing: Round) -> None:
    assert not _timeout(playing, at=timezone.now())
    assert fresh(playing).version == playing.version


def test_a_turn_timeout_discards_the_drawn_tile(playing: Round) -> None:
    seat = decider(playing)
    drawn = state_of(playing).seats[seat].drawn
    assert _timeout(playing)
    discards = gameplay.seat_view(state_of(playing), None)["seats"][seat]["discards"]
    from rules.tiles import tile_name

    assert discards[-1]["tile"] == tile_name(drawn)
    assert Seat.objects.get(room=playing.match.room, index=seat).consecutive_timeouts == 1


def test_a_late_task_for_an_old_decision_changes_nothing(playing: Round) -> None:
    old = playing.decision_version
    seat = decider(playing)
    assert act(playing, seat, first_legal(playing, seat)).ok
    moved = fresh(playing)
    assert not _timeout(playing, version=old)
    assert fresh(playing).version == moved.version


def test_the_same_timeout_twice_applies_once(playing: Round) -> None:
    version = playing.decision_version
    assert _timeout(playing, version=version)
    after = fresh(playing)
    assert not _timeout(playing, version=version)
    assert fresh(playing).version == after.version


def _seat_timeouts(rnd: Round, seat: int) -> int:
    return Seat.objects.get(room=rnd.match.room, index=seat).consecutive_timeouts


def test_two_timeouts_in_a_row_put_a_seat_in_auto_play_until_it_comes_back(
    playing: Round, players: list[Any]
) -> None:
    dealer = decider(playing)
    for _ in range(200):
        rnd = fresh(playing)
        if _seat_timeouts(rnd, dealer) >= 2 or rnd.status != Round.Status.PLAYING:
            break
        if dealer in gameplay.deciders(state_of(rnd)):
            assert _timeout(rnd)
        else:
            for seat in gameplay.deciders(state_of(rnd)):
                if seat in gameplay.deciders(state_of(rnd)):
                    act(
                        rnd,
                        seat,
                        gameplay.action_json(gameplay.default_action(state_of(rnd), seat)),
                    )
    seat = Seat.objects.get(room=playing.match.room, index=dealer)
    assert seat.auto_play
    assert seat.consecutive_timeouts == 2
    rooms.seat_back(room=playing.match.room, user=players[dealer])
    seat.refresh_from_db()
    assert not seat.auto_play
    assert seat.consecutive_timeouts == 0


def test_a_players_own_move_resets_the_timeout_count(playing: Round) -> None:
    dealer = decider(playing)
    assert _timeout(playing)
    assert _seat_timeouts(playing, dealer) == 1
    for _ in range(200):
        rnd = fresh(playing)
        deciders = gameplay.deciders(state_of(rnd))
        if dealer in deciders:
            assert act(rnd, dealer, first_legal(rnd, dealer)).ok
            break
        for seat in deciders:
            if seat in gameplay.deciders(state_of(rnd)):
                act(rnd, seat, gameplay.action_json(gameplay.default_action(state_of(rnd), seat)))
    assert _seat_timeouts(playing, dealer) == 0


def test_the_clock_times_out_overdue_decisions_only(playing: Round) -> None:
    assert commands.sweep_deadlines(now=timezone.now()) == []
    assert commands.sweep_deadlines(now=playing.deadline - timedelta(milliseconds=1)) == []
    assert commands.sweep_deadlines(now=playing.deadline) == [playing.pk]
    assert fresh(playing).version == playing.version + 1
    # The same sweep again (a duplicated beat) finds the new decision's clock still running.
    assert commands.sweep_deadlines(now=playing.deadline) == []


def test_the_clocks_deadline_job_calls_the_timeout_service(playing: Round) -> None:
    from config import clock, heartbeat

    Round.objects.filter(pk=playing.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    job = next(j for j in clock.clock_jobs() if j.beat == heartbeat.CLOCK)
    assert job.every_s == 1.0
    assert job.run() == [playing.pk]
    assert job.run() == []


def test_the_clock_runs_every_sweep(settings: Any) -> None:
    from config import clock

    jobs = {j.name: j.every_s for j in clock.clock_jobs()}
    assert jobs == {
        "deadlines": 1.0,
        "next rounds": 5.0,
        "presence": 5.0,
        "settlements": 60.0,
        "tournaments": 5.0,
        "worker ping": 5.0,
    }


def _finish(rnd: Round) -> Round:
    for _ in range(600):
        rnd = fresh(rnd)
        if rnd.status != Round.Status.PLAYING:
            return rnd
        assert _timeout(rnd)
    raise AssertionError("the round did not end")


def test_the_next_round_is_dealt_after_the_settlement_pause(playing: Round) -> None:
    ended = _finish(playing)
    soon = ended.ended_at + timedelta(seconds=2)
    assert matches.match_next_round(match_id=ended.match_id, after_number=1, now=soon) is None
    later = ended.ended_at + timedelta(seconds=commands.NEXT_ROUND_AFTER_S)
    second = matches.match_next_round(match_id=ended.match_id, after_number=1, now=later)
    assert second is not None
    assert second.number == 2
    # Idempotent: a duplicated task deals nothing more.
    assert matches.match_next_round(match_id=ended.match_id, after_number=1, now=later) is None
    assert Round.objects.filter(match=ended.match).count() == 2


def test_no_next_round_when_a_player_left(playing: Round, players: list[Any]) -> None:
    ended = _finish(playing)
    rooms.seat_leave(room=ended.match.room, user=players[1])
    later = ended.ended_at + timedelta(seconds=commands.NEXT_ROUND_AFTER_S)
    assert matches.match_next_round(match_id=ended.match_id, after_number=1, now=later) is None


def test_a_match_nobody_has_open_is_ended_not_dealt_again(
    playing: Round, players: list[Any]
) -> None:
    ended = _finish(playing)
    room = ended.match.room
    for user in players:
        table_closed(room.pk, user)
    later = ended.ended_at + timedelta(seconds=commands.NEXT_ROUND_AFTER_S)
    assert matches.match_next_round(match_id=ended.match_id, after_number=1, now=later) is None
    match = fresh(ended).match
    assert (match.status, match.end_reason) == ("finished", matches.ABANDONED_REASON)
    assert Round.objects.filter(match=match).count() == 1
    # Back at the table, four ready presses start a new match.
    for user in players:
        table_opened(room.pk, user)
        rooms.seat_set_ready(room=room, user=user)
    assert Round.objects.filter(match__room=room).exclude(match=match).count() == 1


def test_one_open_table_is_enough_to_deal_the_next_round(
    playing: Round, players: list[Any]
) -> None:
    ended = _finish(playing)
    for user in players[1:]:
        table_closed(ended.match.room_id, user)
    later = ended.ended_at + timedelta(seconds=commands.NEXT_ROUND_AFTER_S)
    assert matches.match_next_round(match_id=ended.match_id, after_number=1, now=later)


def test_the_sweeper_deals_a_next_round_whose_task_was_lost(playing: Round) -> None:
    ended = _finish(playing)
    later = ended.ended_at + timedelta(seconds=commands.NEXT_ROUND_AFTER_S + 5)
    dealt = matches.sweep_overdue(now=later)
    assert Round.objects.get(match=ended.match, number=2).pk in dealt


def test_bot_tasks_are_sent_after_the_commit_with_a_countdown_and_no_deadline_task(
    room: Any,
    players: list[Any],
    settings: Any,
    monkeypatch: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    settings.TABLES_SCHEDULE_TASKS = True
    sent: list[tuple[str, tuple[Any, ...], float]] = []
    known = {tasks.round_autoplay.name, tasks.match_next_round.name}

    def record(name: str, *, args: tuple[Any, ...], countdown: float) -> None:
        assert name in known  # the services send tasks by name: a name that exists
        sent.append((name, args, countdown))

    monkeypatch.setattr(celery_app, "send_task", record)
    rooms.seat_take(room=room, user=players[0])
    rooms.seats_fill_with_bots(room=room, user=players[0])
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        rooms.seat_set_ready(room=room, user=players[0])
        assert sent == []  # nothing leaves before the commit
    for callback in callbacks:
        callback()
    rnd = Round.objects.get(match__room=room)
    dealer = gameplay.deciders(state_of(rnd))[0]
    # The decision's clock is the beat's (sweep_deadlines); only a bot's move is a task.
    expected = (
        []
        if dealer == 0
        else [("tables.round_autoplay", (rnd.pk, rnd.version), commands.AUTO_PLAY_DELAY_S)]
    )
    assert sent == expected


def _two_asked_window() -> tuple[bytes, list[dict[str, Any]]]:
    """A seed and the default moves up to a claim window where two seats are asked."""
    from rules.wall import seed_from_text

    for k in range(500):
        seed = seed_from_text(f"claims{k}")
        state, _ = gameplay.new_round(variant="changchun", options={}, seed=seed, dealer=0)
        moves: list[dict[str, Any]] = []
        while not gameplay.is_ended(state):
            if gameplay.phase_kind(state) == "claims" and len(gameplay.deciders(state)) >= 2:
                return seed, moves
            seat = gameplay.deciders(state)[0]
            action = gameplay.default_action(state, seat)
            moves.append(gameplay.action_json(action))
            state, _ = gameplay.apply(state, action)
    raise AssertionError("no claim window with two asked seats")


def test_a_claim_window_gets_the_claim_timeout_and_keeps_its_clock_while_seats_pass(
    seated: Any,
) -> None:
    from tables.models import Match

    seed, moves = _two_asked_window()
    match = Match.objects.create(room=seated, variant="changchun", options={}, players=[])
    rnd = commands.round_start(match=match, number=1, dealer=0, seed=seed)
    for move in moves:
        assert act(rnd, move["seat"], {k: v for k, v in move.items() if k != "seat"}).ok
    opened = fresh(rnd)
    assert opened.decision_version == opened.last_seq  # the window began with its last event
    granted = (opened.deadline - timezone.now()).total_seconds()
    assert 0 < granted <= seated.claim_timeout_s
    first = gameplay.deciders(state_of(opened))[0]
    assert act(opened, first, {"kind": "pass"}).ok
    after = fresh(opened)
    assert after.version == opened.version + 1
    assert (after.deadline, after.decision_version) == (opened.deadline, opened.decision_version)
