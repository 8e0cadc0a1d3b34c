"""The database: one public API (:class:`Database`) on two backends, SQLite (:mod:`db.sqlite`: the
embedded default) and PostgreSQL (:mod:`db.postgres`, asyncpg), chosen by ``DATABASE_URL``
(:func:`parse_database_url`, :meth:`Database.open`).

This module gathers the names of the modules the database is made of, for their importers:

- :mod:`db.base`: the shared :class:`Database` base (transactions and their savepoints),
  :class:`Batch`, :class:`Row`, URL parsing;
- :mod:`db.sqlite`: :class:`SqliteDatabase`, one aiosqlite connection;
- :mod:`db.migrate`: :class:`Migration`, :func:`load_migrations` and the migration runner.
"""

from __future__ import annotations

from .base import (
    Backend,
    Batch,
    Clock,
    Database,
    Query,
    Row,
    StaleWrite,
    parse_database_url,
    redact_url,
)
from .migrate import Migration, load_migrations, run_migrations, split_statements
from .sqlite import MEMORY, SqliteDatabase

__all__ = [
    "MEMORY",
    "Backend",
    "Batch",
    "Clock",
    "Database",
    "Migration",
    "Query",
    "Row",
    "SqliteDatabase",
    "StaleWrite",
    "load_migrations",
    "parse_database_url",
    "redact_url",
    "run_migrations",
    "split_statements",
]
