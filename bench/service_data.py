"""The databases ``python -m bench service`` measures: real matches played once through the public
API, copied in SQL into as many live matches as a run needs (with new match ids and players of
their own), and what they then hold."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

NOT_COPIED = ("outbox",)
"""Tables whose rows are not copied: notices not yet delivered (or not yet cleared) when the
template's database was closed. A database holds them for the last few changes before a stop, not
for every live match; copied N times they would have start-up deliver N matches' notices."""


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _columns(conn: sqlite3.Connection, schema: str, table: str) -> list[tuple[str, str, int]]:
    """(name, declared type, primary-key position) of each column."""
    return [(r[1], str(r[2]).upper(), int(r[5])) for r in conn.execute(f'PRAGMA {schema}.table_info("{table}")')]


def clone_matches(dest: str | Path, source: str | Path, templates: Sequence[int], count: int) -> list[int]:
    """Copy the template matches of ``source`` into ``dest`` (same schema) until ``dest`` has
    ``count`` new matches (copy k is of ``templates[k % len(templates)]``); return their ids.

    Generic over the schema, so both ways' schemas work: the ``matches`` row gets the new id, every
    row of every table with a ``match_id`` column is copied with the new id (an INTEGER PRIMARY KEY
    other than ``match_id`` is left to SQLite), and each copy gets its own players: ``user_id``
    and ``challenger_id`` are shifted by a per-copy offset, with ``players`` rows to match.
    Tables in :data:`NOT_COPIED` are left out."""
    if not templates:
        raise ValueError("no template matches")
    conn = sqlite3.connect(str(dest), isolation_level=None)
    try:
        conn.execute("ATTACH DATABASE ? AS src", (str(source),))
        conn.execute("BEGIN")
        first = int(conn.execute("SELECT COALESCE(MAX(id), 0) FROM main.matches").fetchone()[0]) + 1
        span = 1 + int(
            conn.execute(
                "SELECT MAX(COALESCE((SELECT MAX(user_id) FROM src.players), 0),"
                " COALESCE((SELECT MAX(user_id) FROM main.players), 0))"
            ).fetchone()[0]
        )
        conn.execute(
            "CREATE TEMP TABLE clone_map (new_id INTEGER PRIMARY KEY, tpl_id INTEGER NOT NULL, uoff INTEGER NOT NULL)"
        )
        new_ids = [first + k for k in range(count)]
        conn.executemany(
            "INSERT INTO temp.clone_map VALUES (?, ?, ?)",
            [(new_id, templates[k % len(templates)], (k + 1) * span) for k, new_id in enumerate(new_ids)],
        )
        tables = [
            str(r[0])
            for r in conn.execute(
                "SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]

        def copy(table: str, key: str, join: str) -> None:
            cols = _columns(conn, "main", table)
            pks = [c for c in cols if c[2] > 0]
            names, exprs = [], []
            for name, ctype, pk in cols:
                if name == key:
                    expr = "m.new_id"
                elif name in ("user_id", "challenger_id"):
                    expr = f't."{name}" + m.uoff'
                elif pk and len(pks) == 1 and ctype == "INTEGER":
                    continue  # a rowid alias: SQLite numbers the copies
                else:
                    expr = f't."{name}"'
                names.append(f'"{name}"')
                exprs.append(expr)
            try:
                conn.execute(
                    f'INSERT INTO main."{table}" ({", ".join(names)}) SELECT {", ".join(exprs)} '
                    f'FROM temp.clone_map m JOIN src."{table}" t ON {join}'
                )
            except sqlite3.Error as exc:
                raise RuntimeError(f"copying the rows of table {table!r} failed: {exc}") from exc

        # each copy's players: the template seats' players, shifted
        pcols = [c[0] for c in _columns(conn, "main", "players")]
        pexprs = ["p.user_id + m.uoff" if c == "user_id" else f'p."{c}"' for c in pcols]
        conn.execute(
            f"INSERT INTO main.players ({', '.join(_quote(c) for c in pcols)}) "
            f"SELECT {', '.join(pexprs)} FROM temp.clone_map m JOIN src.seats s ON s.match_id = m.tpl_id "
            "JOIN src.players p ON p.user_id = s.user_id"
        )
        copy("matches", "id", "t.id = m.tpl_id")
        for table in tables:
            if table in ("matches", "players", *NOT_COPIED):
                continue
            if "match_id" in {c[0] for c in _columns(conn, "main", table)}:
                copy(table, "match_id", "t.match_id = m.tpl_id")
        conn.execute("COMMIT")
    finally:
        conn.close()
    return new_ids


def active_seats(path: str | Path) -> dict[int, tuple[int, ...]]:
    """The user ids of the seats of every active match in the database at ``path``, by match id
    (read with sqlite3 before the service opens it)."""
    conn = sqlite3.connect(str(path))
    try:
        rows = conn.execute(
            "SELECT s.match_id, s.user_id FROM seats s JOIN matches m ON m.id = s.match_id "
            "WHERE m.status = 'active' ORDER BY s.match_id, s.seat"
        ).fetchall()
    finally:
        conn.close()
    seats: dict[int, list[int]] = {}
    for match_id, user_id in rows:
        seats.setdefault(int(match_id), []).append(int(user_id))
    return {match_id: tuple(users) for match_id, users in seats.items()}


def table_rows(path: str | Path) -> dict[str, int]:
    """Rows per table of the database at ``path`` (what a built database holds)."""
    conn = sqlite3.connect(str(path))
    try:
        names = [str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {name: int(conn.execute(f"SELECT COUNT(*) FROM {_quote(name)}").fetchone()[0]) for name in sorted(names)}
    finally:
        conn.close()


def count_rows(path: str | Path, sql: str) -> int:
    conn = sqlite3.connect(str(path))
    try:
        return int(conn.execute(sql).fetchone()[0])
    finally:
        conn.close()
