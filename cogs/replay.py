"""/replay: step through a finished match (public events only), page by page.

The stepper's buttons are DynamicItems (``replay:<match>:<page>:<p|i|n>``), so they keep working
after a restart with nothing kept in memory. The data comes from :class:`bot.stats.StatsService`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.stats import MatchRecord, Replay, StatsService

from .games.base import clip
from .matches import guarded
from .stats import _button, game_name, pager_view, player_name, stats_of

if TYPE_CHECKING:
    from bot.client import RefereeBot

REPLAY_PAGE_CHARS = 3500  # below the embed description limit (4096) with room for the rest
REPLAY_PAGE_EVENTS = 15
EVENT_CHARS = 900


class ReplayPager(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"replay:(?P<match>\d{1,20}):(?P<page>\d{1,6}):(?P<role>[pin])",
):
    def __init__(self, match_id: int, page: int, role: str, *, label: str | None = None, disabled=False):
        super().__init__(_button(f"replay:{match_id}:{page}:{role}", role, label, disabled))
        self.match_id, self.page = match_id, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: Any) -> ReplayPager:
        return cls(int(match["match"]), int(match["page"]), match["role"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()  # a replay may take a moment to rebuild
        embed, view = await replay_page(stats_of(interaction), self.match_id, self.page, interaction)
        await interaction.edit_original_response(embed=embed, view=view)


# ------------------------------------------------------------------------------ replay


def paginate(lines: Sequence[str], *, chars: int = REPLAY_PAGE_CHARS, per_page: int = REPLAY_PAGE_EVENTS) -> list[str]:
    pages: list[str] = []
    current: list[str] = []
    size = 0
    for line in lines:
        if current and (size + len(line) + 1 > chars or len(current) >= per_page):
            pages.append("\n".join(current))
            current, size = [], 0
        current.append(line)
        size += len(line) + 1
    if current:
        pages.append("\n".join(current))
    return pages or ["(No public events.)"]


def replay_pages(replay: Replay) -> list[str]:
    """The numbered public events of a replay, split into embed-sized pages."""
    lines = []
    for i, text in enumerate(replay.texts(), start=1):
        lines.append(f"`{i:>3}` {discord.utils.escape_mentions(clip(text.strip(), EVENT_CHARS))}")
    return paginate(lines)


async def replayable(stats: StatsService, match_id: int, interaction: discord.Interaction) -> MatchRecord:
    """The match, if it is finished and was played in this server (or by the user)."""
    return await stats.replayable(match_id, guild_id=interaction.guild_id, user_id=interaction.user.id)


async def replay_page(
    stats: StatsService, match_id: int, page: int, interaction: discord.Interaction
) -> tuple[discord.Embed, discord.ui.View | None]:
    record = await replayable(stats, match_id, interaction)
    book = replay_pages(await stats.replay(record))
    pages = len(book)
    page = min(max(page, 0), pages - 1)
    names = " vs ".join(player_name(s.display_name, s.user_id) for s in record.seats)
    embed = discord.Embed(
        title=clip(f"🎞️ Replay of match #{record.id} · {game_name(record.game)}", 256),
        description=book[page],
        colour=discord.Colour.dark_teal(),
    )
    embed.add_field(name="Players", value=clip(names, 1024), inline=False)
    if page == pages - 1:
        embed.add_field(
            name="Result",
            value=clip(discord.utils.escape_mentions(record.summary or "Finished."), 1024),
            inline=False,
        )
    embed.set_footer(text=f"Page {page + 1}/{pages} · public events only")
    view = pager_view(lambda p, role, **kw: ReplayPager(record.id, p, role, **kw), page, pages)
    return embed, view


class Replays(commands.Cog):
    def __init__(self, bot: RefereeBot):
        self.bot = bot

    @property
    def stats(self) -> StatsService:
        return stats_of_bot(self.bot)

    @app_commands.command(name="replay", description="Step through a finished match, public events only")
    @app_commands.describe(match="the match id (see /history)")
    async def replay(self, interaction: discord.Interaction, match: app_commands.Range[int, 1]) -> None:
        await replayable(self.stats, match, interaction)  # refuse before deferring: a plain ephemeral reply
        await interaction.response.defer(thinking=True)
        embed, view = await replay_page(self.stats, match, 0, interaction)
        await interaction.followup.send(embed=embed, view=view or discord.utils.MISSING)


def stats_of_bot(bot: Any) -> StatsService:
    stats = getattr(bot, "stats", None)
    if not isinstance(stats, StatsService):
        raise TypeError(f"{type(bot).__name__} has no StatsService as .stats")
    return stats


def replay_button(match_id: int) -> discord.ui.Button:
    """A "Replay" button for a finished match (the end-of-match card): opens the replay."""
    return ReplayPager(match_id, 0, "i", label="🎞️ Replay").item


async def setup(bot: RefereeBot) -> None:
    bot.add_dynamic_items(ReplayPager)
    await bot.add_cog(Replays(bot))


async def teardown(bot: RefereeBot) -> None:
    bot.remove_dynamic_items(ReplayPager)
