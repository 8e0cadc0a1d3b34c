"""The database: one public API (:class:`Database`) on two backends, SQLite (this module: the
embedded default) and PostgreSQL (:mod:`db.postgres`, asyncpg), chosen by ``DATABASE_URL``
(:func:`parse_database_url`, :meth:`Database.open`).

One :class:`SqliteDatabase` wraps one connection (a :class:`~db.postgres.PostgresDatabase`, a small
pool: see there). Every statement goes through a lock owned by the current
asyncio task, so a transaction opened by one coroutine never picks up statements from another;
nested :meth:`Database.transaction` blocks become savepoints. SQL is written once, for SQLite, with
``?`` placeholders; the PostgreSQL backend translates it (:mod:`db.dialect`).

Round trips (SQLite): aiosqlite runs each call in its own thread and every call is one hop there
and back (a query plus its fetch plus closing its cursor used to be three). Each query method here
is one hop, :meth:`Database.fetch_many` runs several queries in one, and :meth:`Database.write`
commits a whole batch of statements (a move: its actions, deadlines, notices and snapshot) in one.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar, Literal, Protocol, TypeVar, cast
from urllib.parse import urlsplit

import aiosqlite

from .errors import DatabaseUnavailable, IntegrityError, MigrationError, UnknownDatabaseURL

log = logging.getLogger(__name__)

Clock = Callable[[], float]
"""Returns the current time as unix seconds (UTC)."""

T = TypeVar("T")

MEMORY = ":memory:"
_MIGRATION_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")

Backend = Literal["sqlite", "postgres"]


class Row(Protocol):
    """A result row on either backend (``sqlite3.Row``, ``asyncpg.Record``): ``row["column"]``,
    ``row[0]``, ``row.keys()``, ``len(row)``, ``tuple(row)`` and ``dict(row)``."""

    def __getitem__(self, key: Any, /) -> Any: ...

    def keys(self) -> Any: ...

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[Any]: ...


Query = tuple[str, Sequence[Any]]
"""One statement and its parameters, for :meth:`Database.fetch_many`."""


def parse_database_url(url: str | Path) -> tuple[Backend, str]:
    """Which backend ``url`` names, and what it opens: ``("sqlite", path)`` for a file path,
    ``":memory:"`` or ``sqlite:///relative`` / ``sqlite:////absolute``; ``("postgres", url)`` for
    ``postgresql://...`` or ``postgres://...``. Any other ``scheme://`` raises
    :class:`UnknownDatabaseURL`."""
    text = str(url).strip()
    if not text:
        raise UnknownDatabaseURL("DATABASE_URL is empty: give an SQLite file path or a postgresql:// URL.")
    match = _SCHEME.match(text)
    if match is None:
        if text.lower().startswith(("postgres:", "postgresql:")):
            raise UnknownDatabaseURL(f"DATABASE_URL {text.split('@')[-1]!r} is not a postgresql://... URL.")
        return "sqlite", text
    scheme = match.group(1).lower()
    if scheme in ("postgresql", "postgres"):
        return "postgres", text
    if scheme in ("sqlite", "sqlite3"):
        path = text[match.end() :]
        if path.startswith("/"):  # sqlite:///rel -> "rel"; sqlite:////abs -> "/abs"
            path = path[1:]
        if not path:
            raise UnknownDatabaseURL("DATABASE_URL sqlite:/// names no file.")
        return "sqlite", path
    shown = scheme if len(scheme) <= 30 else scheme[:30] + "..."
    raise UnknownDatabaseURL(
        f"DATABASE_URL has the unknown scheme {shown!r}: use an SQLite file path (or sqlite:///path)"
        " or postgresql://user:password@host:port/database."
    )


def redact_url(url: str) -> str:
    """``url`` without its password, for log lines and messages."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<unparsable URL>"
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return parts._replace(netloc=netloc).geturl()


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str
    #: the PostgreSQL edition (``db/migrations/postgres/<same name>.sql``) where SQLite's SQL does
    #: not run there (triggers, json_valid, 64-bit ids); None: ``sql`` runs on both.
    postgres_sql: str | None = None

    def sql_for(self, backend: Backend) -> str:
        return self.postgres_sql if backend == "postgres" and self.postgres_sql is not None else self.sql


def _read_migrations(files: Iterable[Any]) -> dict[int, tuple[str, str]]:
    found: dict[int, tuple[str, str]] = {}
    for file in files:
        if not file.name.endswith(".sql"):
            continue
        match = _MIGRATION_NAME.match(file.name)
        if match is None:
            raise MigrationError(f"Migration file {file.name!r} is not named NNNN_name.sql.")
        version = int(match.group(1))
        if version in found:
            raise MigrationError(f"Two migrations have version {version}.")
        found[version] = (file.name[:-4], file.read_text(encoding="utf-8"))
    return found


def load_migrations(directory: Path | None = None) -> list[Migration]:
    """The migrations in ``directory`` (default: ``db/migrations``), ordered by version, each with
    its PostgreSQL edition from the ``postgres`` folder inside, if it has one.

    File names are ``NNNN_name.sql``; versions must be unique; a PostgreSQL edition has the name of
    a migration of the main folder."""
    if directory is not None:
        base: Any = Path(directory)
    else:
        base = resources.files("db").joinpath("migrations")
    found = _read_migrations(base.iterdir())
    pg_folder = base.joinpath("postgres")
    editions = _read_migrations(pg_folder.iterdir()) if pg_folder.is_dir() else {}
    for version, (name, _) in editions.items():
        if version not in found or found[version][0] != name:
            raise MigrationError(f"The PostgreSQL migration {name}.sql has no SQLite migration of the same name.")
    return [Migration(v, found[v][0], found[v][1], editions[v][1] if v in editions else None) for v in sorted(found)]


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


class StaleWrite(sqlite3.DatabaseError):  # (a sqlite3 error for the callers written against SQLite)
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
    """An open database with the schema migrated, SQLite or PostgreSQL. Use :meth:`open` (or
    :func:`db.connect`), then :meth:`close` (or ``async with``). Repositories: :attr:`players`,
    :attr:`matches`, :attr:`seats`, :attr:`actions`.

    Rows (:class:`Row`) support ``row["column"]`` and ``row[0]`` on both backends; constraint
    violations raise :class:`~db.errors.IntegrityError` on both."""

    backend: ClassVar[Backend]
    #: statements that begin a top-level transaction (SQLite takes the write lock at once)
    _BEGIN: ClassVar[str] = "BEGIN"
    #: seconds :meth:`close` waits for the statement or transaction in flight
    CLOSE_WAIT: ClassVar[float] = 5.0

    def __init__(self, url: str, clock: Clock) -> None:
        from .repositories import (
            ActionsRepository,
            MatchesRepository,
            PlayersRepository,
            SeatsRepository,
        )

        self.url = url
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
        url: str | Path,
        *,
        clock: Clock = time.time,
        busy_timeout_ms: int = 5000,
        migrations: Sequence[Migration] | None = None,
        pool_size: int = 5,
    ) -> Database:
        """Open the database ``url`` names (:func:`parse_database_url`: an SQLite file, created if
        needed, ``":memory:"`` for tests, or a ``postgresql://`` server) and apply every pending
        migration. Raises :class:`UnknownDatabaseURL` for an unknown scheme and
        :class:`DatabaseUnavailable` when the server cannot be reached. ``pool_size``: the most
        connections PostgreSQL's pool opens (SQLite: one connection whatever it is)."""
        backend, target = parse_database_url(url)
        if backend == "postgres":
            from .postgres import PostgresDatabase

            return await PostgresDatabase.connect(target, clock=clock, migrations=migrations, pool_size=pool_size)
        return await SqliteDatabase.connect(target, clock=clock, busy_timeout_ms=busy_timeout_ms, migrations=migrations)

    async def close(self) -> None:
        """Close the connection once the statement or transaction in flight (another task's) has
        ended, waiting at most :attr:`CLOSE_WAIT` seconds for it."""
        if self._closed:
            return
        self._closed = True
        try:
            async with asyncio.timeout(self.CLOSE_WAIT), self._gate.hold():
                await self._close()
                return
        except TimeoutError:
            log.warning("closing the database while a statement is still running (waited %s s)", self.CLOSE_WAIT)
        await self._close()

    async def _close(self) -> None:
        raise NotImplementedError

    @property
    def closed(self) -> bool:
        return self._closed

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def now(self) -> int:
        return int(self.clock())

    # -- statements (each backend) ----------------------------------------------------------
    async def execute(self, sql: str, params: Sequence[Any] = ()) -> tuple[int, int | None]:
        """Run one statement; return (rowcount, the id of the last inserted row or None)."""
        raise NotImplementedError

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> int:
        """Run one statement for each row of parameters; return the rows changed (SQLite) or -1."""
        raise NotImplementedError

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        raise NotImplementedError

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        raise NotImplementedError

    async def fetch_many(self, queries: Sequence[Query]) -> list[list[Row]]:
        """Run several queries together, one consistent read (SQLite: one hop; PostgreSQL: one
        read-only snapshot), and return each one's rows."""
        raise NotImplementedError

    async def write(self, batch: Batch) -> list[int | None]:
        """Apply ``batch`` atomically (SQLite: in one round trip): BEGIN, every statement, COMMIT
        (ROLLBACK and re-raise on any error). Inside an open :meth:`transaction` the statements join
        it instead (a savepoint keeps the batch all-or-nothing). Returns each statement's inserted
        id (None for add_many and for statements that insert no row with an id)."""
        raise NotImplementedError

    async def _plain(self, sql: str) -> None:
        """A statement without parameters or result (BEGIN, COMMIT, SAVEPOINT...)."""
        raise NotImplementedError

    def _in_transaction(self) -> bool:
        raise NotImplementedError

    async def fetchval(self, sql: str, params: Sequence[Any] = ()) -> Any:
        row = await self.fetchone(sql, params)
        return None if row is None else row[0]

    # -- transactions ---------------------------------------------------------------------
    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Database]:
        """All statements inside commit together or not at all (nested blocks are savepoints).
        Other tasks wait until the transaction ends (PostgreSQL: they carry on, on the other
        connections of its pool)."""
        async with self._gate.hold():
            if self._depth == 0:
                await self._plain(self._BEGIN)
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

    async def _rollback(self) -> None:
        try:
            if self._in_transaction():
                await self._plain("ROLLBACK")
        except Exception:  # the original error matters more than a failed rollback
            log.exception("ROLLBACK failed")

    # -- migrations ----------------------------------------------------------------------
    async def schema_version(self) -> int:
        value = await self.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")
        return int(value or 0)

    async def _prepare_migrations(self) -> None:
        """Create the ``schema_version`` table if it is missing."""
        await self.execute(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)"
        )

    async def _lock_migrations(self) -> None:
        """Inside a migration's transaction: keep other processes from migrating until it ends."""

    async def _apply_migration(self, migration: Migration) -> None:
        raise NotImplementedError

    async def migrate(self, migrations: Sequence[Migration]) -> list[int]:
        """Apply the migrations newer than the recorded schema version, each in its own
        transaction; return the versions applied. Safe to call again (and from two processes)."""
        await self._prepare_migrations()
        applied: list[int] = []
        for migration in sorted(migrations, key=lambda m: m.version):
            async with self.transaction():
                await self._lock_migrations()
                # read inside the transaction: another process may have migrated meanwhile
                if await self.schema_version() >= migration.version:
                    continue
                await self._apply_migration(migration)
                await self.execute(
                    "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                    (migration.version, migration.name, self.now()),
                )
            applied.append(migration.version)
        return applied


class SqliteDatabase(Database):
    """The SQLite backend: one aiosqlite connection (WAL mode for files)."""

    backend: ClassVar[Backend] = "sqlite"
    _BEGIN: ClassVar[str] = "BEGIN IMMEDIATE"

    def __init__(self, conn: aiosqlite.Connection, path: str, clock: Clock) -> None:
        super().__init__(path, clock)
        self._conn = conn
        self.path = path

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
            return await execute(fn, raw)
        except sqlite3.IntegrityError as exc:
            if isinstance(exc, IntegrityError):
                raise
            raise IntegrityError(str(exc)) from exc

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
        if not batch.statements:
            return []
        statements = list(batch.statements)

        def apply(conn: sqlite3.Connection) -> list[int | None]:
            out: list[int | None] = []
            for sql, params, many in statements:
                cursor = conn.executemany(sql, params) if many else conn.execute(sql, params)
                out.append(None if many else cursor.lastrowid)
                expected = None if batch.expect_rows is None else batch.expect_rows.get(len(out) - 1)
                if expected is not None and cursor.rowcount != expected:
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
