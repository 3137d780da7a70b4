"""Lobby and table pages. Seat changes are plain POSTs (they work without JavaScript); the game
itself runs over the websocket (``tables.consumers``) in ``static/tables/table.js``."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.http import require_POST

from accounts import membership
from accounts.codes import normalize_code
from rules.registry import get_variant
from tables import phrases, rooms, selectors
from tables.errors import TableError
from tables.forms import JoinRoomForm, RoomForm
from tables.models import Room


def _player(request: HttpRequest) -> Any:
    """The signed-in player (the views are all ``login_required``)."""
    return request.user


def _room_for(request: HttpRequest, room_id: int) -> Room:
    """A room of one of the player's clubs (404 otherwise: rooms of other clubs do not exist)."""
    room = get_object_or_404(Room.objects.select_related("club"), pk=room_id)
    if not membership.is_active_member(_player(request), room.club_id):
        raise Http404("no such room")
    return room


@login_required
def lobby(request: HttpRequest) -> HttpResponse:
    """大厅: the rooms of my clubs with a free seat (or my seat), a room to open, a code to join."""
    rooms = [
        room
        for room in selectors.rooms_for_lobby(request.user)
        if getattr(room, "seated", 0) < 4 or room.seats.filter(user=_player(request)).exists()
    ]
    return render(
        request,
        "tables/lobby.html",
        {"rooms": rooms, "join_form": JoinRoomForm(), "create_form": RoomForm(user=request.user)},
    )


@login_required
def room_create(request: HttpRequest) -> HttpResponse:
    form = RoomForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        room = form.save(commit=False)
        try:
            room = rooms.room_create(
                user=request.user,
                club=room.club,
                name=room.name,
                variant=room.variant,
                base_stake=room.base_stake,
                turn_timeout_s=room.turn_timeout_s,
                claim_timeout_s=room.claim_timeout_s,
                allow_spectators=room.allow_spectators,
                allow_bots=room.allow_bots,
                bot_level=room.bot_level,
                spectator_delay_s=room.spectator_delay_s,
                practice=room.practice,
                bot_hints=room.bot_hints,
            )
        except TableError as exc:
            form.add_error(None, str(exc))
        else:
            return redirect("tables:room", room_id=room.pk)
    return render(request, "tables/create.html", {"form": form})


@login_required
@require_POST
def room_join(request: HttpRequest) -> HttpResponse:
    form = JoinRoomForm(request.POST)
    if form.is_valid():
        room = Room.objects.filter(invite_code=normalize_code(form.cleaned_data["code"])).first()
        if room is not None and membership.is_active_member(_player(request), room.club_id):
            return redirect("tables:room", room_id=room.pk)
    messages.error(request, _("没有这个房间，或它不在你的亲友圈里。"))
    return redirect("tables:lobby")


@login_required
def room(request: HttpRequest, room_id: int) -> HttpResponse:
    """牌桌: the seats, and the live table (rendered by JavaScript from the websocket)."""
    the_room = _room_for(request, room_id)
    flow = get_variant(the_room.variant).flow
    return render(
        request,
        "tables/table.html",
        {
            "room": the_room,
            # The variant's facts the page's style and scripts read (never its key): the tiles
            # of a hand (the 16-tile layout) and whether the engine wins for a ready player.
            "hand_size": flow.hand_size,
            "auto_win": flow.wins_after_ting,
            "my_seat": selectors.seat_of(the_room.pk, request.user),
            "table": selectors.table_message(the_room, request.user.pk),
            # What static/tables/extras.js needs: the quick phrases in the page's language and
            # where a round's result picture is (round 0 stands for the round's id).
            "extras": {
                "phrases": phrases.phrase_texts(),
                "result_url": reverse("scoring:result_image", args=[0]),
            },
        },
    )


REFUSALS = {
    "seat_taken": _lazy("这个座位刚被别人坐了，换一个吧。"),
    "already_seated": _lazy("你已经坐在这张桌上了。"),
    "match_in_play": _lazy("对局进行中，不能入座。"),
    "room_closed": _lazy("房间已关闭。"),
    "not_member": _lazy("你不是这个亲友圈的成员。"),
    "not_seated": _lazy("请先入座。"),
    "no_bots": _lazy("这个房间不允许机器人。"),
    "bad_bot_level": _lazy("没有这个机器人水平。"),
    "bad_seat": _lazy("没有这个座位。"),
}
"""What a player is told when a seat change is refused (the service's ``code``)."""


def _wants_json(request: HttpRequest) -> bool:
    """The table page's script asks for a JSON answer; a plain form post gets the page back."""
    return "application/json" in request.headers.get("Accept", "")


def _seat_post(request: HttpRequest, room_id: int, what: str) -> HttpResponse:
    the_room = _room_for(request, room_id)
    try:
        if what == "sit":
            raw = request.POST.get("index", "")
            rooms.seat_take(
                room=the_room,
                user=request.user,
                index=int(raw) if raw.isascii() and raw.isdigit() else None,
            )
        elif what == "leave":
            rooms.seat_leave(room=the_room, user=request.user)
        elif what == "ready":
            rooms.seat_set_ready(
                room=the_room, user=request.user, ready=request.POST.get("ready", "1") == "1"
            )
        elif what == "bots":
            rooms.seats_fill_with_bots(
                room=the_room,
                user=request.user,
                level=request.POST.get("level") or None,
                index=request.POST.get("index") or None,
            )
        elif what == "back":
            rooms.seat_back(room=the_room, user=request.user)
    except TableError as exc:
        text = str(REFUSALS.get(exc.code, str(exc)))
        if _wants_json(request):
            return JsonResponse({"ok": False, "code": exc.code, "message": text}, status=409)
        messages.error(request, text)
    else:
        if _wants_json(request):
            return JsonResponse({"ok": True})
    return redirect("tables:room", room_id=the_room.pk)


@login_required
@require_POST
def seat_sit(request: HttpRequest, room_id: int) -> HttpResponse:
    return _seat_post(request, room_id, "sit")


@login_required
@require_POST
def seat_leave(request: HttpRequest, room_id: int) -> HttpResponse:
    return _seat_post(request, room_id, "leave")


@login_required
@require_POST
def seat_ready(request: HttpRequest, room_id: int) -> HttpResponse:
    return _seat_post(request, room_id, "ready")


@login_required
@require_POST
def seat_bots(request: HttpRequest, room_id: int) -> HttpResponse:
    return _seat_post(request, room_id, "bots")


@login_required
@require_POST
def seat_back(request: HttpRequest, room_id: int) -> HttpResponse:
    return _seat_post(request, room_id, "back")
