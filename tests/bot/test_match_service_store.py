"""The match service's costs and recovery: one round trip per accepted move, no per-move cost that
grows with the match, bounded memory per idle live match, lazy start-up, snapshots, deadlines that
passed while the bot was down, and a database written by the previous version."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import pickle
import random
import shutil
import time
import tracemalloc
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.matches import MatchError, MatchService, NotSaved, StalePrompt, TimeoutResult
from bot.matches.store import SNAPSHOT_EVERY, FrozenMatch, LiveMatch, engine_fingerprint
from db import Database, MatchStatus
from rules.errors import IllegalAction
from tests.bot.match_start import start
from tests.conftest import DbTarget
from tests.fakes import Clock, RecordingNotifier, count_round_trips

pytestmark = pytest.mark.usefixtures("toy_game")  # the toy game (tests/toy_game.py) is registered

T0 = 1_700_000_000
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def service_on(db: Database, clock: Clock, notes: RecordingNotifier | None = None, seed: int = 7) -> MatchService:
    return MatchService(db, notifier=notes or RecordingNotifier(), clock=clock, seed_factory=lambda: seed)


@pytest.fixture
async def env(target: DbTarget) -> AsyncIterator[tuple[Database, MatchService, Clock, str]]:
    clock = Clock(T0)
    db = await target.open(clock=clock)
    yield db, service_on(db, clock), clock, target.url
    await db.close()


async def random_move(service: MatchService, match_id: int, rng: random.Random) -> bool:
    """One random legal move by an awaited seat; False once the match is over."""
    record = await service.get(match_id)
    if record.status is not MatchStatus.ACTIVE:
        return False
    for seat in range(len(record.seats)):
        prompt = await service.prompt(match_id, seat)
        if prompt.awaited and prompt.decision is not None:
            choices = prompt.decision.choices
            action = choices[rng.randrange(len(choices))]
            await service.submit(match_id, record.seats[seat].user_id, action, seat_step=prompt.seat_step)
            return True
    raise AssertionError("an active match with nobody awaited")


# -- round trips -----------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("game", ["toy-guess", "wizards-cup", "firewall", "arena"])
async def test_an_accepted_move_is_one_round_trip_including_the_commit(env, game: str) -> None:
    db, service, clock, _ = env
    match_id = await start(service, game)
    rng = random.Random(game)
    per_move = []
    while (record := await service.get(match_id)).status is MatchStatus.ACTIVE:
        moved = False
        for seat in range(len(record.seats)):
            prompt = await service.prompt(match_id, seat)
            if not prompt.awaited:
                continue
            assert prompt.decision is not None
            choices = prompt.decision.choices
            action = choices[rng.randrange(len(choices))]
            trips = count_round_trips(db)
            await service.submit(match_id, record.seats[seat].user_id, action, seat_step=prompt.seat_step)
            per_move.append(trips())
            moved = True
            break
        assert moved
    assert per_move and max(per_move) <= 4, per_move  # the bound
    assert set(per_move) == {1}  # in fact: one batch, committed in one hop (the finish too)
    await service.settle()  # the rating follows the acknowledgement, in its own transactions


async def test_refused_moves_cost_no_round_trip_and_change_nothing(env) -> None:
    db, service, clock, _ = env
    match_id = await start(service, "toy-guess")
    trips = count_round_trips(db)
    with pytest.raises(IllegalAction):
        await service.submit(match_id, 100, {"type": "guess", "number": 99}, seat_step=0)
    with pytest.raises(StalePrompt):
        await service.submit(match_id, 100, {"type": "guess", "number": 1}, seat_step=3)
    # SQLite (one process): the cached match is the truth, a refusal costs nothing. PostgreSQL
    # (processes share the database): a refusal is confirmed against the match's committed version
    # first (one cheap query each), since another process may have moved the match on.
    assert trips() == (0 if db.backend == "sqlite" else 2)
    assert await service.seat_step(match_id, 0) == 0


# -- memory -------------------------------------------------------------------------------------------


def retained_bytes(make: Any) -> tuple[Any, int]:
    """What ``make()`` returns and the memory it keeps allocated (tracemalloc)."""
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    made = make()
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    return made, sum(stat.size_diff for stat in after.compare_to(before, "filename"))


@pytest.mark.slow
@pytest.mark.parametrize(("game", "seats"), [("wizards-cup", 2), ("firewall", 2), ("magic-duel", 4), ("arena", 2)])
async def test_an_idle_live_match_holds_at_most_20_kb_however_long_it_ran(env, game: str, seats: int) -> None:
    db, service, clock, _ = env
    rng = random.Random(f"memory:{game}")
    match_id = await start(service, game, seats)
    sizes = []
    # what the worker made before (imports, earlier tests) is left out of every collection below: a
    # full collection then costs what this test makes, not the worker's whole heap (the measure is
    # unchanged: tracemalloc counts what is allocated between the two snapshots)
    gc.collect()
    gc.freeze()
    try:
        await _play_and_measure(service, match_id, rng, game, sizes)
    finally:
        gc.unfreeze()
    assert len(sizes) >= 2, sizes


async def _play_and_measure(service: Any, match_id: int, rng: random.Random, game: str, sizes: list[Any]) -> None:
    """Random moves; every fifth, the idle match frozen and its retained memory measured."""
    for move in range(400):
        if not await random_move(service, match_id, rng):
            break
        live = service.store.cached(match_id)
        if live is None or move % 5:
            continue
        assert not hasattr(live, "log") and not hasattr(live, "recent")  # nothing that grows with the match
        frozen, size = retained_bytes(lambda live=live: FrozenMatch.freeze(live))
        sizes.append((live.length, size))
        assert size <= 20 * 1024, (game, live.length, size)
        thawed = frozen.thaw()  # and it comes back as it was
        assert thawed.state.view(None) == live.state.view(None) and thawed.seat_steps == live.seat_steps


async def test_the_tick_freezes_idle_matches_and_a_touch_thaws_them(env) -> None:
    db, service, clock, _ = env
    rng = random.Random(3)
    match_id = await start(service, "firewall")
    for _ in range(6):
        await random_move(service, match_id, rng)
    views = [await service.view(match_id, s) for s in (None, 0, 1)]
    await service.tick()
    assert service.store.hot == 1  # just played: not idle yet
    assert service.store.freeze_idle(time.monotonic() + service.store.idle_after + 1) == 1
    assert service.store.hot == 0 and len(service.store) == 1
    assert (await service.get(match_id)).status is MatchStatus.ACTIVE  # the record without thawing
    assert service.store.hot == 0
    assert [await service.view(match_id, s) for s in (None, 0, 1)] == views  # thawed on the touch
    assert service.store.hot == 1
    assert await random_move(service, match_id, rng)


# -- snapshots ----------------------------------------------------------------------------------------


async def play_long(service: MatchService, rng: random.Random) -> int:
    """An Arena match long enough for two snapshots, still in play."""
    target = 2 * SNAPSHOT_EVERY + 5
    while True:
        match_id = await start(service, "arena")
        while await service.seat_step(match_id, 0) + await service.seat_step(match_id, 1) < target:
            if not await random_move(service, match_id, rng):
                break
        if (await service.get(match_id)).status is MatchStatus.ACTIVE:
            return match_id


async def everything(service: MatchService, match_id: int) -> list[Any]:
    prompts = [await service.prompt(match_id, s) for s in (0, 1)]
    return [await service.view(match_id, None)] + [(p.seat_step, p.awaited, p.view) for p in prompts]


async def test_a_match_is_rebuilt_from_its_snapshot_and_the_actions_after_it(env) -> None:
    db, service, clock, _ = env
    match_id = await play_long(service, random.Random(5))
    (row,) = await db.fetchall("SELECT upto, engine FROM snapshots WHERE match_id = ?", (match_id,))
    length = await db.fetchval("SELECT COUNT(*) FROM actions WHERE match_id = ?", (match_id,))
    assert row["engine"] == engine_fingerprint() and SNAPSHOT_EVERY <= row["upto"] <= length
    assert length - row["upto"] < SNAPSHOT_EVERY
    want = await everything(service, match_id)

    fresh = service_on(db, clock)
    trips = count_round_trips(db)
    assert await everything(fresh, match_id) == want
    assert trips() <= 4  # the match, its snapshot and the actions after it: one hop
    live = fresh.store.cached(match_id)
    assert live is not None and live.snapshot_upto == row["upto"] and live.length == length

    # a snapshot of another engine version, or one that does not load, is ignored: the log replays
    await db.execute("UPDATE snapshots SET engine = 'another' WHERE match_id = ?", (match_id,))
    assert await everything(service_on(db, clock), match_id) == want
    await db.execute(
        "UPDATE snapshots SET engine = ?, state = ? WHERE match_id = ?",
        (engine_fingerprint(), pickle.dumps({"state": "garbage"}), match_id),
    )
    assert await everything(service_on(db, clock), match_id) == want
    await db.execute("DELETE FROM snapshots")
    assert await everything(service_on(db, clock), match_id) == want


def test_a_snapshot_keeps_the_bookkeeping() -> None:
    from rules.match import Match

    match = Match.new("toy-guess", {"rounds": 3}, seed=3, seats=["A", "B"])
    live = LiveMatch.fresh(None, match.state, 3)  # type: ignore[arg-type]
    for entry in match.log:
        live.logged(entry.seat)
    live.last_own[1] = 0
    again = LiveMatch.from_snapshot(None, 3, live.snapshot())  # type: ignore[arg-type]
    assert (again.length, again.seat_steps, again.last_own, again.last_auto, again.last_actor) == (
        live.length,
        live.seat_steps,
        live.last_own,
        live.last_auto,
        live.last_actor,
    )
    assert again.snapshot_upto == live.length and again.state.view(None) == live.state.view(None)


# -- start-up -------------------------------------------------------------------------------------------


async def test_start_up_loads_the_index_only_whatever_the_number_of_live_matches(env) -> None:
    db, service, clock, _ = env
    costs = []
    for n in (2, 20):
        while len(await service.live_matches_for(100, include_pending=False)) < n:
            await start(service, "toy-guess")
        await service.close()
        fresh = service_on(db, clock)
        trips = count_round_trips(db)
        live = await fresh.recover()
        costs.append(trips())
        assert len(live) == n and len(fresh.store) == 0  # nothing rebuilt yet
    assert costs[0] == costs[1] <= 4


async def test_deadlines_that_passed_while_the_bot_was_down_are_applied_once(env) -> None:
    db, service, clock, path = env
    match_id = await start(service, "toy-guess", options={"rounds": 2})
    record = await service.get(match_id)
    await service.submit(match_id, record.seats[0].user_id, {"type": "guess", "number": 1}, seat_step=0)
    await service.close()
    clock.now += 3 * 3600  # the bot was down past Bob's deadline (and Ann's next one)
    notes = RecordingNotifier()
    second = service_on(db, clock, notes)
    await second.recover()
    report = await second.tick()
    assert [(seat, result) for _, seat, result in report.timeouts] == [(1, TimeoutResult.FORFEIT)]
    assert (await second.get(match_id)).status is MatchStatus.FINISHED
    again = await second.tick()
    assert again.timeouts == []
    await second.close()
    third = service_on(db, clock)
    await third.recover()
    assert (await third.tick()).timeouts == []
    rows = await db.fetchall("SELECT auto FROM actions WHERE match_id = ? AND seat IS NOT NULL", (match_id,))
    assert [r["auto"] for r in rows] == [0, 1]  # Ann's guess, then exactly one forfeit for Bob


# -- upgrade --------------------------------------------------------------------------------------------


async def test_a_database_written_by_the_previous_version_migrates_and_plays_on(tmp_path: Path) -> None:
    """tests/fixtures/db-2fa9e59.sqlite3 was written by the code at 2fa9e59 (made by
    tests/fixtures/make_db_2fa9e59.py): a finished Firewall match, one in play and a challenge."""
    path = tmp_path / "old.sqlite3"
    shutil.copy(FIXTURES / "db-2fa9e59.sqlite3", path)
    clock = Clock(T0)
    clock.now = T0 + 60
    db = await Database.open(path, clock=clock)
    try:
        assert await db.schema_version() >= 6
        tables = {r[0] for r in await db.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert "messages" not in tables and {"outbox", "snapshots"} <= tables
        notes = RecordingNotifier()
        service = service_on(db, clock, notes)
        assert await service.recover() == [2]
        finished, live, pending = [await service.get(i) for i in (1, 2, 3)]
        assert finished.status is MatchStatus.FINISHED and pending.status is MatchStatus.PENDING
        assert await db.fetchval("SELECT finish_seq FROM matches WHERE id = 1") == 1
        assert live.status is MatchStatus.ACTIVE
        # the awaited seat's prompt (custom_ids carry its seat step) still works after the upgrade
        awaited = [s for s in (0, 1) if (await service.prompt(2, s)).awaited]
        assert awaited
        rng = random.Random(9)
        for _ in range(200):
            if not await random_move(service, 2, rng):
                break
        assert (await service.get(2)).status is MatchStatus.FINISHED
        await service.settle()
        rated = await db.fetchall("SELECT match_id FROM rated_matches ORDER BY match_id")
        assert [r[0] for r in rated] == [1, 2]
        assert (await service.accept(3, 3)).started
    finally:
        await db.close()


# -- per-server settings --------------------------------------------------------------------------


async def test_a_servers_turn_time_and_reminders_drive_the_deadlines(target: DbTarget) -> None:
    from bot.servers import ServersService
    from bot.settings import Settings

    clock = Clock(T0)
    db = await target.open(clock=clock)
    try:
        settings = Settings(discord_token="t", database_url=target.url, move_timeout_seconds=3600)
        servers = ServersService(db, settings)
        notes = RecordingNotifier()
        service = MatchService(
            db, notifier=notes, clock=clock, seed_factory=lambda: 3, servers=servers, reminder_before_seconds=300
        )
        await servers.update(10, 1, turn_time_seconds=120)  # guild 10: two minutes a move
        match_id = await start(service, "toy-guess")  # created in guild 10
        record = await service.get(match_id)
        assert [s.deadline_at for s in record.seats] == [T0 + 120, T0 + 120]
        clock.now += 59  # the reminder lead is capped at half the turn time: not yet...
        assert (await service.tick()).reminders == []
        clock.now += 2  # ...now
        assert sorted(seat for _, seat in (await service.tick()).reminders) == [0, 1]
        await servers.update(10, 1, reminders=False)
        other = await start(service, "toy-guess")
        clock.now += 100
        report = await service.tick()
        assert [m for m, _ in report.reminders if m == other] == []  # reminders off in this server
        await servers.update(10, 1, turn_time_seconds=None)  # back to the bot's turn time
        third = await start(service, "toy-guess")
        assert (await service.get(third)).seats[0].deadline_at == clock.now + 3600
    finally:
        await db.close()


# -- several processes on one database (PostgreSQL) ----------------------------------------------------


@pytest.mark.postgres
async def test_two_services_on_one_database_see_each_others_moves_and_refuse_a_duplicate(pg_target: DbTarget) -> None:
    """Two match services (two processes' worth) on one database: each touch checks the match's
    version, so a move made through one is seen by the other; a move from a copy that fell behind
    is retried against a fresh one; the same prompt answered through both counts once."""
    clock = Clock(T0)
    db_a, db_b = await pg_target.open(clock=clock), await pg_target.open(clock=clock)
    try:
        a, b = service_on(db_a, clock), service_on(db_b, clock)
        assert a.store.shared and b.store.shared
        match_id = await start(a, "toy-guess", options={"rounds": 3})
        first = await b.prompt(match_id, 0)  # b caches the match
        await a.submit(match_id, 100, first.decision.choices[0], seat_step=first.seat_step)  # type: ignore[union-attr]
        # b's cached copy is behind: its prompt reloads and shows the move
        assert (await b.prompt(match_id, 0)).seat_step == first.seat_step + 1
        # the same prompt answered through both: one counts, the other is out of date
        now = await a.prompt(match_id, 1)
        action = now.decision.choices[0]  # type: ignore[union-attr]
        await b.submit(match_id, 101, action, seat_step=now.seat_step)
        with pytest.raises(StalePrompt):
            await a.submit(match_id, 101, action, seat_step=now.seat_step)  # a's copy is behind: reload, refuse
        rows = pg_target.sql("SELECT COUNT(*) FROM actions WHERE match_id = ? AND seat IS NOT NULL", match_id)
        assert rows == [(2,)]
        assert pg_target.sql("SELECT version FROM matches WHERE id = ?", match_id)[0][0] >= 3
    finally:
        await db_a.close()
        await db_b.close()


@pytest.mark.postgres
async def test_a_deadline_is_claimed_and_fired_by_one_process(pg_target: DbTarget) -> None:
    clock = Clock(T0)
    db_a, db_b = await pg_target.open(clock=clock), await pg_target.open(clock=clock)
    try:
        notes_a, notes_b = RecordingNotifier(), RecordingNotifier()
        a, b = service_on(db_a, clock, notes_a), service_on(db_b, clock, notes_b)
        match_id = await start(a, "toy-guess", options={"rounds": 3})
        await b.prompt(match_id, 0)
        clock.advance(a.move_timeout + 1)
        # a process that claimed the time-outs and was killed before handling them: its claim holds
        # the others off until its lease ends, then one of them takes it over
        until = clock.now + 30
        await db_a.execute(
            "UPDATE seats SET claimed_by = 'dead', claimed_until = ? WHERE match_id = ?", (until, match_id)
        )
        assert (await a.tick()).timeouts == [] and (await b.tick()).timeouts == []
        clock.advance(30)
        first, second = await a.tick(), await b.tick()
        assert len(first.timeouts) + len(second.timeouts) == 1
        # the claim is cleared by the deadline the time-out set; a claim a dead process left expires
        rows = pg_target.sql("SELECT claimed_by FROM seats WHERE match_id = ? AND deadline_at IS NOT NULL", match_id)
        assert all(r[0] is None for r in rows)
    finally:
        await db_a.close()
        await db_b.close()


@pytest.mark.postgres
async def test_a_lost_connection_mid_move_fails_the_move_readably_and_the_next_one_goes_through(
    pg_target: DbTarget, caplog: pytest.LogCaptureFixture
) -> None:
    clock = Clock(T0)
    db = await pg_target.open(clock=clock)
    try:
        service = service_on(db, clock)
        match_id = await start(service, "toy-guess")
        prompt = await service.prompt(match_id, 0)
        action = prompt.decision.choices[0]  # type: ignore[union-attr]
        pid = await db.fetchval("SELECT pg_backend_pid()")
        assert pg_target.sql("SELECT pg_terminate_backend(?)", pid) == [(True,)]
        with pytest.raises(NotSaved, match="cannot be reached right now, so your move did not count"):
            await service.submit(match_id, 100, action, seat_step=prompt.seat_step)
        # one line for the outage (by the database), no traceback
        lines = [r for r in caplog.records if "database cannot be reached" in r.getMessage()]
        assert len(lines) == 1 and lines[0].exc_info is None and "was lost" in lines[0].getMessage()
        assert [r for r in caplog.records if r.exc_info] == []
        assert pg_target.sql("SELECT COUNT(*) FROM actions WHERE match_id = ? AND seat IS NOT NULL", match_id) == [(0,)]
        moved = await service.submit(match_id, 100, action, seat_step=prompt.seat_step)  # connects again
        assert moved.seat == 0
        assert len([r for r in caplog.records if "database is reachable again" in r.getMessage()]) == 1
        assert pg_target.sql("SELECT COUNT(*) FROM actions WHERE match_id = ? AND seat IS NOT NULL", match_id) == [(1,)]
    finally:
        await db.close()


@pytest.mark.postgres
async def test_two_processes_racing_for_the_last_seat_start_the_match_once(pg_target: DbTarget) -> None:
    """An open table with one seat left, two players joining through two processes at once: the
    database seats one (a conditional insert, the version-guarded start); the other is refused."""
    clock = Clock(T0)
    db_a, db_b = await pg_target.open(clock=clock), await pg_target.open(clock=clock)
    try:
        a, b = service_on(db_a, clock), service_on(db_b, clock)
        record = await a.create_challenge("wizards-cup", None, 10, 20, (100, "Host"), [], open_table=True)
        results = await asyncio.gather(
            a.join(record.id, 201, "Ann"), b.join(record.id, 202, "Bob"), return_exceptions=True
        )
        joined = [r for r in results if not isinstance(r, BaseException)]
        refused = [r for r in results if isinstance(r, BaseException)]
        assert len(joined) == 1 and joined[0].started, results
        assert len(refused) == 1 and isinstance(refused[0], MatchError), refused
        assert pg_target.sql("SELECT COUNT(*) FROM seats WHERE match_id = ?", record.id) == [(2,)]
        assert pg_target.sql("SELECT status FROM matches WHERE id = ?", record.id) == [("active",)]
        assert (
            pg_target.sql("SELECT COUNT(*) FROM outbox WHERE match_id = ? AND kind = 'started'", record.id)[0][0] <= 1
        )
    finally:
        await db_a.close()
        await db_b.close()


@pytest.mark.postgres
async def test_a_dead_processs_notices_are_taken_over_by_the_timer_of_another(pg_target: DbTarget) -> None:
    """A process that committed a move and died before telling anyone: its claimed notices wait
    for their lease, then another process's next timer tick claims and delivers them, once."""
    from bot.matches.store import CLAIM_LEASE

    clock = Clock(T0)
    db_a, db_b = await pg_target.open(clock=clock), await pg_target.open(clock=clock)
    try:
        notes_a, notes_b = RecordingNotifier(fail={"events"}), RecordingNotifier()
        a, b = service_on(db_a, clock, notes_a), service_on(db_b, clock, notes_b)
        match_id = await start(a, "toy-guess", options={"rounds": 3})
        prompt = await a.prompt(match_id, 0)
        # a's delivery of the move's events fails: the notice stays in the outbox, a's claim on it
        with contextlib.suppress(RuntimeError):
            await a.submit(match_id, 100, prompt.decision.choices[0], seat_step=prompt.seat_step)  # type: ignore[union-attr]
        left = pg_target.sql("SELECT claimed_by FROM outbox WHERE match_id = ? AND kind = 'events'", match_id)
        assert len(left) == 1 and left[0][0] is not None

        def told_b() -> int:
            return sum(1 for n in notes_b.notices if n.kind == "events" and n.record.id == match_id)

        for _ in range(3):
            await b.tick()
        assert told_b() == 0  # the lease holds
        clock.advance(CLAIM_LEASE + 1)  # the lease has ended (the turn time has not: no time-outs)
        assert a.move_timeout > CLAIM_LEASE + 1
        await b.tick()
        assert told_b() == 1  # the first tick after the lease
        for _ in range(3):
            await b.tick()
        assert told_b() == 1
        assert pg_target.sql("SELECT COUNT(*) FROM outbox WHERE match_id = ? AND kind = 'events'", match_id) == [(0,)]
    finally:
        await db_a.close()
        await db_b.close()
