"""A batch written alone on PostgreSQL is one prepared statement, the call of its shape's function
by name (db/pg_group.py ``call_of``: no ``wr_call_batch`` dispatch, whose ``EXECUTE`` parsed and
planned the call on every move), mostly on the same connection: one free connection is kept out of
the pool for the next statement (db/postgres.py ``PostgresDatabase._give``: no turn through the
pool, and each shape's call found prepared on it); issue 33 part 3."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import asyncpg
import pytest

from bench.pg_moves import Wire
from db import Batch, Database, StaleWrite
from db.pg_group import call_of, function_name
from db.postgres import _open
from tests.conftest import DbTarget

pytestmark = pytest.mark.postgres
T0 = 1_700_000_000
GUARD = "UPDATE matches SET version = version + 1 WHERE id = ? AND version = ?"
ACTIONS = "INSERT INTO actions (match_id, idx, seat, action, auto, created_at) VALUES (?, ?, ?, ?, ?, ?)"
NOTICE = "INSERT INTO outbox (match_id, kind, payload, created_at) VALUES (?, ?, ?, ?)"
FINISH = "UPDATE matches SET status = ?, outcome = ?, summary = ?, finished_at = ? WHERE id = ? AND status = 'active'"


class Requests(Wire):
    """The benchmark's counter of requests on the wire, keeping what each request said."""

    def __init__(self, db: Database) -> None:
        super().__init__(db)
        self.sent: list[bytes] = []

    def watch(self) -> None:
        for holder in self.db._pool._holders:  # type: ignore[attr-defined]
            conn = holder._con
            if conn is None or id(conn) in self._seen:
                continue
            self._seen.add(id(conn))
            transport = conn._transport
            write = transport.write

            def counted(data: Any, _write: Any = write) -> Any:
                self.count += 1
                self.sent.append(bytes(data))
                return _write(data)

            transport.write = counted


async def match(db: Database) -> int:
    await db.execute(
        "INSERT INTO players (user_id, display_name, first_seen_at, last_seen_at) VALUES (1, 'p1', ?, ?)"
        " ON CONFLICT DO NOTHING",
        (T0, T0),
    )
    found = await db.fetchval(
        "INSERT INTO matches (game, status, challenger_id, created_at) VALUES ('wizards-cup', 'active', 1, ?)"
        " RETURNING id",
        (T0,),
    )
    return int(found)


def move(match_id: int, version: int, notices: int = 1) -> Batch:
    batch = Batch().add(GUARD, (match_id, version), expect_rows=1)
    batch.add_many(ACTIONS, [(match_id, version, 0, '{"a": 1}', 0, T0)])
    for n in range(notices):
        batch.add(NOTICE, (match_id, f"k{version}.{n}", "{}", T0))
    return batch


async def test_a_batch_alone_calls_its_shapes_function_by_name(pg_target: DbTarget) -> None:
    db = await pg_target.open()
    try:
        match_id = await match(db)
        requests = Requests(db)
        for version in range(4):  # warm: each shape's function made, its call prepared
            requests.watch()
            await db.write(move(match_id, version, notices=1 + version % 2))
        names = set(db._statements._functions.values())  # type: ignore[attr-defined]
        assert len(names) == 2  # one notice, a run of several
        for name in names:
            assert any(f"SELECT {name}($1::jsonb)".encode() in sent for sent in requests.sent)
        assert not any(b"wr_call_batch" in sent for sent in requests.sent)
        requests.watch()
        before = requests.count
        ids = await db.write(move(match_id, 4, notices=2))
        assert requests.count == before + 1
        stored = {r[1]: r[0] for r in await db.fetchall("SELECT id, kind FROM outbox WHERE match_id = ?", (match_id,))}
        assert ids == [None, None, stored["k4.0"], stored["k4.1"]]
        # its guard: nothing of a stale batch is written
        before = await db.fetchval("SELECT COUNT(*) FROM outbox")
        with pytest.raises(StaleWrite):
            await db.write(move(match_id, 2))
        assert await db.fetchval("SELECT COUNT(*) FROM outbox") == before
        # a finishing move (the match row updated twice) is one call too, once its shape is known
        for target, version in ((match_id, 5), (await match(db), 0)):
            finish = move(target, version).add(FINISH, ("finished", "{}", "done", T0, target), expect_rows=1)
            requests.watch()
            before = requests.count
            await db.write(finish)
        assert requests.count == before + 1
        row = await db.fetchone("SELECT version, status, finish_seq FROM matches WHERE id = ?", (match_id,))
        assert row is not None and tuple(row) == (6, "finished", 1)
    finally:
        await db.close()


def test_the_call_names_the_function() -> None:
    name = function_name([("UPDATE t SET a = $1", ("int8",), 0, 1, False)])
    assert call_of(name) == f"SELECT {name}($1::jsonb)"


async def test_one_connection_is_kept_for_the_next_statement(pg_target: DbTarget) -> None:
    """Writes and reads one after another take the same connection, without a turn through the
    pool; a write that fails on a batch's own error keeps it too."""
    db = await pg_target.open()
    try:
        match_id = await match(db)
        await db.write(move(match_id, 0))
        kept = db._home  # type: ignore[attr-defined]
        assert kept is not None and db._home_free  # type: ignore[attr-defined]
        for version in range(1, 4):
            await db.write(move(match_id, version))
            assert db._home is kept and db._home_free  # type: ignore[attr-defined]
            assert await db.fetchval("SELECT pg_backend_pid()") == kept.get_server_pid()
        assert await db.fetchval("SELECT COUNT(*) FROM actions") == 4
        with pytest.raises(StaleWrite):
            await db.write(move(match_id, 0))
        assert db._home is kept and db._home_free  # type: ignore[attr-defined]
        # many at once: several connections commit, and one stays kept after
        await asyncio.gather(*(db.write(Batch().add(NOTICE, (match_id, f"n{i}", "{}", T0))) for i in range(20)))
        assert db._home is not None and db._home_free  # type: ignore[attr-defined]
        assert await db.fetchval("SELECT COUNT(*) FROM outbox WHERE kind LIKE 'n%'") == 20
    finally:
        await db.close()


async def test_a_kept_connection_never_keeps_a_task_waiting(pg_target: DbTarget) -> None:
    """A pool of two, both in transactions, a third task waiting for a connection: the first to end
    goes to the waiting task, not to the idle cache (else the second transaction, which waits for
    the third task, would wait forever); a pool of one keeps none."""
    db = await Database.open(pg_target.url, pool_size=2)
    try:
        match_id = await match(db)
        await db.write(move(match_id, 0))
        assert db._home_free  # type: ignore[attr-defined]
        first_in, second_in = asyncio.Event(), asyncio.Event()
        reading: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        async def first() -> None:
            async with db.transaction():
                await db.fetchval("SELECT 1")
                first_in.set()
                await second_in.wait()

        async def read() -> int:
            return int(await db.fetchval("SELECT COUNT(*) FROM actions"))

        async def second() -> int:
            async with db.transaction():
                await db.fetchval("SELECT 1")
                second_in.set()
                return await reading  # waits for the read, which waits for a connection

        one = asyncio.create_task(first())
        await first_in.wait()
        two = asyncio.create_task(second())
        await second_in.wait()
        reader = asyncio.create_task(read())
        reader.add_done_callback(lambda t: reading.set_result(t.result()))
        assert await asyncio.wait_for(two, 10) == 1
        await one
        await db.write(move(match_id, 1))
        assert db._home_free  # type: ignore[attr-defined]
    finally:
        await db.close()
    single = await Database.open(pg_target.url, pool_size=1)
    try:
        await single.write(move(match_id, 2))
        assert single._home is None  # type: ignore[attr-defined]
        assert await single.fetchval("SELECT version FROM matches WHERE id = ?", (match_id,)) == 3
    finally:
        await single.close()


async def test_closing_with_a_kept_connection_does_not_wait(
    pg_target: DbTarget, caplog: pytest.LogCaptureFixture
) -> None:
    db = await pg_target.open()
    match_id = await match(db)
    await db.write(move(match_id, 0))
    assert db._home_free  # type: ignore[attr-defined]
    with caplog.at_level(logging.WARNING, logger="db.postgres"):
        await db.close()  # the pool's close waits for every connection taken: the home one is given back first
    assert not [r for r in caplog.records if "still running" in r.getMessage()]


async def test_a_kept_connection_the_server_ended_is_replaced(pg_target: DbTarget) -> None:
    db = await pg_target.open()
    try:
        match_id = await match(db)
        await db.write(move(match_id, 0))
        kept = db._home  # type: ignore[attr-defined]
        pid = kept.get_server_pid()
        admin = await asyncpg.connect(pg_target.url)
        try:
            assert await admin.fetchval("SELECT pg_terminate_backend($1)", pid)
        finally:
            await admin.close()
        for _ in range(500):  # the client notices the connection closed
            if not _open(kept):
                break
            await asyncio.sleep(0.01)
        await db.write(move(match_id, 1))
        assert await db.fetchval("SELECT version FROM matches WHERE id = ?", (match_id,)) == 2
        assert db._home.get_server_pid() != pid  # type: ignore[attr-defined]
    finally:
        await db.close()
