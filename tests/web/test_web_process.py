"""``python -m bot web`` (issue 35, part 1; bot/web_process.py, docs/web.md): the web table in its own
OS process beside a bot process on one PostgreSQL database. The bot is the real client
(``build_bot``, timers on, nobody calling tick) inside the fake Discord; the web process is started
as an operator starts it. A move made through the bot reaches the web process's live page; a move
made on the web process's seat page is committed there and reaches Discord through the bot's own
timer (the outbox); on SQLite the command says in one line that the bot serves the table itself."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.client import build_bot
from bot.settings import Settings
from bot.signing import Signer, seat_ident
from bot.web_process import ON_SQLITE
from db import Database
from tests.discord_flows import discord_harness, in_match, setup_players  # noqa: F401
from tests.running_timer import eventually
from tests.web.seat_play import first_form

ROOT = Path(__file__).resolve().parents[2]
SECRET = "a-test-secret-of-32-characters!!"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def web_env(database: dict[str, str], port: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "WEB_", "DISCORD_"))}
    return {**env, **database, "WEB_PORT": str(port), "WEB_HOST": "127.0.0.1", "WEB_SECRET": SECRET}


async def python_m_bot_web(env: dict[str, str], stdout: int) -> asyncio.subprocess.Process:
    """``python -m bot web`` as an operator starts it, in the repository, with ``env``."""
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "web", cwd=ROOT, env=env, stdout=stdout, stderr=asyncio.subprocess.PIPE
    )


async def test_on_sqlite_the_command_says_the_bot_serves_the_table(tmp_path: Path) -> None:
    env = web_env({"DATABASE_PATH": str(tmp_path / "one.sqlite3")}, free_port())
    proc = await python_m_bot_web(env, asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 2 and err.decode().strip().splitlines()[-1] == ON_SQLITE
    assert not (tmp_path / "one.sqlite3").exists()  # nothing made


@asynccontextmanager
async def started_web(url: str, port: int) -> AsyncIterator[str]:
    """``python -m bot web`` on ``url``, serving on ``port`` once its health check answers."""
    proc = await python_m_bot_web(web_env({"DATABASE_URL": url}, port), asyncio.subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:

        async def up() -> bool:
            if proc.returncode is not None:
                raise AssertionError(f"python -m bot web ended: {(await proc.stderr.read()).decode()}")  # type: ignore[union-attr]
            try:
                async with aiohttp.ClientSession() as session, session.get(f"{base}/healthz") as answer:
                    return answer.status == 200
            except aiohttp.ClientError:
                return False

        assert await eventually(up, 60), "the web process did not start"
        yield base
    finally:
        if proc.returncode is None:
            proc.terminate()
            assert await asyncio.wait_for(proc.wait(), 20) == 0  # SIGTERM: a clean stop


@pytest.mark.postgres
async def test_the_web_process_follows_the_bot_and_its_moves_reach_discord(pg_target, discord_harness) -> None:  # noqa: F811
    settings = Settings(
        discord_token="test-token",
        database_url=pg_target.url,
        render_images=False,
        timer_seconds=1.0,
        web_enabled=False,
    )
    db = await Database.open(pg_target.url)
    bot = build_bot(settings, db)  # timers on, as python -m bot runs
    try:
        h = await discord_harness(bot)
        guild, ch, ann, bob = setup_players(h)
        record = await bot.service.create_challenge(
            "firewall", None, guild.id, ch.id, (ann.id, "ann"), [(bob.id, "bob")]
        )
        await bot.service.accept(record.id, bob.id)
        await h.settle()
        signer = Signer(SECRET)
        async with started_web(pg_target.url, free_port()) as base:
            await live_page_follows_the_bot(bot, base, signer, record.id, [ann.id, bob.id])
            await seat_moves_reach_discord(h, bot, db, base, signer, record.id, ch)
        await h.close()
    finally:
        await db.close()


async def live_page_follows_the_bot(bot: Any, base: str, signer: Signer, match_id: int, users: list[int]) -> None:
    """A move through the bot process: the web process's stream says so (across processes)."""
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{base}/m/{signer.token('match', match_id)}") as page:
            assert page.status == 200 and "Firewall · match #" in await page.text()
        async with session.get(f"{base}/m/{signer.token('match', match_id)}/events") as stream:
            first = await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 20)
            assert b"event: state" in first
            prompt = await bot.service.prompt(match_id, 0)
            await bot.service.submit(match_id, users[0], prompt.decision.choices[0], seat_step=prompt.seat_step)
            moved = await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 20)
    kind, data = (line.split(": ", 1)[1] for line in moved.decode().strip().splitlines())
    assert kind == "moved" and json.loads(data)["live"] is True


async def seat_moves_reach_discord(
    h: Any, bot: Any, db: Any, base: str, signer: Signer, match_id: int, ch: Any
) -> None:
    """Bob's move on the web process's seat page: committed there; the bot's timer tells Discord."""
    url = f"{base}/p/{signer.token('seat', seat_ident(match_id, 1))}"
    before = len(in_match(h, ch))
    async with aiohttp.ClientSession() as session:
        form = await first_form(session, url)
        async with session.post(url, data=form, allow_redirects=False) as posted:
            assert posted.status == 303, await posted.text()
    # the turn resolved in the web process; its notices wait in the outbox for the bot's timer
    assert await eventually(lambda: _outbox_empty(db), 20), "the bot's timer delivered the web process's notices"

    async def told() -> bool:
        await h.settle()
        h.advance(3.0)  # the thread's posts are paced on the harness's clock (cogs/pacing.py)
        return len(in_match(h, ch)) > before

    assert await eventually(told, 20), "the resolved turn was posted in the match's thread"
    assert (await bot.service.get(match_id)).status.value == "active"


async def _outbox_empty(db: Any) -> bool:
    rows = await db.fetchall("SELECT count(*) AS n FROM outbox")
    return int(rows[0]["n"]) == 0
