"""The running client's own tournament timer does what the tournament tests drive by hand
(tests/test_discord_tournament.py and test_discord_tournament_restart.py call
``bot.tick_tournaments()`` themselves): here the bot is built as ``python -m bot`` builds it
(``build_bot``, timers on), on the real clock, and nobody calls a tick. ``tick_tournaments`` is
watched (counted, then the real one runs), never driven.

A tournament created with ``/tournament create start_time:5s`` stays in sign-up until its planned
time; then the loop (every ``TOURNAMENT_TICK_SECONDS``) starts it: round 1 is announced, its
matches' threads open and the message loses its buttons. A match result alone is not urgent (the
presenter leaves it for the timer): after a ``/forfeit`` the result is recorded but not shown until
the loop's next tick delivers it on the tournament message."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.client import TOURNAMENT_TICK_SECONDS, build_bot
from bot.matches import MatchStatus
from bot.settings import Settings
from db import Database
from db.tournaments import TournamentStatus
from tests.discord_flows import setup_players
from tests.discord_harness.fixtures import discord_harness  # noqa: F401  (pytest fixture)
from tests.test_discord_tournament import create, said

START_IN = 5  # seconds from /tournament create to the planned start (start_time)


def _settings(path: Path) -> Settings:
    return Settings(discord_token="t", database_path=str(path), render_images=False, timer_seconds=1.0)


async def _eventually(check: Callable[[], Awaitable[bool]], timeout: float) -> bool:
    """Poll ``check`` every 0.1 s (real time) until it holds or ``timeout`` seconds passed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if await check():
            return True
        await asyncio.sleep(0.1)
    return await check()


def _announced(h: Any, ch: Any, text: str) -> list[Any]:
    return [m for m in h.messages_in(ch) if text in m.text()]


async def test_the_client_s_tournament_timer_starts_a_planned_tournament_and_delivers_a_result(
    discord_harness,  # noqa: F811
    tmp_path: Path,
) -> None:
    path = tmp_path / "bot.sqlite3"
    db = await Database.open(path)
    bot = build_bot(_settings(path), db)  # timers on, as the bot runs
    begun: list[float] = []  # when each of the loop's ticks began (real clock)
    ticks: list[float] = []  # ... and ended
    real = bot.tick_tournaments

    async def counted() -> None:  # watched, not driven: the loop calls it
        begun.append(time.monotonic())
        await real()
        ticks.append(time.monotonic())

    bot.tick_tournaments = counted  # type: ignore[method-assign]
    try:
        h = await discord_harness(bot)
        task = bot._tournament_task
        assert task is not None and task.get_name() == "tournament timers" and not task.done()
        assert await _eventually(lambda: _true(len(ticks) >= 1), 10)  # its first run, at start-up

        guild, ch, ann, bob = setup_players(h)
        players = [ann, bob, h.add_member(guild, "cy"), h.add_member(guild, "di")]
        by_id = {p.id: p for p in players}
        r = await create(h, ch, ann, rounds=2, start_time=f"{START_IN}s")
        msg = r.message
        tid = int(msg.buttons[0]["custom_id"].rsplit(":", 1)[1])
        for user in players:
            await h.click(user, msg, label="Join")
        await h.settle()

        # before the planned time: the sign-up is open, nothing started (the loop ran, did nothing)
        rec = await bot.tournaments.record(tid)
        planned = rec.start_at
        assert planned is not None and bot.tournaments.now() < planned
        assert rec.status is TournamentStatus.SIGNUP and len(rec.entrants) == 4
        assert {b.get("label") for b in msg.buttons} == {"Join", "Leave"} and "Sign-up open" in msg.text()
        assert h.threads(ch) == [] and not _announced(h, ch, "round 1 of 2 starts")
        assert (await bot.tournaments.view(tid)).current_links() == {}
        assert ticks  # the loop has been running all along

        # nobody calls a tick: the loop starts the tournament once its time has come
        ticks_before_start = len(begun)

        async def started() -> bool:
            view = await bot.tournaments.view(tid)
            links = view.current_links()
            return (
                view.status is TournamentStatus.RUNNING
                and len(links) == 2
                and len(h.threads(ch)) == 2
                and bool(_announced(h, ch, "round 1 of 2 starts"))
            )

        assert await _eventually(started, START_IN + 2 * TOURNAMENT_TICK_SECONDS + 10)
        await bot.tournaments.settle()
        await h.settle()
        rec = await bot.tournaments.record(tid)
        assert rec.status is TournamentStatus.RUNNING and rec.start_at is None
        (started_event,) = [e for e in await bot.tournaments.events(tid) if e.kind == "started"]
        assert started_event.created_at >= planned  # not before its time
        assert len(begun) > ticks_before_start  # the loop did it
        # the message: its buttons gone, the round with its matches' threads (an edit the presenter
        # may defer to the end of its edit window, EDIT_EVERY seconds)
        assert await _eventually(lambda: _true("Round 1 of 2" in msg.text() and "live in <#" in msg.text()), 10)
        assert msg.components == []
        assert len(_announced(h, ch, "round 1 of 2 starts")) == 1
        view = await bot.tournaments.view(tid)
        match_ids = sorted(link.match_id for link in view.current_links().values())
        for match_id in match_ids:
            assert (await bot.service.get(match_id)).status is MatchStatus.ACTIVE

        # one match ends (a player forfeits) just after a tick: the result is recorded at once but
        # (not urgent) left for the timer; the loop's next tick shows it on the message
        first = match_ids[0]
        seats = [s.user_id for s in (await bot.service.get(first)).seats]
        n = len(ticks)
        assert await _eventually(lambda: _true(len(ticks) > n), TOURNAMENT_TICK_SECONDS + 10)
        n = len(begun)
        assert not await bot.tournaments.events(tid, pending_only=True)  # nothing left to deliver
        loser = by_id[seats[0]]
        done = await h.slash(loser, ch, "forfeit", {"match": first})
        assert f"You forfeited match #{first}" in said(done)
        await bot.service.settle()
        await bot.tournaments.settle()
        await h.settle()
        assert (await bot.service.get(first)).status is MatchStatus.FINISHED
        pending = [e.kind for e in await bot.tournaments.events(tid, pending_only=True)]
        assert len(begun) == n, "the timer ticked before the result could be seen undelivered"
        assert "match_result" in pending and "wins" not in msg.text()

        async def shown() -> bool:
            return "wins" in msg.text() and not await bot.tournaments.events(tid, pending_only=True)

        assert await _eventually(shown, TOURNAMENT_TICK_SECONDS + 10)
        assert len(begun) > n  # delivered by the loop's tick
        assert (await bot.tournaments.record(tid)).status is TournamentStatus.RUNNING  # round 2 not yet
        assert not h.violations
        await h.close()
    finally:
        await db.close()


async def _true(value: bool) -> bool:
    return value


async def test_the_client_s_tournament_timer_retries_a_round_start_that_failed(
    discord_harness,  # noqa: F811
    tmp_path: Path,
) -> None:
    """What tests/test_tournament_background.py drives with ``tick()`` by hand (a round's matches
    whose start failed in the background are started by the next tick), done by the running
    client's own tournament loop: the first starts fail, nobody calls a tick, the matches start."""
    path = tmp_path / "bot.sqlite3"
    db = await Database.open(path)
    bot = build_bot(_settings(path), db)  # timers on, as the bot runs
    matches = bot.tournaments.matches
    real = matches.start_arranged
    failures = 0
    failed_at = 0.0
    begun: list[float] = []
    tick = bot.tick_tournaments

    async def flaky(match_id: int) -> Any:  # the first two starts fail (a Discord outage, say)
        nonlocal failures, failed_at
        if failures < 2:
            failures += 1
            failed_at = time.monotonic()
            raise RuntimeError("starting failed")
        return await real(match_id)

    async def watched() -> None:  # watched, not driven: the loop calls it
        begun.append(time.monotonic())
        await tick()

    matches.start_arranged = flaky  # type: ignore[method-assign]
    bot.tick_tournaments = watched  # type: ignore[method-assign]
    try:
        h = await discord_harness(bot)
        guild, ch, ann, bob = setup_players(h)
        players = [ann, bob, h.add_member(guild, "cy"), h.add_member(guild, "di")]
        r = await create(h, ch, ann, rounds=2, start_time=f"{START_IN}s")
        tid = int(r.message.buttons[0]["custom_id"].rsplit(":", 1)[1])
        for user in players:
            await h.click(user, r.message, label="Join")
        await h.settle()

        async def all_started() -> bool:
            links = (await bot.tournaments.view(tid)).current_links()
            if len(links) != 2:
                return False
            statuses = [(await bot.service.get(link.match_id)).status for link in links.values()]
            return all(s is MatchStatus.ACTIVE for s in statuses)

        assert await _eventually(all_started, START_IN + 4 * TOURNAMENT_TICK_SECONDS + 10)
        assert failures == 2  # the first attempt failed ...
        assert any(t > failed_at for t in begun)  # ... and a later tick of the loop's own retried
        await h.close()
    finally:
        await db.close()
