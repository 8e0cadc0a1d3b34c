"""The harness's reads and changes of the fake world (users, guilds, channels, members, roles,
DMs, messages), as ``harness.add_guild(...)`` and so on: each one a call of :class:`~.world.World`
(a mixin of :class:`~.harness.DiscordHarness`, kept apart to keep the harness readable)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from .records import HarnessMessage, SimChannel, SimGuild, SimRole, SimUser

if TYPE_CHECKING:
    from .world import World


class WorldHelpers:
    if TYPE_CHECKING:
        world: World

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
        return self.world.add_user(name, global_name=global_name, bot=bot, dms_open=dms_open, locale=locale)

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
        return self.world.add_guild(
            name, owner=owner, everyone_permissions=everyone_permissions, bot_permissions=bot_permissions, locale=locale
        )

    def add_text_channel(self, guild: Any, name: str = "general", *, topic: str | None = None) -> discord.TextChannel:
        """Create a text channel (CHANNEL_CREATE). Returns discord.py's cached TextChannel."""
        return self.world.add_text_channel(guild, name, topic=topic)

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
        return self.world.add_member(guild, user, nick=nick, roles=roles, global_name=global_name)

    def add_role(self, guild: Any, name: str, *, permissions: int | discord.Permissions = 0) -> SimRole:
        """A role with these permissions (GUILD_ROLE_CREATE); give it with ``add_member(roles=)``."""
        return self.world.add_role(guild, name, permissions=permissions)

    def close_dms(self, user: Any) -> None:
        """The user no longer accepts DMs from the bot: sends fail with 403 / code 50007."""
        self.world.close_dms(user)

    def open_dms(self, user: Any) -> None:
        self.world.open_dms(user)

    def dm_channel(self, user: Any) -> SimChannel:
        """The user's DM channel with the bot (created on Discord's side if needed)."""
        return self.world.dm_channel(user)

    def user(self, obj: Any) -> SimUser:
        """The SimUser for a SimUser, discord.User/Member, or id."""
        return self.world.user(obj)

    def sim_guild(self, obj: Any) -> SimGuild:
        return self.world.sim_guild(obj)

    def channel(self, obj: Any) -> SimChannel:
        """The SimChannel for a discord channel, SimChannel, HarnessMessage's channel, or id."""
        return self.world.channel(obj)

    def member(self, guild: Any, user: Any) -> discord.Member:
        """A discord.Member for the user (cached one if discord.py has it, else built from the payload)."""
        return self.world.member(guild, user)

    def message(self, obj: Any) -> HarnessMessage:
        """The HarnessMessage for a HarnessMessage, InteractionResult (its message), discord.Message or id."""
        return self.world.message(obj)

    def to_discord_message(self, message: Any) -> discord.Message:
        """Build a discord.Message from the stored payload (as a fetch would)."""
        return self.world.to_discord_message(message)

    def messages_in(
        self, channel: Any, *, include_ephemeral: bool = False, include_deleted: bool = False
    ) -> list[HarnessMessage]:
        """Messages in a channel or thread, oldest first (by default: what everybody there can see)."""
        return self.world.messages_in(channel, include_ephemeral=include_ephemeral, include_deleted=include_deleted)

    def threads(self, channel: Any = None) -> list[SimChannel]:
        """The threads of a channel (or of every channel), oldest first."""
        return self.world.threads(channel)

    def thread_of(self, message: Any) -> SimChannel | None:
        """The thread started from this message, if any."""
        return self.world.thread_of(message)

    def dms_to(self, user: Any, *, include_deleted: bool = False) -> list[HarnessMessage]:
        """Messages the bot sent in its DM channel with this user (including interaction responses there)."""
        return self.world.dms_to(user, include_deleted=include_deleted)

    def ephemeral_responses_to(self, user: Any, *, include_deleted: bool = False) -> list[HarnessMessage]:
        """Ephemeral interaction responses/follow-ups only this user could see, oldest first."""
        return self.world.ephemeral_responses_to(user, include_deleted=include_deleted)

    def visible_to(self, user: Any, channel: Any) -> list[HarnessMessage]:
        """What this user sees in a channel: public messages plus their own ephemeral ones."""
        return self.world.visible_to(user, channel)

    def last_response(self) -> HarnessMessage | None:
        """The message most recently created or edited through an interaction (response, follow-up, edit)."""
        return self.world.last_response()

    def last_message(self, channel: Any = None) -> HarnessMessage | None:
        return self.world.last_message(channel)


__all__ = ["WorldHelpers"]
