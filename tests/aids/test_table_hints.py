"""听牌提示 through the live table: the decision message's view, the room option, bots' rounds,
in every variant of the registry."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules.registry import VARIANTS
from tables import bots, gameplay, rooms, selectors
from tables.game import commands
from tables.models import Round
from tests.tables.helpers import fresh, room_set_variant, state_of

pytestmark = pytest.mark.django_db


def _views(rnd: Round) -> dict[int | None, dict[str, Any]]:
    state = state_of(rnd)
    return {s: selectors.decision_message(rnd, state, s)["view"] for s in (0, 1, 2, 3, None)}


def _play(rnd: Round, rng: random.Random) -> bool:
    rnd = fresh(rnd)
    if rnd.status != Round.Status.PLAYING:
        return False
    state = state_of(rnd)
    seat = gameplay.deciders(state)[0]
    legal = gameplay.legal_actions(state, seat)
    claims = gameplay.phase_kind(state) != "turn"
    action = rng.choice(legal) if claims else bots.choose_action(state, seat)
    outcome = commands.round_apply_action(
        round_id=rnd.pk,
        seat=seat,
        action_json=gameplay.action_json(action),
        client_action_id=f"h{rnd.pk}-{rnd.version}",
    )
    assert outcome.ok
    return True


@pytest.fixture(params=list(VARIANTS))
def dealt(request: Any, seated: Any, players: list[Any]) -> Round:
    """The seated room, in each variant of the registry, with its first round dealt."""
    room_set_variant(seated, request.param)
    for user in players:
        rooms.seat_set_ready(room=seated, user=user)
    rnd = selectors.current_round(seated.pk)
    assert rnd is not None
    return rnd


def test_each_seat_gets_only_its_own_hint_and_hints_do_come(dealt: Round) -> None:
    playing = dealt
    rng = random.Random(3)
    shown = 0
    while True:
        views = _views(fresh(playing))
        assert "hint" not in views[None]
        for seat in range(4):
            hint = views[seat].get("hint")
            if hint is not None:
                assert hint["seat"] == seat
                shown += 1
        if not _play(playing, rng):
            break
    assert shown > 0


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_room_with_hints_off_sends_no_hint(
    variant: str, players: list[Any], make_club: Any
) -> None:
    club = make_club(owner=players[0], members=tuple(players[1:]))
    room = rooms.room_create(
        user=players[0], club=club, name="比赛桌", variant=variant, options={"hints": False}
    )
    assert room.options["hints"] is False
    for index, user in enumerate(players):
        rooms.seat_take(room=room, user=user, index=index)
        rooms.seat_set_ready(room=room, user=user)
    rnd = selectors.current_round(room.pk)
    assert rnd is not None
    rng = random.Random(4)
    for _ in range(40):
        for view in _views(fresh(rnd)).values():
            assert "hint" not in view
        if not _play(rnd, rng):
            break


def test_the_admin_form_ticks_hints_for_a_new_room_and_keeps_them_off_once_unticked(
    room: Any,
) -> None:
    from tables.admin_forms import RoomAdminForm

    assert RoomAdminForm().initial["opt_hints"] is True  # a new room: on by default
    assert RoomAdminForm(instance=room).initial["opt_hints"] is True
    room.options = {**room.options, "hints": False}
    room.save()
    assert RoomAdminForm(instance=room).initial["opt_hints"] is False
