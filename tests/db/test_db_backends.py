"""The two storage backends: DATABASE_URL parsing and dispatch, the PostgreSQL dialect translation,
the PostgreSQL editions of the migrations (same schema as SQLite, safe to run twice and from two
processes at once), 64-bit Discord ids, rows and errors that look the same on both, and the test
server's own failure message."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from db import (
    ActionIndexConflict,
    Batch,
    Database,
    DatabaseUnavailable,
    IntegrityError,
    MatchStatus,
    NewAction,
    UnknownDatabaseURL,
    load_migrations,
    parse_database_url,
    redact_url,
)
from db.database import SqliteDatabase
from db.dialect import inserted_table, to_postgres
from tests import pg_server
from tests.conftest import DbTarget
from tests.fakes import Clock

SNOWFLAKE = 1_234_567_890_123_456_789  # a Discord id: more than 32 bits
BIGGEST = 2**63 - 1

# -- DATABASE_URL ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("wizard_referee.sqlite3", ("sqlite", "wizard_referee.sqlite3")),
        ("/var/lib/bot/db.sqlite3", ("sqlite", "/var/lib/bot/db.sqlite3")),
        (":memory:", ("sqlite", ":memory:")),
        ("sqlite:///data/bot.sqlite3", ("sqlite", "data/bot.sqlite3")),
        ("sqlite:////abs/bot.sqlite3", ("sqlite", "/abs/bot.sqlite3")),
        ("postgresql://u:p@db:5432/referee", ("postgres", "postgresql://u:p@db:5432/referee")),
        ("postgres://u@/referee?host=/run/pg", ("postgres", "postgres://u@/referee?host=/run/pg")),
        ("PostgreSQL://h/db", ("postgres", "PostgreSQL://h/db")),
    ],
)
def test_database_urls_name_their_backend(url: str, expected: tuple[str, str]) -> None:
    assert parse_database_url(url) == expected


@pytest.mark.parametrize("url", ["mysql://u:secret@h/db", "redis://h", "sqlite:///", "", "postgres:h/db"])
def test_unknown_or_broken_database_urls_are_refused_clearly(url: str) -> None:
    with pytest.raises(UnknownDatabaseURL) as info:
        parse_database_url(url)
    message = str(info.value)
    assert "\n" not in message and "secret" not in message and "DATABASE_URL" in message


def test_passwords_never_show() -> None:
    assert redact_url("postgresql://bot:hunter2@db:5432/x") == "postgresql://bot:***@db:5432/x"
    assert redact_url("postgresql://bot@db/x") == "postgresql://bot@db/x"


async def test_open_dispatches_on_the_scheme(tmp_path: Path) -> None:
    with pytest.raises(UnknownDatabaseURL):
        await Database.open("mongodb://localhost/x")
    db = await Database.open(f"sqlite:///{tmp_path}/a.sqlite3")
    try:
        assert isinstance(db, SqliteDatabase) and db.backend == "sqlite"
        assert (tmp_path / "a.sqlite3").exists()
    finally:
        await db.close()


async def test_an_unreachable_server_is_one_line_without_the_password() -> None:
    with pytest.raises(DatabaseUnavailable) as info:  # refused at once (a hang would end the wait)
        await asyncio.wait_for(Database.open("postgresql://bot:hunter2@127.0.0.1:9/referee"), 120)
    message = str(info.value)
    assert message.startswith("cannot reach the PostgreSQL server at postgresql://bot:***@127.0.0.1:9/referee: ")
    assert "\n" not in message and "hunter2" not in message


@pytest.mark.postgres
async def test_a_refused_login_is_unavailable_too() -> None:
    url = pg_server.server().url().replace("postgres@", "nobody@")
    with pytest.raises(DatabaseUnavailable, match='role "nobody" does not exist'):
        await Database.open(url)


# -- the dialect --------------------------------------------------------------------------------------


def test_placeholders_are_numbered_outside_literals_and_comments() -> None:
    assert to_postgres("SELECT * FROM t WHERE a = ? AND b IN (?, ?)") == (
        "SELECT * FROM t WHERE a = $1 AND b IN ($2, $3)"
    )
    assert to_postgres("SELECT '?', \"q?\", x FROM t -- why?\nWHERE y = ?") == (
        "SELECT '?', \"q?\", x FROM t -- why?\nWHERE y = $1"
    )
    assert to_postgres("SELECT 'it''s ?' WHERE a = ? /* ? */ AND b = ?") == (
        "SELECT 'it''s ?' WHERE a = $1 /* ? */ AND b = $2"
    )


def test_sqlite_only_forms_are_translated() -> None:
    assert to_postgres("INSERT OR IGNORE INTO q (id) SELECT id FROM m WHERE id = ?") == (
        "INSERT INTO q (id) SELECT id FROM m WHERE id = $1 ON CONFLICT DO NOTHING"
    )
    assert to_postgres("SELECT 1 FROM m WHERE channel_id IS ? AND a IS NOT b.c AND d IS NULL AND e IS NOT NULL") == (
        "SELECT 1 FROM m WHERE channel_id IS NOT DISTINCT FROM $1 AND a IS DISTINCT FROM b.c"
        " AND d IS NULL AND e IS NOT NULL"
    )
    assert to_postgres("SELECT * FROM q CROSS JOIN matches m ON m.id = q.match_id") == (
        "SELECT * FROM q JOIN matches m ON m.id = q.match_id"
    )
    assert to_postgres("SELECT * FROM a CROSS JOIN b") == "SELECT * FROM a CROSS JOIN b"  # a real cross join stays


def test_inserts_into_tables_with_generated_ids_return_them() -> None:
    ids = frozenset({"matches", "outbox"})
    assert to_postgres("INSERT INTO outbox (a) VALUES (?)", ids) == "INSERT INTO outbox (a) VALUES ($1) RETURNING id"
    assert to_postgres("INSERT INTO seats (a) VALUES (?)", ids) == "INSERT INTO seats (a) VALUES ($1)"
    assert to_postgres("INSERT INTO matches (a) VALUES (?) RETURNING *", ids).endswith("RETURNING *")
    assert to_postgres("INSERT OR IGNORE INTO outbox (a) VALUES (?)", ids).endswith(
        "ON CONFLICT DO NOTHING RETURNING id"
    )
    assert inserted_table("  insert into Outbox (a) values (1)") == "outbox"
    assert inserted_table("UPDATE outbox SET a = 1") is None


def test_the_translation_is_cached() -> None:
    sql = "SELECT * FROM players WHERE user_id = ? -- cached"
    first = to_postgres(sql)
    hits = to_postgres.cache_info().hits
    assert to_postgres(sql) is first and to_postgres.cache_info().hits == hits + 1


# -- migrations ----------------------------------------------------------------------------------------


def test_every_postgres_edition_belongs_to_a_migration() -> None:
    folder = Path(__file__).resolve().parents[2] / "db" / "migrations"
    names = {p.stem for p in folder.glob("*.sql")}
    editions = {p.stem for p in (folder / "postgres").glob("*.sql")}
    assert editions and editions <= names
    migrations = load_migrations()
    assert {m.name for m in migrations if m.postgres_sql is not None} == editions


def test_a_postgres_edition_without_its_migration_is_refused(tmp_path: Path) -> None:
    from db import MigrationError

    (tmp_path / "0001_a.sql").write_text("SELECT 1;")
    (tmp_path / "postgres").mkdir()
    (tmp_path / "postgres" / "0001_b.sql").write_text("SELECT 1;")
    with pytest.raises(MigrationError, match="0001_b"):
        load_migrations(tmp_path)
    (tmp_path / "postgres" / "0001_b.sql").rename(tmp_path / "postgres" / "0001_a.sql")
    (only,) = load_migrations(tmp_path)
    assert only.sql_for("postgres") == only.sql_for("sqlite") == "SELECT 1;"


async def schema(db: Database) -> dict[str, set[str]]:
    """Table -> columns, plus the index and trigger names."""
    if db.backend == "sqlite":
        tables = [  # SQLite's own tables (sqlite_sequence: AUTOINCREMENT's counters) are not the schema
            r[0]
            for r in await db.fetchall(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        out = {t: {r["name"] for r in await db.fetchall(f"PRAGMA table_info({t})")} for t in tables}
        out["(indexes)"] = {
            r[0] for r in await db.fetchall("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
        }
        out["(triggers)"] = {r[0] for r in await db.fetchall("SELECT name FROM sqlite_master WHERE type = 'trigger'")}
        return out
    out = {}
    for row in await db.fetchall(
        "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()"
    ):
        out.setdefault(row[0], set()).add(row[1])
    indexes = await db.fetchall(
        "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()"
        " AND indexname NOT IN (SELECT conname FROM pg_constraint)"  # (primary keys, UNIQUE constraints)
    )
    out["(indexes)"] = {r[0] for r in indexes}
    triggers = await db.fetchall(
        "SELECT DISTINCT trigger_name FROM information_schema.triggers WHERE trigger_schema = current_schema()"
    )
    out["(triggers)"] = {r[0] for r in triggers}
    return out


@pytest.mark.postgres
async def test_postgres_has_the_schema_sqlite_has(pg_target: DbTarget) -> None:
    target = pg_target
    sqlite_db = await Database.open(":memory:")
    pg = await target.open()
    try:
        assert await schema(pg) == await schema(sqlite_db)
        assert await pg.schema_version() == await sqlite_db.schema_version() == load_migrations()[-1].version
        names = [tuple(r) for r in await pg.fetchall("SELECT version, name FROM schema_version ORDER BY version")]
        assert names == [(m.version, m.name) for m in load_migrations()]
    finally:
        await pg.close()
        await sqlite_db.close()


@pytest.mark.postgres
async def test_postgres_migrations_apply_once_when_run_twice_and_at_the_same_time(pg_target: DbTarget) -> None:
    target = pg_target
    # two processes starting together: their migrations run one after the other, each once
    first, second = await asyncio.gather(target.open(), target.open())
    try:
        rows = target.sql("SELECT version, COUNT(*) FROM schema_version GROUP BY version ORDER BY version")
        assert rows == [(m.version, 1) for m in load_migrations()]
        assert await first.migrate(load_migrations()) == [] and await second.migrate(load_migrations()) == []
    finally:
        await first.close()
        await second.close()
    again = await target.open()
    await again.close()
    assert target.sql("SELECT COUNT(*) FROM schema_version") == [(len(load_migrations()),)]


@pytest.mark.postgres
async def test_a_lost_connection_is_one_error_and_the_next_call_connects_again(pg_target: DbTarget) -> None:
    """The server ends the bot's session (a restart, an operator): the call in flight fails with
    DatabaseUnavailable (never a driver error), the next one connects again; nothing committed is lost."""
    db = await pg_target.open(clock=Clock(1_700_000_000))
    try:
        await db.players.upsert(1, "Ann")
        pid = await db.fetchval("SELECT pg_backend_pid()")
        assert pg_target.sql("SELECT pg_terminate_backend(?)", pid) == [(True,)]
        await asyncio.sleep(0.05)
        try:
            await db.players.get(1)
        except DatabaseUnavailable as exc:
            assert "was lost" in str(exc) and "\n" not in str(exc)
        assert (await db.players.get(1)) is not None
        assert await db.fetchval("SELECT pg_backend_pid()") != pid
        async with db.transaction():
            await db.players.upsert(2, "Bob")
        assert pg_target.sql("SELECT COUNT(*) FROM players") == [(2,)]
    finally:
        await db.close()


@pytest.mark.postgres
async def test_reads_outside_a_transaction_run_side_by_side_on_several_connections(pg_target: DbTarget) -> None:
    db = await Database.open(pg_target.url, pool_size=3)
    try:
        # each read says on the server's clock when it started and ended: they overlap, whatever
        # the machine's speed (one after the other, the last would start after the first ended)
        sql = "SELECT pg_backend_pid(), clock_timestamp() AS a, pg_sleep(0.3)::text, clock_timestamp() AS b"
        rows = await asyncio.gather(*(db.fetchone(sql) for _ in range(3)))
        assert len({r[0] for r in rows if r is not None}) == 3  # three connections at once
        assert max(r[1] for r in rows if r is not None) < min(r[3] for r in rows if r is not None)
        # never more connections than the pool's size: a fourth read waits for a free one
        rows = await asyncio.gather(*(db.fetchval("SELECT pg_backend_pid()") for _ in range(8)))
        assert len(set(rows)) <= 3
    finally:
        await db.close()


@pytest.mark.postgres
async def test_a_transaction_keeps_one_connection_and_its_savepoints_while_other_tasks_read(
    pg_target: DbTarget,
) -> None:
    db = await Database.open(pg_target.url, clock=Clock(1_700_000_000), pool_size=2)
    inside = asyncio.Event()
    outside: list[object] = []

    async def reader() -> None:
        await inside.wait()
        # the transaction is open in another task: this read does not wait for it, runs on
        # another connection and does not see its uncommitted rows
        outside.append(await db.fetchval("SELECT pg_backend_pid()"))
        outside.append(await db.fetchval("SELECT COUNT(*) FROM players"))
        inside.clear()

    async def writer() -> list[object]:
        pids = []
        async with db.transaction():
            pids.append(await db.fetchval("SELECT pg_backend_pid()"))
            await db.players.upsert(1, "Ann")
            inside.set()
            while inside.is_set():
                await asyncio.sleep(0.01)
            pids.append(await db.fetchval("SELECT pg_backend_pid()"))
            with pytest.raises(RuntimeError):
                async with db.transaction():  # a savepoint on the same connection
                    pids.append(await db.fetchval("SELECT pg_backend_pid()"))
                    await db.players.upsert(2, "Bob")
                    raise RuntimeError("roll the savepoint back")
            await db.write(Batch().add("UPDATE players SET display_name = 'Anne' WHERE user_id = ?", (1,)))
            pids.append(await db.fetchval("SELECT pg_backend_pid()"))
            assert db._in_transaction()
        return pids

    try:
        pids, _ = await asyncio.gather(asyncio.wait_for(writer(), 10), asyncio.wait_for(reader(), 10))
        assert len(set(pids)) == 1 and outside[0] not in pids and outside[1] == 0
        assert not db._in_transaction()
        assert pg_target.sql("SELECT user_id, display_name FROM players") == [(1, "Anne")]
    finally:
        await db.close()


@pytest.mark.postgres
async def test_a_read_after_losing_a_race_inside_a_transaction_sees_the_winner(pg_target: DbTarget) -> None:
    """Two tasks insert the same key in their own transactions: the second's unique violation
    rolls back the savepoint around its insert only, and its read afterwards (which key won?), in
    the same transaction, sees what is committed."""
    db = await Database.open(pg_target.url, clock=Clock(1_700_000_000), pool_size=2)
    insert = "INSERT INTO players (user_id, display_name, first_seen_at, last_seen_at) VALUES (7, ?, 0, 0)"
    first_in = asyncio.Event()

    async def first() -> None:
        async with db.transaction():
            await db.execute(insert, ("first",))
            first_in.set()
            await asyncio.sleep(0.2)  # the second's INSERT waits for this commit

    async def second() -> object:
        await first_in.wait()
        with pytest.raises(RuntimeError):
            async with db.transaction():
                with pytest.raises(IntegrityError):
                    async with db.transaction():  # a savepoint: the violation undoes the insert only
                        await db.execute(insert, ("second",))
                seen = await db.fetchval("SELECT display_name FROM players WHERE user_id = 7")
                raise RuntimeError(seen)
        return seen

    try:
        _, seen = await asyncio.wait_for(asyncio.gather(first(), second()), 10)
        assert seen == "first"
        assert pg_target.sql("SELECT display_name FROM players") == [("first",)]
    finally:
        await db.close()


@pytest.mark.postgres
async def test_two_appends_racing_at_one_index_on_two_connections_one_wins(
    pg_target: DbTarget, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both transactions find index 0 free before either inserts: the later INSERT waits for the
    first's commit and breaks the unique key; the loser gets a conflict naming the index the winner
    left (read in its own transaction, after the savepoint around its INSERT rolled back)."""
    db = await Database.open(pg_target.url, clock=Clock(1_700_000_000), pool_size=2)
    try:
        match = await db.matches.create(
            game="toy-guess", options={}, guild_id=10, channel_id=20, seats=[(1, "A"), (2, "B")], expires_at=None
        )
        real_next_index = db.actions.next_index
        both_checked = asyncio.Barrier(2)
        checked: set[object] = set()

        async def next_index_then_wait(match_id: int) -> int:
            value = await real_next_index(match_id)
            if asyncio.current_task() not in checked:  # each task's first check: wait for the other's
                checked.add(asyncio.current_task())
                await both_checked.wait()
            return value

        monkeypatch.setattr(db.actions, "next_index", next_index_then_wait)
        appends = (db.actions.append_actions(match.id, 0, [NewAction(i, {"n": i})]) for i in range(2))
        results = await asyncio.wait_for(asyncio.gather(*appends, return_exceptions=True), 10)
        conflicts = [r for r in results if isinstance(r, ActionIndexConflict)]
        assert len(conflicts) == 1, results
        assert (conflicts[0].start_idx, conflicts[0].next_idx) == (0, 1)
        assert len(checked) == 2
        assert len(await db.actions.for_match(match.id)) == 1
    finally:
        await db.close()


@pytest.mark.postgres
async def test_a_pool_of_one_connection_still_serves_concurrent_tasks(pg_target: DbTarget) -> None:
    db = await Database.open(pg_target.url, clock=Clock(1_700_000_000), pool_size=1)
    try:

        async def one(user_id: int) -> None:
            async with db.transaction():
                await db.players.upsert(user_id, f"P{user_id}")
            assert await db.players.get(user_id) is not None

        await asyncio.wait_for(asyncio.gather(*(one(i) for i in range(1, 9))), 10)
        assert pg_target.sql("SELECT COUNT(*) FROM players") == [(8,)]
        assert len(set(await asyncio.gather(*(db.fetchval("SELECT pg_backend_pid()") for _ in range(4))))) == 1
    finally:
        await db.close()


@pytest.mark.postgres
async def test_close_waits_for_a_transaction_in_flight_on_the_pool(pg_target: DbTarget) -> None:
    db = await Database.open(pg_target.url, clock=Clock(1_700_000_000))
    begun = asyncio.Event()

    async def slow() -> None:
        async with db.transaction():
            await db.players.upsert(1, "Ann")
            begun.set()
            await db.fetchval("SELECT pg_sleep(0.3)")

    task = asyncio.create_task(slow())
    await begun.wait()
    await db.close()
    await task  # it committed before the connections closed
    assert db.closed and pg_target.sql("SELECT COUNT(*) FROM players") == [(1,)]
    with pytest.raises(DatabaseUnavailable):
        await db.fetchval("SELECT 1")


# -- one behaviour on both backends --------------------------------------------------------------------


async def test_64_bit_discord_ids_round_trip(target: DbTarget) -> None:
    db = await target.open(clock=Clock(1_700_000_000))
    try:
        record = await db.matches.create(
            game="toy-guess",
            options={},
            guild_id=SNOWFLAKE + 1,
            channel_id=BIGGEST,
            seats=[(SNOWFLAKE, "Ann"), (BIGGEST - 1, "Bob")],
            expires_at=None,
        )
        await db.matches.set_message_id(record.id, SNOWFLAKE + 2)
        await db.matches.start(record.id, seed=BIGGEST - 7)
        again = await db.matches.require(record.id)
        assert (again.guild_id, again.channel_id, again.message_id, again.seed) == (
            SNOWFLAKE + 1,
            BIGGEST,
            SNOWFLAKE + 2,
            BIGGEST - 7,
        )
        assert again.user_ids == [SNOWFLAKE, BIGGEST - 1] and again.challenger_id == SNOWFLAKE
        assert [m.id for m in await db.matches.for_user(BIGGEST - 1, [MatchStatus.ACTIVE])] == [record.id]
        from db.servers import ServersRepository

        stored = await ServersRepository(db).upsert(SNOWFLAKE, {"channel_id": BIGGEST}, updated_by=SNOWFLAKE + 3)
        assert (stored.guild_id, stored.channel_id, stored.updated_by) == (SNOWFLAKE, BIGGEST, SNOWFLAKE + 3)
        assert await db.fetchval("SELECT user_id FROM players WHERE user_id = ?", (BIGGEST - 1,)) == BIGGEST - 1
    finally:
        await db.close()


async def test_rows_and_errors_look_the_same_on_both(target: DbTarget) -> None:
    db = await target.open(clock=Clock(1_700_000_000))
    try:
        await db.players.upsert(5, "Eve")
        row = await db.fetchone("SELECT user_id, display_name FROM players WHERE user_id = ?", (5,))
        assert row is not None
        assert (row[0], row["display_name"], tuple(row), dict(row)) == (
            5,
            "Eve",
            (5, "Eve"),
            {"user_id": 5, "display_name": "Eve"},
        )
        assert list(row.keys()) == ["user_id", "display_name"] and len(row) == 2
        (one, two) = await db.fetch_many([("SELECT ? + 1 AS n", (1,)), ("SELECT user_id FROM players", ())])
        assert [r["n"] for r in one] == [2] and [r[0] for r in two] == [5]
        with pytest.raises(IntegrityError) as info:
            await db.execute(
                "INSERT INTO players (user_id, display_name, first_seen_at, last_seen_at) VALUES (5, 'x', 0, 0)"
            )
        assert info.value.unique
        with pytest.raises(IntegrityError) as info:
            await db.execute("INSERT INTO seats (match_id, seat, user_id, display_name) VALUES (99, 0, 5, 'x')")
        assert not info.value.unique
        count, new_id = await db.execute(
            "INSERT INTO matches (game, guild_id, challenger_id, created_at) VALUES ('g', NULL, 5, 0)"
        )
        assert count == 1 and isinstance(new_id, int)
        rowids = await db.write(
            Batch()
            .add("INSERT INTO outbox (match_id, kind, payload, created_at) VALUES (?, 'k', '{}', 0)", (new_id,))
            .add("UPDATE matches SET summary = 's' WHERE id = ?", (new_id,), expect_rows=1)
        )
        assert rowids[0] == await db.fetchval("SELECT MAX(id) FROM outbox")
        assert not db._in_transaction()
    finally:
        await db.close()


async def test_finish_numbers_follow_the_commit_order_across_connections(target: DbTarget) -> None:
    """Two connections (two processes) finishing matches at the same time never take the same
    finish_seq (SQLite: one writer at a time; PostgreSQL: the trigger's advisory lock)."""
    first = await target.open(clock=Clock(1_700_000_000))
    second = await target.open(clock=Clock(1_700_000_000))
    try:
        ids = []
        for _ in range(12):
            record = await first.matches.create(
                game="toy-guess", options={}, guild_id=1, channel_id=2, seats=[(1, "A"), (2, "B")], expires_at=None
            )
            await first.matches.start(record.id, seed=1)
            ids.append(record.id)

        async def finish(db: Database, match_id: int) -> None:
            await db.matches.finish(match_id, MatchStatus.FINISHED, outcome={"summary": "x"})

        await asyncio.gather(*(finish(first if i % 2 else second, m) for i, m in enumerate(ids)))
        seqs = sorted(r[0] for r in target.sql("SELECT finish_seq FROM matches WHERE status = 'finished'"))
        assert seqs == list(range(1, len(ids) + 1))
    finally:
        await first.close()
        await second.close()


# -- the test server ------------------------------------------------------------------------------------


def test_without_postgresql_binaries_the_tests_fail_saying_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pg_server, "_server", None)
    monkeypatch.setattr(pg_server, "find_bindir", lambda: None)
    with pytest.raises(pytest.fail.Exception) as info:
        pg_server.server()
    assert "apt install postgresql" in str(info.value) and "PG_BINDIR" in str(info.value)
