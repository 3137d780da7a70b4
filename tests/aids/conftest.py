"""The live-table fixtures (a club of four, a room, seats, a dealt round) for the aids tests."""

from tests.tables.conftest import _table_settings, players, playing, room, seated

__all__ = ["_table_settings", "players", "playing", "room", "seated"]
