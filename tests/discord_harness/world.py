"""Building the world the bot lives in (users, guilds, channels, roles, DMs), finding things in it,
and reading what the bot posted there (channels, threads, DMs, ephemeral messages).

Guilds, channels and members reach discord.py as the gateway events Discord would send
(GUILD_CREATE, CHANNEL_CREATE, GUILD_MEMBER_ADD...), so its caches hold what they would hold.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from . import payloads as P
from .records import HarnessError, HarnessMessage, InteractionResult, SimChannel, SimGuild, SimRole, SimUser

if TYPE_CHECKING:
    from .harness import DiscordHarness

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


MANAGE_THREADS = 1 << 34


def perm_value(value: int | discord.Permissions) -> int:
    return value.value if isinstance(value, discord.Permissions) else int(value)


class World:
    """The simulated users, guilds and channels, and queries over the messages in them."""

    def __init__(self, harness: DiscordHarness):
        self.harness = harness
        self.server = harness.server

    # -- building ----------------------------------------------------------------------------------
    def add_user(
        self,
        name: str,
        *,
        global_name: str | None = None,
        bot: bool = False,
        dms_open: bool = True,
        locale: str = "en-US",
    ) -> SimUser:
        user = SimUser(
            id=self.server.new_id(), name=name, global_name=global_name, bot=bot, dms_open=dms_open, locale=locale
        )
        self.server.users[user.id] = user
        self.saved()
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
        server, bot, bot_user = self.server, self.harness.bot, self.harness.bot_user
        gid = server.new_id()
        owner = owner or server.owner or bot_user
        everyone = DEFAULT_EVERYONE if everyone_permissions is None else perm_value(everyone_permissions)
        bot_perms = everyone | DEFAULT_BOT_EXTRA if bot_permissions is None else perm_value(bot_permissions)
        bot_role_id = server.new_id()
        guild = SimGuild(
            id=gid, name=name, owner_id=owner.id, everyone_permissions=everyone, bot_role_id=bot_role_id, locale=locale
        )
        guild.roles[gid] = SimRole(gid, gid, "@everyone", everyone, P.role_payload(gid, "@everyone", everyone))
        bot_role = P.role_payload(bot_role_id, bot_user.name, bot_perms, position=1)
        bot_role["managed"] = True
        bot_role["tags"] = {"bot_id": str(bot_user.id)}
        guild.roles[bot_role_id] = SimRole(bot_role_id, gid, bot_user.name, bot_perms, bot_role)
        now = P.iso()
        guild.members[bot_user.id] = {"joined_at": now, "roles": [bot_role_id]}
        guild.members.setdefault(owner.id, {"joined_at": now, "roles": []})
        server.guilds[gid] = guild
        members = [
            server.member_payload(guild, server.users[uid])
            for uid in guild.members
            if uid == bot_user.id or bot.intents.members
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
        self.harness.dispatch_gateway("GUILD_CREATE", payload)
        cached = bot.get_guild(gid)
        assert cached is not None, "GUILD_CREATE did not cache the guild (is the guilds intent disabled?)"
        self.saved()
        return cached

    def announce_guild(self, guild: SimGuild) -> None:
        """GUILD_CREATE for a guild the server already has (a persisted world read back): its
        roles, channels and active threads, as Discord sends them after READY."""
        server, bot, bot_user = self.server, self.harness.bot, self.harness.bot_user
        channels = [server.channels[c] for c in guild.channel_ids if c in server.channels]
        members = [
            server.member_payload(guild, server.users[uid])
            for uid in guild.members
            if uid in server.users and (uid == bot_user.id or bot.intents.members)
        ]
        payload = P.guild_payload(
            guild.id,
            guild.name,
            owner_id=guild.owner_id,
            roles=[r.payload for r in guild.roles.values()],
            channels=[copy.deepcopy(c.payload) for c in channels if not c.is_thread],
            members=members,
            joined_at=guild.members.get(bot_user.id, {}).get("joined_at") or P.iso(),
            locale=guild.locale,
        )
        payload["threads"] = [
            copy.deepcopy(c.payload)
            for c in channels
            if c.is_thread and not c.payload.get("thread_metadata", {}).get("archived")
        ]
        payload["member_count"] = len(guild.members)
        self.harness.dispatch_gateway("GUILD_CREATE", payload)

    def add_text_channel(self, guild: Any, name: str = "general", *, topic: str | None = None) -> discord.TextChannel:
        sim_guild = self.sim_guild(guild)
        cid = self.server.new_id()
        payload = P.text_channel_payload(cid, sim_guild.id, name, position=len(sim_guild.channel_ids), topic=topic)
        self.server.channels[cid] = SimChannel(id=cid, type=0, payload=payload, guild_id=sim_guild.id)
        sim_guild.channel_ids.append(cid)
        self.harness.dispatch_gateway("CHANNEL_CREATE", copy.deepcopy(payload))
        channel = self.harness.bot.get_channel(cid)
        assert isinstance(channel, discord.TextChannel)
        self.saved()
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
        sim_guild = self.sim_guild(guild)
        sim_user = self.add_user(user, global_name=global_name) if isinstance(user, str) else self.user(user)
        sim_guild.members[sim_user.id] = {"joined_at": P.iso(), "roles": [r.id for r in roles], "nick": nick}
        bot = self.harness.bot
        if bot.intents.members:
            data = self.server.member_payload(sim_guild, sim_user)
            data["guild_id"] = str(sim_guild.id)
            self.harness.dispatch_gateway("GUILD_MEMBER_ADD", data)
        else:
            cached = bot.get_guild(sim_guild.id)
            if cached is not None and cached._member_count is not None:
                cached._member_count += 1
        self.saved()
        return sim_user

    def add_role(self, guild: Any, name: str, *, permissions: int | discord.Permissions = 0) -> SimRole:
        sim_guild = self.sim_guild(guild)
        rid = self.server.new_id()
        perms = perm_value(permissions)
        top = 1 + max(r.position for r in sim_guild.roles.values())  # on top, above the bot's own role
        role = SimRole(rid, sim_guild.id, name, perms, P.role_payload(rid, name, perms, position=top))
        sim_guild.roles[rid] = role
        self.harness.dispatch_gateway(
            "GUILD_ROLE_CREATE", {"guild_id": str(sim_guild.id), "role": copy.deepcopy(role.payload)}
        )
        self.saved()
        return role

    def close_dms(self, user: Any) -> None:
        self.user(user).dms_open = False
        self.saved()

    def open_dms(self, user: Any) -> None:
        self.user(user).dms_open = True
        self.saved()

    def saved(self) -> None:
        """A persisted world (persist.py) writes a change made outside a request at once."""
        if self.server.journal is not None:
            self.server.journal.save()

    def dm_channel(self, user: Any) -> SimChannel:
        return self.server.dm_channel_for(self.user(user))

    # -- lookups -------------------------------------------------------------------------------------
    def user(self, obj: Any) -> SimUser:
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
        sim_guild = self.sim_guild(guild)
        sim_user = self.user(user)
        dguild = self.harness.bot.get_guild(sim_guild.id)
        assert dguild is not None
        cached = dguild.get_member(sim_user.id)
        if cached is not None:
            return cached
        return discord.Member(
            data=self.server.member_payload(sim_guild, sim_user),  # type: ignore[arg-type]
            guild=dguild,
            state=self.harness.bot._connection,
        )

    def message(self, obj: Any) -> HarnessMessage:
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
        msg = self.message(message)
        bot = self.harness.bot
        channel = bot.get_channel(msg.channel_id) or bot.get_partial_messageable(msg.channel_id)
        return bot._connection.create_message(channel=channel, data=copy.deepcopy(msg.payload))  # type: ignore

    def can_see(self, user: SimUser, channel: SimChannel) -> str | None:
        """Why ``user`` cannot see ``channel`` (None: they can)."""
        if channel.is_dm:
            if channel.recipient_id != user.id:
                return f"{user.name} cannot see a DM to user {channel.recipient_id}"
            return None
        guild = self.server.guilds.get(channel.guild_id) if channel.guild_id is not None else None
        if guild is None or user.id not in guild.members:
            return f"{user.name} is not a member of the guild of channel {channel.id}"
        manages_threads = self.server.permissions(guild, user.id) & MANAGE_THREADS
        if channel.type == 12 and user.id not in channel.member_ids and not manages_threads:
            return f"{user.name} was not added to the private thread {channel.name!r}"
        return None

    # -- what the bot posted -------------------------------------------------------------------------
    def messages_in(
        self, channel: Any, *, include_ephemeral: bool = False, include_deleted: bool = False
    ) -> list[HarnessMessage]:
        cid = self.channel(channel).id
        return [
            m
            for m in self.server.messages.values()
            if m.channel_id == cid and (include_ephemeral or not m.ephemeral) and (include_deleted or not m.deleted)
        ]

    def threads(self, channel: Any = None) -> list[SimChannel]:
        """Threads of a channel (or of every channel), oldest first."""
        parent = self.channel(channel).id if channel is not None else None
        return [c for c in self.server.channels.values() if c.is_thread and parent in (None, c.parent_id)]

    def thread_of(self, message: Any) -> SimChannel | None:
        """The thread started from this message, if any (its id is the message's)."""
        channel = self.server.channels.get(self.message(message).id)
        return channel if channel is not None and channel.is_thread else None

    def dms_to(self, user: Any, *, include_deleted: bool = False) -> list[HarnessMessage]:
        cid = self.server.dm_by_user.get(self.user(user).id)
        if cid is None:
            return []
        return [
            m
            for m in self.server.messages.values()
            if m.channel_id == cid and m.author_id == self.harness.bot_user.id and (include_deleted or not m.deleted)
        ]

    def ephemeral_responses_to(self, user: Any, *, include_deleted: bool = False) -> list[HarnessMessage]:
        uid = self.user(user).id
        return [
            m
            for m in self.server.messages.values()
            if m.ephemeral and m.recipient_id == uid and (include_deleted or not m.deleted)
        ]

    def visible_to(self, user: Any, channel: Any) -> list[HarnessMessage]:
        uid = self.user(user).id
        return [
            m for m in self.messages_in(channel, include_ephemeral=True) if not m.ephemeral or m.recipient_id == uid
        ]

    def last_response(self) -> HarnessMessage | None:
        return self.server.messages[self.server.touched[-1]] if self.server.touched else None

    def last_message(self, channel: Any = None) -> HarnessMessage | None:
        msgs = (
            self.messages_in(channel, include_ephemeral=True)
            if channel is not None
            else [m for m in self.server.messages.values() if not m.deleted]
        )
        return msgs[-1] if msgs else None
