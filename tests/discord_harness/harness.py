"""DiscordHarness: run a real discord.py client against a fake, recording Discord.

    harness = await DiscordHarness.create(bot)
    guild = harness.add_guild("Wizards")
    channel = harness.add_text_channel(guild, "duels")
    alice = harness.add_member(guild, "alice")
    result = await harness.slash(alice, channel, "challenge", {"opponent": bob})
    await harness.click(bob, result.message, "accept")
    await harness.close()

The harness is a facade over small parts that share it: ``patches`` (patch.py: discord.py onto
the fake server), ``events`` (gateway.py), ``world`` (users, guilds, channels, roles, and what was
posted where), ``interaction`` (interactions.py: payloads, dispatch), ``commands`` (slash commands,
autocomplete), ``components`` (buttons, selects), ``modals``, ``reporter`` (reporting.py) and the
roles helpers (roles.py, a mixin); the fake Discord is ``server`` (server.py, rest.py, roles.py,
webhooks.py, ratelimits.py). This module keeps the lifecycle, canned answers, the clock and
settling. See docs/testing-discord.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import discord

from . import payloads as P
from . import persist as persist_journal
from .commands import Commands
from .components import Components
from .gateway import FakeGateway, GatewayEvents
from .interactions import Interactions, NoResponse
from .modals import Modals
from .patch import Patches
from .ratelimits import Clock, RateLimitHit
from .records import (
    EPHEMERAL,
    HarnessError,
    HarnessMessage,
    InteractionResult,
    RecordedRequest,
    SimChannel,
    SimUser,
)
from .reporting import BotErrors, Expected, ProtocolViolation, Reporter
from .roles import RoleHelpers
from .schema import DiscordSchema
from .server import FakeDiscord, Override
from .tasks import SettleTimeout, TaskWatcher
from .world import DEFAULT_BOT_EXTRA, DEFAULT_EVERYONE, DM_APP_PERMISSIONS, World
from .world_helpers import WorldHelpers

_SCHEMA: DiscordSchema | None = None

RATE_LIMITS_DEFAULT = os.environ.get("DISCORD_HARNESS_RATE_LIMITS", "1") == "1"
"""Whether a harness enforces Discord's rate limits unless told (``rate_limits=``): on, so every
end-to-end test fails on any 429 (a player would see the bot stall). ``DISCORD_HARNESS_RATE_LIMITS=0``
turns them off for a whole run (e.g. to tell a flow bug from a traffic one)."""

THINK_TIME = 1.0
"""Seconds that pass on the harness's clock before each simulated user action (a player's think
time), so that Discord's per-window limits see a realistic pace rather than a test's speed."""


def load_schema() -> DiscordSchema:
    global _SCHEMA
    if _SCHEMA is None:
        _SCHEMA = DiscordSchema()
    return _SCHEMA


class DiscordHarness(RoleHelpers, WorldHelpers):
    """Drives a real discord.py Client/Bot against an in-memory fake of Discord.

    Create it with :meth:`create` (or the :func:`tests.discord_harness.fixtures.discord_harness`
    fixture), build a world with ``add_guild``/``add_text_channel``/``add_member``, then simulate
    users with ``slash``/``autocomplete``/``click``/``select``/``submit_modal``.
    """

    def __init__(
        self,
        bot: discord.Client,
        *,
        app_id: int,
        bot_user: SimUser,
        validate: bool,
        discord_rules: bool,
        gateway_echo: bool,
        settle_timeout: float,
        long_sleep: float,
        capture_loggers: Sequence[str],
        rate_limits: bool,
        think_time: float,
    ):
        self.bot = bot
        self.app_id = app_id
        self.bot_user = bot_user
        self.clock = Clock(asyncio.get_running_loop().time)
        self.server = FakeDiscord(
            app_id=app_id,
            bot_user=bot_user,
            schema=load_schema() if validate else None,
            discord_rules=discord_rules,
            clock=self.clock,
            rate_limits=rate_limits,
        )
        self.validate = validate
        self.gateway_echo = gateway_echo
        self.settle_timeout = settle_timeout
        self.long_sleep = long_sleep
        self.think_time = think_time
        self.gateway = FakeGateway()
        self.bot_errors: list[str] = []
        self.closed = False
        self.reporter = Reporter(self.server.violations, self.bot_errors)
        self._watcher: TaskWatcher | None = None
        self.patches = Patches(self, capture_loggers)
        self.events = GatewayEvents(self)
        self.world = World(self)
        self.interaction = Interactions(self)
        self.commands = Commands(self)
        self.components = Components(self)
        self.modals = Modals(self)
        self.server.echo = self.events.echo

    # ================================================================================================
    # construction / teardown

    @classmethod
    async def create(
        cls,
        bot: discord.Client,
        *,
        app_id: int | None = None,
        bot_name: str | None = None,
        owner_name: str = "bot-owner",
        validate: bool = True,
        discord_rules: bool = True,
        gateway_echo: bool = True,
        settle_timeout: float = 5.0,
        long_sleep: float = 1.0,
        capture_loggers: Sequence[str] = ("discord",),
        rate_limits: bool | None = None,
        think_time: float = THINK_TIME,
        persist: str | Path | None = None,
    ) -> DiscordHarness:
        """Patch ``bot`` onto the fake Discord, log it in (running ``setup_hook``) and deliver READY.

        ``validate``: check request bodies against Discord's schema; ``discord_rules``: also check
        limits the schema cannot express; ``gateway_echo``: deliver MESSAGE_CREATE/UPDATE/DELETE for
        the bot's own messages when its intents ask for them (as Discord does); ``long_sleep``:
        :meth:`settle` does not wait for tasks sleeping at least this long; ``capture_loggers``:
        ERROR records on these loggers fail the test (discord.py logs unhandled exceptions there);
        ``rate_limits``: enforce Discord's rate limits, any 429 failing the test (default
        :data:`RATE_LIMITS_DEFAULT`); ``think_time``: seconds the harness's clock moves before each
        simulated user action (autocomplete excepted); ``persist``: a journal file the world is
        written to as it changes and read back from when it exists (persist.py: a bot process
        killed and started again finds Discord as it left it, its guilds delivered after READY).
        """
        if isinstance(bot, discord.AutoShardedClient):
            raise HarnessError("DiscordHarness supports discord.Client / commands.Bot, not AutoSharded clients")
        saved = persist_journal.read(persist) if persist is not None else persist_journal.SavedWorld()
        ids = P.Snowflakes(after=saved.max_id)
        app_id = app_id or saved.app_id or ids.next()
        name = bot_name or saved.bot_name or (type(bot).__name__.lower() + "-bot")
        harness = cls(
            bot,
            app_id=app_id,
            bot_user=SimUser(id=app_id, name=name, bot=True),
            validate=validate,
            discord_rules=discord_rules,
            gateway_echo=gateway_echo,
            settle_timeout=settle_timeout,
            long_sleep=long_sleep,
            capture_loggers=capture_loggers,
            rate_limits=RATE_LIMITS_DEFAULT if rate_limits is None else rate_limits,
            think_time=think_time,
        )
        if persist is not None:
            journal = persist_journal.Journal(persist, harness.server, bot_name=name)
            journal.restore(saved)
            harness.server.ids = P.Snowflakes(after=max(saved.max_id, app_id))
            harness.server.journal = journal
        known = [u for u in harness.server.users.values() if u.name == owner_name and not u.bot]
        harness.server.owner = known[0] if known else harness.add_user(owner_name)
        harness._watcher = TaskWatcher(listener_futures=harness._listener_futures)
        harness.patches.install()
        try:
            await bot.login("harness.fake.token")
            harness.events.ready()
            for guild in list(harness.server.guilds.values()):  # a persisted world's guilds
                harness.world.announce_guild(guild)
            await asyncio.wait_for(bot.wait_until_ready(), timeout=settle_timeout)
            await harness.settle()
        except BaseException:
            await harness.close(raise_errors=False)
            raise
        return harness

    def _listener_futures(self) -> list[asyncio.Future[Any]]:
        listeners = getattr(self.bot, "_listeners", {}) or {}
        return [fut for entries in listeners.values() for fut, _check in entries]

    async def close(self, *, raise_errors: bool = True) -> None:
        """Settle, close the bot (unloading cogs), cancel leftover tasks and undo every patch.

        Raises for violations or bot errors that no earlier call reported."""
        if self.closed:
            return
        self.closed = True
        pending_error: BaseException | None = None
        try:
            try:
                await self.settle(check=False)
            except SettleTimeout as exc:
                pending_error = exc
            with contextlib.suppress(Exception):
                await self.bot.close()
            gc.collect()  # surface "Task exception was never retrieved" while our handler listens
            if self._watcher is not None:
                leftovers = self._watcher.leftover_tasks()
                for task in leftovers:
                    task.cancel()
                if leftovers:
                    await asyncio.wait(leftovers, timeout=2.0)
        finally:
            self.patches.uninstall()
            if self.server.journal is not None:
                self.server.journal.close()
                self.server.journal = None
        if raise_errors:
            if pending_error is not None:
                raise pending_error
            self.check()

    async def __aenter__(self) -> DiscordHarness:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close(raise_errors=exc[0] is None)

    # ================================================================================================
    # canned answers, time and rate limits

    def on(self, method: str, route: str, respond: Any, *, times: int | None = None) -> None:
        """Answer ``method route`` with ``respond`` (a payload, or ``callable(RecordedRequest)``).

        ``route`` may be an OpenAPI template, discord.py's template or a concrete path. Overrides are
        consulted before the built-in routes (rate limits and schema validation still come first)."""
        self.server.overrides.append(Override(method.upper(), route, respond, times=times))

    def fail(
        self,
        method: str,
        route: str,
        *,
        status: int = 500,
        code: int = 0,
        message: str = "Injected error",
        times: int | None = 1,
    ) -> None:
        """Make ``method route`` fail like Discord would (e.g. ``status=403, code=50013``)."""
        self.server.overrides.append(
            Override(method.upper(), route, None, status=status, code=code, message=message, times=times)
        )

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass on the harness's clock (rate-limit windows end; nothing sleeps)."""
        self.clock.advance(seconds)

    @property
    def overhead_seconds(self) -> float:
        """Time the harness itself spent on the event loop: answering requests (checking their
        bodies against the schema...) and scanning tasks while settling. Not the bot's work."""
        return self.server.busy_seconds + (self._watcher.scan_seconds if self._watcher is not None else 0.0)

    @property
    def rate_limits(self) -> bool:
        return self.server.limiter is not None

    @property
    def rate_limit_hits(self) -> list[RateLimitHit]:
        """Every request answered 429, in order (each is also a violation)."""
        return list(self.server.limiter.hits) if self.server.limiter is not None else []

    # ================================================================================================
    # settling and error reporting

    async def settle(
        self, timeout: float | None = None, *, long_sleep: float | None = None, check: bool = True
    ) -> None:
        """Let the bot run until no task is busy (see tasks.py), then raise any new violations/errors.

        Raises SettleTimeout if tasks are still busy after ``timeout`` seconds."""
        assert self._watcher is not None
        await self._watcher.settle(
            self.settle_timeout if timeout is None else timeout, self.long_sleep if long_sleep is None else long_sleep
        )
        if check:
            self.check()

    def ignore_task(self, task: asyncio.Task[Any] | Any) -> None:
        """Never wait for this task (or for tasks matching this predicate) in settle()."""
        assert self._watcher is not None
        if isinstance(task, asyncio.Task):
            self._watcher.ignored.add(task)
        else:
            self._watcher.ignore_predicates.append(task)

    def check(self) -> None:
        """Raise for schema/protocol/rate-limit violations and bot errors not yet reported."""
        self.reporter.check()

    def expect_violations(self) -> contextlib.AbstractContextManager[Expected]:
        """Collect (instead of raising) violations and bot errors inside the block; at least one
        violation must happen."""
        return self.reporter.expect_violations()

    def expect_bot_errors(self) -> contextlib.AbstractContextManager[Expected]:
        """Collect bot errors (exceptions discord.py logged) inside the block; at least one must happen."""
        return self.reporter.expect_bot_errors()

    @property
    def expecting(self) -> bool:
        return self.reporter.expecting > 0

    # ================================================================================================
    # what was recorded

    @property
    def requests(self) -> list[RecordedRequest]:
        return self.server.requests

    def requests_for(self, method: str | None = None, route: str | None = None) -> list[RecordedRequest]:
        return [
            r
            for r in self.server.requests
            if (method is None or r.method == method.upper())
            and (route is None or route in (r.route, r.dpy_route, r.path))
        ]

    @property
    def violations(self) -> list[str]:
        return self.server.violations

    @property
    def interactions(self) -> list[InteractionResult]:
        return list(self.interaction.results)

    # ================================================================================================
    # the parts' API (see gateway.py, interactions.py, world.py, commands.py, components.py, modals.py)

    def dispatch_gateway(self, event: str, data: dict[str, Any]) -> None:
        """Feed one gateway DISPATCH event (``READY``, ``GUILD_CREATE``...) through discord.py's parser."""
        self.events.dispatch(event, data)

    def base_interaction(
        self, itype: int, user: SimUser, channel: SimChannel, data: dict[str, Any], *, locale: str | None = None
    ) -> dict[str, Any]:
        """An INTERACTION_CREATE payload of ``user`` in ``channel`` (without type-specific parts)."""
        return self.interaction.base(itype, user, channel, data, locale=locale)

    async def dispatch_interaction(
        self, payload: dict[str, Any], *, message_id: int | None = None, wait: bool = True, expect_response: bool = True
    ) -> InteractionResult:
        """Register and dispatch a raw INTERACTION_CREATE payload (the lower-level entry point)."""
        return await self.interaction.dispatch(
            payload, message_id=message_id, wait=wait, expect_response=expect_response
        )

    async def slash(
        self,
        user: Any,
        channel: Any,
        command: str,
        options: dict[str, Any] | None = None,
        *,
        subcommand: str | None = None,
        locale: str | None = None,
        wait: bool = True,
        expect_response: bool = True,
    ) -> InteractionResult:
        """Run a chat-input command as ``user`` in ``channel`` (a guild channel, a thread or
        ``dm_channel(user)``).

        ``command`` may contain the subcommand path ("duel accept"); ``options`` maps option names
        (Discord or Python parameter names) to values: str/int/float/bool, a choice value or name,
        an Enum member, a user (SimUser/discord.User/id) or a channel."""
        return await self.commands.slash(
            user,
            channel,
            command,
            options,
            subcommand=subcommand,
            locale=locale,
            wait=wait,
            expect_response=expect_response,
        )

    async def autocomplete(
        self,
        user: Any,
        channel: Any,
        command: str,
        focused: str,
        value: Any = "",
        options: dict[str, Any] | None = None,
        *,
        subcommand: str | None = None,
        wait: bool = True,
        expect_response: bool = True,
    ) -> InteractionResult:
        """Simulate typing ``value`` into the autocomplete option ``focused``; see ``result.choices``."""
        return await self.commands.autocomplete(
            user,
            channel,
            command,
            focused,
            value,
            options,
            subcommand=subcommand,
            wait=wait,
            expect_response=expect_response,
        )

    async def click(
        self,
        user: Any,
        message: Any,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        wait: bool = True,
        expect_response: bool = True,
    ) -> InteractionResult:
        """Press a button (by custom_id or label) on a message the user can see (channel, thread, DM
        or ephemeral)."""
        return await self.components.click(
            user, message, custom_id, label=label, wait=wait, expect_response=expect_response
        )

    async def select(
        self,
        user: Any,
        message: Any,
        custom_id: str,
        values: Sequence[Any],
        *,
        wait: bool = True,
        expect_response: bool = True,
    ) -> InteractionResult:
        """Pick ``values`` (option values) in a string select menu."""
        return await self.components.select(
            user, message, custom_id, values, wait=wait, expect_response=expect_response
        )

    async def _component(
        self, user: SimUser, msg: HarnessMessage, data: dict[str, Any], *, wait: bool, expect_response: bool
    ) -> InteractionResult:
        """Dispatch a component interaction with raw ``data`` on ``msg``, unchecked: what a forged or
        outdated client could send (tests of the bot's own refusals use it)."""
        return await self.components.dispatch(user, msg, data, wait=wait, expect_response=expect_response)

    def modals_shown_to(self, user: Any) -> list[dict[str, Any]]:
        """Every modal the bot opened for this user (callback data), oldest first."""
        return self.modals.shown_to(user)

    async def submit_modal(
        self,
        user: Any,
        values: dict[str, Any],
        *,
        custom_id: str | None = None,
        channel: Any = None,
        message: Any = None,
        wait: bool = True,
        expect_response: bool = True,
    ) -> InteractionResult:
        """Fill in and submit a modal the bot showed to ``user`` (the latest, or the one with ``custom_id``).

        ``values`` maps each field's custom_id to a string (text input) or a list (select menus).
        Without a shown modal, pass ``custom_id`` and ``channel`` to submit a modal built from
        ``values`` as plain text inputs."""
        return await self.modals.submit(
            user,
            values,
            custom_id=custom_id,
            channel=channel,
            message=message,
            wait=wait,
            expect_response=expect_response,
        )


__all__ = [
    "DEFAULT_BOT_EXTRA",
    "DEFAULT_EVERYONE",
    "DM_APP_PERMISSIONS",
    "EPHEMERAL",
    "RATE_LIMITS_DEFAULT",
    "THINK_TIME",
    "BotErrors",
    "DiscordHarness",
    "Expected",
    "FakeGateway",
    "NoResponse",
    "ProtocolViolation",
    "SettleTimeout",
]
