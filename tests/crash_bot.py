"""A real bot process for the crash test (tests/bot/test_crash_recovery.py): the RefereeBot as
``python -m bot`` builds it (``build_bot``, its timer loop on) on an SQLite file, inside a fake
Discord whose world outlives the process (a journal file: tests/discord_harness/persist.py), driven
through slash commands and buttons like any Discord flow. Nobody calls the service's tick: the
client's own timer loop does what a restart needs.

    python -m tests.crash_bot setup DB WORLD   # only the world: guild, channel, Ann and Bob
    python -m tests.crash_bot start DB WORLD   # Ann challenges Bob, Bob accepts; the process is
                                               # killed (SIGKILL) as the first notice of the start
                                               # is handed to Discord: after the commit, before
                                               # delivery
    python -m tests.crash_bot resume DB WORLD  # a new process on the same database and Discord:
                                               # start-up, then wait (at most two timer periods)
                                               # until every awaited player has their prompt, and
                                               # print (JSON) who got which prompt by DM, and when
    python -m tests.crash_bot practice DB WORLD         # Ann starts a practice Firewall match; the
                                                        # process is killed as the computer is asked
                                                        # to move (committed, before it thinks)
    python -m tests.crash_bot resume-practice DB WORLD  # a new process: print (JSON) when the
                                                        # computer made its move (nobody asks it to)

DB is an SQLite file or a PostgreSQL URL; ``CRASH_LEASE`` (seconds) shortens a process's claims
(tests/survivor_bot.py is the other process of the PostgreSQL test).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import time
from collections.abc import Callable
from typing import Any

from bot.client import build_bot
from bot.settings import Settings
from db import Database
from tests.discord_flows import in_match, setup_players
from tests.discord_harness import DiscordHarness

#: The timer loop's period in these processes (TIMER_SECONDS).
TIMER = 1.0


#: PostgreSQL: the seconds a process's claims (its notices, its timed-out seats) keep the others
#: away (CLAIM_LEASE in the bot; short here, so a survivor takes over soon).
LEASE = int(os.environ.get("CRASH_LEASE", "0")) or None


def settings_for(path: str) -> Settings:
    where = {"database_url": path} if path.startswith("postgres") else {"database_path": path}
    return Settings(discord_token="test-token", render_images=False, timer_seconds=TIMER, **where)


async def bot_on(path: str) -> tuple[Any, Database]:
    """The bot as ``python -m bot`` builds it (timers on) on the database at ``path`` (a file, or a
    PostgreSQL URL), not logged in yet."""
    db = await Database.open(path)
    bot = build_bot(settings_for(path), db)  # timers on, as the bot runs
    bot.service._seed_factory = lambda: 20261123
    if LEASE is not None:
        bot.service.store.set_lease(LEASE)
    return bot, db


async def harness(path: str, world: str) -> tuple[DiscordHarness, Any, Database, float]:
    """The bot on ``path`` inside the Discord of ``world``, and when it began to log in."""
    bot, db = await bot_on(path)
    login = time.monotonic()
    return await DiscordHarness.create(bot, persist=world), bot, db, login


def players(h: DiscordHarness) -> tuple[Any, Any, Any]:
    """The duels channel, Ann and Bob: made in a new world, found in a persisted one."""
    users = {u.name: u for u in h.server.users.values()}
    if "ann" not in users:
        guild, ch, ann, bob = setup_players(h)
        return ch, ann, bob
    (ch,) = [c for c in h.server.channels.values() if c.name == "duels"]
    return ch, users["ann"], users["bob"]


def count_ticks(bot: Any, done: Callable[[], bool]) -> dict[str, Any]:
    """Watch the timer loop's runs (the loop calls ``service.tick``; this only counts them): the
    returned dict has ``ticks`` (runs finished) and ``by`` (how many had finished when ``done()``
    first held, looked at as each run ends: the period count a load-independent goal needs)."""
    seen: dict[str, Any] = {"ticks": 0, "by": None}
    real = bot.service.tick

    async def counted(*args: Any, **kwargs: Any) -> Any:
        try:
            return await real(*args, **kwargs)
        finally:
            seen["ticks"] += 1
            if seen["by"] is None and done():
                seen["by"] = seen["ticks"]

    bot.service.tick = counted
    return seen


def kill_on_first_notice(bot: Any) -> None:
    """Wrap the installed notifier: its first call (after the start's commit) kills the process."""
    notifier = bot.service.notifier

    class Dying:
        def __getattr__(self, name: str) -> Any:
            if name.startswith("on_"):

                async def die(*args: Any) -> Any:
                    os.kill(os.getpid(), signal.SIGKILL)

                return die
            return getattr(notifier, name)

    bot.service.notifier = Dying()


async def setup(path: str, world: str) -> None:
    """Only the world (guild, channel, players), for other processes to start from."""
    h, bot, db, _ = await harness(path, world)
    players(h)
    await h.close(raise_errors=False)
    await db.close()


async def start(path: str, world: str) -> None:
    h, bot, db, _ = await harness(path, world)
    ch, ann, bob = players(h)
    r = await h.slash(ann, ch, "challenge", {"game": "wizards-cup", "opponent": bob})
    kill_on_first_notice(bot)
    await h.click(bob, r.message, label="Accept")
    raise SystemExit("the process should have been killed")


async def practice(path: str, world: str) -> None:
    h, bot, db, _ = await harness(path, world)
    guild, ch, ann, bob = setup_players(h)

    def die(record: Any, seat: int) -> None:  # the computer is prompted: the start is committed
        os.kill(os.getpid(), signal.SIGKILL)

    bot.service.ctx.on_computer = die
    await h.slash(ann, ch, "practice", {"game": "firewall", "level": "easy"})
    raise SystemExit("the process should have been killed")


async def resume_practice(path: str, world: str) -> None:
    h, bot, db, login = await harness(path, world)
    try:
        (match_id,) = [r[0] for r in await bot.service.db.fetchall("SELECT id FROM matches WHERE status = 'active'")]
        record = await bot.service.get(match_id)
        (computer,) = [s.seat for s in record.seats if s.ai is not None]
        waited = None
        while time.monotonic() - login < 2 * TIMER + 15:  # two timer periods, then its thinking and pace
            if await bot.service.seat_step(match_id, computer) > 0:
                waited = time.monotonic() - login
                break
            await asyncio.sleep(0.05)
        print(json.dumps({"match": match_id, "waited": waited, "pace": bot.settings.ai_pace_seconds, "timer": TIMER}))
    finally:
        await h.close(raise_errors=False)
        await db.close()


def prompts_of(h: DiscordHarness, user: Any) -> list[Any]:
    return [m for m in h.dms_to(user) if m.components]


async def resume(path: str, world: str) -> None:
    bot, db = await bot_on(path)
    holder: dict[str, DiscordHarness] = {}

    def delivered() -> bool:  # both players have their prompt (the only awaited seats here)
        h = holder.get("h")
        users = {u.name: u for u in h.server.users.values()} if h is not None else {}
        return bool(users) and all(prompts_of(h, users[name]) for name in ("ann", "bob"))  # type: ignore[arg-type]

    ticks = count_ticks(bot, delivered)
    login = time.monotonic()
    h = holder["h"] = await DiscordHarness.create(bot, persist=world)
    try:
        await _resume(h, bot, login, ticks)
    finally:
        await h.close(raise_errors=False)
        await db.close()


async def _resume(h: DiscordHarness, bot: Any, login: float, ticks: dict[str, Any]) -> None:
    users = {u.name: u for u in h.server.users.values()}
    ann, bob = users["ann"], users["bob"]
    (ch,) = [c for c in h.server.channels.values() if c.name == "duels"]
    live = await bot.service.db.fetchall("SELECT id FROM matches WHERE status = 'active'")
    (match_id,) = [row[0] for row in live]
    awaited = [u.name for seat, u in enumerate((ann, bob)) if (await bot.service.prompt(match_id, seat)).awaited]
    waited = None
    while ticks["ticks"] < 3 and time.monotonic() - login < 3 * TIMER + 30:  # two periods; a third says if it missed
        if waited is None and all(prompts_of(h, users[name]) for name in awaited):
            waited = time.monotonic() - login  # since the restarted client began to log in
        await asyncio.sleep(0.02)
    await h.settle()
    out: dict[str, Any] = {"match": match_id, "awaited": awaited, "prompts": {}, "waited": waited, "timer": TIMER}
    out["ticks"] = ticks["by"]  # timer runs finished when both prompts were there
    for user in (ann, bob):
        out["prompts"][user.name] = [m.text() for m in prompts_of(h, user)]
    out["outbox"] = (await bot.service.db.fetchval("SELECT COUNT(*) FROM outbox")) or 0
    out["channel"] = [m.text() for m in in_match(h, ch)]
    print(json.dumps(out))


if __name__ == "__main__":
    command, db_path, world_path = sys.argv[1:4]
    commands = {
        "setup": setup,
        "start": start,
        "resume": resume,
        "practice": practice,
        "resume-practice": resume_practice,
    }
    asyncio.run(commands[command](db_path, world_path))
