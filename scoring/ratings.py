"""等级分: a multiplayer rating with uncertainty, per variant per club.

The brief: "replace the Elo leaderboard rating with a multiplayer rating with uncertainty
(OpenSkill's Plackett–Luce model, the ``openskill`` package), per variant per club, shown as a
conservative value with 'provisional' until enough games; recomputed from the ledger by a
management command; the leaderboard and player page show its history. Bots are rated too but can
be hidden."

* **A game is one settled round** (一盘): its four seats ranked by the round's net
  (``RoundSettlement.net_0`` … ``net_3``; a 成麻 round with several winners is ranked the same
  way, by what each seat took home). Equal nets share a rank (see :func:`rate_round` for how).
* **Practice rooms** (练习房, ``RoundSettlement.practice``) are never rated nor on a board.
* **Who is rated**: the players (``Match.players`` holds their ids) and the bots. A bot is not an
  account; every bot of one level runs the same program, so all 简单 bots of a club share one
  rating (``RatingState.bot``; ``unknown`` for bots of matches from before levels were recorded).
  When one bot level holds several seats of a round, each seat is rated from the same prior and
  the bot moves by the average of its seats' changes: a bot playing itself learns little.
  A seat whose account has since been deleted plays as a fresh player and is not stored.
* **Shown** as the conservative value ``mu - 3 sigma`` times :data:`DISPLAY_SCALE` (60): a new
  player starts at 0 (25 - 3 × 25/3) and climbs as the system becomes sure of them; a player of
  exactly average skill known with certainty would stand at 1500, where the old Elo started, so
  the numbers look familiar. Under :func:`provisional_games` rated rounds (default 20,
  ``SCORING_RATING_PROVISIONAL_GAMES``) the rating is marked 定级中 (provisional).
* **Kept current** incrementally: :func:`ratings_update` rates a club and variant's unrated
  settlements in the order the rounds ended, once each (``RoundSettlement.rated``), under a lock
  of the club row. A round that is settled late (its task was lost and the sweeper settled it
  after later rounds were rated) would change every rating after it: the club and variant is then
  rebuilt from its ledger (:func:`ratings_rebuild`), which is also what ``manage.py
  rating_recompute`` does. Incremental updates and a rebuild give the same numbers (tested).
"""

from __future__ import annotations

import itertools
import logging
import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext
from openskill.models import PlackettLuce

from accounts.models import Club, User
from config.retry import with_retries
from scoring.models import RatingHistory, RatingState, RoundSettlement
from tables.models import BotLevel, Match

log = logging.getLogger(__name__)

MODEL = PlackettLuce()
"""OpenSkill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300 (the uncertainty added before
every game, so a rating keeps moving) — the values its authors tuned."""
MU, SIGMA = float(MODEL.mu), float(MODEL.sigma)
DISPLAY_SCALE = 60.0
PROVISIONAL_GAMES = 20
UNKNOWN_BOT = "unknown"
HISTORY_BATCH = 5000


def provisional_games() -> int:
    """Rated rounds before a rating is final (``SCORING_RATING_PROVISIONAL_GAMES``, default 20)."""
    return int(getattr(settings, "SCORING_RATING_PROVISIONAL_GAMES", PROVISIONAL_GAMES))


def display(conservative: float) -> float:
    """The shown rating of a conservative value ``mu - 3 sigma``.

    >>> display(MU - 3 * SIGMA), display(25.0)
    (0.0, 1500.0)
    """
    return round(conservative * DISPLAY_SCALE, 1)


# --- the math ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Skill:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def conservative(self) -> float:
        return self.mu - 3 * self.sigma


TAU_SQUARED = float(MODEL.tau) ** 2


def _rate_ordered(
    priors: Sequence[Skill], order: Sequence[int], ranks: Sequence[int], pool: list[Any]
) -> list[Skill]:
    """One Plackett–Luce update of the seats in ``order`` (first to last) with ``ranks``.

    What ``MODEL.rate(teams, ranks=...)`` does, without its argument checks and deep copy (a
    tie may take several of these; the copy was half the time): the prior uncertainty grows by
    tau, then the model's own update runs on the teams in finishing order. ``pool``: rating
    objects to reuse (the update sets them; making one draws a uuid, which cost as much again).
    ``test_ratings`` checks that it equals ``MODEL.rate`` (openskill is pinned: ``_compute`` is
    not public).
    """
    for player, seat in zip(pool, order, strict=True):
        player.mu = priors[seat].mu
        player.sigma = math.sqrt(priors[seat].sigma ** 2 + TAU_SQUARED)
    rated = MODEL._compute(teams=[[p] for p in pool], ranks=[float(r) for r in ranks])
    out = [Skill()] * len(priors)
    for place, seat in enumerate(order):
        out[seat] = Skill(float(rated[place][0].mu), float(rated[place][0].sigma))
    return out


def rate_round(priors: Sequence[Skill], scores: Sequence[int]) -> list[Skill]:
    """The seats' ratings after one round, ranked by ``scores`` (higher is better).

    Equal scores share a rank. openskill 6.2.0 gets a shared rank wrong when someone ranks below
    it: its Plackett–Luce update drops the places that the tied seats "use up", so in a round
    ranked 1, 1, 3, 4 the third seat (who lost to both winners) gains exactly as much as the two
    winners, and in 1, 2, 2, 4 the last loses less than a last should (tested in
    ``tests/scoring/test_ratings.py``); its averaging of tied seats' changes is a no-op besides
    (it compares each rating with itself after updating it in place). A tie at the bottom, a
    whole table tied included, nobody ranks below: there the model's shared rank is right (for
    equal priors it is exactly the average of the tied seats' strict places). So a tie above
    the last place is rated as the average over every order of its seats — "either could have
    been ahead, equally likely" — each order from the same priors (at most 3! = 6 updates),
    and the last group keeps the model's shared rank.

    >>> after = rate_round([Skill()] * 4, [9, 3, -4, -8])
    >>> [round(s.mu, 2) for s in after]
    [27.8, 26.55, 24.69, 20.96]
    >>> tie = rate_round([Skill()] * 4, [5, 5, -2, -8])
    >>> tie[0] == tie[1] and tie[0].mu > tie[2].mu > tie[3].mu
    True
    """
    seats = sorted(range(len(priors)), key=lambda s: -scores[s])
    groups = [list(g) for _score, g in itertools.groupby(seats, key=lambda s: scores[s])]
    head, last = groups[:-1], groups[-1]
    placed = len(seats) - len(last)
    ranks = [*range(1, placed + 1), *([placed + 1] * len(last))]
    orders = [
        [seat for group in choice for seat in group] + last
        for choice in itertools.product(*(itertools.permutations(g) for g in head))
    ]
    pool = [MODEL.rating() for _ in priors]
    if len(orders) == 1:
        return _rate_ordered(priors, orders[0], ranks, pool)
    mu = [0.0] * len(priors)
    sigma = [0.0] * len(priors)
    for order in orders:
        for seat, skill in enumerate(_rate_ordered(priors, order, ranks, pool)):
            mu[seat] += skill.mu
            sigma[seat] += skill.sigma
    n = len(orders)
    return [Skill(m / n, s / n) for m, s in zip(mu, sigma, strict=True)]


# --- who sat where ----------------------------------------------------------------------------

PlayerKey = tuple[int, str]
"""``(user id, "")`` for a player, ``(0, level)`` for a bot level."""


def bot_key(level: str) -> PlayerKey:
    return (0, level if level in BotLevel.values else UNKNOWN_BOT)


def bot_level_name(level: str) -> str:
    """A bot level's name on a board, in the active language: 机器人·简单, or 机器人."""
    if level in BotLevel.values:
        return gettext("机器人·%(level)s") % {"level": BotLevel(level).label}
    return gettext("机器人")


def seat_keys(
    players: Sequence[int | None], bot_levels: Sequence[str], existing: Iterable[int] | None
) -> list[PlayerKey | None]:
    """Each seat's rated identity; None for a player whose account is gone (``existing``: the
    user ids that still exist, None: all of them)."""
    alive = None if existing is None else set(existing)
    keys: list[PlayerKey | None] = []
    for seat, user in enumerate(players):
        if user is None:
            keys.append(bot_key(bot_levels[seat] if seat < len(bot_levels) else ""))
        elif isinstance(user, int) and (alive is None or user in alive):
            keys.append((user, ""))
        else:
            keys.append(None)
    return keys


@dataclass
class Tracked:
    skill: Skill
    games: int = 0


def rate_game(
    states: dict[PlayerKey, Tracked], keys: Sequence[PlayerKey | None], nets: Sequence[int]
) -> dict[PlayerKey, Tracked]:
    """Rate one round into ``states`` (missing keys start at the default); the keys that moved.

    A seat without a key (a deleted account) plays from the default rating and is not kept; a
    key at several seats (one bot level) moves by the average of its seats' changes.
    """
    priors = [states[k].skill if k is not None and k in states else Skill() for k in keys]
    after = rate_round(priors, nets)
    moved: dict[PlayerKey, list[int]] = defaultdict(list)
    for seat, key in enumerate(keys):
        if key is not None:
            moved[key].append(seat)
    out: dict[PlayerKey, Tracked] = {}
    for key, seats in moved.items():
        prior = priors[seats[0]]
        mu = prior.mu + sum(after[s].mu - prior.mu for s in seats) / len(seats)
        sigma = sum(after[s].sigma for s in seats) / len(seats)
        tracked = states.get(key) or Tracked(Skill())
        tracked = Tracked(Skill(mu, sigma), tracked.games + 1)
        states[key] = tracked
        out[key] = tracked
    return out


# --- the database -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    settlement_id: int
    round_id: int
    ended_at: datetime
    keys: tuple[PlayerKey | None, ...]
    nets: tuple[int, int, int, int]


def _games(settlements: Any) -> tuple[list[Game], list[int]]:
    """The rated facts of the given settlements (a queryset, in order): seats and nets; and the
    ids of every settlement read, those with nobody to rate included (all are marked rated:
    exactly these, never one that was committed while they were being rated)."""
    rows = list(
        settlements.values_list(
            "pk", "round_id", "match_id", "ended_at", "net_0", "net_1", "net_2", "net_3"
        )
    )
    match_ids = {r[2] for r in rows}
    seating: dict[int, tuple[list[Any], list[str]]] = {}
    ids = sorted(match_ids)
    for first in range(0, len(ids), 2000):
        chunk = ids[first : first + 2000]
        for pk, players, levels in Match.objects.filter(pk__in=chunk).values_list(
            "pk", "players", "bot_levels"
        ):
            seating[pk] = (players if isinstance(players, list) else [], levels or [])
    users = sorted({u for p, _l in seating.values() for u in p if isinstance(u, int)})
    alive: set[int] = set()
    for first in range(0, len(users), 2000):
        alive.update(
            User.objects.filter(pk__in=users[first : first + 2000]).values_list("pk", flat=True)
        )
    games = []
    for pk, round_id, match_id, ended_at, n0, n1, n2, n3 in rows:
        players, levels = seating.get(match_id, ([], []))
        if len(players) != 4:
            continue  # no seating recorded: nobody to rate
        keys = tuple(seat_keys(players, levels, alive))
        games.append(Game(pk, round_id, ended_at, keys, (n0, n1, n2, n3)))
    return games, [r[0] for r in rows]


def _scope(club_id: int, variant: str) -> Any:
    # A practice room's rounds are never rated (issue 26: the bot's hint may have played them).
    return RoundSettlement.objects.filter(club_id=club_id, variant=variant, practice=False)


def _lock_scope(club_id: int) -> None:
    """Serialise the rating of a club (all its variants): the club row, locked until commit.

    ``FOR NO KEY UPDATE`` (PostgreSQL), not ``FOR UPDATE``: inserting a row that references the
    club (a settlement, a ledger line, a room) takes ``FOR KEY SHARE`` on it, which a plain
    ``FOR UPDATE`` would block for as long as a rebuild runs."""
    list(
        Club.objects.select_for_update(no_key=True).filter(pk=club_id).values_list("pk", flat=True)
    )


def _state_key(state: RatingState) -> PlayerKey:
    return (state.user_id or 0, state.bot)


def ratings_update(*, club_id: int, variant: str) -> int:
    """Rate the club and variant's settled rounds that are not rated yet, in the order they
    ended; the number of rounds rated. Idempotent: a rated round is never rated again. If an
    unrated round ended before the last rated one, or the backlog is long, the whole scope is
    rebuilt (the same numbers, in bounded memory)."""

    def run() -> int:
        _lock_scope(club_id)
        pending = _scope(club_id, variant).filter(rated=False).order_by("ended_at", "pk")
        first = pending.values_list("ended_at", "pk").first()
        if first is None:
            return 0
        last = (
            _scope(club_id, variant)
            .filter(rated=True)
            .order_by("-ended_at", "-pk")
            .values_list("ended_at", "pk")
            .first()
        )
        if last is not None and first < last:
            return _rebuild_locked(club_id, variant)  # a late round: everything after it moves
        if pending[: HISTORY_BATCH + 1].count() > HISTORY_BATCH:
            return _rebuild_locked(club_id, variant)  # a backlog (after migrating): in batches
        return _rate_incrementally(club_id, variant, *_games(pending))

    return with_retries(run)


def _rate_incrementally(club_id: int, variant: str, games: list[Game], read: list[int]) -> int:
    now = timezone.now()
    wanted = {k for g in games for k in g.keys if k is not None}
    users = [u for u, bot in wanted if not bot]
    bots = [bot for _u, bot in wanted if bot]
    stored = {
        _state_key(s): s
        for s in RatingState.objects.filter(club_id=club_id, variant=variant).filter(
            user_id__in=users
        )
    }
    stored.update(
        {
            _state_key(s): s
            for s in RatingState.objects.filter(
                club_id=club_id, variant=variant, user__isnull=True, bot__in=bots
            )
        }
    )
    states = {k: Tracked(Skill(s.mu, s.sigma), s.games) for k, s in stored.items()}
    history: list[RatingHistory] = []
    for game in games:
        for key, tracked in rate_game(states, game.keys, game.nets).items():
            state = stored.get(key)
            if state is None:
                state = RatingState.objects.create(
                    club_id=club_id,
                    variant=variant,
                    user_id=key[0] or None,
                    bot=key[1],
                    mu=tracked.skill.mu,
                    sigma=tracked.skill.sigma,
                    games=tracked.games,
                    updated_at=now,
                )
                stored[key] = state
            history.append(_history_row(state.pk, game, tracked))
    for key, state in stored.items():
        tracked = states[key]
        state.mu, state.sigma, state.games, state.updated_at = (
            tracked.skill.mu,
            tracked.skill.sigma,
            tracked.games,
            now,
        )
    RatingState.objects.bulk_update(list(stored.values()), ["mu", "sigma", "games", "updated_at"])
    RatingHistory.objects.bulk_create(history, batch_size=HISTORY_BATCH)
    _mark_rated(read)
    return len(games)


def _history_row(state_id: int, game: Game, tracked: Tracked) -> RatingHistory:
    return RatingHistory(
        state_id=state_id,
        round_id=game.round_id,
        ended_at=game.ended_at,
        mu=tracked.skill.mu,
        sigma=tracked.skill.sigma,
        conservative=tracked.skill.conservative,
        games=tracked.games,
    )


def _mark_rated(settlement_ids: Sequence[int]) -> None:
    for first in range(0, len(settlement_ids), 1000):
        RoundSettlement.objects.filter(
            pk__in=settlement_ids[first : first + 1000], rated=False
        ).update(rated=True)


def ratings_rebuild(*, club_id: int, variant: str) -> int:
    """Recompute the club and variant's ratings from its ledger; the number of rounds rated."""
    return with_retries(lambda: _rebuild_locked(club_id, variant))


def _rebuild_locked(club_id: int, variant: str) -> int:
    """Rate the whole scope from scratch, :data:`HISTORY_BATCH` rounds at a time: a player's
    state row is made when they first appear and its history written batch by batch, so memory
    holds one batch of history and one state per player, not the scope's whole history."""
    now = timezone.now()
    RatingHistory.objects.filter(state__club_id=club_id, state__variant=variant).delete()
    RatingState.objects.filter(club_id=club_id, variant=variant).delete()
    settlements = _scope(club_id, variant).order_by("ended_at", "pk")
    games, read = _games(settlements)
    states: dict[PlayerKey, Tracked] = {}
    ids: dict[PlayerKey, int] = {}
    for first in range(0, len(games), HISTORY_BATCH):
        rows: list[tuple[PlayerKey, Game, Tracked]] = []
        for game in games[first : first + HISTORY_BATCH]:
            for key, tracked in rate_game(states, game.keys, game.nets).items():
                rows.append((key, game, tracked))
        fresh = [key for key in dict.fromkeys(k for k, _g, _t in rows) if key not in ids]
        made = RatingState.objects.bulk_create(
            RatingState(
                club_id=club_id,
                variant=variant,
                user_id=key[0] or None,
                bot=key[1],
                mu=MU,
                sigma=SIGMA,
                games=0,
                updated_at=now,
            )
            for key in fresh
        )
        ids.update({_state_key(s): s.pk for s in made})
        RatingHistory.objects.bulk_create(
            _history_row(ids[key], game, tracked) for key, game, tracked in rows
        )
    RatingState.objects.bulk_update(
        [
            RatingState(
                pk=ids[key],
                mu=tracked.skill.mu,
                sigma=tracked.skill.sigma,
                games=tracked.games,
                updated_at=now,
            )
            for key, tracked in states.items()
        ],
        ["mu", "sigma", "games", "updated_at"],
        batch_size=1000,
    )
    _mark_rated(read)
    return len(games)


def ratings_update_safely(*, club_id: int, variant: str) -> None:
    """:func:`ratings_update` after a settlement: a failure is logged, not raised (the settlement
    stands; the sweeper, :func:`ratings_sweep`, rates the round later)."""
    try:
        ratings_update(club_id=club_id, variant=variant)
    except Exception:
        log.exception("could not update the ratings of club %s, %s", club_id, variant)


def ratings_sweep() -> int:
    """Rate every club and variant with unrated settlements (the clock's settlement sweep calls
    it: catches a rating that failed or was cut off after its settlement); rounds rated."""
    scopes = (
        RoundSettlement.objects.filter(rated=False, practice=False)
        .order_by()
        .values_list("club_id", "variant")
        .distinct()
    )
    done = 0
    for club_id, variant in list(scopes):
        try:
            done += ratings_update(club_id=club_id, variant=variant)
        except Exception:  # one broken scope must not block the others
            log.exception("could not update the ratings of club %s, %s", club_id, variant)
    return done


def ratings_recompute(*, club_id: int | None = None, variant: str | None = None) -> int:
    """Rebuild every club and variant with settlements (or only ``club_id`` / ``variant``)."""
    scopes = (
        RoundSettlement.objects.filter(practice=False)
        .order_by()
        .values_list("club_id", "variant")
        .distinct()
    )
    if club_id is not None:
        scopes = scopes.filter(club_id=club_id)
    if variant is not None:
        scopes = scopes.filter(variant=variant)
    done = 0
    for scope_club, scope_variant in sorted(set(scopes)):
        done += ratings_rebuild(club_id=scope_club, variant=scope_variant)
    return done


# --- reading ----------------------------------------------------------------------------------


def rating_conservative_for(
    *, club_id: int, variant: str, user_ids: Sequence[int]
) -> dict[int, float]:
    """Each user's shown rating (:func:`display` of ``mu - 3 sigma``) in the club and variant,
    for seeding a tournament; an unrated user gets the default's (0.0)."""
    found = {
        user_id: mu - 3 * sigma
        for user_id, mu, sigma in RatingState.objects.filter(
            club_id=club_id, variant=variant, user_id__in=list(user_ids)
        ).values_list("user_id", "mu", "sigma")
    }
    default = Skill().conservative
    return {u: display(found.get(u, default)) for u in user_ids}
