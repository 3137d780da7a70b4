"""Event pages: a club's events, an event (registration, seating per round, live and
final standings), the admins' create and manage pages, and the notifications page. Thin: parse,
call a service, render."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import membership
from accounts.models import Club
from tables.errors import TableError
from tables.models import Entrant, Notification, Tournament
from tables.tournaments import selectors, services
from tables.tournaments.forms import BotsForm, PairForm, ReseatForm, TournamentForm
from tables.tournaments.standings import TIEBREAKS


def _player(request: HttpRequest) -> Any:
    """The signed-in player (the views are all ``login_required``)."""
    return request.user


def _club_for(request: HttpRequest, club_id: int) -> Club:
    club = get_object_or_404(Club, pk=club_id)
    if not membership.is_active_member(request.user, club.pk):
        raise Http404("no such club")
    return club


def _tournament_for(request: HttpRequest, tournament_id: int) -> Tournament:
    found = selectors.tournaments_visible_to(request.user).filter(pk=tournament_id).first()
    if found is None:
        raise Http404("no such event")
    return found


def _manager_or_404(request: HttpRequest, club_id: int) -> None:
    if not membership.may_manage_club(request.user, club_id):
        raise Http404("not an admin of this club")


@login_required
def tournament_list(request: HttpRequest, club_id: int) -> HttpResponse:
    """比赛: a club's events, newest first."""
    club = _club_for(request, club_id)
    return render(
        request,
        "tournaments/list.html",
        {
            "club": club,
            "tournaments": club.tournaments.order_by("-created_at"),
            "manages": membership.may_manage_club(request.user, club.pk),
        },
    )


@login_required
def tournament_create(request: HttpRequest, club_id: int) -> HttpResponse:
    club = _club_for(request, club_id)
    _manager_or_404(request, club.pk)
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        points = data.pop("placement")
        try:
            made = services.tournament_create(
                user=request.user, club=club, placement_points=points, **data
            )
        except (TableError, ValidationError) as exc:
            form.add_error(None, "; ".join(getattr(exc, "messages", [str(exc)])))
        else:
            return redirect("tournaments:manage", tournament_id=made.pk)
    return render(request, "tournaments/create.html", {"club": club, "form": form})


def _names(tournament: Tournament) -> dict[int, str]:
    return services.entrant_names(tournament)


@login_required
def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """An event: registration, seating per round (tables, hands, replays), the standings."""
    tournament = _tournament_for(request, tournament_id)
    names = _names(tournament)
    entry = Entrant.objects.filter(tournament=tournament, user=_player(request)).first()
    return render(
        request,
        "tournaments/detail.html",
        {
            "t": tournament,
            "entry": entry,
            "entrants": [names[e] for e in names],
            "rounds": selectors.rounds_view(tournament, names),
            "standings": selectors.standings_view(tournament, names),
            "tiebreaks": TIEBREAKS,  # Chinese, translated on the page
            "manages": membership.may_manage_club(request.user, tournament.club_id),
            "my_table": selectors.my_table(tournament, request.user),
        },
    )


def _run(request: HttpRequest, work: Any, done: str) -> None:
    try:
        work()
    except TableError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, done)


@login_required
@require_POST
def tournament_register(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament_for(request, tournament_id)
    if request.POST.get("withdraw"):
        _run(
            request,
            lambda: services.tournament_unregister(tournament=tournament, user=request.user),
            _("已取消报名。"),
        )
    else:
        _run(
            request,
            lambda: services.tournament_register(tournament=tournament, user=request.user),
            _("报名成功。"),
        )
    return redirect("tournaments:detail", tournament_id=tournament.pk)


@login_required
def tournament_manage(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The admins' page: registration, bots, forbidden pairs, start, pause, re-seat, end."""
    tournament = _tournament_for(request, tournament_id)
    _manager_or_404(request, tournament.club_id)
    user = request.user
    if request.method == "POST":
        what = request.POST.get("do", "")
        t = tournament
        simple = {
            "open": lambda: services.tournament_registration_set(
                tournament=t, actor=user, open=True
            ),
            "close": lambda: services.tournament_registration_set(
                tournament=t, actor=user, open=False
            ),
            "start": lambda: services.tournament_start(tournament=t, actor=user),
            "pause": lambda: services.tournament_pause(tournament=t, actor=user),
            "resume": lambda: services.tournament_resume(tournament=t, actor=user),
            "advance": lambda: services.tournament_advance(tournament_id=t.pk),
            "end": lambda: services.tournament_end(tournament=t, actor=user),
        }
        if what in simple:
            _run(request, simple[what], _("已完成。"))
        elif what == "bots":
            bots = BotsForm(request.POST)
            if bots.is_valid():
                _run(
                    request,
                    lambda: services.tournament_bots_add(
                        tournament=t,
                        actor=user,
                        count=bots.cleaned_data["count"],
                        level=bots.cleaned_data["level"],
                    ),
                    _("已加入机器人。"),
                )
        elif what == "pair":
            pair = PairForm(request.POST, tournament=t)
            if pair.is_valid():
                _run(
                    request,
                    lambda: services.tournament_forbid_pair(
                        tournament=t,
                        actor=user,
                        first=pair.cleaned_data["first"],
                        second=pair.cleaned_data["second"],
                    ),
                    _("已设为不同桌。"),
                )
        elif what == "reseat":
            reseat = ReseatForm(request.POST, tournament=t)
            if reseat.is_valid():
                _run(
                    request,
                    lambda: services.tournament_reseat(
                        tournament=t,
                        actor=user,
                        entrant=reseat.cleaned_data["entrant"],
                        reserve=reseat.cleaned_data["reserve"],
                    ),
                    _("已换人。"),
                )
        return redirect("tournaments:manage", tournament_id=tournament.pk)
    names = _names(tournament)
    return render(
        request,
        "tournaments/manage.html",
        {
            "t": tournament,
            "entrants": [
                (e, names.get(e.pk, "?"))
                for e in Entrant.objects.filter(tournament=tournament).select_related("user")
            ],
            "pairs": tournament.forbidden.select_related("first__user", "second__user"),
            "bots_form": BotsForm(),
            "pair_form": PairForm(tournament=tournament),
            "reseat_form": ReseatForm(tournament=tournament),
        },
    )


@login_required
def notification_list(request: HttpRequest) -> HttpResponse:
    """站内通知: the latest notifications; opening the page marks them read."""
    rows = list(Notification.objects.filter(user=_player(request))[:100])
    unread = {n.pk for n in rows if not n.read}
    services.notifications_mark_read(user=request.user, ids=unread)
    return render(request, "tournaments/notifications.html", {"rows": rows, "unread": unread})
