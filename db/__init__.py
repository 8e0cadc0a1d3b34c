"""Storage: an aiosqlite database with versioned SQL migrations and typed repositories."""

from .database import Clock, Database, Migration, load_migrations
from .errors import ActionIndexConflict, MigrationError, StorageError, UnknownMatch
from .ratings import GLOBAL_SCOPE, FinishedMatch, RatingChange, RatingsRepository, Standing
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
    "FinishedMatch",
    "GLOBAL_SCOPE",
    "MatchRecord",
    "MatchStatus",
    "MessageRecord",
    "Migration",
    "MigrationError",
    "NewAction",
    "PlayerRecord",
    "RatingChange",
    "RatingsRepository",
    "SeatRecord",
    "Standing",
    "StorageError",
    "UnknownMatch",
    "load_migrations",
]
