"""Read-only queries of the ledgers: history, one match's rounds, leaderboards and ratings.

Typed and free of HTTP so that the pages (``scoring.views``) and the API (another helper) share
them. Every total is summed from :class:`~scoring.models.LedgerEntry` rows when asked: a match's
score is never stored twice.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, Literal

from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, IntegerField, Max, OuterRef, Q, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts import membership
from accounts.models import Club, User
from scoring.labels import fan_label, kong_label, payment_label, unit_label, win_by_label
from scoring.models import LedgerEntry, RoundSettlement
from tables import bot_names
from tables.models import Match, Round

Period = Literal["week", "month", "all"]
PERIODS: dict[str, int | None] = {"week": 7, "month": 30, "all": None}
"""A leaderboard's period as a rolling window in days (``None``: all time). Rolling windows
rather than calendar weeks: a Monday-morning board is then never empty."""

ELO_START = 1500.0
ELO_K = 32.0
MIN_RATED_MATCHES = 5
"""A player's rating is shown once they have finished this many four-player matches."""


# --- access -----------------------------------------------------------------------------------


def is_club_member(user: Any, club_id: int) -> bool:
    """Active members of a club may see its matches, rounds, replays and board."""
    if not getattr(user, "is_authenticated", False):
        return False
    return membership.is_active_member(user, club_id)


ClubScope = Club | int | Collection[int] | None
"""Whose results a board counts: one club, several (a viewer's own clubs: what "all clubs" means
on a page, issue 14 item 13 — nobody sees the players and scores of a club they are not in), or
None: every club (tools and benchmarks only, never a page)."""


def club_ids(club: ClubScope) -> tuple[int, ...] | None:
    """The club ids of a scope, sorted (None: every club).

    >>> club_ids(3), club_ids([5, 2, 5]), club_ids(None)
    ((3,), (2, 5), None)
    """
    if club is None:
        return None
    if isinstance(club, int):
        return (club,)
    if isinstance(club, Club):
        return (club.pk,)
    return tuple(sorted(set(club)))


def member_club_ids(user: Any) -> list[int]:
    return list(membership.active_memberships(user).values_list("club_id", flat=True))


# --- my matches -------------------------------------------------------------------------------


def matches_for_user(
    user: Any,
    *,
    variant: str | None = None,
    club_id: int | None = None,
    since: date | None = None,
    until: date | None = None,
) -> QuerySet[Match]:
    """The matches the user played a settled round in, newest first, each annotated with
    ``my_net`` (the user's total), ``rounds_settled`` and ``last_round_at``."""
    mine = LedgerEntry.objects.filter(user=user)
    qs = Match.objects.filter(pk__in=mine.values("match_id"))
    if variant:
        qs = qs.filter(variant=variant)
    if club_id:
        qs = qs.filter(room__club_id=club_id)
    if since:
        qs = qs.filter(started_at__date__gte=since)
    if until:
        qs = qs.filter(started_at__date__lte=until)
    my_total = (
        LedgerEntry.objects.filter(match=OuterRef("pk"), user=user)
        .order_by()  # no default ordering: it would join the settlement and the match
        .values("match")
        .annotate(total=Sum("net"))
        .values("total")
    )
    return (
        qs.select_related("room__club")
        .annotate(
            my_net=Coalesce(Subquery(my_total, output_field=IntegerField()), 0),
            rounds_settled=Count("settlements", distinct=True),
            last_round_at=Max("settlements__ended_at"),
        )
        .order_by("-started_at", "-pk")
    )


def player_names(user_ids: Iterable[int | None], bot_levels: Sequence[str] = ()) -> list[str]:
    """Names of a match's seats in order: players' public names, bots' names of their own
    (机器人·简单 1, ``tables.bot_names``; pass the match's ``bot_levels``)."""
    players = list(user_ids)
    ids = [u for u in players if u is not None]
    names = {u.pk: u.public_name for u in User.objects.filter(pk__in=ids)}
    return bot_names.seat_names(players, names, bot_levels)


def bot_seat_name(match: Match, seat: int) -> str:
    """The name of the bot at ``seat`` of ``match`` (a ledger line whose user is null)."""
    return bot_names.seat_names(match.players, {}, match.bot_levels or ())[seat]


# --- one match --------------------------------------------------------------------------------


@dataclass(frozen=True)
class FanLine:
    key: str
    value: int
    label: str
    winner: int
    """The seat whose win scored the item."""


@dataclass(frozen=True)
class WinRow:
    """One win of a round with its own fan items and total (成麻: up to three a round)."""

    seat: int
    self_drawn: bool
    fan_total: int
    fan: tuple[FanLine, ...]


@dataclass(frozen=True)
class KongLine:
    kong_index: int
    konger: int
    kind: str
    label: str
    tiles: str
    payers: tuple[tuple[int, int], ...]
    """``(payer seat, amount)`` for each payer of this kong."""


@dataclass(frozen=True)
class RoundRow:
    """One settled round of a match, as its page shows it."""

    round_id: int
    number: int
    dealer: int
    winner: int | None
    win_by: str
    win_by_label: str
    discarder: int | None
    win_tile: str
    fan_total: int
    fan: tuple[FanLine, ...]
    kongs: tuple[KongLine, ...]
    capped: bool
    cap: int | None
    nets: tuple[int, int, int, int]
    cumulative: tuple[int, int, int, int]
    ended_at: datetime
    unit: str = ""
    """What the fan items count in, in the page's language: 番, 台 or 分 (Li-Si)."""
    payments: tuple[PaymentRow, ...] = ()
    """Every payment as its own labelled line, when the variant keeps such a ledger (成麻)."""
    winners: tuple[int, ...] = ()
    """Every seat that won (成麻: several), in order."""
    wins: tuple[WinRow, ...] = ()
    """Every win with its fan items, in the order they were made (``fan`` is all of them)."""


@dataclass(frozen=True)
class PaymentRow:
    """One labelled payment of a round (``scoring.models.PaymentLine``)."""

    kind: str
    label: str
    payer: int
    payee: int
    amount: int
    winner: int | None
    detail: str


def ledger_rows_for_match(match: Match | int) -> list[RoundRow]:
    """Every settled round of a match in order, with fan items (labels in the active language),
    kong payments, nets and the running totals."""
    match_id = match if isinstance(match, int) else match.pk
    settlements = (
        RoundSettlement.objects.filter(match_id=match_id)
        .prefetch_related("fan_items", "kong_payments", "payment_lines", "entries")
        .order_by("number")
    )
    rows: list[RoundRow] = []
    running = [0, 0, 0, 0]
    for s in settlements:
        running = [a + b for a, b in zip(running, s.nets, strict=True)]
        fan = tuple(
            FanLine(f.key, f.value, fan_label(f.key, s.variant), f.winner)
            for f in s.fan_items.all()
        )
        winners = _winners(s)
        rows.append(
            RoundRow(
                round_id=s.round_id,
                number=s.number,
                dealer=s.dealer,
                winner=s.winner,
                win_by=s.win_by,
                win_by_label=win_by_label(s.win_by),
                discarder=s.discarder,
                win_tile=s.win_tile,
                fan_total=s.fan_total,
                fan=fan,
                kongs=_kong_lines(s),
                capped=s.capped,
                cap=s.cap,
                nets=s.nets,
                cumulative=(running[0], running[1], running[2], running[3]),
                ended_at=s.ended_at,
                unit=unit_label(s.variant),
                payments=tuple(
                    PaymentRow(
                        p.kind,
                        payment_label(p.kind),
                        p.payer,
                        p.payee,
                        p.amount,
                        p.winner,
                        p.detail,
                    )
                    for p in s.payment_lines.all()
                ),
                winners=winners,
                wins=_wins(s, winners, fan),
            )
        )
    return rows


def _winners(settlement: RoundSettlement) -> tuple[int, ...]:
    """The seats that won, in the order of their wins: 成麻's win payment lines, else the one
    winner (or none)."""
    ordered = dict.fromkeys(
        p.winner for p in settlement.payment_lines.all() if p.kind == "win" and p.winner is not None
    )
    if ordered:
        return tuple(ordered)
    return () if settlement.winner is None else (settlement.winner,)


def _wins(
    settlement: RoundSettlement, winners: tuple[int, ...], fan: tuple[FanLine, ...]
) -> tuple[WinRow, ...]:
    """Each win with its items; its total and way from the winner's ledger entry."""
    entries = {e.seat: e for e in settlement.entries.all()}
    return tuple(
        WinRow(
            seat=seat,
            self_drawn=entries[seat].self_drawn if seat in entries else False,
            fan_total=entries[seat].fan_total if seat in entries else settlement.fan_total,
            fan=tuple(f for f in fan if f.winner == seat),
        )
        for seat in winners
    )


def _kong_lines(settlement: RoundSettlement) -> tuple[KongLine, ...]:
    grouped: dict[int, list[Any]] = defaultdict(list)
    for p in settlement.kong_payments.all():
        grouped[p.kong_index].append(p)
    return tuple(
        KongLine(
            kong_index=index,
            konger=payments[0].konger,
            kind=payments[0].kind,
            label=kong_label(payments[0].kind),
            tiles=payments[0].tiles,
            payers=tuple((p.payer, p.amount) for p in payments),
        )
        for index, payments in sorted(grouped.items())
    )


def match_totals(match: Match | int) -> tuple[int, int, int, int]:
    """Each seat's total over the match's settled rounds (summed from the ledger)."""
    match_id = match if isinstance(match, int) else match.pk
    totals = [0, 0, 0, 0]
    for seat, total in (
        LedgerEntry.objects.filter(match_id=match_id)
        .order_by()
        .values("seat")
        .annotate(total=Sum("net"))
        .values_list("seat", "total")
    ):
        totals[seat] = int(total or 0)
    return (totals[0], totals[1], totals[2], totals[3])


def placements(totals: Sequence[int]) -> list[int]:
    """1-based places by total, ties sharing the better place (1, 1, 3, 4).

    >>> placements([5, -2, 5, -8])
    [1, 3, 1, 4]
    """
    return [1 + sum(1 for other in totals if other > mine) for mine in totals]


# --- leaderboards -----------------------------------------------------------------------------


@dataclass
class LeaderboardRow:
    """A player's line on a board; ``rating`` is None under the minimum number of matches."""

    user_id: int
    name: str
    net: int
    rounds: int
    wins: int
    self_draws: int
    fan_sum: int
    rated_matches: int = 0
    rating: float | None = None
    rank: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.rounds if self.rounds else 0.0

    @property
    def self_draw_rate(self) -> float:
        """Self-draws among the player's wins (自摸率)."""
        return self.self_draws / self.wins if self.wins else 0.0

    @property
    def average_fan(self) -> float:
        """Average fan per win."""
        return self.fan_sum / self.wins if self.wins else 0.0


def period_start(period: str, now: datetime | None = None) -> datetime | None:
    """The first moment of a period: local midnight ``days`` days ago (``None``: all time).

    Starting at midnight keeps a board the same all day (and lets its ratings be cached).
    """
    days = PERIODS.get(period)
    if days is None:
        return None
    start = timezone.localtime(now or timezone.now()) - timedelta(days=days)
    return start.replace(hour=0, minute=0, second=0, microsecond=0)


def _scoped_entries(
    *, club: ClubScope, variant: str | None, since: datetime | None
) -> QuerySet[LedgerEntry]:
    qs = LedgerEntry.objects.filter(user__isnull=False)
    ids = club_ids(club)
    if ids is not None:
        qs = qs.filter(club_id__in=ids)
    if variant:
        qs = qs.filter(variant=variant)
    if since is not None:
        qs = qs.filter(ended_at__gte=since)
    return qs


def leaderboard_rows(
    *,
    club: ClubScope = None,
    variant: str | None = None,
    period: str = "all",
    now: datetime | None = None,
    limit: int | None = 100,
    order: str = "net",
) -> list[LeaderboardRow]:
    """A board: per player net points, rounds, win rate, self-draw rate, average fan per win and
    skill rating, for a :data:`ClubScope` and one variant (or all) over a period.

    One grouped query over the ledger (``ledger_club_variant_time`` / ``ledger_variant_time``
    indexes) plus the rating pass (:func:`elo_ratings`). ``order`` is ``net`` or ``rating``.
    """
    since = period_start(period, now)
    scoped = _scoped_entries(club=club, variant=variant, since=since)
    grouped = (
        scoped.values("user_id")
        .annotate(
            net_sum=Sum("net"),
            rounds=Count("id"),
            wins=Count("id", filter=Q(won=True)),
            self_draws=Count("id", filter=Q(self_drawn=True)),
            fan_sum=Coalesce(Sum("fan_total", filter=Q(won=True)), 0),
        )
        .order_by("-net_sum", "user_id")
    )
    rows = [
        LeaderboardRow(
            user_id=g["user_id"],
            name="",
            net=int(g["net_sum"] or 0),
            rounds=g["rounds"],
            wins=g["wins"],
            self_draws=g["self_draws"],
            fan_sum=int(g["fan_sum"] or 0),
        )
        for g in grouped
    ]
    ratings = elo_ratings(club=club, variant=variant, since=since)
    for row in rows:
        rated = ratings.get(row.user_id)
        if rated is not None:
            row.rated_matches = rated.matches
            if rated.matches >= MIN_RATED_MATCHES:
                row.rating = round(rated.rating, 1)
    if order == "rating":
        rows.sort(key=lambda r: (r.rating is None, -(r.rating or 0.0), -r.net, r.user_id))
    if limit is not None:
        rows = rows[:limit]
    names = {u.pk: u.public_name for u in User.objects.filter(pk__in=[r.user_id for r in rows])}
    for rank, row in enumerate(rows, start=1):
        row.rank = rank
        row.name = names.get(row.user_id, "?")
    return rows


@dataclass
class Rating:
    rating: float = ELO_START
    matches: int = 0


def elo_update(ratings: Sequence[float], totals: Sequence[int], k: float = ELO_K) -> list[float]:
    """One match's pairwise Elo: every pair of players is a game won by the better placement
    (a tie is half a point), each pair's change scaled by ``k / (n - 1)``. Zero-sum.

    >>> new = elo_update([1500.0] * 4, [9, 3, -4, -8])
    >>> [round(r - 1500, 2) for r in new], round(sum(new) - 6000, 9)
    ([16.0, 5.33, -5.33, -16.0], 0.0)
    """
    n = len(ratings)
    scale = k / (n - 1)
    # Expected score of i against j is q_i / (q_i + q_j) with q = 10^(rating / 400).
    q = [10.0 ** (r / 400.0) for r in ratings]
    new = list(ratings)
    for i in range(n):
        delta = 0.0
        for j in range(n):
            if i != j:
                score = 1.0 if totals[i] > totals[j] else 0.5 if totals[i] == totals[j] else 0.0
                delta += score - q[i] / (q[i] + q[j])
        new[i] += scale * delta
    return new


def elo_ratings(
    *, club: ClubScope = None, variant: str | None = None, since: datetime | None = None
) -> dict[int, Rating]:
    """Skill ratings from the finished matches in scope, oldest first.

    Only four-player games count: a match whose four seats are four different people (a bot at
    the table gives no rating). The placement is by the match's total over its rounds in scope.

    Rating is a pass over every match in scope (about half a second for 100k rounds, see
    ``bench/results/leaderboards.md``), so the result is cached per scope: it is reused while no
    round has been settled since, and for at most ``RATINGS_MAX_STALE_S`` seconds after one, so
    a busy site recomputes a board's ratings at most once a minute.
    """
    key = _ratings_cache_key(club, variant, since)
    newest = RoundSettlement.objects.order_by("-pk").values_list("pk", flat=True).first()
    now = time.time()
    cached: tuple[int | None, float, dict[int, Rating]] | None = cache.get(key)
    if cached is not None:
        seen, computed_at, ratings = cached
        if seen == newest or now - computed_at < _max_stale_s():
            return ratings
    ratings = _compute_elo(club=club, variant=variant, since=since)
    cache.set(key, (newest, now, ratings), RATINGS_CACHE_S)
    return ratings


RATINGS_CACHE_S = 3600
RATINGS_MAX_STALE_S = 60.0


def _max_stale_s() -> float:
    """``SCORING_RATINGS_MAX_STALE_S`` (default ``RATINGS_MAX_STALE_S``)."""
    return float(getattr(settings, "SCORING_RATINGS_MAX_STALE_S", RATINGS_MAX_STALE_S))


def _ratings_cache_key(club: ClubScope, variant: str | None, since: datetime | None) -> str:
    ids = club_ids(club)
    scope = "*" if ids is None else ",".join(map(str, ids))
    day = since.isoformat() if since is not None else "all"
    return f"scoring:elo:{scope}:{variant or '*'}:{day}"


def _scoped_settlements(
    *, club: ClubScope, variant: str | None, since: datetime | None
) -> QuerySet[RoundSettlement]:
    qs = RoundSettlement.objects.all()
    ids = club_ids(club)
    if ids is not None:
        qs = qs.filter(club_id__in=ids)
    if variant:
        qs = qs.filter(variant=variant)
    if since is not None:
        qs = qs.filter(ended_at__gte=since)
    return qs


def _compute_elo(
    *, club: ClubScope, variant: str | None, since: datetime | None
) -> dict[int, Rating]:
    """Per finished match in scope, the four seats' totals (summed from the settlements: one row
    per round, a quarter of the ledger entries) and when it ended; then the seats' players from
    the match, and the Elo pass in the order the matches ended (``Match.ended_at``, else its
    start)."""
    totals = (
        _scoped_settlements(club=club, variant=variant, since=since)
        .filter(match__status=Match.Status.FINISHED)
        .order_by()
        .values("match_id")
        .annotate(
            t0=Sum("net_0"),
            t1=Sum("net_1"),
            t2=Sum("net_2"),
            t3=Sum("net_3"),
            # An aggregate, not a group key: grouping by an expression forces a sort.
            ended=Max(Coalesce("match__ended_at", "match__started_at")),
        )
        .values_list("match_id", "t0", "t1", "t2", "t3", "ended")
    )
    per_match = {row[0]: row for row in totals}
    seated = Match.objects.filter(pk__in=totals.values("match_id")).values_list("pk", "players")
    games: list[tuple[datetime, int, list[int], list[int]]] = []
    for match_id, players in seated:
        people = [p for p in players if isinstance(p, int)] if isinstance(players, list) else []
        if len(people) != 4 or len(set(people)) != 4:
            continue  # a bot (or an empty seat) at the table: not a four-player game
        row = per_match.get(match_id)
        if row is None:  # settled between the two queries
            continue
        _, t0, t1, t2, t3, ended = row
        games.append((ended, match_id, people, [int(t or 0) for t in (t0, t1, t2, t3)]))
    games.sort(key=lambda g: (g[0], g[1]))
    ratings: dict[int, Rating] = defaultdict(Rating)
    for _ended, _match_id, people, match_totals_ in games:
        updated = elo_update([ratings[u].rating for u in people], match_totals_)
        for user, new in zip(people, updated, strict=True):
            rating = ratings[user]
            rating.rating = new
            rating.matches += 1
    return dict(ratings)


# --- rounds -----------------------------------------------------------------------------------


def round_for_page(round_id: int) -> Round | None:
    return (
        Round.objects.select_related("match__room__club", "settlement").filter(pk=round_id).first()
    )


def settlement_of(rnd: Round) -> RoundSettlement | None:
    return RoundSettlement.objects.filter(round=rnd).first()


def rounds_played_by(user: Any) -> QuerySet[LedgerEntry, int]:
    """The ids (``round_id``) of the settled rounds ``user`` held a seat in."""
    return (
        LedgerEntry.objects.filter(user=user)
        .order_by()
        .values_list("settlement__round_id", flat=True)
    )


def review_visible(user: Any, rnd: Round) -> bool:
    """牌谱分析 of an ended round is for its players and for whoever may see its replay (the
    active members of the room's club, :func:`is_club_member`), never before it has ended."""
    if not getattr(user, "is_authenticated", False):
        return False
    if is_club_member(user, rnd.match.room.club_id):
        return True
    if user.pk in (rnd.match.players or []):
        return True
    return rounds_played_by(user).filter(settlement__round_id=rnd.pk).exists()
