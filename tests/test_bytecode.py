"""The run's compiled modules are made once, before the workers start (tests/bytecode.py), even
where ``PYTHONDONTWRITEBYTECODE`` is set: afterwards every module of the project has its cache, and
every test module its cache of rewritten asserts, fresh."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from tests import bytecode


def test_the_caches_the_workers_read_are_made_once_and_then_fresh(pytestconfig: pytest.Config) -> None:
    assert sys.dont_write_bytecode is False  # tests/__init__.py: Python keeps what it compiles
    bytecode.precompile(pytestconfig)
    assert bytecode.precompile(pytestconfig) == 0  # nothing stale the second time
    plain = [
        path
        for package in ("bot", "cogs", "rules", "db", "bench", "web")
        for path in (bytecode.ROOT / package).rglob("*.py")
    ]
    assert len(plain) > 100
    missing = [p for p in plain if not Path(importlib.util.cache_from_source(str(p))).is_file()]
    assert missing == []


def test_test_modules_and_their_helpers_are_rewritten_never_compiled_plainly() -> None:
    assert bytecode.REWRITTEN.search("tests/rules/test_ai.py")
    assert bytecode.REWRITTEN.search("tests/conftest.py")
    assert bytecode.REWRITTEN.search("tests/cogs/practice_flows.py")  # registered for rewriting
    assert not bytecode.REWRITTEN.search("tests/discord_flows.py")
    assert not bytecode.REWRITTEN.search("tests/rules/ai_positions.py")
