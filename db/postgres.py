"""The PostgreSQL backend (asyncpg): the same :class:`~db.database.Database` API as SQLite.

One asyncpg connection per :class:`PostgresDatabase`, used like the SQLite one: every statement goes
through the database's task-owned lock, so a transaction opened by one coroutine never picks up
statements from another, and nested :meth:`~db.database.Database.transaction` blocks are savepoints.
Several processes share the server; each has its own connection.

SQL arrives in SQLite's dialect and is translated once per statement text (:mod:`db.dialect`);
asyncpg prepares each translated statement once per connection and caches it. Migrations are the
same numbered files, in their PostgreSQL edition where one exists (``db/migrations/postgres``), each
applied in one transaction (PostgreSQL's DDL is transactional) that first takes an advisory lock,
so two processes starting at once migrate one after the other.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, ClassVar, cast

import asyncpg

from .database import (
    Backend,
    Batch,
    Clock,
    Database,
    Migration,
    Query,
    Row,
    StaleWrite,
    load_migrations,
    redact_url,
)
from .dialect import inserted_table, returns_rows, to_postgres
from .errors import DatabaseUnavailable, IntegrityError, MigrationError

MIGRATION_LOCK = 0x5749_5A52  # "WIZR": the advisory lock every migration transaction takes
CONNECT_TIMEOUT = 10.0
"""Seconds a connection attempt may take before the server counts as unreachable."""
STATEMENT_CACHE = 512
"""Prepared statements asyncpg keeps per connection."""

_CONNECT_ERRORS: tuple[type[BaseException], ...] = (
    OSError,
    TimeoutError,
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    ValueError,
)


_LOST_ERRORS: tuple[type[BaseException], ...] = (
    OSError,
    asyncpg.PostgresConnectionError,
    asyncpg.exceptions.ConnectionDoesNotExistError,
    asyncpg.exceptions.AdminShutdownError,
    asyncpg.InterfaceError,
)

log = logging.getLogger(__name__)


def _rowcount(status: str) -> int:
    """The row count in a command tag ("UPDATE 3", "INSERT 0 1", "DELETE 0"); -1 if none."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1


def unreachable_reason(exc: BaseException) -> str:
    """One line saying why a connection failed."""
    if isinstance(exc, TimeoutError):
        return "the connection timed out"
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:300]


class PostgresDatabase(Database):
    """The PostgreSQL backend: one asyncpg connection (opened again, between transactions, if the
    server dropped it)."""

    backend: ClassVar[Backend] = "postgres"
    _BEGIN: ClassVar[str] = "BEGIN"

    def __init__(self, conn: Any, url: str, clock: Clock, *, timeout: float = CONNECT_TIMEOUT) -> None:
        super().__init__(redact_url(url), clock)
        self._conn = conn
        self._dsn = url
        self._timeout = timeout
        #: tables whose ``id`` the server generates: an INSERT into one returns it (lastrowid)
        self._id_tables: frozenset[str] = frozenset()

    @staticmethod
    async def _open_connection(url: str, timeout: float) -> Any:
        try:
            return await asyncpg.connect(
                url,
                timeout=timeout,
                statement_cache_size=STATEMENT_CACHE,
                server_settings={"application_name": "wizard-referee"},
            )
        except _CONNECT_ERRORS as exc:
            raise DatabaseUnavailable(
                f"cannot reach the PostgreSQL server at {redact_url(url)}: {unreachable_reason(exc)}"
            ) from exc

    @classmethod
    async def connect(
        cls,
        url: str,
        *,
        clock: Clock = time.time,
        migrations: Sequence[Migration] | None = None,
        timeout: float = CONNECT_TIMEOUT,
    ) -> PostgresDatabase:
        """Connect to the server ``url`` names and apply every pending migration. Raises
        :class:`DatabaseUnavailable` (one line, no password) if the server cannot be reached or
        refuses the login."""
        conn = await cls._open_connection(url, timeout)
        try:
            db = cls(conn, url, clock, timeout=timeout)
            await db.migrate(load_migrations() if migrations is None else migrations)
        except BaseException:
            await conn.close()
            raise
        return db

    async def _close(self) -> None:
        await self._conn.close()

    # -- the connection and its errors -----------------------------------------------------
    async def _live(self) -> Any:
        """The connection (the gate held); a lost one is replaced between transactions (inside one,
        the transaction is lost anyway: its statements fail until it ends)."""
        if self._conn.is_closed() and self._depth == 0 and not self._closed:
            log.warning("The connection to the PostgreSQL server %s was lost; connecting again", self.url)
            self._conn = await self._open_connection(self._dsn, self._timeout)
        return self._conn

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """Driver errors as this package's: constraint violations as :class:`IntegrityError`, a
        lost connection as :class:`DatabaseUnavailable`."""
        try:
            yield
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise IntegrityError(str(exc), unique=isinstance(exc, asyncpg.UniqueViolationError)) from exc
        except _LOST_ERRORS as exc:
            if isinstance(exc, asyncpg.InterfaceError) and not self._conn.is_closed():
                raise  # a misuse, not a lost connection
            raise DatabaseUnavailable(
                f"the connection to the PostgreSQL server at {self.url} was lost: {unreachable_reason(exc)}"
            ) from exc

    # -- statements ----------------------------------------------------------------------
    def _sql(self, sql: str) -> str:
        return to_postgres(sql, self._id_tables)

    def _returns_id(self, sql: str) -> bool:
        table = inserted_table(sql)
        return table is not None and table in self._id_tables and "RETURNING" not in sql.upper()

    async def _one(self, sql: str, params: Sequence[Any]) -> tuple[int, int | None]:
        """Run one statement on the connection (the gate held): (rowcount, inserted id)."""
        query = self._sql(sql)
        with self._errors():
            conn = await self._live()
            if returns_rows(query):
                rows = await conn.fetch(query, *params)
                inserted = int(rows[-1][0]) if rows and self._returns_id(sql) else None
                return len(rows), inserted
            status = await conn.execute(query, *params)
        return _rowcount(str(status)), None

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> tuple[int, int | None]:
        async with self._gate.hold():
            return await self._one(sql, params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> int:
        rows = [tuple(r) for r in rows]
        if not rows:
            return 0
        async with self._gate.hold():
            await self._many(sql, rows)
        return -1

    async def _many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with self._errors():
            await (await self._live()).executemany(to_postgres(sql), rows)

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        async with self._gate.hold():
            with self._errors():
                return cast("Row | None", await (await self._live()).fetchrow(self._sql(sql), *params))

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        async with self._gate.hold():
            with self._errors():
                return cast("list[Row]", await (await self._live()).fetch(self._sql(sql), *params))

    async def fetch_many(self, queries: Sequence[Query]) -> list[list[Row]]:
        """Each query's rows; outside a transaction several queries read one snapshot (a
        read-only REPEATABLE READ transaction)."""
        queries = list(queries)
        async with self._gate.hold():
            with self._errors():
                conn = await self._live()
                if len(queries) <= 1 or self._depth > 0:
                    return [cast("list[Row]", await conn.fetch(self._sql(q), *p)) for q, p in queries]
                async with conn.transaction(isolation="repeatable_read", readonly=True):
                    return [cast("list[Row]", await conn.fetch(self._sql(q), *p)) for q, p in queries]

    async def write(self, batch: Batch) -> list[int | None]:
        if not batch.statements:
            return []
        statements = list(batch.statements)
        expect = batch.expect_rows or {}
        async with self._gate.hold():
            top = self._depth == 0
            await self._raw("BEGIN" if top else "SAVEPOINT batch")
            try:
                out: list[int | None] = []
                for i, (sql, params, many) in enumerate(statements):
                    if many:
                        await self._many(sql, params)
                        out.append(None)
                        continue
                    count, inserted = await self._one(sql, params)
                    if i in expect and count != expect[i]:
                        raise StaleWrite(sql)
                    out.append(inserted)
            except BaseException:
                if top:
                    await self._rollback()
                else:
                    await self._raw("ROLLBACK TO batch")
                    await self._raw("RELEASE batch")
                raise
            await self._raw("COMMIT" if top else "RELEASE batch")
            return out

    async def _raw(self, sql: str) -> None:
        with self._errors():
            await (await self._live()).execute(sql)

    async def _plain(self, sql: str) -> None:
        await self._raw(sql)

    def _in_transaction(self) -> bool:
        return not self._conn.is_closed() and bool(self._conn.is_in_transaction())

    async def _rollback(self) -> None:
        if self._conn.is_closed():
            return  # the server ended the transaction with the connection
        await super()._rollback()

    # -- migrations ----------------------------------------------------------------------
    async def _prepare_migrations(self) -> None:
        async with self.transaction():
            await self._lock_migrations()
            await self._plain(
                "CREATE TABLE IF NOT EXISTS schema_version ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)"
            )

    async def _lock_migrations(self) -> None:
        await self._conn.execute(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")

    async def _apply_migration(self, migration: Migration) -> None:
        try:
            await self._conn.execute(migration.sql_for("postgres"))  # the whole script, one round trip
        except asyncpg.PostgresError as exc:
            raise MigrationError(f"Migration {migration.name} failed: {exc}") from exc

    async def migrate(self, migrations: Sequence[Migration]) -> list[int]:
        applied = await super().migrate(migrations)
        if applied:  # statements prepared before the schema changed are stale now
            await self._conn.reload_schema_state()
        rows = await self.fetchall(
            "SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema()"
            " AND column_name = 'id' AND (is_identity = 'YES' OR column_default LIKE 'nextval(%')"
        )
        self._id_tables = frozenset(str(r[0]).lower() for r in rows)
        return applied


__all__ = ["PostgresDatabase", "unreachable_reason"]
