"""``python -m bot web``: the web table in a process of its own (issue 35, part 1), beside the bot's
processes on one PostgreSQL database (docs/web.md, docs/deploy.md).

It builds what the web table reads (the replays, the servers' settings, the match service, the
signer of ``WEB_SECRET``) on the shared database, without Discord, and starts the web table the way
the bot's client does (the ``web.extension`` extension, loaded by name: bot/ never imports a
presentation). Its live pages follow the database (``bot/watch.py``), so a move made by any bot
process reaches them; a move made on one of its seat pages is committed here and its notices are
left in the outbox (``MatchService(handoff=True)``), where a bot process's timer delivers them to
Discord within ``TIMER_SECONDS``.

SQLite is one process per file: there the web table runs inside the bot (the default), and this
command says so in one line (exit code 2). It runs until SIGINT or SIGTERM.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import signal
from typing import Any, TextIO

from bot.matches import MatchService
from bot.replays import ReplayService
from bot.servers import ServersService
from bot.settings import Settings
from bot.signing import WebLinks, signer_of
from bot.stats import StatsService
from bot.tournaments.service import TournamentService

log = logging.getLogger("bot.web")

EXTENSION = "web.extension"
ON_SQLITE = (
    "python -m bot web runs the web table beside bot processes on PostgreSQL (DATABASE_URL). "
    "On SQLite the bot serves it itself: start the bot (WEB_ENABLED, WEB_PORT)."
)
NOT_LISTENING = "the web table could not start (WEB_ENABLED=false, or its port is taken): see the log"


class WebHost:
    """What the web table reads of the process that runs it (the client does the same in the bot)."""

    def __init__(self, settings: Settings, db: Any) -> None:
        self.settings = settings
        self.db = db
        self.replays = ReplayService(db)
        self.servers = ServersService(db, settings)
        self.service = MatchService.from_settings(db, settings, servers=self.servers, handoff=True)
        # ladders settle to the match service's clock (a test's fake clock too)
        self.stats = StatsService(db, clock=lambda: self.service.ctx.clock())
        self.tournaments = TournamentService(db, self.service)
        self.signer = signer_of(settings)
        self.web_links = WebLinks(self.signer, settings.public_url)
        self.web: Any = None


async def serve(settings: Settings, stderr: TextIO, *, stop: asyncio.Event | None = None) -> int:
    """Open the database, start the web table and serve until ``stop`` (or a signal)."""
    from db import Database, DatabaseUnavailable, StorageError, UnknownDatabaseURL, parse_database_url

    try:
        backend, _ = parse_database_url(settings.database)
    except UnknownDatabaseURL as exc:
        print(str(exc), file=stderr)
        return 1
    if backend != "postgres":
        print(ON_SQLITE, file=stderr)
        return 2
    try:
        db = await Database.open(settings.database, pool_size=settings.database_pool_size)
    except (DatabaseUnavailable, StorageError) as exc:
        print(f"cannot open the database: {exc}. Check DATABASE_URL, then start again.", file=stderr)
        return 1
    host = WebHost(settings, db)
    extension = importlib.import_module(EXTENSION)
    try:
        await extension.setup(host)
        if host.web is None:
            print(NOT_LISTENING, file=stderr)
            return 1
        stop = stop or asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, stop.set)
        log.info("serving the web table on %s until stopped", host.web.url)
        await stop.wait()
        return 0
    finally:
        await extension.teardown(host)
        host.tournaments.close()
        await host.service.close()
        await db.close()


__all__ = ["EXTENSION", "ON_SQLITE", "WebHost", "serve"]
