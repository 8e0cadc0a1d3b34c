"""A group commit on PostgreSQL is one call of ``wr_write_group`` (migration 0018, db/pg_group.py;
issue 33, part 3; docs/operating.md "PostgreSQL"): one round trip however many statements, each
statement run exactly as it would have been on its own (its parameters' types and values, the ids
it returns, its guard), and a batch that fails rolls back alone."""

from __future__ import annotations

import asyncio
import math
import random

import pytest

from bench.pg_moves import Wire
from db import Batch, Database, IntegrityError, StaleWrite
from db.pg_group import encode, rewrite
from tests.conftest import DbTarget

pytestmark = pytest.mark.postgres
T0 = 1_700_000_000
NAMES = ["it's", "$1 and ? and $2", "naïve ✨", "two\nlines", "", 'a "quoted" name', "back\\slash"]
FLOATS = [0.1 + 0.2, 1 / 3, 1e308, 5e-324, -0.0, 123456789.123456789, -2.5]


def player(uid: int, name: str) -> Batch:
    return Batch().add(
        "INSERT INTO players (user_id, display_name, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?)",
        (uid, name, T0, T0),
    )


async def active_match(db: Database) -> int:
    """A Wizards Cup match row, active, of player 1 (who must exist): its id."""
    found = await db.fetchval(
        "INSERT INTO matches (game, status, challenger_id, created_at) VALUES ('wizards-cup', 'active', 1, ?)"
        " RETURNING id",
        (T0,),
    )
    return int(found)


async def test_values_reach_the_server_as_they_were(pg_target: DbTarget) -> None:
    """Text with quotes, placeholders, unicode and newlines; floats to the last bit; bytes; NULL;
    64-bit ids; a Python bool into an integer column."""
    db = await pg_target.open()
    try:
        batch = Batch()
        for i, name in enumerate(NAMES):
            batch.add(
                "INSERT INTO players (user_id, display_name, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?)",
                (2**62 + i, name, T0, T0 + i),
            )
        await db.write(batch)
        rows = await db.fetchall("SELECT user_id, display_name, last_seen_at FROM players ORDER BY user_id")
        assert [(r[0], r[1], r[2]) for r in rows] == [(2**62 + i, name, T0 + i) for i, name in enumerate(NAMES)]
        match_id = await db.fetchval(
            "INSERT INTO matches (game, status, challenger_id, created_at) VALUES ('wizards-cup', 'active', ?, ?)"
            " RETURNING id",
            (2**62, T0),
        )
        state = bytes(range(256)) * 3
        floats = Batch().add(
            "INSERT INTO snapshots (match_id, upto, engine, state, created_at) VALUES (?, ?, ?, ?, ?)",
            (match_id, 1, "f", state, T0),
        )
        floats.add(
            "INSERT INTO outbox (match_id, kind, payload, created_at, claimed_by, claimed_until)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (match_id, "k", "{}", T0, None, None),
        )
        for i, value in enumerate(FLOATS):
            floats.add(
                "INSERT INTO ratings (scope, game, user_id, mu, sigma, ordinal, display, games, last_match_id,"
                " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (i, "g", 2**62, value, value, 0.5, 1200, True, match_id, T0),
            )
        await db.write(floats)
        assert bytes(await db.fetchval("SELECT state FROM snapshots WHERE match_id = ?", (match_id,))) == state
        stored = await db.fetchall("SELECT scope, mu, games FROM ratings ORDER BY scope")
        assert [r[1] for r in stored] == FLOATS
        assert math.copysign(1.0, stored[4][1]) == -1.0  # -0.0 kept its sign
        assert {r[2] for r in stored} == {1}
        claims = await db.fetchall("SELECT claimed_by, claimed_until FROM outbox WHERE match_id = ?", (match_id,))
        assert [tuple(r) for r in claims] == [(None, None)]
    finally:
        await db.close()


async def test_ids_guards_and_one_round_trip(pg_target: DbTarget) -> None:
    db = await pg_target.open()
    try:
        await db.write(player(1, "host"))
        match_id = await active_match(db)

        def move(version: int) -> Batch:
            batch = Batch().add(
                "UPDATE matches SET version = version + 1 WHERE id = ? AND version = ?",
                (match_id, version),
                expect_rows=1,
            )
            batch.add_many(
                "INSERT INTO actions (match_id, idx, seat, action, auto, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                [(match_id, 2 * version, 0, '{"a": 1}', 0, T0), (match_id, 2 * version + 1, None, '{"b": 2}', 1, T0)],
            )
            batch.add(
                "INSERT INTO outbox (match_id, kind, payload, created_at) VALUES (?, ?, ?, ?)",
                (match_id, "k", "{}", T0),
            )
            batch.add("UPDATE players SET last_seen_at = ? WHERE user_id = ?", (T0 + version, 1))
            return batch

        ids = await db.write(move(0))
        assert ids[0] is None and ids[1] is None and ids[3] is None
        assert ids[2] == await db.fetchval("SELECT MAX(id) FROM outbox")
        # warm: every statement is known, and the call prepared on each connection
        for version in range(1, 8):
            await db.write(move(version))
        requests = Wire(db)  # the benchmark's counter of requests on the wire
        requests.watch()
        await db.write(move(8))
        assert requests.count == 1  # five statements, one guard, one commit: one round trip
        # a guard that finds the match moved on: StaleWrite, and nothing of the batch written
        before = await db.fetchval("SELECT COUNT(*) FROM actions")
        with pytest.raises(StaleWrite):
            await db.write(move(3))
        assert await db.fetchval("SELECT COUNT(*) FROM actions") == before
        assert await db.fetchval("SELECT version FROM matches WHERE id = ?", (match_id,)) == 9
    finally:
        await db.close()


async def test_a_batch_that_fails_in_a_group_rolls_back_alone(pg_target: DbTarget) -> None:
    db = await pg_target.open()
    try:
        await db.write(player(7, "seven"))
        await db.fetchval("SELECT 1")
        batches = [player(1, "a"), player(7, "again"), player(2, "b"), player(3, "c").add("SELECT 1/0")]
        results = await asyncio.gather(*(db.write(b) for b in batches), return_exceptions=True)
        assert isinstance(results[1], IntegrityError) and results[1].unique
        assert not isinstance(results[0], BaseException) and not isinstance(results[2], BaseException)
        assert isinstance(results[3], Exception) and "division by zero" in str(results[3])
        users = {r[0] for r in await db.fetchall("SELECT user_id FROM players")}
        assert users == {7, 1, 2}
    finally:
        await db.close()


def test_the_rewrite_reads_each_parameter_as_its_type() -> None:
    sql = "UPDATE t SET a = $1, b = $2, c = '$3 stays', d = $3 WHERE e = $4"
    assert rewrite(sql, ["int8", "text", "bytea", "float8"]) == (
        "UPDATE t SET a = ($1->>0)::int8, b = ($1->>1), c = '$3 stays', d = decode(($1->>2), 'hex')"
        " WHERE e = ($1->>3)::float8"
    )
    assert encode(0.1) == "0.1" and float(encode(1 / 3) or "") == 1 / 3
    assert encode(True, "bool") == "true" and encode(True, "int4") == "1" and encode(None) is None
    assert encode(b"\x00\xff") == "00ff"


@pytest.mark.slow
@pytest.mark.parametrize("game", ["wizards-cup", "firewall", "magic-duel", "arena"])
async def test_a_players_move_through_the_match_service_is_one_request(pg_target: DbTarget, game: str) -> None:
    """The path the running bot takes (``MatchService.submit``, its group commit), each game: once
    a first match has been played (each statement text is prepared once, on first sight, and each
    batch shape's function found or created), a second match's moves write one request each to the
    server, its finish included (issue 33's goal: at most 2); a statement text or a batch shape
    this process meets for the first time (a new length of an ``IN`` list) costs up to two more
    (prepare it, create its function), rarely; a process lists the schema's functions once."""
    from bot.matches import MatchService
    from db import MatchStatus
    from tests.bot.match_start import start
    from tests.fakes import Clock, RecordingNotifier

    db = await pg_target.open(clock=Clock(T0))
    service = MatchService(db, notifier=RecordingNotifier(), clock=Clock(T0), seed_factory=lambda: 11)
    requests = Wire(db)
    rng = random.Random(game)

    def learnt() -> tuple[int, int]:
        return len(db._statements._known), len(db._statements._functions)  # type: ignore[attr-defined]

    async def play() -> list[tuple[int, bool]]:
        """Each move's requests, and whether it met a statement text or batch shape first."""
        match_id = await start(service, game)
        per_move: list[tuple[int, bool]] = []
        while (record := await service.get(match_id)).status is MatchStatus.ACTIVE:
            for seat in range(len(record.seats)):
                prompt = await service.prompt(match_id, seat)
                if prompt.awaited and prompt.decision is not None and prompt.decision.choices:
                    action = prompt.decision.choices[rng.randrange(len(prompt.decision.choices))]
                    requests.watch()
                    before, known = requests.count, learnt()
                    await service.submit(match_id, record.seats[seat].user_id, action, seat_step=prompt.seat_step)
                    per_move.append((requests.count - before, learnt() != known))
                    break
        await service.settle()
        return per_move

    try:
        await play()  # most statement texts and batch shapes seen once
        second = await play()
        known = [n for n, new in second if not new]
        assert len(second) > 5 and len(known) >= 0.7 * len(second), second
        assert max(known) <= 2, second
        assert sum(1 for n in known if n == 1) >= 0.9 * len(known), second
        assert max(n for n, _ in second) <= 5, second
    finally:
        await service.close()
        await db.close()


FUNCTIONS = (
    "SELECT COUNT(*) FROM pg_proc WHERE proname LIKE 'wr_batch_%' AND pronamespace = current_schema()::regnamespace"
)


async def test_a_batch_alone_runs_as_its_shapes_own_function(pg_target: DbTarget) -> None:
    """A group of one batch calls the function of its shape (db/pg_group.py ``batch_function``:
    static SQL, planned once per connection): created by the first process that meets the shape,
    found by the others and after a restart, created at once by two processes without harm, and
    made again when an operator dropped it."""
    first = await pg_target.open()
    second = await pg_target.open()  # another process: its own pool and statement cache
    try:
        await first.write(player(1, "one"))
        assert await first.fetchval(FUNCTIONS) == 1
        await second.write(player(2, "two"))  # same shape: found, not created again
        assert await first.fetchval(FUNCTIONS) == 1
        match_id = await active_match(first)

        def note(kind: str, user: int = 1) -> Batch:  # a new shape: an insert returning its id, a guarded update
            batch = Batch().add(
                "INSERT INTO outbox (match_id, kind, payload, created_at) VALUES (?, ?, ?, ?)",
                (match_id, kind, "{}", T0),
            )
            return batch.add("UPDATE players SET last_seen_at = ? WHERE user_id = ?", (T0 + 5, user), expect_rows=1)

        ids = await asyncio.gather(first.write(note("a")), second.write(note("b")))  # both create it at once
        assert await first.fetchval(FUNCTIONS) == 2
        stored = {r[1]: r[0] for r in await first.fetchall("SELECT id, kind FROM outbox")}
        assert [i[0] for i in ids] == [stored["a"], stored["b"]] and [i[1] for i in ids] == [None, None]
        # its guard: a row count other than the one expected refuses the whole batch
        with pytest.raises(StaleWrite):
            await first.write(note("c", user=99))
        assert await first.fetchval("SELECT COUNT(*) FROM outbox WHERE kind = 'c'") == 0
        # an operator drops the functions (docs/operating.md: safe at any time): made again on use
        names = "SELECT proname FROM pg_proc WHERE proname LIKE 'wr_batch_%'"
        for row in await first.fetchall(f"{names} AND pronamespace = current_schema()::regnamespace"):
            await first.execute(f"DROP FUNCTION {row[0]}(jsonb)")
        assert await first.fetchval(FUNCTIONS) == 0
        assert (await first.write(note("d")))[0] == await first.fetchval("SELECT id FROM outbox WHERE kind = 'd'")
        assert await first.fetchval(FUNCTIONS) == 1
    finally:
        await first.close()
        await second.close()
    restarted = await pg_target.open()
    try:
        await restarted.write(player(3, "three"))
        assert await restarted.fetchval(FUNCTIONS) == 2
    finally:
        await restarted.close()


async def test_a_batch_alone_and_the_general_way_write_the_same(pg_target: DbTarget) -> None:
    """The same batches through the shape's function and through ``wr_write_group`` (the way a
    batch in a group of several takes) store the same rows and answer the same ids."""
    db = await pg_target.open()
    try:
        await db.write(player(1, "host"))
        made = await db.fetchval(FUNCTIONS)
        answers = {}
        for way in (True, False):
            db.batch_functions = way  # type: ignore[attr-defined]
            match_id = await active_match(db)
            batch = Batch().add(
                "UPDATE matches SET version = version + 1 WHERE id = ? AND version = ?", (match_id, 0), expect_rows=1
            )
            batch.add_many(
                "INSERT INTO actions (match_id, idx, seat, action, auto, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                [(match_id, 0, 0, '{"a": 1}', 0, T0), (match_id, 1, None, '{"b": 2}', 1, T0)],
            )
            batch.add(
                "INSERT INTO outbox (match_id, kind, payload, created_at) VALUES (?, ?, ?, ?)",
                (match_id, "k", "{}", T0),
            )
            ids = await db.write(batch)
            outbox = await db.fetchval("SELECT id FROM outbox WHERE match_id = ?", (match_id,))
            assert ids == [None, None, outbox]
            rows = await db.fetchall(
                "SELECT idx, seat, action, auto FROM actions WHERE match_id = ? ORDER BY idx", (match_id,)
            )
            answers[way] = (
                [tuple(r) for r in rows],
                await db.fetchval("SELECT version FROM matches WHERE id = ?", (match_id,)),
            )
        assert answers[True] == answers[False] == ([(0, 0, '{"a": 1}', 0), (1, None, '{"b": 2}', 1)], 1)
        assert await db.fetchval(FUNCTIONS) == made + 1  # only the first way made one
    finally:
        await db.close()


def test_a_shapes_function_is_its_statements_as_static_sql() -> None:
    from db.pg_group import UNREPORTED, batch_function, function_name

    shape = (
        ("UPDATE matches SET version = version + 1 WHERE id = $1 AND version = $2", ("int8", "int4"), 0, 1, False),
        ("INSERT INTO actions (match_id, action) VALUES ($1, $2) RETURNING id", ("int8", "text"), UNREPORTED, -1, True),
        ("INSERT INTO outbox (match_id, kind) VALUES ($1, $2) RETURNING id", ("int8", "text"), 1, -1, False),
    )
    name = function_name(shape)
    assert name == function_name(list(shape)) and name.startswith("wr_batch_") and len(name) <= 63
    assert function_name(shape[:2]) != name
    source = batch_function(name, shape)
    assert "WHERE id = ((p_args->0)->>0)::int8 AND version = ((p_args->0)->>1)::int4;" in source
    assert "FOR v_row IN SELECT value FROM jsonb_array_elements(p_args->1) LOOP" in source
    assert "VALUES ((v_row->>0)::int8, (v_row->>1)) RETURNING id INTO v_id;" in source
    assert "VALUES (((p_args->2)->>0)::int8, ((p_args->2)->>1)) RETURNING id INTO v_id;" in source
    assert "IF v_count <> 1 THEN RAISE EXCEPTION 'stale write" in source and "ERRCODE = 'WR001'" in source
    assert source.count("v_ids := v_ids || jsonb_build_array(NULL::BIGINT);") == 2  # the update, each action
    assert source.count("v_ids := v_ids || jsonb_build_array(v_id);") == 1 and "RETURN v_ids;" in source
    assert "EXECUTE" not in source  # static SQL: planned once per connection


async def test_a_run_of_one_statement_is_one_loop_whatever_its_length(pg_target: DbTarget) -> None:
    """A move writes one notice or several, one seat's deadline or several: a run of the same
    statement (and an ``add_many`` of several rows) is one step of the shape's function, a loop, so
    one more notice makes no new shape; each row's id comes back in order (db/pg_group.py)."""
    db = await pg_target.open()
    try:
        await db.write(player(1, "host"))
        match_id = await active_match(db)
        made = await db.fetchval(FUNCTIONS)
        for count in (2, 3, 5, 2):
            batch = Batch().add("UPDATE matches SET version = version + 1 WHERE id = ?", (match_id,), expect_rows=1)
            for n in range(count):
                batch.add(
                    "INSERT INTO outbox (match_id, kind, payload, created_at) VALUES (?, ?, ?, ?)",
                    (match_id, f"k{count}-{n}", "{}", T0),
                )
            batch.add_many("DELETE FROM outbox WHERE id = ?", [(-n,) for n in range(count)])
            ids = await db.write(batch)
            stored = {
                r[1]: r[0] for r in await db.fetchall("SELECT id, kind FROM outbox WHERE match_id = ?", (match_id,))
            }
            assert ids == [None, *(stored[f"k{count}-{n}"] for n in range(count)), None]
        assert await db.fetchval(FUNCTIONS) == made + 1  # one shape for every length
        assert await db.fetchval("SELECT version FROM matches WHERE id = ?", (match_id,)) == 4
        # a guard inside a run still refuses the whole batch
        batch = Batch()
        for user in (1, 99):
            batch.add("UPDATE players SET last_seen_at = ? WHERE user_id = ?", (T0 + 9, user), expect_rows=1)
        with pytest.raises(StaleWrite):
            await db.write(batch)
        assert await db.fetchval("SELECT last_seen_at FROM players WHERE user_id = 1") != T0 + 9
    finally:
        await db.close()
