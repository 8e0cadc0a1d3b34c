"""Seasons and leagues in Discord (issue 36): ``/season start|end|list|leagues|roles``, a season's
leaderboard (``/leaderboard season:``, with its paging buttons), the end-of-season post with its
picture, and the league roles. Presentation only: the rules are :mod:`bot.seasons` and
:mod:`bot.leagues`.

- Only a member with Manage Server starts or ends a season, sets the leagues or hands out roles;
  every command checks it (``default_permissions`` only hides a command).
- Every season belongs to one server: a season's name is looked up on the asking server only, and
  a paging button checks the season's server against the click's.
- League roles: the bot makes one role per league (named after it) and records it; it only ever
  adds or removes those roles, never one it did not make. Without Manage Roles it says so in one
  line and changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.leagues import Band, LeagueError, describe, parse
from bot.seasons import SeasonBoard, SeasonEnd, SeasonError, SeasonRecord, SeasonResult, SeasonService
from rules.text import plural

from .errors import guarded, send_error
from .games.base import clip
from .ids import FIELD, read_id, require
from .listing import rating_text
from .season_pictures import season_picture
from .settings import servers_of
from .stats import GAME_SLUG, MEDALS, available_games, game_name, player_name, resolve_game

if TYPE_CHECKING:
    from bot.client import RefereeBot

log = logging.getLogger(__name__)

PAGE = 10
PROFILE_SEASONS = 5
REFUSAL = "Only members with the Manage Server permission can run seasons and leagues."
NO_MANAGE_ROLES = (
    "I cannot give league roles here: I lack the Manage Roles permission. Grant it to my role and run "
    "/season roles (nothing was changed)."
)


def seasons_of(interaction: discord.Interaction[Any]) -> SeasonService:
    """The client's season service (``RefereeBot.seasons``)."""
    seasons = getattr(interaction.client, "seasons", None)
    if not isinstance(seasons, SeasonService):
        raise TypeError(f"{type(interaction.client).__name__} has no SeasonService as .seasons")
    return seasons


def is_manager(interaction: discord.Interaction[Any]) -> bool:
    return bool(interaction.guild is not None and interaction.permissions.manage_guild)


def when(at: int | None) -> str:
    return "open-ended" if at is None else f"<t:{at}:D>"


def season_line(season: SeasonRecord) -> str:
    if season.game:
        return f"{season_line_of_all(season)} · {game_name(season.game)} only"
    return season_line_of_all(season)


def season_line_of_all(season: SeasonRecord) -> str:
    if season.running:
        end = f"ends {when(season.ends_at)}" if season.ends_at is not None else "until /season end"
        return f"**{season.name}** · running since {when(season.started_at)}, {end}"
    return f"**{season.name}** · {when(season.started_at)} to {when(season.ended_at)}"


# ------------------------------------------------------------------------------ the board


class SeasonPager(
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"season:lb:(?P<season>{FIELD}):(?P<game>{GAME_SLUG}):(?P<page>{FIELD}):(?P<role>[pin])",
):
    def __init__(self, season: int, game: str, page: int, role: str, *, label: str | None = None, disabled=False):
        text = label or ("◀ Previous" if role == "p" else "Next ▶")
        button: discord.ui.Button = discord.ui.Button(
            label=text,
            style=discord.ButtonStyle.secondary,
            custom_id=f"season:lb:{season}:{game}:{page}:{role}",
            disabled=disabled,
        )
        super().__init__(button)
        self.season, self.game, self.page = season, game, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: Any) -> SeasonPager:
        return cls(read_id(match["season"]), match["game"], read_id(match["page"]), match["role"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        require(self.season, self.page)
        seasons = seasons_of(interaction)
        season = await seasons.repo.get(self.season)
        if season is None or season.guild_id != interaction.guild_id:
            raise SeasonError("This leaderboard belongs to another server.")
        board = await seasons.board(season, self.game, self.page, size=PAGE)
        embed, view = board_message(board)
        await interaction.response.edit_message(embed=embed, view=view)


def board_message(board: SeasonBoard) -> tuple[discord.Embed, discord.ui.View | None]:
    season = board.season
    state = "running" if season.running else "final standings"
    embed = discord.Embed(
        title=f"🏆 {game_name(board.game) if board.game else 'No games'} · {season.name} ({state})",
        colour=discord.Colour.gold(),
    )
    if not board.rows:
        embed.description = (
            f"Nobody is listed yet ({plural(board.hidden, 'player')} not listed)."
            if board.hidden
            else "No rated match in this season yet."
        )
    else:
        lines = []
        for row in board.rows:
            mark = MEDALS.get(row.place, f"`{row.place:>3}.`")
            rating = f"≈{row.display}" if row.provisional else str(row.display)
            league = f" · {row.league}" if row.league else ""
            lines.append(
                f"{mark} **{player_name(row.display_name, row.user_id)}** · **{rating}**{league}"
                f" · {row.wins}-{row.losses}-{row.draws} · {plural(row.games, 'game')}"
            )
        embed.description = "\n".join(lines)
    others = [game_name(g) for g in board.games if g != board.game]
    more = f" · also: {', '.join(others)}" if others else ""
    embed.set_footer(
        text=f"Page {board.page + 1}/{board.pages} · {plural(board.total, 'player')}"
        f" ({board.hidden} more not listed) · {season_line_plain(season)}{more}"
    )
    view = None
    if board.pages > 1 and board.game:
        view = discord.ui.View(timeout=None)
        sid, game, page, pages = season.id, board.game, board.page, board.pages
        view.add_item(SeasonPager(sid, game, max(page - 1, 0), "p", disabled=page == 0))
        view.add_item(SeasonPager(sid, game, page, "i", label=f"Page {page + 1}/{pages}", disabled=True))
        view.add_item(SeasonPager(sid, game, min(page + 1, pages - 1), "n", disabled=page >= pages - 1))
    return embed, view


def season_line_plain(season: SeasonRecord) -> str:
    return f"season {season.number}" + (" (running)" if season.running else " (ended)")


async def season_leaderboard(
    interaction: discord.Interaction, name: str, game: str | None
) -> tuple[discord.Embed, discord.ui.View | None]:
    """``/leaderboard season:<name>``: the season's board (its archive once ended)."""
    seasons = seasons_of(interaction)
    season = await seasons.find(interaction.guild_id, name)
    return board_message(await seasons.board(season, game, 0, size=PAGE))


async def season_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    if interaction.guild_id is None:
        return []
    found = await seasons_of(interaction).seasons(interaction.guild_id)
    typed = current.casefold()
    return [app_commands.Choice(name=s.name, value=s.name) for s in found if typed in s.name.casefold()][:25]


async def add_seasons_field(embed: discord.Embed, interaction: discord.Interaction, user_id: int) -> None:
    """/profile's "Seasons and leagues" field: the player's league on the server's all-time ladders
    (with leagues), the running season's rating per game (place, league) and the results of the
    server's ended seasons (newest first)."""
    seasons = getattr(interaction.client, "seasons", None)
    if not isinstance(seasons, SeasonService) or interaction.guild_id is None:
        return
    mine = await seasons.player(user_id, interaction.guild_id)
    lines = [f"League in {game_name(game)} (this server): **{league}**" for game, league in mine.leagues]
    if mine.current is not None:
        for standing, place, league in mine.standings:
            where = f"#{place}" if place is not None else "not listed yet"
            extra = f" · {league}" if league else ""
            lines.append(
                f"{mine.current.name} · {game_name(standing.game)}: **{rating_text(standing)}** ({where}{extra})"
            )
    for r in mine.past[:PROFILE_SEASONS]:
        where = f"#{r.place}" if r.place else "not listed"
        extra = f" · {r.league}" if r.league else ""
        lines.append(f"{r.season_name} · {game_name(r.game)}: {r.display} ({where}{extra})")
    if len(mine.past) > PROFILE_SEASONS:
        lines.append(f"and {plural(len(mine.past) - PROFILE_SEASONS, 'earlier result')}")
    if lines:
        embed.add_field(name="Seasons and leagues", value=clip("\n".join(lines), 1024), inline=False)


# ------------------------------------------------------------------------------ the end post


def end_embed(end: SeasonEnd) -> discord.Embed:
    season = end.season
    embed = discord.Embed(
        title=f"🏁 {season.name} has ended",
        description=f"{when(season.started_at)} to {when(season.ended_at)}. The final standings are kept: "
        f"`/leaderboard season:{season.name}`. Everyone's season rating starts afresh from a soft reset.",
        colour=discord.Colour.gold(),
    )
    for game, top in list(end.top.items())[:20]:
        lines = [
            f"{MEDALS.get(r.place, str(r.place))} {player_name(r.display_name, r.user_id)} · {r.display}"
            + (f" · {r.league}" if r.league else "")
            for r in top
        ]
        embed.add_field(name=game_name(game), value="\n".join(lines) or "Nobody listed.", inline=False)
    if not end.top:
        embed.add_field(name="No rated matches", value="Nobody played a rated match this season.", inline=False)
    return embed


def best_leagues(bands: Sequence[Band], results: Sequence[SeasonResult]) -> dict[int, str | None]:
    """Each player's league for their role: the highest they reached in any game where they were
    listed (None: listed nowhere, no role)."""
    order = {band.name: i for i, band in enumerate(bands)}
    best: dict[int, str | None] = {}
    for r in results:
        best.setdefault(r.user_id, None)
        if r.place > 0 and r.league in order:
            mine = best[r.user_id]
            if mine is None or order[r.league] > order[mine]:
                best[r.user_id] = r.league
    return best


async def give_roles(guild: discord.Guild, seasons: SeasonService, end: SeasonEnd) -> str:
    """Give each player of the season's results their league's role (the bot's own roles only).
    Returns a line for the admin."""
    if not end.leagues:
        return "This server has no leagues (/season leagues sets them)."
    me = guild.me
    if me is None or not me.guild_permissions.manage_roles:
        return NO_MANAGE_ROLES
    made = await seasons.repo.league_roles(guild.id)
    roles: dict[str, discord.Role] = {}
    for band in end.leagues:
        role = guild.get_role(made.get(band.name, 0))
        if role is None:
            role = await guild.create_role(name=band.name, reason=f"League role ({end.season.name})")
            await seasons.repo.set_league_role(guild.id, band.name, role.id)
        roles[band.name] = role
    ours = {r.id for r in roles.values()} | set(made.values())
    given = 0
    for user_id, league in best_leagues(end.leagues, end.results).items():
        try:
            member = guild.get_member(user_id) or await guild.fetch_member(user_id)
        except discord.NotFound:
            continue  # left the server
        want = roles[league] if league is not None else None
        stale = [r for r in member.roles if r.id in ours and (want is None or r.id != want.id)]
        if stale:
            await member.remove_roles(*stale, reason="League roles")
        if want is not None and want not in member.roles:
            await member.add_roles(want, reason=f"League: {league}")
            given += 1
    return f"League roles given: {plural(given, 'player')} changed league."


class SeasonPresenter:
    """Posts each ended season once (claimed by :meth:`SeasonService.to_announce`) and gives its
    league roles."""

    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot

    async def flush(self) -> None:
        for end in await self.bot.seasons.to_announce(serves=lambda guild_id: self.bot.get_guild(guild_id) is not None):
            try:
                await self.post(end)
            except Exception:
                log.exception("posting the end of season %s failed", end.season.id)
            await self.bot.seasons.announced(end.season.id)

    async def post(self, end: SeasonEnd) -> None:
        guild = self.bot.get_guild(end.season.guild_id)
        if guild is None:
            return
        channel_id = end.season.channel_id or (await self.bot.servers.get(guild.id)).channel_id
        channel = guild.get_channel(channel_id or 0) or guild.system_channel
        line = await give_roles(guild, self.bot.seasons, end) if end.leagues else ""
        if not isinstance(channel, discord.abc.Messageable):
            return
        picture = await asyncio.to_thread(season_picture, end)
        embed = end_embed(end)
        if picture is not None:
            embed.set_image(url=f"attachment://{picture.filename}")
        if line:
            embed.set_footer(text=line[:2048])
        await channel.send(embed=embed, file=picture or discord.utils.MISSING)


# ------------------------------------------------------------------------------ commands


class SeasonsCog(commands.Cog):
    season = app_commands.Group(
        name="season",
        description="Seasons and leagues of this server",
        guild_only=True,
    )

    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot

    async def _manager(self, interaction: discord.Interaction) -> bool:
        if is_manager(interaction):
            return True
        await interaction.response.send_message(REFUSAL, ephemeral=True)
        return False

    @season.command(name="start", description="Start a season: fresh season ladders beside the all-time ones")
    @app_commands.describe(
        name="its name (default: Season N)",
        length="how long: 90d, 12w, 3 months, 1y or none",
        game="a season of this game only (default: every game)",
    )
    async def start(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 40] | None = None,
        length: app_commands.Range[str, 1, 20] | None = None,
        game: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        if not await self._manager(interaction):
            return
        try:
            season = await self.bot.seasons.start(
                interaction.guild_id,
                interaction.user.id,
                name=name,
                length=length,
                channel_id=interaction.channel_id,
                game=resolve_game(game) if game else None,
            )
        except SeasonError as exc:
            await send_error(interaction, exc)
            return
        nxt = " When it ends, the next one starts by itself." if season.rollover else ""
        nxt = (f" It counts {game_name(season.game)} matches only." if season.game else "") + nxt
        await interaction.response.send_message(
            f"🏁 **{season.name}** has started: {season_line(season)}. Every player's season rating starts "
            f"from their all-time rating here, pulled halfway toward a newcomer's.{nxt}"
        )

    @start.autocomplete("game")
    async def _games(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        typed = current.strip().lower()
        return [
            app_commands.Choice(name=name, value=slug)
            for slug, name in available_games()
            if typed in slug or typed in name.lower()
        ][:25]

    @season.command(name="end", description="End the running season now (its standings are kept)")
    async def end(self, interaction: discord.Interaction) -> None:
        if not await self._manager(interaction):
            return
        await interaction.response.defer(thinking=True)
        try:
            season = await self.bot.seasons.end(interaction.guild_id, interaction.user.id)
        except SeasonError as exc:
            await send_error(interaction, exc)
            return
        await interaction.followup.send(
            f"**{season.name}** has ended; its final standings are kept (`/leaderboard season:{season.name}`). "
            "No new season starts until /season start."
        )
        presenter = self.bot.season_presenter
        if presenter is not None:
            await presenter.flush()

    @season.command(name="list", description="This server's seasons")
    async def list_(self, interaction: discord.Interaction) -> None:
        found = await self.bot.seasons.seasons(interaction.guild_id or 0)
        text = "\n".join(season_line(s) for s in found[:25]) or "No season yet: an admin starts one with /season start."
        await interaction.response.send_message(
            embed=discord.Embed(title="Seasons", description=text, colour=discord.Colour.gold()), ephemeral=True
        )

    @season.command(name="leagues", description="Name the leagues of the leaderboard (or 'off')")
    @app_commands.describe(bands="lowest first: 'Apprentice, Adept 1400, Archmage 1600' or 'A, B top 50%, C top 10%'")
    async def leagues(
        self, interaction: discord.Interaction, bands: app_commands.Range[str, 1, 300] | None = None
    ) -> None:
        if not await self._manager(interaction):
            return
        servers = servers_of(interaction)
        try:
            if bands is None:
                current = (await servers.get(interaction.guild_id)).leagues
            else:
                value = None if bands.strip().lower() in ("off", "none") else bands
                if value is not None:
                    parse(value)  # its own words when wrong
                current = (await servers.update(interaction.guild_id, interaction.user.id, leagues=value)).leagues
        except (LeagueError, ValueError) as exc:
            await send_error(interaction, exc)
            return
        text = describe(current) if current else "none"
        rules = "\n".join(f"**{b.name}**: {b.rule()}" for b in current)
        await interaction.response.send_message(f"Leagues: {text}\n{rules}".strip(), ephemeral=True)

    @season.command(name="roles", description="Give each player the role of their league in the last ended season")
    async def roles(self, interaction: discord.Interaction) -> None:
        if not await self._manager(interaction) or interaction.guild is None:
            return
        me = interaction.guild.me
        if me is None or not me.guild_permissions.manage_roles:
            await interaction.response.send_message(NO_MANAGE_ROLES, ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        seasons = self.bot.seasons
        ended = [s for s in await seasons.seasons(interaction.guild.id) if not s.running and s.archived]
        if not ended:
            await interaction.followup.send("No season has ended yet: roles follow a season's final standings.")
            return
        end = await seasons.end_of(ended[0])
        await interaction.followup.send(await give_roles(interaction.guild, seasons, end))


async def setup(bot: RefereeBot) -> None:
    bot.add_dynamic_items(SeasonPager)
    bot.season_presenter = SeasonPresenter(bot)
    await bot.add_cog(SeasonsCog(bot))
