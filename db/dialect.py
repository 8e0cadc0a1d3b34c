"""SQL is written once, for SQLite, with ``?`` placeholders; this module translates it for
PostgreSQL (asyncpg). The translation is small and mechanical, and cached per statement text:

- ``?`` -> ``$1``, ``$2``, ... (not inside string literals, quoted names or comments);
- ``INSERT OR IGNORE INTO ...`` -> ``INSERT INTO ... ON CONFLICT DO NOTHING``;
- ``x IS ?`` / ``x IS NOT y`` -> ``x IS NOT DISTINCT FROM $n`` / ``x IS DISTINCT FROM y`` (SQLite's
  null-safe comparison; ``IS [NOT] NULL``, ``TRUE`` and ``FALSE`` stay);
- ``CROSS JOIN t ON ...`` (SQLite's way to fix the join order) -> ``JOIN t ON ...``;
- an ``INSERT`` into a table with a generated ``id`` gets ``RETURNING id`` (SQLite's lastrowid),
  unless it returns something already.

What cannot be translated mechanically is written portably where it is used (``SUM(CASE WHEN ...
THEN 1 ELSE 0 END)`` rather than SQLite's ``SUM(a = b)``), or lives in the PostgreSQL edition of a
migration (``db/migrations/postgres``).
"""

from __future__ import annotations

import re
from functools import lru_cache

_INSERT_OR_IGNORE = re.compile(r"^\s*INSERT\s+OR\s+IGNORE\s+INTO\b", re.IGNORECASE)
_INSERT_INTO = re.compile(r"^\s*INSERT\s+(?:OR\s+\w+\s+)?INTO\s+(\"?[A-Za-z_][A-Za-z0-9_]*\"?)", re.IGNORECASE)
_RETURNING = re.compile(r"\bRETURNING\b", re.IGNORECASE)
_IS_VALUE = re.compile(
    r"\bIS(\s+NOT)?\s+(?!(?:NULL|TRUE|FALSE|UNKNOWN|DISTINCT|NOT)\b)(\?|[A-Za-z_][A-Za-z0-9_.]*)", re.IGNORECASE
)
_CROSS_JOIN_ON = re.compile(
    r"\bCROSS\s+JOIN(\s+[A-Za-z_][A-Za-z0-9_.]*(?:\s+(?:AS\s+)?[A-Za-z_][A-Za-z0-9_]*)?\s+ON\b)", re.IGNORECASE
)


def _outside_literals(sql: str) -> list[tuple[bool, str]]:
    """``sql`` cut into (is_code, text) pieces: string literals, quoted names and comments are
    not code, so nothing is translated inside them."""
    pieces: list[tuple[bool, str]] = []
    i, start, n = 0, 0, len(sql)
    while i < n:
        ch = sql[i]
        end = -1
        if ch in ("'", '"'):
            end = i + 1
            while end < n:
                if sql[end] == ch:
                    if end + 1 < n and sql[end + 1] == ch:  # a doubled quote
                        end += 2
                        continue
                    break
                end += 1
            end = min(end + 1, n)
        elif sql.startswith("--", i):
            newline = sql.find("\n", i)
            end = n if newline < 0 else newline
        elif sql.startswith("/*", i):
            close = sql.find("*/", i + 2)
            end = n if close < 0 else close + 2
        if end < 0:
            i += 1
            continue
        if start < i:
            pieces.append((True, sql[start:i]))
        pieces.append((False, sql[i:end]))
        i = start = end
    if start < n:
        pieces.append((True, sql[start:]))
    return pieces


def _rewrite_code(code: str) -> str:
    code = _IS_VALUE.sub(lambda m: ("IS DISTINCT FROM " if m.group(1) else "IS NOT DISTINCT FROM ") + m.group(2), code)
    code = _CROSS_JOIN_ON.sub(lambda m: "JOIN" + m.group(1), code)
    return code


@lru_cache(maxsize=2048)
def to_postgres(sql: str, returning_id_tables: frozenset[str] = frozenset()) -> str:
    """The PostgreSQL form of an SQLite statement (see the module's docstring). ``returning_id_tables``:
    the tables whose ``id`` the database generates (an INSERT into one returns it)."""
    ignore = _INSERT_OR_IGNORE.match(sql) is not None
    if ignore:
        sql = _INSERT_OR_IGNORE.sub("INSERT INTO", sql, count=1)
    out: list[str] = []
    number = 0
    for is_code, text in _outside_literals(sql):
        if not is_code:
            out.append(text)
            continue
        text = _rewrite_code(text)
        parts = text.split("?")
        rebuilt = [parts[0]]
        for part in parts[1:]:
            number += 1
            rebuilt.append(f"${number}{part}")
        out.append("".join(rebuilt))
    result = "".join(out).rstrip()
    terminated = result.endswith(";")
    if terminated:
        result = result[:-1].rstrip()
    if ignore:
        result += " ON CONFLICT DO NOTHING"
    table = inserted_table(sql)
    if table is not None and table in returning_id_tables and _RETURNING.search(result) is None:
        result += " RETURNING id"
    return result + (";" if terminated else "")


def inserted_table(sql: str) -> str | None:
    """The table an ``INSERT`` statement writes to (lower case), or None for other statements."""
    match = _INSERT_INTO.match(sql)
    return None if match is None else match.group(1).strip('"').lower()


def returns_rows(sql: str) -> bool:
    """Whether a (translated) statement gives rows back: a query, or a write with RETURNING."""
    head = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else ""
    return head in ("SELECT", "WITH", "VALUES", "SHOW", "TABLE") or _RETURNING.search(sql) is not None


__all__ = ["inserted_table", "returns_rows", "to_postgres"]
