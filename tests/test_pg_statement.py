"""A batch written alone on PostgreSQL is ONE prepared statement of its shape (db/pg_statement.py,
issue 33 part 3): its statements as data-modifying CTEs with native typed parameters, one round
trip, the same rows and ids as the shape's function, the same guards; shapes that one statement
could run differently from their statements in turn go the general way."""

from __future__ import annotations

import asyncio
import json

import asyncpg
import pytest

from bench.pg_moves import Wire
from db import Batch, Database, IntegrityError, StaleWrite
from db.pg_sql import Catalog, effects, parse
from db.pg_statement import Source, build
from tests.conftest import DbTarget

T0 = 1_700_000_000
GUARD = "UPDATE matches SET version = version + 1 WHERE id = ? AND version = ?"
ACTIONS = "INSERT INTO actions (match_id, idx, seat, action, auto, created_at) VALUES (?, ?, ?, ?, ?, ?)"
SEAT = (
    "UPDATE seats SET deadline_at = ?, awaited_since = ?, reminded = 0, claimed_by = NULL,"
    " claimed_until = NULL WHERE match_id = ? AND seat = ?"
)
NOTICE = (
    "INSERT INTO outbox (match_id, kind, payload, created_at, claimed_by, claimed_until) VALUES (?, ?, ?, ?, ?, ?)"
)
FINISH = "UPDATE matches SET status = ?, outcome = ?, summary = ?, finished_at = ? WHERE id = ? AND status = 'active'"
CLEAR = (
    "UPDATE seats SET deadline_at = NULL, awaited_since = NULL, reminded = 0, claimed_by = NULL,"
    " claimed_until = NULL WHERE match_id = ?"
)
QUEUE = "INSERT OR IGNORE INTO rating_queue (match_id) SELECT id FROM matches WHERE id = ? AND practice = 0"


# -- without a server: what is taken, and how ----------------------------------------------------
def test_the_forms_taken_and_the_others() -> None:
    insert = parse("INSERT INTO outbox (match_id, kind) VALUES ($1, lower($2)) ON CONFLICT DO NOTHING RETURNING id")
    assert insert is not None and insert.values and insert.returning_id and insert.conflict == "ON CONFLICT DO NOTHING"
    assert insert.body == "$1, lower($2)" and not insert.upsert
    update = parse("UPDATE seats SET deadline_at = $1, note = 'a, b = c' WHERE match_id = $2 AND seat = $3")
    assert update is not None and update.set_columns == {"deadline_at", "note"}
    assert update.equals == (("match_id", 2), ("seat", 3)) and update.keyed
    ranged = parse("UPDATE seats SET reminded = 1 WHERE match_id = $1 AND deadline_at < $2")
    assert ranged is not None and not ranged.keyed
    assert parse("UPDATE t SET a = 1 WHERE x IS NOT DISTINCT FROM $1") is not None  # not a FROM of its own
    upsert = parse("INSERT INTO snapshots (match_id, upto) VALUES ($1, $2) ON CONFLICT (match_id) DO UPDATE SET upto = excluded.upto")
    assert upsert is not None and upsert.upsert
    selected = parse("INSERT INTO rating_queue (match_id) SELECT id FROM matches WHERE id = $1 ON CONFLICT DO NOTHING")
    assert selected is not None and not selected.values and selected.body.strip() == "SELECT id FROM matches WHERE id = $1"
    for other in (
        "SELECT pg_advisory_xact_lock($1)",
        "INSERT INTO t (a) VALUES ($1), ($2)",
        "UPDATE t SET a = s.a FROM s WHERE t.id = s.id",
        "DELETE FROM t USING s WHERE t.id = s.id",
        "INSERT INTO t (a) VALUES ($1) RETURNING a, b",
        'UPDATE "t" SET a = 1',
        "WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x",
    ):
        assert parse(other) is None, other


def catalog(**extra: object) -> Catalog:
    data: dict[str, object] = {
        "tables": ["matches", "seats", "actions", "outbox", "rating_queue", "snapshots", "players"],
        "primary": [["matches", "id"], ["players", "user_id"]],
        "keys": [["seats", "matches", ["match_id"], ["id"]], ["actions", "matches", ["match_id"], ["id"]]],
        "triggers": [],
        "functions": [],
        "rules": [],
    }
    data.update(extra)
    return Catalog.from_json(json.dumps(data))


def plan_of(statements: list[tuple[str, int]], *, cat: Catalog | None = None):  # type: ignore[no-untyped-def]
    from db.dialect import to_postgres

    queries = [to_postgres(sql, frozenset({"actions", "outbox"})) for sql, _ in statements]
    parsed = [parse(q) for q in queries]
    assert all(p is not None for p in parsed)
    types = [tuple("int8" for _ in range(q.count("$"))) for q in queries]
    found = [Source(sql, expect) for sql, expect in statements]
    return build(found, parsed, types, cat or catalog())  # type: ignore[arg-type]


def test_steps_that_could_see_each_other_go_the_general_way() -> None:
    move = plan_of([(GUARD, 1), (ACTIONS, -1), (SEAT, -1), (NOTICE, -1)])
    assert move is not None and move.text.count(" AS (") >= 4
    assert "wr_stale(1, (SELECT count(*) FROM s0), 1)" in move.text
    assert "unnest($3::int8[]" in move.text and "ORDER BY wr_r.wr_ord" in move.text
    # one table written by two steps: one statement would change its rows once, and out of order
    assert plan_of([(GUARD, 1), (SEAT, -1), (CLEAR, -1)]) is None
    # a step reading what another writes
    assert plan_of([("DELETE FROM matches WHERE id = ?", -1), (QUEUE, -1)]) is None
    # a delete of a row other tables refer to: its cascades touch them
    assert plan_of([("DELETE FROM matches WHERE id = ?", -1), (ACTIONS, -1)]) is None
    # two plain inserts into one table go together; a trigger reading the other's table does not
    assert plan_of([(NOTICE, -1), ("INSERT INTO outbox (match_id, kind) VALUES (?, ?)", -1)]) is not None
    watched = catalog(
        triggers=[["seats", 4 | 1, [], "plpgsql", "BEGIN PERFORM 1 FROM outbox; RETURN NEW; END"]],
    )
    assert plan_of([(NOTICE, -1), ("INSERT INTO seats (match_id, seat) VALUES (?, ?)", -1)], cat=watched) is None
    dynamic = catalog(triggers=[["seats", 16 | 1, [], "plpgsql", "BEGIN EXECUTE 'x'; RETURN NEW; END"]])
    assert plan_of([(GUARD, 1), (SEAT, -1)], cat=dynamic) is None


def test_a_finishing_moves_two_updates_of_the_match_are_merged() -> None:
    finishing = plan_of([(GUARD, 1), (ACTIONS, -1), (FINISH, 1), (CLEAR, -1), (QUEUE, -1), (NOTICE, -1)])
    assert finishing is not None
    assert len(finishing.steps) == 5 and finishing.step_of[2] == finishing.step_of[0] == 0
    merged = finishing.steps[0]
    assert merged.single and merged.sources == (0, 2) and merged.same == (0, 6)
    assert "SET version = version + 1, status = wr_r.wr_p3" in finishing.text
    # not when the second reads what the first sets, or a trigger could tell them apart
    assert plan_of([(GUARD, 1), ("UPDATE matches SET status = 'x' WHERE id = ? AND version = 3", 1)]) is None
    old = catalog(triggers=[["matches", 16 | 1 | 2, ["status"], "plpgsql", "BEGIN NEW.x := OLD.y; RETURN NEW; END"]])
    assert plan_of([(GUARD, 1), (FINISH, 1)], cat=old) is None
    new = catalog(triggers=[["matches", 16 | 1 | 2, ["status"], "plpgsql", "BEGIN NEW.finish_seq := 1; RETURN NEW; END"]])
    assert plan_of([(GUARD, 1), (FINISH, 1)], cat=new) is not None


def test_effects_count_triggers_and_cascades() -> None:
    cat = catalog(
        triggers=[["players", 4 | 16, [], "plpgsql", "BEGIN PERFORM bump(NEW.user_id); RETURN NULL; END"]],
        functions=[["bump", "BEGIN INSERT INTO outbox (kind) VALUES ('x'); END"]],
    )
    player = parse("INSERT INTO players (user_id) VALUES ($1)")
    assert player is not None
    found = effects(player, cat)
    assert found is not None and set(found.writes) == {"players", "outbox"} and not found.appends
    delete = parse("DELETE FROM matches WHERE id = $1")
    assert delete is not None
    gone = effects(delete, cat)
    assert gone is not None and {"matches", "seats", "actions"} <= set(gone.writes)
    assert effects(parse("INSERT INTO elsewhere (a) VALUES ($1)"), cat) is None  # type: ignore[arg-type]


# -- on the server ---------------------------------------------------------------------------------
pg = pytest.mark.postgres


async def _match(db: Database, players: int = 2) -> int:
    for uid in range(1, players + 1):
        await db.execute(
            "INSERT INTO players (user_id, display_name, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT DO NOTHING",
            (uid, f"p{uid}", T0, T0),
        )
    match_id = int(
        await db.fetchval(
            "INSERT INTO matches (game, status, challenger_id, created_at) VALUES ('wizards-cup', 'active', 1, ?)"
            " RETURNING id",
            (T0,),
        )
    )
    for seat in range(players):
        await db.execute(
            "INSERT INTO seats (match_id, seat, user_id, display_name, accepted) VALUES (?, ?, ?, ?, 1)",
            (match_id, seat, seat + 1, f"p{seat + 1}"),
        )
    return match_id


def move(match_id: int, version: int, *, notices: int = 1, seats: tuple[int, ...] = (0,), actions: int = 1) -> Batch:
    batch = Batch().add(GUARD, (match_id, version), expect_rows=1)
    batch.add_many(
        ACTIONS, [(match_id, version * 10 + n, 0, json.dumps({"n": n}), 0, T0) for n in range(actions)]
    )
    for seat in seats:
        batch.add(SEAT, (T0 + version, T0, match_id, seat))
    for n in range(notices):
        batch.add(NOTICE, (match_id, f"k{version}.{n}", "{}", T0, "me", T0 + 60))
    return batch


def finishing(match_id: int, version: int) -> Batch:
    batch = Batch().add(GUARD, (match_id, version), expect_rows=1)
    batch.add_many(ACTIONS, [(match_id, version * 10, 1, '{"last": true}', 0, T0)])
    batch.add(FINISH, ("finished", '{"winner": 0}', "won", T0 + 9, match_id), expect_rows=1)
    batch.add(CLEAR, (match_id,))
    batch.add(QUEUE, (match_id,))
    batch.add("DELETE FROM snapshots WHERE match_id = ?", (match_id,))
    batch.add(NOTICE, (match_id, "end", "{}", T0, "me", T0 + 60))
    return batch


async def outbox_ids(db: Database, match_id: int) -> dict[str, int]:
    rows = await db.fetchall("SELECT id, kind FROM outbox WHERE match_id = ?", (match_id,))
    return {str(r[1]): int(r[0]) for r in rows}


@pg
async def test_runs_of_any_length_share_one_statement_and_answer_ids_in_order(pg_target: DbTarget) -> None:
    db = await pg_target.open()
    shapes = db._shapes  # type: ignore[attr-defined]
    try:
        match_id = await _match(db)
        for version, (notices, seats, actions) in enumerate([(1, (0,), 1), (2, (0, 1), 2), (5, (1,), 5), (2, (1, 0), 1)]):
            ids = await db.write(move(match_id, version, notices=notices, seats=seats, actions=actions))
            stored = await outbox_ids(db, match_id)
            assert ids == [None, None, *[None] * len(seats), *(stored[f"k{version}.{n}"] for n in range(notices))]
            assert sorted(ids[-notices:]) == ids[-notices:]  # type: ignore[type-var]
        assert shapes.written == 4 and shapes.declined == 0
        assert len([t for t in shapes.texts() if "outbox" in t]) == 1  # one text for 1, 2 and 5 rows
        logged = await db.fetchall("SELECT idx FROM actions WHERE match_id = ? ORDER BY id", (match_id,))
        assert [r[0] for r in logged] == [0, 10, 11, 20, 21, 22, 23, 24, 30]
        deadlines = await db.fetchall("SELECT seat, deadline_at FROM seats WHERE match_id = ? ORDER BY seat", (match_id,))
        assert [tuple(r) for r in deadlines] == [(0, T0 + 3), (1, T0 + 3)]
        # warm: one request on the wire
        requests = Wire(db)
        requests.watch()
        await db.write(move(match_id, 4, notices=3, seats=(0, 1)))
        assert requests.count == 1
    finally:
        await db.close()


@pg
async def test_a_refused_guard_writes_nothing(pg_target: DbTarget) -> None:
    """A stale guard refuses the whole batch (StaleWrite, not the log's unique key: the guard runs
    first and no later step writes), also a guard after other steps, also a guard that waited for
    another writer's lock."""
    db = await pg_target.open()
    shapes = db._shapes  # type: ignore[attr-defined]
    try:
        match_id = await _match(db)
        await db.write(move(match_id, 0))
        before = await db.fetchall("SELECT COUNT(*) FROM actions UNION ALL SELECT COUNT(*) FROM outbox")
        with pytest.raises(StaleWrite):
            await db.write(move(match_id, 0, notices=2))  # the log's idx 0 is taken too
        late = Batch().add(NOTICE, (match_id, "late", "{}", T0, None, None))
        late.add("UPDATE players SET last_seen_at = ? WHERE user_id = ?", (T0 + 1, 99), expect_rows=1)
        with pytest.raises(StaleWrite):
            await db.write(late)
        assert await db.fetchall("SELECT COUNT(*) FROM actions UNION ALL SELECT COUNT(*) FROM outbox") == before
        assert shapes.declined == 0
        # another writer holds the match row: the guard waits, then finds the version moved on
        other = await asyncpg.connect(pg_target.url)
        try:
            transaction = other.transaction()
            await transaction.start()
            await other.execute("UPDATE matches SET version = version + 1 WHERE id = $1", match_id)
            waiting = asyncio.ensure_future(db.write(move(match_id, 1)))
            await asyncio.sleep(0.2)
            assert not waiting.done()
            await transaction.commit()
            with pytest.raises(StaleWrite):
                await waiting
        finally:
            await other.close()
        assert await db.fetchval("SELECT COUNT(*) FROM actions WHERE match_id = ?", (match_id,)) == 1
        assert await db.fetchval("SELECT version FROM matches WHERE id = ?", (match_id,)) == 2
        # a constraint is the batch's error, as before
        with pytest.raises(IntegrityError):
            await db.write(Batch().add_many(ACTIONS, [(match_id, 0, 0, "{}", 0, T0)]))
    finally:
        await db.close()


@pg
async def test_a_finishing_move_is_one_statement(pg_target: DbTarget) -> None:
    db = await pg_target.open()
    shapes = db._shapes  # type: ignore[attr-defined]
    try:
        match_id = await _match(db)
        await db.write(move(match_id, 0))
        ids = await db.write(finishing(match_id, 1))
        assert shapes.written == 2 and shapes.declined == 0
        assert ids[-1] == (await outbox_ids(db, match_id))["end"] and ids[:-1] == [None] * 6
        row = await db.fetchone("SELECT version, status, summary, finished_at, finish_seq FROM matches WHERE id = ?", (match_id,))
        assert row is not None and tuple(row) == (2, "finished", "won", T0 + 9, 1)  # the finish trigger ran
        assert await db.fetchval("SELECT COUNT(*) FROM rating_queue WHERE match_id = ?", (match_id,)) == 1
        assert await db.fetchval("SELECT COUNT(*) FROM seats WHERE match_id = ? AND deadline_at IS NOT NULL", (match_id,)) == 0
        # finishing it again: the guard passes (version 2) but the match is no longer active
        with pytest.raises(StaleWrite):
            await db.write(finishing(match_id, 2))
        assert await db.fetchval("SELECT version FROM matches WHERE id = ?", (match_id,)) == 2
        assert await db.fetchval("SELECT COUNT(*) FROM actions WHERE match_id = ?", (match_id,)) == 2
        # the two updates naming two rows: the general way, the same answer
        second = await _match(db)
        crossed = Batch().add(GUARD, (second, 0), expect_rows=1)
        crossed.add(FINISH, ("abandoned", None, None, T0, match_id), expect_rows=1)
        with pytest.raises(StaleWrite):
            await db.write(crossed)
        assert shapes.declined == 1
        assert await db.fetchval("SELECT version FROM matches WHERE id = ?", (second,)) == 0
    finally:
        await db.close()


@pg
async def test_shapes_it_cannot_take_go_the_general_way_with_the_same_result(pg_target: DbTarget) -> None:
    db = await pg_target.open()
    shapes = db._shapes  # type: ignore[attr-defined]
    try:
        match_id = await _match(db)
        # one seat twice in a run: in turn the second wins
        twice = Batch().add(SEAT, (T0 + 1, T0, match_id, 0)).add(SEAT, (T0 + 2, T0, match_id, 0))
        await db.write(twice)
        assert await db.fetchval("SELECT deadline_at FROM seats WHERE match_id = ? AND seat = 0", (match_id,)) == T0 + 2
        assert shapes.declined == 1
        # seats written by two statements
        both = Batch().add(SEAT, (T0 + 3, T0, match_id, 1)).add(CLEAR, (match_id,))
        await db.write(both)
        assert await db.fetchval("SELECT COUNT(*) FROM seats WHERE deadline_at IS NOT NULL") == 0
        assert shapes.declined == 2
        # a statement that is not a write it takes
        locked = Batch().add("SELECT pg_advisory_xact_lock(?)", (7,)).add(SEAT, (T0 + 4, T0, match_id, 1))
        await db.write(locked)
        assert shapes.declined == 3
        # an upsert of one key twice: the second wins
        snap = (
            "INSERT INTO snapshots (match_id, upto, engine, state, created_at) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (match_id) DO UPDATE SET upto = excluded.upto, state = excluded.state"
        )
        await db.write(Batch().add(snap, (match_id, 1, "e", b"\x00\x01", T0)).add(snap, (match_id, 2, "e", b"\xff", T0)))
        row = await db.fetchone("SELECT upto, state FROM snapshots WHERE match_id = ?", (match_id,))
        assert row is not None and (row[0], bytes(row[1])) == (2, b"\xff")
        assert shapes.declined == 4
        # ... and once: one statement
        await db.write(Batch().add(snap, (match_id, 3, "e", b"\x02", T0)))
        assert shapes.declined == 4 and await db.fetchval("SELECT upto FROM snapshots") == 3
    finally:
        await db.close()


@pg
async def test_one_statement_and_the_shapes_function_write_the_same(pg_target: DbTarget) -> None:
    db = await pg_target.open()
    try:
        answers = []
        for way in (True, False):
            db.batch_statements = way  # type: ignore[attr-defined]
            match_id = await _match(db)
            ids = [
                await db.write(move(match_id, 0, notices=2, seats=(0, 1), actions=2)),
                await db.write(move(match_id, 1, notices=1)),
                await db.write(finishing(match_id, 2)),
            ]
            notices = await outbox_ids(db, match_id)
            first = min(notices.values())
            answers.append(
                (
                    [[None if i is None else i - first for i in batch] for batch in ids],
                    [tuple(r) for r in await db.fetchall(
                        "SELECT idx, seat, action, auto FROM actions WHERE match_id = ? ORDER BY id", (match_id,)
                    )],
                    [tuple(r) for r in await db.fetchall(
                        "SELECT version, status, outcome, summary, finished_at FROM matches WHERE id = ?", (match_id,)
                    )],
                    [tuple(r) for r in await db.fetchall(
                        "SELECT seat, deadline_at, awaited_since FROM seats WHERE match_id = ? ORDER BY seat", (match_id,)
                    )],
                    sorted(notices),
                )
            )
        assert answers[0] == answers[1]
    finally:
        await db.close()
