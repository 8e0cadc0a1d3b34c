"""Rating a finish without holding the write lock (issue 33; bot/ratings.py ``catch_up``): the
queue and the standings are read, the ratings computed, and one checked batch written that holds
only if nothing it was computed from changed meanwhile (db/ratings.py ``save_checked``). When it
does not hold, the game's queue is rated again under its lock, and the numbers are always those a
rebuild gives."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.matches.moves import Moves
from bot.ratings import Ladders, RatingService, compute
from db import StaleWrite
from db.ratings import RatingsRepository
from tests.bot.ratings_env import ANN, BOB, CY, DEE, Env, make_env, play_toy, re_rates, snapshot, two_processes
from tests.conftest import DbTarget

pytestmark = pytest.mark.usefixtures("toy_game")  # the toy game (tests/toy_game.py) is registered

GAME = "toy-guess"


@pytest.fixture
async def env(target: DbTarget) -> AsyncIterator[Env]:
    """The match service on a fresh database of each backend (as tests/bot/test_ratings.py's)."""
    made = await make_env(target.url)
    yield made
    await made.db.close()


async def test_a_finish_is_rated_in_one_checked_batch_without_a_transaction(env: Env) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Moves, "rate", lambda self, record: None)  # the finish waits in the queue
        match_id = await play_toy(env, [ANN, BOB])
    written: list[Any] = []
    real = RatingsRepository.save_checked

    async def spy(self: RatingsRepository, *args: Any) -> None:
        written.append(args[0])
        await real(self, *args)

    transactions = 0
    real_transaction = type(env.db).transaction

    def counting(self: Any) -> Any:
        nonlocal transactions
        transactions += 1
        return real_transaction(self)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(RatingsRepository, "save_checked", spy)
        patch.setattr(type(env.db), "transaction", counting)
        changes = await RatingService(env.db).catch_up(GAME)
    assert {ch.match_id for ch in changes} == {match_id}
    assert [[m.match_id for m in matches] for matches in written] == [[match_id]]
    assert transactions == 0  # no transaction holds the database across round trips
    assert await env.repo.queued() == []
    assert await RatingService(env.db).verify() == []


async def test_a_standing_changed_meanwhile_sends_the_rating_under_the_lock(
    env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    """Another process rated Ann's later match (C) after this one read the queue (B only) and
    before it wrote: the checked batch finds Ann's standing is no longer the one it read, nothing
    is written, and the locked path rates B and then C again, in finish order."""
    await play_toy(env, [ANN, BOB])  # rated at once
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Moves, "rate", lambda self, record: None)  # finishes wait in the queue
        b = await play_toy(env, [ANN, CY])
        c = await play_toy(env, [ANN, DEE])
    real_read = RatingsRepository.standings_and_later
    real_save = RatingsRepository.save_checked
    refused: list[BaseException] = []
    first = True

    async def unrated(self: RatingsRepository, game: str) -> Any:
        pending = await real_unrated(self, game)
        return [m for m in pending if m.match_id == b] if first else pending  # read before C was queued

    async def standings_and_later(self: RatingsRepository, game: str, *args: Any, **kwargs: Any) -> Any:
        nonlocal first
        read = await real_read(self, game, *args, **kwargs)
        if first:  # the other process rates C now, after this one read Ann's standing
            first = False
            other = [m for m in await real_unrated(self, game) if m.match_id == c]
            pairs = {(scope, uid) for m in other for scope in m.scopes for uid in m.user_ids}
            made = compute(other, Ladders(game, await self.standings(game, pairs)))
            await self.save(made.matches, made.counted, made.changes, made.standings)
        return read

    real_unrated = RatingsRepository.unrated

    async def save_checked(self: RatingsRepository, *args: Any) -> None:
        try:
            await real_save(self, *args)
        except StaleWrite as exc:
            refused.append(exc)
            raise

    caplog.set_level("INFO", logger="bot.ratings")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(RatingsRepository, "unrated", unrated)
        patch.setattr(RatingsRepository, "standings_and_later", standings_and_later)
        patch.setattr(RatingsRepository, "save_checked", save_checked)
        changes = await RatingService(env.db).catch_up(GAME)
    assert len(refused) == 1
    assert {ch.match_id for ch in changes} == {b, c}  # B rated, C rated again after it
    assert len(re_rates(caplog)) == 1
    assert await RatingService(env.db).verify() == []
    before = await snapshot(env)
    await RatingService(env.db).rebuild()
    assert await snapshot(env) == before


async def test_a_match_rated_meanwhile_is_not_rated_twice(env: Env) -> None:
    """Another process rated the queued match between this one's read and its write: the queue
    row is gone, the checked batch writes nothing, and the locked path finds nothing to do."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Moves, "rate", lambda self, record: None)
        match_id = await play_toy(env, [ANN, BOB])
    real = RatingsRepository.standings_and_later
    raced = False

    async def standings_and_later(self: RatingsRepository, *args: Any, **kwargs: Any) -> Any:
        nonlocal raced
        read = await real(self, *args, **kwargs)
        if not raced:
            raced = True
            await RatingService(self.db)._catch_up_locked(GAME)  # the other process, first
        return read

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(RatingsRepository, "standings_and_later", standings_and_later)
        assert await RatingService(env.db).catch_up(GAME) == []
    rows = await env.db.fetchall("SELECT match_id FROM rating_changes")
    assert sorted(r[0] for r in rows) == [match_id] * 4  # two players on two ladders, once
    assert await RatingService(env.db).verify() == []


@pytest.mark.postgres
async def test_a_checked_rating_waits_for_a_rating_under_the_lock_in_another_process(pg_target: DbTarget) -> None:
    """PostgreSQL, two processes: while one rates the queue under the game's lock, the other's
    checked batch (which takes the same lock first) waits for it, then finds the match rated and
    writes nothing: no duplicate rating, no error."""
    async with two_processes(pg_target.url) as (env, other):
        db = env.db
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(Moves, "rate", lambda self, record: None)
            match_id = await play_toy(env, [ANN, BOB])
        paused, go = asyncio.Event(), asyncio.Event()
        real = RatingsRepository.standings

        async def slow(self: RatingsRepository, game: str, pairs: Any) -> Any:
            found = await real(self, game, pairs)
            if self.db is other:  # the other process, inside its locked transaction
                paused.set()
                await go.wait()
            return found

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(RatingsRepository, "standings", slow)
            locked = asyncio.create_task(RatingService(other)._catch_up_locked(GAME))
            await paused.wait()
            quick = asyncio.create_task(RatingService(db).catch_up(GAME))
            await asyncio.sleep(0.3)
            assert not quick.done()  # held by the game's lock
            go.set()
            assert {ch.match_id for ch in await locked} == {match_id}
            assert await quick == []
        assert await env.repo.queued() == []
        assert await RatingService(db).verify() == []
