"""Slash commands and components for matches. Thin: parse, call the match service, render, reply.

Components are DynamicItems: their custom_id carries the match (and seat and step) so they keep
working after a restart without any view kept in memory.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.matches import MatchError, StalePrompt
from db import MatchRecord
from rules import RulesError, get_game
from rules.wizards_cup import load_card_set

from .notifier import open_button
from .ui import get_ui
from .ui.base import CUSTOM_ID_RE, Prompt, PromptContext, Submit
from .ui.wizards_cup import card_embed

if TYPE_CHECKING:
    from bot.client import RefereeBot

log = logging.getLogger(__name__)

GAME_CHOICES = [app_commands.Choice(name="Wizards Cup", value="wizards-cup")]


def service_of(interaction: discord.Interaction) -> Any:
    return interaction.client.service  # type: ignore[attr-defined]


async def send_error(interaction: discord.Interaction, error: BaseException) -> None:
    """The one place that turns an error into an ephemeral reply. Domain errors (ValueError:
    rules and match errors) show their message; anything else a generic apology (and a log)."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, ValueError | app_commands.CheckFailure):
        text = f"⚠️ {error}"
    else:
        log.exception("unexpected error in an interaction", exc_info=error)
        text = "⚠️ Something went wrong on my side; nothing was changed. Please try again."
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not send an error reply")


def guarded(fn: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
    """Component callbacks are not routed to the tree's error handler: route them here."""

    @functools.wraps(fn)
    async def wrapper(self: Any, interaction: discord.Interaction) -> None:
        try:
            await fn(self, interaction)
        except Exception as exc:  # noqa: BLE001 - every error becomes a reply
            await send_error(interaction, exc)

    return wrapper


# ------------------------------------------------------------------------------ challenges


def challenge_view(match_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Button(label="Accept", style=discord.ButtonStyle.success, custom_id=f"ch:{match_id}:accept")
    )
    view.add_item(
        discord.ui.Button(label="Decline", style=discord.ButtonStyle.danger, custom_id=f"ch:{match_id}:decline")
    )
    return view


class ChallengeButton(discord.ui.DynamicItem[discord.ui.Button], template=r"ch:(?P<match>\d+):(?P<op>accept|decline)"):
    def __init__(self, match_id: int, op: str):
        super().__init__(discord.ui.Button(label=op.title(), custom_id=f"ch:{match_id}:{op}"))
        self.match_id, self.op = match_id, op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: Any
    ) -> ChallengeButton:
        return cls(int(match["match"]), match["op"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        if self.op == "decline":
            record = await service.decline(self.match_id, interaction.user.id)
            word = "cancelled" if interaction.user.id == record.challenger_id else "declined"
            await interaction.response.edit_message(
                content=f"❌ {interaction.user.display_name} {word} the challenge (match #{record.id}).",
                embeds=[],
                view=None,
            )
            return
        pending = await service.get(self.match_id)
        if pending.seat_of(interaction.user.id) is None or interaction.user.id == pending.challenger_id:
            raise MatchError("Only the challenged player can accept this challenge.")
        await interaction.response.defer()  # starting a match posts to the channel and DMs
        result = await service.accept(self.match_id, interaction.user.id)
        record = result.record
        text = (
            f"✅ {interaction.user.display_name} accepted: match #{record.id} is on!"
            if result.started
            else f"✅ {interaction.user.display_name} accepted; waiting for the other players."
        )
        await interaction.edit_original_response(content=text, embeds=[], view=None)


# ------------------------------------------------------------------------------ private prompts


async def own_seat(interaction: discord.Interaction, match_id: int, seat: int, refusal: str) -> MatchRecord:
    """The match record, if the clicking user holds ``seat`` in it; else a readable refusal."""
    record = await service_of(interaction).get(match_id)
    if record.seat_of(interaction.user.id) != seat:
        raise MatchError(refusal)
    return record


async def show_prompt(interaction: discord.Interaction, record: MatchRecord, seat: int, *, edit: bool) -> None:
    """Render the seat's current prompt: in place of the original response, or as an ephemeral follow-up."""
    sp = await service_of(interaction).prompt(record.id, seat)
    if sp.awaited:
        prompt = get_ui(record.game).prompt(PromptContext(record.id, seat, sp.seat_step, record.names, sp.view))
    else:
        prompt = Prompt("✅ Nothing to do right now: you have no pending move in this match.")
    if edit:
        await interaction.edit_original_response(content=prompt.content or None, embeds=prompt.embeds, view=prompt.view)
    else:
        await interaction.followup.send(
            content=prompt.content, embeds=prompt.embeds, view=prompt.view or discord.utils.MISSING, ephemeral=True
        )


class OpenPromptButton(discord.ui.DynamicItem[discord.ui.Button], template=r"open:(?P<match>\d+):(?P<seat>\d+)"):
    """The channel's "Submit privately" button: opens the seat's prompt as an ephemeral message."""

    def __init__(self, match_id: int, seat: int):
        super().__init__(open_button(match_id, seat))
        self.match_id, self.seat = match_id, seat

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: Any
    ) -> OpenPromptButton:
        return cls(int(match["match"]), int(match["seat"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        record = await own_seat(
            interaction, self.match_id, self.seat, "Only the player this button is for can open it."
        )
        await interaction.response.defer(ephemeral=True, thinking=True)
        await show_prompt(interaction, record, self.seat, edit=False)


class PromptItem(discord.ui.DynamicItem[discord.ui.Item], template=CUSTOM_ID_RE.pattern):
    """Any button or select of a private prompt (DM or ephemeral)."""

    def __init__(self, item: discord.ui.Item):
        super().__init__(item)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: Any) -> PromptItem:
        return cls(item)

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        m = CUSTOM_ID_RE.fullmatch(self.item.custom_id)  # type: ignore[attr-defined]
        assert m is not None
        match_id, seat, step, payload = int(m["match"]), int(m["seat"]), int(m["step"]), m["payload"]
        values = list((interaction.data or {}).get("values", []))  # type: ignore[union-attr]
        service = service_of(interaction)
        record = await own_seat(interaction, match_id, seat, "This prompt belongs to another player.")
        sp = await service.prompt(match_id, seat)
        if sp.seat_step != step or not sp.awaited:
            raise StalePrompt("That prompt is out of date: you have already answered it. Use your newest prompt.")
        ctx = PromptContext(match_id, seat, step, record.names, sp.view)
        result = get_ui(record.game).handle(ctx, payload, values)
        if isinstance(result, Prompt):  # the next screen of the same prompt
            await interaction.response.edit_message(
                content=result.content or None, embeds=result.embeds, view=result.view
            )
            return
        assert isinstance(result, Submit)
        # Defer first: the move is committed, and the channel updated, before we say "accepted".
        await interaction.response.defer()
        try:
            move = await service.submit(match_id, interaction.user.id, result.action, seat_step=step)
        except (RulesError, MatchError) as exc:
            await interaction.followup.send(f"⚠️ {exc}", ephemeral=True)
            return
        done = "✅ Move accepted and saved."
        if move.outcome is not None:
            done += " The match is over: see the channel."
        ephemeral = interaction.message is not None and interaction.message.flags.ephemeral
        if ephemeral and seat in move.awaiting.seats:
            await show_prompt(interaction, record, seat, edit=True)  # the next step in place
        else:
            await interaction.edit_original_response(content=done, embeds=[], view=None)


# ------------------------------------------------------------------------------ the cog


class Matches(commands.Cog):
    def __init__(self, bot: RefereeBot):
        self.bot = bot

    @app_commands.command(name="challenge", description="Challenge a player to a game")
    @app_commands.describe(opponent="who you challenge", game="which game")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def challenge(
        self, interaction: discord.Interaction, opponent: discord.Member, game: app_commands.Choice[str]
    ) -> None:
        if opponent.bot:
            raise MatchError("Bots cannot play; challenge a person.")
        record = await self.bot.service.create_challenge(
            game.value,
            {},
            interaction.guild_id,
            interaction.channel_id,
            (interaction.user.id, interaction.user.display_name),
            [(opponent.id, opponent.display_name)],
        )
        g = get_game(record.game)
        embed = discord.Embed(
            title=f"⚔️ {interaction.user.display_name} challenges {opponent.display_name} to {g.name}",
            description=g.summary,
            colour=discord.Colour.blurple(),
        )
        if record.expires_at:
            embed.add_field(name="Expires", value=f"<t:{record.expires_at}:R>")
        embed.set_footer(text=f"Match #{record.id} · only {opponent.display_name} can accept")
        await interaction.response.send_message(
            content=opponent.mention,
            embed=embed,
            view=challenge_view(record.id),
            allowed_mentions=discord.AllowedMentions(users=[opponent]),
        )
        msg = await interaction.original_response()
        await self.bot.service.set_message_id(record.id, msg.id)

    async def _live_match_id(self, interaction: discord.Interaction, match: int | None) -> int:
        live = await self.bot.service.live_matches_for(interaction.user.id, include_pending=False)
        if match is not None:
            if match not in {r.id for r in live}:
                raise MatchError(f"You have no live match #{match}.")
            return match
        if not live:
            raise MatchError("You have no live match.")
        if len(live) > 1:
            ids = ", ".join(f"#{r.id}" for r in live)
            raise MatchError(f"You are in several matches ({ids}); name one with the `match` option.")
        return live[0].id

    async def match_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        live = await self.bot.service.live_matches_for(interaction.user.id, include_pending=False)
        out = []
        for r in live:
            label = f"#{r.id} {get_game(r.game).name}: " + " vs ".join(r.names)
            if current.lower() in label.lower():
                out.append(app_commands.Choice(name=label[:100], value=r.id))
        return out[:25]

    @app_commands.command(name="forfeit", description="Give up a live match")
    @app_commands.describe(match="the match (only needed if you are in several)")
    async def forfeit(self, interaction: discord.Interaction, match: int | None = None) -> None:
        match_id = await self._live_match_id(interaction, match)
        await interaction.response.defer(ephemeral=True)
        await self.bot.service.forfeit(match_id, interaction.user.id)
        await interaction.followup.send(f"🏳️ You forfeited match #{match_id}.", ephemeral=True)

    forfeit.autocomplete("match")(match_autocomplete)

    @app_commands.command(name="status", description="Your live matches")
    async def status(self, interaction: discord.Interaction) -> None:
        records = await self.bot.service.live_matches_for(interaction.user.id)
        if not records:
            await interaction.response.send_message(
                "You have no live matches. Start one with /challenge.", ephemeral=True
            )
            return
        embed = discord.Embed(title="Your live matches", colour=discord.Colour.blurple())
        view = discord.ui.View(timeout=None)
        for r in records[:25]:
            link = (
                f"https://discord.com/channels/{r.guild_id}/{r.channel_id}/{r.message_id}"
                if r.guild_id and r.channel_id and r.message_id
                else "(no link)"
            )
            seat = r.seat_of(interaction.user.id)
            waiting = ""
            if r.status == "active" and seat is not None:
                sp = await self.bot.service.prompt(r.id, seat)
                waiting = " · **your move**" if sp.awaited else " · waiting for the others"
                if sp.awaited and len(view.children) < 25:
                    view.add_item(open_button(r.id, seat, f"Open #{r.id}"))
            embed.add_field(
                name=f"#{r.id} {get_game(r.game).name}: " + " vs ".join(r.names),
                value=f"{r.status}{waiting}\n{link}",
                inline=False,
            )
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    @app_commands.command(name="rules", description="A summary of a game's rules")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        g = get_game(game.value)
        embed = discord.Embed(title=g.name, description=g.summary, colour=discord.Colour.blurple())
        embed.add_field(
            name="Players", value=f"{g.min_seats}" + (f"-{g.max_seats}" if g.max_seats != g.min_seats else "")
        )
        if game.value == "wizards-cup":
            embed.add_field(
                name="How a duel is decided",
                value="A. Magic power, B. Element (Fire < Water < Nature < Fire; Shadow < Light; Light loses to "
                "Water, Fire, Nature; Void has no weakness), C. Value (equal: both lose).",
                inline=False,
            )
            embed.add_field(name="Cards", value="Look any card up with /card.", inline=False)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="card", description="Show a Wizards Cup card")
    @app_commands.describe(name="the card's name")
    async def card(self, interaction: discord.Interaction, name: str) -> None:
        card = load_card_set().find(name)
        if card is None:
            raise MatchError(f"There is no card called {name!r}. Start typing to see the cards.")
        await interaction.response.send_message(embed=card_embed(card), ephemeral=True)

    @card.autocomplete("name")
    async def card_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        cur = current.lower()
        return [
            app_commands.Choice(name=c.name, value=c.id)
            for c in load_card_set().cards
            if cur in c.name.lower() or cur in c.id
        ][:25]


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(Matches(bot))
