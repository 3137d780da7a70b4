"""Read-only queries of the ledgers: history, one match's rounds and leaderboards.

Typed and free of HTTP so that the pages (``scoring.views``) and the API (another helper) share
them. Every total is summed from :class:`~scoring.models.LedgerEntry` rows when asked: a match's
score is never stored twice.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, Literal

from django.db.models import Count, IntegerField, Max, OuterRef, Q, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts import membership
from accounts.models import Club, User
from scoring import ratings
from scoring.labels import fan_label, kong_label, payment_label, unit_label, win_by_label
from scoring.models import LedgerEntry, RatingHistory, RatingState, RoundSettlement
from tables import bot_names
from tables.models import Match, Round

Period = Literal["week", "month", "all"]
PERIODS: dict[str, int | None] = {"week": 7, "month": 30, "all": None}
"""A leaderboard's period as a rolling window in days (``None``: all time). Rolling windows
rather than calendar weeks: a Monday-morning board is then never empty."""


# --- access -----------------------------------------------------------------------------------


def is_club_member(user: Any, club_id: int) -> bool:
    """Active members of a club may see its matches, rounds, replays and board."""
    if not getattr(user, "is_authenticated", False):
        return False
    return membership.is_active_member(user, club_id)


ClubScope = Club | int | Collection[int] | None
"""Whose results a board counts: one club, several (a viewer's own clubs: what "all clubs" means
on a page — nobody sees the players and scores of a club they are not in), or
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
    """A line of a board: a player's, or (when bots are shown) one bot level's.

    ``rating`` is the shown rating (``scoring.ratings.display``) in the board's club and variant,
    None when the board spans several clubs or variants (a rating is per club per variant) or
    the row is not rated there yet; ``provisional`` (定级中) under the provisional games.
    """

    user_id: int | None
    name: str
    net: int
    rounds: int
    wins: int
    self_draws: int
    fan_sum: int
    bot: str = ""
    """The bot level of a bot row (``scoring.ratings.UNKNOWN_BOT`` for unrecorded levels)."""
    rating_games: int = 0
    rating: float | None = None
    provisional: bool = False
    rank: int = 0

    @property
    def is_bot(self) -> bool:
        return bool(self.bot)

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

    Starting at midnight keeps a board the same all day.
    """
    days = PERIODS.get(period)
    if days is None:
        return None
    start = timezone.localtime(now or timezone.now()) - timedelta(days=days)
    return start.replace(hour=0, minute=0, second=0, microsecond=0)


def _scoped_entries(
    *, club: ClubScope, variant: str | None, since: datetime | None, players: bool = True
) -> QuerySet[LedgerEntry]:
    # Practice rooms' rounds stay in the players' history but are not on any board.
    qs = LedgerEntry.objects.filter(user__isnull=not players, practice=False)
    ids = club_ids(club)
    if ids is not None:
        qs = qs.filter(club_id__in=ids)
    if variant:
        qs = qs.filter(variant=variant)
    if since is not None:
        qs = qs.filter(ended_at__gte=since)
    return qs


def rating_scope(club: ClubScope, variant: str | None) -> tuple[int, str] | None:
    """The one club and variant whose ratings a board shows, or None when it spans several."""
    ids = club_ids(club)
    if ids is None or len(ids) != 1 or not variant:
        return None
    return ids[0], variant


def leaderboard_rows(
    *,
    club: ClubScope = None,
    variant: str | None = None,
    period: str = "all",
    now: datetime | None = None,
    limit: int | None = 100,
    order: str = "net",
    bots: bool = False,
) -> list[LeaderboardRow]:
    """A board: per player net points, rounds, win rate, self-draw rate, average fan per win and
    rating, for a :data:`ClubScope` and one variant (or all) over a period.

    One grouped query over the ledger (``ledger_club_variant_time`` / ``ledger_variant_time``
    indexes); with one club and one variant, the players' current ratings (``RatingState``, kept
    up to date by the settlement: ``scoring.ratings``). ``order`` is ``net`` or ``rating`` (the
    conservative value; final ratings before provisional ones, unrated last). ``bots``: a row
    per bot level as well (rated like players, hidden by default: players look for people).
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
    if bots:
        rows += _bot_rows(_scoped_entries(club=club, variant=variant, since=since, players=False))
    scope = rating_scope(club, variant)
    if scope is not None:
        _attach_ratings(rows, club_id=scope[0], variant=scope[1])
    if order == "rating":
        rows.sort(
            key=lambda r: (r.rating is None, r.provisional, -(r.rating or 0.0), -r.net, r.bot)
        )
    else:
        rows.sort(key=lambda r: (-r.net, r.user_id or 0, r.bot))
    if limit is not None:
        rows = rows[:limit]
    ids = [r.user_id for r in rows if r.user_id is not None]
    names = {u.pk: u.public_name for u in User.objects.filter(pk__in=ids)}
    for rank, row in enumerate(rows, start=1):
        row.rank = rank
        if row.user_id is not None:
            row.name = names.get(row.user_id, "?")
        else:
            row.name = ratings.bot_level_name(row.bot)
    return rows


def _bot_rows(entries: QuerySet[LedgerEntry]) -> list[LeaderboardRow]:
    """A row per bot level from the ledger lines without a user whose seat held a bot (a line
    whose player's account was deleted has no user either, but its seat names the player)."""
    lines = list(
        entries.order_by().values_list("match_id", "seat", "net", "won", "self_drawn", "fan_total")
    )
    seating = dict(
        (pk, (players, levels))
        for pk, players, levels in Match.objects.filter(
            pk__in={line[0] for line in lines}
        ).values_list("pk", "players", "bot_levels")
    )
    rows: dict[str, LeaderboardRow] = {}
    for match_id, seat, net, won, self_drawn, fan_total in lines:
        players, levels = seating.get(match_id, ([], []))
        if not isinstance(players, list) or seat >= len(players) or players[seat] is not None:
            continue
        level = (levels or [])[seat] if seat < len(levels or []) else ""
        key = ratings.bot_key(str(level))[1]
        row = rows.setdefault(key, LeaderboardRow(None, "", 0, 0, 0, 0, 0, bot=key))
        row.net += net
        row.rounds += 1
        row.wins += int(won)
        row.self_draws += int(self_drawn)
        row.fan_sum += fan_total if won else 0
    return list(rows.values())


def _attach_ratings(rows: list[LeaderboardRow], *, club_id: int, variant: str) -> None:
    states = RatingState.objects.filter(club_id=club_id, variant=variant)
    by_user = {s.user_id: s for s in states.filter(user_id__in=[r.user_id for r in rows])}
    by_bot = {s.bot: s for s in states.filter(user__isnull=True)}
    threshold = ratings.provisional_games()
    for row in rows:
        state = by_bot.get(row.bot) if row.bot else by_user.get(row.user_id)
        if state is None:
            continue
        row.rating = ratings.display(state.conservative)
        row.rating_games = state.games
        row.provisional = state.games < threshold


@dataclass(frozen=True)
class RatingPoint:
    """A player's rating right after one rated round."""

    games: int
    ended_at: datetime
    round_id: int
    rating: float
    change: float
    mu: float
    sigma: float


@dataclass
class RatingCard:
    """A player's rating in one club and variant, with its history (oldest first)."""

    club_id: int
    club_name: str
    variant: str
    rating: float
    games: int
    provisional: bool
    mu: float
    sigma: float
    points: list[RatingPoint]


def player_rating_history(*, user_id: int, clubs: Collection[int]) -> list[RatingCard]:
    """The user's ratings in ``clubs`` (the viewer's: a club's ratings are for its members), per
    club and variant, each with every rated round."""
    states = list(
        RatingState.objects.filter(user_id=user_id, club_id__in=list(clubs))
        .select_related("club")
        .order_by("club__name", "club_id", "variant")
    )
    history: dict[int, list[RatingPoint]] = defaultdict(list)
    previous: dict[int, float] = {}
    for state_id, games, ended_at, round_id, conservative, mu, sigma in (
        RatingHistory.objects.filter(state__in=states)
        .order_by("state_id", "games")
        .values_list("state_id", "games", "ended_at", "round_id", "conservative", "mu", "sigma")
    ):
        shown = ratings.display(conservative)
        before = previous.get(state_id, ratings.display(ratings.Skill().conservative))
        history[state_id].append(
            RatingPoint(games, ended_at, round_id, shown, round(shown - before, 1), mu, sigma)
        )
        previous[state_id] = shown
    threshold = ratings.provisional_games()
    return [
        RatingCard(
            club_id=s.club_id,
            club_name=s.club.name,
            variant=s.variant,
            rating=ratings.display(s.conservative),
            games=s.games,
            provisional=s.games < threshold,
            mu=s.mu,
            sigma=s.sigma,
            points=history[s.pk],
        )
        for s in states
    ]


def ratings_for_viewer(viewer: Any, user_id: int) -> tuple[User, list[RatingCard]] | None:
    """A player's ratings as ``viewer`` may see them: in the viewer's clubs only. None when there
    is no such player, or the player shares no club with the viewer and has no rating in the
    viewer's clubs (the page and the API answer 404: nobody learns of players elsewhere)."""
    player = User.objects.filter(pk=user_id).first()
    if player is None:
        return None
    mine = member_club_ids(viewer)
    cards = player_rating_history(user_id=player.pk, clubs=mine)
    if cards or player.pk == getattr(viewer, "pk", None):
        return player, cards
    if set(mine) & set(member_club_ids(player)):
        return player, cards
    return None


# --- rounds -----------------------------------------------------------------------------------


def round_for_page(round_id: int) -> Round | None:
    return (
        Round.objects.select_related("match__room__club", "settlement").filter(pk=round_id).first()
    )


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
