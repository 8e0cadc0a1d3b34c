"""/replay: step through a match, one resolution at a time, with the board picture and the story.

A step is one resolution of the game, as the match's thread tells it (the game UI's
``story_kinds``): a Wizards Cup round (its duels resolve together, up to a choice a power asks
for), a Firewall turn, a Magic Duel trick, an Arena player-turn, the end of the game. Each step
shows the board after it (the live board's standing, drawn off the event loop) and what happened,
numbered as in ``python -m rules replay --text``, without the notices that only say someone is
ready. While the match is live it is shown as a spectator sees it (public events, the spectator
view; the step being played says so); once it is over (finished, or abandoned with a log) every
secret is told, marked 🔒 and named with its owner. Anyone in the match's server may replay it
there; in a DM, its players may (servers are kept apart: :mod:`bot.matches.isolation`). The data
comes from :class:`bot.replays.ReplayService`.

Custom ids (DynamicItems: they keep working after a restart, nothing is kept in memory):

- ``rpl:<match>:<step>:<f|b|n|l|c>``: the stepper's buttons first / back / next / last, each
  showing step ``<step>`` (0-based) of match ``<match>`` in the message it is on; ``c`` is the
  step counter between them (disabled). The role letter keeps the ids of one message unique. (A
  step whose story is longer than one embed takes as many steps of the stepper as it needs, each
  with the same board: the numbers count the stepper's screens.)
- ``rpl:<match>:open``: the Replay button of the end-of-match card (:func:`replay_button`): opens
  the stepper at its first step in a new ephemeral message; the card is left as it is.
- ``replay:<match>:<page>:<p|i|n>``: the text pages of before, on messages already posted.
  ``p``/``n`` open the stepper, in the message, at the step holding the first event of that page;
  ``i`` (the page counter, and the first Replay button) opens it like ``rpl:<match>:open``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.replays import MatchReplay, ReplayService, Step
from bot.stats import MatchRecord

from .errors import guarded
from .games import get_ui
from .games.base import EMBED_TOTAL, EMBEDS_PER_MESSAGE, GameUI, Post, clip, embed_size
from .ids import FIELD, read_id, require
from .stats import game_name, player_name
from .table import pictures_on

if TYPE_CHECKING:
    from bot.client import RefereeBot

#: The largest match id /replay takes: Discord's integer options stop below 2^53 (SQLite's at 2^63 - 1).
MAX_MATCH_ID = 2**53 - 1
STORY_CHARS = 3000  # the step's story in the embed description (limit 4096), with room for the rest
EVENT_CHARS = 600
OLD_PAGE_EVENTS = 15  # the public events per page of the old text pages
ROLES = {"f": "⏮ First", "b": "◀ Back", "n": "Next ▶", "l": "Last ⏭"}


@dataclass
class Screen:
    """One step of a replay as a message: embeds, the pictures they show, the stepper."""

    embeds: list[discord.Embed]
    files: list[discord.File] = field(default_factory=list)
    view: discord.ui.View | None = None


#: Which page of the stepper to show, given the replay and its pages.
Pick = Callable[[MatchReplay, "list[Page]"], int]


def replays_of(client: Any) -> ReplayService:
    """The client's replay service (``RefereeBot.replays``)."""
    replays = getattr(client, "replays", None)
    if not isinstance(replays, ReplayService):
        raise TypeError(f"{type(client).__name__} has no ReplayService as .replays")
    return replays


async def replayable(interaction: discord.Interaction[Any], match_id: int) -> MatchRecord:
    """The match, if this server (or the user) may replay it; else a refusal for the player."""
    return await replays_of(interaction.client).replayable(
        match_id, guild_id=interaction.guild_id, user_id=interaction.user.id
    )


# ------------------------------------------------------------------------------ the stepper


class ReplayStep(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"rpl:(?P<match>{FIELD}):(?P<step>{FIELD}):(?P<role>[fbnlc])",
):
    def __init__(self, match_id: int, step: int, role: str, *, label: str | None = None, disabled: bool = False):
        style = discord.ButtonStyle.secondary if role == "c" else discord.ButtonStyle.primary
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label or ROLES.get(role, "·"),
            style=style,
            custom_id=f"rpl:{match_id}:{step}:{role}",
            disabled=disabled,
        )
        super().__init__(button)
        self.match_id, self.step = match_id, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any
    ) -> ReplayStep:
        return cls(read_id(match["match"]), read_id(match["step"]), match["role"])

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        require(self.match_id, self.step)
        await show_in_place(interaction, self.match_id, lambda replay, pages: self.step)


class ReplayOpen(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"rpl:(?P<match>{FIELD}):open"):
    def __init__(self, match_id: int, *, label: str = "🎞️ Replay"):
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label, style=discord.ButtonStyle.secondary, custom_id=f"rpl:{match_id}:open"
        )
        super().__init__(button)
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any
    ) -> ReplayOpen:
        return cls(read_id(match["match"]))

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        require(self.match_id)
        await open_ephemeral(interaction, self.match_id)


class ReplayPager(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"replay:(?P<match>{FIELD}):(?P<page>{FIELD}):(?P<role>[pin])",
):
    """The buttons of the old text pages (messages already posted): they open the stepper."""

    def __init__(self, match_id: int, page: int, role: str):
        button: discord.ui.Button[Any] = discord.ui.Button(label="·", custom_id=f"replay:{match_id}:{page}:{role}")
        super().__init__(button)
        self.match_id, self.page, self.role = match_id, page, role

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any
    ) -> ReplayPager:
        return cls(read_id(match["match"]), read_id(match["page"]), match["role"])

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        require(self.match_id, self.page)
        if self.role == "i":
            await open_ephemeral(interaction, self.match_id)
            return
        first = self.page * OLD_PAGE_EVENTS
        await show_in_place(
            interaction,
            self.match_id,
            lambda replay, pages: first_page_of_step(pages, replay.step_of_public_event(first)),
        )


async def show_in_place(interaction: discord.Interaction[Any], match_id: int, pick: Pick) -> None:
    """Show the page ``pick(replay, pages)`` in the message the clicked button is on."""
    record = await replayable(interaction, match_id)  # refuse before deferring: a plain ephemeral reply
    await interaction.response.defer()  # rebuilding and drawing may take a moment
    screen = await replay_screen(interaction.client, record, pick)
    await interaction.edit_original_response(embeds=screen.embeds, attachments=screen.files, view=screen.view)


async def open_ephemeral(interaction: discord.Interaction[Any], match_id: int) -> None:
    """Open the stepper at its first step in a new ephemeral message (the clicked one is kept)."""
    record = await replayable(interaction, match_id)
    await interaction.response.defer(ephemeral=True, thinking=True)
    screen = await replay_screen(interaction.client, record, lambda replay, pages: 0)
    await interaction.followup.send(ephemeral=True, **send_kwargs(screen))


def send_kwargs(screen: Screen) -> dict[str, Any]:
    out: dict[str, Any] = {"embeds": screen.embeds}
    if screen.files:
        out["files"] = screen.files
    if screen.view is not None:
        out["view"] = screen.view
    return out


# ------------------------------------------------------------------------------ a step as a message


@dataclass(frozen=True)
class Page:
    """What one screen of the stepper shows: a step, or a part of a step too long for one embed."""

    number: int  # 0-based, among all the pages of the replay
    step: Step
    lines: tuple[str, ...]
    part: int  # 1-based
    parts: int


def step_lines(replay: MatchReplay, step: Step) -> list[str]:
    """The step's story as embed lines: the event's number, a 🔒 for a secret, its text."""
    lines: list[str] = []
    for told in replay.lines(step):
        text = discord.utils.escape_mentions(clip(told.text, EVENT_CHARS))
        lines.append(f"`{told.index + 1:>3}` {'🔒 ' if told.secret else ''}{text}")
    return lines


def paginate(replay: MatchReplay) -> list[Page]:
    """Every step on a page of its own; a step whose story is longer than :data:`STORY_CHARS`
    on as many pages as it needs (nothing is cut)."""
    pages: list[Page] = []
    for step in replay.steps:
        chunks: list[list[str]] = [[]]
        size = 0
        for line in step_lines(replay, step):
            if chunks[-1] and size + len(line) + 1 > STORY_CHARS:
                chunks.append([])
                size = 0
            chunks[-1].append(line)
            size += len(line) + 1
        for part, chunk in enumerate(chunks, start=1):
            pages.append(Page(len(pages), step, tuple(chunk), part, len(chunks)))
    return pages


async def replay_screen(client: Any, record: MatchRecord, pick: Pick) -> Screen:
    """The page ``pick(replay, pages)`` of the match as a message: the story, the board, the stepper."""
    try:
        ui: GameUI | None = get_ui(record.game)
    except KeyError:  # a game without a Discord UI (no longer offered): its story without a board
        ui = None
    closing = ui.story_kinds if ui is not None else GameUI.story_kinds
    replay = await replays_of(client).replay(record, closing)
    pages = paginate(replay)
    page = pages[min(max(pick(replay, pages), 0), len(pages) - 1)]
    board = Post()
    if ui is not None:
        images = await pictures_on(client, record.guild_id)
        board = await asyncio.to_thread(ui.board_post, page.step.view, replay.names, images=images)
    embeds = fit([story_embed(replay, page, len(pages)), *board.embeds])
    shown = {e.image.url for e in embeds} | {e.thumbnail.url for e in embeds}
    files = [f for f in board.files if f"attachment://{f.filename}" in shown]
    return Screen(embeds, files, stepper(record.id, page.number, len(pages)))


def first_page_of_step(pages: list[Page], step: int) -> int:
    return next((p.number for p in pages if p.step.number >= step), len(pages) - 1)


def story_embed(replay: MatchReplay, page: Page, total: int) -> discord.Embed:
    record = replay.record
    n = page.number + 1
    if page.lines:
        description = "\n".join(page.lines)
    else:
        description = "(No events.)"
        if not page.step.complete:
            description = "⏳ This step is being played: what happens shows here once it resolves."
    if page.part > 1:
        description = f"*(continued, part {page.part} of {page.parts})*\n{description}"
    embed = discord.Embed(
        title=clip(f"🎞️ Replay of match #{record.id} · {game_name(record.game)} · step {n}/{total}", 256),
        description=description,
        colour=discord.Colour.dark_teal(),
    )
    names = " vs ".join(player_name(s.display_name, s.user_id) for s in record.seats)
    embed.add_field(name="Players", value=clip(names, 1024), inline=False)
    if n == total and not replay.live:
        summary = record.summary or f"The match is {record.status.value}."
        embed.add_field(name="Result", value=clip(discord.utils.escape_mentions(summary), 1024), inline=False)
    if replay.live:
        seen = "spectator view: the match is still being played, its secrets are told when it ends"
    else:
        seen = "the match is over: every secret is shown (🔒) with its owner"
    progress = "" if page.step.complete else " · in progress"
    embed.set_footer(text=f"Step {n}/{total}{progress} · {seen}")
    return embed


def fit(embeds: list[discord.Embed]) -> list[discord.Embed]:
    """The embeds that fit one message (10, 6,000 characters): the story first, then the board's."""
    out: list[discord.Embed] = []
    size = 0
    for embed in embeds[:EMBEDS_PER_MESSAGE]:
        if out and size + embed_size(embed) > EMBED_TOTAL:
            break
        out.append(embed)
        size += embed_size(embed)
    return out


def stepper(match_id: int, n: int, total: int) -> discord.ui.View:
    """⏮ First · ◀ Back · step k/n · Next ▶ · Last ⏭ (restart-proof)."""
    last = total - 1
    view = discord.ui.View(timeout=None)
    view.add_item(ReplayStep(match_id, 0, "f", disabled=n == 0))
    view.add_item(ReplayStep(match_id, max(n - 1, 0), "b", disabled=n == 0))
    view.add_item(ReplayStep(match_id, n, "c", label=f"Step {n + 1}/{total}", disabled=True))
    view.add_item(ReplayStep(match_id, min(n + 1, last), "n", disabled=n >= last))
    view.add_item(ReplayStep(match_id, last, "l", disabled=n >= last))
    return view


class Replays(commands.Cog):
    def __init__(self, bot: RefereeBot):
        self.bot = bot

    @app_commands.command(name="replay", description="Step through a match: the board and the story of each turn")
    @app_commands.describe(match="the match id (see /history)")
    async def replay(
        self, interaction: discord.Interaction[Any], match: app_commands.Range[int, 1, MAX_MATCH_ID]
    ) -> None:
        record = await replayable(interaction, match)  # refuse before deferring: a plain ephemeral reply
        await interaction.response.defer(thinking=True)
        screen = await replay_screen(self.bot, record, lambda replay, pages: 0)
        await interaction.followup.send(**send_kwargs(screen))


def replay_button(match_id: int) -> discord.ui.Button[Any]:
    """A "Replay" button for a match (the end-of-match card): opens the stepper in a new
    ephemeral message for whoever clicks it, and leaves the card as it is."""
    return ReplayOpen(match_id).item


DYNAMIC_ITEMS = (ReplayStep, ReplayOpen, ReplayPager)


async def setup(bot: RefereeBot) -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(Replays(bot))


async def teardown(bot: RefereeBot) -> None:
    bot.remove_dynamic_items(*DYNAMIC_ITEMS)
