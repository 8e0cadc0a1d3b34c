"""The PostgreSQL backend (asyncpg): the same :class:`~db.base.Database` API as SQLite.

A small pool of asyncpg connections per :class:`PostgresDatabase` (``DATABASE_POOL_SIZE``, default 5):
reads outside a transaction take any free connection, a batch takes one for its transaction, and a
:meth:`~db.base.Database.transaction` pins one to its task until it ends, so a transaction opened
by one coroutine never picks up statements from another while other tasks carry on on the other
connections; nested blocks are savepoints on the pinned connection. Several processes share the
server; each has its own pool. One connection, the home one, stays out of the pool while it is free
and is taken first (:meth:`PostgresDatabase._give`): one statement after another (a move's reads,
its batch) costs no turn through the pool and finds its prepared statements there.

SQL arrives in SQLite's dialect and is translated once per statement text (:mod:`db.dialect`);
asyncpg prepares each translated statement once per connection and caches it. Migrations are the
same numbered files, in their PostgreSQL edition where one exists (``db/migrations/postgres``), each
applied in one transaction (PostgreSQL's DDL is transactional) that first takes an advisory lock,
so two processes starting at once migrate one after the other.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from typing import Any, ClassVar, TypeVar, cast

import asyncpg

from . import pg_group
from .base import Backend, Batch, Clock, Database, Query, Row, StaleWrite, _Nesting, redact_url
from .dialect import inserted_table, returns_rows, to_postgres
from .errors import DatabaseUnavailable, IntegrityError, MigrationError
from .group import GroupCommit, Outcome
from .migrate import Migration, load_migrations

MIGRATION_LOCK = 0x5749_5A52  # "WIZR": the advisory lock every migration transaction takes
CONNECT_TIMEOUT = 10.0
"""Seconds a connection attempt may take before the server counts as unreachable."""
STATEMENT_CACHE = 512
"""Prepared statements asyncpg keeps per connection."""
DEFAULT_POOL_SIZE = 5
"""Connections a process keeps to the server at most (``DATABASE_POOL_SIZE``)."""
RETRY_ALONE = frozenset({"40P01", "40001"})
"""SQLSTATEs (deadlock detected, serialization failure) with which the server ends a group's
transaction through no fault of its batches: each is committed again on its own."""

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


class _PoolFloorRetries(logging.Filter):
    """asyncpg's pool (0.30 and later) logs a warning with a traceback each time it fails to
    reopen its idle connection while the server is down (every 1, 2, 4... up to 60 s). The outage
    is logged once by the database (``Database._unavailable``): those records are dropped."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Failed to restore the pool connection floor")


logging.getLogger("asyncpg.pool").addFilter(_PoolFloorRetries())

T = TypeVar("T")


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


def _usable_after(exc: BaseException) -> bool:
    """Whether a connection can serve again after ``exc`` ended its statement: after the server
    refused a statement, yes; after a lost connection, a misuse or a cancellation, it goes back to
    the pool (which closes a broken one, or waits for the cancellation to finish)."""
    return isinstance(exc, Exception) and not isinstance(exc, DatabaseUnavailable | asyncpg.InterfaceError)


def _open(conn: Any) -> bool:
    """Whether a connection taken from the pool is still open (and still ours: the pool takes one
    back itself when it closes)."""
    try:
        return not conn.is_closed()
    except asyncpg.InterfaceError:
        return False


class _Pin(_Nesting):
    """The connection a task's :meth:`~db.base.Database.transaction` holds, and its depth."""

    __slots__ = ("conn",)

    def __init__(self, conn: Any) -> None:
        super().__init__()
        self.conn = conn


async def _no_reset(conn: Any) -> None:
    """What the pool runs on a connection it gets back, past asyncpg's own ROLLBACK of an open
    transaction: nothing (no session state is ever changed here; advisory locks are
    transaction-scoped), so giving a connection back costs no round trip."""


class PostgresDatabase(Database):
    """The PostgreSQL backend: a small pool of asyncpg connections (a lost one is opened again
    when next taken). Reads outside a transaction take any free connection; a batch
    (:meth:`write`) takes one for its transaction; :meth:`transaction` pins one to the task for its
    duration, and every statement the task issues inside goes to it (nested blocks: savepoints on
    that connection)."""

    backend: ClassVar[Backend] = "postgres"
    _BEGIN: ClassVar[str] = "BEGIN"

    def __init__(self, pool: Any, url: str, clock: Clock, *, timeout: float = CONNECT_TIMEOUT) -> None:
        super().__init__(redact_url(url), clock)
        self._pool = pool
        self._dsn = url
        self._timeout = timeout
        #: task -> the connection its open transaction holds
        self._pins: dict[object, _Pin] = {}
        #: tables whose ``id`` the server generates: an INSERT into one returns it (lastrowid)
        self._id_tables: frozenset[str] = frozenset()
        #: each statement text as a group commit sends it (:mod:`db.pg_group`)
        self._statements = pg_group.GroupStatements(self._id_tables)
        #: a batch alone runs as its shape's function (:mod:`db.pg_group`)
        self.batch_functions = True
        # group commit on all but one of the pool's connections (one stays free for reads)
        size = int(pool.get_max_size()) if hasattr(pool, "get_max_size") else DEFAULT_POOL_SIZE
        self._group = GroupCommit(self._commit_group, limit=max(1, size - 1))
        #: the home connection (:meth:`_give`): kept out of the pool while free, taken first by
        #: the next statement, batch or transaction; given back to the pool whenever another task
        #: waits for one that the pool cannot open; none with a pool of one
        self._home: Any = None
        self._home_free = False
        self._waiting = 0  # tasks waiting for the pool
        self._keep = size >= 2

    @staticmethod
    async def _open_pool(url: str, timeout: float, size: int) -> Any:
        try:
            return await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=max(1, size),
                reset=_no_reset,
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
        pool_size: int = DEFAULT_POOL_SIZE,
    ) -> PostgresDatabase:
        """Connect to the server ``url`` names (a pool of at most ``pool_size`` connections) and
        apply every pending migration. Raises :class:`DatabaseUnavailable` (one line, no password)
        if the server cannot be reached or refuses the login."""
        pool = await cls._open_pool(url, timeout, pool_size)
        try:
            db = cls(pool, url, clock, timeout=timeout)
            await db.migrate(load_migrations() if migrations is None else migrations)
        except BaseException:
            pool.terminate()
            raise
        return db

    async def close(self) -> None:
        """Close every connection once the statements and transactions in flight (other tasks')
        have ended, waiting at most :attr:`CLOSE_WAIT` seconds for them."""
        if self._closed:
            return
        self._closed = True
        await self._drop_home()
        if self._pin() is not None:  # inside the caller's own transaction: nothing to wait for
            self._pool.terminate()
            return
        try:
            await asyncio.wait_for(self._pool.close(), self.CLOSE_WAIT)
        except TimeoutError:
            log.warning("closing the database while a statement is still running (waited %s s)", self.CLOSE_WAIT)
            self._pool.terminate()

    async def _close(self) -> None:
        self._pool.terminate()

    # -- connections and their errors --------------------------------------------------------
    def _pin(self) -> _Pin | None:
        """The current task's open transaction, if any."""
        return self._pins.get(asyncio.current_task()) if self._pins else None

    async def _acquire(self) -> Any:
        """A free connection from the pool (a lost one is opened again here)."""
        if self._closed:
            raise DatabaseUnavailable(f"the connection to the PostgreSQL server at {self.url} was closed")
        if self._home_free and self._exhausted():
            await self._drop_home()  # the pool is all taken: the free home connection goes back
        self._waiting += 1
        try:
            return await self._pool.acquire()
        except _CONNECT_ERRORS as exc:
            if self._closed or self._pool.is_closing():
                raise DatabaseUnavailable(f"the connection to the PostgreSQL server at {self.url} was closed") from exc
            raise DatabaseUnavailable(
                f"the connection to the PostgreSQL server at {self.url} was lost: {unreachable_reason(exc)}"
            ) from exc
        finally:
            self._waiting -= 1

    async def _release(self, conn: Any) -> None:
        try:
            await self._pool.release(conn)
        except Exception:  # a broken connection: the pool dropped it and opens another when needed
            log.debug("giving a connection back to the pool failed", exc_info=True)

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[Any]:
        """The connection for the current task's statements (its transaction's, else a free one
        for the duration), driver errors translated (:meth:`_errors`). A lost connection or an
        unreachable server is noted once per outage (:meth:`~db.base.Database._unavailable`), and
        the first statement that succeeds afterwards ends it."""
        try:
            pin = self._pin()
            if pin is not None:
                with self._errors(pin.conn):
                    yield pin.conn
            else:
                conn = await self._take()
                try:
                    with self._errors(conn):
                        yield conn
                except BaseException as exc:
                    await self._give(conn, _usable_after(exc))
                    raise
                await self._give(conn)
        except DatabaseUnavailable as exc:
            self._unavailable(exc)
            raise
        self._answered()

    async def _take(self) -> Any:
        """A free connection: the home one if it is free (:meth:`_give`), else one from the pool."""
        if self._home_free:
            if _open(self._home):
                self._home_free = False
                return self._home
            await self._drop_home()  # the server ended it: the pool closes it
        return await self._acquire()

    async def _give(self, conn: Any, usable: bool = True) -> None:
        """Done with ``conn``. The home connection stays out of the pool, free for the next
        statement: taking it costs no turn through the pool, and the statements prepared on it (each
        batch shape's call) are found there again. The first connection given back usable becomes
        home; any other goes back to the pool; so does home when it broke, when the database
        closes, or when another task waits for the pool and the pool has none left to open (it gets
        it; a new home is chosen later)."""
        keep = (
            usable
            and self._keep
            and not (self._waiting and self._exhausted())
            and not self._closed
            and _open(conn)
            and not conn.is_in_transaction()
        )
        if keep and self._home is None:
            self._home = conn
        if keep and conn is self._home:
            self._home_free = True
            return
        if conn is self._home:
            self._home = None
        await self._release(conn)

    def _exhausted(self) -> bool:
        """Whether every connection the pool may open is open and taken."""
        return bool(self._pool.get_idle_size() == 0 and self._pool.get_size() >= self._pool.get_max_size())

    async def _drop_home(self) -> None:
        """Give the home connection back to the pool, if it is free (else when it is given back)."""
        if self._home_free:
            home, self._home, self._home_free = self._home, None, False
            await self._release(home)
        elif self._home is not None:
            self._home = None

    @contextmanager
    def _errors(self, conn: Any) -> Iterator[None]:
        """Driver errors as this package's: constraint violations as :class:`IntegrityError`, a
        lost connection as :class:`DatabaseUnavailable`."""
        try:
            yield
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise IntegrityError(str(exc), unique=isinstance(exc, asyncpg.UniqueViolationError)) from exc
        except _LOST_ERRORS as exc:
            if isinstance(exc, asyncpg.InterfaceError) and not conn.is_closed():
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

    async def _one(self, conn: Any, sql: str, params: Sequence[Any]) -> tuple[int, int | None]:
        """Run one statement on ``conn``: (rowcount, inserted id)."""
        query = self._sql(sql)
        if returns_rows(query):
            rows = await conn.fetch(query, *params)
            inserted = int(rows[-1][0]) if rows and self._returns_id(sql) else None
            return len(rows), inserted
        status = await conn.execute(query, *params)
        return _rowcount(str(status)), None

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> tuple[int, int | None]:
        async with self._connection() as conn:
            return await self._one(conn, sql, params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> int:
        rows = [tuple(r) for r in rows]
        if not rows:
            return 0
        async with self._connection() as conn:
            await conn.executemany(to_postgres(sql), rows)
        return -1

    async def _read(self, run: Callable[[Any], Awaitable[T]]) -> T:
        """``run`` a read on the current task's connection (its transaction's, else a free one)."""
        async with self._connection() as conn:
            return await run(conn)

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        query = self._sql(sql)
        return cast("Row | None", await self._read(lambda conn: conn.fetchrow(query, *params)))

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        query = self._sql(sql)
        return cast("list[Row]", await self._read(lambda conn: conn.fetch(query, *params)))

    async def fetch_many(self, queries: Sequence[Query]) -> list[list[Row]]:
        """Each query's rows; outside a transaction several queries read one snapshot (a
        read-only REPEATABLE READ transaction)."""
        queries = [(self._sql(q), p) for q, p in queries]

        async def run(conn: Any) -> list[list[Row]]:
            if len(queries) <= 1 or conn.is_in_transaction():
                return [cast("list[Row]", await conn.fetch(q, *p)) for q, p in queries]
            async with conn.transaction(isolation="repeatable_read", readonly=True):
                return [cast("list[Row]", await conn.fetch(q, *p)) for q, p in queries]

        return await self._read(run)

    async def write(self, batch: Batch) -> list[int | None]:
        """Outside a transaction: group commit (:mod:`db.group`), on up to
        :attr:`~db.group.GroupCommit.limit` connections at once. Inside the current task's
        :meth:`transaction`: a savepoint on its connection."""
        if not batch.statements:
            return []
        if self._pin() is None:
            return await self._group.write(batch)
        async with self._connection() as conn:
            await conn.execute("SAVEPOINT batch")
            try:
                out = await self._apply(conn, batch)
            except BaseException:
                await conn.execute("ROLLBACK TO batch")
                await conn.execute("RELEASE batch")
                raise
            await conn.execute("RELEASE batch")
            return out

    async def _apply(self, conn: Any, batch: Batch) -> list[int | None]:
        """``batch``'s statements on ``conn`` (inside a transaction): each one's inserted id."""
        expect = batch.expect_rows or {}
        out: list[int | None] = []
        for i, (sql, params, many) in enumerate(batch.statements):
            if many:
                await conn.executemany(to_postgres(sql), params)
                out.append(None)
                continue
            count, inserted = await self._one(conn, sql, params)
            if i in expect and count != expect[i]:
                raise StaleWrite(sql)
            out.append(inserted)
        return out

    async def _commit_group(self, batches: Sequence[Batch]) -> list[Outcome]:
        """One statement, one round trip: the function ``wr_write_group`` (migration 0018,
        :mod:`db.pg_group`) runs every batch in one transaction, each in a subtransaction of its
        own when there are several (rolled back alone if it fails), and commits.

        Several processes commit groups at once, and two groups can lock the same rows (two
        matches' rows, a player's standing) in opposite orders: the server then ends one batch's
        subtransaction (a deadlock). That is no fault of the batch, so it is committed again on its
        own, as it would have been without group commit, and answered from that."""
        batches = list(batches)
        if len(batches) == 1:
            return await self._write_group(batches)
        outcomes = await self._write_group(batches)
        for i, outcome in enumerate(outcomes):
            if getattr(outcome, "sqlstate", None) in RETRY_ALONE:
                log.debug("a batch of a group was ended by the server (%s); committing it alone", outcome)
                try:
                    outcomes[i] = (await self._write_group([batches[i]]))[0]
                except (StaleWrite, asyncpg.PostgresError, IntegrityError) as exc:
                    if isinstance(exc, _LOST_ERRORS):
                        raise
                    outcomes[i] = self._batch_error(exc)
        return outcomes

    async def _write_group(self, batches: list[Batch]) -> list[Outcome]:
        """One call of ``wr_write_group``, or of the batch's own function when it is alone
        (:meth:`~db.pg_group.GroupStatements.single`, called by its name: :func:`~db.pg_group.call_of`):
        each batch's ids, or (several batches) its error. A single batch's error is raised, as its
        statements would have raised it."""
        async with self._connection() as conn:
            single = (
                await self._statements.single(conn, batches[0]) if len(batches) == 1 and self.batch_functions else None
            )
            try:
                if single is not None:
                    try:
                        raw = await self._call(conn, *single)
                    except asyncpg.UndefinedFunctionError:  # dropped since this process made it
                        self._statements.forget(single[0])
                        single = await self._statements.single(conn, batches[0])
                        assert single is not None
                        raw = await self._call(conn, *single)
                    return [pg_group.ids_of(batches[0], pg_group.returned_ids(raw))]
                args = await self._statements.arguments(conn, batches)
                raw = await conn.fetchval(pg_group.CALL, *args)
            except asyncpg.PostgresError as exc:
                if getattr(exc, "sqlstate", None) == pg_group.STALE:
                    raise StaleWrite(str(exc)) from exc
                raise
        outcomes: list[Outcome] = []
        for batch, found in zip(batches, pg_group.results(raw), strict=True):
            if "error" in found:
                outcomes.append(pg_group.batch_error(str(found["error"]), str(found["message"])))
            else:
                outcomes.append(pg_group.ids_of(batch, found["ids"]))
        return outcomes

    @staticmethod
    async def _call(conn: Any, name: str, args: str) -> Any:
        """A call of the batch function ``name`` with its arguments."""
        return await conn.fetchval(pg_group.call_of(name), args)

    @staticmethod
    def _batch_error(exc: BaseException) -> BaseException:
        """A batch's own error as its writer gets it (a constraint as :class:`IntegrityError`)."""
        if isinstance(exc, asyncpg.IntegrityConstraintViolationError):
            out = IntegrityError(str(exc), unique=isinstance(exc, asyncpg.UniqueViolationError))
            out.__cause__ = exc
            return out
        return exc

    async def _plain(self, sql: str) -> None:
        async with self._connection() as conn:
            await conn.execute(sql)

    def _in_transaction(self) -> bool:
        pin = self._pin()
        return pin is not None and not pin.conn.is_closed() and bool(pin.conn.is_in_transaction())

    async def _rollback_on(self, conn: Any) -> None:
        """ROLLBACK on ``conn`` (a batch's own transaction) if it is still open."""
        if conn.is_closed() or not conn.is_in_transaction():
            return  # the server ended the transaction with the connection
        try:
            await conn.execute("ROLLBACK")
        except Exception:  # the original error matters more than a failed rollback
            log.exception("ROLLBACK failed")

    # -- transactions ---------------------------------------------------------------------
    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Database]:
        """All statements inside commit together or not at all (nested blocks are savepoints on
        the same connection). The task holds one connection of the pool until it ends; other
        tasks use the others."""
        pin = self._pin()
        if pin is not None:
            async with self._savepoint(pin):
                yield self
            return
        task = asyncio.current_task()
        try:
            conn = await self._take()
        except DatabaseUnavailable as exc:
            self._unavailable(exc)
            raise
        pin = self._pins[task] = _Pin(conn)
        usable = False
        try:
            async with self._outermost(pin):
                yield self
            usable = True
        except Exception as exc:
            usable = _usable_after(exc)
            raise
        finally:
            del self._pins[task]
            await self._give(conn, usable)

    # -- migrations ----------------------------------------------------------------------
    def _pinned(self) -> Any:
        """The connection of the current task's transaction."""
        pin = self._pin()
        if pin is None:
            raise RuntimeError("outside a transaction")
        return pin.conn

    async def _prepare_migrations(self) -> None:
        async with self.transaction():
            await self._lock_migrations()
            await self._plain(
                "CREATE TABLE IF NOT EXISTS schema_version ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)"
            )

    async def _lock_migrations(self) -> None:
        await self._pinned().execute(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")

    async def _apply_migration(self, migration: Migration) -> None:
        try:
            await self._pinned().execute(migration.sql_for("postgres"))  # the whole script, one round trip
        except asyncpg.PostgresError as exc:
            raise MigrationError(f"Migration {migration.name} failed: {exc}") from exc

    async def migrate(self, migrations: Sequence[Migration]) -> list[int]:
        applied = await super().migrate(migrations)
        await self._drop_home()
        if applied:  # statements prepared before the schema changed are stale now: fresh connections
            await self._pool.expire_connections()
        rows = await self.fetchall(
            "SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema()"
            " AND column_name = 'id' AND (is_identity = 'YES' OR column_default LIKE 'nextval(%')"
        )
        self._id_tables = frozenset(str(r[0]).lower() for r in rows)
        self._statements = pg_group.GroupStatements(self._id_tables)
        return applied


__all__ = ["DEFAULT_POOL_SIZE", "PostgresDatabase", "unreachable_reason"]
