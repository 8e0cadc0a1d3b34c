"""The schema and the rows as ``python -m bot db copy`` (:mod:`bot.dbcopy`) sees them: the tables
of a database (columns, primary key, foreign-key parents, identity columns) on either backend, the
order to copy them in, and their rows read a chunk at a time (the statements are
:class:`db.copy.CopyRepository`'s). Also :class:`CopyError`, the one error every part of the copy
raises."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from db import Database
from db.copy import CHUNK_ROWS, SCHEMA_TABLE, CopyRepository, Table, quote

DERIVED = frozenset({"ladder_bands"})
"""Tables that triggers keep from other tables' rows (migration 0017): copied after every other
table, over the rows the triggers wrote meanwhile, so the target holds the source's rows exactly."""


class CopyError(Exception):
    """A refusal or a failure of the copy; the message is one line for the operator."""


def one_line(exc: BaseException) -> str:
    """An exception as one line: its class and its message, whitespace folded."""
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


async def read_tables(db: Database) -> dict[str, Table]:
    """Every table of the database's schema (its current schema on PostgreSQL) but the
    migrations' own, by name."""
    return await CopyRepository(db).tables()


def dependency_order(tables: dict[str, Table]) -> list[Table]:
    """The tables with every table after the tables its foreign keys point at (ties by name), the
    :data:`DERIVED` ones last. Raises :class:`CopyError` for a cycle (no schema of this bot has one)."""
    done: list[Table] = []
    left = dict(tables)
    while left:
        ready = sorted(name for name, t in left.items() if not (t.parents & left.keys()))
        if not ready:
            raise CopyError(
                f"the foreign keys of the tables {', '.join(sorted(left))} form a cycle: cannot order the copy"
            )
        for name in ready:
            done.append(left.pop(name))
    return [t for t in done if t.name not in DERIVED] + [t for t in done if t.name in DERIVED]


def compare_schemas(source: dict[str, Table], target: dict[str, Table]) -> None:
    """Raises :class:`CopyError` unless both have the same tables with the same columns."""
    if source.keys() != target.keys():
        only_source = sorted(source.keys() - target.keys())
        only_target = sorted(target.keys() - source.keys())
        parts = []
        if only_source:
            parts.append(f"only the source has {', '.join(only_source)}")
        if only_target:
            parts.append(f"only the target has {', '.join(only_target)}")
        raise CopyError(f"the source and the target have different tables ({'; '.join(parts)})")
    for name, table in source.items():
        if set(table.columns) != set(target[name].columns):
            raise CopyError(
                f"the table {name} has other columns on the target ({', '.join(target[name].columns)})"
                f" than on the source ({', '.join(table.columns)})"
            )


async def read_chunks(db: Database, table: Table, chunk: int = CHUNK_ROWS) -> AsyncIterator[list[tuple[Any, ...]]]:
    """The rows of ``table`` (tuples, its columns in order), ``chunk`` at a time, in the order of
    its primary key (keyset paging: each read starts after the last key seen)."""
    async for rows in CopyRepository(db).chunks(table, chunk):
        yield rows


__all__ = [
    "CHUNK_ROWS",
    "DERIVED",
    "SCHEMA_TABLE",
    "CopyError",
    "Table",
    "compare_schemas",
    "dependency_order",
    "one_line",
    "quote",
    "read_chunks",
    "read_tables",
]
