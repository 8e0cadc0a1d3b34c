"""DiscordHarness: run a real discord.py client against a fake, recording Discord.

    harness = await DiscordHarness.create(bot)
    guild = harness.add_guild("Wizards")
    channel = harness.add_text_channel(guild, "duels")
    alice = harness.add_member(guild, "alice")
    result = await harness.slash(alice, channel, "challenge", {"opponent": bob})
    await harness.click(bob, result.message, "accept")
    await harness.close()

See docs/testing-discord.md for the full story.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import enum
import gc
import http
import logging
import traceback
from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, cast

import discord
import discord.interactions as dpy_interactions
import discord.webhook.async_ as dpy_webhook
from discord import app_commands
from discord.http import Route

from . import payloads as P
from .records import (
    EPHEMERAL,
    HarnessError,
    HarnessMessage,
    InteractionRecord,
    InteractionResult,
    RecordedRequest,
    SimChannel,
    SimGuild,
    SimRole,
    SimUser,
)
from .schema import DiscordSchema
from .server import ApiError, FakeDiscord, Override
from .tasks import TaskWatcher, describe

_SCHEMA: DiscordSchema | None = None

DEFAULT_EVERYONE = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    use_external_emojis=True,
    read_message_history=True,
    use_application_commands=True,
    connect=True,
    speak=True,
    change_nickname=True,
    create_instant_invite=True,
).value
DEFAULT_BOT_EXTRA = discord.Permissions(
    manage_messages=True,
    manage_threads=True,
    create_private_threads=True,
    mention_everyone=True,
).value
DM_APP_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    use_external_emojis=True,
    read_message_history=True,
    use_application_commands=True,
).value


def _perm_value(value: int | discord.Permissions) -> int:
    return value.value if isinstance(value, discord.Permissions) else int(value)


def load_schema() -> DiscordSchema:
    global _SCHEMA
    if _SCHEMA is None:
        _SCHEMA = DiscordSchema()
    return _SCHEMA


class SettleTimeout(HarnessError):
    pass


class NoResponse(HarnessError):
    pass


class BotErrors(HarnessError):
    pass


class ProtocolViolation(HarnessError):
    """The bot sent something Discord would reject (schema, limits, or an invalid call)."""


@dataclass
class Attachment:
    """A file a simulated user uploads through an ATTACHMENT option or a file-upload modal field."""

    filename: str
    data: bytes
    content_type: str | None = None


@dataclass
class Expected:
    """Collected by :meth:`DiscordHarness.expect_violations`."""

    violations: list[str] = field(default_factory=list)
    bot_errors: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\n".join(self.violations + self.bot_errors)


class _FakeResponse:
    """Enough of aiohttp.ClientResponse for discord.HTTPException (typed Any where passed)."""

    def __init__(self, status: int, method: str, url: str):
        self.status = status
        self.reason = http.HTTPStatus(status).phrase if status in http.HTTPStatus._value2member_map_ else "Error"
        self.method = method
        self.url = url
        self.headers: dict[str, str] = {}


class _NoNetworkSession:
    """Stands in for aiohttp.ClientSession: the harness never lets discord.py touch the network."""

    closed = False

    def __bool__(self) -> bool:
        return True

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("network access attempted while running under DiscordHarness")

    request = get = post = put = patch = delete = ws_connect = _refuse

    async def close(self) -> None:
        self.closed = True


class FakeGateway:
    """Assigned to ``bot.ws``: records gateway commands (presence changes...) instead of sending them."""

    open = False
    shard_id = None
    shard_count = None
    session_id = "harness-session"
    sequence = 1
    gateway = "wss://gateway.discord.gg"
    latency = 0.042

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def is_ratelimited(self) -> bool:
        return False

    async def change_presence(self, *, activity: Any = None, status: Any = None, since: float = 0.0) -> None:
        self.sent.append({"op": 3, "activity": activity, "status": status, "since": since})

    async def request_chunks(self, guild_id: int, **kwargs: Any) -> None:
        self.sent.append({"op": 8, "guild_id": guild_id, **kwargs})

    async def voice_state(self, guild_id: int, channel_id: Any, **kwargs: Any) -> None:
        self.sent.append({"op": 4, "guild_id": guild_id, "channel_id": channel_id, **kwargs})

    async def close(self, code: int = 1000) -> None:
        return None


class _RecordingWebhookAdapter(dpy_webhook.AsyncWebhookAdapter):
    def __init__(self, harness: DiscordHarness):
        super().__init__()
        self._harness = harness

    async def request(
        self,
        route: Route,
        session: Any,
        *,
        payload: dict[str, Any] | None = None,
        multipart: list[dict[str, Any]] | None = None,
        proxy: Any = None,
        proxy_auth: Any = None,
        files: Sequence[discord.File] | None = None,
        reason: str | None = None,
        auth_token: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> Any:
        return await self._harness._transport(
            route, json_body=payload, form=multipart, files=files, query=params, reason=reason, via="webhook"
        )


class _ErrorLogCapture(logging.Handler):
    def __init__(self, sink: list[str]):
        super().__init__(level=logging.ERROR)
        self.sink = sink
        self.setFormatter(logging.Formatter("%(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        text = self.format(record)
        self.sink.append(text)


class DiscordHarness:
    """Drives a real discord.py Client/Bot against an in-memory fake of Discord.

    Create it with :meth:`create` (or the :func:`tests.discord_harness.fixtures.discord_harness`
    fixture), build a world with ``add_guild``/``add_text_channel``/``add_member``, then simulate
    users with ``slash``/``autocomplete``/``click``/``select``/``submit_modal``/``send_message``.
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
    ):
        self.bot = bot
        self.app_id = app_id
        self.bot_user = bot_user
        self.server = FakeDiscord(app_id=app_id, bot_user=bot_user, schema=load_schema(), discord_rules=discord_rules)
        self.validate = validate
        if not validate:
            self.server.schema = None
        self.gateway_echo = gateway_echo
        self.settle_timeout = settle_timeout
        self.long_sleep = long_sleep
        self.gateway = FakeGateway()
        self.bot_errors: list[str] = []
        self._reported_violations = 0
        self._reported_errors = 0
        self._expecting = 0
        self._capture_loggers = list(capture_loggers)
        self._log_handler = _ErrorLogCapture(self.bot_errors)
        self._patched_http: list[str] = []
        self._saved_context: tuple[ContextVar[Any], ContextVar[Any]] | None = None
        self._saved_exception_handler: Any = None
        self._watcher: TaskWatcher | None = None
        self._closed = False
        self._submitted_modals: set[str] = set()
        self._results: list[InteractionResult] = []
        self.server.echo = self._echo

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
    ) -> DiscordHarness:
        """Patch ``bot`` onto the fake Discord, log it in (running ``setup_hook``) and deliver READY.

        ``validate``: check request bodies against Discord's schema; ``discord_rules``: also check
        limits the schema cannot express; ``gateway_echo``: deliver MESSAGE_CREATE/UPDATE/DELETE for
        the bot's own messages when its intents ask for them (as Discord does); ``long_sleep``:
        :meth:`settle` does not wait for tasks sleeping at least this long; ``capture_loggers``:
        ERROR records on these loggers fail the test (discord.py logs unhandled exceptions there).
        """
        if isinstance(bot, discord.AutoShardedClient):
            raise HarnessError("DiscordHarness supports discord.Client / commands.Bot, not AutoSharded clients")
        ids = P.Snowflakes()
        app_id = app_id or ids.next()
        name = bot_name or (type(bot).__name__.lower() + "-bot")
        bot_user = SimUser(id=app_id, name=name, bot=True)
        harness = cls(
            bot,
            app_id=app_id,
            bot_user=bot_user,
            validate=validate,
            discord_rules=discord_rules,
            gateway_echo=gateway_echo,
            settle_timeout=settle_timeout,
            long_sleep=long_sleep,
            capture_loggers=capture_loggers,
        )
        owner = harness.add_user(owner_name)
        harness.server.owner = owner
        harness._install()
        try:
            await bot.login("harness.fake.token")
            harness._ready()
            await asyncio.wait_for(bot.wait_until_ready(), timeout=settle_timeout)
            await harness.settle()
        except BaseException:
            await harness.close(raise_errors=False)
            raise
        return harness

    def _install(self) -> None:
        loop = asyncio.get_running_loop()
        self._watcher = TaskWatcher(listener_futures=self._listener_futures)
        http_client = self.bot.http
        harness = self

        async def request(
            route: Route, *, files: Sequence[discord.File] | None = None, form: Any = None, **kwargs: Any
        ) -> Any:
            return await harness._transport(
                route,
                json_body=kwargs.get("json"),
                form=form,
                files=files,
                query=kwargs.get("params"),
                reason=kwargs.get("reason"),
                via="http",
            )

        async def static_login(token: str) -> Any:
            http_client.token = token
            http_client._HTTPClient__session = _NoNetworkSession()  # type: ignore[attr-defined]
            http_client._global_over = asyncio.Event()
            http_client._global_over.set()
            return await http_client.request(Route("GET", "/users/@me"))

        async def close() -> None:
            return None

        async def get_from_cdn(url: str) -> bytes:
            data = harness.server.cdn.get(url.split("?")[0])
            if data is None:
                raise discord.NotFound(cast(Any, _FakeResponse(404, "GET", url)), "asset not found")
            return data

        async def no_network(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("network access attempted while running under DiscordHarness")

        for name, value in {
            "request": request,
            "static_login": static_login,
            "close": close,
            "get_from_cdn": get_from_cdn,
            "ws_connect": no_network,
            "get_bot_gateway": no_network,
            "get_gateway": no_network,
        }.items():
            setattr(http_client, name, value)
            self._patched_http.append(name)

        adapter = _RecordingWebhookAdapter(self)
        context: ContextVar[Any] = ContextVar("async_webhook_context", default=adapter)
        self._saved_context = (dpy_webhook.async_context, dpy_interactions.async_context)
        dpy_webhook.async_context = context
        dpy_interactions.async_context = context

        for name in self._capture_loggers:
            logging.getLogger(name).addHandler(self._log_handler)
        self._saved_exception_handler = loop.get_exception_handler()

        def on_loop_exception(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
            exc = context.get("exception")
            text = context.get("message", "unhandled exception in event loop")
            if exc is not None:
                text += "\n" + "".join(traceback.format_exception(exc))
            self.bot_errors.append(text)

        loop.set_exception_handler(on_loop_exception)

    def _listener_futures(self) -> list[asyncio.Future[Any]]:
        listeners = getattr(self.bot, "_listeners", {}) or {}
        return [fut for entries in listeners.values() for fut, _check in entries]

    def _ready(self) -> None:
        state = self.bot._connection
        state.guild_ready_timeout = 0
        state._chunk_guilds = False
        self.bot.ws = self.gateway  # type: ignore[assignment]
        ready = {
            "v": 10,
            "user": P.client_user_payload(self.bot_user.id, self.bot_user.name),
            "guilds": [],
            "session_id": "harness-session",
            "session_type": "normal",
            "resume_gateway_url": "wss://gateway.discord.gg",
            "application": {"id": str(self.app_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "geo_ordered_rtc_regions": [],
            "guild_join_requests": [],
            "user_settings": {},
            "auth_session_id_hash": "",
            "_trace": ["harness"],
        }
        self.dispatch_gateway("READY", ready)

    async def close(self, *, raise_errors: bool = True) -> None:
        """Settle, close the bot (unloading cogs), cancel leftover tasks and undo every patch.

        Raises for violations or bot errors that no earlier call reported."""
        if self._closed:
            return
        self._closed = True
        pending_error: BaseException | None = None
        try:
            try:
                await self.settle(check=False)
            except SettleTimeout as exc:
                pending_error = exc
            with contextlib.suppress(Exception):
                await self.bot.close()
            gc.collect()  # surface "Task exception was never retrieved" while our handler listens
            watcher = self._watcher
            if watcher is not None:
                leftovers = watcher.leftover_tasks()
                for task in leftovers:
                    task.cancel()
                if leftovers:
                    await asyncio.wait(leftovers, timeout=2.0)
        finally:
            self._uninstall()
        if raise_errors:
            if pending_error is not None:
                raise pending_error
            self.check()

    def _uninstall(self) -> None:
        http_client = self.bot.http
        for name in self._patched_http:
            with contextlib.suppress(AttributeError):
                delattr(http_client, name)
        self._patched_http.clear()
        if self._saved_context is not None:
            dpy_webhook.async_context, dpy_interactions.async_context = self._saved_context
            self._saved_context = None
        for name in self._capture_loggers:
            logging.getLogger(name).removeHandler(self._log_handler)
        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().set_exception_handler(self._saved_exception_handler)

    async def __aenter__(self) -> DiscordHarness:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close(raise_errors=exc[0] is None)

    # ================================================================================================
    # transport

    async def _transport(
        self, route: Route, *, json_body: Any, form: Any, files: Any, query: Any, reason: str | None, via: str
    ) -> Any:
        if self._closed:
            raise RuntimeError(f"{route.method} {route.path} after the harness was closed")
        await asyncio.sleep(0)  # a real request always yields to the loop
        try:
            return self.server.handle(
                route.method,
                route.url,
                route.path,
                json_body=json_body,
                form=form,
                files=files,
                query=query,
                reason=reason,
                via=via,
            )
        except ApiError as exc:
            response: Any = _FakeResponse(exc.status, route.method, route.url)
            if exc.status == 403:
                raise discord.Forbidden(response, exc.body()) from None
            if exc.status == 404:
                raise discord.NotFound(response, exc.body()) from None
            if exc.status >= 500:
                raise discord.DiscordServerError(response, exc.body()) from None
            raise discord.HTTPException(response, exc.body()) from None

    def on(self, method: str, route: str, respond: Any, *, times: int | None = None) -> None:
        """Answer ``method route`` with ``respond`` (a payload, or ``callable(RecordedRequest)``).

        ``route`` may be an OpenAPI template, discord.py's template or a concrete path. Overrides are
        consulted before the built-in routes (schema validation still runs first)."""
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

    # ================================================================================================
    # gateway

    def dispatch_gateway(self, event: str, data: dict[str, Any]) -> None:
        """Feed one gateway DISPATCH event (``READY``, ``GUILD_CREATE``...) through discord.py's parser."""
        parser = self.bot._connection.parsers.get(event)
        if parser is None:
            raise HarnessError(f"discord.py has no parser for gateway event {event}")
        self.bot.dispatch("socket_event_type", event)
        parser(data)

    def _echo(self, event: str, data: dict[str, Any]) -> None:
        if not self.gateway_echo or self._closed:
            return
        intents = self.bot.intents
        if event.startswith("MESSAGE_"):
            in_guild = "guild_id" in data
            if in_guild and not intents.guild_messages:
                return
            if not in_guild and not intents.dm_messages:
                return
            author = (data.get("author") or {}).get("id")
            if (
                event != "MESSAGE_DELETE"
                and author != str(self.bot_user.id)
                and in_guild
                and not intents.message_content
            ):
                mentioned = any(m.get("id") == str(self.bot_user.id) for m in data.get("mentions") or [])
                if not mentioned:
                    for key, empty in (("content", ""), ("embeds", []), ("attachments", []), ("components", [])):
                        data[key] = empty
        elif not intents.guilds:
            return

        def deliver() -> None:
            if self._closed:
                return
            try:
                self.dispatch_gateway(event, data)
            except Exception:
                self.server.violations.append(
                    f"gateway echo {event} failed inside discord.py:\n{traceback.format_exc()}"
                )

        asyncio.get_running_loop().call_soon(deliver)

    # ================================================================================================
    # building the world

    def _new_id(self) -> int:
        return self.server.new_id()

    def add_user(
        self,
        name: str,
        *,
        global_name: str | None = None,
        bot: bool = False,
        dms_open: bool = True,
        locale: str = "en-US",
    ) -> SimUser:
        """A Discord user who is not (yet) in any guild."""
        user = SimUser(id=self._new_id(), name=name, global_name=global_name, bot=bot, dms_open=dms_open, locale=locale)
        self.server.users[user.id] = user
        return user

    def add_guild(
        self,
        name: str = "Test Guild",
        *,
        owner: SimUser | None = None,
        everyone_permissions: int | discord.Permissions | None = None,
        bot_permissions: int | discord.Permissions | None = None,
        locale: str = "en-US",
    ) -> discord.Guild:
        """Create a guild the bot is in (GUILD_CREATE). Returns discord.py's cached Guild."""
        gid = self._new_id()
        owner = owner or self.server.owner or self.bot_user
        everyone = DEFAULT_EVERYONE if everyone_permissions is None else _perm_value(everyone_permissions)
        bot_perms = everyone | DEFAULT_BOT_EXTRA if bot_permissions is None else _perm_value(bot_permissions)
        bot_role_id = self._new_id()
        guild = SimGuild(
            id=gid, name=name, owner_id=owner.id, everyone_permissions=everyone, bot_role_id=bot_role_id, locale=locale
        )
        guild.roles[gid] = SimRole(gid, gid, "@everyone", everyone, P.role_payload(gid, "@everyone", everyone))
        bot_role = P.role_payload(bot_role_id, self.bot_user.name, bot_perms, position=1)
        bot_role["managed"] = True
        bot_role["tags"] = {"bot_id": str(self.bot_user.id)}
        guild.roles[bot_role_id] = SimRole(bot_role_id, gid, self.bot_user.name, bot_perms, bot_role)
        now = P.iso()
        guild.members[self.bot_user.id] = {"joined_at": now, "roles": [bot_role_id]}
        guild.members.setdefault(owner.id, {"joined_at": now, "roles": []})
        self.server.guilds[gid] = guild
        members = [
            self.server.member_payload(guild, self.server.users[uid])
            for uid in guild.members
            if uid == self.bot_user.id or self.bot.intents.members
        ]
        payload = P.guild_payload(
            gid,
            name,
            owner_id=owner.id,
            roles=[r.payload for r in guild.roles.values()],
            channels=[],
            members=members,
            joined_at=now,
            locale=locale,
        )
        payload["member_count"] = len(guild.members)
        self.dispatch_gateway("GUILD_CREATE", payload)
        cached = self.bot.get_guild(gid)
        assert cached is not None, "GUILD_CREATE did not cache the guild (is the guilds intent disabled?)"
        return cached

    def add_text_channel(
        self, guild: Any, name: str = "general", *, topic: str | None = None, category: Any = None
    ) -> discord.TextChannel:
        """Create a text channel (CHANNEL_CREATE). Returns discord.py's cached TextChannel."""
        sim_guild = self.sim_guild(guild)
        cid = self._new_id()
        parent = self.channel(category).id if category is not None else None
        payload = P.text_channel_payload(
            cid, sim_guild.id, name, position=len(sim_guild.channel_ids), topic=topic, parent_id=parent
        )
        self.server.channels[cid] = SimChannel(id=cid, type=0, payload=payload, guild_id=sim_guild.id)
        sim_guild.channel_ids.append(cid)
        self.dispatch_gateway("CHANNEL_CREATE", copy.deepcopy(payload))
        channel = self.bot.get_channel(cid)
        assert isinstance(channel, discord.TextChannel)
        return channel

    def add_category(self, guild: Any, name: str) -> discord.CategoryChannel:
        sim_guild = self.sim_guild(guild)
        cid = self._new_id()
        payload = P.category_payload(cid, sim_guild.id, name, position=len(sim_guild.channel_ids))
        self.server.channels[cid] = SimChannel(id=cid, type=4, payload=payload, guild_id=sim_guild.id)
        sim_guild.channel_ids.append(cid)
        self.dispatch_gateway("CHANNEL_CREATE", copy.deepcopy(payload))
        channel = self.bot.get_channel(cid)
        assert isinstance(channel, discord.CategoryChannel)
        return channel

    def add_member(
        self,
        guild: Any,
        user: str | SimUser,
        *,
        nick: str | None = None,
        roles: Sequence[SimRole] = (),
        global_name: str | None = None,
    ) -> SimUser:
        """Add a user (new, from a name, or an existing SimUser) to a guild.

        GUILD_MEMBER_ADD is delivered only if the bot has the members intent, as on Discord; without
        it discord.py will not cache the member, but interactions still carry full member data."""
        sim_guild = self.sim_guild(guild)
        sim_user = self.add_user(user, global_name=global_name) if isinstance(user, str) else self.user(user)
        sim_guild.members[sim_user.id] = {"joined_at": P.iso(), "roles": [r.id for r in roles], "nick": nick}
        if self.bot.intents.members:
            data = self.server.member_payload(sim_guild, sim_user)
            data["guild_id"] = str(sim_guild.id)
            self.dispatch_gateway("GUILD_MEMBER_ADD", data)
        else:
            cached = self.bot.get_guild(sim_guild.id)
            if cached is not None and cached._member_count is not None:
                cached._member_count += 1
        return sim_user

    def add_role(self, guild: Any, name: str, *, permissions: int | discord.Permissions = 0) -> SimRole:
        sim_guild = self.sim_guild(guild)
        rid = self._new_id()
        perms = _perm_value(permissions)
        role = SimRole(rid, sim_guild.id, name, perms, P.role_payload(rid, name, perms, position=len(sim_guild.roles)))
        sim_guild.roles[rid] = role
        self.dispatch_gateway("GUILD_ROLE_CREATE", {"guild_id": str(sim_guild.id), "role": copy.deepcopy(role.payload)})
        return role

    def give_role(self, guild: Any, user: Any, role: SimRole) -> None:
        sim_guild = self.sim_guild(guild)
        sim_user = self.user(user)
        info = sim_guild.members[sim_user.id]
        if role.id not in info["roles"]:
            info["roles"].append(role.id)
        if self.bot.intents.members:
            data = self.server.member_payload(sim_guild, sim_user)
            data["guild_id"] = str(sim_guild.id)
            self.dispatch_gateway("GUILD_MEMBER_UPDATE", data)

    def close_dms(self, user: Any) -> None:
        """The user no longer accepts DMs from the bot: sends fail with 403 / code 50007."""
        self.user(user).dms_open = False

    def open_dms(self, user: Any) -> None:
        self.user(user).dms_open = True

    def dm_channel(self, user: Any) -> SimChannel:
        """The user's DM channel with the bot (created on Discord's side if needed)."""
        return self.server.dm_channel_for(self.user(user))

    # -- lookups -------------------------------------------------------------------------------------
    def user(self, obj: Any) -> SimUser:
        """The SimUser for a SimUser, discord.User/Member, or id."""
        if isinstance(obj, SimUser):
            return obj
        uid = int(getattr(obj, "id", obj))
        try:
            return self.server.users[uid]
        except KeyError:
            raise HarnessError(f"unknown user {obj!r}: create it with add_user/add_member") from None

    def sim_guild(self, obj: Any) -> SimGuild:
        if isinstance(obj, SimGuild):
            return obj
        gid = int(getattr(obj, "id", obj))
        try:
            return self.server.guilds[gid]
        except KeyError:
            raise HarnessError(f"unknown guild {obj!r}") from None

    def channel(self, obj: Any) -> SimChannel:
        """The SimChannel for a discord channel, SimChannel, HarnessMessage's channel, or id."""
        if isinstance(obj, SimChannel):
            return obj
        if isinstance(obj, HarnessMessage):
            return self.server.channels[obj.channel_id]
        cid = int(getattr(obj, "id", obj))
        try:
            return self.server.channels[cid]
        except KeyError:
            raise HarnessError(f"unknown channel {obj!r}") from None

    def member(self, guild: Any, user: Any) -> discord.Member:
        """A discord.Member for the user (cached one if discord.py has it, else built from the payload)."""
        sim_guild = self.sim_guild(guild)
        sim_user = self.user(user)
        dguild = self.bot.get_guild(sim_guild.id)
        assert dguild is not None
        cached = dguild.get_member(sim_user.id)
        if cached is not None:
            return cached
        return discord.Member(
            data=self.server.member_payload(sim_guild, sim_user),  # type: ignore[arg-type]
            guild=dguild,
            state=self.bot._connection,
        )

    def message(self, obj: Any) -> HarnessMessage:
        """The HarnessMessage for a HarnessMessage, InteractionResult (its message), discord.Message or id."""
        if isinstance(obj, HarnessMessage):
            return obj
        if isinstance(obj, InteractionResult):
            if obj.message is None:
                raise HarnessError(f"{obj!r} has no message")
            return obj.message
        mid = int(getattr(obj, "id", obj))
        try:
            return self.server.messages[mid]
        except KeyError:
            raise HarnessError(f"unknown message {obj!r}") from None

    def to_discord_message(self, message: Any) -> discord.Message:
        """Build a discord.Message from the stored payload (as a fetch would)."""
        msg = self.message(message)
        channel = self.bot.get_channel(msg.channel_id) or self.bot.get_partial_messageable(msg.channel_id)
        return self.bot._connection.create_message(channel=channel, data=copy.deepcopy(msg.payload))  # type: ignore

    # ================================================================================================
    # queries

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
        return list(self._results)

    def messages_in(
        self, channel: Any, *, include_ephemeral: bool = False, include_deleted: bool = False
    ) -> list[HarnessMessage]:
        """Messages in a channel, oldest first (by default: what everybody in the channel can see)."""
        cid = self.channel(channel).id
        return [
            m
            for m in self.server.messages.values()
            if m.channel_id == cid and (include_ephemeral or not m.ephemeral) and (include_deleted or not m.deleted)
        ]

    def dms_to(self, user: Any, *, include_deleted: bool = False) -> list[HarnessMessage]:
        """Messages the bot sent in its DM channel with this user (including interaction responses there)."""
        sim_user = self.user(user)
        cid = self.server.dm_by_user.get(sim_user.id)
        if cid is None:
            return []
        return [
            m
            for m in self.server.messages.values()
            if m.channel_id == cid and m.author_id == self.bot_user.id and (include_deleted or not m.deleted)
        ]

    def ephemeral_responses_to(self, user: Any, *, include_deleted: bool = False) -> list[HarnessMessage]:
        """Ephemeral interaction responses/follow-ups only this user could see, oldest first."""
        uid = self.user(user).id
        return [
            m
            for m in self.server.messages.values()
            if m.ephemeral and m.recipient_id == uid and (include_deleted or not m.deleted)
        ]

    def visible_to(self, user: Any, channel: Any) -> list[HarnessMessage]:
        """What this user sees in a channel: public messages plus their own ephemeral ones."""
        uid = self.user(user).id
        return [
            m for m in self.messages_in(channel, include_ephemeral=True) if not m.ephemeral or m.recipient_id == uid
        ]

    def last_response(self) -> HarnessMessage | None:
        """The message most recently created or edited through an interaction (response, follow-up, edit)."""
        return self.server.messages[self.server.touched[-1]] if self.server.touched else None

    def last_message(self, channel: Any = None) -> HarnessMessage | None:
        msgs = (
            self.messages_in(channel, include_ephemeral=True)
            if channel is not None
            else [m for m in self.server.messages.values() if not m.deleted]
        )
        return msgs[-1] if msgs else None

    # ================================================================================================
    # settling and error reporting

    async def settle(
        self, timeout: float | None = None, *, long_sleep: float | None = None, check: bool = True
    ) -> None:
        """Let the bot run until no task is busy (see tasks.py), then raise any new violations/errors.

        Raises SettleTimeout if tasks are still busy after ``timeout`` seconds."""
        assert self._watcher is not None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (timeout if timeout is not None else self.settle_timeout)
        long_sleep = self.long_sleep if long_sleep is None else long_sleep
        quiet = 0
        while True:
            for _ in range(3):
                await asyncio.sleep(0)
            busy = self._watcher.busy_tasks(long_sleep)
            if not busy:
                quiet += 1
                if quiet >= 3:
                    break
                continue
            quiet = 0
            remaining = deadline - loop.time()
            if remaining <= 0:
                names = "\n".join(f"  - {describe(t)}" for t in busy)
                raise SettleTimeout(
                    f"bot tasks still busy after settling:\n{names}\n"
                    "(pass a longer timeout, or harness.ignore_task(task) for background work)"
                )
            await asyncio.wait(busy, timeout=min(0.05, remaining), return_when=asyncio.FIRST_COMPLETED)
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
        """Raise for schema/protocol violations and bot errors not yet reported."""
        if self._expecting:
            return
        new_violations = self.server.violations[self._reported_violations :]
        new_errors = self.bot_errors[self._reported_errors :]
        self._reported_violations = len(self.server.violations)
        self._reported_errors = len(self.bot_errors)
        if new_violations:
            text = "\n\n".join(new_violations)
            if new_errors:
                text += "\n\nand the bot logged:\n" + "\n".join(new_errors)
            raise ProtocolViolation("the bot sent requests Discord would reject:\n" + text)
        if new_errors:
            raise BotErrors("the bot raised/logged errors:\n" + "\n\n".join(new_errors))

    @contextlib.contextmanager
    def expect_violations(self) -> Iterator[Expected]:
        """Collect (instead of raising) violations and bot errors inside the block; at least one
        violation must happen."""
        caught = Expected()
        start_v, start_e = len(self.server.violations), len(self.bot_errors)
        self._expecting += 1
        try:
            yield caught
        finally:
            self._expecting -= 1
            caught.violations.extend(self.server.violations[start_v:])
            caught.bot_errors.extend(self.bot_errors[start_e:])
            self._reported_violations = max(self._reported_violations, len(self.server.violations))
            self._reported_errors = max(self._reported_errors, len(self.bot_errors))
        if not caught.violations:
            raise AssertionError("expected the bot to send something Discord rejects, but every request was valid")

    @contextlib.contextmanager
    def expect_bot_errors(self) -> Iterator[Expected]:
        """Collect bot errors (exceptions discord.py logged) inside the block; at least one must happen."""
        caught = Expected()
        start_e = len(self.bot_errors)
        self._expecting += 1
        try:
            yield caught
        finally:
            self._expecting -= 1
            caught.bot_errors.extend(self.bot_errors[start_e:])
            self._reported_errors = max(self._reported_errors, len(self.bot_errors))
        if not caught.bot_errors:
            raise AssertionError("expected the bot to log an error, but it did not")

    # ================================================================================================
    # interactions

    def _base_interaction(
        self, itype: int, user: SimUser, channel: SimChannel, data: dict[str, Any], *, locale: str | None = None
    ) -> dict[str, Any]:
        iid = self._new_id()
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.app_id),
            "type": itype,
            "data": data,
            "token": P.new_token(),
            "version": 1,
            "locale": locale or user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": 10 * 1024 * 1024,
            "channel_id": str(channel.id),
        }
        if channel.guild_id is not None:
            guild = self.server.guilds[channel.guild_id]
            if user.id not in guild.members:
                raise HarnessError(f"{user.name} is not a member of guild {guild.name!r}: use add_member first")
            perms = self.server.permissions(guild, user.id)
            payload.update(
                {
                    "guild_id": str(guild.id),
                    "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
                    "guild_locale": guild.locale,
                    "member": self.server.member_payload(guild, user, with_permissions=True),
                    "channel": P.interaction_channel_payload(channel.payload, perms),
                    "app_permissions": str(self.server.permissions(guild, self.bot_user.id)),
                    "context": 0,
                    "authorizing_integration_owners": {"0": str(guild.id)},
                }
            )
        else:
            if channel.recipient_id != user.id:
                raise HarnessError(f"{user.name} cannot use the DM channel {channel.id} of another user")
            payload.update(
                {
                    "user": self.server.user_payload(user),
                    "channel": P.interaction_channel_payload(channel.payload, None),
                    "app_permissions": str(DM_APP_PERMISSIONS),
                    "context": 1,
                    "authorizing_integration_owners": {"0": "0"},
                }
            )
        return payload

    async def dispatch_interaction(
        self, payload: dict[str, Any], *, message_id: int | None = None, wait: bool = True, expect_response: bool = True
    ) -> InteractionResult:
        """Register and dispatch a raw INTERACTION_CREATE payload (the lower-level entry point)."""
        user_data: dict[str, Any] = payload.get("member", {}).get("user") or payload["user"]
        record = InteractionRecord(
            id=int(payload["id"]),
            token=payload["token"],
            type=payload["type"],
            user_id=int(user_data["id"]),
            channel_id=int(payload["channel_id"]),
            guild_id=int(payload["guild_id"]) if payload.get("guild_id") else None,
            payload=copy.deepcopy(payload),
            message_id=message_id,
        )
        self.server.interactions[record.token] = record
        result = InteractionResult(self, record)
        self._results.append(result)
        self.dispatch_gateway("INTERACTION_CREATE", copy.deepcopy(payload))
        if wait:
            await self.settle()
            if expect_response and not record.acknowledged and not self._expecting:
                kind = {2: "application command", 3: "component", 4: "autocomplete", 5: "modal submit"}[record.type]
                raise NoResponse(
                    f"the bot never answered the {kind} interaction {describe_interaction(payload)}; "
                    "Discord would show 'This interaction failed' "
                    "(pass expect_response=False if that is intended)"
                )
        return result

    # -- application commands ----------------------------------------------------------------------------
    def _tree(self) -> app_commands.CommandTree[Any]:
        tree = getattr(self.bot, "tree", None) or self.bot._connection._command_tree
        if tree is None:
            raise HarnessError("the bot has no app_commands.CommandTree")
        return tree

    def _find_command(self, name: str, channel: SimChannel, ctype: discord.AppCommandType) -> tuple[Any, int | None]:
        tree = self._tree()
        if channel.guild_id is not None:
            cmd = tree.get_command(name, guild=discord.Object(channel.guild_id), type=ctype)
            if cmd is not None:
                return cmd, channel.guild_id
        cmd = tree.get_command(name, type=ctype)
        if cmd is None:
            known = [c.name for c in tree.get_commands(type=ctype)]
            if channel.guild_id is not None:
                known += [c.name for c in tree.get_commands(guild=discord.Object(channel.guild_id), type=ctype)]
            raise HarnessError(f"no {ctype.name} command named {name!r}; the tree has {sorted(set(known))}")
        return cmd, None

    def _command_id(self, guild_id: int | None, name: str, ctype: int) -> int:
        synced = self.server.commands.get(guild_id)
        if synced is not None and not any(c["name"] == name and int(c.get("type", 1)) == ctype for c in synced):
            raise HarnessError(
                f"command {name!r} is in the tree but was not in the last sync of "
                f"{'guild ' + str(guild_id) if guild_id else 'global commands'}: Discord would not offer it"
            )
        return self.server.command_ids.setdefault((guild_id, name, ctype), self._new_id())

    def _command_data(
        self,
        user: SimUser,
        channel: SimChannel,
        command: str,
        options: dict[str, Any] | None,
        subcommand: str | None,
        *,
        focused: str | None = None,
        focused_value: Any = None,
    ) -> dict[str, Any]:
        path = command.split() + (subcommand.split() if subcommand else [])
        root, guild_id = self._find_command(path[0], channel, discord.AppCommandType.chat_input)
        definition = root.to_dict(self._tree())
        target: Any = root
        defs = definition.get("options", [])
        wrappers: list[dict[str, Any]] = []
        for part in path[1:]:
            match = next((o for o in defs if o["name"] == part and o["type"] in (1, 2)), None)
            if match is None:
                subs = [o["name"] for o in defs if o["type"] in (1, 2)]
                raise HarnessError(f"{' '.join(path)!r}: no subcommand {part!r}; choices are {subs}")
            wrappers.append({"type": match["type"], "name": part, "options": []})
            defs = match.get("options", [])
            target = target.get_command(part) if hasattr(target, "get_command") else target
        if any(o["type"] in (1, 2) for o in defs):
            subs = [o["name"] for o in defs if o["type"] in (1, 2)]
            raise HarnessError(f"{' '.join(path)!r} is a group: pick a subcommand from {subs}")
        aliases = {}
        for py_name, param in (getattr(target, "_params", None) or {}).items():
            aliases[py_name] = param.display_name
        resolved: dict[str, dict[str, Any]] = {}
        guild = self.server.guilds.get(channel.guild_id) if channel.guild_id else None
        leaf = self._build_options(
            defs, dict(options or {}), aliases, guild, resolved, channel, focused=focused, focused_value=focused_value
        )
        node_options = leaf
        for wrapper in reversed(wrappers):
            wrapper["options"] = node_options
            node_options = [wrapper]
        data: dict[str, Any] = {
            "id": str(self._command_id(guild_id, path[0], 1)),
            "name": path[0],
            "type": 1,
        }
        if node_options:
            data["options"] = node_options
        if resolved:
            data["resolved"] = resolved
        if guild_id is not None:
            data["guild_id"] = str(guild_id)
        return data

    def _build_options(
        self,
        defs: list[dict[str, Any]],
        given: dict[str, Any],
        aliases: dict[str, str],
        guild: SimGuild | None,
        resolved: dict[str, dict[str, Any]],
        channel: SimChannel,
        *,
        focused: str | None,
        focused_value: Any,
    ) -> list[dict[str, Any]]:
        by_name = {d["name"]: d for d in defs}
        normalised: dict[str, Any] = {}
        for key, value in given.items():
            name = aliases.get(key, key)
            if name not in by_name:
                raise HarnessError(f"unknown option {key!r}; the command takes {list(by_name)}")
            normalised[name] = value
        if focused is not None:
            focused = aliases.get(focused, focused)
            if focused not in by_name:
                raise HarnessError(f"unknown focused option {focused!r}; the command takes {list(by_name)}")
            if not by_name[focused].get("autocomplete"):
                raise HarnessError(f"option {focused!r} has no autocomplete")
        out = []
        for definition in defs:
            name = definition["name"]
            if name == focused:
                out.append({"name": name, "type": definition["type"], "value": focused_value, "focused": True})
                continue
            if name not in normalised:
                if definition.get("required") and focused is None:
                    raise HarnessError(f"missing required option {name!r}")
                continue
            value = self._option_value(definition, normalised[name], guild, resolved, channel)
            out.append({"name": name, "type": definition["type"], "value": value})
        return out

    def _option_value(
        self,
        definition: dict[str, Any],
        value: Any,
        guild: SimGuild | None,
        resolved: dict[str, dict[str, Any]],
        channel: SimChannel,
    ) -> Any:
        name, otype = definition["name"], definition["type"]
        if isinstance(value, app_commands.Choice):
            value = value.value
        if isinstance(value, enum.Enum):
            value = value.value
        choices = definition.get("choices")
        if choices:
            values = [c["value"] for c in choices]
            if value not in values:
                by_choice_name = {c["name"]: c["value"] for c in choices}
                if value in by_choice_name:
                    value = by_choice_name[value]
                else:
                    raise HarnessError(f"{value!r} is not a choice of option {name!r}: {choices}")
        if otype == 3:
            if not isinstance(value, str):
                raise HarnessError(f"option {name!r} takes a string, got {value!r}")
            if len(value) < definition.get("min_length", 0) or len(value) > definition.get("max_length", 6000):
                raise HarnessError(f"option {name!r}: length {len(value)} outside the allowed range")
            return value
        if otype in (4, 10):
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or (otype == 4 and not isinstance(value, int))
            ):
                raise HarnessError(f"option {name!r} takes {'an integer' if otype == 4 else 'a number'}, got {value!r}")
            lo, hi = definition.get("min_value"), definition.get("max_value")
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                raise HarnessError(f"option {name!r}: {value} outside [{lo}, {hi}]")
            return value
        if otype == 5:
            if not isinstance(value, bool):
                raise HarnessError(f"option {name!r} takes a boolean, got {value!r}")
            return value
        if otype == 6:
            user = self.user(value)
            self._resolve_user(user, guild, resolved)
            return str(user.id)
        if otype == 7:
            target = self.channel(value)
            allowed = definition.get("channel_types")
            if allowed and target.type not in allowed:
                raise HarnessError(f"option {name!r} accepts channel types {allowed}, not {target.type}")
            self._resolve_channel(target, guild, resolved)
            return str(target.id)
        if otype == 8:
            role = self._role(value, guild)
            resolved.setdefault("roles", {})[str(role.id)] = copy.deepcopy(role.payload)
            return str(role.id)
        if otype == 9:
            if isinstance(value, SimRole):
                resolved.setdefault("roles", {})[str(value.id)] = copy.deepcopy(value.payload)
                return str(value.id)
            user = self.user(value)
            self._resolve_user(user, guild, resolved)
            return str(user.id)
        if otype == 11:
            att = self._upload(value, channel)
            resolved.setdefault("attachments", {})[att["id"]] = att
            return att["id"]
        raise HarnessError(f"unsupported option type {otype} for {name!r}")

    def _role(self, value: Any, guild: SimGuild | None) -> SimRole:
        if isinstance(value, SimRole):
            return value
        rid = int(getattr(value, "id", value))
        if guild is None or rid not in guild.roles:
            raise HarnessError(f"unknown role {value!r}")
        return guild.roles[rid]

    def _resolve_user(self, user: SimUser, guild: SimGuild | None, resolved: dict[str, dict[str, Any]]) -> None:
        resolved.setdefault("users", {})[str(user.id)] = self.server.user_payload(user)
        if guild is not None and user.id in guild.members:
            resolved.setdefault("members", {})[str(user.id)] = self.server.member_payload(
                guild, user, with_user=False, with_permissions=True
            )

    def _resolve_channel(self, target: SimChannel, guild: SimGuild | None, resolved: dict[str, dict[str, Any]]) -> None:
        data: dict[str, Any] = {
            k: target.payload[k]
            for k in ("id", "name", "type", "parent_id", "thread_metadata", "guild_id")
            if k in target.payload
        }
        data["permissions"] = str(self.server.permissions(guild, self.bot_user.id) if guild else DM_APP_PERMISSIONS)
        resolved.setdefault("channels", {})[str(target.id)] = data

    def _upload(self, value: Any, channel: SimChannel) -> dict[str, Any]:
        if isinstance(value, tuple):
            value = Attachment(*value)
        if not isinstance(value, Attachment):
            raise HarnessError(f"attachment options take harness.Attachment(filename, data), got {value!r}")
        att = P.attachment_payload(self._new_id(), channel.id, value.filename, value.data, ephemeral=True)
        if value.content_type:
            att["content_type"] = value.content_type
        self.server.cdn[att["url"]] = value.data
        self.server.cdn[att["proxy_url"]] = value.data
        return att

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
        """Run a chat-input command as ``user`` in ``channel`` (a guild channel or ``dm_channel(user)``).

        ``command`` may contain the subcommand path ("duel accept"); ``options`` maps option names
        (Discord or Python parameter names) to values: str/int/float/bool, a choice value or name,
        an Enum member, a user (SimUser/discord.User/id), a channel, a SimRole, or an Attachment."""
        sim_user, sim_channel = self.user(user), self.channel(channel)
        data = self._command_data(sim_user, sim_channel, command, options, subcommand)
        payload = self._base_interaction(2, sim_user, sim_channel, data, locale=locale)
        return await self.dispatch_interaction(payload, wait=wait, expect_response=expect_response)

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
        sim_user, sim_channel = self.user(user), self.channel(channel)
        data = self._command_data(
            sim_user, sim_channel, command, options, subcommand, focused=focused, focused_value=value
        )
        payload = self._base_interaction(4, sim_user, sim_channel, data)
        return await self.dispatch_interaction(payload, wait=wait, expect_response=expect_response)

    async def user_command(
        self, user: Any, channel: Any, name: str, target: Any, *, wait: bool = True, expect_response: bool = True
    ) -> InteractionResult:
        """Run a user context-menu command on ``target``."""
        sim_user, sim_channel = self.user(user), self.channel(channel)
        _cmd, guild_id = self._find_command(name, sim_channel, discord.AppCommandType.user)
        target_user = self.user(target)
        resolved: dict[str, dict[str, Any]] = {}
        guild = self.server.guilds.get(sim_channel.guild_id) if sim_channel.guild_id else None
        self._resolve_user(target_user, guild, resolved)
        data = {
            "id": str(self._command_id(guild_id, name, 2)),
            "name": name,
            "type": 2,
            "target_id": str(target_user.id),
            "resolved": resolved,
        }
        if guild_id:
            data["guild_id"] = str(guild_id)
        payload = self._base_interaction(2, sim_user, sim_channel, data)
        return await self.dispatch_interaction(payload, wait=wait, expect_response=expect_response)

    async def message_command(
        self, user: Any, name: str, message: Any, *, wait: bool = True, expect_response: bool = True
    ) -> InteractionResult:
        """Run a message context-menu command on a stored message."""
        sim_user, msg = self.user(user), self.message(message)
        sim_channel = self.server.channels[msg.channel_id]
        _cmd, guild_id = self._find_command(name, sim_channel, discord.AppCommandType.message)
        data = {
            "id": str(self._command_id(guild_id, name, 3)),
            "name": name,
            "type": 3,
            "target_id": str(msg.id),
            "resolved": {"messages": {str(msg.id): copy.deepcopy(msg.payload)}},
        }
        if guild_id:
            data["guild_id"] = str(guild_id)
        payload = self._base_interaction(2, sim_user, sim_channel, data)
        return await self.dispatch_interaction(payload, wait=wait, expect_response=expect_response)

    # -- components ----------------------------------------------------------------------------------
    def _visible_message(self, user: SimUser, message: Any) -> HarnessMessage:
        msg = self.message(message)
        if msg.deleted:
            raise HarnessError(f"message {msg.id} was deleted")
        if msg.ephemeral and msg.recipient_id != user.id:
            raise HarnessError(
                f"{user.name} cannot see ephemeral message {msg.id} (it was for user {msg.recipient_id})"
            )
        channel = self.server.channels.get(msg.channel_id)
        if channel is None:
            raise HarnessError(f"the channel of message {msg.id} no longer exists")
        if channel.is_dm and channel.recipient_id != user.id:
            raise HarnessError(f"{user.name} cannot see a DM to user {channel.recipient_id}")
        if channel.guild_id is not None and user.id not in self.server.guilds[channel.guild_id].members:
            raise HarnessError(f"{user.name} is not in the guild of message {msg.id}")
        return msg

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
        """Press a button (by custom_id or label) on a message the user can see (channel, DM or ephemeral)."""
        sim_user = self.user(user)
        msg = self._visible_message(sim_user, message)
        if custom_id is None and label is None:
            raise HarnessError("click() needs a custom_id or a label")
        component = msg.component(custom_id, label=label)
        if component.get("type") != 2:
            raise HarnessError(f"{custom_id!r} is not a button (type {component.get('type')})")
        if component.get("disabled"):
            raise HarnessError(f"button {component.get('custom_id')!r} is disabled")
        if component.get("style") in (5, 6) or "custom_id" not in component:
            raise HarnessError("link/premium buttons do not send interactions")
        data = {"custom_id": component["custom_id"], "component_type": 2}
        return await self._component(sim_user, msg, data, wait=wait, expect_response=expect_response)

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
        """Pick ``values`` in a select menu (string select: option values; user/role/channel selects:
        users, roles or channels)."""
        sim_user = self.user(user)
        msg = self._visible_message(sim_user, message)
        component = msg.component(custom_id)
        ctype = component.get("type")
        if ctype not in (3, 5, 6, 7, 8):
            raise HarnessError(f"{custom_id!r} is not a select menu (type {ctype})")
        if component.get("disabled"):
            raise HarnessError(f"select {custom_id!r} is disabled")
        values = list(values)
        lo, hi = component.get("min_values", 1), component.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise HarnessError(f"select {custom_id!r} takes between {lo} and {hi} values, got {len(values)}")
        channel = self.server.channels[msg.channel_id]
        guild = self.server.guilds.get(channel.guild_id) if channel.guild_id else None
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": ctype}
        data["values"], resolved = self._select_values(component, values, guild)
        if resolved:
            data["resolved"] = resolved
        return await self._component(sim_user, msg, data, wait=wait, expect_response=expect_response)

    def _select_values(
        self, component: dict[str, Any], values: list[Any], guild: SimGuild | None
    ) -> tuple[list[str], dict[str, dict[str, Any]]]:
        ctype = component["type"]
        resolved: dict[str, dict[str, Any]] = {}
        if ctype == 3:
            options = [o["value"] for o in component.get("options", [])]
            for v in values:
                if v not in options:
                    raise HarnessError(f"{v!r} is not an option of select {component.get('custom_id')!r}: {options}")
            return [str(v) for v in values], resolved
        out = []
        for v in values:
            if ctype == 8 or (isinstance(v, (SimChannel, discord.abc.GuildChannel))):
                target = self.channel(v)
                self._resolve_channel(target, guild, resolved)
                out.append(str(target.id))
            elif ctype == 6 or isinstance(v, SimRole):
                role = self._role(v, guild)
                resolved.setdefault("roles", {})[str(role.id)] = copy.deepcopy(role.payload)
                out.append(str(role.id))
            else:
                user = self.user(v)
                self._resolve_user(user, guild, resolved)
                out.append(str(user.id))
        return out, resolved

    async def _component(
        self, user: SimUser, msg: HarnessMessage, data: dict[str, Any], *, wait: bool, expect_response: bool
    ) -> InteractionResult:
        channel = self.server.channels[msg.channel_id]
        payload = self._base_interaction(3, user, channel, data)
        payload["message"] = copy.deepcopy(msg.payload)
        return await self.dispatch_interaction(payload, message_id=msg.id, wait=wait, expect_response=expect_response)

    # -- modals --------------------------------------------------------------------------------------
    def modals_shown_to(self, user: Any) -> list[dict[str, Any]]:
        uid = self.user(user).id
        return [modal for record, modal in self._shown_modals_list() if record.user_id == uid]

    def _shown_modals_list(self) -> list[tuple[InteractionRecord, dict[str, Any]]]:
        out = []
        for record in self.server.interactions.values():
            for cb in record.callbacks:
                if cb.get("type") == 9:
                    out.append((record, cb.get("data") or {}))
        return out

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

        ``values`` maps each field's custom_id to a string (text input), a list (select menus) or
        Attachments (file upload). Without a shown modal, pass ``custom_id`` and ``channel`` to submit
        a modal built from ``values`` as plain text inputs."""
        sim_user = self.user(user)
        shown = [
            (r, m)
            for r, m in self._shown_modals_list()
            if r.user_id == sim_user.id
            and r.token not in self._submitted_modals
            and (custom_id is None or m.get("custom_id") == custom_id)
        ]
        if shown:
            origin, modal = shown[-1]
            sim_channel = self.server.channels[origin.channel_id]
            origin_message = origin.message_id
        elif custom_id is not None and channel is not None:
            origin, sim_channel, origin_message = None, self.channel(channel), None
            modal = {
                "custom_id": custom_id,
                "title": "",
                "components": [
                    {"type": 1, "components": [{"type": 4, "custom_id": k, "style": 1, "label": k}]} for k in values
                ],
            }
        else:
            raise HarnessError(
                f"the bot has not shown {sim_user.name} a modal"
                + (f" with custom_id {custom_id!r}" if custom_id else "")
            )
        if channel is not None:
            sim_channel = self.channel(channel)
        if message is not None:
            origin_message = self.message(message).id
        guild = self.server.guilds.get(sim_channel.guild_id) if sim_channel.guild_id else None
        remaining = dict(values)
        resolved: dict[str, dict[str, Any]] = {}
        components = [
            self._modal_component(c, remaining, guild, resolved, sim_channel) for c in modal.get("components", [])
        ]
        if remaining:
            raise HarnessError(f"modal {modal.get('custom_id')!r} has no fields {sorted(remaining)}")
        data: dict[str, Any] = {"custom_id": modal["custom_id"], "components": components}
        if resolved:
            data["resolved"] = resolved
        payload = self._base_interaction(5, sim_user, sim_channel, data)
        if origin is not None:
            self._submitted_modals.add(origin.token)  # a submitted modal closes
        if origin_message is not None:
            payload["message"] = copy.deepcopy(self.server.messages[origin_message].payload)
        return await self.dispatch_interaction(
            payload, message_id=origin_message, wait=wait, expect_response=expect_response
        )

    def _modal_component(
        self,
        comp: dict[str, Any],
        values: dict[str, Any],
        guild: SimGuild | None,
        resolved: dict[str, dict[str, Any]],
        channel: SimChannel,
    ) -> dict[str, Any]:
        ctype = comp.get("type")
        out: dict[str, Any] = {"type": ctype}
        if comp.get("id") is not None:
            out["id"] = comp["id"]
        if ctype == 1:
            out["components"] = [
                self._modal_component(c, values, guild, resolved, channel) for c in comp.get("components", [])
            ]
        elif ctype == 18:
            out["component"] = self._modal_component(comp["component"], values, guild, resolved, channel)
        elif ctype == 4:
            cid = comp["custom_id"]
            value = values.pop(cid, comp.get("value") or "")
            if not isinstance(value, str):
                raise HarnessError(f"text input {cid!r} takes a string, got {value!r}")
            required = comp.get("required", True)
            if required and not value:
                raise HarnessError(f"text input {cid!r} is required")
            if value and not comp.get("min_length", 0) <= len(value) <= comp.get("max_length", 4000):
                raise HarnessError(f"text input {cid!r}: length {len(value)} outside the allowed range")
            out.update(custom_id=cid, value=value)
        elif ctype in (3, 5, 6, 7, 8):
            cid = comp["custom_id"]
            chosen = list(values.pop(cid, []))
            if comp.get("required", True) and len(chosen) < max(1, comp.get("min_values", 1)):
                raise HarnessError(f"select {cid!r} in the modal is required")
            out["custom_id"] = cid
            out["values"], extra = self._select_values(comp, chosen, guild)
            for key, entries in extra.items():
                resolved.setdefault(key, {}).update(entries)
        elif ctype == 19:
            cid = comp["custom_id"]
            files = values.pop(cid, [])
            out["custom_id"] = cid
            out["values"] = []
            for f in files if isinstance(files, list) else [files]:
                att = self._upload(f, channel)
                resolved.setdefault("attachments", {})[att["id"]] = att
                out["values"].append(att["id"])
        return out

    # -- plain messages ------------------------------------------------------------------------------
    async def send_message(
        self,
        user: Any,
        channel: Any,
        content: str = "",
        *,
        embeds: Sequence[dict[str, Any]] = (),
        reply_to: Any = None,
        wait: bool = True,
    ) -> HarnessMessage:
        """A user posts a message (MESSAGE_CREATE, subject to the bot's intents as on Discord)."""
        sim_user, sim_channel = self.user(user), self.channel(channel)
        if sim_channel.guild_id is not None and sim_user.id not in self.server.guilds[sim_channel.guild_id].members:
            raise HarnessError(f"{sim_user.name} is not in the guild of channel {sim_channel.id}")
        if sim_channel.is_dm and sim_channel.recipient_id != sim_user.id:
            raise HarnessError(f"{sim_user.name} cannot post in another user's DM channel")
        body: dict[str, Any] = {"content": content, "embeds": list(embeds)}
        if reply_to is not None:
            body["message_reference"] = {"message_id": self.message(reply_to).id}
        msg = self.server.create_message(
            sim_channel, body, [], author=sim_user, kind="user", recipient_id=sim_channel.recipient_id
        )
        if wait:
            await self.settle()
        return msg


def describe_interaction(payload: dict[str, Any]) -> str:
    data = payload.get("data") or {}
    if payload.get("type") in (2, 4):
        return f"/{data.get('name')}"
    return repr(data.get("custom_id"))


__all__ = [
    "Attachment",
    "BotErrors",
    "DiscordHarness",
    "Expected",
    "FakeGateway",
    "NoResponse",
    "ProtocolViolation",
    "SettleTimeout",
    "EPHEMERAL",
]
