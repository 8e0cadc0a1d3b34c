"""The database layer: migrations, transactions, repositories, the append-only action log."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from db import (
    ActionIndexConflict,
    Batch,
    Database,
    IntegrityError,
    MatchStatus,
    MigrationError,
    NewAction,
    StaleWrite,
    UnknownMatch,
    load_migrations,
)
from db.database import Migration, split_statements
from tests.conftest import DbTarget
from tests.fakes import Clock, count_round_trips


@pytest.fixture
async def db(target: DbTarget):
    database = await Database.open(target.memory_url, clock=Clock(1_700_000_000))
    yield database
    await database.close()


async def table_names(db: Database) -> set[str]:
    if db.backend == "postgres":
        sql = "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
    else:
        sql = "SELECT name FROM sqlite_master WHERE type = 'table'"
    return {r[0] for r in await db.fetchall(sql)}


async def new_match(db: Database, players=((1, "Ann"), (2, "Bob"))) -> int:
    record = await db.matches.create(
        game="toy-guess", options={"high": 3}, guild_id=10, channel_id=20, seats=list(players), expires_at=None
    )
    return record.id


# -- migrations ----------------------------------------------------------------------------


async def test_migrations_apply_and_create_the_schema(db: Database) -> None:
    latest = load_migrations()[-1].version
    assert await db.schema_version() == latest
    tables = await table_names(db)
    assert {"schema_version", "players", "matches", "seats", "actions", "outbox", "snapshots"} <= tables
    if db.backend == "sqlite":
        assert await db.fetchval("PRAGMA foreign_keys") == 1


async def test_migrations_are_idempotent_on_reopen(target: DbTarget, tmp_path: Path) -> None:
    path = target.url if target.postgres else tmp_path / "sub" / "bot.sqlite3"
    first = await Database.open(path)
    await new_match(first)
    rows_before = await first.fetchall("SELECT version, name, applied_at FROM schema_version")
    await first.close()

    second = await Database.open(path)
    try:
        assert await second.migrate(load_migrations()) == []
        rows_after = await second.fetchall("SELECT version, name, applied_at FROM schema_version")
        assert [tuple(r) for r in rows_after] == [tuple(r) for r in rows_before]
        assert await second.fetchval("SELECT COUNT(*) FROM matches") == 1
        if not target.postgres:
            assert (await second.fetchval("PRAGMA journal_mode")).lower() == "wal"
            assert await second.fetchval("PRAGMA busy_timeout") == 5000
    finally:
        await second.close()


async def test_a_failing_migration_rolls_back_and_stops(target: DbTarget) -> None:
    migrations = [
        Migration(1, "0001_one", "CREATE TABLE one (x INTEGER); INSERT INTO one VALUES (1);"),
        Migration(2, "0002_broken", "CREATE TABLE two (x INTEGER);\nINSERT INTO missing VALUES (1);"),
    ]
    with pytest.raises(MigrationError, match="0002_broken"):
        await target.open(migrations=migrations)
    assert target.sql("SELECT MAX(version) FROM schema_version") == [(1,)]
    if target.postgres:
        names = {
            r[0]
            for r in target.sql(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
            )
        }
    else:
        names = {r[0] for r in target.sql("SELECT name FROM sqlite_master")}
    assert "one" in names and "two" not in names


def test_migration_files_are_named_and_numbered(tmp_path: Path) -> None:
    (tmp_path / "0001_a.sql").write_text("SELECT 1;")
    (tmp_path / "0002_b.sql").write_text("SELECT 2;")
    (tmp_path / "notes.txt").write_text("ignored")
    assert [m.version for m in load_migrations(tmp_path)] == [1, 2]
    (tmp_path / "3_bad.sql").write_text("SELECT 3;")
    with pytest.raises(MigrationError, match="NNNN_name"):
        load_migrations(tmp_path)
    (tmp_path / "3_bad.sql").unlink()
    (tmp_path / "0002_again.sql").write_text("SELECT 2;")
    with pytest.raises(MigrationError, match="version 2"):
        load_migrations(tmp_path)


def test_split_statements_keeps_triggers_and_comments_whole() -> None:
    script = """
    -- a comment; with a semicolon
    CREATE TABLE t (x INTEGER);  -- trailing; comment
    CREATE TRIGGER t_no_update BEFORE UPDATE ON t
    BEGIN
        SELECT RAISE(ABORT, 'no; really');
    END;
    -- the end
    """
    statements = split_statements(script)
    assert len(statements) == 2
    assert "CREATE TRIGGER" in statements[1] and statements[1].endswith("END;")
    conn = sqlite3.connect(":memory:")
    try:
        for statement in statements:
            conn.execute(statement)
        conn.execute("INSERT INTO t VALUES (1)")
        with pytest.raises(sqlite3.IntegrityError, match="no; really"):
            conn.execute("UPDATE t SET x = 2")
    finally:
        conn.close()
    assert split_statements("CREATE TABLE t (x INTEGER); SELECT 1") == ["CREATE TABLE t (x INTEGER);", "SELECT 1"]


# -- transactions --------------------------------------------------------------------------


async def test_transaction_rolls_back_and_nested_blocks_are_savepoints(db: Database) -> None:
    with pytest.raises(RuntimeError):
        async with db.transaction():
            await db.players.upsert(1, "Ann")
            raise RuntimeError("boom")
    assert await db.players.get(1) is None

    async with db.transaction():
        await db.players.upsert(1, "Ann")
        with pytest.raises(RuntimeError):
            async with db.transaction():
                await db.players.upsert(2, "Bob")
                raise RuntimeError("inner")
        await db.players.upsert(3, "Cy")
    assert await db.players.get(1) is not None
    assert await db.players.get(2) is None
    assert await db.players.get(3) is not None


async def test_a_constraint_violation_in_a_savepoint_leaves_the_transaction_usable(db: Database) -> None:
    insert = "INSERT INTO players (user_id, display_name, first_seen_at, last_seen_at) VALUES (?, ?, 0, 0)"
    async with db.transaction():
        await db.execute(insert, (1, "Ann"))
        with pytest.raises(IntegrityError):
            async with db.transaction():
                await db.execute(insert, (2, "Bob"))
                await db.execute(insert, (1, "Ann again"))
        # the savepoint was rolled back: Bob is gone, and the transaction still reads and writes
        assert await db.fetchval("SELECT COUNT(*) FROM players") == 1
        async with db.transaction(), db.transaction():  # two savepoints deep
            await db.execute(insert, (3, "Cy"))
        assert db._in_transaction()
    assert not db._in_transaction()
    assert [r[0] for r in await db.fetchall("SELECT user_id FROM players ORDER BY user_id")] == [1, 3]


async def test_other_tasks_wait_for_an_open_transaction(db: Database) -> None:
    inside = asyncio.Event()
    release = asyncio.Event()

    async def failing_transaction() -> None:
        async with db.transaction():
            await db.players.upsert(1, "Ann")
            inside.set()
            await release.wait()
            raise RuntimeError("rolled back")

    task = asyncio.create_task(failing_transaction())
    await inside.wait()
    writer = asyncio.create_task(db.players.upsert(2, "Bob"))
    if db.backend == "postgres":
        # a pool: the other task writes on a connection of its own, committed at once, outside
        # the open transaction (the rollback below leaves its row)
        await writer
        assert await db.players.get(2) is not None
    else:  # one connection: the other task waits for the transaction to end
        await asyncio.sleep(0.01)
        assert not writer.done()  # must not slip into the other task's transaction
    release.set()
    with pytest.raises(RuntimeError):
        await task
    await writer
    assert await db.players.get(1) is None
    assert (await db.players.get(2)) is not None


# -- repositories --------------------------------------------------------------------------


async def test_players_upsert_keeps_first_seen(db: Database) -> None:
    await db.players.upsert(1, "Ann", at=100)
    await db.players.upsert(1, "Annie", at=200)
    player = await db.players.get(1)
    assert player is not None
    assert (player.display_name, player.first_seen_at, player.last_seen_at) == ("Annie", 100, 200)


async def test_matches_lifecycle_and_conditional_transitions(db: Database) -> None:
    record = await db.matches.create(
        game="toy-guess",
        options={"high": 3},
        guild_id=10,
        channel_id=20,
        seats=[(1, "Ann"), (2, "Bob"), (3, "Cy")],
        expires_at=1000,
        created_at=100,
    )
    assert record.status is MatchStatus.PENDING
    assert record.challenger_id == 1 and record.options == {"high": 3}
    assert [(s.seat, s.user_id, s.accepted, s.dm_ok) for s in record.seats] == [
        (0, 1, True, None),
        (1, 2, False, None),
        (2, 3, False, None),
    ]
    assert record.seat_of(3) == 2 and record.seat_of(99) is None
    assert await db.matches.due_to_expire(999) == []
    assert await db.matches.due_to_expire(1000) == [record.id]

    assert await db.seats.accept(record.id, 1)
    assert not await db.seats.accept(record.id, 1)
    await db.seats.set_dm_ok(record.id, 1, False)
    await db.matches.set_message_id(record.id, 555)
    assert await db.matches.start(record.id, seed=42, at=150)
    assert not await db.matches.start(record.id, seed=43, at=160)
    started = await db.matches.require(record.id)
    assert (started.status, started.seed, started.started_at, started.expires_at) == (
        MatchStatus.ACTIVE,
        42,
        150,
        None,
    )
    assert started.message_id == 555 and started.seats[1].dm_ok is False
    assert not await db.matches.close_challenge(record.id, MatchStatus.DECLINED)

    assert [m.id for m in await db.matches.for_user(3, [MatchStatus.ACTIVE])] == [record.id]
    assert await db.matches.for_user(4, [MatchStatus.ACTIVE]) == []

    await db.seats.set_deadline(record.id, 0, 500, awaited_since=1)
    assert await db.matches.finish(record.id, MatchStatus.FINISHED, outcome={"summary": "x"}, summary="x", at=300)
    assert not await db.matches.finish(record.id, MatchStatus.ABANDONED, at=301)
    done = await db.matches.require(record.id)
    assert done.status is MatchStatus.FINISHED and done.outcome == {"summary": "x"} and done.finished_at == 300
    assert all(s.deadline_at is None for s in done.seats)
    with pytest.raises(UnknownMatch):
        await db.matches.require(12345)


async def test_status_and_json_are_checked_by_the_schema(db: Database) -> None:
    match_id = await new_match(db)
    with pytest.raises(IntegrityError):
        await db.execute("UPDATE matches SET status = 'bogus' WHERE id = ?", (match_id,))
    with pytest.raises(IntegrityError):
        await db.execute("UPDATE matches SET outcome = 'not json' WHERE id = ?", (match_id,))
    with pytest.raises(IntegrityError):  # a seat's player must exist
        await db.execute(
            "INSERT INTO seats (match_id, seat, user_id, display_name) VALUES (?, 5, 999, 'ghost')", (match_id,)
        )


async def test_deadlines_reminders_and_timeouts(db: Database) -> None:
    match_id = await new_match(db)
    await db.matches.start(match_id, seed=1)
    await db.seats.set_deadline(match_id, 0, 1000, awaited_since=1)
    await db.seats.set_deadline(match_id, 1, 2000, awaited_since=1)
    assert [s.seat for s in await db.seats.due_reminders(now=700, before=300)] == [0]
    assert await db.seats.mark_reminded(match_id, 0, 1000)
    assert not await db.seats.mark_reminded(match_id, 0, 1000)
    assert await db.seats.due_reminders(now=700, before=300) == []
    assert await db.seats.due_reminders(now=1000, before=300) == []  # passed: a time-out, not a reminder
    assert [s.seat for s in await db.seats.due_timeouts(1000)] == [0]
    await db.seats.set_deadline(match_id, 0, 3000, awaited_since=3)  # a fresh deadline re-arms the reminder
    seat = (await db.seats.for_match(match_id))[0]
    assert (seat.deadline_at, seat.awaited_since, seat.reminded) == (3000, 3, False)
    await db.seats.clear_deadline(match_id, 1)
    assert [s.seat for s in await db.seats.due_timeouts(10_000)] == [0]


async def test_append_actions_writes_one_move_atomically(db: Database) -> None:
    match_id = await new_match(db)
    written = await db.actions.append_actions(
        match_id,
        0,
        [NewAction(None, {"type": "secret", "number": 2}), NewAction(0, {"type": "guess", "number": 1}, auto=True)],
        at=123,
    )
    assert [(a.idx, a.seat, a.auto, a.created_at) for a in written] == [(0, None, False, 123), (1, 0, True, 123)]
    stored = await db.actions.for_match(match_id)
    assert [(a.idx, a.seat, a.action, a.auto) for a in stored] == [
        (0, None, {"type": "secret", "number": 2}, False),
        (1, 0, {"type": "guess", "number": 1}, True),
    ]
    assert await db.actions.next_index(match_id) == 2
    assert await db.actions.count_for_seat(match_id, 0) == 1

    # a bad entry in the middle of a move: nothing of the move is written
    with pytest.raises(IntegrityError):
        await db.actions.append_actions(
            match_id, 2, [NewAction(1, {"type": "guess", "number": 3}), NewAction(-1, {"type": "guess"})]
        )
    assert await db.actions.next_index(match_id) == 2
    assert await db.actions.append_actions(match_id, 2, []) == []


async def test_append_actions_refuses_index_conflicts(db: Database) -> None:
    match_id = await new_match(db)
    await db.actions.append_actions(match_id, 0, [NewAction(None, {"n": 0}), NewAction(0, {"n": 1})])
    for start in (0, 1, 3):
        with pytest.raises(ActionIndexConflict) as info:
            await db.actions.append_actions(match_id, start, [NewAction(1, {"n": "x"}), NewAction(None, {"n": "y"})])
        assert (info.value.start_idx, info.value.next_idx) == (start, 2)
    assert [a.action for a in await db.actions.for_match(match_id)] == [{"n": 0}, {"n": 1}]
    with pytest.raises(UnknownMatch):
        await db.actions.append_actions(999, 0, [NewAction(None, {})])


async def test_concurrent_appends_at_the_same_index_one_wins(db: Database) -> None:
    match_id = await new_match(db)
    results = await asyncio.gather(
        *(db.actions.append_actions(match_id, 0, [NewAction(i, {"n": i})]) for i in range(2)),
        return_exceptions=True,
    )
    assert sum(isinstance(r, ActionIndexConflict) for r in results) == 1
    assert len(await db.actions.for_match(match_id)) == 1


async def test_an_append_losing_at_its_insert_is_a_conflict_and_the_transaction_goes_on(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The loser of a race checks the next index before the winner's row is there and fails at
    its INSERT: a conflict naming the index the winner left, and (a savepoint around the INSERT)
    the caller's transaction stays usable, on both backends."""
    match_id = await new_match(db)
    await db.actions.append_actions(match_id, 0, [NewAction(0, {"n": 0})])
    real_next_index = db.actions.next_index
    checks: list[int] = []

    async def next_index_missing_the_winner(match: int) -> int:
        checks.append(match)
        return 0 if len(checks) == 1 else await real_next_index(match)

    monkeypatch.setattr(db.actions, "next_index", next_index_missing_the_winner)
    async with db.transaction():
        with pytest.raises(ActionIndexConflict) as info:
            await db.actions.append_actions(match_id, 0, [NewAction(1, {"n": "late"})])
        assert (info.value.start_idx, info.value.next_idx) == (0, 1)
        await db.execute("UPDATE matches SET summary = 'after the conflict' WHERE id = ?", (match_id,))
    assert len(checks) == 2
    assert await db.fetchval("SELECT summary FROM matches WHERE id = ?", (match_id,)) == "after the conflict"
    assert [a.action for a in await db.actions.for_match(match_id)] == [{"n": 0}]


async def test_actions_are_append_only(db: Database) -> None:
    match_id = await new_match(db)
    await db.actions.append_actions(match_id, 0, [NewAction(0, {"n": 0})])
    with pytest.raises(IntegrityError, match="append-only"):
        await db.execute("UPDATE actions SET action = '{}' WHERE match_id = ?", (match_id,))
    with pytest.raises(IntegrityError, match="append-only"):
        await db.execute("DELETE FROM actions WHERE match_id = ?", (match_id,))


async def test_write_commits_a_batch_in_one_round_trip_or_nothing(db: Database) -> None:
    match_id = await new_match(db)
    trips = count_round_trips(db) if db.backend == "sqlite" else lambda: 1
    batch = Batch()
    batch.add_many(
        "INSERT INTO actions (match_id, idx, seat, action, auto, created_at) VALUES (?, ?, ?, ?, 0, 0)",
        [(match_id, 0, 0, "{}"), (match_id, 1, 1, "{}")],
    )
    batch.add("UPDATE matches SET summary = 'x' WHERE id = ?", (match_id,), expect_rows=1)
    await db.write(batch)
    assert trips() == 1
    assert len(await db.actions.for_match(match_id)) == 2
    # a failing statement (duplicate index) rolls the whole batch back
    bad = Batch().add("UPDATE matches SET summary = 'y' WHERE id = ?", (match_id,))
    bad.add(
        "INSERT INTO actions (match_id, idx, seat, action, auto, created_at) VALUES (?, 1, 0, '{}', 0, 0)", (match_id,)
    )
    with pytest.raises(IntegrityError):
        await db.write(bad)
    assert await db.fetchval("SELECT summary FROM matches WHERE id = ?", (match_id,)) == "x"
    # a guard that no longer holds (no such row) rolls back too
    stale = Batch().add("UPDATE matches SET summary = 'z' WHERE id = ?", (match_id,))
    stale.add("UPDATE matches SET summary = 'z' WHERE id = ?", (match_id + 1,), expect_rows=1)
    with pytest.raises(StaleWrite):
        await db.write(stale)
    assert await db.fetchval("SELECT summary FROM matches WHERE id = ?", (match_id,)) == "x"
    assert not db._in_transaction()


async def test_every_query_is_one_round_trip() -> None:
    db = await Database.open(":memory:", clock=Clock(1_700_000_000))
    match_id = await new_match(db)
    trips = count_round_trips(db)
    await db.fetchall("SELECT * FROM seats WHERE match_id = ?", (match_id,))
    await db.fetchone("SELECT * FROM matches WHERE id = ?", (match_id,))
    await db.execute("UPDATE matches SET summary = NULL WHERE id = ?", (match_id,))
    await db.fetch_many([("SELECT 1", ()), ("SELECT 2", ())])
    assert trips() == 4
    await db.close()


async def test_the_messages_table_is_gone(db: Database) -> None:
    tables = await table_names(db)
    assert "messages" not in tables and {"outbox", "snapshots"} <= tables


async def test_a_second_connection_sees_committed_rows(tmp_path: Path) -> None:
    path = tmp_path / "wal.sqlite3"
    database = await Database.open(path)
    try:
        match_id = await new_match(database)
        await database.actions.append_actions(match_id, 0, [NewAction(None, {"n": 0})])
        other = sqlite3.connect(path)
        try:
            assert other.execute("SELECT COUNT(*) FROM actions WHERE match_id = ?", (match_id,)).fetchone()[0] == 1
        finally:
            other.close()
    finally:
        await database.close()
