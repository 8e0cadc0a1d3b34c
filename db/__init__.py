"""Storage: SQLite (aiosqlite, the default) or PostgreSQL (asyncpg), chosen by ``DATABASE_URL``,
with versioned SQL migrations and typed repositories. :func:`connect` (or :meth:`Database.open`)
opens either; callers see one API and never import a driver."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

from .database import (
    Backend,
    Batch,
    Clock,
    Database,
    Migration,
    Query,
    Row,
    StaleWrite,
    load_migrations,
    parse_database_url,
    redact_url,
)
from .errors import (
    ActionIndexConflict,
    DatabaseUnavailable,
    IntegrityError,
    MigrationError,
    StorageError,
    UnknownDatabaseURL,
    UnknownMatch,
)
from .ratings import GLOBAL_SCOPE, FinishedMatch, RatingChange, RatingsRepository, Standing
from .records import ActionRecord, MatchRecord, MatchStatus, NewAction, PlayerRecord, SeatRecord


async def connect(
    url: str | Path, *, clock: Clock = time.time, migrations: Sequence[Migration] | None = None
) -> Database:
    """Open the database ``url`` names (an SQLite path or ``sqlite:///path``, or
    ``postgresql://...``), migrated. See :meth:`Database.open`."""
    return await Database.open(url, clock=clock, migrations=migrations)


__all__ = [
    "ActionIndexConflict",
    "ActionRecord",
    "Backend",
    "Batch",
    "Clock",
    "Database",
    "DatabaseUnavailable",
    "FinishedMatch",
    "GLOBAL_SCOPE",
    "IntegrityError",
    "MatchRecord",
    "MatchStatus",
    "Migration",
    "MigrationError",
    "NewAction",
    "PlayerRecord",
    "Query",
    "RatingChange",
    "RatingsRepository",
    "Row",
    "SeatRecord",
    "StaleWrite",
    "Standing",
    "StorageError",
    "UnknownDatabaseURL",
    "UnknownMatch",
    "connect",
    "load_migrations",
    "parse_database_url",
    "redact_url",
]
