"""Practice matches in the match service (no Discord): computer seats think in a real process pool
and play through the same path as a person's move; practice is never rated (nor rebuilt into the
ratings); a restart resumes a computer that was about to move; a computer that cannot decide in
time plays a default and the match goes on; a decision the match outran is dropped; hints are for
the practice player's own awaited move only; the seats, names and refusals of a table with
computers; a rematch keeps the computers."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import pickle
import random
import threading
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.matches import InvalidChallenge, MatchService, NoHint, StalePrompt
from bot.ratings import RatingService
from bot.thinker import decision_seed, think
from bot.thinker import hint as hint_in_worker
from db import Database, MatchStatus
from rules.match import Match, MatchLog
from tests.conftest import DbTarget
from tests.fakes import Clock, RecordingNotifier

T0 = 1_700_000_000
ANN, BOB = (1, "Ann"), (2, "Bob")


@contextlib.asynccontextmanager
async def stuck_service(env: Any, **kw: Any) -> AsyncIterator[tuple[MatchService, Stuck]]:
    """A service whose computers think in a :class:`Stuck` pool."""
    db, notes, clock, _ = env
    stuck = Stuck()
    svc = service(db, notes, clock, ai_executor=stuck, **kw)
    try:
        yield svc, stuck
    finally:
        stuck.shutdown(wait=False)
        await svc.close()


def service(db: Database, notes: RecordingNotifier, clock: Clock, **kw: Any) -> MatchService:
    kw.setdefault("ai_pace_seconds", 0.0)
    return MatchService(db, notifier=notes, clock=clock, seed_factory=lambda: 11, **kw)


@pytest.fixture
async def env(target: DbTarget) -> AsyncIterator[tuple[Database, RecordingNotifier, Clock, str]]:
    """On each backend (SQLite file, PostgreSQL schema): the database, a notifier, the clock and
    the database's URL (to open it again, as a restart does)."""
    clock = Clock(T0)
    db = await target.open(clock=clock)
    yield db, RecordingNotifier(), clock, target.url
    if not db.closed:
        await db.close()


@pytest.fixture
def threads() -> Any:
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=2)
    yield pool
    pool.shutdown(wait=True, cancel_futures=True)


async def play_person(svc: MatchService, match_id: int, user: int, seed: int = 3, limit: int = 500) -> int:
    """The person plays random legal moves until the match ends (the computers move meanwhile)."""
    rng = random.Random(seed)
    for moves in range(limit):
        await svc.computers_settle()
        record = await svc.get(match_id)
        if record.status is not MatchStatus.ACTIVE:
            return moves
        seat = record.seat_of(user)
        assert seat is not None
        sp = await svc.prompt(match_id, seat)
        assert sp.awaited, "the computer neither moved nor left the move to the person"
        choices = sp.legal_actions
        await svc.submit(match_id, user, choices[rng.randrange(len(choices))], seat_step=sp.seat_step)
    raise AssertionError("the match did not end")


@pytest.mark.slow
async def test_a_practice_match_is_played_by_computers_in_worker_processes_and_never_rated(env) -> None:
    db, notes, clock, _ = env
    svc = service(db, notes, clock)  # the real pool: spawned worker processes
    try:
        record = await svc.practice("firewall", None, 10, 20, ANN, "easy")
        assert record.practice and record.status is MatchStatus.PENDING
        assert [(s.user_id, s.ai, s.accepted) for s in record.seats] == [(1, None, True), (-1, "easy", True)]
        assert (await svc.start_if_ready(record.id)).started
        await play_person(svc, record.id, ANN[0])
        assert isinstance(svc.computer.executor, concurrent.futures.ProcessPoolExecutor)
        assert svc.computer.decisions > 0 and svc.computer.fallbacks == 0
        done = await svc.get(record.id)
        assert done.status is MatchStatus.FINISHED and done.outcome is not None
        # the computer was never sent a prompt or a reminder
        assert {n.seat for n in notes.notices if n.kind in ("prompt", "reminder")} == {0}
        # recorded and replayable
        log = MatchLog.model_validate(await svc.match_log(record.id))
        assert Match.replay(log).state.outcome is not None
        # never rated, not even by a rebuild
        await svc.settle()
        assert await db.fetchall("SELECT * FROM rating_queue") == []
        assert await db.fetchall("SELECT * FROM rated_matches") == []
        report = await RatingService(db).rebuild()
        assert report.matches == 0 and report.changes == 0
        assert await RatingService(db).verify() == []
        ending = await svc.ending(record.id, wait=0.5)
        assert not ending.rated and not ending.ratings_pending
    finally:
        await svc.close()


async def test_a_computer_decision_is_fixed_by_the_match_and_the_moment(env) -> None:
    match = Match.new("wizards-cup", None, seed=4, seats=["Ann", "Merlin"])
    blob = pickle.dumps(match.state)
    seed = decision_seed(4, 2, 1)
    assert seed == decision_seed(4, 2, 1) != decision_seed(4, 3, 1)
    seat = min(match.state.awaiting.seats)
    assert think(blob, seat, "easy", seed) == think(blob, seat, "easy", seed)


async def test_a_restart_resumes_the_computer_that_was_to_move(env, threads) -> None:
    db, notes, clock, path = env
    slow = service(db, notes, clock, ai_executor=threads, ai_pace_seconds=600)  # never gets to move
    record = await slow.practice("wizards-cup", None, 10, 20, ANN, "easy")
    await slow.start_if_ready(record.id)
    await asyncio.sleep(0)
    assert slow.computer.thinking() == 1
    await slow.close()  # the process ends with the computer's move not made
    await db.close()
    db2 = await Database.open(path, clock=clock)
    try:
        svc = service(db2, notes, clock, ai_executor=threads)
        await svc.recover()
        await svc.tick()  # the timer's first tick finds the waiting computer
        await svc.computers_settle()
        steps = await svc.seat_step(record.id, 1)
        assert steps >= 1
        await play_person(svc, record.id, ANN[0])
        assert (await svc.get(record.id)).status is MatchStatus.FINISHED
        await svc.close()
    finally:
        await db2.close()


class Stuck(concurrent.futures.Executor):
    """A pool whose work never finishes (until released)."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=4)

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        def wait() -> Any:
            self.release.wait(30)
            return fn(*args, **kwargs)

        return self.pool.submit(wait)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.release.set()
        self.pool.shutdown(wait=wait, cancel_futures=cancel_futures)


async def test_a_computer_that_cannot_decide_in_time_plays_a_default_move(env) -> None:
    async with stuck_service(env, ai_think_seconds=0.2) as (svc, stuck):
        record = await svc.practice("firewall", None, 10, 20, ANN, "hard")
        await svc.start_if_ready(record.id)
        await svc.computers_settle()
        assert svc.computer.fallbacks >= 1 and svc.computer.decisions >= 1
        assert await svc.seat_step(record.id, 1) >= 1  # the match went on


async def test_a_decision_the_match_outran_is_dropped(env) -> None:
    db = env[0]
    async with stuck_service(env) as (svc, stuck):
        record = await svc.practice("wizards-cup", None, 10, 20, ANN, "easy")
        await svc.start_if_ready(record.id)
        await asyncio.sleep(0.05)
        assert svc.computer.thinking() == 1
        await svc.forfeit(record.id, ANN[0])  # the match ends while the computer thinks
        stuck.release.set()
        await svc.computers_settle()
        assert svc.computer.decisions == 0  # its decision came too late and changed nothing
        done = await svc.get(record.id)
        assert done.status is MatchStatus.FINISHED
        assert await db.fetchval("SELECT COUNT(*) FROM actions WHERE match_id = ? AND seat = 1", (record.id,)) == 0


@pytest.mark.slow
async def test_hints_only_for_the_practice_players_own_current_move(env, threads) -> None:
    db, notes, clock, _ = env
    svc = service(db, notes, clock, ai_executor=threads)
    try:
        # not a practice match
        rated = await svc.create_challenge("firewall", None, 10, 20, ANN, [BOB])
        await svc.accept(rated.id, BOB[0])
        with pytest.raises(NoHint, match="practice matches"):
            await svc.hint(rated.id, ANN[0])
        record = await svc.practice("firewall", None, 10, 20, (3, "Cy"), "normal")
        with pytest.raises(Exception, match="not started"):
            await svc.hint(record.id, 3)
        await svc.start_if_ready(record.id)
        await svc.computers_settle()
        sp = await svc.prompt(record.id, 0)
        assert sp.awaited
        hint = await svc.hint(record.id, 3, sp.seat_step)
        assert 0.0 <= hint.chance <= 1.0 and hint.text.startswith("You bet")
        assert svc.store.cached(record.id).state.is_legal(
            0, svc.store.cached(record.id).state.game.parse_action(hint.action)
        )
        with pytest.raises(StalePrompt):
            await svc.hint(record.id, 3, sp.seat_step + 1)
        with pytest.raises(Exception, match="not a player"):
            await svc.hint(record.id, BOB[0])
        # the hint of a seat step is kept: asked again (or played by its Play this), the same one
        assert await svc.hint(record.id, 3) is hint
        # not kept any more (a restart): worked out again with the same seed, the same move
        svc.computer._hints.clear()
        again = await svc.hint(record.id, 3, sp.seat_step)
        assert again.action == hint.action and again.chance == hint.chance and again is not hint
        assert again.games > 0 and 0 < again.tries <= again.games
        # one hint at a time (while one is being worked out)
        svc.computer._hints.clear()
        gate = asyncio.Event()  # the first hint's worker waits here: it is being worked out meanwhile
        run = svc.computer._run

        async def held(limit: float, fn: Any, *args: Any) -> Any:
            if fn is hint_in_worker:  # (the computer seats' own moves go on)
                await gate.wait()
            return await run(limit, fn, *args)

        svc.computer._run = held  # type: ignore[method-assign]
        first = asyncio.create_task(svc.hint(record.id, 3))
        while (record.id, sp.seat) not in svc.computer._hinting:  # (match, seat)
            assert not first.done(), first
            await asyncio.sleep(0.001)
        with pytest.raises(NoHint, match="already being worked out"):
            await svc.hint(record.id, 3)
        gate.set()
        await first
        svc.computer._run = run  # type: ignore[method-assign]
        # not the player's move any more
        await svc.submit(record.id, 3, sp.legal_actions[0], seat_step=sp.seat_step)
        live = svc.store.cached(record.id)
        if live is not None and 0 not in live.awaited():
            with pytest.raises(NoHint, match="not your move"):
                await svc.hint(record.id, 3)
        # nothing a hint does changes the match
        assert await svc.seat_step(record.id, 0) == sp.seat_step + 1
    finally:
        await svc.close()


async def test_tables_with_computers_seats_names_and_refusals(env, threads) -> None:
    db, notes, clock, _ = env
    svc = service(db, notes, clock, ai_executor=threads)
    try:
        table = await svc.create_challenge("magic-duel", None, 10, 20, ANN, [BOB], computers=["easy", "hard"])
        assert [s.display_name for s in table.seats] == ["Ann", "Bob", "Merlin (AI, easy)", "Morgana (AI, hard)"]
        assert [s.accepted for s in table.seats] == [True, False, True, True] and table.practice
        assert not (await svc.start_if_ready(table.id)).started  # Bob has not accepted
        assert (await svc.accept(table.id, BOB[0])).started
        with pytest.raises(InvalidChallenge, match="at most 2 players; you named 1 players and 2 computer"):
            await svc.create_challenge("firewall", None, 10, 20, ANN, [], computers=["easy", "easy"])
        with pytest.raises(InvalidChallenge, match="Unknown level"):
            await svc.practice("firewall", None, 10, 20, ANN, "grandmaster")
        with pytest.raises(InvalidChallenge, match="reserved"):
            await svc.create_challenge("firewall", None, 10, 20, ANN, [(-1, "Merlin")])
        with pytest.raises(InvalidChallenge, match="at least one computer"):
            await svc.practice("firewall", None, 10, 20, ANN, "easy", computers=0)
        assert await db.fetchval("SELECT COUNT(*) FROM matches") == 1
    finally:
        await svc.close()


async def test_a_practice_rematch_keeps_the_computers_and_starts_at_once(env, threads) -> None:
    db, notes, clock, _ = env
    svc = service(db, notes, clock, ai_executor=threads)
    try:
        record = await svc.practice("wizards-cup", None, 10, 20, ANN, "easy")
        await svc.start_if_ready(record.id)
        await svc.forfeit(record.id, ANN[0])
        again = await svc.rematch(record.id, ANN[0])
        assert again.practice and [(s.user_id, s.ai) for s in again.seats] == [(-1, "easy"), (1, None)]
        assert (await svc.start_if_ready(again.id)).started
        await svc.computers_settle()
        assert await svc.seat_step(again.id, 0) >= 1  # the computer, now first, has moved
    finally:
        await svc.close()


@pytest.mark.slow
async def test_a_thinking_computer_never_holds_up_other_matches(env) -> None:
    async with stuck_service(env) as (svc, stuck):
        practice = await svc.practice("wizards-cup", None, 10, 20, ANN, "hard")
        await svc.start_if_ready(practice.id)
        await asyncio.sleep(0.05)
        assert svc.computer.thinking() == 1
        # meanwhile a match between people plays on, and the loop answers at once
        other = await svc.create_challenge("firewall", None, 10, 20, BOB, [(3, "Cy")])
        await svc.accept(other.id, 3)
        loop = asyncio.get_running_loop()
        for seat, user in ((0, BOB[0]), (1, 3)):
            sp = await svc.prompt(other.id, seat)
            started = loop.time()
            await svc.submit(other.id, user, sp.legal_actions[0], seat_step=sp.seat_step)
            assert loop.time() - started < 1.0
        assert await svc.seat_step(other.id, 0) == 1 and await svc.seat_step(other.id, 1) == 1
        assert svc.computer.thinking() == 1  # still thinking, in its pool
        stuck.release.set()
        await svc.computers_settle()
        assert await svc.seat_step(practice.id, 1) >= 1


@pytest.mark.postgres
async def test_with_two_processes_one_thinks_for_a_computer_seat(pg_target, threads) -> None:
    """Two processes on one PostgreSQL database, both running the timer: the computer seat is
    claimed by the process that thinks for it, so the other one's timer does not think too (the
    version guard would keep the match right, but the search would run twice). A claim a killed
    process left expires after its lease, as a time-out's does (tests/bot/test_match_service_store.py)."""
    clock = Clock(T0)
    db_a, db_b = await pg_target.open(clock=clock), await pg_target.open(clock=clock)
    stuck = Stuck()  # a thinks until released
    a = service(db_a, RecordingNotifier(), clock, ai_executor=stuck)
    b = service(db_b, RecordingNotifier(), clock, ai_executor=threads)
    try:
        record = await a.practice("wizards-cup", None, 10, 20, ANN, "easy")
        await a.start_if_ready(record.id)  # a is told the computer is asked: a thinks
        for _ in range(50):
            if a.computer.thinking() and await db_a.fetchval(
                "SELECT claimed_by FROM seats WHERE match_id = ? AND seat = 1", (record.id,)
            ):
                break
            await asyncio.sleep(0.01)
        assert a.computer.thinking() == 1
        await b.tick()  # b's timer finds the waiting computer seat, claimed by a: b does not think
        await b.computers_settle()
        assert b.computer.decisions == 0
        stuck.release.set()
        await a.computers_settle()
        assert a.computer.decisions >= 1 and b.computer.decisions == 0
        assert await a.seat_step(record.id, 1) >= 1
        claim = await db_a.fetchone("SELECT claimed_by FROM seats WHERE match_id = ? AND seat = 1", (record.id,))
        assert claim is not None  # (cleared by the computer's move when it set a new deadline)
    finally:
        stuck.release.set()
        stuck.shutdown(wait=False)
        await a.close()
        await b.close()
        await db_a.close()
        await db_b.close()
