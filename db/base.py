"""The shared part of both backends: the public :class:`Database` API (statements, batches,
transactions and their savepoints, opening by URL, the migration hooks), :class:`Batch`, the
:class:`Row` protocol and the ``DATABASE_URL`` parsing. The backends are :mod:`db.sqlite` (the
embedded default) and :mod:`db.postgres` (asyncpg); :mod:`db.migrate` loads and runs migrations.

Every statement goes through a lock owned by the current asyncio task, so a transaction opened by
one coroutine never picks up statements from another; nested :meth:`Database.transaction` blocks
become savepoints (:meth:`Database._savepoint`, shared by both backends). SQL is written once, for
SQLite, with ``?`` placeholders; the PostgreSQL backend translates it (:mod:`db.dialect`).
"""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal, Protocol
from urllib.parse import urlsplit

from .errors import DatabaseUnavailable, UnknownDatabaseURL
from .migrate import Migration, run_migrations

log = logging.getLogger(__name__)

Clock = Callable[[], float]
"""Returns the current time as unix seconds (UTC)."""

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

    def held(self) -> bool:
        """Whether the current task holds the lock (is inside a block of :meth:`hold`)."""
        return self._owner is not None and self._owner is asyncio.current_task()

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


class _Nesting:
    """How deep a transaction is: 0 none open, 1 the transaction itself, 2 and more its savepoints."""

    __slots__ = ("depth",)

    def __init__(self) -> None:
        self.depth = 0


class QuietOutages(logging.Filter):
    """A logging filter that drops a record carrying a :class:`~db.errors.DatabaseUnavailable`
    (raised, or the cause of what was raised): the database logs each outage once, when its first
    failure is seen, and once more when it answers again (:meth:`Database._unavailable`), so a
    loop or a handler that logs its failures does not add a traceback every time it runs into
    the same outage. Install it on the loggers of the code that calls the database
    (``bot.errors`` does, for the bot's)."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        cause = getattr(exc, "__cause__", None)
        return not (isinstance(exc, DatabaseUnavailable) or isinstance(cause, DatabaseUnavailable))


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
        #: the depth of the transaction :meth:`transaction` opens under :attr:`_gate` (SQLite's)
        self._nesting = _Nesting()
        self._closed = False
        #: since when (monotonic) the database has been unreachable, None while it answers
        self._down_since: float | None = None
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
        from .sqlite import SqliteDatabase

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

    # -- outages ------------------------------------------------------------------------------
    @property
    def reachable(self) -> bool:
        """False from a statement that failed because the database could not be reached (the
        server stopped, the connection was lost, the SQLite file locked or unreadable) until the
        next statement that succeeds."""
        return self._down_since is None

    def _unavailable(self, exc: DatabaseUnavailable) -> DatabaseUnavailable:
        """Note a failure to reach the database: one warning per outage (its first failure), not
        a line per statement; every caller gets ``exc`` (players read one clear line)."""
        if self._down_since is None and not self._closed:
            self._down_since = time.monotonic()
            log.warning("The database cannot be reached: %s (logged once until it is back)", exc)
        return exc

    def _answered(self) -> None:
        """A statement succeeded: if the database was unreachable, say once that it is back."""
        if self._down_since is not None:
            down, self._down_since = time.monotonic() - self._down_since, None
            log.warning("The database is reachable again (it was unreachable for %.0f s)", down)

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
        """Apply ``batch`` atomically (SQLite: in one round trip) and return once it is committed:
        every statement or none (an error rolls the batch back and is re-raised). Outside a
        transaction the batch is group-committed (:mod:`db.group`): batches written while a commit
        is in flight share the next transaction, each in its own savepoint, so a failing batch
        rolls back alone. Inside an open :meth:`transaction` the statements join it instead (a
        savepoint keeps the batch all-or-nothing). Returns each statement's inserted id (None for
        add_many and for statements that insert no row with an id)."""
        raise NotImplementedError

    async def _plain(self, sql: str) -> None:
        """A statement without parameters or result (BEGIN, COMMIT, SAVEPOINT...), on the current
        task's transaction's connection when it has one open."""
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
            nesting = self._nesting
            if nesting.depth > 0:
                async with self._savepoint(nesting):
                    yield self
                return
            try:
                async with self._outermost(nesting):
                    yield self
            finally:
                nesting.depth = 0

    @asynccontextmanager
    async def _outermost(self, nesting: _Nesting) -> AsyncIterator[None]:
        """The outermost block of a transaction (both backends): BEGIN, the body, COMMIT; an error
        inside rolls it all back and propagates. ``nesting`` counts the depth from here (1)."""
        await self._plain(self._BEGIN)
        nesting.depth = 1
        try:
            yield
            await self._plain("COMMIT")
        except BaseException:
            await self._rollback()
            raise

    @asynccontextmanager
    async def _savepoint(self, nesting: _Nesting) -> AsyncIterator[None]:
        """A block nested in the open transaction ``nesting`` counts (both backends): a savepoint
        (``sp<depth>``) that an error inside rolls back, leaving the transaction usable, before it
        propagates. The statements go through :meth:`_plain`, so they reach the connection that
        holds the transaction."""
        name = f"sp{nesting.depth}"
        await self._plain(f"SAVEPOINT {name}")
        nesting.depth += 1
        try:
            yield
        except BaseException:
            await self._plain(f"ROLLBACK TO {name}")
            await self._plain(f"RELEASE {name}")
            raise
        else:
            await self._plain(f"RELEASE {name}")
        finally:
            nesting.depth -= 1

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
        transaction; return the versions applied. Safe to call again (and from two processes).
        See :func:`db.migrate.run_migrations`."""
        return await run_migrations(self, migrations)
