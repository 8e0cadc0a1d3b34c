"""Typed storage errors."""

from __future__ import annotations


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
