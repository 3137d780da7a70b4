"""The table websocket through the real ASGI stack: auth, Origin, seats, spectators, messages,
redaction of every outgoing message over whole rounds, reconnect and resync, bad input."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from rules.registry import VARIANTS
from tables import bots, gameplay, protocol, rooms
from tables.game import commands
from tables.models import Room, Round
from tests.tables.helpers import (
    concealed_kong_seed,
    fresh,
    kong_eager_move,
    state_of,
    table_closed,
    walk,
    win_or_default,
)
from tests.tables.ws import connect, drain, drain_until, send, until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_an_anonymous_socket_is_refused(seated: Any) -> None:
    comm, connected = await connect(seated.pk)
    if connected:
        message = json.loads(await comm.receive_from())
        assert message["code"] == "not_authenticated"
        assert (await comm.receive_output())["type"] == "websocket.close"
    await comm.disconnect()


async def test_a_foreign_origin_is_refused(seated: Any, players: list[Any]) -> None:
    comm, connected = await connect(seated.pk, players[0], origin=b"https://evil.example")
    assert not connected
    await comm.disconnect()


@pytest.mark.parametrize(
    "origin",
    [
        b"http://localhost:9999",  # another port of the same host
        b"https://localhost",  # another scheme
        b"http://localhost.evil.example",
        b"null",
        b"",
    ],
)
async def test_an_origin_of_another_port_scheme_or_host_is_refused(
    seated: Any, players: list[Any], origin: bytes
) -> None:
    comm, connected = await connect(seated.pk, players[0], origin=origin)
    assert not connected
    await comm.disconnect()


async def test_a_trusted_origin_behind_a_tls_proxy_is_accepted(
    seated: Any, players: list[Any], settings: Any
) -> None:
    settings.CSRF_TRUSTED_ORIGINS = ["https://queyou.example"]
    comm, connected = await connect(seated.pk, players[0], origin=b"https://queyou.example")
    assert connected
    await comm.disconnect()


async def test_a_user_outside_the_club_is_refused(seated: Any, make_user: Any) -> None:
    stranger = await sync_to_async(make_user)("stranger")
    comm, _ = await connect(seated.pk, stranger)
    message = json.loads(await comm.receive_from())
    assert message["code"] == "not_allowed"
    await comm.disconnect()


async def test_a_member_without_a_seat_watches_only_if_the_room_allows_spectators(
    seated: Any, make_user: Any
) -> None:
    from accounts.models import Membership

    @sync_to_async
    def member() -> Any:
        user = make_user("watcher")
        Membership.objects.create(club=seated.club, user=user)
        return user

    watcher = await member()
    comm, _ = await connect(seated.pk, watcher)
    table = await until(comm, "table")
    assert table["you"] is None
    await comm.disconnect()
    seated.allow_spectators = False
    await sync_to_async(seated.save)()
    comm, _ = await connect(seated.pk, watcher)
    assert json.loads(await comm.receive_from())["code"] == "not_allowed"
    await comm.disconnect()


async def test_a_player_who_leaves_the_club_is_stood_up_and_disconnected(
    playing: Round, players: list[Any], make_user: Any
) -> None:
    """A member who left once kept playing (and was paid), and a removed spectator
    kept receiving the game: both are let go at once."""
    from accounts import services as accounts
    from accounts.models import Membership
    from tables.models import Match, Seat

    room = playing.match.room

    @sync_to_async
    def watcher_of_the_club() -> Any:
        user = make_user("watcher")
        Membership.objects.create(club=room.club, user=user)
        return user

    watcher = await watcher_of_the_club()
    leaver, stayer = players[2], players[1]
    sockets = {}
    for user in (leaver, stayer, watcher):
        sockets[user.pk], _ = await connect(room.pk, user)
        await send(sockets[user.pk], {"type": "hello"})
        await until(sockets[user.pk], "snapshot")

    @sync_to_async
    def leave_and_remove() -> None:
        mine = Membership.objects.get(club=room.club, user=leaver)
        accounts.membership_remove(actor=leaver, membership=mine)
        theirs = Membership.objects.get(club=room.club, user=watcher)
        accounts.membership_remove(actor=players[0], membership=theirs)  # the owner

    await leave_and_remove()
    for user in (leaver, watcher):
        error = await until(sockets[user.pk], "error")
        assert error["code"] == "not_member"
        assert (await sockets[user.pk].receive_output(timeout=5))["type"] == "websocket.close"
    decision = await until(sockets[stayer.pk], "decision")  # the round is voided for the others
    assert decision["status"] == "aborted"
    assert not await sync_to_async(Seat.objects.filter(room=room, user=leaver).exists)()
    match = await sync_to_async(Match.objects.get)(pk=playing.match_id)
    assert match.end_reason == rooms.LEFT_CLUB
    # And they cannot come back in.
    again, _ = await connect(room.pk, leaver)
    assert json.loads(await again.receive_from())["code"] == "not_allowed"
    for comm in (*sockets.values(), again):
        await comm.disconnect()


async def test_hello_gets_the_table_and_a_snapshot_of_its_own_seat(
    playing: Round, players: list[Any]
) -> None:
    comm, _ = await connect(playing.match.room_id, players[1])
    await send(comm, {"type": "hello"})
    snapshot = await until(comm, "snapshot")
    assert snapshot["seat"] == 1
    assert snapshot["seq"] == playing.last_seq
    assert snapshot["seed"] is None
    view = snapshot["decision"]["view"]
    assert "concealed" in view["seats"][1]
    for other in (0, 2, 3):
        assert "concealed" not in view["seats"][other]
    await comm.disconnect()


def _leaks(message: dict[str, Any], viewer: int | None) -> list[str]:
    """Structural check of one outgoing message for what ``viewer`` must not see before the end:
    another seat's concealed tiles or draws or deal, the wall, the salt, the seed, an unseen
    treasure, another seat's legal actions."""
    found: list[str] = []
    ended = (
        message.get("status") in ("ended", "aborted")
        or message.get("phase") == "ended"
        or (message["type"] == "event" and message["event"]["kind"] == "round_ended")
    )
    if ended:
        return found
    for path, value in walk(message):
        if value in ("wall", "salt") or (value == "seed" and message.get("seed") is not None):
            found.append(f"{path}: {value}")
    view = message.get("view") or message.get("decision", {}).get("view")
    if view is not None:
        for seat in view["seats"]:
            if seat["seat"] != viewer and {"concealed", "drawn", "waits"} & set(seat):
                found.append(f"seat {seat['seat']} hand shown to {viewer}")
            if seat["seat"] != viewer and "que_chosen" in seat:  # 成麻 定缺, before all chose
                found.append(f"seat {seat['seat']} void choice shown to {viewer}")
        treasure = view.get("treasure")
        # Only a ready (ting) player sees the treasure (changchun.md, Treasure).
        sees = viewer is not None and view["seats"][viewer]["ting"]
        if treasure and "tile" in treasure and not sees:
            found.append(f"treasure shown to {viewer}")
        # 听牌提示 is computed for the viewer's own seat only (rules/hints.py).
        hint = view.get("hint")
        if "hint" in view and (viewer is None or (hint is not None and hint["seat"] != viewer)):
            found.append(f"a hint shown to {viewer}")
    hints = [p for p, v in walk(message) if v == "hint" and not p.endswith("view.hint")]
    if hints:
        found.append(f"hint outside the viewer's view: {hints}")
    if message["type"] == "event":
        event = message["event"]
        owner = event.get("seat")
        kind = event["kind"]
        others = owner != viewer
        hidden = {
            "draw": others and "tile" in event,
            "dealt": others and "tiles" in event,
            "claim_answered": True,  # answers are not events
            "treasure_seen": others and "tile" in event,
            "claim_window": "asked" in event,
            "meld": others and "tiles" in event.get("meld", {}) and event["meld"].get("concealed"),
            "discard": others and event.get("face_down") and "tile" in event,
            # 成麻: a 下雨's tile is its owner's, so is a 换三张 swap.
            "kong_paid": others and event.get("kong") == "concealed" and "tile" in event,
            "tiles_swapped": others and ("given" in event or "received" in event),
        }
        if hidden.get(kind):
            found.append(f"{kind} of seat {owner} shown to {viewer}")
    if message["type"] == "decision" and viewer is None and message["legal_actions"]:
        found.append("a spectator was offered actions")
    return found


def _check_chain(messages: list[dict[str, Any]], last: int) -> int:
    """Each event's ``prev_seq`` is the last seq this socket got; returns the new last seq."""
    for message in messages:
        if message["type"] == "snapshot":
            last = message["seq"]
        elif message["type"] == "event":
            assert message["prev_seq"] == last, (message, last)
            # No gap: every viewer is told of every event.
            assert message["seq"] == last + 1, (message, last)
            last = message["seq"]
    return last


Move = Callable[[Any, int], Any]
"""A player: the action it takes for a seat in a state."""


@sync_to_async
def _step(rnd: Round, rng: random.Random | None = None, move: Move | None = None) -> bool:
    """One move of the round; False once the round is over. Without ``rng`` the move is what a
    timeout would do; with it, a bot on its turns (it declares ting whenever it can, so treasures
    come) and a random answer to claims (so melds and kongs happen); ``move`` chooses instead,
    where given. 成麻's 定缺 and 换三张 are answered like claims, one seat at a time."""
    rnd = fresh(rnd)
    if rnd.status != Round.Status.PLAYING:
        return False
    state = state_of(rnd)
    seat = gameplay.deciders(state)[0]
    legal = gameplay.legal_actions(state, seat)
    if move is not None:
        action = move(state, seat)
    elif rng is None:
        action = win_or_default(state, seat)
    else:
        claims = gameplay.phase_kind(state) != "turn"
        action = rng.choice(legal) if claims else bots.choose_action(state, seat)
    outcome = commands.round_apply_action(
        round_id=rnd.pk,
        seat=seat,
        action_json=gameplay.action_json(action),
        client_action_id=f"s{rnd.pk}-{rnd.version}",
    )
    assert outcome.ok
    return True


@sync_to_async
def _next_round(rnd: Round, players: list[Any]) -> Round:
    room = rnd.match.room
    for user in players:
        rooms.seat_set_ready(room=room, user=user)
    return Round.objects.select_related("match__room").get(match=rnd.match, number=rnd.number + 1)


def _open_leaks(message: dict[str, Any]) -> list[str]:
    """What a delayed spectator (every hand open) must still never see before the
    end: the wall, the salt, the seed, who is asked to claim, a hint, an action."""
    found: list[str] = []
    ended = (
        message.get("status") in ("ended", "aborted")
        or message.get("phase") == "ended"
        or (message["type"] == "event" and message["event"]["kind"] == "round_ended")
    )
    if ended:
        return found
    for path, value in walk(message):
        if value in ("wall", "salt", "asked", "you_are_asked", "you_answered", "hint") or (
            value == "seed" and message.get("seed") is not None
        ):
            found.append(f"{path}: {value}")
    if message["type"] == "decision" and message["legal_actions"]:
        found.append("a spectator was offered actions")
    return found


async def _watch_and_play(
    first: Round,
    players: list[Any],
    make_user: Any,
    rounds: int,
    move: Move | None = None,
    delayed_to: list[dict[str, Any]] | None = None,
) -> tuple[dict[int | None, list[dict[str, Any]]], set[str], int]:
    """Four players and a spectator watch ``rounds`` whole rounds (played by ``move`` where
    given, see :func:`_step`); every message they got. With ``delayed_to`` (a list the messages
    of the spectator go to) the room has a spectator delay whose time has passed for every move
    (the caller moves :func:`tables.delayed.clock`): the spectator watches with every hand open
    and is checked for what it must still not see; the seats exactly as in an ordinary room."""
    from accounts.models import Membership

    @sync_to_async
    def watcher() -> Any:
        user = make_user("watcher")
        Membership.objects.create(club=first.match.room.club, user=user)
        return user

    room_id = first.match.room_id
    viewers: list[tuple[int | None, Any]] = [(i, players[i]) for i in range(4)]
    late = None
    if delayed_to is None:
        viewers.append((None, await watcher()))
    else:
        await sync_to_async(Room.objects.filter(pk=room_id).update)(spectator_delay_s=60)
        late, connected = await connect(room_id, await watcher())
        assert connected
        await send(late, {"type": "hello"})
    socks = []
    for seat, user in viewers:
        comm, connected = await connect(room_id, user)
        assert connected
        await send(comm, {"type": "hello"})
        socks.append((seat, comm))
    received: dict[int | None, list[dict[str, Any]]] = {seat: [] for seat, _ in viewers}
    rng = random.Random(5)
    rnd, steps = first, 0
    for number in range(rounds):
        if number:
            rnd = await _next_round(rnd, players)
        while await _step(rnd, rng, move):
            steps += 1
            if steps % 10 == 0:
                for seat, comm in socks:
                    received[seat] += await drain(comm, quiet=0.05)
    last = rnd.pk

    def over(message: dict[str, Any]) -> bool:
        return (
            message["type"] == "decision"
            and message["round_id"] == last
            and message["phase"] == "ended"
        )

    for seat, comm in socks:
        if not any(over(m) for m in received[seat]):
            received[seat] += await drain_until(comm, over)
        received[seat] += await drain(comm)
        await comm.disconnect()
    if late is not None and delayed_to is not None:
        delayed_to += await drain_until(late, over)
        await late.disconnect()
        for message in delayed_to:
            assert _open_leaks(message) == [], message
        views = [m.get("view") or m.get("decision", {}).get("view") for m in delayed_to]
        assert any(v and all("concealed" in seat for seat in v["seats"]) for v in views)
        ends = [
            m for m in delayed_to if m["type"] == "event" and m["event"]["kind"] == "round_ended"
        ]
        assert len(ends) == rounds
        assert sum(m["type"] == "snapshot" for m in delayed_to) == rounds
        _check_chain(delayed_to, 0)
        await _assert_no_secret_values_before_the_end({None: delayed_to})
    kinds: set[str] = set()
    for seat, messages in received.items():
        for message in messages:
            assert _leaks(message, seat) == [], message
            if message["type"] == "event":
                kinds.add(message["event"]["kind"])
        ends = [m for m in messages if m["type"] == "event" and m["event"]["kind"] == "round_ended"]
        assert len(ends) == rounds
        assert sum(m["type"] == "snapshot" for m in messages) == rounds  # one per round
        _check_chain(messages, 0)
    await _assert_no_secret_values_before_the_end(received)
    return received, kinds, steps


@pytest.mark.parametrize("variant", ["changchun", "chengma"])
async def test_a_delayed_spectator_sees_every_hand_but_no_secret_over_whole_rounds(
    variant: str,
    players: list[Any],
    make_club: Any,
    make_user: Any,
    monkeypatch: pytest.MonkeyPatch,
    settings: Any,
) -> None:
    """A room with a spectator delay. Its delayed spectator (the delay passed for
    every move) gets every hand and the whole stream of each round, never the wall, the salt,
    the seed or a claim's askees before the end; the seats and the live spectator of the same
    room are scanned exactly as in an ordinary room."""
    from datetime import timedelta

    from django.utils import timezone

    from tables import delayed

    settings.TABLES_DELAYED_TICK_MS = 50
    monkeypatch.setattr(delayed, "clock", lambda: timezone.now() + timedelta(seconds=61))
    first = await sync_to_async(_dealt)(variant, players, make_club)
    late: list[dict[str, Any]] = []
    _, kinds, _ = await _watch_and_play(first, players, make_user, rounds=2, delayed_to=late)
    assert {"draw", "discard", "round_ended"} <= kinds
    opened = [m["event"] for m in late if m["type"] == "event" and m["event"]["kind"] == "draw"]
    assert {e["seat"] for e in opened if "tile" in e} == {0, 1, 2, 3}


async def test_no_message_leaks_a_hidden_tile_over_whole_rounds(
    playing: Round, players: list[Any], make_user: Any
) -> None:
    _, kinds, steps = await _watch_and_play(playing, players, make_user, rounds=3)
    assert {"draw", "discard", "meld", "treasure_seen", "round_ended"} <= kinds
    assert steps > 60


def _dealt(variant: str, players: list[Any], make_club: Any) -> Round:
    """A room of ``variant``, the four players seated and ready: its first round."""
    club = make_club(owner=players[0], members=tuple(players[1:]))
    room = rooms.room_create(user=players[0], club=club, name=variant, variant=variant)
    for index, user in enumerate(players):
        rooms.seat_take(room=room, user=user, index=index)
        rooms.seat_set_ready(room=room, user=user)
    return Round.objects.select_related("match__room").get(match__room=room)


OTHER_VARIANTS = [key for key in VARIANTS if key != "changchun"]
"""Every variant of the registry but Changchun (three rounds of it above)."""


@pytest.mark.parametrize("variant", OTHER_VARIANTS)
async def test_no_message_leaks_in_the_other_variants(
    variant: str, players: list[Any], make_club: Any, make_user: Any
) -> None:
    first = await sync_to_async(_dealt)(variant, players, make_club)
    _, kinds, _ = await _watch_and_play(first, players, make_user, rounds=2)
    assert {"draw", "discard", "round_ended"} <= kinds
    if variant == "chengma":
        assert {"voids_chosen", "kong_paid"} & kinds, kinds


async def test_a_chengma_concealed_kong_tile_reaches_no_other_viewer(
    players: list[Any], make_club: Any, make_user: Any, settings: Any
) -> None:
    """From the 暗杠 on, all four copies of its tile are in the owner's
    kong, so no message to another seat or a spectator names that tile (their 听牌提示 aside,
    which lists tiles they have not seen) until the owner wins (its hand laid down) or the
    round ends. The owner's own payment event names it; the replay after the end has it."""
    from scoring.replay import replay_json

    seed, konger, tile = concealed_kong_seed()
    settings.TABLES_FIXED_SEED = seed.hex()
    first = await sync_to_async(_dealt)("chengma", players, make_club)
    received, kinds, _ = await _watch_and_play(first, players, make_user, 1, kong_eager_move)
    assert "kong_paid" in kinds

    def is_the_kong(message: dict[str, Any]) -> bool:
        event = message.get("event") or {}
        return (
            event.get("kind") == "meld"
            and event.get("seat") == konger
            and (event["meld"].get("concealed") and event["meld"]["type"] == "kong")
        )

    def over(message: dict[str, Any]) -> bool:
        event = message.get("event") or {}
        return event.get("kind") == "round_ended" or (
            event.get("kind") == "seat_won" and event.get("seat") == konger
        )

    own = [m["event"] for m in received[konger] if m["type"] == "event"]
    assert {"kind": "kong_paid", "seat": konger, "kong": "concealed", "tile": tile}.items() <= (
        next(e for e in own if e["kind"] == "kong_paid" and e["seat"] == konger).items()
    )
    for viewer in (s for s in received if s != konger):
        messages = received[viewer]
        start = next(i for i, m in enumerate(messages) if is_the_kong(m))
        end = next(i for i, m in enumerate(messages) if over(m))
        assert start < end
        for message in messages[start:end]:
            named = [p for p, v in walk(message) if v == tile and ".hint." not in p]
            assert named == [], (viewer, message)
    rnd = await sync_to_async(fresh)(first)
    replay = await sync_to_async(replay_json)(rnd)
    logged = [e for frame in replay["frames"] for e in frame["events"]]
    assert any(e["kind"] == "kong_paid" and e.get("tile") == tile for e in logged)


@sync_to_async
def _secrets_of(round_id: int) -> str:
    return Round.objects.get(pk=round_id).seed


async def _assert_no_secret_values_before_the_end(
    received: dict[int | None, list[dict[str, Any]]],
) -> None:
    """By value, not only by key: a round's seed and salt appear in no message of that round
    sent before its ``round_ended`` event."""
    for messages in received.values():
        ended: set[int] = set()
        salts: dict[int, str] = {}
        for message in messages:
            if message["type"] == "event" and message["event"]["kind"] == "round_ended":
                salts[message["round_id"]] = message["event"]["salt"]
        for message in messages:
            round_id = message.get("round_id")
            if round_id is None or round_id in ended:
                continue
            if message["type"] == "event" and message["event"]["kind"] == "round_ended":
                ended.add(round_id)
                continue
            text = json.dumps(message)
            assert await _secrets_of(round_id) not in text
            assert salts[round_id] not in text


async def test_a_reconnecting_client_gets_exactly_the_missing_events(
    playing: Round, players: list[Any]
) -> None:
    room_id = playing.match.room_id
    comm, _ = await connect(room_id, players[2])
    await send(comm, {"type": "hello"})
    snapshot = await until(comm, "snapshot")
    await comm.disconnect()
    for _ in range(6):
        await _step(playing)
    now = await sync_to_async(fresh)(playing)
    comm, _ = await connect(room_id, players[2])
    await send(comm, {"type": "hello", "round_id": playing.pk, "last_seq": snapshot["seq"]})
    got = await drain_until(comm, lambda m: m["type"] in ("decision", "snapshot"))
    messages = [m for m in got if m["type"] in ("event", "snapshot", "decision")]
    events = [m for m in messages if m["type"] == "event"]
    assert not any(m["type"] == "snapshot" for m in messages)
    assert events
    assert events[0]["prev_seq"] == snapshot["seq"]
    assert events[-1]["seq"] <= now.last_seq
    assert messages[-1]["type"] == "decision"
    assert messages[-1]["version"] == now.decision_version
    _check_chain(events, snapshot["seq"])
    await comm.disconnect()


async def test_a_client_too_far_behind_or_on_another_round_gets_a_snapshot(
    playing: Round, players: list[Any]
) -> None:
    comm, _ = await connect(playing.match.room_id, players[0])
    await send(comm, {"type": "hello", "round_id": playing.pk + 999, "last_seq": 3})
    assert (await until(comm, "snapshot"))["round_id"] == playing.pk
    await send(comm, {"type": "hello", "round_id": playing.pk, "last_seq": 10_000})
    assert (await until(comm, "snapshot"))["seq"] == playing.last_seq
    await send(comm, {"type": "resync"})
    assert (await until(comm, "snapshot"))["seq"] == playing.last_seq
    await comm.disconnect()


async def test_an_action_over_the_socket_is_acked_and_broadcast(
    playing: Round, players: list[Any]
) -> None:
    room_id = playing.match.room_id
    state = await sync_to_async(state_of)(playing)
    seat = gameplay.deciders(state)[0]
    action = gameplay.action_json(gameplay.default_action(state, seat))
    mover, _ = await connect(room_id, players[seat])
    other, _ = await connect(room_id, players[(seat + 1) % 4])
    for comm in (mover, other):
        await send(comm, {"type": "hello"})
        await until(comm, "snapshot")
    await send(mover, {"type": "action", "client_action_id": "a1", "action": action})
    ack = await until(mover, "ack")
    assert ack["client_action_id"] == "a1"
    assert ack["version"] == (await sync_to_async(fresh)(playing)).decision_version
    discard = await until(other, "event")
    assert discard["event"]["kind"] == "discard"
    # The same click again: the first outcome, nothing applied twice.
    await send(mover, {"type": "action", "client_action_id": "a1", "action": action})
    again = await until(mover, "ack")
    assert again["duplicate"]
    assert (await sync_to_async(fresh)(playing)).version == playing.version + 1
    await mover.disconnect()
    await other.disconnect()


async def test_a_forged_or_illegal_action_gets_an_error_and_changes_nothing(
    playing: Round, players: list[Any]
) -> None:
    state = await sync_to_async(state_of)(playing)
    seat = gameplay.deciders(state)[0]
    idle = (seat + 1) % 4
    comm, _ = await connect(playing.match.room_id, players[idle])
    await send(comm, {"type": "hello"})
    await until(comm, "snapshot")
    forged = {**gameplay.action_json(gameplay.default_action(state, seat)), "seat": seat}
    await send(comm, {"type": "action", "client_action_id": "f1", "action": forged})
    assert (await until(comm, "error"))["code"] == "bad_action"
    await send(comm, {"type": "action", "client_action_id": "f2", "action": {"kind": "pass"}})
    assert (await until(comm, "error"))["code"] == "illegal"
    assert (await sync_to_async(fresh)(playing)).version == playing.version
    await comm.disconnect()


async def test_a_spectator_cannot_act(playing: Round, make_user: Any) -> None:
    from accounts.models import Membership

    @sync_to_async
    def watcher() -> Any:
        user = make_user("watcher")
        Membership.objects.create(club=playing.match.room.club, user=user)
        return user

    comm, _ = await connect(playing.match.room_id, await watcher())
    await send(comm, {"type": "action", "client_action_id": "s1", "action": {"kind": "pass"}})
    assert (await until(comm, "error"))["code"] == "not_seated"
    await comm.disconnect()


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("not json", "bad_json"),
        ("[1, 2]", "bad_message"),
        ('{"type": "teleport"}', "unknown_type"),
        ('{"type": "hello", "last_seq": "7"}', "bad_message"),
        ('{"type": "hello", "last_seq": true}', "bad_message"),
        ('{"type": "hello", "evil": 1}', "bad_message"),
        ('{"type": "action", "client_action_id": "x"}', "bad_message"),
        ('{"type": "action", "client_action_id": "bad id!", "action": {}}', "bad_message"),
        ('{"type": "ping", "pad": "' + "x" * 5000 + '"}', "too_large"),
        ("[" * 1000 + "]" * 1000, "bad_json"),  # deeper than Python recurses
        ('{"type": "hello", "x": ' + '{"a": ' * 33 + "1" + "}" * 33 + "}", "bad_json"),
    ],
)
async def test_bad_input_gets_a_clear_error(
    playing: Round, players: list[Any], frame: str, code: str
) -> None:
    comm, _ = await connect(playing.match.room_id, players[0])
    await until(comm, "table")
    await comm.send_to(text_data=frame)
    error = await until(comm, "error")
    assert error["code"] == code
    assert error["message"]
    assert (await sync_to_async(fresh)(playing)).version == playing.version
    await comm.disconnect()


async def test_json_nested_past_the_limit_never_reaches_the_round(
    playing: Round, players: list[Any]
) -> None:
    """900 levels fit in 4 KB and decoded; the action was refused by the
    game and its record, 900 levels deep, written to the database. Now refused as JSON, before
    anything reads it, and the socket goes on."""
    from tables.models import ActionRecord

    comm, _ = await connect(playing.match.room_id, players[0])
    await until(comm, "table")
    deep = "[" * 900 + "]" * 900
    frame = '{"type": "action", "client_action_id": "n1", "action": {"kind": ' + deep + "}}"
    await comm.send_to(text_data=frame)
    error = await until(comm, "error")
    assert error["code"] == "bad_json"
    assert "nested deeper than" in error["message"]
    recorded = ActionRecord.objects.filter(client_action_id="n1").exists
    assert not await sync_to_async(recorded)()
    await send(comm, {"type": "ping"})
    assert (await until(comm, "pong"))["type"] == "pong"
    await comm.disconnect()


async def test_a_flood_is_rate_limited(playing: Round, players: list[Any]) -> None:
    import time

    comm, _ = await connect(playing.match.room_id, players[0])
    await until(comm, "table")
    start = time.monotonic()
    for _ in range(150):
        await send(comm, {"type": "ping"})
    messages = await drain(comm, quiet=1.0)
    elapsed = time.monotonic() - start
    allowed = protocol.RATE_BURST + elapsed * protocol.RATE_PER_SECOND
    assert sum(m["type"] == "pong" for m in messages) <= allowed + 1
    assert any(m.get("code") == "rate_limited" for m in messages)
    await comm.disconnect()


async def test_connected_flags_follow_the_sockets(seated: Any, players: list[Any]) -> None:
    from tables.models import Seat

    # The fixture's players have the table open; player 3 closes it first.
    await sync_to_async(table_closed)(seated.pk, players[3])
    seat = await sync_to_async(Seat.objects.get)(room=seated, index=3)
    assert not seat.connected
    comm, _ = await connect(seated.pk, players[3])
    await until(comm, "table")
    seat = await sync_to_async(Seat.objects.get)(room=seated, index=3)
    assert seat.connected
    await comm.disconnect()
    seat = await sync_to_async(Seat.objects.get)(room=seated, index=3)
    assert not seat.connected


async def test_ready_over_the_socket_starts_the_match(seated: Any, players: list[Any]) -> None:
    socks = []
    for user in players:
        comm, _ = await connect(seated.pk, user)
        await until(comm, "table")
        await send(comm, {"type": "hello"})
        socks.append(comm)
    for comm in socks:
        await send(comm, {"type": "ready"})
    snapshot = await until(socks[0], "snapshot", timeout=10)
    assert snapshot["round_number"] == 1
    for comm in socks:
        await comm.disconnect()


async def test_sitting_down_while_connected_counts_the_socket_as_online(
    room: Any, players: list[Any]
) -> None:
    from tables.models import Seat

    comm, _ = await connect(room.pk, players[1])
    await until(comm, "table")
    await sync_to_async(rooms.seat_take)(room=room, user=players[1], index=0)
    table = await until(comm, "table")
    assert table["you"] == 0
    assert table["seats"][0]["connected"]
    seat = await sync_to_async(Seat.objects.get)(room=room, index=0)
    assert seat.connected
    await comm.disconnect()
    seat = await sync_to_async(Seat.objects.get)(room=room, index=0)
    assert not seat.connected


async def test_a_voided_round_offers_no_actions(playing: Round, players: list[Any]) -> None:
    state = await sync_to_async(state_of)(playing)
    seat = gameplay.deciders(state)[0]
    comm, _ = await connect(playing.match.room_id, players[seat])
    await send(comm, {"type": "hello"})
    snapshot = await until(comm, "snapshot")
    assert snapshot["decision"]["legal_actions"]
    leaver = players[(seat + 1) % 4]
    await sync_to_async(rooms.seat_leave)(room=playing.match.room, user=leaver)
    decision = await until(comm, "decision")  # the round's status changed under it
    assert decision["status"] == "aborted"
    assert decision["legal_actions"] == []
    assert decision["deadline"] is None
    await comm.disconnect()


async def test_a_database_outage_is_an_error_reply_not_a_dead_socket(
    playing: Round, players: list[Any], monkeypatch: Any
) -> None:
    """PostgreSQL restarting fails the action cleanly; the socket stays."""
    from django.db import OperationalError

    state = await sync_to_async(state_of)(playing)
    seat = gameplay.deciders(state)[0]
    action = gameplay.action_json(gameplay.default_action(state, seat))
    comm, _ = await connect(playing.match.room_id, players[seat])
    await send(comm, {"type": "hello"})
    await until(comm, "snapshot")

    def down(**_kwargs: Any) -> Any:
        raise OperationalError("terminating connection due to administrator command")

    monkeypatch.setattr(commands, "round_apply_action", down)
    await send(comm, {"type": "action", "client_action_id": "x1", "action": action})
    error = await until(comm, "error")
    assert (error["code"], error["client_action_id"]) == ("unavailable", "x1")
    monkeypatch.undo()
    await send(comm, {"type": "action", "client_action_id": "x1", "action": action})
    assert (await until(comm, "ack"))["client_action_id"] == "x1"  # applied once, now
    await comm.disconnect()
