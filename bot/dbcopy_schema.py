"""The schema and the rows as ``python -m bot db copy`` (:mod:`bot.dbcopy`) sees them: the tables
of a database (columns, primary key, foreign-key parents, identity columns) on either backend, the
order to copy them in, and their rows read a chunk at a time. Also :class:`CopyError`, the one error
every part of the copy raises."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from db import Database

CHUNK_ROWS = 1000
"""Rows read from the source and written to the target at a time."""
SCHEMA_TABLE = "schema_version"
"""The migrations' own table: each database keeps its own (the target's is written by migrating it)."""
DERIVED = frozenset({"ladder_bands"})
"""Tables that triggers keep from other tables' rows (migration 0017): copied after every other
table, over the rows the triggers wrote meanwhile, so the target holds the source's rows exactly."""


class CopyError(Exception):
    """A refusal or a failure of the copy; the message is one line for the operator."""


def one_line(exc: BaseException) -> str:
    """An exception as one line: its class and its message, whitespace folded."""
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


@dataclass(frozen=True)
class Table:
    """A table of the schema, as the copy needs it."""

    name: str
    columns: tuple[str, ...]
    key: tuple[str, ...]  # the primary key (every column if the table has none)
    parents: frozenset[str]  # the tables its foreign keys point at (itself left out)
    identity: tuple[str, ...] = ()  # PostgreSQL: columns whose values a sequence generates


def quote(name: str) -> str:
    """A quoted SQL identifier (the same on both backends)."""
    return '"' + name.replace('"', '""') + '"'


async def read_tables(db: Database) -> dict[str, Table]:
    """Every table of the database's schema (its current schema on PostgreSQL) but the
    migrations' own, by name."""
    if db.backend == "postgres":
        return await _postgres_tables(db)
    return await _sqlite_tables(db)


async def _sqlite_tables(db: Database) -> dict[str, Table]:
    names = [
        str(r[0])
        for r in await db.fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' ORDER BY name"
        )
    ]
    tables: dict[str, Table] = {}
    for name in names:
        if name == SCHEMA_TABLE:
            continue
        info = await db.fetchall("SELECT name, pk FROM pragma_table_info(?) ORDER BY cid", (name,))
        columns = tuple(str(r[0]) for r in info)
        key = tuple(str(r[0]) for r in sorted((r for r in info if int(r[1]) > 0), key=lambda r: int(r[1])))
        parents = frozenset(
            str(r[0]) for r in await db.fetchall('SELECT "table" FROM pragma_foreign_key_list(?)', (name,))
        )
        tables[name] = Table(name, columns, key or columns, parents - {name})
    return tables


async def _postgres_tables(db: Database) -> dict[str, Table]:
    names = [
        str(r[0])
        for r in await db.fetchall(
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name"
        )
    ]
    tables: dict[str, Table] = {}
    for name in names:
        if name == SCHEMA_TABLE:
            continue
        info = await db.fetchall(
            "SELECT column_name, is_identity, column_default FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position",
            (name,),
        )
        columns = tuple(str(r[0]) for r in info)
        identity = tuple(str(r[0]) for r in info if r[1] == "YES" or str(r[2] or "").startswith("nextval("))
        key_rows = await db.fetchall(
            "SELECT k.column_name FROM information_schema.table_constraints c"
            " JOIN information_schema.key_column_usage k ON k.constraint_schema = c.constraint_schema"
            " AND k.constraint_name = c.constraint_name AND k.table_name = c.table_name"
            " WHERE c.table_schema = current_schema() AND c.table_name = ? AND c.constraint_type = 'PRIMARY KEY'"
            " ORDER BY k.ordinal_position",
            (name,),
        )
        parent_rows = await db.fetchall(
            "SELECT DISTINCT p.relname FROM pg_constraint f JOIN pg_class t ON t.oid = f.conrelid"
            " JOIN pg_class p ON p.oid = f.confrelid"
            " WHERE f.contype = 'f' AND t.relname = ? AND t.relnamespace = current_schema()::regnamespace",
            (name,),
        )
        key = tuple(str(r[0]) for r in key_rows)
        tables[name] = Table(
            name, columns, key or columns, frozenset(str(r[0]) for r in parent_rows) - {name}, identity
        )
    return tables


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
    columns = ", ".join(quote(c) for c in table.columns)
    order = ", ".join(quote(c) for c in table.key)
    key_at = [table.columns.index(c) for c in table.key]
    last: tuple[Any, ...] | None = None
    while True:
        if last is None:
            rows = await db.fetchall(f"SELECT {columns} FROM {quote(table.name)} ORDER BY {order} LIMIT {chunk}")
        else:
            marks = ", ".join("?" for _ in table.key)
            rows = await db.fetchall(
                f"SELECT {columns} FROM {quote(table.name)} WHERE ({order}) > ({marks}) ORDER BY {order} LIMIT {chunk}",
                last,
            )
        if not rows:
            return
        out = [tuple(r) for r in rows]
        yield out
        if len(out) < chunk:
            return
        last = tuple(out[-1][i] for i in key_at)
