"""/help and /howto: what the bot does, and each game's rules on one screen, with a picture.

- ``/help`` lists every slash command the bot has (read from its command tree, so a new command
  appears by itself), grouped, one line each, and how a match works: challenge, thread, private
  moves, deadlines, the end.
- ``/howto game`` shows one embed: the game's goal, a turn, the end, the one thing a newcomer must
  know (its UI's ``first_match_tip``), an illustrated summary drawn with Pillow (one picture per game,
  cached, drawn off the event loop) and the full rulings page ``docs/rulings/<game>.md``: a link
  to ``<DOCS_BASE_URL>/docs/rulings/<game>.md`` when the bot's ``docs_base_url`` setting is set,
  else the page itself attached as ``<game>-rulings.md`` (read from the project folder,
  :data:`RULINGS_DIR`, once; an installed copy without the docs says where the page is instead).
- :func:`first_match_tip` gives the one-line tip the match start sends to a player's first match
  of a game (who is new: :meth:`bot.stats.StatsService.newcomers`).

Both replies are ephemeral and have no components (so no custom_id grammar). What a player typed
is echoed clipped (:data:`ECHO_CHARS`).
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands
from PIL import Image, ImageDraw

from rules.errors import RulesError
from rules.registry import get_game

from .games import get_ui, has_ui, ui_slugs
from .games.base import clip
from .games.howto import HowTo, Step
from .games.pictures import PICTURES, font, text_with
from .howto_art import (
    ART_H,
    CAPTION_SIZE,
    GOLD,
    HEADER,
    HEIGHT,
    ICONS,
    INK,
    PANEL,
    PANEL_PAD,
    SMALL,
    WIDTH,
    caption_boxes,
    panel_boxes,
    wrap,
)

if TYPE_CHECKING:
    from bot.client import RefereeBot

RULINGS_DIR = Path(__file__).resolve().parents[1] / "docs" / "rulings"
"""The project's rulings pages, ``<slug>.md`` each: attached to /howto when no ``docs_base_url``
is set."""
ECHO_CHARS = 40


def first_match_tip(game: str) -> str | None:
    """The tip for a player's first match of ``game`` (a slug), or None for a game without one."""
    tip = get_ui(game).first_match_tip if has_ui(game) else None
    return None if not tip else f"💡 First {game_title(game)} match? {tip}"


class HelpError(ValueError):
    """A request /howto refuses; the message is meant for the player."""


# ------------------------------------------------------------------------------ the summaries


def howtos() -> dict[str, HowTo]:
    """Every registered game's /howto entry (its UI's ``howto``), by slug."""
    return {slug: get_ui(slug).howto for slug in ui_slugs()}


def game_title(slug: str) -> str:
    try:
        return str(get_game(slug).name)
    except RulesError:
        return slug


def howto_games() -> list[tuple[str, str]]:
    """(slug, name) of every registered game (each has a summary: its UI's ``howto``)."""
    return [(slug, game_title(slug)) for slug in ui_slugs()]


def resolve_howto(value: str) -> str:
    """The slug of a game with a summary, given by slug or name."""
    wanted = value.strip().lower()
    games = howto_games()
    for slug, name in games:
        if wanted in (slug, name.lower()):
            return slug
    names = ", ".join(name for _, name in games)
    raise HelpError(f"There is no game called {clip(value.strip(), ECHO_CHARS)!r}. /howto knows: {names}.")


def rulings_url(game: str, base: str) -> str:
    """The game's rulings page under ``base``, where the project's files are browsed."""
    return f"{base.rstrip('/')}/docs/rulings/{game}.md"


def rulings_filename(game: str) -> str:
    return f"{game}-rulings.md"


@lru_cache(maxsize=16)
def _read_once(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:  # an installed copy without the docs folder
        return None


def rulings_bytes(game: str) -> bytes | None:
    """The game's rulings page ``docs/rulings/<game>.md`` as stored in the project folder (read once),
    or None when it is not there."""
    return _read_once(RULINGS_DIR / f"{game}.md")


def seats_text(slug: str) -> str:
    g = get_game(slug)
    low, high = int(g.min_seats), int(g.max_seats)
    return f"{low} players" if low == high else f"{low} to {high} players"


# ------------------------------------------------------------------------------ the picture
# Two by two panels, each drawn with the game's real pieces (Wizards Cup's cards, Firewall's
# bridge and mana, Magic Duel's playing cards, Arena's board with its Wizards and Minions) and its
# real numbers. 530 px wide: the smallest text (15 px) is 2.8% of the width, legible on a phone.


def caption(slug: str, step: Step) -> str:
    """A step's caption with the game's real numbers filled in."""
    return get_ui(slug).howto.caption(step)


def icon_key(step: Step) -> str:
    """What names a step's icon in the picture cache's inputs."""
    return step.icon if isinstance(step.icon, str) else f"{step.icon.__module__}.{step.icon.__qualname__}"


def howto_image(slug: str) -> Image.Image:
    """The game's illustrated summary: its name and players, then one panel per step."""
    howto = get_ui(slug).howto
    image = Image.new("RGB", (WIDTH, HEIGHT), (30, 31, 34))
    d = ImageDraw.Draw(image)
    d.rectangle([0, 0, WIDTH, HEADER], fill=(54, 57, 63))
    text_with(d, (PANEL_PAD, HEADER / 2), game_title(slug), font=font(24), fill=INK, anchor="lm")
    text_with(d, (WIDTH - PANEL_PAD, HEADER / 2), seats_text(slug), font=font(16), fill=INK, anchor="rm")
    steps = howto.steps
    for i, (step, frame, box) in enumerate(zip(steps, panel_boxes(len(steps)), caption_boxes(len(steps)), strict=True)):
        left, top, right, _ = frame
        d.rounded_rectangle(frame, radius=10, fill=PANEL, outline=(70, 72, 78), width=2)
        paint = ICONS[step.icon] if isinstance(step.icon, str) else step.icon
        paint(image, d, (left + 4, top + 8, right - 4, top + ART_H))
        d.ellipse([left + 6, top + 6, left + 32, top + 32], fill=GOLD)
        text_with(d, (left + 19, top + 19), str(i + 1), font=font(SMALL + 1), fill=(30, 30, 30), anchor="mm")
        y = box[1]
        for line in wrap(d, caption(slug, step), box[2] - box[0] - 12, CAPTION_SIZE):
            text_with(d, ((box[0] + box[2]) / 2, y), line, font=font(CAPTION_SIZE), fill=INK, anchor="ma")
            y += CAPTION_SIZE + 5
    return image


def howto_file(slug: str) -> discord.File:
    """The picture as an attachment, drawn once per game and per numbers (call it in a thread)."""
    howto = get_ui(slug).howto
    inputs = [slug, game_title(slug), [[icon_key(s), caption(slug, s)] for s in howto.steps]]
    return PICTURES.file("howto", inputs, f"howto-{slug}.png", lambda: howto_image(slug))


def howto_files(slug: str, *, with_rulings: bool) -> list[discord.File]:
    """The picture, then (``with_rulings``, and when the page is there) the game's rulings page as
    ``<slug>-rulings.md``, which Discord previews. Call it in a thread."""
    files = [howto_file(slug)]
    data = rulings_bytes(slug) if with_rulings else None
    if data is not None:
        files.append(discord.File(io.BytesIO(data), filename=rulings_filename(slug)))
    return files


# ------------------------------------------------------------------------------ the embeds

GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("🎲 Play", ("challenge", "status", "forfeit", "tournament")),
    ("📖 Learn", ("help", "howto", "rules", "card", "practice", "hint")),
    ("🏆 Results", ("leaderboard", "profile", "history", "replay")),
    ("⚙️ Server admins", ("settings",)),
)
HOW_A_MATCH_WORKS = (
    "1. **Challenge**: `/challenge` a game and your opponents (or `open:True` for a table anyone may "
    "join); each invited player presses **Accept**.\n"
    "2. **Thread**: the match gets its own thread (where the server allows threads) with a live board; "
    "every duel, trick or turn is told there.\n"
    "3. **Your moves**: secret choices come by DM (closed DMs: a **Submit privately** button), hidden from "
    "everyone until the game reveals them; Arena's controls are in the thread, usable only by you.\n"
    "4. **Deadlines**: each move has a time limit (the server's turn time, or a tournament's own, shown on "
    "the prompt), with a reminder before it runs out; running out forfeits (an optional choice takes its default).\n"
    "5. **The end**: the result and the rating changes; `/profile`, `/leaderboard` and `/replay` follow it up.\n"
    "No opponent at hand? `/practice` plays any game against the computer (unrated, with a 💡 Hint button)."
)


SlashCommand = app_commands.Command[Any, Any, Any] | app_commands.Group


def command_lines(tree_commands: Sequence[SlashCommand]) -> dict[str, str]:
    """Command name -> its one line for /help."""
    return {c.name: clip(f"`/{c.name}` — {c.description}", 200) for c in tree_commands}


def help_embed(tree_commands: Sequence[SlashCommand]) -> discord.Embed:
    """Every command, grouped (a command no group names goes under "More"), then how a match works."""
    lines = command_lines(tree_commands)
    embed = discord.Embed(
        title="🧙 Wizard Referee",
        description=(
            "I referee wizard-duel tabletop games in this server: I deal, keep every secret, enforce the rules "
            "exactly, time the moves and rate the results. Games: "
            + ", ".join(name for _, name in howto_games())
            + ". New to a game? `/howto game` shows its rules on one screen."
        ),
        colour=discord.Colour.blurple(),
    )
    listed: set[str] = set()
    for title, names in GROUPS:
        value = "\n".join(lines[n] for n in names if n in lines)
        listed.update(names)
        if value:
            embed.add_field(name=title, value=clip(value, 1024), inline=False)
    rest = [line for name, line in sorted(lines.items()) if name not in listed]
    if rest:
        embed.add_field(name="➕ More", value=clip("\n".join(rest), 1024), inline=False)
    embed.add_field(name="How a match works", value=HOW_A_MATCH_WORKS, inline=False)
    embed.set_footer(text="Your replies from /help and /howto are only visible to you.")
    return embed


def rulings_pointer(slug: str, url: str | None, attached: bool) -> str:
    """Where the full rulings are: the link, the attachment, or the page in the bot's source."""
    if url is not None:
        return f"Every rule and ruling: [docs/rulings/{slug}.md]({url})"
    if attached:
        return f"Every rule and ruling: attached, `{rulings_filename(slug)}`"
    return f"Every rule and ruling: see docs/rulings/{slug}.md in the bot's source"


def howto_embed(slug: str, base_url: str | None = None, *, rulings_attached: bool = False) -> discord.Embed:
    """One screen: goal, a turn, the end, the newcomer's tip, the picture and where the full rulings
    are (a link under ``base_url``, else the attached page when ``rulings_attached``)."""
    ui = get_ui(slug)
    howto = ui.howto
    url = None if base_url is None else rulings_url(slug, base_url)
    embed = discord.Embed(
        title=f"How to play {game_title(slug)}",
        url=url,
        description=f"**{seats_text(slug)}.** {howto.goal}",
        colour=discord.Colour.dark_teal(),
    )
    embed.add_field(name="A turn", value=howto.turn, inline=False)
    embed.add_field(name="The end", value=howto.end, inline=False)
    tip = ui.first_match_tip
    if tip:
        embed.add_field(name="💡 Know this", value=tip, inline=False)
    embed.add_field(
        name="More",
        value=f"{rulings_pointer(slug, url, rulings_attached)} · options: `/rules` · cards: `/card`",
        inline=False,
    )
    embed.set_image(url=f"attachment://howto-{slug}.png")
    embed.set_footer(text=f"Play it: /challenge game:{game_title(slug)}")
    return embed


# ------------------------------------------------------------------------------ the cog


class Help(commands.Cog):
    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="What this bot does: every command, and how a match works")
    async def help(self, interaction: discord.Interaction) -> None:
        listed = [c for c in self.bot.tree.get_commands() if not isinstance(c, app_commands.ContextMenu)]
        embed = help_embed(listed)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="howto", description="A game's rules on one screen, with a picture")
    @app_commands.describe(game="which game")
    async def howto(self, interaction: discord.Interaction, game: str) -> None:
        slug = resolve_howto(game)
        base_url = self.bot.settings.docs_base_url  # validated by bot.settings.Settings
        files = await asyncio.to_thread(howto_files, slug, with_rulings=base_url is None)
        embed = howto_embed(slug, base_url, rulings_attached=len(files) > 1)
        await interaction.response.send_message(embed=embed, files=files, ephemeral=True)

    @howto.autocomplete("game")
    async def game_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        cur = current.strip().lower()[:100]
        return [
            app_commands.Choice(name=name, value=slug)
            for slug, name in howto_games()
            if cur in slug or cur in name.lower()
        ][:25]


async def setup(bot: RefereeBot) -> None:
    """The /help and /howto commands."""
    await bot.add_cog(Help(bot))


__all__ = [
    "HowTo",
    "Step",
    "RULINGS_DIR",
    "Help",
    "HelpError",
    "caption_boxes",
    "first_match_tip",
    "help_embed",
    "howto_embed",
    "howto_file",
    "howto_files",
    "howtos",
    "howto_image",
    "resolve_howto",
    "rulings_bytes",
    "rulings_url",
    "setup",
    "wrap",
]
