"""Storage: an aiosqlite database with versioned SQL migrations and typed repositories."""

from .database import Clock, Database, Migration, load_migrations
from .errors import ActionIndexConflict, MigrationError, StorageError, UnknownMatch
from .repositories import (
    ActionRecord,
    MatchRecord,
    MatchStatus,
    MessageRecord,
    NewAction,
    PlayerRecord,
    SeatRecord,
)

__all__ = [
    "ActionIndexConflict",
    "ActionRecord",
    "Clock",
    "Database",
    "MatchRecord",
    "MatchStatus",
    "MessageRecord",
    "Migration",
    "MigrationError",
    "NewAction",
    "PlayerRecord",
    "SeatRecord",
    "StorageError",
    "UnknownMatch",
    "load_migrations",
]
