"""What the others see of a claim window does not depend on what anyone holds.

Two tables are dealt the same round; then one hidden fact is changed: at table A seat 2 holds a
pair of the tile the dealer is about to discard (so seat 2 is asked whether to pong it), at table
B it holds none (nobody can claim). The dealer discards, seat 2 passes at table A, and every
frame each other viewer (the three other seats and a spectator) receives through its real socket
is compared: they must be the same, apart from wall-clock deadlines and ids. Before the fix a
window opened only at table A, every answer was a frame of its own, and ``seq`` had gaps where
the answers were hidden.
"""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async

from accounts.models import Membership
from rules.engine.state import replace
from rules.tiles import tile_name
from tables import gameplay, rooms
from tables.game import commands
from tables.models import Round
from tests.tables.helpers import state_of, table_opened
from tests.tables.ws import connect, drain, send, until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

ASKED = 2
"""The seat whose hidden tiles differ between the two tables."""


def _deal_twin_tables(players: list[Any], club: Any) -> list[Round]:
    rounds = []
    for name in ("A", "B"):
        room = rooms.room_create(user=players[0], club=club, name=name, variant="changchun")
        for index, user in enumerate(players):
            rooms.seat_take(room=room, user=user, index=index)
            table_opened(room.pk, user)
        for user in players:
            rooms.seat_set_ready(room=room, user=user)
        rounds.append(Round.objects.select_related("match").get(match__room=room, number=1))
    return rounds


def _honour_to_discard(state: Any) -> int:
    """An honour in the dealer's hand that seats 1 and 3 cannot pong (no chow on honours)."""
    dealer = state.seats[state.dealer]
    for tile in sorted(set(dealer.concealed)):
        if tile_name(tile).endswith("z") and all(
            state.seats[s].concealed.count(tile) < 2 for s in (1, 3)
        ):
            return tile
    raise AssertionError("no honour to discard under the fixed seed")


def _with_copies(state: Any, tile: int, copies: int) -> Any:
    """``state`` with seat ASKED holding exactly ``copies`` of ``tile``, the tiles swapped with
    the middle of the wall (far from both ends: nobody draws them in this test)."""
    hand = list(state.seats[ASKED].concealed)
    wall = list(state.wall)
    middle = range(state.live + 20, len(wall) - 20)
    while hand.count(tile) > copies:  # put one back into the wall
        spot = next(i for i in middle if wall[i] != tile)
        hand[hand.index(tile)], wall[spot] = wall[spot], tile
    while hand.count(tile) < copies:  # take one from the wall
        spot = next(i for i in middle if wall[i] == tile)
        other = next(t for t in hand if t != tile)
        hand[hand.index(other)], wall[spot] = tile, other
    changed = state.with_seat(ASKED, concealed=tuple(sorted(hand)))
    return replace(changed, wall=tuple(wall))


def _store(rnd: Round, state: Any) -> None:
    Round.objects.filter(pk=rnd.pk).update(
        state=gameplay.dump_state(state), state_actions=rnd.action_count
    )
    gameplay.cache_put(rnd.pk, state)


def _public(messages: list[dict[str, Any]]) -> list[Any]:
    """The frames with what may differ between two tables removed (ids, wall-clock times)."""
    out = []
    for message in messages:
        if message["type"] in ("table", "pong"):
            continue
        cleaned = {k: v for k, v in message.items() if k not in ("round_id", "match_id")}
        if message["type"] == "decision":
            assert message["deadline"] is None or message["phase"] == "turn"
            cleaned["deadline"] = message["deadline"] is not None
        out.append(cleaned)
    return out


async def test_the_others_see_the_same_frames_whether_or_not_a_seat_could_claim(
    players: list[Any], make_user: Any, make_club: Any
) -> None:
    @sync_to_async
    def prepare() -> tuple[list[Round], Any, int]:
        club = make_club(owner=players[0], members=tuple(players[1:]))
        watcher = make_user("watcher")
        Membership.objects.create(club=club, user=watcher)
        twins = _deal_twin_tables(players, club)
        base = state_of(twins[0])
        assert state_of(twins[1]) == base  # the same deal at both tables
        tile = _honour_to_discard(base)
        _store(twins[0], _with_copies(base, tile, 2))  # A: seat 2 may pong
        _store(twins[1], _with_copies(base, tile, 0))  # B: nobody may claim
        return twins, watcher, tile

    twins, watcher, tile = await prepare()
    viewers = {0: players[0], 1: players[1], 3: players[3], None: watcher}
    seen: dict[str, dict[Any, list[dict[str, Any]]]] = {}
    for label, rnd in zip("AB", twins, strict=True):
        room_id = rnd.match.room_id
        sockets = {}
        for seat, user in viewers.items():
            sockets[seat], _ = await connect(room_id, user)
            await send(sockets[seat], {"type": "hello"})
            await until(sockets[seat], "snapshot")
            await drain(sockets[seat])
        discard = {"kind": "discard", "tile": tile_name(tile)}
        done = await sync_to_async(commands.round_apply_action)(
            round_id=rnd.pk, seat=0, action_json=discard, client_action_id=f"{label}-discard"
        )
        assert done.ok
        window = await sync_to_async(state_of)(rnd)
        if label == "A":
            assert gameplay.deciders(window) == (ASKED,)
            passed = await sync_to_async(commands.round_apply_action)(
                round_id=rnd.pk, seat=ASKED, action_json={"kind": "pass"}, client_action_id="A-pass"
            )
            assert passed.ok
        else:
            assert gameplay.phase_kind(window) == "turn"
        seen[label] = {}
        for seat, comm in sockets.items():
            seen[label][seat] = _public(await drain(comm, quiet=0.5))
            await comm.disconnect()
    for seat in viewers:
        frames = seen["A"][seat]
        assert frames == seen["B"][seat], f"viewer {seat} can tell the tables apart"
        kinds = [m["event"]["kind"] if m["type"] == "event" else m["type"] for m in frames]
        assert kinds == ["discard", "claim_window", "decision", "turn_started", "draw", "decision"]
        seqs = [m["seq"] for m in frames if m["type"] == "event"]
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))  # no gap


def test_the_twin_tables_differ_only_in_hidden_tiles() -> None:
    """The construction above is sound: the two positions show every viewer but seat 2 the same
    table (checked on the engine's own views, without any socket)."""
    from rules.engine import new_round
    from rules.registry import VARIANTS
    from rules.views import seat_view
    from rules.wall import seed_from_text

    state, _ = new_round(variant=VARIANTS["changchun"], seed=seed_from_text("twins"), dealer=0)
    middle = state.wall[state.live + 20 : len(state.wall) - 20]
    tile = next(t for t in sorted(set(middle)) if middle.count(t) >= 2)
    one, two = _with_copies(state, tile, 2), _with_copies(state, tile, 0)
    for viewer in (0, 1, 3, None):
        assert seat_view(one, viewer) == seat_view(two, viewer)
    assert seat_view(one, ASKED) != seat_view(two, ASKED)
