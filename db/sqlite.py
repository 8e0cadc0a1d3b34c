"""The SQLite backend (aiosqlite, the embedded default) of :class:`~db.base.Database`: one
connection (WAL mode for files) whose statements go through the database's task lock.

Round trips: aiosqlite runs each call in its own thread and every call is one hop there and back
(a query plus its fetch plus closing its cursor used to be three). Each query method here is one
hop, :meth:`SqliteDatabase.fetch_many` runs several queries in one, and
:meth:`SqliteDatabase.write` commits a whole batch of statements (a move: its actions, deadlines,
notices and snapshot) in one.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, ClassVar, TypeVar, cast

import aiosqlite

from .base import Backend, Batch, Clock, Database, Query, Row, StaleWrite
from .errors import DatabaseUnavailable, IntegrityError, MigrationError
from .group import GroupCommit, Outcome
from .migrate import Migration, load_migrations, split_statements

T = TypeVar("T")

MEMORY = ":memory:"

UNAVAILABLE_CODES = frozenset(
    {
        sqlite3.SQLITE_PERM,
        sqlite3.SQLITE_BUSY,  # locked by another process past the busy timeout
        sqlite3.SQLITE_LOCKED,
        sqlite3.SQLITE_READONLY,
        sqlite3.SQLITE_IOERR,
        sqlite3.SQLITE_FULL,
        sqlite3.SQLITE_CANTOPEN,
    }
)
"""SQLite's primary result codes that mean the file cannot be used right now (translated into
:class:`~db.errors.DatabaseUnavailable`), unlike a bad statement."""


def _unusable(exc: BaseException) -> bool:
    """An error that means the file cannot be used right now (not a bad statement)."""
    return isinstance(exc, sqlite3.OperationalError) and exc.sqlite_errorcode & 0xFF in UNAVAILABLE_CODES


def _apply(conn: sqlite3.Connection, batch: Batch) -> list[int | None]:
    """Run ``batch``'s statements on ``conn`` (inside a transaction): each one's inserted id
    (None for ``add_many``); :class:`StaleWrite` when a guarded statement changes another number
    of rows than expected."""
    out: list[int | None] = []
    for sql, params, many in batch.statements:
        cursor = conn.executemany(sql, params) if many else conn.execute(sql, params)
        try:
            out.append(None if many else cursor.lastrowid)
            expected = None if batch.expect_rows is None else batch.expect_rows.get(len(out) - 1)
            if expected is not None and cursor.rowcount != expected:
                raise StaleWrite(sql)
        finally:
            cursor.close()
    return out


def _in_savepoint(conn: sqlite3.Connection, batch: Batch) -> Outcome:
    """``batch`` in a savepoint of the open transaction: its ids, or the error it raised (its
    statements rolled back, the transaction going on). An error that means the file cannot be used
    ends the whole transaction instead."""
    conn.execute("SAVEPOINT batch")
    try:
        out: Outcome = _apply(conn, batch)
    except Exception as exc:
        if _unusable(exc):
            raise
        conn.execute("ROLLBACK TO batch")
        out = exc
    conn.execute("RELEASE batch")
    return out


class SqliteDatabase(Database):
    """The SQLite backend: one aiosqlite connection (WAL mode for files)."""

    backend: ClassVar[Backend] = "sqlite"
    _BEGIN: ClassVar[str] = "BEGIN IMMEDIATE"

    def __init__(self, conn: aiosqlite.Connection, path: str, clock: Clock) -> None:
        super().__init__(path, clock)
        self._conn = conn
        self.path = path
        self._group = GroupCommit(self._commit_group, limit=1)  # one writer at a time

    @classmethod
    async def connect(
        cls,
        path: str,
        *,
        clock: Clock = time.time,
        busy_timeout_ms: int = 5000,
        migrations: Sequence[Migration] | None = None,
    ) -> SqliteDatabase:
        """Open (creating if needed) the SQLite file ``path`` (``":memory:"`` for tests) and apply
        every pending migration."""
        if path != MEMORY:
            try:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise DatabaseUnavailable(f"cannot create the folder of the SQLite file {path}: {exc}") from exc
        try:
            conn = await aiosqlite.connect(path, isolation_level=None)
        except sqlite3.OperationalError as exc:
            raise DatabaseUnavailable(f"cannot open the SQLite file {path}: {exc}") from exc
        try:
            conn.row_factory = aiosqlite.Row
            await conn.execute("PRAGMA foreign_keys = ON")
            await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            if path != MEMORY:
                await conn.execute("PRAGMA journal_mode = WAL")
            db = cls(conn, path, clock)
            await db.migrate(load_migrations() if migrations is None else migrations)
        except BaseException:
            await conn.close()
            raise
        return db

    async def _close(self) -> None:
        await self._conn.close()

    # -- statements ----------------------------------------------------------------------
    async def run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn`` with the sqlite3 connection in the database thread: one round trip,
        whatever ``fn`` does (it must not block on anything but SQLite). SQLite only: code that
        must run on both backends uses :meth:`fetch_many` or :meth:`write`."""
        async with self._gate.hold():
            return await self._hop(fn)

    async def _hop(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        # aiosqlite's one way into its thread (every Connection method goes through it).
        raw: sqlite3.Connection = self._conn._conn
        execute = cast(Callable[..., Awaitable[T]], self._conn._execute)
        try:
            result = await execute(fn, raw)
        except sqlite3.Error as exc:
            translated = self._translated(exc)
            if translated is exc:
                raise
            raise translated from exc
        self._answered()
        return result

    def _translated(self, exc: BaseException) -> BaseException:
        """A driver error as this package's: a constraint as :class:`IntegrityError`, a file that
        cannot be used as :class:`DatabaseUnavailable` (noted once per outage); others as they are."""
        if isinstance(exc, sqlite3.IntegrityError) and not isinstance(exc, IntegrityError):
            out: BaseException = IntegrityError(str(exc))
        elif _unusable(exc):
            out = self._unavailable(DatabaseUnavailable(f"the SQLite file {self.path} cannot be used: {exc}"))
        else:
            return exc
        out.__cause__ = exc
        return out

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> tuple[int, int | None]:
        def go(conn: sqlite3.Connection) -> tuple[int, int | None]:
            cursor = conn.execute(sql, params)
            try:
                return cursor.rowcount, cursor.lastrowid
            finally:
                cursor.close()

        return await self.run(go)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> int:
        rows = list(rows)

        def go(conn: sqlite3.Connection) -> int:
            cursor = conn.executemany(sql, rows)
            try:
                return cursor.rowcount
            finally:
                cursor.close()

        return await self.run(go)

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        def go(conn: sqlite3.Connection) -> sqlite3.Row | None:
            cursor = conn.execute(sql, params)
            try:
                row: sqlite3.Row | None = cursor.fetchone()
                return row
            finally:
                cursor.close()

        return await self.run(go)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        def go(conn: sqlite3.Connection) -> list[Row]:
            cursor = conn.execute(sql, params)
            try:
                return list(cursor.fetchall())
            finally:
                cursor.close()

        return await self.run(go)

    async def fetch_many(self, queries: Sequence[Query]) -> list[list[Row]]:
        """Each query's rows, all in one hop."""
        queries = list(queries)

        def go(conn: sqlite3.Connection) -> list[list[Row]]:
            out: list[list[Row]] = []
            for sql, params in queries:
                cursor = conn.execute(sql, params)
                try:
                    out.append(list(cursor.fetchall()))
                finally:
                    cursor.close()
            return out

        return await self.run(go)

    async def write(self, batch: Batch) -> list[int | None]:
        """Outside a transaction: group commit (:mod:`db.group`: the batch shares the next
        transaction with the batches written meanwhile, each in its own savepoint). Inside the
        current task's :meth:`transaction`: a savepoint in it."""
        if not batch.statements:
            return []
        if not self._gate.held():
            return await self._group.write(batch)
        async with self._gate.hold():
            if self._nesting.depth == 0:
                (outcome,) = await self._commit_group([batch])  # (the task holds the lock: closing)
                if isinstance(outcome, BaseException):
                    raise outcome
                return outcome

            def savepoint(conn: sqlite3.Connection) -> list[int | None]:
                conn.execute("SAVEPOINT batch")
                try:
                    out = _apply(conn, batch)
                except BaseException:
                    conn.execute("ROLLBACK TO batch")
                    conn.execute("RELEASE batch")
                    raise
                conn.execute("RELEASE batch")
                return out

            return await self._hop(savepoint)

    async def _commit_group(self, batches: Sequence[Batch]) -> list[Outcome]:
        """One transaction, one hop, one sync: BEGIN IMMEDIATE, each batch (in a savepoint of its
        own when there are several, rolled back alone if it fails), COMMIT."""
        batches = list(batches)

        def transaction(conn: sqlite3.Connection) -> list[Outcome]:
            conn.execute("BEGIN IMMEDIATE")
            try:
                if len(batches) == 1:
                    outcomes: list[Outcome] = [_apply(conn, batches[0])]  # an error fails the transaction
                else:
                    outcomes = [_in_savepoint(conn, batch) for batch in batches]
                conn.execute("COMMIT")
                return outcomes
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise

        async with self._gate.hold():
            outcomes = await self._hop(transaction)
        return [self._translated(o) if isinstance(o, BaseException) else o for o in outcomes]

    async def _plain(self, sql: str) -> None:
        """One hop."""
        await self._hop(lambda conn: conn.execute(sql).close())

    def _in_transaction(self) -> bool:
        return bool(self._conn.in_transaction)

    # -- migrations ----------------------------------------------------------------------
    async def _apply_migration(self, migration: Migration) -> None:
        for statement in split_statements(migration.sql_for("sqlite")):
            try:
                await self.execute(statement)
            except sqlite3.Error as exc:
                raise MigrationError(f"Migration {migration.name} failed: {exc}") from exc
