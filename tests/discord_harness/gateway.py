"""The gateway side: a stand-in for the bot's websocket, and the DISPATCH events Discord would send
the bot (READY, the world's GUILD_CREATE/CHANNEL_CREATE/..., INTERACTION_CREATE, and the echo of
the bot's own messages when its intents ask for them), fed through discord.py's own parsers."""

from __future__ import annotations

import asyncio
import traceback
from typing import TYPE_CHECKING, Any

from . import payloads as P
from .records import HarnessError

if TYPE_CHECKING:
    from .harness import DiscordHarness


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

    async def close(self, code: int = 1000) -> None:
        return None


class GatewayEvents:
    """Feeds DISPATCH events to the bot, shaped as Discord sends them."""

    def __init__(self, harness: DiscordHarness):
        self.harness = harness

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """One gateway DISPATCH event (``READY``, ``GUILD_CREATE``...) through discord.py's parser."""
        bot = self.harness.bot
        parser = bot._connection.parsers.get(event)
        if parser is None:
            raise HarnessError(f"discord.py has no parser for gateway event {event}")
        bot.dispatch("socket_event_type", event)
        parser(data)

    def ready(self) -> None:
        """Connect the stand-in gateway and deliver READY (no guilds yet: ``add_guild`` sends them)."""
        harness = self.harness
        state = harness.bot._connection
        state.guild_ready_timeout = 0
        state._chunk_guilds = False
        harness.bot.ws = harness.gateway  # type: ignore[assignment]
        ready = {
            "v": 10,
            "user": P.client_user_payload(harness.bot_user.id, harness.bot_user.name),
            "guilds": [],
            "session_id": "harness-session",
            "session_type": "normal",
            "resume_gateway_url": "wss://gateway.discord.gg",
            "application": {"id": str(harness.app_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "geo_ordered_rtc_regions": [],
            "guild_join_requests": [],
            "user_settings": {},
            "auth_session_id_hash": "",
            "_trace": ["harness"],
        }
        self.dispatch("READY", ready)

    def echo(self, event: str, data: dict[str, Any]) -> None:
        """What the fake server reports happened (a message created, a thread...): delivered on the
        next loop iteration if the bot's intents ask for it, as Discord would."""
        harness = self.harness
        if not harness.gateway_echo or harness.closed:
            return
        intents = harness.bot.intents
        if event.startswith("MESSAGE_"):
            in_guild = "guild_id" in data
            if (in_guild and not intents.guild_messages) or (not in_guild and not intents.dm_messages):
                return
        elif event.startswith("GUILD_MEMBER_"):
            # the members intent's events; a bot hears of its own member without it
            if not intents.members and data.get("user", {}).get("id") != str(harness.bot_user.id):
                return
        elif not intents.guilds:
            return

        def deliver() -> None:
            if harness.closed:
                return
            try:
                self.dispatch(event, data)
            except Exception:
                harness.server.violations.append(
                    f"gateway echo {event} failed inside discord.py:\n{traceback.format_exc()}"
                )

        asyncio.get_running_loop().call_soon(deliver)
