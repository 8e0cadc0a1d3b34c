"""Play in the browser (issue 35, part 3): a person's prompt carries the way to their seat's page
on the web table (web/seat.py), when the table has a public address (``PUBLIC_URL``) and the
match's server shows its pages (``/settings web``).

- A private prompt (a DM, or an ephemeral message) carries the signed link itself: a link button.
- A prompt in the match's thread (Arena's, which anyone there can see) must not: it carries a
  "Play in the browser" button (``web:seat:<match>``) that answers whoever clicks it, privately,
  with the link of their own seat; anyone else is told the page is the players'.

The link is the player's alone and expires when the match ends (the page then opens nothing but
the match's public page).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.matches import MatchError, MatchRecord, SeatPrompt
from bot.matches.isolation import match_here

from .card import shown_on_the_web, web_button, web_links_of
from .ending import service_of
from .errors import guarded
from .games.base import Prompt
from .ids import FIELD, read_id, require

LABEL = "Play in the browser"


async def seat_url(client: Any, record: MatchRecord, seat: int) -> str | None:
    """The page of ``seat`` of ``record`` (None: no public address, pages off, or a computer seat)."""
    links = web_links_of(client)
    if links is None or record.is_ai(seat):
        return None
    return await shown_on_the_web(client, record.guild_id, links.seat(record.id, seat))


def _seat_button(match_id: int) -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label=LABEL, emoji="🌐", style=discord.ButtonStyle.secondary, custom_id=f"web:seat:{match_id}"
    )


async def with_seat_link(client: Any, record: MatchRecord, sp: SeatPrompt, prompt: Prompt, *, public: bool) -> Prompt:
    """``prompt`` with the way to the seat's page (where its view has room): the link itself in a
    private prompt, the button that answers privately in a ``public`` one."""
    if not sp.awaited:
        return prompt
    url = await seat_url(client, record, sp.seat)
    if url is None:
        return prompt
    view = prompt.view if prompt.view is not None else discord.ui.View(timeout=None)
    if len(view.children) >= 25:
        return prompt
    try:
        view.add_item(SeatLinkButton(record.id).item if public else web_button(LABEL, url))
    except ValueError:  # every row is full: the button is left out
        return prompt
    prompt.view = view
    return prompt


class SeatLinkButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"web:seat:(?P<match>{FIELD})"):
    """Under a prompt in the thread: the clicker's own seat page, privately."""

    def __init__(self, match_id: int) -> None:
        super().__init__(_seat_button(match_id))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any
    ) -> SeatLinkButton:
        return cls(read_id(match["match"]))

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        require(self.match_id)
        record = await match_here(service_of(interaction), self.match_id, interaction.guild_id, interaction.user.id)
        seat = record.seat_of(interaction.user.id)
        if seat is None:
            raise MatchError("Only the players of this match have a page to play it on.")
        url = await seat_url(interaction.client, record, seat)
        if url is None or record.status.value != "active":
            raise MatchError("This match has no page to play it on now (it is over, or the web table is off).")
        view = discord.ui.View(timeout=None)
        view.add_item(web_button(LABEL, url))
        await interaction.response.send_message(
            "Your seat's page: keep this link to yourself, it plays your moves. It stops working when the match ends.",
            view=view,
            ephemeral=True,
        )


__all__ = ["LABEL", "SeatLinkButton", "seat_url", "with_seat_link"]
