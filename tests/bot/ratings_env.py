"""The match service on a database for the ratings tests (tests/bot/test_ratings.py,
tests/bot/test_ratings_unlocked.py): players, :func:`make_env`, two processes on one database, toy
matches played to a chosen result, and what the ratings store (:func:`snapshot`)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import pytest

from bot.matches import MatchService
from db import Database, MatchStatus, RatingsRepository
from tests.fakes import Clock

T0 = 1_700_000_000
GUILD_A, GUILD_B = 111, 222
ANN, BOB, CY, DEE = (1, "Ann"), (2, "Bob"), (3, "Cy"), (4, "Dee")


@dataclass
class Env:
    db: Database
    service: MatchService
    clock: Clock
    path: str

    @property
    def repo(self) -> RatingsRepository:
        return RatingsRepository(self.db)


async def make_env(url: str, clock: Clock | None = None) -> Env:
    """The match service (toy seeds from 1000) on a database opened at ``url``."""
    clock = Clock(T0) if clock is None else clock
    db = await Database.open(url, clock=clock)
    seeds = iter(range(1000, 100_000))
    return Env(db, MatchService(db, clock=clock, seed_factory=lambda: next(seeds)), clock, url)


@asynccontextmanager
async def two_processes(url: str) -> AsyncIterator[tuple[Env, Database]]:
    """The match service on one connection to ``url``, and another process's database beside it."""
    env = await make_env(url)
    other = await Database.open(url, clock=env.clock)
    try:
        yield env, other
    finally:
        await other.close()
        await env.db.close()


async def start_toy(env: Env, players: Sequence[tuple[int, str]], guild: int | None = GUILD_A) -> int:
    record = await env.service.create_challenge("toy-guess", {"high": 10}, guild, 5, players[0], list(players[1:]))
    for uid, _ in players[1:]:
        result = await env.service.accept(record.id, uid)
    assert result.started
    return record.id


async def secret_of(db: Database, match_id: int) -> int:
    rows = await db.actions.for_match(match_id)
    return [r.action["number"] for r in rows if r.seat is None][-1]


async def play_toy(
    env: Env, players: Sequence[tuple[int, str]], winners: Sequence[int] = (0,), guild: int | None = GUILD_A
) -> int:
    """A finished toy match: the seats in ``winners`` guess the secret, the others miss by far;
    no winners: everyone guesses the same (a draw). The clock moves on 60 s per match."""
    env.clock.now += 60
    match_id = await start_toy(env, players, guild)
    await finish_toy(env, match_id, players, winners)
    return match_id


async def finish_toy(env: Env, match_id: int, players: Sequence[tuple[int, str]], winners: Sequence[int]) -> None:
    """Play a started toy match to its end (see :func:`play_toy`), without moving the clock."""
    secret = await secret_of(env.db, match_id)
    far = 10 if secret <= 5 else 1
    for seat, (uid, _) in enumerate(players):
        number = secret if seat in winners else far
        await env.service.submit(match_id, uid, {"type": "guess", "number": number}, seat_step=None)
    await env.service.settle()  # the rating follows the acknowledgement
    record = await env.service.get(match_id)
    assert record.status is MatchStatus.FINISHED


async def snapshot(env: Env | Database) -> tuple[list[Any], list[Any], list[Any]]:
    """Everything the ratings store: changes, standings, and which matches are rated (a standing's
    next settling time apart: a migrated row is due at once, a rebuilt one at its next step)."""
    db = env.db if isinstance(env, Env) else env
    repo = RatingsRepository(db)
    rated = await db.fetchall(
        "SELECT match_id, game, finished_at, finish_seq, counted FROM rated_matches ORDER BY match_id"
    )
    return (
        await repo.all_changes(),
        [(s.facts(), s.ordinal, s.display, s.listed) for s in await repo.all_standings()],
        [tuple(r) for r in rated],
    )


def re_rates(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "bot.ratings" and "re-rating" in r.getMessage()]
