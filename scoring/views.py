"""Pages: my matches, a match, a round (fairness), its replay, the leaderboards and a player's
ratings.

Who may see what: a match, its rounds and their replays are visible to the active members of the
room's club (the replay link is shareable inside the club), and a replay only once its round has
ended: during play it would show every hand. A round's review (牌谱分析) is for those and for the
round's own players, once it has ended. Anything else is 403.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from accounts.models import Club
from scoring import charts, ratings, reviews, selectors
from scoring.forms import LeaderboardForm, MatchFilterForm
from scoring.replay import ReplayMismatch, replay_json
from scoring.result_image import result_png
from tables.models import Match, Round
from tables.selectors import wall_still_in_play


def _require_member(request: HttpRequest, club_id: int) -> None:
    if not selectors.is_club_member(request.user, club_id):
        raise PermissionDenied("only members of this club may see this")


def _int_or_none(value: object) -> int | None:
    try:
        return int(str(value)) if value not in (None, "") else None
    except ValueError:
        return None


@login_required
def my_matches(request: HttpRequest) -> HttpResponse:
    """我的对局: my matches, newest first, filtered by variant, club and dates, 20 a page."""
    form = MatchFilterForm(request.GET or None, user=request.user)
    filters: dict[str, Any] = {}
    if form.is_valid():
        data = form.cleaned_data
        filters = {
            "variant": data["variant"] or None,
            "club_id": _int_or_none(data["club"]),
            "since": data["since"],
            "until": data["until"],
        }
    matches = selectors.matches_for_user(request.user, **filters)
    page = Paginator(matches, 20).get_page(request.GET.get("page"))
    rows = [
        {"match": m, "players": selectors.player_names(m.players, m.bot_levels)}
        for m in page.object_list
    ]
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "scoring/my_matches.html",
        {"form": form, "page": page, "rows": rows, "query": query.urlencode()},
    )


@login_required
def match_detail(request: HttpRequest, match_id: int) -> HttpResponse:
    """A match: every round's winner, fan breakdown, kong payments and nets, the running totals
    and their chart."""
    match = get_object_or_404(Match.objects.select_related("room__club"), pk=match_id)
    _require_member(request, match.room.club_id)
    rows = selectors.ledger_rows_for_match(match)
    names = selectors.player_names(match.players, match.bot_levels)
    totals = selectors.match_totals(match)
    chart = (
        charts.cumulative_chart([r.cumulative for r in rows], names, title=_("累计得分"))
        if rows
        else None
    )
    return render(
        request,
        "scoring/match.html",
        {
            "match": match,
            "rows": rows,
            "names": names,
            "seats": list(zip(range(4), names, totals, strict=True)),
            "places": selectors.placements(totals),
            "chart": chart,
            "legend": charts.legend(names),
            "my_seat": (
                match.players.index(request.user.pk) if request.user.pk in match.players else None
            ),
        },
    )


def _round_for(request: HttpRequest, round_id: int) -> Round:
    rnd = selectors.round_for_page(round_id)
    if rnd is None:
        raise Http404("no such round")
    _require_member(request, rnd.match.room.club_id)
    return rnd


@login_required
def round_detail(request: HttpRequest, round_id: int) -> HttpResponse:
    """A round's fairness record: the commitment published at the deal; after the round, the
    revealed salt and wall with a button that checks them in the browser, and the settlement."""
    rnd = _round_for(request, round_id)
    # Duplicate walls: the record waits for every table dealt the same wall.
    ended = rnd.status == Round.Status.ENDED and not wall_still_in_play(rnd)
    reveal = None
    if ended:
        payload = rnd.events.filter(kind="round_ended").values_list("payload", flat=True).first()
        if payload:
            reveal = {"salt": payload.get("salt", ""), "wall": ",".join(payload.get("wall", []))}
    rows = [r for r in selectors.ledger_rows_for_match(rnd.match_id) if r.round_id == rnd.pk]
    return render(
        request,
        "scoring/round.html",
        {
            "round": rnd,
            "ended": ended,
            "reveal": reveal,
            "row": rows[0] if rows else None,
            "names": selectors.player_names(rnd.match.players, rnd.match.bot_levels),
        },
    )


@login_required
def round_replay(request: HttpRequest, round_id: int) -> HttpResponse:
    """回放: step through the whole event log with every hand visible (ended rounds only)."""
    rnd = _round_for(request, round_id)
    if rnd.status != Round.Status.ENDED or wall_still_in_play(rnd):
        raise PermissionDenied("the replay is available once the round has ended")
    try:
        data = replay_json(rnd)
    except ReplayMismatch as exc:
        return render(
            request, "scoring/replay_broken.html", {"round": rnd, "error": str(exc)}, status=409
        )
    rows = [r for r in selectors.ledger_rows_for_match(rnd.match_id) if r.round_id == rnd.pk]
    return render(
        request,
        "scoring/replay.html",
        {
            "round": rnd,
            "replay": data,
            "row": rows[0] if rows else None,
            "names": selectors.player_names(rnd.match.players, rnd.match.bot_levels),
        },
    )


@login_required
def round_result_image(request: HttpRequest, round_id: int) -> HttpResponse:
    """结算图: the round's settlement as a PNG to share; who may see it: as the
    replay (club members, once the round has ended and is settled)."""
    rnd = _round_for(request, round_id)
    if rnd.status != Round.Status.ENDED:
        raise PermissionDenied("the result is available once the round has ended")
    rows = [r for r in selectors.ledger_rows_for_match(rnd.match_id) if r.round_id == rnd.pk]
    if not rows:
        raise Http404("the round is not settled yet")
    room = rnd.match.room
    png = result_png(
        row=rows[0],
        names=selectors.player_names(rnd.match.players, rnd.match.bot_levels),
        variant=rnd.match.get_variant_display(),
        room=room.name,
        club=room.club.name,
    )
    response = HttpResponse(png, content_type="image/png")
    response["Content-Disposition"] = f'inline; filename="queyou-round-{rnd.pk}.png"'
    response["Cache-Control"] = "private, max-age=300"
    return response


@login_required
def round_review(request: HttpRequest, round_id: int, seat: int) -> HttpResponse:
    """牌谱分析: step through the round from ``seat``'s view, each of its decisions beside the
    hard bot's choice, with the candidate discards (ended rounds; the round's players and whoever
    may see its replay)."""
    rnd = selectors.round_for_page(round_id)
    if rnd is None or seat not in range(4) or not selectors.review_visible(request.user, rnd):
        raise Http404("no such round")
    if rnd.status != Round.Status.ENDED:
        raise PermissionDenied("the review is available once the round has ended")
    names = selectors.player_names(rnd.match.players, rnd.match.bot_levels)
    return render(
        request,
        "scoring/review.html",
        {
            "round": rnd,
            "seat": seat,
            "seat_name": names[seat],
            "seats": list(enumerate(names)),
            "names": names,
            "data": reviews.review_page_json(rnd, seat),
            "can_replay": selectors.is_club_member(request.user, rnd.match.room.club_id),
        },
    )


@login_required
def leaderboard(request: HttpRequest) -> HttpResponse:
    """排行榜 of one club (members only) or of all the viewer's clubs, per variant and period."""
    form = LeaderboardForm(request.GET or None, user=request.user)
    club: Club | None = None
    variant, period, order, bots = None, "all", "net", False
    # An unknown club in the URL is refused: the choices hold only the player's clubs.
    if (
        form.is_bound
        and not form.is_valid()
        and "club" in form.errors
        and _int_or_none(request.GET.get("club")) is not None
    ):
        raise PermissionDenied("only members of this club may see its board")
    if form.is_valid():
        data = form.cleaned_data
        club_id = _int_or_none(data["club"])
        if club_id is not None:
            _require_member(request, club_id)
            club = get_object_or_404(Club, pk=club_id)
        variant = data["variant"] or None
        period = data["period"] or "all"
        order = data["order"] or "net"
        bots = bool(data["bots"])
    scope = club if club is not None else selectors.member_club_ids(request.user)
    rows = selectors.leaderboard_rows(
        club=scope, variant=variant, period=period, order=order, bots=bots
    )
    return render(
        request,
        "scoring/leaderboard.html",
        {
            "form": form,
            "rows": rows,
            "club": club,
            "rated_scope": selectors.rating_scope(scope, variant) is not None,
            "provisional_games": ratings.provisional_games(),
        },
    )


@login_required
def player_ratings(request: HttpRequest, user_id: int) -> HttpResponse:
    """等级分记录: a player's rating in each club and variant the viewer can see (the clubs the
    viewer is a member of), its chart and every rated round, newest first."""
    found = selectors.ratings_for_viewer(request.user, user_id)
    if found is None:
        raise Http404("no ratings of this player in your clubs")
    player, cards = found
    return render(
        request,
        "scoring/player_ratings.html",
        {
            "player": player,
            "cards": [
                {
                    "card": card,
                    "chart": charts.rating_chart(
                        [p.rating for p in card.points], title=_("等级分走势")
                    ),
                    "recent": card.points[::-1][:RECENT_ROUNDS],
                }
                for card in cards
            ],
            "provisional_games": ratings.provisional_games(),
            "recent_rounds": RECENT_ROUNDS,
        },
    )


RECENT_ROUNDS = 50
"""Rated rounds listed under a rating's chart (the chart shows them all)."""
