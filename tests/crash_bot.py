"""A real bot process for the crash test (tests/test_crash_recovery.py): the RefereeBot on an SQLite
file inside the fake Discord, driven through slash commands and buttons like any Discord flow.

    python -m tests.crash_bot start DB IDS   # Ann challenges Bob, Bob accepts; the process is
                                             # killed (SIGKILL) as the first notice of the start is
                                             # handed to Discord: after the commit, before delivery
    python -m tests.crash_bot resume DB IDS  # a new process on the same database: start-up, then
                                             # print (JSON) who got which prompt by DM

IDS keeps the fake Discord's snowflakes, so the second process sees the same guild, channel and users.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

from bot.client import build_bot
from bot.settings import Settings
from db import Database
from tests.discord_flows import RecordingIds, in_match, setup_players
from tests.discord_harness import DiscordHarness


async def harness(path: str) -> tuple[DiscordHarness, Any, Database]:
    db = await Database.open(path)
    settings = Settings(discord_token="test-token", database_path=path, render_images=False)
    bot = build_bot(settings, db, run_timers=False)
    bot.service._seed_factory = lambda: 20261123
    return await DiscordHarness.create(bot), bot, db


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


async def start(path: str, ids_file: str) -> None:
    h, bot, db = await harness(path)
    ids = h.server.ids = RecordingIds(h.server.ids)
    guild, ch, ann, bob = setup_players(h)
    Path(ids_file).write_text(json.dumps(ids.given))
    r = await h.slash(ann, ch, "challenge", {"game": "wizards-cup", "opponent": bob})
    kill_on_first_notice(bot)
    await h.click(bob, r.message, label="Accept")
    raise SystemExit("the process should have been killed")


async def resume(path: str, ids_file: str) -> None:
    # This fake Discord has the same guild, channel and users, but not the first process's messages:
    # the challenge message the start would edit is gone (a real Discord still has it).
    pre = await Database.open(path)
    await pre.execute("UPDATE matches SET message_id = NULL")
    await pre.close()
    h, bot, db = await harness(path)
    try:
        await _resume(h, bot, ids_file)
    finally:
        await h.close(raise_errors=False)
        await db.close()


async def _resume(h: DiscordHarness, bot: Any, ids_file: str) -> None:
    h.server.ids = RecordingIds(h.server.ids, replay=json.loads(Path(ids_file).read_text()))
    guild, ch, ann, bob = setup_players(h)
    await bot.service.tick()  # the timer loop's first tick, right after start-up
    await h.settle()
    live = await bot.service.db.fetchall("SELECT id FROM matches WHERE status = 'active'")
    (match_id,) = [row[0] for row in live]
    out: dict[str, Any] = {"match": match_id, "awaited": [], "prompts": {}}
    for seat, user in enumerate((ann, bob)):
        sp = await bot.service.prompt(match_id, seat)
        if sp.awaited:
            out["awaited"].append(user.name)
        dms = [m for m in h.dms_to(user) if m.components]
        out["prompts"][user.name] = [m.text() for m in dms]
    out["outbox"] = (await bot.service.db.fetchval("SELECT COUNT(*) FROM outbox")) or 0
    out["channel"] = [m.text() for m in in_match(h, ch)]
    print(json.dumps(out))


if __name__ == "__main__":
    command, db_path, ids = sys.argv[1:4]
    asyncio.run({"start": start, "resume": resume}[command](db_path, ids))
