"""The running client's own timer loop, for the test files that drive it one pass at a time
with a fake clock (test_match_turn_time.py, test_discord_stats.py, test_discord_replay.py,
test_discord_ending.py, test_service_golden.py for the recordings of tests/golden/service.py, and
the service tests of tests/bot: test_match_service.py, test_replays.py, test_notices_typed.py and the
tournament tests' match timers, whose tournament passes go through :func:`tournament_timer_pass`; the
tournaments' twin, for test_tournament_golden.py, is in tests/bot/test_tournament_background.py): the bot
built as ``python -m bot`` builds it (``build_bot``, timers on, a short ``TIMER_SECONDS``), on the
real clock, nobody calling tick. Each of those files has a test here-built that shows the loop doing
the work its other tests drive by hand."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.client import build_bot
from bot.matches import MatchStatus
from bot.settings import Settings
from db import Database
from tests.discord_flows import setup_players

TURN = 3  # seconds a seat has for each move (MOVE_TIMEOUT_SECONDS)


async def running_bot(tmp_path: Path) -> tuple[Any, Database]:
    """The bot as ``python -m bot`` builds it (``build_bot``, timers on) on a file in ``tmp_path``,
    and its database (the caller closes it, or hands both to :func:`running_firewall_match`)."""
    path = tmp_path / "bot.sqlite3"
    db = await Database.open(path)
    return build_bot(running_settings(path), db), db  # timers on, as the bot runs


def running_settings(path: Path) -> Settings:
    return Settings(
        discord_token="t",
        database_path=str(path),
        render_images=False,
        move_timeout_seconds=TURN,
        reminder_before_seconds=1,
        timer_seconds=1.0,
    )


@asynccontextmanager
async def running_firewall_match(
    discord_harness: Any, tmp_path: Path, built: tuple[Any, Database] | None = None
) -> AsyncIterator[tuple[Any, ...]]:
    """The running bot (timers on) with a live Firewall match of Ann (seat 0) and Bob in ``ch``:
    ``(h, bot, ch, ann, bob, record, ticks)``, where ``ticks()`` counts the loop's calls of
    ``service.tick`` (watched, not driven). ``built``: the (bot, database) the caller built with
    :func:`running_bot` (else built here the same way)."""
    bot, db = built if built is not None else await running_bot(tmp_path)
    count = 0
    real = bot.service.tick

    async def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal count
        count += 1
        return await real(*args, **kwargs)

    bot.service.tick = counted  # type: ignore[method-assign]
    try:
        h = await discord_harness(bot)
        guild, ch, ann, bob = setup_players(h)
        r = await h.slash(ann, ch, "challenge", {"game": "firewall", "opponent": bob})
        await h.click(bob, r.message, label="Accept")
        (record,) = await bot.service.live_matches_for(ann.id, include_pending=False)
        yield h, bot, ch, ann, bob, record, lambda: count
        await h.close()
    finally:
        await db.close()


async def first_seat_moves(bot: Any, record: Any, ann: Any) -> None:
    """Ann (seat 0) makes her first choice; Bob, who then owes a move, stays silent."""
    sp = await bot.service.prompt(record.id, 0)
    await bot.service.submit(record.id, ann.id, sp.decision.choices[0], seat_step=sp.seat_step)


async def until_not_active(h: Any, bot: Any, match_id: int) -> None:
    """Wait on the real clock (at most a turn's time and 10 s) for the running client's own timer
    loop to end the match; nothing here calls ``tick()``."""
    deadline = time.monotonic() + TURN + 10
    while (await bot.service.get(match_id)).status is MatchStatus.ACTIVE and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    await h.settle()


async def timer_pass(service: Any) -> Any:
    """One pass of the match service's own timer loop (``MatchService.run_timers``, the loop the
    running client runs, ``RefereeBot._run_match_timers``), on the service's clock: the loop's
    sleep ends it after its first run, so a test on a fake clock drives the same code as the bot.
    Returns what that run did (the report the loop itself discards), for the tests that assert it."""
    stop = asyncio.Event()
    reports: list[Any] = []
    real = service.tick

    async def watched() -> Any:
        reports.append(await real())
        return reports[-1]

    async def after_one_run(seconds: float) -> None:
        stop.set()

    service.tick = watched
    try:
        await service.run_timers(sleep=after_one_run, stop=stop)
    finally:
        del service.tick  # (the instance attribute: the method shows through again)
    return reports[0]


async def tournament_timer_pass(tournaments: Any) -> Any:
    """One pass of the running client's tournament timer loop (``RefereeBot._run_tournament_timers``
    and its ``tick_tournaments``, the client's own code) over a tournament service without Discord
    (no presenter), on the service's clock; returns what that run's tick did."""
    from types import SimpleNamespace

    from bot.client import RefereeBot

    stop = asyncio.Event()
    reports: list[Any] = []
    real = tournaments.tick

    async def watched() -> Any:
        reports.append(await real())
        stop.set()  # the loop ends after this run
        return reports[-1]

    client = SimpleNamespace(tournaments=SimpleNamespace(tick=watched), tournament_presenter=None, _stop_timers=stop)
    client.tick_tournaments = lambda: RefereeBot.tick_tournaments(client)  # type: ignore[arg-type]
    await RefereeBot._run_tournament_timers(client)  # type: ignore[arg-type]
    return reports[0]


async def eventually(check: Callable[[], Awaitable[bool]], timeout: float) -> bool:
    """Poll ``check`` every 0.1 s on the real clock until it holds or ``timeout`` seconds passed
    (the running client's loops do the work meanwhile)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if await check():
            return True
        await asyncio.sleep(0.1)
    return await check()
