"""The SQLite connection: pragmas, versioned migrations and task-safe transactions.

One :class:`Database` wraps one aiosqlite connection. Every statement goes through a lock owned
by the current asyncio task, so a transaction opened by one coroutine never picks up statements
from another; nested :meth:`Database.transaction` blocks become savepoints.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

from .errors import MigrationError

log = logging.getLogger(__name__)

Clock = Callable[[], float]
"""Returns the current time as unix seconds (UTC)."""

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
    :attr:`actions`, :attr:`messages`."""

    def __init__(self, conn: aiosqlite.Connection, path: str, clock: Clock) -> None:
        from .repositories import (
            ActionsRepository,
            MatchesRepository,
            MessagesRepository,
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
        self.messages = MessagesRepository(self)

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
    async def execute(self, sql: str, params: Sequence[Any] = ()) -> tuple[int, int | None]:
        """Run one statement; return (rowcount, lastrowid)."""
        async with self._gate.hold(), self._conn.execute(sql, params) as cursor:
            return cursor.rowcount, cursor.lastrowid

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> int:
        async with self._gate.hold(), self._conn.executemany(sql, rows) as cursor:
            return cursor.rowcount

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Row | None:
        async with self._gate.hold(), self._conn.execute(sql, params) as cursor:
            return await cursor.fetchone()

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        async with self._gate.hold(), self._conn.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    async def fetchval(self, sql: str, params: Sequence[Any] = ()) -> Any:
        row = await self.fetchone(sql, params)
        return None if row is None else row[0]

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Database]:
        """All statements inside commit together or not at all (BEGIN IMMEDIATE; nested blocks
        are savepoints). Other tasks wait until the transaction ends."""
        async with self._gate.hold():
            if self._depth == 0:
                await self._conn.execute("BEGIN IMMEDIATE")
                self._depth = 1
                try:
                    yield self
                    await self._conn.execute("COMMIT")
                except BaseException:
                    await self._rollback()
                    raise
                finally:
                    self._depth = 0
            else:
                name = f"sp{self._depth}"
                await self._conn.execute(f"SAVEPOINT {name}")
                self._depth += 1
                try:
                    yield self
                except BaseException:
                    await self._conn.execute(f"ROLLBACK TO {name}")
                    await self._conn.execute(f"RELEASE {name}")
                    raise
                else:
                    await self._conn.execute(f"RELEASE {name}")
                finally:
                    self._depth -= 1

    async def _rollback(self) -> None:
        try:
            if self._conn.in_transaction:
                await self._conn.execute("ROLLBACK")
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
