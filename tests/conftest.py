"""Fixtures for every test module: the fake Discord (``discord_harness``) and a bot inside it on
an SQLite file (``make``), see tests/discord_flows.py; and the storage backends (``backend``,
``target``): tests that take ``target`` run once on SQLite and once on a throwaway PostgreSQL
server (tests/pg_server.py), the latter marked ``postgres`` (``pytest -m postgres`` runs them
alone). Also the fixtures several test modules share: ``world`` (the stats tests' bot and quick
match service, tests/cogs/stats_world.py) and ``practice_bot`` (tests/cogs/practice_flows.py).

Helper modules shared by test modules live in tests/bot/ and tests/cogs/ (never a ``test_``
module imported by another: tests/test_test_layout.py); their ``assert`` statements are rewritten
as a test module's are (``pytest.register_assert_rewrite`` below), so a failing check says what
it compared."""

from __future__ import annotations

import asyncio
import concurrent.futures
import gc
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from db import Database, Migration
from tests import bytecode, pg_server
from tests.discord_flows import discord_harness, make  # noqa: F401  (pytest fixtures)
from tests.fakes import Clock

if TYPE_CHECKING:
    from tests.cogs.stats_world import World

# every bot a test starts (and its child processes) serves its web table on a free port, never
# the default 8080 that several workers' bots would race for (docs/web.md)
os.environ.setdefault("WEB_PORT", "0")
os.environ.setdefault("WEB_SECRET", "the-test-runs-own-web-secret-0001")  # (unset, each bot warns)

# registered before any of them is imported (so the fixtures below import theirs when they run)
pytest.register_assert_rewrite("tests.bot", "tests.cogs")

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


@pytest.fixture
async def world(discord_harness, tmp_path: Path) -> AsyncIterator[World]:  # noqa: F811
    """A bot inside the fake Discord on an SQLite file, without its timers, and a quick second match
    service on the same database (tests/cogs/stats_world.py), the clock at ``T0``."""
    from bot.client import build_bot
    from bot.settings import Settings
    from tests.cogs.stats_world import T0, World

    path = tmp_path / "stats.sqlite3"
    clock = Clock(T0)
    db = await Database.open(path, clock=clock)
    settings = Settings(discord_token="test-token", database_path=str(path))
    bot = build_bot(settings, db, run_timers=False)
    h = await discord_harness(bot)
    yield World(h, bot, db, clock)
    if not db.closed:
        await db.close()


@pytest.fixture
async def practice_bot(make, tmp_path):  # noqa: F811
    """``h, bot, db = await practice_bot(name)``: the bot with its computers thinking in a thread
    pool (the process pool has its own test in tests/bot/test_practice_service.py), their pause
    before each move passing on the harness's clock."""
    pools: list[concurrent.futures.Executor] = []

    async def factory(name: str = "practice"):
        h, bot, db = await make(tmp_path / f"{name}.sqlite3")
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
        pools.append(pool)
        computer = bot.service.computer
        computer._executor, computer._owns_executor = pool, False

        async def paced(seconds: float) -> None:  # the pause passes on the harness's clock
            h.advance(seconds)
            await asyncio.sleep(0)

        computer.sleep = paced  # the default pace (Settings.ai_pace_seconds) keeps the rate limits
        return h, bot, db

    yield factory
    for pool in pools:
        pool.shutdown(wait=True, cancel_futures=True)


def pytest_configure(config: pytest.Config) -> None:
    """In the process that starts the workers, before it starts them: compile once what each of
    them would compile at once (tests/bytecode.py)."""
    if not hasattr(config, "workerinput") and config.getoption("numprocesses", default=None):
        bytecode.precompile(config)


def pytest_collection_finish(session: pytest.Session) -> None:
    """What importing and collecting made lives for the whole run: leave it out of every later full
    garbage collection (each Discord test's harness runs one when it closes, and the memory tests
    run many), so a collection costs what the running test made, not the worker's whole heap."""
    gc.collect()
    gc.freeze()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    pg_server.shutdown()
