"""Practice against the computer: /practice, /hint and the Hint button of practice prompts.

A practice match is a normal match (its thread, live board, prompts, pictures and end card)
with computer players in some seats. It is recorded and replayable, never rated (the end card
says so), and the players' practice record is on /profile. The computers think in the match
service's process pool (bot/matches/computer.py); nothing here waits for them.

The Hint button (``hint:<match>:<seat>:<seat step>``) sits on every prompt of a person in a
practice match: it answers ephemerally with what the computer would play and its estimate of the
player's chance to win from here, with a one-line reason (what the computer's search found for
that move and the runner-up). It reads nothing the player could not see, and it is refused for
another player's prompt, an old prompt, or while a hint is being worked out. Under the hint, a
"▶️ Play this" button (``hintplay:<match>:<seat>:<seat step>``) makes the hinted move through the
same path as a click on the prompt; the prompt becomes the record of the move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.matches import MatchError, MatchRecord, MatchService, StalePrompt
from bot.matches.isolation import match_here
from rules import get_game

from .errors import guarded
from .hints import HINT_TEMPLATE, PLAY_HINT_TEMPLATE, hint_button, hint_text, hint_view, play_hint_button
from .ids import read_id, require
from .matches import (
    GAME_CHOICES,
    LEVEL_CHOICES,
    MAX_MATCH_ID,
    live_here,
    match_channel,
    match_choices,
    options_choices,
    own_seat,
    submit_move,
    with_game_choices,
)
from .options import parse_options_text
from .review import ReviewButton

if TYPE_CHECKING:
    from bot.client import RefereeBot

#: Practice matches a player may have in play (or waiting) at once.
MAX_PRACTICE = 3


def _service(interaction: discord.Interaction[Any]) -> MatchService:
    service = getattr(interaction.client, "service", None)
    if not isinstance(service, MatchService):
        raise RuntimeError("this client has no match service")
    return service


def practice_text(record: MatchRecord) -> str:
    """The channel message of a practice match, until it starts (then it links its thread)."""
    g = get_game(record.game)
    people = [s.display_name for s in record.seats if s.ai is None]
    computers = [s.display_name for s in record.seats if s.ai is not None]
    return (
        f"🎯 {', '.join(people)} practises {g.name} against {', '.join(computers)} "
        f"(match #{record.id}: a practice match, not rated)."
    )


class HintButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=HINT_TEMPLATE):
    """What the computer would play for this prompt, ephemerally."""

    def __init__(self, match_id: int, seat: int, seat_step: int) -> None:
        super().__init__(hint_button(match_id, seat, seat_step))
        self.match_id, self.seat, self.seat_step = match_id, seat, seat_step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any
    ) -> HintButton:
        return cls(read_id(match["match"]), read_id(match["seat"]), read_id(match["step"]))

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        require(self.match_id, self.seat, self.seat_step)
        service = _service(interaction)
        record = await match_here(service, self.match_id, interaction.guild_id, interaction.user.id)
        if record.seat_of(interaction.user.id) != self.seat:
            raise MatchError("This hint belongs to another player's prompt.")
        await interaction.response.defer(ephemeral=True, thinking=True)  # the search takes a moment
        hint = await service.hint(self.match_id, interaction.user.id, self.seat_step)
        await interaction.followup.send(hint_text(hint), view=hint_view(hint), ephemeral=True)


class PlayHintButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=PLAY_HINT_TEMPLATE):
    """A hint's Play this: submits the hinted move of that seat step through the same path as a
    click on the prompt (cogs.matches.submit_move); the seat's prompt becomes the record of the
    move. Refused, with nothing changed, for another player, or once the step has moved on (a
    stale hint, a second click)."""

    def __init__(self, match_id: int, seat: int, seat_step: int) -> None:
        super().__init__(play_hint_button(match_id, seat, seat_step))
        self.match_id, self.seat, self.seat_step = match_id, seat, seat_step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any
    ) -> PlayHintButton:
        return cls(read_id(match["match"]), read_id(match["seat"]), read_id(match["step"]))

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        require(self.match_id, self.seat, self.seat_step)
        service = _service(interaction)
        record = await own_seat(interaction, self.match_id, self.seat, "This hint belongs to another player's prompt.")
        sp = await service.prompt(self.match_id, self.seat)
        if sp.seat_step != self.seat_step or not sp.awaited:
            raise StalePrompt("That hint is from an earlier move, so nothing was played. Use your newest prompt.")
        await interaction.response.defer()  # the hint is kept; after a restart it is worked out again
        hint = await service.hint(self.match_id, interaction.user.id, self.seat_step)
        await submit_move(interaction, record, self.seat, self.seat_step, hint.action, from_prompt=False)


class Practice(commands.Cog):
    def __init__(self, bot: RefereeBot):
        with_game_choices(self)
        self.bot = bot

    @app_commands.command(name="practice", description="Play a game against the computer (unrated)")
    @app_commands.describe(
        game="which game",
        level="how strong the computer plays (default: normal)",
        computers="how many computer players (Magic Duel seats up to 7 of them; the others take 1)",
        options="game options as name=value pairs (start typing to see them)",
    )
    @app_commands.choices(game=GAME_CHOICES, level=LEVEL_CHOICES)
    @app_commands.guild_only()
    async def practice(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        level: app_commands.Choice[str] | None = None,
        computers: app_commands.Range[int, 1, 7] = 1,
        options: str | None = None,
    ) -> None:
        service = self.bot.service
        g = get_game(game.value)
        mine = [r for r in await service.live_matches_for(interaction.user.id) if r.practice]
        if len(mine) >= MAX_PRACTICE:
            ids = ", ".join(f"#{r.id}" for r in mine)
            raise MatchError(
                f"You already have {len(mine)} practice matches going ({ids}); finish or /forfeit one first."
            )
        there = await match_channel(self.bot, interaction)
        record = await service.practice(
            game.value,
            parse_options_text(options, g.options_model),
            interaction.guild_id,
            there.id if there is not None else interaction.channel_id,
            (interaction.user.id, interaction.user.display_name),
            level.value if level is not None else "normal",
            computers,
        )
        if there is not None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            msg = await there.send(practice_text(record))
        else:
            await interaction.response.send_message(practice_text(record))
            msg = await interaction.original_response()
        await service.set_message_id(record.id, msg.id)
        await service.start_if_ready(record.id)  # the thread, the board and the first prompts follow
        if there is not None:
            await interaction.followup.send(
                f"Matches on this server are played in {there.mention}: your practice match is there, {msg.jump_url}",
                ephemeral=True,
            )

    @practice.autocomplete("options")
    async def options_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return options_choices(interaction, current)

    @app_commands.command(name="hint", description="In a practice match: what the computer would play for you")
    @app_commands.describe(match="the practice match (only needed if you have several)")
    async def hint(
        self, interaction: discord.Interaction, match: app_commands.Range[int, 1, MAX_MATCH_ID] | None = None
    ) -> None:
        service = self.bot.service
        live = [r for r in await live_here(service, interaction, include_pending=False) if r.practice]
        if match is None:
            if not live:
                where = " in this server" if interaction.guild_id is not None else ""
                raise MatchError(f"You have no practice match in play{where}. Start one with /practice.")
            if len(live) > 1:
                ids = ", ".join(f"#{r.id}" for r in live)
                raise MatchError(f"You have several practice matches ({ids}); name one with the `match` option.")
            match = live[0].id
        await match_here(service, match, interaction.guild_id, interaction.user.id)  # this server's only
        await interaction.response.defer(ephemeral=True, thinking=True)
        found = await service.hint(match, interaction.user.id)
        await interaction.followup.send(hint_text(found), view=hint_view(found), ephemeral=True)

    @hint.autocomplete("match")
    async def match_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        live = await live_here(self.bot.service, interaction, include_pending=False)
        return match_choices([r for r in live if r.practice], current)


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(Practice(bot))
    bot.add_dynamic_items(HintButton, PlayHintButton, ReviewButton)
