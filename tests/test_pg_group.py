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
from db import Batch, IntegrityError, StaleWrite
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
        match_id = await db.fetchval(
            "INSERT INTO matches (game, status, challenger_id, created_at) VALUES ('wizards-cup', 'active', 1, ?)"
            " RETURNING id",
            (T0,),
        )

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


@pytest.mark.parametrize("game", ["wizards-cup", "firewall", "magic-duel", "arena"])
async def test_a_players_move_through_the_match_service_is_one_request(pg_target: DbTarget, game: str) -> None:
    """The path the running bot takes (``MatchService.submit``, its group commit), each game: once
    a first match has been played (each statement text is prepared once, on first sight), a second
    match's moves write one request each to the server, its finish included (issue 33's goal: at
    most 2); a statement text seen for the first time (a new length of an ``IN`` list) costs one
    more, rarely."""
    from bot.matches import MatchService
    from db import MatchStatus
    from tests.fakes import Clock, RecordingNotifier
    from tests.test_match_service_store import start

    db = await pg_target.open(clock=Clock(T0))
    service = MatchService(db, notifier=RecordingNotifier(), clock=Clock(T0), seed_factory=lambda: 11)
    requests = Wire(db)
    rng = random.Random(game)

    async def play() -> list[int]:
        match_id = await start(service, game)
        per_move: list[int] = []
        while (record := await service.get(match_id)).status is MatchStatus.ACTIVE:
            for seat in range(len(record.seats)):
                prompt = await service.prompt(match_id, seat)
                if prompt.awaited and prompt.decision is not None and prompt.decision.choices:
                    action = prompt.decision.choices[rng.randrange(len(prompt.decision.choices))]
                    requests.watch()
                    before = requests.count
                    await service.submit(match_id, record.seats[seat].user_id, action, seat_step=prompt.seat_step)
                    per_move.append(requests.count - before)
                    break
        await service.settle()
        return per_move

    try:
        await play()  # every statement text seen once
        second = await play()
        assert len(second) > 5
        assert max(second) <= 2, second
        assert sum(1 for n in second if n == 1) >= 0.9 * len(second), second
    finally:
        await service.close()
        await db.close()
