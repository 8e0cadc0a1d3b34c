"""Typed storage errors."""

from __future__ import annotations

import sqlite3


class StorageError(RuntimeError):
    """Base of the errors this package raises on purpose."""


class MigrationError(StorageError):
    """A migration file is malformed or failed to apply."""


class ActionIndexConflict(StorageError):
    """``append_actions`` was given a start index other than the next free one: another writer
    appended first (or the caller's view of the log is out of date). Nothing was written."""

    def __init__(self, match_id: int, start_idx: int, next_idx: int):
        self.match_id = match_id
        self.start_idx = start_idx
        self.next_idx = next_idx
        super().__init__(
            f"Match {match_id}: cannot append actions at index {start_idx}; the next free index is {next_idx}."
        )


class UnknownMatch(StorageError):
    """No match has this id."""

    def __init__(self, match_id: int):
        self.match_id = match_id
        super().__init__(f"There is no match {match_id}.")


class IntegrityError(sqlite3.IntegrityError):
    """A constraint refused a statement (unique, foreign key, check, not null, or the append-only
    trigger of ``actions``), on either backend: SQLite's and PostgreSQL's driver errors are
    translated into this one type, so callers never import a driver. (It subclasses
    ``sqlite3.IntegrityError`` so code written against SQLite keeps catching it.)"""

    def __init__(self, message: str, *, unique: bool | None = None) -> None:
        super().__init__(message)
        #: a UNIQUE (or primary key) constraint refused the statement
        self.unique = ("UNIQUE constraint failed" in message) if unique is None else unique


class DatabaseUnavailable(StorageError):
    """The database server cannot be reached (refused, unknown host, timed out, bad login) or
    the SQLite file cannot be opened; the message is one line for the operator."""


class UnknownDatabaseURL(StorageError, ValueError):
    """``DATABASE_URL`` names a scheme no backend handles."""
