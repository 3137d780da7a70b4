"""A club admin runs their rooms from the Django admin: options with help, close, reopen,
dissolve a running table with a reason, remove a player; never another club's."""

from __future__ import annotations

import pytest
from django.contrib.admin.models import LogEntry
from django.urls import reverse

from tables.models import Match, Room, Round, RoundEvent, Seat
from tests.api.helpers import start_round

pytestmark = pytest.mark.django_db


def room_post(club, **changes):
    data = {
        "club": club.pk,
        "name": "新桌",
        "variant": "changchun",
        "base_stake": 2,
        "turn_timeout_s": 15,
        "claim_timeout_s": 8,
        "allow_spectators": "on",
        "allow_bots": "on",
    }
    data.update(changes)
    return data


def action(client, model, name, ids, **extra):
    url = reverse(f"admin:tables_{model}_changelist")
    return client.post(
        url, {"action": name, "_selected_action": [str(i) for i in ids], **extra}, follow=True
    )


def test_the_room_form_explains_every_option_from_the_spec(manager_client):
    page = manager_client.get(reverse("admin:tables_room_add")).content.decode()
    for key in ("cap", "ting_required", "dianpao_quanbao", "dianpao_baosan", "liting", "fengang"):
        assert f'name="opt_{key}"' in page, key
    assert "spec changchun.md" in page
    assert "spec siping.md" in page


def test_options_are_saved_merged_with_the_variants_defaults(manager_client, world):
    response = manager_client.post(
        reverse("admin:tables_room_add"),
        room_post(world["a"], opt_dianpao_quanbao="on", opt_cap="500"),
    )
    assert response.status_code == 302
    room = Room.objects.get(name="新桌")
    assert room.options["base"] == 2
    assert room.options["cap"] == 500
    assert room.options["dianpao_quanbao"] is True
    assert room.options["ting_required"] is False
    assert "dianpao_baosan" not in room.options  # a Harbin option is not stored
    assert room.created_by == world["manager"]


def test_no_cap_is_stored_as_null_and_an_empty_cap_keeps_the_default(manager_client, world):
    manager_client.post(reverse("admin:tables_room_add"), room_post(world["a"], opt_no_cap="on"))
    assert Room.objects.get(name="新桌").options["cap"] is None
    manager_client.post(reverse("admin:tables_room_add"), room_post(world["a"], name="默认"))
    assert Room.objects.get(name="默认").options["cap"] == 1000


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"opt_dianpao_baosan": "on"}, "opt_dianpao_baosan"),  # a Harbin option on Changchun
        ({"opt_cap": "100", "opt_no_cap": "on"}, "opt_cap"),
        ({"opt_cap": "0"}, "opt_cap"),
        ({"opt_cap": "1000001"}, "opt_cap"),  # the option's upper bound (rules.options)
        ({"turn_timeout_s": "1"}, "turn_timeout_s"),
        ({"base_stake": "0"}, "base_stake"),
        ({"base_stake": "2147483647"}, "base_stake"),
        ({"opt_cap": str(10**12)}, "opt_cap"),
    ],
)
def test_a_bad_option_is_refused_with_a_field_error(manager_client, world, changes, field):
    response = manager_client.post(
        reverse("admin:tables_room_add"), room_post(world["a"], **changes)
    )
    assert response.status_code == 200
    assert field in response.context["adminform"].form.errors
    assert not Room.objects.filter(name="新桌").exists()


def test_editing_keeps_the_options_and_shows_them_ticked(manager_client, world):
    room = world["room_a"]
    room.options = {**room.options, "dianpao_quanbao": True, "house_rule": 7}
    room.save()
    page = manager_client.get(reverse("admin:tables_room_change", args=[room.pk]))
    form = page.context["adminform"].form
    assert form.initial["opt_dianpao_quanbao"] is True
    manager_client.post(
        reverse("admin:tables_room_change", args=[room.pk]),
        room_post(world["a"], name="A 桌", variant="siping", opt_liting="on"),
    )
    room.refresh_from_db()
    assert room.variant == "siping"
    assert room.options["liting"] is True
    assert "dianpao_quanbao" not in room.options  # a Changchun option does not follow to Siping
    assert "house_rule" not in room.options  # a key no rule reads is dropped


def test_close_and_reopen(manager_client, world):
    room = world["room_a"]
    action(manager_client, "room", "close_rooms", [room.pk])
    room.refresh_from_db()
    assert room.status == Room.Status.CLOSED
    action(manager_client, "room", "reopen_rooms", [room.pk])
    room.refresh_from_db()
    assert room.status == Room.Status.OPEN


def test_a_room_in_play_is_not_closed_but_dissolved_with_a_reason(manager_client, world):
    room = world["room_a"]
    rnd = start_round(room, world["a_players"])
    page = action(manager_client, "room", "close_rooms", [room.pk])
    assert "dissolve the table first" in page.content.decode()
    assert Room.objects.get(pk=room.pk).status == Room.Status.PLAYING

    page = action(manager_client, "room", "dissolve_tables", [room.pk], reason="")
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.PLAYING  # no reason, no action

    action(manager_client, "room", "dissolve_tables", [room.pk], reason="有人掉线")
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.ABORTED
    match = Match.objects.get(pk=rnd.match_id)
    assert match.end_reason == "dissolved"
    assert not hasattr(rnd, "settlement") or rnd.settlement is None
    event = RoundEvent.objects.get(round=rnd, kind="table_dissolved")
    assert event.views["spectator"]["reason"] == "有人掉线"
    assert event.views["spectator"]["by"] == world["manager"].public_name
    log = LogEntry.objects.get(object_id=str(room.pk), change_message__contains="有人掉线")
    assert log.user_id == world["manager"].pk


def test_dissolving_another_clubs_table_by_a_forged_post_does_nothing(manager_client, world):
    rnd = start_round(world["room_b"], world["b_players"])
    action(manager_client, "room", "dissolve_tables", [world["room_b"].pk], reason="x")
    action(manager_client, "room", "close_rooms", [world["room_b"].pk])
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.PLAYING
    assert Room.objects.get(pk=world["room_b"].pk).status == Room.Status.PLAYING


def test_removing_a_player_ends_the_match(manager_client, world):
    room = world["room_a"]
    rnd = start_round(room, world["a_players"])
    seat = Seat.objects.get(room=room, index=2)
    action(manager_client, "seat", "remove_from_seat", [seat.pk], reason="挂机")
    assert not Seat.objects.filter(pk=seat.pk).exists()
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.ABORTED
    assert Match.objects.get(pk=rnd.match_id).end_reason == "player_removed"


def test_another_clubs_seats_rooms_and_matches_are_not_reachable_by_url(manager_client, world):
    rnd = start_round(world["room_b"], world["b_players"])
    seat_b = Seat.objects.filter(room=world["room_b"]).first()
    for url in (
        reverse("admin:tables_room_change", args=[world["room_b"].pk]),
        reverse("admin:tables_seat_change", args=[seat_b.pk]),
        reverse("admin:tables_match_change", args=[rnd.match_id]),
    ):
        response = manager_client.get(url)
        assert response.status_code in {302, 404}, url
        if response.status_code == 302:
            assert response.url == reverse("admin:index")
    action(manager_client, "seat", "remove_from_seat", [seat_b.pk])
    assert Seat.objects.filter(pk=seat_b.pk).exists()
    seats = manager_client.get(reverse("admin:tables_seat_changelist"))
    assert {s.room_id for s in seats.context["cl"].queryset} <= {world["room_a"].pk}


def test_the_club_filter_names_only_my_clubs(manager_client, world):
    page = manager_client.get(reverse("admin:tables_room_changelist")).content.decode()
    assert "A 圈" in page
    assert "B 圈" not in page


def test_a_round_in_play_keeps_its_seed_hidden_in_the_match_page(manager_client, world):
    rnd = start_round(world["room_a"], world["a_players"])
    page = manager_client.get(reverse("admin:tables_match_change", args=[rnd.match_id]))
    assert page.status_code == 200
    inline = page.context["inline_admin_formsets"][0]
    assert rnd.commitment in page.content.decode(), inline
    assert rnd.seed not in page.content.decode()


def test_match_history_is_read_only_for_club_admins(manager_client, world):
    rnd = start_round(world["room_a"], world["a_players"])
    page = manager_client.get(reverse("admin:tables_match_changelist"))
    assert [m.pk for m in page.context["cl"].queryset] == [rnd.match_id]
    response = manager_client.post(
        reverse("admin:tables_match_change", args=[rnd.match_id]), {"end_reason": "x"}
    )
    assert response.status_code == 403
    assert Match.objects.get(pk=rnd.match_id).end_reason == ""


def test_site_staff_see_every_club(admin_client, world):
    page = admin_client.get(reverse("admin:tables_room_changelist"))
    assert {r.pk for r in page.context["cl"].queryset} == {world["room_a"].pk, world["room_b"].pk}


def test_a_club_admin_closes_rooms_but_cannot_delete_them(manager_client, world):
    room = world["room_a"]
    manager_client.post(reverse("admin:tables_room_delete", args=[room.pk]), {"post": "yes"})
    action(manager_client, "room", "delete_selected", [room.pk], post="yes")
    assert Room.objects.filter(pk=room.pk).exists()


def test_dissolving_between_rounds_keeps_the_ended_round_and_deals_no_more(manager_client, world):
    from datetime import timedelta

    from django.utils import timezone

    from scoring.services import settle_round
    from tables import matches
    from tests.api.helpers import play_out

    room = world["room_a"]
    ended = play_out(start_round(room, world["a_players"]))
    settlement = settle_round(ended.pk)
    assert Match.objects.get(pk=ended.match_id).status == Match.Status.PLAYING
    action(manager_client, "room", "dissolve_tables", [room.pk], reason="散场")
    match = Match.objects.get(pk=ended.match_id)
    assert (match.status, match.end_reason) == (Match.Status.FINISHED, "dissolved")
    ended.refresh_from_db()
    assert ended.status == Round.Status.ENDED  # already settled: it stays paid
    assert settlement is not None
    later = timezone.now() + timedelta(minutes=5)
    dealt = matches.match_next_round(match_id=match.pk, after_number=ended.number, now=later)
    assert dealt is None
    assert LogEntry.objects.filter(object_id=str(room.pk), change_message__contains="散场").exists()
