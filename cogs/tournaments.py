"""Tournaments in Discord: ``/tournament`` commands, the sign-up buttons and the one tournament
message per tournament, edited in place.

Thin, like the other cogs: parse, call :class:`~bot.tournaments.service.TournamentService`, render.
Three modules: this one (the commands and the history pages), :mod:`cogs.tournament_embeds` (what
the message, the champion card and a history line look like) and :mod:`cogs.tournament_presenter`
(delivering the service's events, the Join / Leave buttons).
The service keeps an outbox of events; :class:`TournamentPresenter` reads a tournament's pending
events, edits its message (format, players, round, standings, links to the live matches'
threads), announces round starts and the champion, then marks the events delivered. It runs after
every command here and after each tick of the bot's timer loop (``bot.tick_tournaments``).

The Join / Leave buttons are DynamicItems (``tournament:join:<id>``, ``tournament:leave:<id>``):
read from their custom_id, so they work after a restart with nothing kept in memory. So are the
``/tournament history`` pages' buttons (``tournament:history:<guild>:<page>:<p|i|n>``: Previous,
the page, Next).

Pictures (:mod:`cogs.tournament_pictures`): the message's embed shows a picture
(``attachment://``): the standings after the last round that is over (Swiss, round robin; before
that, the text table), or from the first round on the bracket (two-player single elimination) or
the tables (Magic Duel knock-out). Drawn in a worker thread, cached by
what they show and named by their content, so an edit that changes nothing in the picture
neither draws nor uploads it again (the message's attachments are remembered). A server with
pictures off (``/settings pictures``) keeps the text table and no attachment.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.servers import parse_turn_time
from bot.tournaments.errors import TournamentError
from bot.tournaments.service import TournamentService

from .errors import guarded
from .ids import FIELD, read_id, read_snowflake, require
from .matches import GAME_CHOICES, with_game_choices
from .tournament_embeds import FORMAT_CHOICES, history_line, service_of, tournament_embed
from .tournament_presenter import TournamentButton, TournamentPresenter, tournament_url, tournament_view

if TYPE_CHECKING:
    from bot.client import RefereeBot

HISTORY_TEMPLATE = rf"tournament:history:(?P<guild>{FIELD}):(?P<page>{FIELD}):(?P<role>[pin])"
MAX_TOURNAMENT_ID = 2**53 - 1
HISTORY_SIZE = 10


def is_manager(interaction: discord.Interaction[Any]) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms is not None and (perms.manage_guild or perms.administrator))


# ------------------------------------------------------------------------------ history


async def history_page(
    service: TournamentService, guild_id: int, page: int
) -> tuple[discord.Embed, discord.ui.View | None]:
    """Page ``page`` (from 0) of the server's past tournaments, :data:`HISTORY_SIZE` a page, with
    Previous / Next buttons when there is more than one page. A page past the end (a stale
    button) is refused with a readable message."""
    total = await service.history_count(guild_id)
    pages = max(1, math.ceil(total / HISTORY_SIZE))
    if page >= pages:
        raise TournamentError(
            f"That page of the tournament history is gone: there {'is' if pages == 1 else 'are'} now "
            f"{pages} page{'' if pages == 1 else 's'}. Use /tournament history again."
        )
    past = await service.history(guild_id, HISTORY_SIZE, page * HISTORY_SIZE)
    embed = discord.Embed(title="🏆 Past tournaments", colour=discord.Colour.gold())
    if not past:
        embed.description = "No tournament has finished on this server yet. Start one with /tournament create."
    for v in past:
        name, value = history_line(v)
        embed.add_field(name=name, value=value, inline=False)
    word = "tournament" if total == 1 else "tournaments"
    embed.set_footer(text=f"Page {page + 1}/{pages} · {total} past {word} (finished or cancelled)")
    if pages <= 1:
        return embed, None
    out = discord.ui.View(timeout=None)
    out.add_item(HistoryButton(guild_id, max(page - 1, 0), "p", disabled=page == 0))
    out.add_item(HistoryButton(guild_id, page, "i", label=f"Page {page + 1}/{pages}", disabled=True))
    out.add_item(HistoryButton(guild_id, min(page + 1, pages - 1), "n", disabled=page >= pages - 1))
    return embed, out


class HistoryButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=HISTORY_TEMPLATE):
    """Previous / Next of ``/tournament history``: ``tournament:history:<guild>:<page>:<role>``
    (role p: previous, i: the page shown, n: next; it keeps the three custom_ids distinct)."""

    def __init__(
        self, guild_id: int, page: int, role: str, *, label: str | None = None, disabled: bool = False
    ) -> None:
        shown = label or {"p": "◀ Previous", "n": "Next ▶", "i": "·"}[role]
        style = discord.ButtonStyle.secondary if role == "i" else discord.ButtonStyle.primary
        custom_id = f"tournament:history:{guild_id}:{page}:{role}"
        super().__init__(discord.ui.Button(label=shown, style=style, custom_id=custom_id, disabled=disabled))
        self.guild_id, self.page, self.role = guild_id, page, role

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any
    ) -> HistoryButton:
        return cls(read_snowflake(match["guild"]), read_id(match["page"]), str(match["role"]))

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        require(self.guild_id, self.page)
        if self.guild_id != interaction.guild_id:
            raise TournamentError("This tournament history belongs to another server: use /tournament history here.")
        embed, view = await history_page(service_of(interaction.client), self.guild_id, self.page)
        await interaction.response.edit_message(embed=embed, view=view)


# ------------------------------------------------------------------------------ the commands


def _duration(text: str | None, what: str) -> int | None:
    if text is None:
        return None
    try:
        seconds = parse_turn_time(text)
    except ValueError as exc:
        raise TournamentError(f"The {what} {exc}") from exc
    if seconds is None:
        return None
    return seconds


class Tournaments(commands.Cog):
    tournament = app_commands.Group(name="tournament", description="Run a tournament on this server", guild_only=True)

    def __init__(self, bot: RefereeBot) -> None:
        with_game_choices(self)
        self.bot = bot
        self.presenter = TournamentPresenter(bot)

    @property
    def service(self) -> TournamentService:
        return service_of(self.bot)

    async def _open_one(self, interaction: discord.Interaction, tournament: int | None) -> int:
        """The tournament named (of this server: another server's is not found, see
        :meth:`~bot.tournaments.service_core.ServiceCore.record`), else this channel's only open one."""
        if tournament is not None:
            await self.service.record(tournament, interaction.guild_id)
            return tournament
        open_here = []
        for tid in await self.service.open_tournaments():
            rec = await self.service.record(tid)
            if rec.guild_id == interaction.guild_id and rec.channel_id == interaction.channel_id:
                open_here.append(tid)
        if not open_here:
            raise TournamentError("There is no open tournament in this channel; name one with `tournament`.")
        if len(open_here) > 1:
            ids = ", ".join(f"#{t}" for t in open_here)
            raise TournamentError(f"Several tournaments are open here ({ids}); name one with `tournament`.")
        return open_here[0]

    async def _done(self, interaction: discord.Interaction, tid: int, text: str) -> None:
        await interaction.response.send_message(text, ephemeral=True)
        await self.presenter.flush(tid)

    @tournament.command(name="create", description="Open a tournament's sign-up in this channel")
    @app_commands.describe(
        game="which game",
        format="Swiss, round robin or single elimination",
        rounds="Swiss only: how many rounds (default: enough to find a winner)",
        turn_time="time for each move: 30m, 2h, 1d",
        max_players="the most players who may join (2 to 256)",
        start_time="start automatically after this long: 30m, 2h, 1d",
        third_place="single elimination: play a match for third place",
    )
    @app_commands.choices(game=GAME_CHOICES, format=FORMAT_CHOICES)
    async def create(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        format: app_commands.Choice[str],
        rounds: app_commands.Range[int, 1, 64] | None = None,
        turn_time: app_commands.Range[str, 1, 40] | None = None,
        max_players: app_commands.Range[int, 2, 256] | None = None,
        start_time: app_commands.Range[str, 1, 40] | None = None,
        third_place: bool = False,
    ) -> None:
        turn = _duration(turn_time, "turn time")
        start_in = _duration(start_time, "start time")
        start_at = self.service.now() + start_in if start_in is not None else None
        rec = await self.service.create(
            interaction.guild_id,
            interaction.channel_id,
            interaction.user.id,
            game.value,
            format.value,
            rounds=rounds,
            turn_time=turn,
            max_players=max_players,
            start_at=start_at,
            third_place=third_place,
        )
        view = await self.service.view(rec.id)
        buttons = tournament_view(view, await tournament_url(self.bot, view))
        await interaction.response.send_message(embed=tournament_embed(view), view=buttons or discord.utils.MISSING)
        message = await interaction.original_response()
        await self.service.set_message_id(rec.id, message.id)
        await self.presenter.flush(rec.id)

    @tournament.command(name="start", description="Organizer: close the sign-up and start round 1")
    @app_commands.describe(tournament="the tournament's number (default: the one open in this channel)")
    async def start(
        self, interaction: discord.Interaction, tournament: app_commands.Range[int, 1, MAX_TOURNAMENT_ID] | None = None
    ) -> None:
        tid = await self._open_one(interaction, tournament)
        # round 1 is paired before the answer; its matches start in the background
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.service.start(
            tid, interaction.user.id, is_manager=is_manager(interaction), guild_id=interaction.guild_id
        )
        await interaction.followup.send(f"▶️ Tournament #{tid} started.", ephemeral=True)
        await self.presenter.flush(tid)

    @tournament.command(name="cancel", description="Organizer: stop the tournament for good")
    @app_commands.describe(tournament="the tournament's number (default: the one open in this channel)")
    async def cancel(
        self, interaction: discord.Interaction, tournament: app_commands.Range[int, 1, MAX_TOURNAMENT_ID] | None = None
    ) -> None:
        tid = await self._open_one(interaction, tournament)
        await self.service.cancel(
            tid, interaction.user.id, is_manager=is_manager(interaction), guild_id=interaction.guild_id
        )
        await self._done(interaction, tid, f"❌ Tournament #{tid} is cancelled.")

    @tournament.command(name="pause", description="Organizer: hold the next round")
    @app_commands.describe(tournament="the tournament's number (default: the one open in this channel)")
    async def pause(
        self, interaction: discord.Interaction, tournament: app_commands.Range[int, 1, MAX_TOURNAMENT_ID] | None = None
    ) -> None:
        tid = await self._open_one(interaction, tournament)
        await self.service.pause(
            tid, interaction.user.id, is_manager=is_manager(interaction), guild_id=interaction.guild_id
        )
        await self._done(interaction, tid, f"⏸️ Tournament #{tid} is paused.")

    @tournament.command(name="resume", description="Organizer: go on after a pause")
    @app_commands.describe(tournament="the tournament's number (default: the one open in this channel)")
    async def resume(
        self, interaction: discord.Interaction, tournament: app_commands.Range[int, 1, MAX_TOURNAMENT_ID] | None = None
    ) -> None:
        tid = await self._open_one(interaction, tournament)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.service.resume(
            tid, interaction.user.id, is_manager=is_manager(interaction), guild_id=interaction.guild_id
        )
        await interaction.followup.send(f"▶️ Tournament #{tid} goes on.", ephemeral=True)
        await self.presenter.flush(tid)

    @tournament.command(name="drop", description="Drop a player (yourself, or anyone if you organize)")
    @app_commands.describe(player="who drops out", tournament="the tournament's number (default: this channel's)")
    async def drop(
        self,
        interaction: discord.Interaction,
        player: discord.User,
        tournament: app_commands.Range[int, 1, MAX_TOURNAMENT_ID] | None = None,
    ) -> None:
        tid = await self._open_one(interaction, tournament)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.service.drop(
            tid, interaction.user.id, player.id, is_manager=is_manager(interaction), guild_id=interaction.guild_id
        )
        await interaction.followup.send(f"🚪 {player.display_name} is out of tournament #{tid}.", ephemeral=True)
        await self.presenter.flush(tid)

    @tournament.command(name="deadline", description="Organizer: time for each round (then matches are adjudicated)")
    @app_commands.describe(
        duration="each round's time: 30m, 2h, 1d, or 'none'",
        tournament="the tournament's number (default: the one open in this channel)",
    )
    async def deadline(
        self,
        interaction: discord.Interaction,
        duration: app_commands.Range[str, 1, 40],
        tournament: app_commands.Range[int, 1, MAX_TOURNAMENT_ID] | None = None,
    ) -> None:
        tid = await self._open_one(interaction, tournament)
        seconds = None if duration.strip().lower() in ("none", "off") else _duration(duration, "round time")
        await self.service.set_round_deadline(
            tid, interaction.user.id, seconds, is_manager=is_manager(interaction), guild_id=interaction.guild_id
        )
        shown = "no round deadline" if seconds is None else f"a round deadline of {duration.strip()}"
        await self._done(interaction, tid, f"⏱️ Tournament #{tid} now has {shown}.")

    @tournament.command(name="view", description="A tournament's players, round and standings")
    @app_commands.describe(tournament="the tournament's number (default: the one open in this channel)")
    async def view(
        self, interaction: discord.Interaction, tournament: app_commands.Range[int, 1, MAX_TOURNAMENT_ID] | None = None
    ) -> None:
        tid = await self._open_one(interaction, tournament)
        embed, file = await self.presenter.render(await self.service.view(tid, guild_id=interaction.guild_id))
        if file is not None:
            await interaction.response.send_message(embed=embed, file=file, ephemeral=True)
        else:
            await interaction.response.send_message(embed=embed, ephemeral=True)

    @tournament.command(name="history", description="Past tournaments on this server")
    async def history(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        embed, view = await history_page(self.service, interaction.guild_id, 0)
        await interaction.response.send_message(embed=embed, view=view or discord.utils.MISSING)


async def setup(bot: RefereeBot) -> None:
    cog = Tournaments(bot)
    bot.tournament_presenter = cog.presenter
    # a round the service plays in the background is shown when it is done, not at the next tick
    bot.tournaments.add_listener(cog.presenter.round_done)
    # a round's announcement goes out before its matches open their threads
    bot.tournaments.add_announcer(cog.presenter.announce_round)
    await bot.add_cog(cog)
    bot.add_dynamic_items(TournamentButton, HistoryButton)


async def teardown(bot: RefereeBot) -> None:
    bot.remove_dynamic_items(TournamentButton, HistoryButton)
    presenter = bot.tournament_presenter
    if isinstance(presenter, TournamentPresenter):
        bot.tournaments.remove_listener(presenter.round_done)
        bot.tournaments.remove_announcer(presenter.announce_round)
        presenter.close()
    bot.tournament_presenter = None
