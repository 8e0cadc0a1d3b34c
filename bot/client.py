"""The Discord client: the composition root that wires settings, database, match service, cogs,
restart-proof components and the timer loop together."""

from __future__ import annotations

import asyncio
import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.matches import MatchService
from bot.settings import Settings
from db import Database

log = logging.getLogger(__name__)


class RefereeBot(commands.Bot):
    def __init__(self, settings: Settings, db: Database, *, run_timers: bool = True):
        # Only the guilds intent: slash commands, components and the DMs the bot sends need no more.
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents(guilds=True),
            help_command=None,
            # Never @everyone or a role, whatever a player's display name says; users only where a post asks.
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=False, replied_user=False),
        )
        from cogs.notifier import DiscordNotifier

        self.settings = settings
        self.db = db
        self.notifier = DiscordNotifier(self)
        self.service = MatchService.from_settings(db, settings, notifier=self.notifier)
        self.notifier.service = self.service
        self._run_timers = run_timers
        self._timer_task: asyncio.Task[None] | None = None
        self._stop_timers = asyncio.Event()

    async def setup_hook(self) -> None:
        from cogs.matches import ChallengeButton, OpenPromptButton, PromptItem, on_modal_submit, send_error

        await self.load_extension("cogs.matches")
        await self.load_extension("cogs.stats")
        # Restart-proof components: parsed from their custom_id, state loaded from the database.
        self.add_dynamic_items(ChallengeButton, OpenPromptButton, PromptItem)
        self.add_listener(on_modal_submit, "on_interaction")

        @self.tree.error
        async def on_app_command_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
            await send_error(interaction, error)

        recovered = await self.service.recover()
        log.info("recovered %d live match(es)", len(recovered))
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        if self._run_timers:
            self._timer_task = asyncio.create_task(self.service.run_timers(stop=self._stop_timers), name="timers")

    async def close(self) -> None:
        self._stop_timers.set()
        if self._timer_task is not None:
            self._timer_task.cancel()
        await super().close()


def build_bot(settings: Settings, db: Database, *, run_timers: bool = True) -> RefereeBot:
    return RefereeBot(settings, db, run_timers=run_timers)
