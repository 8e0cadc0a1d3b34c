"""Group commit (issue 33, part 1; db/group.py): batches written while a commit is in flight share
the next transaction, each in its own savepoint, on both backends. Each writer is answered only
after its own batch is committed; a batch that fails rolls back alone; an error of the whole
transaction reaches every writer of the group; a writer cancelled before its batch is taken
leaves nothing written. The match service's moves take this path (a test below plays moves of
many matches at once through ``MatchService.submit``)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.matches import MatchService
from db import Batch, Database, IntegrityError, StaleWrite
from db.group import GroupCommit
from db.postgres import PostgresDatabase
from tests.conftest import DbTarget
from tests.fakes import Clock

T0 = 1_700_000_000

NOTE = "INSERT INTO players (user_id, display_name, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?)"


def player(user_id: int) -> Batch:
    return Batch().add(NOTE, (user_id, f"p{user_id}", T0, T0))


async def cancel_the_middle_writer(
    write: Callable[[Batch], Awaitable[Any]], users: tuple[int, int, int], release: Callable[[], None], *, pause: float
) -> None:
    """Write the first player (its commit waits until ``release``), then the other two; cancel the
    second writer before its turn, release, and check the first and third are answered and the
    second is cancelled."""
    first = asyncio.create_task(write(player(users[0])))
    await asyncio.sleep(pause)
    waiting = asyncio.create_task(write(player(users[1])))
    kept = asyncio.create_task(write(player(users[2])))
    await asyncio.sleep(pause)
    waiting.cancel()
    release()
    await first
    await kept
    with pytest.raises(asyncio.CancelledError):
        await waiting


def stored_players(target: DbTarget) -> set[int]:
    """The players committed, read through a connection of its own."""
    return {int(row[0]) for row in target.sql("SELECT user_id FROM players")}


async def test_batches_written_at_once_share_one_transaction(target: DbTarget) -> None:
    db = await target.open(clock=Clock(T0))
    try:
        groups_before = db._group.groups
        ids = await asyncio.gather(*(db.write(player(i)) for i in range(1, 41)))
        assert len(ids) == 40
        assert stored_players(target) == set(range(1, 41))
        groups = db._group.groups - groups_before
        # every write was queued before the first commit started: far fewer transactions than batches
        assert groups < 40 // 2, groups
        assert db._group.largest >= 10
    finally:
        await db.close()


async def test_each_writer_gets_its_own_inserted_ids(target: DbTarget) -> None:
    db = await target.open(clock=Clock(T0))
    try:
        await asyncio.gather(*(db.write(player(i)) for i in (1, 2)))
        made = [
            Batch().add(
                "INSERT INTO matches (game, options, guild_id, channel_id, status, challenger_id, created_at)"
                " VALUES ('wizards-cup', '{}', 1, 2, 'pending', 1, ?)",
                (T0 + i,),
            )
            for i in range(6)
        ]
        ids = await asyncio.gather(*(db.write(b) for b in made))
        match_ids = [out[0] for out in ids]
        assert len(set(match_ids)) == 6 and None not in match_ids
        rows = target.sql("SELECT id, created_at FROM matches")
        assert {int(r[0]): int(r[1]) for r in rows} == {m: T0 + i for i, m in enumerate(match_ids)}
    finally:
        await db.close()


async def test_a_failing_batch_rolls_back_alone_and_the_others_commit(target: DbTarget) -> None:
    db = await target.open(clock=Clock(T0))
    try:
        await db.write(player(7))
        # the middle batch inserts a new player, then breaks a unique constraint: all of it is undone
        broken = player(8).add(NOTE, (7, "again", T0, T0))
        guarded = player(9).add("UPDATE players SET display_name = 'x' WHERE user_id = ?", (12345,), expect_rows=1)
        results = await asyncio.gather(
            db.write(player(1)), db.write(broken), db.write(guarded), db.write(player(2)), return_exceptions=True
        )
        assert isinstance(results[1], IntegrityError) and results[1].unique
        assert isinstance(results[2], StaleWrite)
        assert not isinstance(results[0], BaseException) and not isinstance(results[3], BaseException)
        assert stored_players(target) == {7, 1, 2}
        # the connection is still usable afterwards
        await db.write(player(3))
        assert 3 in stored_players(target)
    finally:
        await db.close()


async def test_a_writer_is_answered_only_after_its_commit(target: DbTarget) -> None:
    db = await target.open(clock=Clock(T0))
    try:
        seen: list[set[int]] = []

        async def write_then_look(i: int) -> None:
            await db.write(player(i))
            seen.append(stored_players(target))  # another connection sees it at once
            assert i in seen[-1]

        await asyncio.gather(*(write_then_look(i) for i in range(1, 11)))
        assert len(seen) == 10
    finally:
        await db.close()


async def test_a_writer_cancelled_before_its_turn_leaves_nothing(tmp_path: Path) -> None:
    """SQLite: another task's transaction holds the one writer's lock, so the next group waits."""
    target = DbTarget("sqlite", str(tmp_path / "bot.sqlite3"))
    db = await target.open(clock=Clock(T0))
    try:
        release = asyncio.Event()
        started = asyncio.Event()

        async def hold() -> None:  # another task's transaction keeps the next group waiting
            async with db.transaction():
                await db.execute(NOTE, (1, "holder", T0, T0))
                started.set()
                await release.wait()

        holder = asyncio.create_task(hold())
        await started.wait()
        await cancel_the_middle_writer(db.write, (2, 3, 4), release.set, pause=0.05)  # 2's group waits for 1's
        await holder
        assert stored_players(target) == {1, 2, 4}
    finally:
        await db.close()


async def test_a_cancelled_writer_is_left_out_of_the_group_it_was_waiting_for() -> None:
    """The queue itself, on any backend: a writer cancelled while a commit is in flight is not in
    the next group; the others are."""
    gate = asyncio.Event()
    committed: list[list[Any]] = []

    async def commit(batches: Any) -> list[Any]:
        await gate.wait()
        committed.append([b.statements[0][1][0] for b in batches])
        return [[None] for _ in batches]

    group = GroupCommit(commit, limit=1)
    await cancel_the_middle_writer(group.write, (1, 2, 3), gate.set, pause=0)
    assert committed == [[1], [3]]


async def test_inside_a_transaction_a_batch_joins_it() -> None:
    db = await Database.open(":memory:", clock=Clock(T0))
    try:
        groups = db._group.groups
        with pytest.raises(RuntimeError):
            async with db.transaction():
                await db.write(player(1))
                raise RuntimeError("roll it all back")
        assert await db.fetchall("SELECT user_id FROM players") == []
        assert db._group.groups == groups  # no group of its own
    finally:
        await db.close()


async def test_an_error_of_the_whole_transaction_reaches_every_writer() -> None:
    calls: list[int] = []

    async def commit(batches: Any) -> list[Any]:
        calls.append(len(batches))
        raise OSError("the disk is full")

    group = GroupCommit(commit, limit=1)
    results = await asyncio.gather(*(group.write(player(i)) for i in range(5)), return_exceptions=True)
    assert calls == [5]
    assert all(isinstance(r, OSError) for r in results)
    # and the queue carries on afterwards
    ok = GroupCommit(lambda batches: _ids(batches), limit=1)
    assert await ok.write(player(1)) == [1]


async def _ids(batches: Any) -> list[Any]:
    return [[1] for _ in batches]


async def test_a_committer_that_stops_leaves_no_writer_waiting() -> None:
    """A batch queued just as the committer finds the queue empty still gets a committer."""
    done = 0

    async def commit(batches: Any) -> list[Any]:
        nonlocal done
        await asyncio.sleep(0)
        done += len(batches)
        return [[None] for _ in batches]

    group = GroupCommit(commit, limit=1)
    for _ in range(50):
        await asyncio.wait_for(group.write(player(1)), 1)
        await asyncio.wait_for(asyncio.gather(group.write(player(2)), group.write(player(3))), 1)
    assert done == 150
    assert group.in_flight == 0


async def test_moves_of_many_matches_at_once_share_commits_and_all_count(target: DbTarget) -> None:
    """The match service's moves go through group commit: 30 matches move at the same moment; every
    move is stored once, in fewer transactions than moves."""
    clock = Clock(T0)
    db = await target.open(clock=clock)
    service = MatchService(db, clock=clock, seed_factory=iter(range(100, 10_000)).__next__)
    try:
        matches = []
        for i in range(30):
            users = ((1000 + 2 * i, f"a{i}"), (1001 + 2 * i, f"b{i}"))
            record = await service.create_challenge("wizards-cup", None, 1, 2, users[0], [users[1]])
            await service.accept(record.id, users[1][0])
            matches.append((record.id, users))

        async def move(match_id: int, users: Any) -> tuple[int, int]:
            prompt = await service.prompt(match_id, 0)
            assert prompt.awaited and prompt.decision is not None
            await service.submit(match_id, users[0][0], prompt.decision.choices[0], seat_step=prompt.seat_step)
            return match_id, prompt.seat_step

        groups = db._group.groups
        done = await asyncio.gather(*(move(m, u) for m, u in matches))
        assert len(done) == 30
        assert db._group.groups - groups < 30
        rows = target.sql("SELECT match_id, COUNT(*) FROM actions WHERE seat = 0 GROUP BY match_id")
        assert {int(r[0]): int(r[1]) for r in rows} == {m: 1 for m, _ in matches}
    finally:
        await service.close()
        await db.close()


@pytest.mark.postgres
async def test_a_group_the_server_ends_for_a_deadlock_is_committed_batch_by_batch(
    pg_target: DbTarget, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes' groups can lock rows in opposite orders; the server then ends one batch's
    subtransaction (deadlock detected). That is no fault of the batch: it is committed again alone
    and answered from that (a batch that fails on its own still gets its own error)."""
    db = await pg_target.open(clock=Clock(T0))
    try:
        await db.write(player(7))
        real = PostgresDatabase._write_group
        sizes: list[int] = []

        async def ended_by_the_server(self: PostgresDatabase, batches: list[Batch]) -> Any:
            sizes.append(len(batches))
            if len(batches) == 1:
                return await real(self, batches)
            # the server ended the second batch's subtransaction; the others ran
            others = await real(self, [b for i, b in enumerate(batches) if i != 1])
            return [others[0], asyncpg.exceptions.DeadlockDetectedError("deadlock detected"), *others[1:]]

        monkeypatch.setattr(PostgresDatabase, "_write_group", ended_by_the_server)
        broken = player(8).add(NOTE, (7, "again", T0, T0))
        results = await asyncio.gather(
            db.write(player(1)), db.write(player(2)), db.write(broken), return_exceptions=True
        )
        assert sizes == [3, 1]  # the group, then the ended batch alone
        assert not isinstance(results[0], BaseException) and not isinstance(results[1], BaseException)
        assert isinstance(results[2], IntegrityError)
        assert stored_players(pg_target) == {7, 1, 2}
    finally:
        await db.close()
