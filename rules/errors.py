"""The errors the rules engine raises.

Every error is a :class:`ValueError` so that callers that only care about "bad input" can
catch one thing; the subclasses say which rule was broken, as python-chess does for moves.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base class of every error the engine raises on bad input."""


class NotationError(RulesError):
    """A tile string that is not valid mpsz notation, or a hand that cannot exist."""


class InvalidCase(RulesError):
    """A judge case that cannot describe a real position (``judge.md``, *The answer*)."""


class IllegalAction(RulesError):
    """An action the rules do not allow in this state.

    ``rule`` is a short stable key naming the rule (``"not_your_turn"``, ``"hand_locked"``…),
    for clients and logs; the message says it in words.
    """

    rule: str = "illegal_action"

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        super().__init__(message)
        if rule is not None:
            self.rule = rule


class NotYourTurn(IllegalAction):
    rule = "not_your_turn"


class TileNotHeld(IllegalAction):
    rule = "tile_not_held"


class ClaimNotAllowed(IllegalAction):
    rule = "claim_not_allowed"


class HandLocked(IllegalAction):
    """After ting (报听) the hand is locked: no chow or pong, kongs only with the same waits."""

    rule = "hand_locked"


class RoundOver(IllegalAction):
    rule = "round_over"
