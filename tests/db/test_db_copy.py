"""``python -m bot db copy`` (bot/dbcopy.py): a populated SQLite database (matches of every game
played through the match service, a live one, challenges, ratings, server settings, match messages,
a practice match) copied to PostgreSQL and back to a new SQLite file with every row identical and
every replay verified; PostgreSQL's identity sequences past the copied ids; refusals (a non-empty
target, unknown schemes, an unreachable server, another schema version, the same database) that
change nothing; a failure mid-copy (a chunk that fails, a replay that differs, a value PostgreSQL
refuses) that leaves the target empty; and the command line as a subprocess."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import random
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from bot import dbcopy
from bot.matches import MatchService, store
from bot.messages import MessagesService
from bot.servers import ServersService
from bot.settings import Settings
from db import Database, MatchStatus, load_migrations
from tests import pg_server
from tests.conftest import DbTarget
from tests.fakes import Clock

ROOT = Path(__file__).resolve().parents[2]
T0 = 1_750_000_000
# Discord snowflakes are 64-bit: ids past 2**53 check the BIGINT columns (and no float on the way)
GUILD = 912_345_678_901_234_567
CHANNEL = 912_345_678_901_234_568
ANN = (400_000_000_000_000_001, "Ann")
BOB = (400_000_000_000_000_002, "Bob")
CY = (400_000_000_000_000_003, "Cy")
DEE = (5, "Dee")
COPY_TIMEOUT = 120


# -- the populated source ----------------------------------------------------------------------


async def play_randomly(service: MatchService, match_id: int, rng: random.Random, moves: int = 100_000) -> None:
    """Random legal moves through the service (up to ``moves``, or to the end)."""
    done = 0
    while done < moves and (record := await service.get(match_id)).status is MatchStatus.ACTIVE:
        for seat, s in enumerate(record.seats):
            if s.ai is not None:
                continue
            prompt = await service.prompt(match_id, seat)
            if prompt.awaited:
                legal = prompt.legal_actions
                await service.submit(match_id, s.user_id, legal[rng.randrange(len(legal))], seat_step=None)
                done += 1
                break
        else:
            await service.computers_settle()
    await service.settle()


async def populate(path: Path) -> dict[str, Any]:
    """Fill an SQLite file through the bot's services; returns what the tests check against."""
    clock = Clock(T0)
    db = await Database.open(path, clock=clock)
    seeds = iter(range(9000, 100_000))
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    service = MatchService(
        db, clock=clock, seed_factory=lambda: next(seeds), ai_executor=pool, ai_pace_seconds=0.0, ai_think_seconds=2.0
    )
    settings = Settings(discord_token="t", move_timeout_seconds=1800, render_images=False)
    servers = ServersService(db, settings)
    messages = MessagesService(db)
    rng = random.Random(5)
    finished: list[int] = []
    snapshot_every = store.SNAPSHOT_EVERY
    store.SNAPSHOT_EVERY = 4  # live matches get snapshots (BLOB / BYTEA) after a few moves
    try:
        games: list[tuple[str, Sequence[tuple[int, str]]]] = [
            ("wizards-cup", (ANN, BOB)),
            ("firewall", (BOB, CY)),
            ("magic-duel", (ANN, BOB, CY)),
            ("arena", (CY, ANN)),
            ("wizards-cup", (BOB, ANN)),
            ("firewall", (ANN, DEE)),
        ]
        for game, players in games:
            clock.now += 600
            record = await service.create_challenge(game, None, GUILD, CHANNEL, players[0], list(players[1:]))
            for uid, _ in players[1:]:
                await service.accept(record.id, uid)
            await messages.set_thread(record.id, CHANNEL + record.id, clock.now)
            await messages.set_board(record.id, CHANNEL + record.id, 7_000_000_000_000_000_000 + record.id, clock.now)
            await play_randomly(service, record.id, rng)
            assert (await service.get(record.id)).status is MatchStatus.FINISHED
            finished.append(record.id)
        # a live match (with a prompt message), a pending challenge, a declined one, a forfeit
        clock.now += 600
        live = await service.create_challenge("arena", None, GUILD, CHANNEL, ANN, [BOB])
        await service.accept(live.id, BOB[0])
        await play_randomly(service, live.id, rng, moves=7)
        await messages.set_prompt(live.id, 0, 55, 8_000_000_000_000_000_001, clock.now)
        pending = await service.create_challenge("firewall", {"variant": "full_hand"}, GUILD, CHANNEL, CY, [DEE])
        declined = await service.create_challenge("wizards-cup", None, None, 77, DEE, [ANN])
        await service.decline(declined.id, ANN[0])
        forfeited = await service.create_challenge("firewall", None, GUILD, CHANNEL, DEE, [CY])
        await service.accept(forfeited.id, CY[0])
        await play_randomly(service, forfeited.id, rng, moves=2)
        await service.forfeit(forfeited.id, DEE[0])
        await service.settle()
        # a practice match against the computer: recorded, never rated
        practice = await service.practice("wizards-cup", None, GUILD, CHANNEL, BOB, "easy")
        assert (await service.start_if_ready(practice.id)).started
        await play_randomly(service, practice.id, rng)
        await service.computers_settle()
        await servers.update(
            GUILD, ANN[0], turn_time_seconds=7200, pictures=False, leaderboard_min_games=2, ping_after_seconds=0
        )
        await servers.update(GUILD + 1, BOB[0], channel_id=CHANNEL + 5, threads=False, ping_after_seconds=300)
        ids = {
            "finished": finished,
            "live": live.id,
            "pending": pending.id,
            "declined": declined.id,
            "forfeited": forfeited.id,
            "practice": practice.id,
        }
    finally:
        store.SNAPSHOT_EVERY = snapshot_every
        await service.close()
        pool.shutdown(wait=True)
        await db.close()
    return ids


@pytest.fixture(scope="module")
def populated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """One populated SQLite file for the module (tests copy it before they touch it)."""
    path = tmp_path_factory.mktemp("source") / "source.sqlite3"
    ids = asyncio.run(populate(path))
    return path, ids


@pytest.fixture
def source(populated: tuple[Path, dict[str, Any]], tmp_path: Path) -> Path:
    """This test's own copy of the populated file."""
    path = tmp_path / "source.sqlite3"
    shutil.copy(populated[0], path)
    return path


# -- reading every table through connections of the tests' own ---------------------------------


def tables_of(path: Path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' ORDER BY name"
        ).fetchall()
    finally:
        conn.close()
    return [str(r[0]) for r in rows if r[0] != "schema_version"]


def _value(value: Any) -> Any:
    return bytes(value) if isinstance(value, memoryview | bytearray) else value


def rows_of(where: str | Path, table: str, *, postgres: bool = False) -> list[tuple[Any, ...]]:
    """Every row of ``table`` (its columns in SQLite's order), sorted, read from outside."""
    columns = columns_of(table)
    sql = f"SELECT {', '.join(columns)} FROM {table}"
    if postgres:
        rows = pg_server.query(str(where), sql)
    else:
        conn = sqlite3.connect(where)
        try:
            rows = [tuple(r) for r in conn.execute(sql).fetchall()]
        finally:
            conn.close()
    return sorted((tuple(_value(v) for v in row) for row in rows), key=repr)


_COLUMNS: dict[str, list[str]] = {}


def columns_of(table: str) -> list[str]:
    if table not in _COLUMNS:
        conn = sqlite3.connect(":memory:")
        try:
            for migration in load_migrations():
                conn.executescript(migration.sql)
            _COLUMNS.update(
                {
                    t: [f'"{r[1]}"' for r in conn.execute(f"PRAGMA table_info({t})")]
                    for (t,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
                }
            )
        finally:
            conn.close()
    return _COLUMNS[table]


def everything(where: str | Path, tables: Sequence[str], *, postgres: bool = False) -> dict[str, list[tuple[Any, ...]]]:
    return {t: rows_of(where, t, postgres=postgres) for t in tables}


def ping_afters(rows: dict[str, list[tuple[Any, ...]]]) -> list[tuple[Any, ...]]:
    """(guild_id, ping_after_seconds) of every server_settings row of :func:`everything`'s result."""
    columns = columns_of("server_settings")
    at = columns.index('"guild_id"'), columns.index('"ping_after_seconds"')
    return sorted((row[at[0]], row[at[1]]) for row in rows["server_settings"])


def row_count(target: DbTarget, tables: Sequence[str]) -> int:
    return sum(int(target.sql(f"SELECT COUNT(*) FROM {t}")[0][0]) for t in tables)


# -- SQLite -> PostgreSQL -> SQLite ------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.postgres
async def test_sqlite_to_postgres_and_back_every_row_identical(
    source: Path, populated: tuple[Path, dict[str, Any]], pg_target: DbTarget, tmp_path: Path
) -> None:
    ids = populated[1]
    tables = tables_of(source)
    assert {"players", "matches", "seats", "actions", "ratings", "rating_changes", "rated_matches"} <= set(tables)
    assert {"server_settings", "match_messages", "snapshots"} <= set(tables)
    original = everything(source, tables)
    for table in (
        "players",
        "matches",
        "seats",
        "actions",
        "ratings",
        "rating_changes",
        "server_settings",
        "snapshots",
    ):
        assert original[table], f"the populated source has no {table}"
    assert any(row[columns_of("matches").index('"practice"')] == 1 for row in original["matches"])
    assert ping_afters(original) == [(GUILD, 0), (GUILD + 1, 300)]  # the /settings ping_after column too

    # small chunks: every table of more than a few rows is read in pages (keyset paging on
    # composite and text keys too, e.g. ratings' (scope, game, user_id))
    report = await dbcopy.copy_database(str(source), pg_target.url, chunk=7)
    assert everything(pg_target.url, tables, postgres=True) == original
    assert {t.name: t.source_rows for t in report.tables} == {t: len(rows) for t, rows in original.items()}
    assert all(t.identical and t.source_rows == t.target_rows for t in report.tables)
    started = len(ids["finished"]) + 3  # the live, the forfeited and the practice match
    assert report.replays_checked == started and not report.replays_refused
    assert [t.name for t in report.tables].index("players") < [t.name for t in report.tables].index("matches")
    assert "***" not in report.target or "@" in report.target

    back = tmp_path / "back" / "copy.sqlite3"
    again = await dbcopy.copy_database(pg_target.url, f"sqlite:///{back}", chunk=5)
    assert everything(back, tables) == original
    assert again.replays_checked == started
    assert [(t.name, t.target_rows) for t in again.tables] == [(t.name, t.target_rows) for t in report.tables]
    assert sqlite3.connect(back).execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert sqlite3.connect(back).execute("PRAGMA foreign_key_check").fetchall() == []

    # the copies work as the bot's database: new ids after the copied ones, the log still append-only
    for url in (pg_target.url, str(back)):
        db = await Database.open(url, clock=Clock(T0 + 10**6))
        try:
            top = await db.fetchval("SELECT MAX(id) FROM matches")
            service = MatchService(db, clock=Clock(T0 + 10**6), seed_factory=lambda: 3)
            record = await service.create_challenge("wizards-cup", None, GUILD, CHANNEL, ANN, [BOB])
            assert record.id == top + 1
            await service.accept(record.id, BOB[0])
            await play_randomly(service, record.id, random.Random(2), moves=3)
            action_ids = [r[0] for r in await db.fetchall("SELECT id FROM actions WHERE match_id = ?", (record.id,))]
            assert action_ids and min(action_ids) > max(r[0] for r in original["actions"])
            with pytest.raises(Exception, match="append-only"):
                await db.execute("DELETE FROM actions WHERE match_id = ?", (ids["finished"][0],))
            await service.close()
        finally:
            await db.close()


@pytest.mark.slow
@pytest.mark.postgres
async def test_the_command_line_copies_to_postgres(source: Path, pg_target: DbTarget) -> None:
    out = run_cli("copy", "--from", f"sqlite:///{source}", "--to", pg_target.url)
    assert out.returncode == 0, out.stderr
    tables = tables_of(source)
    assert everything(pg_target.url, tables, postgres=True) == everything(source, tables)
    for table in tables:
        assert any(line.split()[:1] == [table] for line in out.stdout.splitlines()), table
    # once more onto the same target: refused, in one line, nothing changed
    before = everything(pg_target.url, tables, postgres=True)
    again = run_cli("copy", "--from", str(source), "--to", pg_target.url, "--quiet")
    assert again.returncode == 1 and again.stdout == ""
    assert again.stderr.strip().splitlines() == [
        "db copy: the target is not empty (the table actions has rows): db copy only fills a new, empty database"
    ]
    assert everything(pg_target.url, tables, postgres=True) == before


# -- refusals ----------------------------------------------------------------------------------


@pytest.mark.slow
async def test_a_non_empty_target_is_refused_and_left_as_it_was(source: Path, target: DbTarget) -> None:
    db = await target.open(clock=Clock(T0))
    await db.players.upsert(DEE[0], "Dee already here")
    await db.close()
    tables = tables_of(source)
    before = [target.sql(f"SELECT COUNT(*) FROM {t}")[0][0] for t in tables]
    with pytest.raises(dbcopy.CopyError, match=r"the target is not empty \(the table players has rows\)"):
        await dbcopy.copy_database(str(source), target.url)
    assert [target.sql(f"SELECT COUNT(*) FROM {t}")[0][0] for t in tables] == before
    assert target.sql("SELECT user_id, display_name FROM players") == [(DEE[0], "Dee already here")]


async def test_a_non_empty_target_is_refused_before_it_is_migrated(source: Path, tmp_path: Path) -> None:
    older = tmp_path / "older.sqlite3"  # a bot database of an older version, with a row
    db = await Database.open(older, migrations=load_migrations()[:4], clock=Clock(T0))
    await db.players.upsert(DEE[0], "Dee")
    await db.close()
    foreign = tmp_path / "foreign.sqlite3"  # not the bot's at all
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE notes (body TEXT)")
    conn.execute("INSERT INTO notes VALUES ('keep me')")
    conn.commit()
    conn.close()

    def schema(path: Path) -> list[tuple[Any, ...]]:
        conn = sqlite3.connect(path)
        try:
            return conn.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall()
        finally:
            conn.close()

    for path, table in ((older, "players"), (foreign, "notes")):
        before = schema(path)
        with pytest.raises(dbcopy.CopyError, match=rf"the target is not empty \(the table {table} has rows\)"):
            await dbcopy.copy_database(str(source), str(path))
        assert schema(path) == before  # not migrated, no table added
    assert rows_of(older, "players") == [(DEE[0], "Dee", T0, T0)]


async def test_unknown_schemes_are_refused_before_anything_is_opened(source: Path, tmp_path: Path) -> None:
    with pytest.raises(dbcopy.CopyError, match="unknown scheme 'mysql'"):
        await dbcopy.copy_database(str(source), "mysql://u:p@host/db")
    with pytest.raises(dbcopy.CopyError, match="unknown scheme 'redis'"):
        await dbcopy.copy_database("redis://localhost", str(tmp_path / "new.sqlite3"))
    assert not (tmp_path / "new.sqlite3").exists()


async def test_an_unreachable_server_is_one_line_without_the_password(source: Path) -> None:
    url = "postgresql://referee:s3cret@127.0.0.1:1/referee"
    with pytest.raises(dbcopy.CopyError) as caught:
        await dbcopy.copy_database(str(source), url)
    message = str(caught.value)
    assert message.startswith(
        "cannot open the target: cannot reach the PostgreSQL server at postgresql://referee:***@127.0.0.1:1/referee"
    )
    assert "s3cret" not in message and "\n" not in message


async def test_other_schema_versions_and_odd_sources_are_refused(source: Path, tmp_path: Path) -> None:
    newest = load_migrations()[-1].version
    target = tmp_path / "target.sqlite3"
    old = tmp_path / "old.sqlite3"
    db = await Database.open(old, migrations=load_migrations()[:-1])
    await db.close()
    with pytest.raises(
        dbcopy.CopyError, match=rf"the source is at schema version \d+, older than this code's \({newest}\)"
    ):
        await dbcopy.copy_database(str(old), str(target))
    assert not target.exists()  # refused before the target was opened

    newer = tmp_path / "newer.sqlite3"
    shutil.copy(source, newer)
    conn = sqlite3.connect(newer)
    conn.execute("INSERT INTO schema_version (version, name, applied_at) VALUES (9999, '9999_future', 0)")
    conn.commit()
    conn.close()
    with pytest.raises(dbcopy.CopyError, match=rf"schema version 9999, newer than this code's \({newest}\)"):
        await dbcopy.copy_database(str(newer), str(target))

    with pytest.raises(dbcopy.CopyError, match="does not exist"):
        await dbcopy.copy_database(str(tmp_path / "missing.sqlite3"), str(target))
    assert not (tmp_path / "missing.sqlite3").exists()
    with pytest.raises(dbcopy.CopyError, match="the same database"):
        await dbcopy.copy_database(str(source), f"sqlite:///{source}")
    assert not target.exists()


@pytest.mark.slow
async def test_a_source_the_bot_still_writes_to_is_refused(source: Path, tmp_path: Path) -> None:
    bot = sqlite3.connect(source, isolation_level=None)  # another process holds the write lock
    bot.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(
            dbcopy.CopyError, match=r"is in use by another process \(database is locked\): stop the bot"
        ):
            await dbcopy.copy_database(str(source), str(tmp_path / "copy.sqlite3"))
    finally:
        bot.execute("ROLLBACK")
        bot.close()
    assert row_count(DbTarget("sqlite", str(tmp_path / "copy.sqlite3")), tables_of(source)) == 0


# -- failures mid-copy -------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("stage", ["insert", "replay"])
async def test_a_failure_mid_copy_leaves_the_target_empty(
    source: Path, target: DbTarget, stage: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    tables = tables_of(source)
    if stage == "insert":  # the third table's rows fail to arrive (players and the next made it)
        real = dbcopy.insert_rows
        done: list[str] = []

        async def failing(db: Database, table: dbcopy.Table, insert: str, rows: Any) -> None:
            if table.name not in done:
                done.append(table.name)
            if len(done) == 3:
                raise OSError("disk on fire")
            await real(db, table, insert, rows)

        monkeypatch.setattr(dbcopy, "insert_rows", failing)
        expected = "disk on fire"
    else:  # everything copied, then one match replays to another state on the target
        real_fp = dbcopy.replay_fingerprint
        calls = 0

        async def differing(db: Database, match_id: int) -> str:
            nonlocal calls
            calls += 1
            got = await real_fp(db, match_id)
            return got + ("x" if calls == 6 else "")

        monkeypatch.setattr(dbcopy, "replay_fingerprint", differing)
        expected = r"match #\d+ replays to another state on the target than on the source"
    with pytest.raises((dbcopy.CopyError, OSError), match=expected):
        await dbcopy.copy_database(str(source), target.url)
    assert row_count(target, tables) == 0
    assert target.sql("SELECT COUNT(*) FROM schema_version")[0][0] == len(load_migrations())  # migrated, empty

    monkeypatch.undo()  # the empty target takes the copy afterwards (in small pages this time)
    report = await dbcopy.copy_database(str(source), target.url, chunk=3)
    assert row_count(target, tables) == sum(t.target_rows for t in report.tables) > 0


@pytest.mark.slow
@pytest.mark.postgres
async def test_a_value_postgresql_refuses_rolls_the_copy_back(source: Path, pg_target: DbTarget) -> None:
    conn = sqlite3.connect(source)  # SQLite keeps a NUL character in TEXT; PostgreSQL cannot
    conn.execute(
        "UPDATE seats SET display_name = display_name || char(0) WHERE match_id = (SELECT MAX(id) FROM matches)"
    )
    assert conn.total_changes == 2  # both seats of the last match
    conn.commit()
    conn.close()
    out = run_cli("copy", "--from", str(source), "--to", pg_target.url, "--quiet")
    assert out.returncode == 1 and out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert lines == [
        "db copy: copying the table seats failed, nothing was committed to the target:"
        ' CharacterNotInRepertoireError: invalid byte sequence for encoding "UTF8": 0x00'
    ]
    assert row_count(pg_target, tables_of(source)) == 0


# -- the command line --------------------------------------------------------------------------


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_URL", "DATABASE_PATH")}
    return subprocess.run(
        [sys.executable, "-m", "bot", "db", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=COPY_TIMEOUT,
        check=False,
    )


@pytest.mark.slow
def test_the_command_line_copies_sqlite_to_sqlite_and_refuses_in_one_line(source: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy.sqlite3"
    out = run_cli("copy", "--from", str(source), "--to", f"sqlite:///{copy}")
    assert out.returncode == 0, out.stderr
    tables = tables_of(source)
    copied = everything(copy, tables)
    assert copied == everything(source, tables)
    assert ping_afters(copied) == [(GUILD, 0), (GUILD + 1, 300)]  # a server's settings, ping_after included
    lines = out.stdout.splitlines()
    assert lines[0] == f"copied {source} -> {copy} (schema version {load_migrations()[-1].version})"
    counts = {line.split()[0]: line.split()[1:] for line in lines[2:] if line.split() and line.split()[0] in tables}
    assert set(counts) == set(tables)
    for table in tables:
        n = str(len(rows_of(source, table)))
        assert counts[table] == [n, n], table
    assert lines[-1].startswith("verified: ") and "match logs replay to the same state" in lines[-1]
    assert any(line.startswith("copied players: ") for line in out.stderr.splitlines())  # progress

    for args, message in [
        (("copy", "--from", str(source), "--to", str(copy)), "db copy: the target is not empty"),
        (("copy", "--from", "ftp://x/y", "--to", str(copy)), "db copy: DATABASE_URL has the unknown scheme 'ftp'"),
        (("copy", "--from", str(tmp_path / "nope.sqlite3"), "--to", str(copy)), "db copy: the source SQLite file"),
    ]:
        before = everything(copy, tables)
        refused = run_cli(*args)
        assert refused.returncode == 1, refused
        assert len(refused.stderr.strip().splitlines()) == 1 and refused.stderr.startswith(message), refused.stderr
        assert everything(copy, tables) == before
    usage = run_cli("copy", "--from", str(source))
    assert usage.returncode == 2 and "--to" in usage.stderr


def test_python_m_bot_without_arguments_still_runs_the_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.__main__ as entry

    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setattr(entry, "load_settings", lambda stderr: Settings(_env_file=None, discord_token=None))
    assert entry.main([]) == entry.EXIT_CONFIG  # the bot's path: no token, exit 2
    seen: list[Sequence[str]] = []
    monkeypatch.setattr(dbcopy, "cli", lambda argv: seen.append(argv) or 0)
    assert entry.main(["db", "copy", "--from", "a", "--to", "b"]) == 0
    assert seen == [["copy", "--from", "a", "--to", "b"]]
