"""``python -m bot db copy --from URL --to URL``: copy the bot's database to another one, SQLite to
PostgreSQL or back (any two URLs :func:`db.parse_database_url` accepts), with the bot stopped.

What a copy does, in order (every refusal and failure is one line on stderr and exit code 1):

1. Parses both URLs (an unknown scheme is refused before anything is opened) and refuses to copy a
   database onto itself or from an SQLite file that does not exist.
2. Opens the source **without migrating it** and reads its schema version: it must be exactly this
   code's (the newest migration in ``db/migrations``), with the same migrations applied; an older
   source is migrated by starting the bot (or this code's ``db copy`` from a copy of it) once, a
   newer one needs newer code.
3. Opens the target (a new SQLite file is created) and refuses it if any table holds a row, before
   anything is changed; migrates it to that version; then, in one transaction on the target
   (checking again that it holds no row), copies every table in
   dependency order (parents before the tables whose foreign keys point at them; found from the
   schema, so a new migration's tables are copied too), verifies each table's row count and
   contents, and that every match's log replays (the rules' :meth:`rules.match.Match.replay`, from
   the records the repositories read) to the same state on the target as on the source; on
   PostgreSQL it then moves each identity column's sequence past the copied ids (``setval``).
   Anything that fails rolls the whole transaction back: the target is left migrated and empty.
4. Prints a table of the tables and their row counts.

The source is read in one transaction as well (on SQLite that holds its write lock, so nothing can
change it meanwhile; on PostgreSQL a read-only REPEATABLE READ snapshot). The ``actions`` table's
append-only triggers block UPDATE and DELETE only: the copy inserts.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import sys
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from db import (
    Database,
    DatabaseUnavailable,
    MatchStatus,
    StorageError,
    UnknownDatabaseURL,
    load_migrations,
    parse_database_url,
    redact_url,
)
from rules.match import Match

EXIT_OK = 0
EXIT_FAILURE = 1

CHUNK_ROWS = 1000
"""Rows read from the source and written to the target at a time."""
SCHEMA_TABLE = "schema_version"
"""The migrations' own table: each database keeps its own (the target's is written by migrating it)."""
REPLAYED = (MatchStatus.ACTIVE, MatchStatus.FINISHED, MatchStatus.ABANDONED)
"""The statuses of matches that have a log to replay."""


class CopyError(Exception):
    """A refusal or a failure of the copy; the message is one line for the operator."""


@dataclass(frozen=True)
class Table:
    """A table of the schema, as the copy needs it."""

    name: str
    columns: tuple[str, ...]
    key: tuple[str, ...]  # the primary key (every column if the table has none)
    parents: frozenset[str]  # the tables its foreign keys point at (itself left out)
    identity: tuple[str, ...] = ()  # PostgreSQL: columns whose values a sequence generates


@dataclass
class TableReport:
    name: str
    source_rows: int
    target_rows: int
    identical: bool


@dataclass
class CopyReport:
    """What a copy did and verified."""

    source: str  # redacted
    target: str  # redacted
    schema_version: int
    tables: list[TableReport] = field(default_factory=list)
    replays_checked: int = 0
    #: matches whose log the current rules refuse: the same refusal on both sides
    replays_refused: list[int] = field(default_factory=list)

    @property
    def total_rows(self) -> int:
        return sum(t.target_rows for t in self.tables)

    def lines(self) -> list[str]:
        """The table printed after a copy."""
        width = max([len("table")] + [len(t.name) for t in self.tables])
        out = [
            f"copied {self.source} -> {self.target} (schema version {self.schema_version})",
            "",
            f"{'table':<{width}}  {'source':>9}  {'target':>9}",
            f"{'-' * width}  {'-' * 9}  {'-' * 9}",
        ]
        for t in self.tables:
            out.append(f"{t.name:<{width}}  {t.source_rows:>9}  {t.target_rows:>9}")
        out.append(f"{'-' * width}  {'-' * 9}  {'-' * 9}")
        total_source = sum(t.source_rows for t in self.tables)
        out.append(f"{'total':<{width}}  {total_source:>9}  {self.total_rows:>9}")
        out.append("")
        verified = (
            f"verified: {len(self.tables)} tables with the same row counts and rows; "
            f"{self.replays_checked} match logs replay to the same state"
        )
        if self.replays_refused:
            shown = ", ".join(f"#{m}" for m in self.replays_refused[:10])
            more = "" if len(self.replays_refused) <= 10 else f" and {len(self.replays_refused) - 10} more"
            verified += f" ({len(self.replays_refused)} refused by the current rules on both sides: {shown}{more})"
        out.append(verified)
        return out


# ---------------------------------------------------------------------------------------
# the schema
# ---------------------------------------------------------------------------------------


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
    """The tables with every table after the tables its foreign keys point at (ties by name).
    Raises :class:`CopyError` for a cycle (no schema of this bot has one)."""
    done: list[Table] = []
    placed: set[str] = set()
    left = dict(tables)
    while left:
        ready = sorted(name for name, t in left.items() if not (t.parents & left.keys()))
        if not ready:
            raise CopyError(
                f"the foreign keys of the tables {', '.join(sorted(left))} form a cycle: cannot order the copy"
            )
        for name in ready:
            done.append(left.pop(name))
            placed.add(name)
    return done


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


# ---------------------------------------------------------------------------------------
# rows
# ---------------------------------------------------------------------------------------


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


def _normal(value: Any) -> Any:
    """A value as both backends give it back (bytes for BLOB/BYTEA, floats by their bits)."""
    if isinstance(value, memoryview | bytearray):
        return ("b", bytes(value).hex())
    if isinstance(value, bytes):
        return ("b", value.hex())
    if isinstance(value, bool):
        return ("i", int(value))
    if isinstance(value, float):
        return ("f", value.hex())
    if isinstance(value, int):
        return ("i", value)
    return (type(value).__name__, value)


_DIGEST_MOD = 1 << 256


class RowsDigest:
    """An order-free fingerprint of a table's rows (a sum of each row's SHA-256): the two backends
    order text keys by different collations, so the same rows may come back in another order."""

    def __init__(self) -> None:
        self.rows = 0
        self.value = 0

    def add(self, rows: Sequence[Sequence[Any]]) -> None:
        for row in rows:
            text = repr(tuple(_normal(v) for v in row)).encode()
            self.value = (self.value + int.from_bytes(hashlib.sha256(text).digest(), "big")) % _DIGEST_MOD
        self.rows += len(rows)


async def count_rows(db: Database, table: Table) -> int:
    return int(await db.fetchval(f"SELECT COUNT(*) FROM {quote(table.name)}") or 0)


async def digest_of(db: Database, table: Table, columns: tuple[str, ...]) -> RowsDigest:
    """The digest of ``table`` with its columns in the order ``columns``."""
    ordered = Table(table.name, columns, table.key, table.parents, table.identity)
    digest = RowsDigest()
    async for rows in read_chunks(db, ordered):
        digest.add(rows)
    return digest


# ---------------------------------------------------------------------------------------
# replays
# ---------------------------------------------------------------------------------------


async def replay_fingerprint(db: Database, match_id: int) -> str:
    """What replaying the match's stored log gives (through the repositories and the rules): the
    log as replayed, every seat's view and the spectator's, the outcome, the events; or the
    rules' refusal. One string, to compare between two databases."""
    from bot.matches.ending import match_log

    record = await db.matches.get(match_id)
    if record is None:
        return "missing"
    rows = await db.actions.for_match(match_id)
    log_ = match_log(record, rows)
    try:
        match = await asyncio.to_thread(Match.replay, log_)
    except Exception as exc:  # noqa: BLE001 - a log the current rules refuse: compared as such
        return f"refused: {type(exc).__name__}: {exc}"
    outcome = match.outcome
    state = {
        "log": match.to_log().model_dump(mode="json"),
        "views": [match.state.view(None)] + [match.state.view(s) for s in range(len(log_.seats))],
        "outcome": None if outcome is None else outcome.to_json(),
        "events": [e.to_json() for e in match.events],
        "status": record.status.value,
    }
    return json.dumps(state, sort_keys=True, default=str)


async def replayed_ids(db: Database) -> list[int]:
    marks = ", ".join("?" for _ in REPLAYED)
    rows = await db.fetchall(
        f"SELECT id FROM matches WHERE status IN ({marks}) AND seed IS NOT NULL ORDER BY id",
        [s.value for s in REPLAYED],
    )
    return [int(r[0]) for r in rows]


# ---------------------------------------------------------------------------------------
# the copy
# ---------------------------------------------------------------------------------------


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


async def _open(url: str, role: str, **kwargs: Any) -> Database:
    try:
        return await Database.open(url, **kwargs)
    except DatabaseUnavailable as exc:
        raise CopyError(f"cannot open the {role}: {exc}") from exc
    except StorageError as exc:
        raise CopyError(f"cannot open the {role}: {exc}") from exc


def _same_place(source: tuple[str, str], target: tuple[str, str]) -> bool:
    if source[0] != target[0]:
        return False
    if source[0] == "sqlite":
        if ":memory:" in (source[1], target[1]):
            return False
        return Path(source[1]).resolve() == Path(target[1]).resolve()
    return source[1] == target[1]


async def _source_version(db: Database, shown: str) -> int:
    """The source's schema version; :class:`CopyError` unless it is this code's, migration by migration."""
    code = load_migrations()
    newest = code[-1].version if code else 0
    if not await _has_table(db, SCHEMA_TABLE):
        raise CopyError(f"the source {shown} is not a database of this bot (it has no schema_version table)")
    version = await db.schema_version()
    if version == 0:
        raise CopyError(f"the source {shown} is empty (no migration applied): there is nothing to copy")
    if version < newest:
        raise CopyError(
            f"the source is at schema version {version}, older than this code's ({newest}): "
            "start the bot of this version on it once (that migrates it), stop it, then copy"
        )
    if version > newest:
        raise CopyError(
            f"the source is at schema version {version}, newer than this code's ({newest}): "
            "copy it with the version of the bot that wrote it"
        )
    applied = [
        (int(r[0]), str(r[1])) for r in await db.fetchall("SELECT version, name FROM schema_version ORDER BY version")
    ]
    expected = [(m.version, m.name) for m in code]
    if applied != expected:
        raise CopyError(
            f"the source's migrations ({', '.join(n for _, n in applied)}) are not this code's "
            f"({', '.join(n for _, n in expected)})"
        )
    return version


async def _has_table(db: Database, name: str) -> bool:
    if db.backend == "postgres":
        found = await db.fetchval(
            "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?",
            (name,),
        )
    else:
        found = await db.fetchval("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?", (name,))
    return bool(found)


async def copy_database(
    source_url: str,
    target_url: str,
    *,
    chunk: int = CHUNK_ROWS,
    progress: TextIO | None = None,
) -> CopyReport:
    """Copy the database at ``source_url`` into the empty database at ``target_url`` (see the
    module's docstring). Returns what was copied and verified; raises :class:`CopyError` (one
    line) for a refusal or a failure, after which the target holds no row."""
    try:
        source_parsed = parse_database_url(source_url)
        target_parsed = parse_database_url(target_url)
    except UnknownDatabaseURL as exc:
        raise CopyError(str(exc)) from exc
    shown_source = redact_url(str(source_url)) if source_parsed[0] == "postgres" else source_parsed[1]
    shown_target = redact_url(str(target_url)) if target_parsed[0] == "postgres" else target_parsed[1]
    if _same_place(source_parsed, target_parsed):
        raise CopyError(f"the source and the target are the same database ({shown_target})")
    if source_parsed[0] == "sqlite" and source_parsed[1] != ":memory:" and not Path(source_parsed[1]).is_file():
        raise CopyError(f"the source SQLite file {source_parsed[1]} does not exist")

    source = await _open(source_url, "source", migrations=[])  # read as it is: never migrated
    try:
        version = await _source_version(source, shown_source)
        migrations = [m for m in load_migrations() if m.version <= version]
        target = await _open(target_url, "target", migrations=[])  # checked before it is migrated
        try:
            await refuse_rows(target)
            target_version = await target.schema_version()
            if target_version > version:
                raise CopyError(
                    f"the target is at schema version {target_version}, newer than the source's ({version}):"
                    " copy into a new database"
                )
            try:
                await target.migrate(migrations)
            except StorageError as exc:
                raise CopyError(f"cannot migrate the target: {exc}") from exc
            report = CopyReport(shown_source, shown_target, version)
            async with contextlib.AsyncExitStack() as stack:
                await _begin(stack, source, f"source {shown_source}")
                if source.backend == "postgres":
                    await source.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                await _begin(stack, target, f"target {shown_target}")
                await _copy_all(source, target, report, chunk, progress)
            return report
        finally:
            await target.close()
    finally:
        await source.close()


async def refuse_rows(target: Database, tables: Sequence[Table] | None = None) -> None:
    """:class:`CopyError` if any table of the target (``tables``, default every table but the
    migrations' own) holds a row. Checked before the target is migrated (a database with rows is
    left exactly as it was), and again inside the copy's transaction."""
    if tables is None:
        found = await read_tables(target)
        tables = [found[name] for name in sorted(found)]
    for table in tables:
        if await target.fetchone(f"SELECT 1 FROM {quote(table.name)} LIMIT 1") is not None:
            if not await target.fetchone("SELECT 1 FROM schema_version LIMIT 1"):
                # not a database of this bot: opening it only added the empty schema_version table
                await target.execute(f"DROP TABLE {SCHEMA_TABLE}")
            raise CopyError(
                f"the target is not empty (the table {table.name} has rows): db copy only fills a new, empty database"
            )


async def _begin(stack: contextlib.AsyncExitStack, db: Database, shown: str) -> None:
    """Open a transaction on ``db`` that ``stack`` ends; an SQLite file another process holds
    (the bot still running) is a :class:`CopyError`."""
    try:
        await stack.enter_async_context(db.transaction())
    except Exception as exc:
        if db.backend == "sqlite" and "locked" in str(exc).lower():
            raise CopyError(
                f"the {shown} is in use by another process (database is locked): stop the bot first"
            ) from exc
        raise


async def _copy_all(
    source: Database, target: Database, report: CopyReport, chunk: int, progress: TextIO | None
) -> None:
    """Inside the target's transaction: check it, copy, verify, set the sequences."""
    target_version = await target.schema_version()
    if target_version != report.schema_version:
        raise CopyError(
            f"the target is at schema version {target_version}, the source at {report.schema_version}:"
            " copy only into a new (or empty, same-version) database"
        )
    source_tables = await read_tables(source)
    target_tables = await read_tables(target)
    compare_schemas(source_tables, target_tables)
    order = dependency_order(source_tables)
    if target.backend == "postgres" and order:
        # no other process may write to these tables until the copy commits
        names = ", ".join(quote(t.name) for t in order)
        await target.execute(f"LOCK TABLE {names} IN SHARE ROW EXCLUSIVE MODE")
    await refuse_rows(target, order)

    digests: dict[str, RowsDigest] = {}
    for table in order:
        columns = ", ".join(quote(c) for c in table.columns)
        marks = ", ".join("?" for _ in table.columns)
        insert = f"INSERT INTO {quote(table.name)} ({columns}) VALUES ({marks})"
        digest = RowsDigest()
        try:
            async for rows in read_chunks(source, table, chunk):
                await insert_rows(target, table, insert, rows)
                digest.add(rows)
        except Exception as exc:  # noqa: BLE001 - named with its table; the transaction rolls back
            raise CopyError(
                f"copying the table {table.name} failed, nothing was committed to the target: {_one_line(exc)}"
            ) from exc
        digests[table.name] = digest
        if progress is not None:
            print(f"copied {table.name}: {digest.rows} rows", file=progress, flush=True)

    for table in order:
        source_count = await count_rows(source, table)
        target_count = await count_rows(target, table)
        copied = digests[table.name]
        target_digest = await digest_of(target, target_tables[table.name], table.columns)
        identical = source_count == copied.rows == target_count and target_digest.value == copied.value
        report.tables.append(TableReport(table.name, source_count, target_count, identical))
        if source_count != target_count:
            raise CopyError(
                f"the table {table.name} has {target_count} rows on the target, {source_count} on the source"
            )
        if not identical:
            raise CopyError(f"the rows of the table {table.name} differ between the source and the target")

    if "matches" in source_tables and "actions" in source_tables:
        await verify_replays(source, target, report, progress)

    if target.backend == "postgres":
        await reset_sequences(target, [target_tables[t.name] for t in order])


async def insert_rows(target: Database, table: Table, insert: str, rows: Sequence[tuple[Any, ...]]) -> None:
    """Write one chunk of ``table``'s rows to the target."""
    await target.executemany(insert, rows)


async def verify_replays(source: Database, target: Database, report: CopyReport, progress: TextIO | None) -> None:
    ids = await replayed_ids(source)
    if ids != await replayed_ids(target):
        raise CopyError("the target does not hold the same started matches as the source")
    for done, match_id in enumerate(ids, 1):
        theirs = await replay_fingerprint(source, match_id)
        ours = await replay_fingerprint(target, match_id)
        if theirs != ours:
            raise CopyError(f"match #{match_id} replays to another state on the target than on the source")
        if theirs.startswith("refused: "):
            report.replays_refused.append(match_id)
        report.replays_checked += 1
        if progress is not None and done % 500 == 0:
            print(f"replayed {done} of {len(ids)} matches", file=progress, flush=True)


async def reset_sequences(target: Database, tables: Sequence[Table]) -> None:
    """PostgreSQL: each identity (or serial) column's next value is past the largest copied one."""
    for table in tables:
        for column in table.identity:
            await target.fetchval(
                f"SELECT setval(pg_get_serial_sequence(?, ?), COALESCE((SELECT MAX({quote(column)})"
                f" FROM {quote(table.name)}), 0) + 1, false)",
                (quote(table.name), column),
            )


# ---------------------------------------------------------------------------------------
# the command line
# ---------------------------------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="python -m bot db",
        description="Database operations (run them with the bot stopped).",
    )
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    copy = commands.add_parser(
        "copy",
        help="copy the database to a new, empty one (SQLite to PostgreSQL or back)",
        description=(
            "Copy every table of the source into the target, in one transaction, and verify row counts,"
            " rows and match replays. The target is migrated first and must hold no row."
        ),
    )
    copy.add_argument("--from", dest="source", required=True, metavar="URL", help="the database to copy (not changed)")
    copy.add_argument("--to", dest="target", required=True, metavar="URL", help="a new or empty database")
    copy.add_argument("--quiet", action="store_true", help="print no progress lines (stderr)")
    return top


def cli(argv: Sequence[str], *, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """``python -m bot db ...``; returns the exit code."""
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    args = parser().parse_args(list(argv))
    if args.command != "copy":  # pragma: no cover - argparse allows only the commands above
        return EXIT_FAILURE
    try:
        report = asyncio.run(copy_database(args.source, args.target, progress=None if args.quiet else err))
    except CopyError as exc:
        print(f"db copy: {exc}", file=err)
        return EXIT_FAILURE
    except KeyboardInterrupt:
        print("db copy: interrupted (nothing was committed to the target)", file=err)
        return EXIT_FAILURE
    except Exception as exc:  # noqa: BLE001 - every failure is one line (the transaction was rolled back)
        print(f"db copy failed (nothing was committed to the target): {_one_line(exc)}", file=err)
        return EXIT_FAILURE
    for line in report.lines():
        print(line, file=out)
    return EXIT_OK


__all__ = [
    "CHUNK_ROWS",
    "CopyError",
    "CopyReport",
    "Table",
    "TableReport",
    "cli",
    "copy_database",
    "dependency_order",
    "read_tables",
]
