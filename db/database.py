"""The SQLite connection: pragmas, versioned migrations and task-safe transactions.

One :class:`Database` wraps one aiosqlite connection. Every statement goes through a lock owned
by the current asyncio task, so a transaction opened by one coroutine never picks up statements
from another; nested :meth:`Database.transaction` blocks become savepoints.

Round trips: aiosqlite runs each call in its own thread and every call is one hop there and back
(a query plus its fetch plus closing its cursor used to be three). :meth:`Database.run` makes any
number of statements one hop: each query method here is one, and :meth:`Database.write` commits
a whole batch of statements (a move: its actions, deadlines, notices and snapshot) in one.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar, cast

import aiosqlite

from .errors import MigrationError

log = logging.getLogger(__name__)

Clock = Callable[[], float]
"""Returns the current time as unix seconds (UTC)."""

T = TypeVar("T")

MEMORY = ":memory:"
_MIGRATION_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def load_migrations(directory: Path | None = None) -> list[Migration]:
    """The migrations in ``directory`` (default: ``db/migrations``), ordered by version.

    File names are ``NNNN_name.sql``; versions must be unique.
    """
    if directory is not None:
        files: Iterable[Any] = Path(directory).iterdir()
    else:
        files = resources.files("db").joinpath("migrations").iterdir()
    found: dict[int, Migration] = {}
    for file in files:
        if not file.name.endswith(".sql"):
            continue
        match = _MIGRATION_NAME.match(file.name)
        if match is None:
            raise MigrationError(f"Migration file {file.name!r} is not named NNNN_name.sql.")
        version = int(match.group(1))
        if version in found:
            raise MigrationError(f"Two migrations have version {version}.")
        found[version] = Migration(version, file.name[:-4], file.read_text(encoding="utf-8"))
    return [found[v] for v in sorted(found)]


def split_statements(script: str) -> list[str]:
    """Split a SQL script into statements (SQLite decides where a statement is complete, so
    semicolons inside triggers, strings and comments are handled). A last statement may omit
    its semicolon."""
    statements: list[str] = []
    pieces = script.split(";")
    buffer = ""
    for i, piece in enumerate(pieces):
        buffer += piece if i == len(pieces) - 1 else piece + ";"
        if sqlite3.complete_statement(buffer):
            if _strip_comments(buffer).strip(" \t\r\n;"):
                statements.append(buffer.strip())
            buffer = ""
    if _strip_comments(buffer).strip(" \t\r\n;"):
        statements.append(buffer.strip())
    return statements


def _strip_comments(sql: str) -> str:
    return "\n".join(line.split("--", 1)[0] for line in sql.splitlines())


class StaleWrite(sqlite3.DatabaseError):
    """A guarded statement of a :class:`Batch` changed another number of rows than expected (its
    precondition no longer held): the whole batch was rolled back."""


@dataclass
class Batch:
    """Statements to commit together with :meth:`Database.write` (one round trip)."""

    statements: list[tuple[str, Any, bool]] = field(default_factory=list)
    #: statement index -> the rowcount it must have, or the batch is rolled back (StaleWrite)
    expect_rows: dict[int, int] | None = None

    def add(self, sql: str, params: Sequence[Any] = (), *, expect_rows: int | None = None) -> Batch:
        if expect_rows is not None:
            if self.expect_rows is None:
                self.expect_rows = {}
            self.expect_rows[len(self.statements)] = expect_rows
        self.statements.append((sql, tuple(params), False))
        return self

    def add_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> Batch:
        rows = [tuple(r) for r in rows]
        if rows:
            self.statements.append((sql, rows, True))
        return self

    def __len__(self) -> int:
        return len(self.statements)


class _TaskLock:
    """An asyncio lock the owning task may re-enter."""

    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None

    @asynccontextmanager
    async def hold(self) -> AsyncIterator[None]:
        task = asyncio.current_task()
        if task is not None and self._owner is task:
            yield
            return
        async with self._lock:
            self._owner = task
            try:
                yield
            finally:
                self._owner = None


class Database:
    """An open SQLite database with the schema migrated. Use :meth:`open`, then :meth:`close`
    (or ``async with``). Repositories: :attr:`players`, :attr:`matches`, :attr:`seats`,
    :attr:`actions`."""

    def __init__(self, conn: aiosqlite.Connection, path: str, clock: Clock) -> None:
        from .repositories import (
            ActionsRepository,
            MatchesRepository,
            PlayersRepository,
            SeatsRepository,
        )

        self._conn = conn
        self.path = path
        self.clock = clock
        self._gate = _TaskLock()
        self._depth = 0
        self._closed = False
        self.players = PlayersRepository(self)
        self.matches = MatchesRepository(self)
        self.seats = SeatsRepository(self)
        self.actions = ActionsRepository(self)

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        clock: Clock = time.time,
        busy_timeout_ms: int = 5000,
        migrations: Sequence[Migration] | None = None,
    ) -> Database:
        """Open (creating if needed) the database at ``path`` (``":memory:"`` for tests) and
        apply every pending migration."""
        path_str = str(path)
        if path_str != MEMORY:
            Path(path_str).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(path_str, isolation_level=None)
        try:
            conn.row_factory = aiosqlite.Row
            await conn.execute("PRAGMA foreign_keys = ON")
            await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            if path_str != MEMORY:
                await conn.execute("PRAGMA journal_mode = WAL")
            db = cls(conn, path_str, clock)
            await db.migrate(load_migrations() if migrations is None else migrations)
        except BaseException:
            await conn.close()
            raise
        return db

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            await self._conn.close()

    @property
    def closed(self) -> bool:
        return self._closed

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def now(self) -> int:
        return int(self.clock())

    # -- statements ----------------------------------------------------------------------
    async def run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn`` with the sqlite3 connection in the database thread: one round trip,
        whatever ``fn`` does (it must not block on anything but SQLite)."""
        async with self._gate.hold():
            return await self._hop(fn)

    async def _hop(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        # aiosqlite's one way into its thread (every Connection method goes through it).
        raw: sqlite3.Connection = self._conn._conn
        execute = cast(Callable[..., Awaitable[T]], self._conn._execute)
        return await execute(fn, raw)

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> tuple[int, int | None]:
        """Run one statement; return (rowcount, lastrowid)."""

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

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        def go(conn: sqlite3.Connection) -> sqlite3.Row | None:
            cursor = conn.execute(sql, params)
            try:
                row: sqlite3.Row | None = cursor.fetchone()
                return row
            finally:
                cursor.close()

        return await self.run(go)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        def go(conn: sqlite3.Connection) -> list[sqlite3.Row]:
            cursor = conn.execute(sql, params)
            try:
                return list(cursor.fetchall())
            finally:
                cursor.close()

        return await self.run(go)

    async def write(self, batch: Batch) -> list[int | None]:
        """Apply ``batch`` atomically in one round trip: BEGIN IMMEDIATE, every statement,
        COMMIT (ROLLBACK and re-raise on any error). Inside an open :meth:`transaction` the
        statements join it instead (a savepoint keeps the batch all-or-nothing). Returns each
        statement's lastrowid (None for executemany)."""
        if not batch.statements:
            return []
        statements = list(batch.statements)

        def apply(conn: sqlite3.Connection) -> list[int | None]:
            out: list[int | None] = []
            for sql, params, many in statements:
                cursor = conn.executemany(sql, params) if many else conn.execute(sql, params)
                out.append(None if many else cursor.lastrowid)
                if batch.expect_rows is not None and len(out) - 1 in batch.expect_rows:
                    if cursor.rowcount != batch.expect_rows[len(out) - 1]:
                        cursor.close()
                        raise StaleWrite(sql)
                cursor.close()
            return out

        async with self._gate.hold():
            if self._depth == 0:

                def transaction(conn: sqlite3.Connection) -> list[int | None]:
                    conn.execute("BEGIN IMMEDIATE")
                    try:
                        out = apply(conn)
                        conn.execute("COMMIT")
                        return out
                    except BaseException:
                        if conn.in_transaction:
                            conn.execute("ROLLBACK")
                        raise

                return await self._hop(transaction)

            def savepoint(conn: sqlite3.Connection) -> list[int | None]:
                conn.execute("SAVEPOINT batch")
                try:
                    out = apply(conn)
                except BaseException:
                    conn.execute("ROLLBACK TO batch")
                    conn.execute("RELEASE batch")
                    raise
                conn.execute("RELEASE batch")
                return out

            return await self._hop(savepoint)

    async def fetchval(self, sql: str, params: Sequence[Any] = ()) -> Any:
        row = await self.fetchone(sql, params)
        return None if row is None else row[0]

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Database]:
        """All statements inside commit together or not at all (BEGIN IMMEDIATE; nested blocks
        are savepoints). Other tasks wait until the transaction ends."""
        async with self._gate.hold():
            if self._depth == 0:
                await self._plain("BEGIN IMMEDIATE")
                self._depth = 1
                try:
                    yield self
                    await self._plain("COMMIT")
                except BaseException:
                    await self._rollback()
                    raise
                finally:
                    self._depth = 0
            else:
                name = f"sp{self._depth}"
                await self._plain(f"SAVEPOINT {name}")
                self._depth += 1
                try:
                    yield self
                except BaseException:
                    await self._plain(f"ROLLBACK TO {name}")
                    await self._plain(f"RELEASE {name}")
                    raise
                else:
                    await self._plain(f"RELEASE {name}")
                finally:
                    self._depth -= 1

    async def _plain(self, sql: str) -> None:
        """A statement without parameters or result (BEGIN, COMMIT, SAVEPOINT...): one hop."""
        await self._hop(lambda conn: conn.execute(sql).close())

    async def _rollback(self) -> None:
        try:
            if self._conn.in_transaction:
                await self._plain("ROLLBACK")
        except Exception:  # the original error matters more than a failed rollback
            log.exception("ROLLBACK failed")

    # -- migrations ----------------------------------------------------------------------
    async def schema_version(self) -> int:
        value = await self.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")
        return int(value or 0)

    async def migrate(self, migrations: Sequence[Migration]) -> list[int]:
        """Apply the migrations newer than the recorded schema version, each in its own
        transaction; return the versions applied. Safe to call again (and from two processes)."""
        await self.execute(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)"
        )
        applied: list[int] = []
        for migration in sorted(migrations, key=lambda m: m.version):
            statements = split_statements(migration.sql)
            async with self.transaction():
                # read inside the transaction: another process may have migrated meanwhile
                if await self.schema_version() >= migration.version:
                    continue
                for statement in statements:
                    try:
                        await self.execute(statement)
                    except sqlite3.Error as exc:
                        raise MigrationError(f"Migration {migration.name} failed: {exc}") from exc
                await self.execute(
                    "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                    (migration.version, migration.name, self.now()),
                )
            applied.append(migration.version)
        return applied
