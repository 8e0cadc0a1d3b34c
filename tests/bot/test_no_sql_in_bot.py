"""SQL lives in ``db/`` only (issue 34 item 2): ``bot/`` calls the repositories' named methods and
holds no statement text. Every string literal of every module under ``bot/`` (f-strings and
implicitly concatenated pieces read as the one string Python makes of them; docstrings left out,
they may talk about SQL) is searched for the start of an SQL statement; a hit names the file and the
line."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "bot"

_NAME = r'(?:"[^"]+"|\w+|\{\})(?:\.(?:"[^"]+"|\w+|\{\}))?'  # a table, maybe quoted, schema-qualified or formatted
PATTERNS = {
    "SELECT": re.compile(r'\bSELECT\s+(?:DISTINCT\s+)?[\w"*({]'),  # a column, *, 1, a call, a value
    "INSERT": re.compile(rf"\bINSERT\s+(?:OR\s+\w+\s+)?INTO\s+{_NAME}"),
    "UPDATE": re.compile(rf"\bUPDATE\s+{_NAME}\s+SET\b"),
    "DELETE": re.compile(rf"\bDELETE\s+FROM\s+{_NAME}"),
    "DDL": re.compile(r"\b(?:CREATE|DROP|ALTER)\s+(?:TEMP(?:ORARY)?\s+|UNIQUE\s+)?(?:TABLE|INDEX|TRIGGER|VIEW)\b"),
    "LOCK": re.compile(rf"\bLOCK\s+TABLE\s+{_NAME}"),
    "SET TRANSACTION": re.compile(r"\bSET\s+TRANSACTION\b"),
    "PRAGMA": re.compile(r"\bPRAGMA\s+\w+"),
    "WITH": re.compile(r"\bWITH\s+(?:RECURSIVE\s+)?\w+\s+AS\s*\(\s*SELECT\b"),
}
"""SQL keywords are written in capitals in this code base: the patterns are case-sensitive, so
English words ("select a card", "update the message") never match."""


def sql_in(text: str) -> str | None:
    """The kind of SQL statement ``text`` holds (a key of :data:`PATTERNS`), or None."""
    for kind, pattern in PATTERNS.items():
        if pattern.search(text):
            return kind
    return None


def _text(node: ast.expr) -> str | None:
    """A string literal's text: an f-string's pieces joined with ``{}`` where a value goes."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(
            part.value if isinstance(part, ast.Constant) and isinstance(part.value, str) else "{}"
            for part in node.values
        )
    return None


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the docstring nodes of a module, its classes and functions."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _nested_in_fstring(tree: ast.Module) -> set[int]:
    """The ids of the string pieces inside f-strings (the f-string itself is read whole)."""
    return {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for part in node.values}


def sql_strings(source: str, filename: str = "<string>") -> Iterator[tuple[int, str, str]]:
    """(line, kind, text) of each string literal of ``source`` that holds SQL, docstrings apart."""
    tree = ast.parse(source, filename)
    skip = _docstrings(tree) | _nested_in_fstring(tree)
    found = []
    for node in ast.walk(tree):
        if id(node) in skip or not isinstance(node, ast.expr):
            continue
        text = _text(node)
        kind = None if text is None else sql_in(text)
        if text is not None and kind is not None:
            found.append((node.lineno, kind, text))
    yield from sorted(found)


def bot_modules() -> list[Path]:
    return sorted(BOT.rglob("*.py"))


# -- the detector itself -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "source",
    [
        'db.fetchall("SELECT id FROM matches WHERE status = ?", (s,))',
        'q = ("SELECT m.game, m.status,"\n " (SELECT COUNT(*) FROM seats a) AS n"\n " FROM seats me")',
        'db.fetchval("SELECT pg_advisory_xact_lock(?)", (k,))',
        'db.fetchone("SELECT 1 FROM schema_version LIMIT 1")',
        'db.fetchall(f"SELECT {columns} FROM {quote(name)} ORDER BY {order}")',
        'db.fetchall(f"SELECT id, status FROM matches WHERE id IN ({marks})", chunk)',
        'db.execute("INSERT INTO players (user_id) VALUES (?)", (1,))',
        'db.execute("INSERT OR IGNORE INTO rating_queue (match_id) VALUES (?)", (1,))',
        'insert = f"INSERT INTO {quote(table)} ({columns}) VALUES ({marks})"',
        'db.execute("UPDATE matches SET version = version + 1 WHERE id = ?", (m,))',
        'db.execute(\n    "UPDATE matches SET status = \'expired\'"\n    " WHERE id = ?", (m,))',
        'db.execute(f"DELETE FROM {quote(table.name)}")',
        'db.execute("DELETE FROM rating_queue")',
        'db.execute("CREATE TABLE notes (body TEXT)")',
        'db.execute(f"DROP TABLE {SCHEMA}")',
        'db.execute(f"LOCK TABLE {names} IN SHARE ROW EXCLUSIVE MODE")',
        'db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")',
        'db.execute("PRAGMA foreign_keys = ON")',
        'db.fetchall("WITH t AS (SELECT 1) SELECT * FROM t")',
        'def f():\n    x = 1\n    return "SELECT * FROM ratings"',
    ],
)
def test_the_detector_finds_sql(source: str) -> None:
    assert list(sql_strings(source)), source


@pytest.mark.parametrize(
    "source",
    [
        '"""The ratings: SELECT ... FROM rating_changes, read by db.ratings."""',
        'def f():\n    """Reads with SELECT * FROM matches (in db/)."""\n    return 1',
        'class C:\n    """INSERT INTO players happens in db/."""',
        'print("Select a card from your hand")',
        'reply = "the append-only triggers block UPDATE and DELETE only: the copy inserts"',
        'label = "Update the match card, then delete from the outbox"',
        'msg = f"cannot open the {role}: {exc}"',
        '# db.execute("DELETE FROM matches")',
        'name = "select"',
    ],
)
def test_the_detector_leaves_other_text_alone(source: str) -> None:
    assert not list(sql_strings(source)), source


def test_hits_name_the_line() -> None:
    source = 'x = 1\n\nrows = await db.fetchall(\n    "SELECT id FROM matches"\n    " WHERE id = ?", (1,))\n'
    assert [(line, kind) for line, kind, _ in sql_strings(source)] == [(4, "SELECT")]


# -- bot/ ---------------------------------------------------------------------------------------


def test_bot_modules_are_found() -> None:
    names = {p.relative_to(BOT).as_posix() for p in bot_modules()}
    assert {"stats.py", "ratings.py", "dbcopy.py", "matches/moves.py", "tournaments/service.py"} <= names


def test_bot_holds_no_sql() -> None:
    """SQL belongs in db/ (a repository's named method); bot/ calls the method."""
    hits = []
    for path in bot_modules():
        for line, kind, text in sql_strings(path.read_text(encoding="utf-8"), str(path)):
            shown = " ".join(text.split())
            hits.append(f"{path.relative_to(ROOT).as_posix()}:{line}: {kind}: {shown[:100]}")
    assert not hits, "SQL statement text in bot/ (move it into a db/ repository method):\n" + "\n".join(hits)
