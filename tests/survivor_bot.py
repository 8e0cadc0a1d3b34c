"""The surviving process of the PostgreSQL crash test (tests/bot/test_crash_recovery.py): the bot as
``python -m bot`` builds it (``build_bot``, timers on) on one PostgreSQL database with another bot
process (tests/crash_bot.py), inside its own fake Discord (a copy of the world both started from).

    CRASH_LEASE=N python -m tests.survivor_bot URL WORLD

It prints ``{"ready": true}`` once connected, then waits for a line on stdin: the other process
has died with notices it had claimed. It reads when their lease ends (the outbox's
``claimed_until``), watches its own timer loop (the loop calls ``service.tick``; nobody else does)
and prints, once Ann and Bob both have their prompt in its Discord, how many of its timer runs had
started after the lease ended by the end of the run that delivered them (the goal: two), whether
anything had been delivered before the lease ended, and each player's prompts.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from typing import Any

from tests.crash_bot import bot_on, prompts_of
from tests.discord_harness import DiscordHarness


async def survive(url: str, world: str) -> None:
    bot, db = await bot_on(url)
    seen: dict[str, Any] = {"after_lease": 0, "by": None, "early": False, "until": None}
    holder: dict[str, DiscordHarness] = {}

    def prompted() -> bool:
        h = holder.get("h")
        if h is None:
            return False
        users = {u.name: u for u in h.server.users.values()}
        return all(prompts_of(h, users[name]) for name in ("ann", "bob"))

    real = bot.service.tick

    async def watched(*args: Any, **kwargs: Any) -> Any:
        began = time.time()
        try:
            return await real(*args, **kwargs)
        finally:
            until = seen["until"]
            if until is not None and int(began) >= until:
                seen["after_lease"] += 1
            if until is not None and seen["by"] is None and prompted():
                seen["by"] = seen["after_lease"]
                seen["early"] = seen["after_lease"] == 0

    bot.service.tick = watched
    h = holder["h"] = await DiscordHarness.create(bot, persist=world)
    try:
        print(json.dumps({"ready": True}), flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)  # the other one died
        until = await db.fetchval("SELECT MAX(claimed_until) FROM outbox")
        seen["until"] = int(until) if until is not None else int(time.time())
        while seen["by"] is None and time.time() < seen["until"] + 30:
            await asyncio.sleep(0.05)
        users = {u.name: u for u in h.server.users.values()}
        out = {k: seen[k] for k in ("by", "early", "until")}
        out["prompts"] = {name: [m.text() for m in prompts_of(h, users[name])] for name in ("ann", "bob")}
        out["outbox"] = await db.fetchval("SELECT COUNT(*) FROM outbox")
        print(json.dumps(out), flush=True)
    finally:
        await h.close(raise_errors=False)
        await db.close()


if __name__ == "__main__":
    asyncio.run(survive(sys.argv[1], sys.argv[2]))
