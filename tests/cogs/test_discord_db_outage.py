"""The database unavailable, in players' words (issue 30, part 5): the real bot in the fake Discord
on a PostgreSQL server of its own, which the test stops in the middle of play and starts again.

While it is down, every interaction (a slash command, a lobby button, a move in a private prompt)
gets one clear ephemeral line, "The database cannot be reached right now; nothing was changed",
and nothing changes; the log has one warning for the outage (not a traceback per click, nor one
per run of the timer loop). Once the server is back, the same clicks work without a restart (the
connection pool reconnects) and the log says once that the database is reachable again.

SQLite: a file locked by another process (past the busy timeout) is the same outage.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.pgserver import PgServer, find_bindir
from bot.client import build_bot
from bot.errors import UNAVAILABLE_TEXT
from bot.settings import Settings
from db import Database
from tests.discord_flows import SEED, latest_prompt, setup_players

pytestmark = pytest.mark.postgres

UNAVAILABLE = f"⚠️ {UNAVAILABLE_TEXT}"


@pytest.fixture
def own_server() -> Iterator[PgServer]:
    """A PostgreSQL server for this test alone (the session's shared one is never stopped)."""
    bindir = find_bindir()
    if bindir is None:
        pytest.fail("PostgreSQL server binaries were not found (set PG_BINDIR)", pytrace=False)
    server = PgServer(bindir, prefix="wr-outage-")
    try:
        server.start()
        yield server
    finally:
        server.stop()


def reply(result: Any) -> str:
    """What the player read: the ephemeral answer, or the follow-up after a deferral."""
    seen = {m.id: m for m in [*result.messages, *result.followups] if m.ephemeral}
    return "\n".join(t for m in seen.values() if (t := m.text()))


def outage_lines(caplog: pytest.LogCaptureFixture) -> tuple[list[str], list[str], list[logging.LogRecord]]:
    """(the 'cannot be reached' lines, the 'reachable again' lines, records with a traceback or
    at ERROR level) in the captured log."""
    messages = [r.getMessage() for r in caplog.records]
    down = [m for m in messages if "database cannot be reached" in m]
    back = [m for m in messages if "database is reachable again" in m]
    loud = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    return down, back, loud


@pytest.mark.slow
async def test_postgres_stopped_mid_play_every_click_gets_one_clear_line_and_recovers(
    own_server: PgServer, discord_harness: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    db = await Database.open(own_server.url())
    try:
        settings = Settings(discord_token="test-token", database_path="unused.sqlite3", render_images=False)
        bot = build_bot(settings, db, run_timers=False)
        bot.service._seed_factory = lambda: SEED
        h = await discord_harness(bot)
        guild, ch, ann, bob = setup_players(h)
        cy = h.add_member(guild, "cy")

        # a match in play (ann vs bob) and a challenge waiting for cy
        r = await h.slash(ann, ch, "challenge", {"opponent": bob, "game": "wizards-cup"})
        await h.click(bob, r.message, label="Accept")
        await h.settle()
        (match,) = await bot.service.live_matches_for(ann.id, include_pending=False)
        waiting = (await h.slash(ann, ch, "challenge", {"opponent": cy, "game": "firewall"})).message
        await h.settle()
        prompts = {u.id: latest_prompt(h.dms_to(u)) for u in (ann, bob)}
        assert all(prompts.values())
        before = await db.fetchall("SELECT id, status, version FROM matches ORDER BY id")
        log_before = await db.fetchval("SELECT COUNT(*) FROM actions")

        async def move(user: Any) -> Any:
            """The first step of the user's private prompt (a select, else a button)."""
            msg = prompts[user.id]
            if msg.selects:
                sel = msg.selects[0]
                values = [o["value"] for o in sel["options"]][: sel.get("min_values", 1)]
                return await h.select(user, msg, sel["custom_id"], values)
            return await h.click(user, msg, msg.buttons[0]["custom_id"])

        # -- the server stops ----------------------------------------------------------------
        caplog.clear()
        own_server.pause()
        answers = {
            "/challenge": await h.slash(ann, ch, "challenge", {"opponent": cy, "game": "magic-duel"}),
            "Accept": await h.click(cy, waiting, label="Accept"),
            "a move (ann)": await move(ann),
            "a move (bob)": await move(bob),
            "/status": await h.slash(bob, ch, "status"),
        }
        await h.settle()
        for _ in range(3):  # the timer loop runs into the outage too
            stop = asyncio.Event()
            loop = asyncio.create_task(bot.service.run_timers(0.01, stop=stop))
            await asyncio.sleep(0.1)
            stop.set()
            await loop
        for what, answer in answers.items():
            assert reply(answer) == UNAVAILABLE, f"{what}: {reply(answer)!r}"
        down, back, loud = outage_lines(caplog)
        assert len(down) == 1, down
        assert back == [] and loud == [], [r.getMessage() for r in loud]

        # -- the server is back: nothing had changed, and the same clicks work ----------------
        own_server.resume()
        assert await db.fetchall("SELECT id, status, version FROM matches ORDER BY id") == before
        assert await db.fetchval("SELECT COUNT(*) FROM actions") == log_before
        down, back, loud = outage_lines(caplog)
        assert len(down) == 1 and len(back) == 1 and loud == [], (down, back, [r.getMessage() for r in loud])

        accepted = await h.click(cy, waiting, label="Accept")
        await h.settle()
        assert UNAVAILABLE not in reply(accepted)
        assert len(await bot.service.live_matches_for(cy.id, include_pending=False)) == 1  # cy's match started
        for user in (ann, bob):
            answer = await move(user)
            await h.settle()
            assert UNAVAILABLE not in reply(answer) and "Something went wrong" not in reply(answer)
        again = await h.slash(ann, ch, "challenge", {"opponent": cy, "game": "magic-duel"})
        await h.settle()
        assert again.message is not None and "challenges" in again.message.text()
        assert (await bot.service.get(match.id)).status in ("active", "finished")
        _, _, loud = outage_lines(caplog)
        assert loud == [], [r.getMessage() for r in loud]
    finally:
        await db.close()


async def test_sqlite_locked_by_another_process_gets_the_same_line(
    make: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    h, bot, db = await make(tmp_path / "locked.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    waiting = (await h.slash(ann, ch, "challenge", {"opponent": bob, "game": "wizards-cup"})).message
    await h.settle()
    caplog.clear()
    other = sqlite3.connect(tmp_path / "locked.sqlite3", timeout=0.1)
    try:
        await db.execute("PRAGMA busy_timeout = 200")  # (the bot's is 5 s: the test need not wait that long)
        other.execute("BEGIN EXCLUSIVE")  # another process holds the file's write lock
        refused = await h.click(bob, waiting, label="Accept")
        await h.settle()
        assert reply(refused) == UNAVAILABLE, reply(refused)
        down, back, loud = outage_lines(caplog)
        assert len(down) == 1 and back == [] and loud == [], (down, [r.getMessage() for r in loud])
    finally:
        other.rollback()
        other.close()
    accepted = await h.click(bob, waiting, label="Accept")
    await h.settle()
    assert UNAVAILABLE not in reply(accepted)
    assert len(await bot.service.live_matches_for(ann.id, include_pending=False)) == 1
    down, back, loud = outage_lines(caplog)
    assert len(down) == 1 and len(back) == 1 and loud == [], (down, back)
