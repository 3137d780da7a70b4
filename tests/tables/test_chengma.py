"""成麻 at a live table: a room plays it through the services; 定缺 is a secret of
every seat until all four chose (nothing of it leaves the server before: not in an event, not
in any viewer's table), a timeout chooses the suit held fewest, bots and 托管 play it legally,
and the settlement keeps each win, kong payment and end-of-wall payment as its own line."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from rules.engine import ChooseVoid
from rules.variants.chengma.flow import suit_counts
from tables import bots, gameplay, rooms, selectors
from tables.game import commands
from tables.models import Round, RoundEvent
from tests.tables.helpers import act, fresh, state_of, table_opened, walk

pytestmark = pytest.mark.django_db


@pytest.fixture
def cm_round(players: list[Any], make_club: Any) -> Round:
    club = make_club(owner=players[0], members=tuple(players[1:]))
    room = rooms.room_create(user=players[0], club=club, name="成都桌", variant="chengma")
    for index, user in enumerate(players):
        rooms.seat_take(room=room, user=user, index=index)
        table_opened(room.pk, user)
        rooms.seat_set_ready(room=room, user=user)
    return Round.objects.select_related("match__room").get(match__room=room, number=1)


def _messages(rnd: Round, viewer: int | None) -> list[dict[str, Any]]:
    """Everything a viewer is sent of the round now: its decision, its snapshot, its events."""
    rnd = fresh(rnd)
    state = state_of(rnd)
    key = gameplay.viewer_key(viewer)
    events = [gameplay.stored_view(e.views, key) for e in RoundEvent.objects.filter(round=rnd)]
    return [
        selectors.decision_message(rnd, state, viewer),
        selectors.snapshot_message(rnd, state, viewer),
        *events,
    ]


def _leaks_void(messages: list[dict[str, Any]], seat: int) -> bool:
    """Whether any message names ``seat``'s void suit (its own pending choice or a revealed one)."""
    for message in messages:
        for path, value in walk(message):
            if value == "voids_chosen":
                return True
            mine = path.endswith((f".seats[{seat}].que", f".seats[{seat}].que_chosen"))
            if mine and value not in (None, "que", "que_chosen"):
                return True
    return False


def test_a_void_choice_is_secret_until_all_four_have_chosen(cm_round: Round) -> None:
    assert gameplay.phase_kind(state_of(cm_round)) == "choice"
    assert set(gameplay.deciders(state_of(cm_round))) == {0, 1, 2, 3}
    before = fresh(cm_round).last_seq
    assert act(cm_round, 2, {"kind": "choose_void", "suit": "p"}).ok
    assert fresh(cm_round).last_seq == before  # no event: nothing the others could count
    for viewer in (0, 1, 3, None):
        assert not _leaks_void(_messages(cm_round, viewer), 2), viewer
    assert _leaks_void(_messages(cm_round, 2), 2)  # the chooser sees its own choice
    for seat, suit in ((0, "m"), (1, "s")):
        assert act(cm_round, seat, {"kind": "choose_void", "suit": suit}).ok
        assert not _leaks_void(_messages(cm_round, 3), 2)
    assert act(cm_round, 3, {"kind": "choose_void", "suit": "m"}).ok
    for viewer in (0, 1, 2, 3, None):
        view = selectors.decision_message(fresh(cm_round), state_of(cm_round), viewer)["view"]
        assert [s["que"] for s in view["seats"]] == ["m", "s", "p", "m"]
    assert gameplay.phase_kind(state_of(cm_round)) == "turn"


def default_void(concealed: Any) -> int:
    """定缺 on a timeout: the suit held fewest, ties m, p, s (chengma.md, *定缺*)."""
    counts = suit_counts(concealed)
    return min(range(3), key=lambda suit: (counts[suit], suit))


def test_a_timeout_chooses_the_suit_held_fewest(cm_round: Round) -> None:
    state = state_of(cm_round)
    expected = "mps"
    wanted = [expected[default_void(state.seats[s].concealed)] for s in range(4)]
    rnd = fresh(cm_round)
    assert rnd.deadline is not None
    assert commands.round_timeout(
        round_id=rnd.pk,
        decision_version=rnd.decision_version,
        now=timezone.now() + timedelta(hours=1),
    )
    after = state_of(cm_round)
    assert list(after.extra["que"]) == wanted
    assert all(isinstance(a, ChooseVoid) for a in gameplay.legal_actions(state, 0))


def test_bots_play_a_whole_round_and_its_ledger_keeps_every_payment(cm_round: Round) -> None:
    from scoring.models import LedgerEntry
    from scoring.services import settle_round

    rnd = cm_round
    for _ in range(2000):
        rnd = fresh(rnd)
        if rnd.status != Round.Status.PLAYING:
            break
        state = state_of(rnd)
        for seat in gameplay.deciders(state):
            if gameplay.phase_kind(state) == "choice" or seat == gameplay.deciders(state)[0]:
                action = bots.choose_action(state, seat)
                assert action in gameplay.legal_actions(state, seat)
                assert act(rnd, seat, gameplay.action_json(action)).ok
                break
    ended = fresh(rnd)
    assert ended.status == Round.Status.ENDED
    settlement = settle_round(ended.pk)
    assert settlement is not None
    assert list(settlement.nets) == ended.result["nets"]
    entries = list(LedgerEntry.objects.filter(settlement=settlement).order_by("seat"))
    for entry in entries:
        assert entry.net == entry.win_amount + entry.kong_amount + entry.settle_amount
        assert entry.cap_adjustment == 0
    lines = list(settlement.payment_lines.all())
    net = [0, 0, 0, 0]
    for line in lines:
        net[line.payer] -= line.amount
        net[line.payee] += line.amount
    assert net == list(settlement.nets)
    final = state_of(ended)
    winners = [w["seat"] for w in final.extra.get("wins", ())]
    assert sorted(e.seat for e in entries if e.won) == sorted(winners)
    assert {line.winner for line in lines if line.kind == "win"} == set(winners)
