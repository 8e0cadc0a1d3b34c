"""The match service holds no SQL (issue 34 item 2): ``bot/matches/`` calls named methods of the
``db/`` repositories (``db/live.py`` ``LiveRepository``'s batch builders, ``db/repositories.py``),
never statement text, and never the database's raw statement API."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MATCHES = ROOT / "bot" / "matches"

#: The start of an SQL statement (SQL keywords are capitals in this code base: English words such
#: as "select a card" never match).
SQL = re.compile(
    r"\bSELECT\s+[\w\"*(]|\bINSERT\s+(?:OR\s+\w+\s+)?INTO\b|\bUPDATE\s+\w+\s+SET\b|\bDELETE\s+FROM\b"
    r"|\b(?:CREATE|DROP|ALTER)\s+(?:TABLE|INDEX|TRIGGER|VIEW)\b|\bPRAGMA\s+\w+"
)
#: The database's raw statement methods: a repository's business.
RAW = {"execute", "executemany", "fetchone", "fetchall", "fetchval", "fetch_many"}


def _docstrings(tree: ast.Module) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant):
            found.add(id(node.body[0].value))
    return found


def problems(source: str) -> list[tuple[int, str]]:
    """(line, what) of each SQL string literal (docstrings apart; an f-string read whole, ``{}``
    where a value goes) and each call of a raw statement method in ``source``."""
    tree = ast.parse(source)
    skip = _docstrings(tree) | {id(p) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for p in n.values}
    found = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        text = None
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        elif isinstance(node, ast.JoinedStr):
            text = "".join(p.value if isinstance(p, ast.Constant) else "{}" for p in node.values)
        if text is not None and SQL.search(text):
            found.append((node.lineno, "SQL: " + " ".join(text.split())[:80]))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in RAW:
            found.append((node.lineno, f"raw call .{node.func.attr}()"))
    return sorted(found)


@pytest.mark.parametrize(
    "source",
    [
        'await db.fetchval("SELECT COUNT(*) FROM actions WHERE match_id = ?", (m,))',
        'Batch().add(\n    "UPDATE matches SET status = \'expired\', finished_at = ?"\n    " WHERE id = ?", (n, m))',
        "rows = await self.ctx.db.fetchall(q)",
        'batch.add(f"DELETE FROM {table} WHERE id = ?", (i,))',
        'q = "INSERT OR IGNORE INTO rating_queue (match_id) VALUES (?)"',
    ],
)
def test_the_check_finds_sql(source: str) -> None:
    assert problems(source), source


@pytest.mark.parametrize(
    "source",
    [
        '"""Reads with SELECT * FROM matches (in db/)."""',
        'raise InvalidChallenge("Select a card, then update the board")',
        "await self.ctx.db.actions.count_for_seat(match_id, seat)",
        "LiveRepository.expire(batch, record.id, now)",
    ],
)
def test_the_check_leaves_the_rest_alone(source: str) -> None:
    assert not problems(source), source


def test_bot_matches_holds_no_sql() -> None:
    modules = sorted(MATCHES.glob("*.py"))
    assert {"moves.py", "lobby.py", "ending.py", "computer.py", "store.py"} <= {p.name for p in modules}
    hits = [
        f"{path.relative_to(ROOT).as_posix()}:{line}: {what}"
        for path in modules
        for line, what in problems(path.read_text(encoding="utf-8"))
    ]
    assert not hits, "bot/matches/ must call db/ repository methods, not hold SQL:\n" + "\n".join(hits)
