"""A real bot process for the crash test (tests/test_crash_recovery.py): the RefereeBot as
``python -m bot`` builds it (``build_bot``, its timer loop on) on an SQLite file, inside a fake
Discord whose world outlives the process (a journal file: tests/discord_harness/persist.py), driven
through slash commands and buttons like any Discord flow. Nobody calls the service's tick: the
client's own timer loop does what a restart needs.

    python -m tests.crash_bot start DB WORLD   # Ann challenges Bob, Bob accepts; the process is
                                               # killed (SIGKILL) as the first notice of the start
                                               # is handed to Discord: after the commit, before
                                               # delivery
    python -m tests.crash_bot resume DB WORLD  # a new process on the same database and Discord:
                                               # start-up, then wait (at most two timer periods)
                                               # until every awaited player has their prompt, and
                                               # print (JSON) who got which prompt by DM, and when
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import time
from typing import Any

from bot.client import build_bot
from bot.settings import Settings
from db import Database
from tests.discord_flows import in_match, setup_players
from tests.discord_harness import DiscordHarness

#: The timer loop's period in these processes (TIMER_SECONDS).
TIMER = 1.0


async def harness(path: str, world: str) -> tuple[DiscordHarness, Any, Database, float]:
    """The bot on ``path`` inside the Discord of ``world``, and when it began to log in."""
    db = await Database.open(path)
    settings = Settings(discord_token="test-token", database_path=path, render_images=False, timer_seconds=TIMER)
    bot = build_bot(settings, db)  # timers on, as the bot runs
    bot.service._seed_factory = lambda: 20261123
    login = time.monotonic()
    return await DiscordHarness.create(bot, persist=world), bot, db, login


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


async def start(path: str, world: str) -> None:
    h, bot, db, _ = await harness(path, world)
    guild, ch, ann, bob = setup_players(h)
    r = await h.slash(ann, ch, "challenge", {"game": "wizards-cup", "opponent": bob})
    kill_on_first_notice(bot)
    await h.click(bob, r.message, label="Accept")
    raise SystemExit("the process should have been killed")


def prompts_of(h: DiscordHarness, user: Any) -> list[Any]:
    return [m for m in h.dms_to(user) if m.components]


async def resume(path: str, world: str) -> None:
    h, bot, db, login = await harness(path, world)
    try:
        await _resume(h, bot, login)
    finally:
        await h.close(raise_errors=False)
        await db.close()


async def _resume(h: DiscordHarness, bot: Any, login: float) -> None:
    users = {u.name: u for u in h.server.users.values()}
    ann, bob = users["ann"], users["bob"]
    (ch,) = [c for c in h.server.channels.values() if c.name == "duels"]
    live = await bot.service.db.fetchall("SELECT id FROM matches WHERE status = 'active'")
    (match_id,) = [row[0] for row in live]
    awaited = [u.name for seat, u in enumerate((ann, bob)) if (await bot.service.prompt(match_id, seat)).awaited]
    waited = None
    while time.monotonic() - login < 3 * TIMER:  # the goal is two periods: a third tells by how much it missed
        if all(prompts_of(h, users[name]) for name in awaited):
            waited = time.monotonic() - login  # since the restarted client began to log in
            break
        await asyncio.sleep(0.02)
    await asyncio.sleep(TIMER)  # one more period: nothing is delivered twice
    await h.settle()
    out: dict[str, Any] = {"match": match_id, "awaited": awaited, "prompts": {}, "waited": waited, "timer": TIMER}
    for user in (ann, bob):
        out["prompts"][user.name] = [m.text() for m in prompts_of(h, user)]
    out["outbox"] = (await bot.service.db.fetchval("SELECT COUNT(*) FROM outbox")) or 0
    out["channel"] = [m.text() for m in in_match(h, ch)]
    print(json.dumps(out))


if __name__ == "__main__":
    command, db_path, world_path = sys.argv[1:4]
    asyncio.run({"start": start, "resume": resume}[command](db_path, world_path))
