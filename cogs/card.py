"""The match card: one message per match, built with Discord's layout components (a
``discord.ui.LayoutView``: Container, TextDisplay, MediaGallery, Separator) and edited in place.

It shows, top to bottom: the match's title, whose move it is with each awaited player's deadline
(``<t:...:R>``), the game's standing as the game's board post tells it (its text, and each of its
pictures at full width in a media gallery: a board or situation picture is never a thumbnail),
the latest public events in a few lines, and the public buttons: the game's rules and the replay
of the match so far (both answered privately, for whoever clicks).

A components-v2 message has no content and no embeds (the components are the message), at most
40 components and 4,000 characters of text displays: the card stays within both, whatever the
game's post holds. Mentions in a text display ping as they would in content, under the message's
``allowed_mentions``.

With ``PUBLIC_URL`` set, the row also links to the match's page on the web table ("Watch on the
web", a link button: no custom id).

Custom ids: ``card:rules:<game slug>`` (the Rules button; a DynamicItem, so it works on every
card ever posted, after restarts) and the replay's ``rpl:<match>:open`` (cogs/replay.py).
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.matches import MatchRecord, MatchStatus
from rules import get_game

from .errors import guarded
from .games import get_ui
from .games.base import Post, clip
from .games.pictures import CONTENT_NAMED, content_name
from .options import option_specs

#: Discord's limits for a components-v2 message.
MAX_TEXT = 4000
MAX_COMPONENTS = 40
GALLERY_ITEMS = 10
#: What the card gives the game's own text (the rest: title, status, latest events, footer).
GAME_TEXT = 2600
LATEST_TEXT = 700


def embed_text(e: discord.Embed) -> str:
    """An embed's visible text as markdown for a text display (title as a heading, fields as bold
    names over their values, the footer as subtext)."""
    parts: list[str] = []
    if e.author and e.author.name:
        parts.append(f"-# {e.author.name}")
    if e.title:
        parts.append(f"### {e.title}")
    if e.description:
        parts.append(e.description)
    for f in e.fields:
        name = (f.name or "").strip()
        value = (f.value or "").strip()
        parts.append(f"**{name}**\n{value}" if name and name != "\u200b" else value)
    if e.footer and e.footer.text:
        parts.extend(f"-# {line}" for line in e.footer.text.splitlines() if line.strip())
    return "\n".join(p for p in parts if p)


def pictures_of(e: discord.Embed) -> list[str]:
    """The pictures an embed shows (its image, and its thumbnail: on the card both at full width)."""
    return [url for url in (e.image.url, e.thumbnail.url) if url]


def status_line(record: MatchRecord) -> str:
    """Whose move it is, each awaited player with their own deadline; or how the match ended."""
    if record.status is not MatchStatus.ACTIVE:
        return "🏁 " + (record.summary or f"The match is {record.status.value}.")
    waiting = [s for s in record.seats if s.deadline_at is not None]
    if not waiting:
        return "⏳ Resolving…"
    if len({s.deadline_at for s in waiting}) == 1:
        names = ", ".join(f"**{s.display_name}**" for s in waiting)
        return f"⏳ Waiting for {names} · due <t:{waiting[0].deadline_at}:R>"
    return "⏳ Waiting for " + ", ".join(f"**{s.display_name}** (due <t:{s.deadline_at}:R>)" for s in waiting)


def title_of(record: MatchRecord) -> str:
    return clip(f"{get_game(record.game).name} · match #{record.id}: " + " vs ".join(record.names), 250)


def rules_button(slug: str) -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label="Rules", emoji="📖", style=discord.ButtonStyle.secondary, custom_id=f"card:rules:{slug}"
    )


def web_button(label: str, url: str) -> discord.ui.Button[Any]:
    """A link to the match's page on the web table (docs/web.md): opens in the browser, no custom id."""
    return discord.ui.Button(label=label, emoji="🌐", style=discord.ButtonStyle.link, url=url)


def web_links_of(client: Any) -> Any:
    """The client's links to the web table (``RefereeBot.web_links``; None on a client without)."""
    return getattr(client, "web_links", None)


async def shown_on_the_web(client: Any, guild_id: int | None, url: object) -> str | None:
    """``url`` (a web table address, or None when it has no public one) if the server ``guild_id``
    shows its pages (``/settings web``; direct messages have the defaults: shown), else None."""
    if not isinstance(url, str):
        return None
    servers = getattr(client, "servers", None)
    if guild_id is not None and servers is not None and not (await servers.get(guild_id)).web:
        return None
    return url


async def watch_url(client: Any, record: MatchRecord) -> str | None:
    """The web page of ``record`` when the web table has a public address and the match's server
    has not turned its pages off (``/settings web``), else None."""
    links = web_links_of(client)
    return await shown_on_the_web(client, record.guild_id, links.match(record.id) if links is not None else None)


def replay_so_far(match_id: int) -> discord.ui.Button[Any]:
    from .replay import ReplayOpen  # cogs.replay imports the match cogs, which import this one

    return ReplayOpen(match_id, label="🎞️ Replay").item


def content_named(post: Post) -> Post:
    """``post`` with every picture named by its content (``<kind>-<16 hex>.png``): the same board
    keeps the same name, so an edit of the card keeps the picture it already shows instead of
    uploading it again. The embeds' references follow the new names."""
    renamed: dict[str, str] = {}
    files: list[discord.File] = []
    for f in post.files:
        name = f.filename or "picture.png"
        if CONTENT_NAMED.fullmatch(name):
            files.append(f)
            continue
        data = f.fp.read()
        f.fp.seek(0)
        kind = re.sub(r"[^a-z0-9-]+", "-", name.rsplit(".", 1)[0].lower()).strip("-") or "picture"
        new = content_name(kind, data)
        renamed[f"attachment://{name}"] = f"attachment://{new}"
        files.append(discord.File(io.BytesIO(data), filename=new, description=f.description))
    if not renamed:
        return post
    embeds = []
    for e in post.embeds:
        e = e.copy()
        if e.image.url in renamed:
            e.set_image(url=renamed[e.image.url])
        if e.thumbnail.url in renamed:
            e.set_thumbnail(url=renamed[e.thumbnail.url])
        embeds.append(e)
    return Post(embeds, files)


def match_card(
    record: MatchRecord,
    post: Post,
    *,
    latest: Sequence[str] = (),
    opening: str | None = None,
    footer: str | None = None,
    buttons: bool = True,
    watch_url: str | None = None,
) -> discord.ui.LayoutView:
    """The card of ``record`` with the game's board ``post`` (its pictures go with the message as
    files: ``post.files``). ``opening``: a greeting above the status (the first card: mentions).
    ``watch_url``: the match's web page (``PUBLIC_URL`` set), a link button beside the others."""
    view = discord.ui.LayoutView(timeout=None)
    colour = next((e.colour for e in post.embeds if e.colour is not None), None) or discord.Colour.blurple()
    container: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(accent_colour=colour)
    head = [f"## {title_of(record)}"]
    if opening:
        head.append(clip(opening, 600))
    head.append(status_line(record))
    container.add_item(discord.ui.TextDisplay("\n".join(head)))
    budget = GAME_TEXT
    slots = MAX_COMPONENTS - 8  # the container, header, separator, latest, footer, action row, 2 buttons
    for e in post.embeds:
        text = clip(embed_text(e), max(budget, 1))
        if text and budget > 0 and slots > 0:
            container.add_item(discord.ui.TextDisplay(text))
            budget -= len(text)
            slots -= 1
        urls = pictures_of(e)[:GALLERY_ITEMS]
        if urls and slots > 0:
            container.add_item(discord.ui.MediaGallery(*(discord.MediaGalleryItem(u) for u in urls)))
            slots -= 1
    if latest:
        container.add_item(discord.ui.Separator())
        container.add_item(discord.ui.TextDisplay(clip("**Latest**\n" + "\n".join(latest), LATEST_TEXT)))
    if footer:
        container.add_item(discord.ui.TextDisplay(f"-# {clip(footer, 200)}"))
    view.add_item(container)
    if buttons:
        row: discord.ui.ActionRow[discord.ui.LayoutView] = discord.ui.ActionRow()
        row.add_item(rules_button(record.game))
        row.add_item(replay_so_far(record.id))
        if watch_url:
            row.add_item(web_button("Watch on the web", watch_url))
        view.add_item(row)
    return view


def note_card(text: str, colour: discord.Colour | None = None) -> discord.ui.LayoutView:
    """A card of one line (an old card turned into a link to its successor or to the result)."""
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.Container(discord.ui.TextDisplay(clip(text, 2000)), accent_colour=colour))
    return view


def rules_embed(slug: str) -> discord.Embed:
    """A game's rules in brief (/rules and the card's Rules button)."""
    g = get_game(slug)
    embed = discord.Embed(title=g.name, description=g.summary, colour=discord.Colour.blurple())
    embed.add_field(name="Players", value=f"{g.min_seats}" + (f"-{g.max_seats}" if g.max_seats != g.min_seats else ""))
    specs = option_specs(g.options_model)
    if specs:
        embed.add_field(
            name="Options (/challenge options:)",
            value=clip(
                "\n".join(
                    f"`{s.name}` = {' | '.join(s.values) if s.values else '…'} (default {s.default})"
                    + (f": {s.help}" if s.help else "")
                    for s in specs
                ),
                1024,
            ),
            inline=False,
        )
    for name, value in get_ui(slug).rules_fields():
        embed.add_field(name=name, value=clip(value, 1024), inline=False)
    embed.set_footer(text=f"The whole rules: /howto {slug} · look up a piece: /card")
    return embed


class RulesButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"card:rules:(?P<game>[a-z0-9_-]{1,40})"):
    """The card's Rules button: the game's rules in brief, privately, for whoever clicks."""

    def __init__(self, slug: str):
        super().__init__(rules_button(slug))
        self.slug = slug

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any
    ) -> RulesButton:
        return cls(str(match["game"]))

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            embed = rules_embed(self.slug)
        except (KeyError, ValueError):
            await interaction.response.send_message("That game is no longer offered here.", ephemeral=True)
            return
        await interaction.response.send_message(embed=embed, ephemeral=True)


__all__ = [
    "RulesButton",
    "embed_text",
    "match_card",
    "note_card",
    "pictures_of",
    "rules_button",
    "rules_embed",
    "status_line",
    "title_of",
]
