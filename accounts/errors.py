"""Errors raised by the club services; each says, in the player's language, what went wrong.

``ClubPermissionDenied`` is also a Django ``PermissionDenied``, so a view that lets it escape
answers 403 without further code.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied


class ClubError(Exception):
    """A club operation that cannot be done; ``str(error)`` is a message fit for the player."""


class ClubPermissionDenied(ClubError, PermissionDenied):
    """The acting player lacks the club role the operation needs."""


class InviteCodeNotFound(ClubError):
    """No club has the invite code the player typed."""


class AlreadyMember(ClubError):
    """The player already belongs to (or has asked to join) the club."""


class MembershipStateError(ClubError):
    """The membership is not in a state the operation applies to (e.g. approving twice)."""


class NameTakenInClub(ClubError):
    """The player's public name is already another player's in the club."""
