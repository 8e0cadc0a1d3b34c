"""The statements of ``python -m bot db copy`` (:mod:`bot.dbcopy`): a database's schema as the copy
sees it (its tables, their columns, primary keys, foreign-key parents and identity columns, on
either backend), its rows read a chunk at a time and written to the target, the checks and locks
around them, and the PostgreSQL sequences moved past the copied ids. The copy's decisions (what to
refuse, the order, the verification) are :mod:`bot.dbcopy`'s; this module only reads and writes.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .repositories import _Repository

CHUNK_ROWS = 1000
"""Rows read from the source and written to the target at a time."""
SCHEMA_TABLE = "schema_version"
"""The migrations' own table: each database keeps its own (the target's is written by migrating it)."""


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


def insert_statement(table: Table) -> str:
    """The statement that writes one row of ``table`` (every column, in order)."""
    columns = ", ".join(quote(c) for c in table.columns)
    marks = ", ".join("?" for _ in table.columns)
    return f"INSERT INTO {quote(table.name)} ({columns}) VALUES ({marks})"


class CopyRepository(_Repository):
    """One side of a copy (the source or the target)."""

    # -- the schema ----------------------------------------------------------------------
    async def applied_migrations(self) -> list[tuple[int, str]]:
        """(version, name) of every migration applied, oldest first."""
        rows = await self.db.fetchall("SELECT version, name FROM schema_version ORDER BY version")
        return [(int(r[0]), str(r[1])) for r in rows]

    async def has_table(self, name: str) -> bool:
        """Whether the database (its current schema on PostgreSQL) has the table ``name``."""
        if self.db.backend == "postgres":
            found = await self.db.fetchval(
                "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema()"
                " AND table_name = ?",
                (name,),
            )
        else:
            found = await self.db.fetchval(
                "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)
            )
        return bool(found)

    async def tables(self) -> dict[str, Table]:
        """Every table of the database's schema (its current schema on PostgreSQL) but the
        migrations' own, by name."""
        if self.db.backend == "postgres":
            return await self._postgres_tables()
        return await self._sqlite_tables()

    async def _sqlite_tables(self) -> dict[str, Table]:
        db = self.db
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

    async def _postgres_tables(self) -> dict[str, Table]:
        db = self.db
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

    async def drop_schema_table(self) -> None:
        """Drop the migrations' own table (which opening a database that is not the bot's added)."""
        await self.db.execute(f"DROP TABLE {SCHEMA_TABLE}")

    # -- the rows ------------------------------------------------------------------------
    async def has_rows(self, table: Table) -> bool:
        """Whether ``table`` holds a row."""
        return await self.db.fetchone(f"SELECT 1 FROM {quote(table.name)} LIMIT 1") is not None

    async def has_migrations(self) -> bool:
        """Whether the migrations' own table records a migration."""
        return bool(await self.db.fetchone("SELECT 1 FROM schema_version LIMIT 1"))

    async def count(self, table: Table) -> int:
        """How many rows ``table`` holds."""
        return int(await self.db.fetchval(f"SELECT COUNT(*) FROM {quote(table.name)}") or 0)

    async def chunks(self, table: Table, chunk: int = CHUNK_ROWS) -> AsyncIterator[list[tuple[Any, ...]]]:
        """The rows of ``table`` (tuples, its columns in order), ``chunk`` at a time, in the order of
        its primary key (keyset paging: each read starts after the last key seen)."""
        db = self.db
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
                    f"SELECT {columns} FROM {quote(table.name)} WHERE ({order}) > ({marks})"
                    f" ORDER BY {order} LIMIT {chunk}",
                    last,
                )
            if not rows:
                return
            out = [tuple(r) for r in rows]
            yield out
            if len(out) < chunk:
                return
            last = tuple(out[-1][i] for i in key_at)

    async def insert(self, insert: str, rows: Iterable[Sequence[Any]]) -> None:
        """Write rows with ``insert`` (:func:`insert_statement`)."""
        await self.db.executemany(insert, rows)

    async def clear(self, table: Table) -> None:
        """Delete every row of ``table`` (a table the triggers filled from the rows copied)."""
        await self.db.execute(f"DELETE FROM {quote(table.name)}")

    async def match_ids(self, statuses: Sequence[str]) -> list[int]:
        """The ids of the matches with one of ``statuses`` and a seed, in order."""
        marks = ", ".join("?" for _ in statuses)
        rows = await self.db.fetchall(
            f"SELECT id FROM matches WHERE status IN ({marks}) AND seed IS NOT NULL ORDER BY id", list(statuses)
        )
        return [int(r[0]) for r in rows]

    # -- transactions, locks, sequences ---------------------------------------------------
    async def read_only_snapshot(self) -> None:
        """PostgreSQL, first in a transaction: make it a read-only REPEATABLE READ snapshot."""
        await self.db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")

    async def lock_tables(self, tables: Sequence[Table]) -> None:
        """PostgreSQL, in a transaction: no other process writes to ``tables`` until it ends."""
        names = ", ".join(quote(t.name) for t in tables)
        await self.db.execute(f"LOCK TABLE {names} IN SHARE ROW EXCLUSIVE MODE")

    async def reset_sequences(self, tables: Sequence[Table]) -> None:
        """PostgreSQL: each identity (or serial) column's next value is past the largest stored one."""
        for table in tables:
            for column in table.identity:
                await self.db.fetchval(
                    f"SELECT setval(pg_get_serial_sequence(?, ?), COALESCE((SELECT MAX({quote(column)})"
                    f" FROM {quote(table.name)}), 0) + 1, false)",
                    (quote(table.name), column),
                )


__all__ = ["CHUNK_ROWS", "SCHEMA_TABLE", "CopyRepository", "Table", "insert_statement", "quote"]
