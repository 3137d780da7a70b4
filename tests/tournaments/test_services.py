"""Event services: seating persisted, idempotent start, rounds advancing to final
standings, pause, the round clock, re-seating a no-show, ending, and who may do what."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from tables.errors import TableError
from tables.models import (
    Entrant,
    Match,
    Notification,
    Room,
    Round,
    Seat,
    Tournament,
    TournamentRound,
    TournamentTable,
)
from tables.tournaments import services
from tests.tournaments.helpers import expected_points, play_out, seated_sets

pytestmark = pytest.mark.django_db


def _event(club: Any, admin: Any, members: list[Any], **fields: Any) -> Tournament:
    fields.setdefault("rounds", 2)
    fields.setdefault("hands_per_round", 1)
    fields.setdefault("bot_level", "easy")
    t = services.tournament_create(
        user=admin, club=club, name="周末赛", variant="changchun", **fields
    )
    for user in members:
        services.tournament_register(tournament=t, user=user)
    return t


def test_only_club_admins_create_and_run_events(club, admin_user, members):
    with pytest.raises(TableError) as refused:
        services.tournament_create(user=members[0], club=club, name="x", variant="changchun")
    assert refused.value.code == "not_manager"
    t = _event(club, admin_user, members)
    for call in (
        lambda: services.tournament_start(tournament=t, actor=members[0]),
        lambda: services.tournament_pause(tournament=t, actor=members[0]),
        lambda: services.tournament_end(tournament=t, actor=members[0]),
        lambda: services.tournament_bots_add(tournament=t, actor=members[0], count=4),
    ):
        with pytest.raises(TableError):
            call()
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.REGISTRATION


def test_registration_is_idempotent_and_closes(club, admin_user, members, make_user):
    t = _event(club, admin_user, members[:2])
    again = services.tournament_register(tournament=t, user=members[0])
    assert Entrant.objects.filter(tournament=t).count() == 2
    assert again.user == members[0]
    services.tournament_registration_set(tournament=t, actor=admin_user, open=False)
    with pytest.raises(TableError) as refused:
        services.tournament_register(tournament=t, user=members[2])
    assert refused.value.code == "registration_closed"
    with pytest.raises(TableError) as outsider:
        services.tournament_register(tournament=t, user=make_user("stranger"))
    assert outsider.value.code in {"not_member", "registration_closed"}
    assert services.tournament_unregister(tournament=t, user=members[0])
    assert Entrant.objects.filter(tournament=t).count() == 1


def test_the_room_options_and_points_are_checked(club, admin_user):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        services.tournament_create(
            user=admin_user, club=club, name="x", variant="changchun", spectator_delay_s=5000
        )
    with pytest.raises(TableError):
        services.tournament_create(
            user=admin_user,
            club=club,
            name="x",
            variant="changchun",
            placement_points=(1, 3, -1, -3),
        )


def test_start_seats_three_tables_persists_them_and_tells_each_player(club, admin_user, members):
    t = _event(club, admin_user, members)
    services.tournament_bots_add(tournament=t, actor=admin_user, count=4)
    services.tournament_start(tournament=t, actor=admin_user)
    services.tournament_start(tournament=t, actor=admin_user)  # a second click: nothing new
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING
    assert t.current_round == 1
    assert TournamentRound.objects.filter(tournament=t).count() == 1
    tables = list(TournamentTable.objects.filter(round__tournament=t))
    assert len(tables) == 3
    seated = [e for table in tables for e in table.seats]
    assert sorted(seated) == sorted(
        Entrant.objects.filter(tournament=t).values_list("pk", flat=True)
    )
    for table in tables:
        match = table.match
        assert match is not None
        assert match.status == Match.Status.PLAYING
        assert match.hands_limit == 1
        assert table.room.spectator_delay_s == 180  # the event's delay (default 3 minutes)
        seats = {s.index: s for s in Seat.objects.filter(room=table.room)}
        for index, entrant_id in enumerate(table.seats):
            entrant = Entrant.objects.get(pk=entrant_id)
            assert seats[index].user_id == entrant.user_id
            assert seats[index].is_bot == entrant.is_bot
        first = Round.objects.get(match=match)
        assert first.dealer == 0  # East deals first
    for user in members:
        note = Notification.objects.get(user=user)
        table = next(
            x for x in tables if Entrant.objects.get(tournament=t, user=user).pk in x.seats
        )
        wind = "东南西北"[table.seats.index(Entrant.objects.get(tournament=t, user=user).pk)]
        assert note.text == f"周末赛 第 1 轮：你在 {table.number} 号桌，{wind}位"
        assert note.link == f"/tables/{table.room_id}/"
    # The advance sweep does nothing while the tables play.
    assert services.tournament_advance(tournament_id=t.pk) == ""


def test_an_event_plays_its_rounds_to_final_standings(club, admin_user, members):
    t = _event(club, admin_user, members)
    services.tournament_bots_add(tournament=t, actor=admin_user, count=4)
    services.tournament_start(tournament=t, actor=admin_user)
    play_out(t)
    # A finished table's room is closed to a new match: pressing ready starts nothing.
    table = TournamentTable.objects.filter(round__tournament=t).first()
    assert table is not None
    assert services.tournament_advance(tournament_id=t.pk) == "seated"
    assert services.tournament_advance(tournament_id=t.pk) == ""  # idempotent
    assert Room.objects.get(pk=table.room_id).status == Room.Status.CLOSED
    first, second = seated_sets(t, 1), seated_sets(t, 2)
    assert len(second) == 3
    assert not set(first) & set(second)  # no round-1 table sits together again
    play_out(t)
    assert services.tournament_advance(tournament_id=t.pk) == "finished"
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    expected = expected_points(t)
    rows = services.standings_of(t)
    assert {r.entrant_id: (r.points, r.score) for r in rows} == expected
    order = [(-r.points, -r.score) for r in rows]
    assert order == sorted(order)
    assert next(r.rank for r in rows) == 1
    assert services.tournament_advance(tournament_id=t.pk) == ""


def test_the_clock_sweep_starts_at_the_start_time(club, admin_user, members):
    t = _event(club, admin_user, members, starts_at=timezone.now() + timedelta(minutes=5))
    assert services.sweep_tournaments() == []
    later = timezone.now() + timedelta(minutes=6)
    assert services.sweep_tournaments(now=later) == [(t.pk, "started")]
    assert TournamentTable.objects.filter(round__tournament=t).count() == 2


def test_pause_stops_the_schedule_and_resume_moves_the_clock(club, admin_user, members):
    t = _event(club, admin_user, members, round_clock_min=30)
    services.tournament_start(tournament=t, actor=admin_user)
    the_round = TournamentRound.objects.get(tournament=t)
    ends = the_round.clock_ends_at
    services.tournament_pause(tournament=t, actor=admin_user)
    services.tournament_pause(tournament=t, actor=admin_user)
    play_out(t)
    assert services.tournament_advance(tournament_id=t.pk) == ""  # paused: nothing seated
    assert TournamentRound.objects.filter(tournament=t).count() == 1
    Tournament.objects.filter(pk=t.pk).update(paused_at=timezone.now() - timedelta(minutes=10))
    services.tournament_resume(tournament=t, actor=admin_user)
    the_round.refresh_from_db()
    assert the_round.clock_ends_at - ends >= timedelta(minutes=9)
    assert services.tournament_advance(tournament_id=t.pk) == "seated"


def test_the_round_clock_ends_each_table_after_its_hand(club, admin_user, members):
    t = _event(club, admin_user, members, round_clock_min=1, hands_per_round=8)
    services.tournament_start(tournament=t, actor=admin_user)
    later = timezone.now() + timedelta(minutes=2)
    assert services.tournament_advance(tournament_id=t.pk, now=later) == "clock"
    assert services.tournament_advance(tournament_id=t.pk, now=later) == ""
    for table in TournamentTable.objects.filter(round__tournament=t):
        assert table.match is not None
        assert table.match.hands_limit == 1
    play_out(t)
    for table in TournamentTable.objects.filter(round__tournament=t):
        assert table.match is not None
        assert Round.objects.filter(match=table.match).count() == 1
    assert services.tournament_advance(tournament_id=t.pk, now=later) == "seated"


def test_a_no_show_is_replaced_by_a_bot_or_a_reserve(club, admin_user, members):
    t = _event(club, admin_user, members[:5], fill_with_bots=False)
    services.tournament_start(tournament=t, actor=admin_user)
    the_round = TournamentRound.objects.get(tournament=t)
    assert len(the_round.sitting_out) == 1
    table = TournamentTable.objects.get(round=the_round)
    no_show = Entrant.objects.get(pk=table.seats[1])
    bot = services.tournament_reseat(tournament=t, actor=admin_user, entrant=no_show)
    assert bot.is_bot
    seat = Seat.objects.get(room=table.room, index=1)
    assert seat.is_bot
    assert seat.user_id is None
    table.refresh_from_db()
    assert table.seats[1] == bot.pk
    assert Match.objects.get(pk=table.match_id).players[1] is None
    no_show.refresh_from_db()
    assert no_show.withdrawn
    # A reserve: the player sitting this round out takes the next seat.
    reserve = Entrant.objects.get(pk=the_round.sitting_out[0])
    other = Entrant.objects.get(pk=table.seats[2])
    came = services.tournament_reseat(
        tournament=t, actor=admin_user, entrant=other, reserve=reserve
    )
    assert came == reserve
    assert Seat.objects.get(room=table.room, index=2).user_id == reserve.user_id
    assert Notification.objects.filter(user=reserve.user).count() == 2  # sat out, then seated
    play_out(t)
    assert services.tournament_advance(tournament_id=t.pk) == "seated"
    round2 = TournamentTable.objects.get(round__tournament=t, round__number=2)
    assert no_show.pk not in round2.seats
    assert other.pk not in round2.seats


def test_ending_an_event_voids_the_hands_in_play_and_keeps_the_settled(club, admin_user, members):
    t = _event(club, admin_user, members)
    services.tournament_start(tournament=t, actor=admin_user)
    services.tournament_end(tournament=t, actor=admin_user)
    services.tournament_end(tournament=t, actor=admin_user)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    for table in TournamentTable.objects.filter(round__tournament=t):
        assert table.match is not None
        assert table.match.status == Match.Status.FINISHED
        assert Room.objects.get(pk=table.room_id).status == Room.Status.CLOSED
    assert all(r.points == 0 for r in services.standings_of(t))


def test_duplicate_walls_deal_every_table_the_same_hand(club, admin_user, members):
    t = _event(club, admin_user, members, duplicate_walls=True)
    services.tournament_start(tournament=t, actor=admin_user)
    firsts = Round.objects.filter(match__tournament_tables__round__tournament=t)
    assert firsts.count() == 2
    assert len({r.seed for r in firsts}) == 1
    assert len({r.commitment for r in firsts}) == 1
    the_round = TournamentRound.objects.get(tournament=t)
    assert the_round.wall_seed
    assert the_round.wall_seed not in {r.seed for r in firsts}


def test_a_player_is_told_in_their_own_language(club, admin_user, members):
    members[0].language = "en"
    members[0].save(update_fields=["language"])
    t = _event(club, admin_user, members[:4], rounds=1)
    services.tournament_start(tournament=t, actor=admin_user)
    table = TournamentTable.objects.get(round__tournament=t)
    entrant = Entrant.objects.get(tournament=t, user=members[0])
    wind = ("East", "South", "West", "North")[table.seats.index(entrant.pk)]
    note = Notification.objects.get(user=members[0])
    assert note.text == f"周末赛 round 1: you are at table 1, {wind} seat"


def test_a_duplicate_wall_stays_unpublished_while_another_table_plays_it(
    client, club, admin_user, members
):
    from tables.game import commands

    t = _event(club, admin_user, members, duplicate_walls=True)
    services.tournament_start(tournament=t, actor=admin_user)
    first, _second = TournamentTable.objects.filter(round__tournament=t).order_by("number")
    Seat.objects.filter(room=first.room, is_bot=False).update(auto_play=True)
    done = Round.objects.get(match=first.match)
    for _ in range(2000):
        done.refresh_from_db()
        if done.status != Round.Status.PLAYING:
            break
        commands.round_autoplay(round_id=done.pk, version=done.version)
    assert done.status == Round.Status.ENDED
    client.force_login(members[0])
    replay = f"/scoring/rounds/{done.pk}/replay/"
    assert client.get(replay).status_code == 403
    assert client.get(f"/api/rounds/{done.pk}/").json()["seed"] is None
    assert client.get(f"/api/rounds/{done.pk}/events/").status_code == 403
    play_out(t)
    assert client.get(replay).status_code == 200
    assert client.get(f"/api/rounds/{done.pk}/").json()["seed"] == done.seed


def test_the_round_clock_ends_a_table_between_hands_at_once(club, admin_user, members):
    from tables.game import commands

    t = _event(club, admin_user, members[:4], hands_per_round=3, round_clock_min=1)
    services.tournament_start(tournament=t, actor=admin_user)
    table = TournamentTable.objects.get(round__tournament=t)
    Seat.objects.filter(room=table.room, is_bot=False).update(auto_play=True)
    first = Round.objects.get(match=table.match)
    for _ in range(2000):  # the first hand only; the settlement pause follows
        first.refresh_from_db()
        if first.status != Round.Status.PLAYING:
            break
        commands.round_autoplay(round_id=first.pk, version=first.version)
    assert first.status == Round.Status.ENDED
    match = Match.objects.get(pk=table.match_id)
    assert match.status == Match.Status.PLAYING  # two more hands to go
    later = timezone.now() + timedelta(minutes=2)
    assert services.tournament_advance(tournament_id=t.pk, now=later) == "clock"
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.hands_limit == 1
    assert services.tournament_advance(tournament_id=t.pk, now=later) == "seated"


def test_round_one_seeded_by_rating_spreads_the_best(club, admin_user, members):
    """Round 1 by rating (the club's OpenSkill ratings, ``scoring.ratings``) is seated in snake
    order: the best and the fourth best share a table, the second and third the other."""
    from django.utils import timezone as tz

    from scoring.models import RatingState

    for i, user in enumerate(members):
        RatingState.objects.create(
            club=club,
            variant="changchun",
            user=user,
            mu=40.0 - 2 * i,
            sigma=2.0,
            games=30,
            updated_at=tz.now(),
        )
    t = _event(club, admin_user, list(reversed(members)), round1="rating")
    services.tournament_start(tournament=t, actor=admin_user)
    ids = {e.user_id: e.pk for e in Entrant.objects.filter(tournament=t)}
    expected = {
        frozenset(ids[members[i].pk] for i in (0, 3, 4, 7)),
        frozenset(ids[members[i].pk] for i in (1, 2, 5, 6)),
    }
    assert set(seated_sets(t, 1)) == expected


def test_a_seating_cut_short_leaves_nothing_and_the_next_sweep_seats_it(
    club, admin_user, members, monkeypatch
):
    """A worker or clock that dies while seating a round (here: an error at the second table)
    leaves no half-seated round: the whole step was one transaction, and the next sweep seats
    the round in full."""
    t = _event(club, admin_user, members)
    services.tournament_bots_add(tournament=t, actor=admin_user, count=4)
    services.tournament_start(tournament=t, actor=admin_user)
    play_out(t)
    real = services._table_open
    calls = {"n": 0}

    def dying(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 2:
            raise RuntimeError("killed")
        return real(*args, **kwargs)

    monkeypatch.setattr(services, "_table_open", dying)
    rooms_before = Room.objects.count()
    with pytest.raises(RuntimeError):
        services.tournament_advance(tournament_id=t.pk)
    assert not TournamentRound.objects.filter(tournament=t, number=2).exists()
    assert Room.objects.count() == rooms_before
    assert TournamentRound.objects.get(tournament=t, number=1).status == "playing"
    monkeypatch.setattr(services, "_table_open", real)
    assert services.sweep_tournaments() == [(t.pk, "seated")]
    assert len(seated_sets(t, 2)) == 3
    assert Notification.objects.filter(user=members[0]).count() == 2  # rounds 1 and 2, once
