"""The Discord client: the composition root that wires settings, database, match service, the
extensions (commands, components, the notifier) and the timer loop together. It loads the
extensions by name and imports nothing from ``cogs``."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import discord
from discord.ext import commands

from bot.matches import MatchService
from bot.messages import MessagesService
from bot.replays import ReplayService
from bot.seasons import SeasonService
from bot.servers import ServersService
from bot.settings import Settings
from bot.signing import WebLinks, signer_of
from bot.stats import StatsService
from bot.tournaments.service import TournamentService
from db import Database
from rules.text import plural

log = logging.getLogger(__name__)

#: The extensions, in load order: the notifier installs itself on the service first, so that
#: nothing the commands start goes unannounced.
EXTENSIONS = (
    "cogs.notifier",
    "cogs.matches",
    "cogs.stats",
    "cogs.replay",
    "cogs.settings",
    "cogs.help",
    "cogs.practice",
    "cogs.tournaments",
    "cogs.seasons",
    "web.extension",  # the web table (a presentation beside cogs/, loaded by name: bot/ does not import it)
)

#: Seconds between two runs of the tournaments' timer (planned starts, round deadlines, events).
TOURNAMENT_TICK_SECONDS = 5.0
#: Seconds between two runs of the seasons' timer (planned ends, rollovers, end posts).
SEASON_TICK_SECONDS = 30.0
#: Seconds the client's close gives the tournaments' background work (a round's matches starting).
TOURNAMENT_SHUTDOWN_GRACE_SECONDS = 5.0


class RefereeBot(commands.Bot):
    def __init__(self, settings: Settings, db: Database, *, run_timers: bool = True):
        # No voice: discord.py's start-up warnings about the voice libraries (PyNaCl, davey) say nothing here.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        # Only the guilds intent: slash commands, components and the DMs the bot sends need no more.
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents(guilds=True),
            help_command=None,
            # Never @everyone or a role, whatever a player's display name says; users only where a post asks.
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=False, replied_user=False),
            **shard_options(settings),
        )
        self.settings = settings
        self.db = db
        # ladders settle to the match service's clock (a test's fake clock too)
        self.stats = StatsService(db, clock=lambda: self.service.ctx.clock())
        self.replays = ReplayService(db)  # matches rebuilt step by step from their logs (/replay)
        self.servers = ServersService(db, settings)
        self.messages = MessagesService(db)  # where each match lives in Discord (thread, board, prompts)
        self.service: MatchService = MatchService.from_settings(db, settings, servers=self.servers)
        self.tournaments = TournamentService(db, self.service)  # tournaments played through the matches
        # seasons and leagues (per server; their timer ends and rolls them over)
        self.seasons = SeasonService(db, self.servers, clock=lambda: self.service.ctx.clock())
        #: set by the seasons extension: posts a season's end and gives its league roles
        self.season_presenter: Any = None
        self.signer = signer_of(settings)  # the web table's addresses (web/ reads them, the cards link them)
        self.web_links = WebLinks(self.signer, settings.public_url if settings.web_enabled else None)
        self.web: Any = None  # set by the web table's extension (web/extension.py) while it listens
        #: set by the tournaments extension: delivers the tournaments' events to Discord
        self.tournament_presenter: Any = None
        self._run_timers = run_timers
        self._timer_task: asyncio.Task[None] | None = None
        self._tournament_task: asyncio.Task[None] | None = None
        self._season_task: asyncio.Task[None] | None = None
        self._stop_timers = asyncio.Event()

    async def setup_hook(self) -> None:
        for name in EXTENSIONS:
            await self.load_extension(name)
        live = await self.service.recover()  # delivers what a crash left undelivered; loads nothing else
        log.info("%d live match(es); each is rebuilt on its first touch", len(live))
        running = await self.tournaments.recover()
        log.info("%s: reconciling in the background", plural(len(running), "running tournament"))
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        if self._run_timers:
            self._timer_task = asyncio.create_task(self._run_match_timers(), name="timers")
            self._tournament_task = asyncio.create_task(self._run_tournament_timers(), name="tournament timers")
            self._season_task = asyncio.create_task(self._run_season_timers(), name="season timers")

    async def _run_match_timers(self) -> None:
        """The match service's timer loop (:meth:`MatchService.run_timers`: leftovers of a crash,
        a dead process's notices, deadlines, reminders, computer players), from the moment the
        client is connected (its first run delivers what a crash left undelivered) until close."""
        await self.wait_until_ready()
        await self.service.run_timers(self.settings.timer_seconds, stop=self._stop_timers)

    async def tick_tournaments(self) -> None:
        """One run of the tournaments' timer: planned starts, round deadlines and reconciling
        (:meth:`TournamentService.tick`; reconciles run in the background and deliver their own
        events), then the events written meanwhile delivered to Discord."""
        await self.tournaments.tick()
        presenter = self.tournament_presenter
        if presenter is not None:
            await presenter.flush_all()

    async def _run_tournament_timers(self) -> None:
        while not self._stop_timers.is_set():
            try:
                await self.tick_tournaments()
            except Exception:
                log.exception("the tournaments' timer failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop_timers.wait(), TOURNAMENT_TICK_SECONDS)

    async def tick_seasons(self) -> None:
        """One run of the seasons' timer: seasons whose planned end has come end and roll over
        (once, whichever process gets there first), ended seasons are archived, and their ends
        posted (:meth:`SeasonService.tick`; the presenter claims each end before posting it)."""
        await self.seasons.tick()
        presenter = self.season_presenter
        if presenter is not None:
            await presenter.flush()

    async def _run_season_timers(self) -> None:
        await self.wait_until_ready()
        while not self._stop_timers.is_set():
            try:
                await self.tick_seasons()
            except Exception:
                log.exception("the seasons' timer failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop_timers.wait(), SEASON_TICK_SECONDS)

    async def close(self) -> None:
        self._stop_timers.set()
        if self._season_task is not None:
            self._season_task.cancel()
        if self._timer_task is not None:
            self._timer_task.cancel()
        if self._tournament_task is not None:
            self._tournament_task.cancel()
        # the rounds the tournaments play in the background: a few seconds to finish, then
        # cancelled (each step is committed; the next start's recovery goes on from there)
        try:
            await self.tournaments.shutdown(grace=TOURNAMENT_SHUTDOWN_GRACE_SECONDS)
        except Exception:
            log.exception("stopping the tournaments' background work failed")
        self.tournaments.close()
        try:
            await self.service.close()
        except Exception:
            log.exception("closing the match service failed")
        await super().close()


class ShardedRefereeBot(RefereeBot, commands.AutoShardedBot):
    """The bot as one process of several (``SHARD_COUNT``, ``SHARD_IDS``): discord.py's
    AutoShardedBot running this process's shards, every process on one PostgreSQL database."""


def shard_options(settings: Settings) -> dict[str, Any]:
    """The client's shard arguments: none for one process; else ``shard_count`` and, if set,
    ``shard_ids`` (AutoShardedBot)."""
    if settings.shard_count is None:
        return {}
    options: dict[str, Any] = {"shard_count": settings.shard_count}
    if settings.shard_id_list is not None:
        options["shard_ids"] = settings.shard_id_list
    return options


def build_bot(settings: Settings, db: Database, *, run_timers: bool = True) -> RefereeBot:
    if settings.sharded:
        log.info("shards %s of %s", settings.shard_ids or "all", settings.shard_count)
        return ShardedRefereeBot(settings, db, run_timers=run_timers)
    return RefereeBot(settings, db, run_timers=run_timers)
