"""Versioned SQL migrations: the numbered files in ``db/migrations`` (:func:`load_migrations`), each
with a PostgreSQL edition where SQLite's SQL does not run there (``db/migrations/postgres``), and
the runner (:func:`run_migrations`, behind :meth:`~db.base.Database.migrate`) that applies the
pending ones, each in its own transaction. How one migration is applied and how other processes
are kept out meanwhile is up to each backend (the ``_apply_migration`` / ``_lock_migrations``
hooks of :class:`~db.base.Database`)."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import MigrationError

if TYPE_CHECKING:
    from .base import Backend, Database

_MIGRATION_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


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


async def run_migrations(db: Database, migrations: Sequence[Migration]) -> list[int]:
    """Apply the migrations newer than the recorded schema version, each in its own transaction;
    return the versions applied. Safe to call again (and from two processes)."""
    await db._prepare_migrations()
    applied: list[int] = []
    for migration in sorted(migrations, key=lambda m: m.version):
        async with db.transaction():
            await db._lock_migrations()
            # read inside the transaction: another process may have migrated meanwhile
            if await db.schema_version() >= migration.version:
                continue
            await db._apply_migration(migration)
            await db.execute(
                "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, db.now()),
            )
        applied.append(migration.version)
    return applied
