"""Storage: an aiosqlite database with versioned SQL migrations and typed repositories."""

from .database import Batch, Clock, Database, Migration, StaleWrite, load_migrations
from .errors import ActionIndexConflict, MigrationError, StorageError, UnknownMatch
from .ratings import GLOBAL_SCOPE, FinishedMatch, RatingChange, RatingsRepository, Standing
from .repositories import (
    ActionRecord,
    MatchRecord,
    MatchStatus,
    NewAction,
    PlayerRecord,
    SeatRecord,
)

__all__ = [
    "ActionIndexConflict",
    "ActionRecord",
    "Batch",
    "Clock",
    "Database",
    "FinishedMatch",
    "GLOBAL_SCOPE",
    "MatchRecord",
    "MatchStatus",
    "Migration",
    "MigrationError",
    "NewAction",
    "PlayerRecord",
    "RatingChange",
    "RatingsRepository",
    "SeatRecord",
    "StaleWrite",
    "Standing",
    "StorageError",
    "UnknownMatch",
    "load_migrations",
]
