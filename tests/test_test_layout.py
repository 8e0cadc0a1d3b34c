"""Test modules never import one another (issue 34 item 4): what several test modules share
(constants, helpers, classes) lives in a helper module without the ``test_`` prefix (tests/bot/,
tests/cogs/, tests/rules/, tests/discord_flows.py, ...) and a shared fixture in a conftest.py. A
test module imported by another ties the two together (one moved, renamed or trimmed breaks the
other) and hides where shared code lives. Every ``tests/**/test_*.py`` is parsed (not imported) and
each import of a test module named: absolute (``from tests.<test module> import ...``, ``import
tests.<test module>``, ``from tests import <test module>``) or relative (``from .<test module>
import ...``, ``from . import <test module>``)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"


def is_test_module(dotted: str) -> bool:
    return any(part.startswith("test_") for part in dotted.split("."))


def is_module(dotted: str) -> bool:
    """Whether ``dotted`` names a module or package of the repository (not a function or class)."""
    path = ROOT.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def imports_of_test_modules(source: str, module: str) -> list[tuple[int, str]]:
    """(line, test module) for every import of a test module in ``source``, the text of the module
    ``module`` (a dotted name: relative imports are resolved from its package)."""
    package = module.split(".")[:-1]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if is_test_module(a.name)]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            origin = ".".join([*base, *([node.module] if node.module else [])])
            if is_test_module(origin):
                found.append((node.lineno, origin))
                continue
            for a in node.names:
                name = f"{origin}.{a.name}" if origin else a.name
                if a.name.startswith("test_") and is_module(name):
                    found.append((node.lineno, name))
    return found


def offenders() -> list[str]:
    out = []
    for path in sorted(TESTS.rglob("test_*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for line, imported in imports_of_test_modules(path.read_text(encoding="utf-8"), module):
            out.append(f"{path.relative_to(ROOT)}:{line} imports {imported}")
    return out


def test_no_test_module_imports_another_test_module() -> None:
    found = offenders()
    assert not found, (
        "test modules import other test modules; move what they share into a helper module (no test_ prefix)"
        " or a conftest.py:\n" + "\n".join(found)
    )


def test_every_form_of_import_is_caught() -> None:
    # "@" stands for "test_" (so that a grep for imports of test modules does not find these lines)
    source = """
import tests.@a
import tests.rules.@ai as ai
from tests.@b import helper
from tests.rules.@ai import positions
from tests import @test_layout
from .@d import thing
from . import @test_layout as layout
from ..@e import other

def later():
    from tests.@f import lazy
""".replace("@", "test_")
    assert imports_of_test_modules(source, "tests.rules.test_x") == [
        (2, "tests.test_a"),
        (3, "tests.rules.test_ai"),
        (4, "tests.test_b"),
        (5, "tests.rules.test_ai"),
        (6, "tests.test_test_layout"),
        (7, "tests.rules.test_d"),
        (9, "tests.test_e"),
        (12, "tests.test_f"),
    ]
    assert imports_of_test_modules("from . import test_test_layout\n", "tests.test_x") == [
        (1, "tests.test_test_layout")
    ]


def test_helpers_and_names_starting_with_test_are_not_test_modules() -> None:
    source = """
from tests.bot.tournament_env import Env, open_env
from tests.discord_flows import setup_players
from tests import pg_server
from tests.fakes import test_clock
import pytest
"""
    assert imports_of_test_modules(source, "tests.test_x") == []
