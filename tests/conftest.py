"""Fixtures for every test module: the fake Discord (``discord_harness``) and a bot inside it on
an SQLite file (``make``), see tests/discord_flows.py; and the storage backends (``backend``,
``target``): tests that take ``target`` run once on SQLite and once on a throwaway PostgreSQL
server (tests/pg_server.py), the latter marked ``postgres`` (``pytest -m postgres`` runs them
alone)."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from db import Database, Migration
from tests import pg_server
from tests.discord_flows import discord_harness, make  # noqa: F401  (pytest fixtures)

BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


class DbTarget:
    """Where a test's database lives: an SQLite file in the test's folder, or a fresh schema on
    the test PostgreSQL server. :meth:`open` opens (and migrates) it; :meth:`sql` reads what is
    committed through a connection of its own."""

    def __init__(self, backend: str, url: str) -> None:
        self.backend = backend
        self.url = url

    @property
    def postgres(self) -> bool:
        return self.backend == "postgres"

    @property
    def memory_url(self) -> str:
        """``":memory:"`` on SQLite (for tests that used it), the test database on PostgreSQL."""
        return self.url if self.postgres else ":memory:"

    async def open(self, *, clock: Any = time.time, migrations: Sequence[Migration] | None = None) -> Database:
        return await Database.open(self.url, clock=clock, migrations=migrations)

    def sql(self, query: str, *params: Any) -> list[tuple[Any, ...]]:
        if self.postgres:
            return pg_server.query(self.url, query, params)
        conn = sqlite3.connect(self.url)
        try:
            return [tuple(r) for r in conn.execute(query, params).fetchall()]
        finally:
            conn.close()


@pytest.fixture
def toy_game() -> Iterator[str]:
    """The toy game (``tests/toy_game.py``) registered for the test; its slug."""
    from rules.registry import registered
    from tests.toy_game import TOY

    with registered(TOY):
        yield TOY.slug


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
async def target(backend: str, tmp_path: Path) -> AsyncIterator[DbTarget]:
    if backend == "sqlite":
        yield DbTarget("sqlite", str(tmp_path / "bot.sqlite3"))
        return
    async for found in _postgres_target():
        yield found


@pytest.fixture
async def pg_target() -> AsyncIterator[DbTarget]:
    """A fresh PostgreSQL schema only (for tests of PostgreSQL itself; mark them ``postgres``)."""
    async for found in _postgres_target():
        yield found


async def _postgres_target() -> AsyncIterator[DbTarget]:
    server = pg_server.server()
    name = await server.create_schema()
    try:
        yield DbTarget("postgres", server.url(name))
    finally:
        await server.drop_schema(name)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    pg_server.shutdown()
