"""/replay: step through a match, one resolution at a time, with its picture and the story.

A step is one resolution of the game, as the match's thread tells it (the game UI's
``story_kinds``): a Wizards Cup round (its duels resolve together, up to a choice a power asks
for), a Firewall turn, a Magic Duel trick, an Arena player-turn, the end of the game. Each step
is named as the players count the game ("Round 2", "Round 1, turn 3", "Hand 1 · trick 3",
"Turn 12 · ann": :func:`rules.story.chapter_title`) and shows what happened, numbered as in
``python -m rules replay --text``, without the notices that only say someone is ready, and the
board after it with a picture (drawn off the event loop): the board's own (Firewall, Arena),
else the picture the thread's story post of that step had (a Wizards Cup round's duels, a Magic
Duel trick), else a standing picture (a Magic Duel deal). A step of the past never says someone
"is choosing": the board's prompts (who is asked what now) are left out, and the step says what
was played next instead (the last step: how the match ended). Only the last step of a live match
shows who is being waited on.

While the match is live it is shown as a spectator sees it (public events, the spectator view);
once it is over (finished, or abandoned with a log) every secret is told, marked 🔒 and named with
its owner. Anyone in the match's server may replay it there; in a DM, its players may (servers
are kept apart: :mod:`bot.matches.isolation`). The data comes from :class:`bot.replays.ReplayService`.

The stepper is private: ``/replay`` answers in an ephemeral message only its opener sees (with
``share``, it is posted in the channel for everyone to watch, and only its opener may step it).
A click on a public stepper by anyone else (or on one whose opener is unknown: an old post)
changes nothing there: the clicker is told so and gets their own private copy at that step.
A match of more than :data:`JUMP_MIN` screens has a jump select listing its steps by name (at most
25 options: more steps are grouped evenly).

Custom ids (DynamicItems: they keep working after a restart, nothing is kept in memory):

- ``rpl:<match>:<step>:<f|b|n|l|c>``: the stepper's buttons first / back / next / last, each
  showing step ``<step>`` (0-based) of match ``<match>`` in the message it is on; ``c`` is the
  step counter between them (disabled). The role letter keeps the ids of one message unique. (A
  step whose story is longer than one embed takes as many steps of the stepper as it needs, each
  with the same board: the numbers count the stepper's screens.)
- ``rpl:<match>:jump``: the jump select; each option's value is a screen number (as above).
- ``rpl:<match>:open``: the Replay button of the end-of-match card (:func:`replay_button`): opens
  the stepper at its first step in a new ephemeral message; the card is left as it is.
- ``replay:<match>:<page>:<p|i|n>``: the text pages of before, on messages already posted.
  ``p``/``n`` open the stepper at the step holding the first event of that page (in the message
  for its opener, else in a private copy); ``i`` (the page counter, and the first Replay button)
  opens it like ``rpl:<match>:open``.
"""

from __future__ import annotations

import asyncio
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.replays import MatchReplay, ReplayRefused, ReplayService, Step
from bot.stats import MatchRecord

from .errors import guarded
from .games import get_ui
from .games.base import EMBED_TOTAL, EMBEDS_PER_MESSAGE, SELECT_OPTIONS, GameUI, Post, clip, embed_size
from .ids import FIELD, read_id, require
from .placement import pictures_on
from .stats import game_name, player_name

if TYPE_CHECKING:
    from bot.client import RefereeBot

#: The largest match id /replay takes: Discord's integer options stop below 2^53 (SQLite's at 2^63 - 1).
MAX_MATCH_ID = 2**53 - 1
STORY_CHARS = 3000  # the step's story in the embed description (limit 4096), with room for the rest
EVENT_CHARS = 600
OLD_PAGE_EVENTS = 15  # the public events per page of the old text pages
ROLES = {"f": "⏮ First", "b": "◀ Back", "n": "Next ▶", "l": "Last ⏭"}
#: A replay of more screens than this has the jump select.
JUMP_MIN = 10
THEN_CHARS = 300
#: The board's lines that say who is asked what now ("⏳ bob is choosing how to draw.", "Next: both
#: wizards choose a bet ...", "🧙 choosing a Discipline"): true of a live match's present only.
PROMPT_LINE = re.compile(
    r"⏳|\bis (?:choosing|deciding|ordering|thinking)\b|\bare (?:choosing|ordering)\b|\bchoosing a\b"
    r"|^Next:|^Waiting for\b|\bchoose a bet\b|^✅ ready$",
    flags=re.IGNORECASE,
)


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


class ReplayJump(discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"rpl:(?P<match>{FIELD}):jump"):
    """The jump select of a long replay: each option a step (or an even group of steps) by name."""

    def __init__(self, match_id: int, options: list[discord.SelectOption] | None = None):
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"rpl:{match_id}:jump",
            placeholder="🔎 Jump to…",
            options=options or [discord.SelectOption(label="Step 1", value="0")],
        )
        super().__init__(select)
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any
    ) -> ReplayJump:
        return cls(read_id(match["match"]))

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        require(self.match_id)
        values = list(self.item.values) or [""]
        page = read_id(values[0])
        if page < 0:  # another server's match is refused as such before the damaged value
            await replayable(interaction, self.match_id)
        require(page)
        await show_in_place(interaction, self.match_id, lambda replay, pages: page)


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
    """Show the page ``pick(replay, pages)`` in the message the clicked button is on, if the
    clicker may step it (a private stepper, or a public one they opened); anyone else is told so
    and gets their own private copy at that page, the public message unchanged."""
    record = await replayable(interaction, match_id)  # refuse before deferring: a plain ephemeral reply
    message = interaction.message
    if message is not None and not message.flags.ephemeral:
        opener = opener_of(message)
        if opener is None or opener.id != interaction.user.id:
            await interaction.response.defer(ephemeral=True, thinking=True)
            screen = await replay_screen(interaction.client, record, pick)
            await interaction.followup.send(content=not_yours(opener), ephemeral=True, **send_kwargs(screen))
            return
    await interaction.response.defer()  # rebuilding and drawing may take a moment
    screen = await replay_screen(interaction.client, record, pick)
    await interaction.edit_original_response(embeds=screen.embeds, attachments=screen.files, view=screen.view)


def opener_of(message: discord.Message) -> discord.User | discord.Member | None:
    """Who opened the replay a message shows: the user of the command (or click) that made it;
    None for a message no interaction made (an old post)."""
    meta = message.interaction_metadata
    return meta.user if meta is not None else None


def not_yours(opener: discord.User | discord.Member | None) -> str:
    """The refusal of a click on someone else's public stepper (it stays as it is)."""
    if opener is None:
        head = "🔒 This replay is shown to everyone, so its buttons do not move it"
    else:
        head = f"🔒 Only {discord.utils.escape_mentions(opener.display_name)} can step this replay: they opened it"
    return clip(f"{head} (nothing changed there). Here is your own copy, only you can see it:", 2000)


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
    """The page ``pick(replay, pages)`` of the match as a message: the story, the board and its
    picture, the stepper (and the jump select of a long replay)."""
    try:
        ui: GameUI | None = get_ui(record.game)
    except KeyError:  # a game without a Discord UI (no longer offered): its story without a board
        ui = None
    closing = ui.story_kinds if ui is not None else GameUI.story_kinds
    replay = await replays_of(client).replay(record, closing)
    pages = paginate(replay)
    page = pages[min(max(pick(replay, pages), 0), len(pages) - 1)]
    now = replay.live and page.step.number == len(replay.steps) - 1  # the present: who is asked is true
    board = Post()
    if ui is not None:
        images = await pictures_on(client, record.guild_id)
        board = await asyncio.to_thread(step_board, ui, replay, page.step, images=images)
    board_embeds = board.embeds if now else [past(e) for e in board.embeds]
    embeds = fit([story_embed(replay, page, len(pages), now=now), *board_embeds])
    shown = {e.image.url for e in embeds} | {e.thumbnail.url for e in embeds}
    files = [f for f in board.files if f"attachment://{f.filename}" in shown]
    return Screen(embeds, files, stepper(record.id, page.number, len(pages), jumps=jump_options(replay, pages)))


def step_board(ui: GameUI, replay: MatchReplay, step: Step, *, images: bool) -> Post:
    """The board after ``step`` with a picture (run off the event loop: pictures are drawn here):
    the board's own picture, else the pictures of the step's post in the thread (titled, without
    their text: the story tells it), else a standing picture where the game has one."""
    names = replay.names
    board = ui.board_post(step.view, names, images=images)
    if not images or board.files:
        return board
    post = ui.public_post(step.view, step.public_events(), names, images=True)
    files = {f"attachment://{f.filename}": f for f in post.files}
    pictured = [e for e in post.embeds if e.image.url in files]
    shown = [discord.Embed(title=e.title, colour=e.colour).set_image(url=e.image.url or "") for e in pictured]
    extra = [files[e.image.url or ""] for e in pictured]
    if not shown:
        picture = standing_picture(replay, step)
        if picture is not None:
            shown = [discord.Embed(title=f"{replay.chapter(step)}", colour=discord.Colour.dark_teal())]
            shown[0].set_image(url=f"attachment://{picture.filename}")
            extra = [picture]
    return Post([*shown, *board.embeds], [*extra, *board.files])


def standing_picture(replay: MatchReplay, step: Step) -> discord.File | None:
    """A picture of the players after a step whose post has none (the game's UI's
    :meth:`~cogs.games.base.GameUI.standing_picture`: a Magic Duel deal); None for the other games."""
    ui = get_ui(replay.record.game)
    filename = f"replay-{replay.record.id}-step-{step.number + 1}.png"
    return ui.standing_picture(step.view, replay.names, replay.chapter(step), filename)


def past(embed: discord.Embed) -> discord.Embed:
    """A board embed told of the past: without its lines saying who is asked what now (a copy)."""
    data = embed.to_dict()

    def keep(text: str) -> str:
        return "\n".join(line for line in text.split("\n") if not PROMPT_LINE.search(line))

    if "description" in data:
        data["description"] = keep(data["description"]) or "—"
    for f in data.get("fields", []):
        f["value"] = keep(f["value"]).strip() or "—"
        if f["name"] == "Now":
            f["name"] = "At that moment"
    footer = data.get("footer")
    if footer and PROMPT_LINE.search(footer.get("text", "")):
        del data["footer"]
    return discord.Embed.from_dict(data)


def first_page_of_step(pages: list[Page], step: int) -> int:
    return next((p.number for p in pages if p.step.number >= step), len(pages) - 1)


def story_embed(replay: MatchReplay, page: Page, total: int, *, now: bool = False) -> discord.Embed:
    """The step's story: its name, its lines; then what was played next (or how the match ended)."""
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
    chapter = discord.utils.escape_markdown(replay.chapter(page.step))
    description = f"**{clip(chapter, 200)}**\n{description}"
    embed = discord.Embed(
        title=clip(f"🎞️ Replay of match #{record.id} · {game_name(record.game)} · step {n}/{total}", 256),
        description=clip(description, 4096),
        colour=discord.Colour.dark_teal(),
    )
    names = " vs ".join(player_name(s.display_name, s.user_id) for s in record.seats)
    embed.add_field(name="Players", value=clip(names, 1024), inline=False)
    then = replay.then(page.step) if page.part == page.parts and not now else None
    if then:
        embed.add_field(name="▶ Then", value=clip(discord.utils.escape_mentions(then), THEN_CHARS), inline=False)
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


def stepper(match_id: int, n: int, total: int, *, jumps: list[discord.SelectOption] | None = None) -> discord.ui.View:
    """⏮ First · ◀ Back · step k/n · Next ▶ · Last ⏭ (restart-proof), and the jump select."""
    last = total - 1
    view = discord.ui.View(timeout=None)
    view.add_item(ReplayStep(match_id, 0, "f", disabled=n == 0))
    view.add_item(ReplayStep(match_id, max(n - 1, 0), "b", disabled=n == 0))
    view.add_item(ReplayStep(match_id, n, "c", label=f"Step {n + 1}/{total}", disabled=True))
    view.add_item(ReplayStep(match_id, min(n + 1, last), "n", disabled=n >= last))
    view.add_item(ReplayStep(match_id, last, "l", disabled=n >= last))
    if jumps:
        view.add_item(ReplayJump(match_id, jumps))
    return view


def jump_options(replay: MatchReplay, pages: list[Page]) -> list[discord.SelectOption]:
    """The jump select's options for a replay of more than :data:`JUMP_MIN` screens (none for a
    shorter one): each step by name ("Turn 12 · ann"), its value the step's first screen; more
    than 25 steps are grouped evenly ("Turn 1 · ann … Turn 3 · bob", "Steps 1–6")."""
    if len(pages) <= JUMP_MIN:
        return []
    firsts = [p for p in pages if p.part == 1]
    size = math.ceil(len(firsts) / SELECT_OPTIONS)
    options = []
    for i in range(0, len(firsts), size):
        group = firsts[i : i + size]
        head, tail = group[0], group[-1]
        label = replay.chapter(head.step)
        if len(group) > 1:
            label = f"{label} … {replay.chapter(tail.step)}"
            where = f"Steps {head.number + 1}–{tail.number + tail.parts}"
        else:
            where = f"Step {head.number + 1}" + (f"–{head.number + head.parts}" if head.parts > 1 else "")
        options.append(discord.SelectOption(label=clip(label, 100), value=str(head.number), description=where))
    return options


class Replays(commands.Cog):
    def __init__(self, bot: RefereeBot):
        self.bot = bot

    @app_commands.command(name="replay", description="Step through a match: the board and the story of each turn")
    @app_commands.describe(
        match="the match id (see /history)",
        share="post it in the channel for everyone to watch (only you can step it); by default only you see it",
    )
    async def replay(
        self,
        interaction: discord.Interaction[Any],
        match: app_commands.Range[int, 1, MAX_MATCH_ID],
        share: bool = False,
    ) -> None:
        record = await replayable(interaction, match)  # refuse before deferring: a plain ephemeral reply
        await interaction.response.defer(ephemeral=not share, thinking=True)
        screen = await replay_screen(self.bot, record, lambda replay, pages: 0)
        await interaction.followup.send(ephemeral=not share, **send_kwargs(screen))


async def match_story(client: Any, record: MatchRecord) -> str | None:
    """The match as a text to read (the end card's download, ``match-<id>-<game>.txt``): its
    steps named and told as the stepper tells them (a match that is over: every secret named with
    its owner, as its log file reveals them); None when the current rules cannot replay it."""
    try:
        closing = get_ui(record.game).story_kinds
    except KeyError:
        closing = GameUI.story_kinds
    try:
        replay = await replays_of(client).replay(record, closing)
    except ReplayRefused:
        return None
    return replay.document(game_name(record.game))


def replay_button(match_id: int) -> discord.ui.Button[Any]:
    """A "Replay" button for a match (the end-of-match card): opens the stepper in a new
    ephemeral message for whoever clicks it, and leaves the card as it is."""
    return ReplayOpen(match_id).item


DYNAMIC_ITEMS = (ReplayStep, ReplayJump, ReplayOpen, ReplayPager)


async def setup(bot: RefereeBot) -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(Replays(bot))


async def teardown(bot: RefereeBot) -> None:
    bot.remove_dynamic_items(*DYNAMIC_ITEMS)
