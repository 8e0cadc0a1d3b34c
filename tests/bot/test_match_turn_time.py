"""A turn time that belongs to the match (a tournament's): MatchService.arrange(turn_time=...)
stores it on the match (migration 0013), and it wins over the server's /settings turn time for
deadlines, reminders and time-outs, across a restart. Both backends.

The clock is faked and the timer loop driven one pass at a time here (``timer_pass``); the last
test here shows the running client (``build_bot``, timers on, the real clock) reminding and timing
out a silent player on its own."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest

from bot.matches import MAX_TURN_SECONDS, MIN_TURN_SECONDS, InvalidChallenge, MatchService, TimeoutResult
from bot.servers import ServersService
from bot.settings import Settings
from db import Database, MatchRecord, MatchStatus
from tests.conftest import DbTarget
from tests.discord_flows import in_match
from tests.discord_harness.fixtures import discord_harness  # noqa: F401  (pytest fixture)
from tests.fakes import Clock, RecordingNotifier
from tests.running_timer import first_seat_moves, running_firewall_match, timer_pass, until_not_active

pytestmark = pytest.mark.usefixtures("toy_game")  # the toy game (tests/toy_game.py) is registered

T0 = 1_700_000_000
GUILD, PLAIN_GUILD, CHANNEL, ADMIN = 10, 11, 20, 99
ANN, BOB = (1, "Ann"), (2, "Bob")
GAME = "toy-guess"
SERVER_TURN = 3600  # the server's /settings turn time
BOT_TURN = 1800  # the bot's MOVE_TIMEOUT_SECONDS
REMINDER = 300  # the bot's reminder lead
OPTIONS = {"rounds": 3}


@dataclass
class Env:
    db: Database
    service: MatchService
    notes: RecordingNotifier
    clock: Clock
    target: DbTarget

    async def arranged(self, turn_time: int | None = None, guild: int = GUILD) -> MatchRecord:
        made = await self.service.arrange(GAME, OPTIONS, guild, CHANNEL, [ANN, BOB], turn_time=turn_time)
        result = await self.service.start_arranged(made.id)
        assert result.started
        return result.record

    async def guess(self, match_id: int, user: tuple[int, str], number: int = 1) -> None:
        seat = (await self.service.get(match_id)).seat_of(user[0])
        assert seat is not None
        step = await self.service.seat_step(match_id, seat)
        await self.service.submit(match_id, user[0], {"type": "guess", "number": number}, seat_step=step)

    async def deadlines(self, match_id: int) -> list[int | None]:
        return [s.deadline_at for s in (await self.service.get(match_id)).seats]

    def stored_deadlines(self, match_id: int) -> list[Any]:
        return [
            r[0] for r in self.target.sql("SELECT deadline_at FROM seats WHERE match_id = ? ORDER BY seat", match_id)
        ]


async def make_env(target: DbTarget, clock: Clock) -> Env:
    db = await target.open(clock=clock)
    settings = Settings(discord_token="t", database_url=target.url, move_timeout_seconds=BOT_TURN)
    servers = ServersService(db, settings)
    notes = RecordingNotifier()
    service = MatchService(
        db,
        notifier=notes,
        clock=clock,
        servers=servers,
        move_timeout_seconds=BOT_TURN,
        reminder_before_seconds=REMINDER,
        seed_factory=lambda: 7,
    )
    return Env(db, service, notes, clock, target)


@pytest.fixture
async def env(target: DbTarget) -> AsyncIterator[Env]:
    made = await make_env(target, Clock(T0))
    assert made.service.ctx.servers is not None
    await made.service.ctx.servers.update(GUILD, ADMIN, turn_time_seconds=SERVER_TURN)
    yield made
    await made.service.close()
    await made.db.close()


# -- deadlines, reminders, time-outs -----------------------------------------------------------------


async def test_an_arranged_match_runs_on_its_own_turn_time(env: Env) -> None:
    record = await env.arranged(turn_time=120)
    assert record.turn_time_seconds == 120
    assert env.target.sql("SELECT turn_time_seconds FROM matches WHERE id = ?", record.id) == [(120,)]
    assert await env.deadlines(record.id) == [T0 + 120, T0 + 120]  # not the server's 3600
    assert env.stored_deadlines(record.id) == [T0 + 120, T0 + 120]
    # every move: the seats awaited on a new step get now + 120
    env.clock.advance(30)
    await env.guess(record.id, ANN)
    assert await env.deadlines(record.id) == [None, T0 + 120]  # Bob still on the same step
    env.clock.advance(30)
    await env.guess(record.id, BOB)  # round 2
    assert await env.deadlines(record.id) == [T0 + 180, T0 + 180]
    env.clock.advance(50)
    await env.guess(record.id, BOB)
    await env.guess(record.id, ANN)  # round 3
    deadline = T0 + 110 + 120
    assert await env.deadlines(record.id) == [deadline, deadline]
    assert env.stored_deadlines(record.id) == [deadline, deadline]
    # the reminder comes at most half the turn time (60 s) before the deadline, not the bot's 300 s
    env.clock.now = deadline - 300
    assert (await timer_pass(env.service)).reminders == []
    env.clock.now = deadline - 61
    assert (await timer_pass(env.service)).reminders == []
    env.clock.now = deadline - 60
    assert sorted((await timer_pass(env.service)).reminders) == [(record.id, 0), (record.id, 1)]
    assert [(n.seat, n.deadline) for n in env.notes.of("reminder", record.id)] == [(0, deadline), (1, deadline)]
    # ...and the time-out after 120 s, not 3600
    await env.guess(record.id, ANN)
    env.clock.now = deadline - 1
    assert (await timer_pass(env.service)).timeouts == []
    env.clock.now = deadline
    assert (await timer_pass(env.service)).timeouts == [(record.id, 1, TimeoutResult.FORFEIT)]
    final = await env.service.get(record.id)
    assert final.status is MatchStatus.FINISHED and final.summary == "Bob ran out of time; Ann wins."
    assert final.turn_time_seconds == 120


async def test_a_match_without_its_own_turn_time_keeps_the_servers(env: Env) -> None:
    arranged = await env.arranged()
    challenge = await env.service.create_challenge(GAME, OPTIONS, GUILD, CHANNEL, ANN, [(3, "Cy")])
    started = (await env.service.accept(challenge.id, 3)).record
    plain = await env.arranged(guild=PLAIN_GUILD)  # a server that never chose: the bot's turn time
    assert arranged.turn_time_seconds is None and started.turn_time_seconds is None
    assert env.target.sql("SELECT turn_time_seconds FROM matches WHERE id = ?", arranged.id) == [(None,)]
    assert await env.deadlines(arranged.id) == [T0 + SERVER_TURN, T0 + SERVER_TURN]
    assert await env.deadlines(started.id) == [T0 + SERVER_TURN, T0 + SERVER_TURN]
    assert await env.deadlines(plain.id) == [T0 + BOT_TURN, T0 + BOT_TURN]
    # the server's turn time also sets the reminder lead: the bot's 300 s (under half of 3600)
    env.clock.now = T0 + SERVER_TURN - REMINDER - 1
    assert [m for m, _ in (await timer_pass(env.service)).reminders if m != plain.id] == []
    env.clock.now = T0 + SERVER_TURN - REMINDER
    reminded = {m for m, _ in (await timer_pass(env.service)).reminders}
    assert {arranged.id, started.id} <= reminded
    env.clock.advance(60)
    await env.guess(arranged.id, ANN)
    await env.guess(arranged.id, BOB)
    assert await env.deadlines(arranged.id) == [env.clock.now + SERVER_TURN] * 2


async def test_the_turn_time_survives_a_restart(target: DbTarget) -> None:
    clock = Clock(T0)
    first = await make_env(target, clock)
    assert first.service.ctx.servers is not None
    await first.service.ctx.servers.update(GUILD, ADMIN, turn_time_seconds=SERVER_TURN)
    record = await first.arranged(turn_time=90)
    await first.guess(record.id, ANN)
    await first.service.close()
    await first.db.close()

    second = await make_env(target, clock)  # a new process on the same database
    try:
        assert await second.service.recover() == [record.id]
        found = await second.service.get(record.id)
        assert found.turn_time_seconds == 90 and [s.deadline_at for s in found.seats] == [None, T0 + 90]
        clock.advance(40)
        await second.guess(record.id, BOB)  # round 2, deadlines from the match's own turn time
        assert await second.deadlines(record.id) == [T0 + 40 + 90, T0 + 40 + 90]
        clock.now = T0 + 40 + 90 - 45
        assert sorted((await timer_pass(second.service)).reminders) == [(record.id, 0), (record.id, 1)]
        await second.guess(record.id, BOB)
        clock.now = T0 + 40 + 90
        assert (await timer_pass(second.service)).timeouts == [(record.id, 0, TimeoutResult.FORFEIT)]
    finally:
        await second.service.close()
        await second.db.close()


# -- validation --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("turn_time", "message"),
    [
        (5, "between 10 seconds and 7 days; 5 seconds is too short"),
        (0, "0 seconds is too short"),
        (-60, "-60 seconds is too short"),
        (10**9, "is too long"),
        (MAX_TURN_SECONDS + 1, "7 days 1 second is too long"),
        ("x", "whole number of seconds, not 'x'"),
        (120.5, "whole number of seconds"),
        (True, "whole number of seconds"),
    ],
)
async def test_a_bad_turn_time_is_refused_and_nothing_is_written(env: Env, turn_time: Any, message: str) -> None:
    with pytest.raises(InvalidChallenge, match=message):
        await env.service.arrange(GAME, OPTIONS, GUILD, CHANNEL, [ANN, BOB], turn_time=turn_time)
    assert env.target.sql("SELECT COUNT(*) FROM matches") == [(0,)]
    assert env.target.sql("SELECT COUNT(*) FROM players") == [(0,)]


@pytest.mark.parametrize("turn_time", [MIN_TURN_SECONDS, MAX_TURN_SECONDS])
async def test_the_bounds_are_allowed(env: Env, turn_time: int) -> None:
    record = await env.arranged(turn_time=turn_time)
    assert record.turn_time_seconds == turn_time
    assert await env.deadlines(record.id) == [T0 + turn_time, T0 + turn_time]
    from bot.tournaments import service as tournaments

    assert (MIN_TURN_SECONDS, MAX_TURN_SECONDS) == (tournaments.MIN_TURN_SECONDS, tournaments.MAX_TURN_SECONDS)


# -- the running client's own loop ---------------------------------------------------------------


@pytest.mark.slow
async def test_the_client_s_timer_loop_reminds_and_times_out_a_silent_player(discord_harness, tmp_path) -> None:  # noqa: F811
    """What the tests above drive with ``tick()`` on a fake clock, done by the bot as ``python -m bot``
    builds it (``build_bot``, timers on) on the real clock, nobody calling tick: a player who goes
    silent while the other has moved is reminded, then forfeits, and the result is posted."""
    async with running_firewall_match(discord_harness, tmp_path) as (h, bot, ch, ann, bob, record, ticks):
        await first_seat_moves(bot, record, ann)
        await until_not_active(h, bot, record.id)
        final = await bot.service.get(record.id)
        assert final.status is MatchStatus.FINISHED  # Bob forfeited by time
        assert [s["result"] for s in final.outcome["seats"]] == ["win", "loss"]
        told = [m.text() for m in in_match(h, ch)] + [m.text() for m in h.dms_to(bob)]
        assert any("your move is due" in t for t in told)  # the reminder, before the time-out
        assert any("ran out of time and forfeits" in t for t in told)
        assert ticks() >= 2  # the loop ran on its own
        # the delivered notices are deleted by the loop's flush, not by a later move (there is none)
        left = -1
        for _ in range(200):
            left = await bot.service.db.fetchval("SELECT COUNT(*) FROM outbox WHERE match_id = ?", (record.id,))
            if left == 0:
                break
            await asyncio.sleep(0.1)
        assert left == 0
