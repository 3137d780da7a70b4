"""Bots' names: every bot at a table, in the history, on the charts and in the ledger gets a
readable name of its own — 机器人·简单 1, 机器人·困难 2 (English: "Bot · Easy 1") — instead of
the one mark 🤖 they all shared, which left three bots of a round indistinguishable.

A bot is a seat, not an account (``Seat.is_bot``; a match's ``players`` holds ``None`` for it),
so its name is made where it is shown, in the viewer's language: bots are numbered 1, 2, 3 in
seat order among the bot seats of the table or match, with their level (``Match.bot_levels``,
``Seat.bot_level`` or the room's). Matches from before the levels were recorded name their bots
by number alone (机器人 1). ``accounts.display_names`` refuses these shapes (and 🤖) as a
player's name, so no player can pass for a bot.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TypedDict

from django.utils.translation import gettext

from tables.models import BotLevel, Seat


class SeatedBot(TypedDict):
    """A bot at a table as the page gets it (``table`` message, ``seats[i].bot``)."""

    number: int
    level: str


def bot_name(*, number: int, level: str = "") -> str:
    """``机器人·简单 1``: a bot's name in the active language (``level`` may be unknown: "")."""
    if level in BotLevel.values:
        return gettext("机器人·%(level)s %(number)s") % {
            "level": BotLevel(level).label,
            "number": number,
        }
    return gettext("机器人 %(number)s") % {"number": number}


def bot_numbers(players: Sequence[int | None]) -> dict[int, int]:
    """Seat → the bot's number (1, 2, 3 in seat order) for the seats that hold a bot (None)."""
    seats = [seat for seat, user in enumerate(players) if user is None]
    return {seat: number for number, seat in enumerate(seats, start=1)}


def seat_names(
    players: Sequence[int | None], names: Mapping[int, str], bot_levels: Sequence[str] = ()
) -> list[str]:
    """The names of a match's seats in order: players by ``names`` (id → public name), bots by
    :func:`bot_name` with the levels recorded at the start of the match."""
    numbers = bot_numbers(players)
    out = []
    for seat, user in enumerate(players):
        if user is None:
            level = bot_levels[seat] if seat < len(bot_levels) else ""
            out.append(bot_name(number=numbers[seat], level=level))
        else:
            out.append(names.get(user, "?"))
    return out


def seat_level(seat: Seat, room_level: str) -> str:
    """The level a bot seat plays at: its own, else the room's (as ``tables.game.commands``)."""
    return (seat.bot_level or room_level) if seat.is_bot else ""


def table_bots(seats: Iterable[Seat], room_level: str) -> dict[int, SeatedBot]:
    """Seat index → number and level of the bots seated at a table (numbered in seat order),
    what the page names them by in its own language."""
    bots = sorted((s for s in seats if s.is_bot or s.user_id is None), key=lambda s: s.index)
    return {
        seat.index: SeatedBot(number=number, level=seat_level(seat, room_level))
        for number, seat in enumerate(bots, start=1)
    }


def seated_name(seat: Seat, bots: Mapping[int, SeatedBot]) -> str:
    """A seat's name at a table: the player's public name, or its bot's (``bots`` from
    :func:`table_bots` for the same table)."""
    if seat.user is not None and not seat.is_bot:
        return str(seat.user.public_name)
    bot = bots[seat.index]
    return bot_name(number=bot["number"], level=bot["level"])
