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
   schema, so a new migration's tables are copied too; the tables triggers derive from others,
   ``ladder_bands``, last, over what the triggers wrote), verifies each table's row count and
   contents, and that every match's log replays (the rules' :meth:`rules.match.Match.replay`, from
   the records the repositories read) to the same state on the target as on the source; on
   PostgreSQL it then moves each identity column's sequence past the copied ids (``setval``).
   Anything that fails rolls the whole transaction back: the target is left migrated and empty.
4. Prints a table of the tables and their row counts.

The source is read in one transaction as well (on SQLite that holds its write lock, so nothing can
change it meanwhile; on PostgreSQL a read-only REPEATABLE READ snapshot). The ``actions`` table's
append-only triggers block UPDATE and DELETE only: the copy inserts.

This module is the copy itself; the schema and the reading of rows are in :mod:`bot.dbcopy_schema`,
the verification (rows and replays) in :mod:`bot.dbcopy_verify`, the command line and its report in
:mod:`bot.dbcopy_cli`. Their public names are importable from here as well. The statements (the
schema read, the rows read and written, locks and sequences) are :class:`db.copy.CopyRepository`'s.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from bot.dbcopy_cli import EXIT_FAILURE, EXIT_OK, CopyReport, TableReport, parser, run
from bot.dbcopy_schema import (
    CHUNK_ROWS,
    DERIVED,
    SCHEMA_TABLE,
    CopyError,
    Table,
    compare_schemas,
    dependency_order,
    one_line,
    quote,
    read_chunks,
    read_tables,
)
from bot.dbcopy_verify import (
    REPLAYED,
    RowsDigest,
    count_rows,
    digest_of,
    replay_fingerprint,
    replayed_ids,
    verify_replays,
    verify_tables,
)
from db import (
    Database,
    DatabaseUnavailable,
    StorageError,
    UnknownDatabaseURL,
    load_migrations,
    parse_database_url,
    redact_url,
)
from db.copy import CopyRepository, insert_statement


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
    applied = await CopyRepository(db).applied_migrations()
    expected = [(m.version, m.name) for m in code]
    if applied != expected:
        raise CopyError(
            f"the source's migrations ({', '.join(n for _, n in applied)}) are not this code's "
            f"({', '.join(n for _, n in expected)})"
        )
    return version


async def _has_table(db: Database, name: str) -> bool:
    return await CopyRepository(db).has_table(name)


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
                    await CopyRepository(source).read_only_snapshot()
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
    repo = CopyRepository(target)
    for table in tables:
        if await repo.has_rows(table):
            if not await repo.has_migrations():
                # not a database of this bot: opening it only added the empty schema_version table
                await repo.drop_schema_table()
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
        await CopyRepository(target).lock_tables(order)
    await refuse_rows(target, order)

    digests: dict[str, RowsDigest] = {}
    for table in order:
        insert = insert_statement(table)
        digest = RowsDigest()
        try:
            if table.name in DERIVED:  # the triggers filled it from the rows copied before
                await CopyRepository(target).clear(table)
            async for rows in read_chunks(source, table, chunk):
                await insert_rows(target, table, insert, rows)
                digest.add(rows)
        except Exception as exc:  # noqa: BLE001 - named with its table; the transaction rolls back
            raise CopyError(
                f"copying the table {table.name} failed, nothing was committed to the target: {one_line(exc)}"
            ) from exc
        digests[table.name] = digest
        if progress is not None:
            print(f"copied {table.name}: {digest.rows} rows", file=progress, flush=True)

    await verify_tables(source, target, order, target_tables, digests, report)

    if "matches" in source_tables and "actions" in source_tables:
        await verify_replays(source, target, report, progress, replay_fingerprint)

    if target.backend == "postgres":
        await reset_sequences(target, [target_tables[t.name] for t in order])


async def insert_rows(target: Database, table: Table, insert: str, rows: Sequence[tuple[Any, ...]]) -> None:
    """Write one chunk of ``table``'s rows to the target (``insert``: :func:`db.copy.insert_statement`)."""
    await CopyRepository(target).insert(insert, rows)


async def reset_sequences(target: Database, tables: Sequence[Table]) -> None:
    """PostgreSQL: each identity (or serial) column's next value is past the largest copied one."""
    await CopyRepository(target).reset_sequences(tables)


def cli(argv: Sequence[str], *, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """``python -m bot db ...``; returns the exit code."""
    return run(copy_database, argv, stdout=stdout, stderr=stderr)


__all__ = [
    "CHUNK_ROWS",
    "EXIT_FAILURE",
    "EXIT_OK",
    "REPLAYED",
    "SCHEMA_TABLE",
    "CopyError",
    "CopyReport",
    "RowsDigest",
    "Table",
    "TableReport",
    "cli",
    "compare_schemas",
    "copy_database",
    "count_rows",
    "dependency_order",
    "digest_of",
    "insert_rows",
    "parser",
    "quote",
    "read_chunks",
    "read_tables",
    "refuse_rows",
    "replay_fingerprint",
    "replayed_ids",
    "reset_sequences",
    "verify_replays",
]
