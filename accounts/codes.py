"""Invite codes shared by clubs and rooms.

Codes are read aloud and typed on phones, so the alphabet leaves out look-alike characters
(0/O, 1/I/L) and is upper case only; users may type them in any case (see ``normalize_code``).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 8
_MAX_TRIES = 20


def random_code(length: int = CODE_LENGTH) -> str:
    """A fresh random invite code (about 40 bits for the default length)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def normalize_code(raw: str) -> str:
    """What a player typed, comparable with a stored code: upper case, no blanks or dashes."""
    return "".join(ch for ch in raw.upper() if ch not in " -\t")


def unique_code(is_taken: Callable[[str], bool]) -> str:
    """A random code that ``is_taken`` says is free; collisions are rare, so a few tries suffice."""
    for _ in range(_MAX_TRIES):
        code = random_code()
        if not is_taken(code):
            return code
    raise RuntimeError("could not find a free invite code")  # pragma: no cover - 31**8 codes
