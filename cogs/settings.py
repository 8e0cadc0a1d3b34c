"""/settings: a server's settings (match channel, one thread per match, default turn time,
reminders, pictures, the leaderboard's minimum number of games, how long a player may be quiet
before being pinged), shown and changed by members with the Manage Server permission.

Thin: parse the options, check the permissions Discord knows about (the member's Manage Server,
the bot's own in the match channel), call :class:`bot.servers.ServersService`, render, reply. The
service validates every value; a refusal changes nothing and is shown ephemerally.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.servers import (
    MAX_LEADERBOARD_MIN_GAMES,
    MAX_SEASON_DAYS,
    MAX_WINDOW_DAYS,
    ServerSettings,
    ServerSettingsError,
    ServersService,
    format_duration,
    parse_ping_after,
    parse_turn_time,
)

from .errors import send_error

if TYPE_CHECKING:
    from bot.client import RefereeBot

#: What the bot needs in a channel to play a match in a thread there (name, as Discord's UI says it).
THREAD_PERMISSIONS = (
    ("create_public_threads", "Create Public Threads"),
    ("send_messages_in_threads", "Send Messages in Threads"),
)
#: What the bot needs in the match channel at all.
POST_PERMISSIONS = (("view_channel", "View Channel"), ("send_messages", "Send Messages"))

REFUSAL = (
    "⛔ Only members with the **Manage Server** permission can view or change this server's settings. "
    "Ask a server admin."
)


def servers_of(interaction: discord.Interaction[Any]) -> ServersService:
    """The client's per-server settings service (``RefereeBot.servers``)."""
    servers = getattr(interaction.client, "servers", None)
    if not isinstance(servers, ServersService):
        raise TypeError(f"{type(interaction.client).__name__} has no ServersService as .servers")
    return servers


def missing(perms: discord.Permissions, wanted: tuple[tuple[str, str], ...]) -> list[str]:
    """The names of the ``wanted`` permissions ``perms`` lacks."""
    return [label for attr, label in wanted if not getattr(perms, attr)]


def both(names: list[str]) -> str:
    return " and ".join(f"**{n}**" for n in names)


def channel_warning(guild: discord.Guild, current: ServerSettings) -> str | None:
    """Why matches cannot be played as set (no thread per match, or a match channel the bot
    cannot post in), or None. Read from the bot's permissions in the match channel (server-wide
    when there is no match channel)."""
    if not current.threads and current.channel_id is None:
        return None
    me = guild.me
    wanted = [label for _, label in THREAD_PERMISSIONS]
    if current.channel_id is None:
        lacking = missing(me.guild_permissions, THREAD_PERMISSIONS)
        where, there = "on this server", "on this server (or in the channel where a challenge is made)"
    else:
        channel = guild.get_channel(current.channel_id)
        if channel is None:
            return (
                f"⚠️ The match channel (id {current.channel_id}) no longer exists or I cannot see it: "
                "pick another with `channel:` or set `anywhere: True`."
            )
        perms = channel.permissions_for(me)
        cannot_post = missing(perms, POST_PERMISSIONS)
        if cannot_post:
            return (
                f"⚠️ I lack {both(cannot_post)} in the match channel {channel.mention}: give me "
                "those permissions there, or pick another channel."
            )
        if not current.threads:
            return None
        lacking = missing(perms, THREAD_PERMISSIONS)
        where, there = f"in {channel.mention}", f"in {channel.mention}"
    if not lacking:
        return None
    return (
        f"⚠️ Threads are on, but I lack {both(lacking)} {where}: matches will be played in the channel "
        f"itself until I am given {both(wanted)} {there}."
    )


def ping_after_text(current: ServerSettings) -> str:
    """The ``Ping after`` field: "2 minutes without a click (the default)", or "always: ..." for 0."""
    seconds = current.ping_after_seconds
    text = (
        "always: whenever the move passes to a player"
        if seconds <= 0
        else f"{format_duration(seconds)} without a click"
    )
    return f"{text} (the default)" if current.ping_after_is_default else text


def settings_embed(current: ServerSettings, *, title: str, reminder_before: int) -> discord.Embed:
    embed = discord.Embed(title=title, colour=discord.Colour.blurple())
    embed.add_field(
        name="Match channel",
        value=f"<#{current.channel_id}>" if current.channel_id else "wherever the challenge is made",
        inline=False,
    )
    embed.add_field(
        name="Threads",
        value="on: one thread per match" if current.threads else "off: matches are played in the channel",
        inline=False,
    )
    turn = format_duration(current.turn_time_seconds)
    embed.add_field(
        name="Default turn time",
        value=f"{turn} (the bot's default)" if current.turn_time_is_default else turn,
        inline=False,
    )
    embed.add_field(
        name="Reminders",
        value=f"on: {format_duration(reminder_before)} before a move times out" if current.reminders else "off",
        inline=False,
    )
    pictures = "on" if current.pictures else "off: text and emoji only"
    embed.add_field(
        name="Pictures", value=f"{pictures} (the bot's default)" if current.pictures_is_default else pictures
    )
    n, window = current.leaderboard_min_games, current.leaderboard_window_days
    listed = "every rated player (the default)" if n <= 1 else f"players with at least {n} rated games"
    if window is not None:
        listed += f", with a rated game in the last {window} days"
    embed.add_field(name="Leaderboard", value=listed, inline=False)
    embed.add_field(name="Seasons", value=f"a new season lasts {current.season_days} days by default", inline=False)
    embed.add_field(name="Ping after", value=ping_after_text(current), inline=False)
    embed.add_field(
        name="Web pages",
        value="on: each match has a page on the web table" if current.web else "off: no match of this server is shown",
        inline=False,
    )
    if current.updated_at is not None and current.updated_by is not None:
        embed.add_field(name="Last changed", value=f"<@{current.updated_by}> <t:{current.updated_at}:R>", inline=False)
    embed.set_footer(
        text="Change with /settings channel: anywhere: threads: turn_time: reminders: pictures: "
        "leaderboard_min_games: leaderboard_window: season_length: ping_after: web:"
    )
    return embed


class ServerSettingsCog(commands.Cog, name="Settings"):
    def __init__(self, bot: RefereeBot):
        self.bot = bot

    @app_commands.command(name="settings", description="Show or change this server's match settings")
    @app_commands.describe(
        channel="where matches are played (default: wherever the challenge is made)",
        anywhere="True: play matches wherever the challenge is made (forgets the match channel)",
        threads="one thread per match (falls back to the channel where I may not create threads)",
        turn_time="default time for each move: 30m, 2h, 1d, seconds, or 'default'",
        reminders="remind players before their move times out",
        pictures="attach pictures to match posts",
        leaderboard_min_games=f"rated games needed to appear on /leaderboard (1 to {MAX_LEADERBOARD_MIN_GAMES})",
        ping_after=(
            "ping a player whose move it is only after this long without a click: 2m, 30s, 0 (always), 'default'"
        ),
        leaderboard_window="list only players with a rated game in this many days (0: everyone)",
        season_length="a new season's default length in days (0: the bot's default, 91)",
        web="a page for each match on the web table (off: none of this server's matches is shown)",
    )
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def settings(
        self,
        interaction: discord.Interaction,
        channel: discord.TextChannel | None = None,
        anywhere: bool | None = None,
        threads: bool | None = None,
        turn_time: app_commands.Range[str, 1, 40] | None = None,
        reminders: bool | None = None,
        pictures: bool | None = None,
        leaderboard_min_games: app_commands.Range[int, 1, MAX_LEADERBOARD_MIN_GAMES] | None = None,
        ping_after: app_commands.Range[str, 1, 40] | None = None,
        web: bool | None = None,
        leaderboard_window: app_commands.Range[int, 0, MAX_WINDOW_DAYS] | None = None,
        season_length: app_commands.Range[int, 0, MAX_SEASON_DAYS] | None = None,
    ) -> None:
        guild = interaction.guild
        if guild is None:  # guild_only: Discord does not offer it elsewhere
            await interaction.response.send_message("Settings belong to a server: use /settings there.", ephemeral=True)
            return
        # default_permissions only hides the command; a server may grant it to anyone: check again
        if not interaction.permissions.manage_guild:
            await interaction.response.send_message(REFUSAL, ephemeral=True)
            return
        servers = servers_of(interaction)
        try:
            changes = self._changes(guild, channel, anywhere, threads, turn_time, reminders, pictures)
            if leaderboard_min_games is not None:
                changes["leaderboard_min_games"] = leaderboard_min_games
            if ping_after is not None:
                changes["ping_after_seconds"] = parse_ping_after(ping_after)
            if web is not None:
                changes["web"] = web
            if leaderboard_window is not None:
                changes["leaderboard_window_days"] = leaderboard_window or None
            if season_length is not None:
                changes["season_days"] = season_length or None
            if changes:
                # a write may wait behind others: answer Discord within its 3 seconds first
                await interaction.response.defer(ephemeral=True, thinking=True)
                current = await servers.update(guild.id, interaction.user.id, **changes)
            else:
                current = await servers.get(guild.id)
        except ServerSettingsError as exc:
            await send_error(interaction, exc)  # a reply or a follow-up, whichever is due
            return
        title = "Server settings updated" if changes else "Server settings"
        embed = settings_embed(current, title=title, reminder_before=self.bot.settings.reminder_before_seconds)
        warning = channel_warning(guild, current)
        if interaction.response.is_done():
            await interaction.followup.send(content=warning or discord.utils.MISSING, embed=embed, ephemeral=True)
        else:
            await interaction.response.send_message(content=warning, embed=embed, ephemeral=True)

    @staticmethod
    def _changes(
        guild: discord.Guild,
        channel: discord.TextChannel | None,
        anywhere: bool | None,
        threads: bool | None,
        turn_time: str | None,
        reminders: bool | None,
        pictures: bool | None,
    ) -> dict[str, object]:
        """The service's changes from the command's options (refusing what Discord can tell is
        wrong: a match channel the bot cannot post in)."""
        changes: dict[str, object] = {}
        if channel is not None and anywhere:
            raise ServerSettingsError("Give either a `channel` or `anywhere: True`, not both. Nothing was changed.")
        if channel is not None:
            lacking = missing(channel.permissions_for(guild.me), POST_PERMISSIONS)
            if lacking:
                raise ServerSettingsError(
                    f"I cannot post in {channel.mention} (I lack {both(lacking)} there): give me "
                    "those permissions or pick another channel. Nothing was changed."
                )
            changes["channel_id"] = channel.id
        elif anywhere:
            changes["channel_id"] = None
        if turn_time is not None:
            changes["turn_time_seconds"] = parse_turn_time(turn_time)
        for name, value in (("threads", threads), ("reminders", reminders), ("pictures", pictures)):
            if value is not None:
                changes[name] = value
        return changes


async def setup(bot: RefereeBot) -> None:
    """The /settings command, on the client's per-server settings (``RefereeBot.servers``)."""
    await bot.add_cog(ServerSettingsCog(bot))


__all__ = ["ServerSettingsCog", "channel_warning", "ping_after_text", "servers_of", "settings_embed", "setup"]
