"""docs/architecture.md stays true to the code (issue 34, item 5): every repository path it writes
in backticks exists, and every function, class or method it names after a file is defined there.

What counts:

- a **path** is a backticked span that starts with ``rules/``, ``db/``, ``bot/``, ``cogs/``,
  ``bench/``, ``tests/`` or ``docs/`` and ends in ``.py``, ``.md``, ``.toml``, ``.sql``, ``.json``
  or ``/`` (a folder), or is ``pyproject.toml`` or ``README.md``; a span with ``<``, ``*`` or
  ``{`` in it is a template (``rules/<game>/``), not a path;
- a **name** is a backticked identifier, or dotted identifiers (``Class.method``), right after a
  backticked ``.py`` path with only spaces between them ("`bot/matches/moves.py` `Moves.play`"); more
  names may follow, each after a comma or an arrow (", `Moves.rate`", "-> `Rater.schedule`"), and
  all of them are looked up in that file. A name is defined when the file's module defines it at the
  top level (a function, a class, an assignment), and ``A.b`` when ``b`` is defined in the body of
  the top-level class ``A`` (a method, a property, a class attribute or field);
- a relative markdown link (``[text](operating.md)``) must lead to a file.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"

PREFIXES = ("rules/", "db/", "bot/", "cogs/", "web/", "bench/", "tests/", "docs/")
SUFFIXES = (".py", ".md", ".toml", ".sql", ".json", "/")
ROOT_FILES = ("pyproject.toml", "README.md")
TEMPLATE_MARKS = ("<", "*", "{")
#: The top-level folders the map describes, and the packages whose every sub-package it names.
TOP_LEVEL = ("rules/", "db/", "bot/", "cogs/", "web/", "bench/", "tests/", "docs/")
SOURCE_PACKAGES = ("rules", "db", "bot", "cogs", "web", "bench")

SPAN = re.compile(r"`([^`\n]+)`")
NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
FIRST_GAP = re.compile(r"\s+")
NEXT_GAP = re.compile(r"\s*(?:,|->)\s*")
LINK = re.compile(r"\]\(([^)\s]+)\)")


@dataclass
class Report:
    """What the checker looked at in one markdown text, and what it found wrong."""

    paths: list[str] = field(default_factory=list)
    names: list[tuple[str, str]] = field(default_factory=list)
    links: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def is_repo_path(span: str) -> bool:
    if span in ROOT_FILES:
        return True
    if any(mark in span for mark in TEMPLATE_MARKS) or " " in span:
        return False
    return span.startswith(PREFIXES) and span.endswith(SUFFIXES)


def _defined(body: list[ast.stmt]) -> dict[str, ast.stmt]:
    """The names a module or class body defines (descending into top-level ``if`` and ``try``)."""
    out: dict[str, ast.stmt] = {}
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            out[node.name] = node
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    out[target.id] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out[node.target.id] = node
        elif isinstance(node, ast.If):
            out.update(_defined(node.body))
            out.update(_defined(node.orelse))
        elif isinstance(node, ast.Try):
            for part in (node.body, node.orelse, node.finalbody, *(h.body for h in node.handlers)):
                out.update(_defined(part))
    return out


@cache
def _module(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def defines(path: Path, dotted: str) -> bool:
    """Whether the module at ``path`` defines ``dotted`` (``name`` or ``Class.member``...)."""
    scope = _defined(_module(path).body)
    parts = dotted.split(".")
    for i, part in enumerate(parts):
        node = scope.get(part)
        if node is None:
            return False
        if i < len(parts) - 1:
            if not isinstance(node, ast.ClassDef):
                return False
            scope = _defined(node.body)
    return True


def check(text: str, root: Path, doc_dir: Path) -> Report:
    """Check the paths, the names and the relative links of the markdown ``text`` against the
    repository at ``root`` (links are relative to ``doc_dir``)."""
    report = Report()
    spans = list(SPAN.finditer(text))
    for i, span in enumerate(spans):
        value = span.group(1)
        if not is_repo_path(value):
            continue
        report.paths.append(value)
        target = root / value
        exists = target.is_dir() if value.endswith("/") else target.is_file()
        if not exists:
            report.problems.append(f"no such {'folder' if value.endswith('/') else 'file'}: {value}")
        if not value.endswith(".py"):
            continue
        end, gap = span.end(), FIRST_GAP
        for follower in spans[i + 1 :]:
            name = follower.group(1)
            if not gap.fullmatch(text[end : follower.start()]) or not NAME.fullmatch(name):
                break
            report.names.append((value, name))
            if exists and not defines(target, name):
                report.problems.append(f"{value} defines no {name}")
            end, gap = follower.end(), NEXT_GAP
    for link in LINK.findall(text):
        if link.startswith(("http://", "https://", "mailto:", "#")):
            continue
        report.links.append(link)
        if not (doc_dir / link.split("#", 1)[0]).exists():
            report.problems.append(f"broken link: {link}")
    return report


def doc_report() -> Report:
    return check(DOC.read_text(encoding="utf-8"), ROOT, DOC.parent)


def test_every_path_and_name_in_the_architecture_doc_exists() -> None:
    report = doc_report()
    assert not report.problems, "docs/architecture.md is out of date:\n" + "\n".join(report.problems)
    # the checker still finds what it checks (a change of the page's style must not silence it)
    assert len(set(report.paths)) >= 150, len(set(report.paths))
    assert len(set(report.names)) >= 150, len(set(report.names))


def test_the_map_names_every_package() -> None:
    """Each top-level folder, and every Python package under the source packages, has its place
    on the map: a new sub-package is added to the page."""
    named = set(doc_report().paths)
    wanted = set(TOP_LEVEL)
    for top in SOURCE_PACKAGES:
        for init in (ROOT / top).rglob("__init__.py"):
            if "__pycache__" not in init.parts:
                wanted.add(init.parent.relative_to(ROOT).as_posix() + "/")
    missing = sorted(wanted - named)
    assert not missing, f"docs/architecture.md does not name these packages: {missing}"


def test_the_checker_reports_a_missing_path_and_a_missing_name(tmp_path: Path) -> None:
    (tmp_path / "bot").mkdir()
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text("# Guide\n", encoding="utf-8")
    (tmp_path / "bot" / "mod.py").write_text(
        "LIMIT = 3\n\n\ndef helper():\n    pass\n\n\nclass Service:\n    size: int = 1\n\n"
        "    async def run(self):\n        pass\n",
        encoding="utf-8",
    )
    text = (
        "The `bot/` folder; `bot/mod.py` `helper`, `Service.run` -> `Service.size`; `bot/mod.py` `LIMIT`.\n"
        "Gone: `bot/gone.py`, `db/`, `bot/mod.py` `vanished` and `bot/mod.py` `Service.stop`.\n"
        "Not paths: `rules/<game>/`, `python -m bot`, `Service.run`. A [guide](guide.md), a [lost](lost.md).\n"
        "Not names: `bot/mod.py`, `Service.gone` (a comma right after a path), `bot/mod.py` (`helper`).\n"
    )
    report = check(text, tmp_path, tmp_path / "docs")
    assert report.problems == [
        "no such file: bot/gone.py",
        "no such folder: db/",
        "bot/mod.py defines no vanished",
        "bot/mod.py defines no Service.stop",
        "broken link: lost.md",
    ]
    assert ("bot/mod.py", "Service.size") in report.names and ("bot/mod.py", "LIMIT") in report.names
    assert ("bot/mod.py", "Service.gone") not in report.names and ("bot/mod.py", "helper") in report.names
    assert "rules/<game>/" not in report.paths and report.links == ["guide.md", "lost.md"]
