"""Slash commands and components for matches. Thin: parse, call the match service, render, reply.

Components are DynamicItems: their custom_id carries the match (and seat and step) so they keep
working after a restart without any view kept in memory.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.matches import MatchError, MatchRecord, MatchService, MatchStatus, StalePrompt
from bot.matches.isolation import match_here, only_here
from rules import RulesError, get_game

from .card import rules_embed
from .ending import LogButton, RematchButton
from .errors import guarded, send_error
from .games import get_ui, ui_slugs
from .games.base import CUSTOM_ID_RE, TEXT_FIELD_ID, AskText, Prompt, PromptContext, Submit, clip, text_modal
from .hints import with_hint
from .ids import FIELD, read_id, require
from .lobby import lobby_embed, lobby_message, lobby_view
from .notifier import DiscordNotifier, open_button, played_record, render_prompt, with_deadline
from .options import complete_options, parse_options_text
from .placement import pictures_on

if TYPE_CHECKING:
    from bot.client import RefereeBot

log = logging.getLogger(__name__)

#: The largest match id an option accepts: what Discord's clients hold exactly (and SQLite stores).
MAX_MATCH_ID = 2**53 - 1


def game_choices() -> list[app_commands.Choice[str]]:
    """The choices of a ``game`` option (/challenge, /practice, /rules, /tournament create): every
    registered game (``rules/registry.py``)."""
    return [app_commands.Choice(name=get_game(slug).name, value=slug) for slug in ui_slugs()]


#: the games registered when this module was imported (the decorators below take them); each cog
#: sets its commands' choices again when it is made (:func:`with_game_choices`)
GAME_CHOICES = game_choices()


def with_game_choices(cog: commands.Cog) -> None:
    """Give every ``game`` option with choices of ``cog``'s slash commands the games registered
    now: a game registered after this module was imported is offered too. (discord.py copies a
    parameter's choices when the decorator runs, into the command's parameter object.)"""
    for command in cog.walk_app_commands():
        if isinstance(command, app_commands.Command):
            param = command._params.get("game")
            if param is not None and param.choices:
                param.choices = [app_commands.Choice(name=c.name, value=c.value) for c in game_choices()]


LEVEL_CHOICES = [
    app_commands.Choice(name="easy: a forgiving opponent that sometimes slips", value="easy"),
    app_commands.Choice(name="normal: plays sensibly", value="normal"),
    app_commands.Choice(name="hard: searches longest", value="hard"),
]


def notifier_of(interaction: discord.Interaction[Any]) -> DiscordNotifier | None:
    """The Discord notifier of the bot that received ``interaction`` (None in a bare client)."""
    service = getattr(interaction.client, "service", None)
    found = getattr(service, "notifier", None)
    return found if isinstance(found, DiscordNotifier) else None


def service_of(interaction: discord.Interaction[Any]) -> MatchService:
    """The match service of the bot that received ``interaction``."""
    service = getattr(interaction.client, "service", None)
    if not isinstance(service, MatchService):
        raise RuntimeError("this client has no match service")
    return service


# ------------------------------------------------------------------------------ challenges


class ChallengeButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"ch:(?P<match>{FIELD}):(?P<op>accept|decline|join|leave|start)",
):
    """The buttons of a challenge or open table. Each press updates the lobby message in place."""

    def __init__(self, match_id: int, op: str):
        super().__init__(discord.ui.Button(label=op.title(), custom_id=f"ch:{match_id}:{op}"))
        self.match_id, self.op = match_id, op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: Any
    ) -> ChallengeButton:
        return cls(read_id(match["match"]), match["op"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        require(self.match_id)
        service = service_of(interaction)
        user = interaction.user
        await match_here(service, self.match_id, interaction.guild_id, user.id)  # this server's only
        # Refuse before deferring, so the refusal is a direct ephemeral reply (the service's words).
        await service.check_lobby_op(self.match_id, user.id, self.op)
        await interaction.response.defer()  # any of these may start the match: a thread, its board, DMs
        notifier = notifier_of(interaction)
        clicks = notifier.lobby_clicks if notifier is not None else set()
        clicks.add(self.match_id)  # the challenge message is edited through this click, not by REST
        try:
            if self.op in ("decline", "leave"):
                record = await service.leave(self.match_id, user.id)
            elif self.op == "accept":
                record = (await service.accept(self.match_id, user.id)).record
            elif self.op == "join":
                record = (await service.join(self.match_id, user.id, user.display_name)).record
            else:
                record = (await service.start_now(self.match_id, user.id)).record
        finally:
            clicks.discard(self.match_id)
        edit = await notifier.lobby_edit(record) if notifier is not None else lobby_message(record)
        await interaction.edit_original_response(**edit)
        if self.op in ("decline", "leave") and record.status is MatchStatus.PENDING:
            await interaction.followup.send(f"You left match #{record.id}.", ephemeral=True)


# ------------------------------------------------------------------------------ private prompts


async def own_seat(interaction: discord.Interaction, match_id: int, seat: int, refusal: str) -> MatchRecord:
    """The match record, if it is this server's (in a DM: the user's own, see
    :mod:`bot.matches.isolation`) and the clicking user holds ``seat`` in it; else a readable
    refusal."""
    record = await match_here(service_of(interaction), match_id, interaction.guild_id, interaction.user.id)
    if record.seat_of(interaction.user.id) != seat:
        raise MatchError(refusal)
    return record


async def show_prompt(interaction: discord.Interaction, record: MatchRecord, seat: int) -> None:
    """The seat's current prompt as an ephemeral follow-up."""
    sp = await service_of(interaction).prompt(record.id, seat)
    prompt = await render_prompt(interaction.client, record, sp)
    if prompt is None:
        prompt = Prompt("✅ Nothing to do right now: you have no pending move in this match.")
    await interaction.followup.send(ephemeral=True, **prompt.send_kwargs())


class OpenPromptButton(
    discord.ui.DynamicItem[discord.ui.Button], template=rf"open:(?P<match>{FIELD}):(?P<seat>{FIELD})"
):
    """The channel's "Submit privately" button: opens the seat's prompt as an ephemeral message."""

    def __init__(self, match_id: int, seat: int):
        super().__init__(open_button(match_id, seat))
        self.match_id, self.seat = match_id, seat

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: Any
    ) -> OpenPromptButton:
        return cls(read_id(match["match"]), read_id(match["seat"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        require(self.match_id, self.seat)
        record = await own_seat(
            interaction, self.match_id, self.seat, "Only the player this button is for can open it."
        )
        await interaction.response.defer(ephemeral=True, thinking=True)
        await show_prompt(interaction, record, self.seat)


class PromptItem(discord.ui.DynamicItem[discord.ui.Item], template=CUSTOM_ID_RE.pattern):
    """Any button or select of a private prompt (DM or ephemeral)."""

    def __init__(self, item: discord.ui.Item):
        super().__init__(item)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: Any) -> PromptItem:
        return cls(item)

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        values = [str(v) for v in interaction_data(interaction).get("values", [])]
        await prompt_step(interaction, str(getattr(self.item, "custom_id", "")), values)


def interaction_data(interaction: discord.Interaction[Any]) -> dict[str, Any]:
    """The raw data of a component or modal interaction, as a plain dict."""
    return cast(dict[str, Any], interaction.data or {})


def modal_text(interaction: discord.Interaction) -> str:
    """The text typed in a prompt modal (see cogs.games.base.text_modal)."""
    for row in interaction_data(interaction).get("components", []):
        for comp in row.get("components", [row.get("component", {})]):
            if comp.get("custom_id") == TEXT_FIELD_ID:
                return str(comp.get("value") or "")
    return ""


async def on_modal_submit(interaction: discord.Interaction) -> None:
    """Prompt modals are answered from their custom_id alone (no modal object kept in memory)."""
    if interaction.type is not discord.InteractionType.modal_submit:
        return
    custom_id = str(interaction_data(interaction).get("custom_id", ""))
    if not CUSTOM_ID_RE.fullmatch(custom_id):
        return
    try:
        await prompt_step(interaction, custom_id, [modal_text(interaction)])
    except Exception as exc:  # noqa: BLE001 - every error becomes a reply
        await send_error(interaction, exc)


async def prompt_step(interaction: discord.Interaction, custom_id: str, values: list[str]) -> None:
    """One step of a private prompt: a click, a select or a modal answer. Shows the next screen,
    opens a modal, or submits the move (committed before it is acknowledged)."""
    m = CUSTOM_ID_RE.fullmatch(custom_id)
    assert m is not None
    match_id, seat, step, payload = read_id(m["match"]), read_id(m["seat"]), read_id(m["step"]), m["payload"]
    require(match_id, seat, step)
    service = service_of(interaction)
    record = await own_seat(interaction, match_id, seat, "This prompt belongs to another player.")
    notifier = notifier_of(interaction)
    if notifier is not None:
        notifier.table.touch(match_id, seat)  # the player follows the match (no ping for their turn)
    sp = await service.prompt(match_id, seat)
    if sp.seat_step != step or not sp.awaited:
        raise StalePrompt("That prompt is out of date: you have already answered it. Use your newest prompt.")
    ctx = PromptContext.of(sp, record.names, images=await pictures_on(interaction.client, record.guild_id))
    result = await asyncio.to_thread(get_ui(record.game).handle, ctx, payload, values)  # off the loop
    if isinstance(result, AskText):
        if interaction.type is discord.InteractionType.modal_submit:
            raise MatchError("That answer needs another form; use the prompt's buttons again.")
        await interaction.response.send_modal(text_modal(ctx, result))
        return
    if isinstance(result, Prompt):  # the next screen of the same prompt
        shown = interaction.message.attachments if interaction.message is not None else []
        screen = with_hint(with_deadline(result, sp.deadline_at), record, sp)
        await interaction.response.edit_message(**screen.edit_kwargs(shown))
        return
    assert isinstance(result, Submit)
    await submit_move(interaction, record, seat, step, result.action)


async def submit_move(
    interaction: discord.Interaction[Any],
    record: MatchRecord,
    seat: int,
    step: int,
    action: Any,
    *,
    from_prompt: bool = True,
) -> None:
    """Submit ``action`` for ``seat``'s prompt step ``step`` as a click on the prompt does, and turn
    the answered prompt into the record of the move. ``from_prompt`` False: the click was on
    another message (a hint's Play this): that message says what was played, and the seat's
    stored prompt (in a DM, or the thread's public prompt) becomes the record of the move."""
    match_id = record.id
    # Defer first: the move is committed, and the thread updated, before we say "accepted". The
    # click is remembered first, so the move's notices can answer through it (the next prompt as a
    # follow-up, a channel prompt edited in place): interaction responses cost no rate limit.
    if not interaction.response.is_done():
        await interaction.response.defer()
    notifier = notifier_of(interaction)
    ui = get_ui(record.game)
    ephemeral = interaction.message is not None and interaction.message.flags.ephemeral
    prompt_ref = None
    if notifier is not None and not from_prompt:  # read before the move's notices replace it
        prompt_ref = (await notifier.table.messages.places(match_id)).prompts.get(seat)
    handle = (
        notifier.table.clicked(interaction, match_id, seat, public=from_prompt and ui.public_prompts and not ephemeral)
        if notifier is not None
        else None
    )
    if handle is not None and not from_prompt:
        handle.original_used = True  # the clicked message is no prompt: the next step is never shown in it
    try:
        move = await service_of(interaction).submit(match_id, interaction.user.id, action, seat_step=step)
    except (RulesError, MatchError) as exc:
        await interaction.followup.send(f"⚠️ {exc}", ephemeral=True)
        return
    if from_prompt and handle is not None and handle.original_used:
        return  # the clicked prompt already shows the next step of the same turn
    # the answered prompt becomes the record of what was played (committed: saved)
    at = int(interaction.created_at.timestamp())
    done = played_record(move.events, seat, record.names, at, ui.in_prompt_words)
    if move.outcome is not None:
        link = await notifier.result_link(move.record) if notifier is not None else None
        over = f"\n🏁 The match is over. The result: {link}" if link else "\n🏁 The match is over: see the thread."
        done = clip(done, 2000 - len(over)) + over
    if from_prompt:
        await interaction.edit_original_response(content=done, view=None)
        if notifier is not None and interaction.message is not None:
            await notifier.table.messages.answered(match_id, seat, interaction.message.id)
        return
    await interaction.edit_original_response(content=clip(f"▶️ Played as hinted. {done}", 2000), view=None)
    if notifier is not None and prompt_ref is not None:
        await answer_stored_prompt(notifier, record, seat, prompt_ref.channel_id, prompt_ref.message_id, done)


async def answer_stored_prompt(
    notifier: DiscordNotifier, record: MatchRecord, seat: int, channel_id: int | None, message_id: int | None, text: str
) -> None:
    """The seat's stored prompt, answered from elsewhere, becomes ``text`` (the record of the move)
    and is forgotten. Only a prompt: a DM, or the thread's prompt of an open-information game (a
    closed-DMs player's "Your move" message in the thread stays, as after any click)."""
    channel = await notifier.table.resolve(channel_id)
    is_prompt = isinstance(channel, discord.DMChannel) or (
        get_ui(record.game).public_prompts and isinstance(channel, discord.TextChannel | discord.Thread)
    )
    if message_id is None or not is_prompt:
        return
    assert isinstance(channel, discord.DMChannel | discord.TextChannel | discord.Thread)
    try:
        await channel.get_partial_message(message_id).edit(content=text, view=None)
    except discord.HTTPException:
        log.info("prompt of match %s seat %s left as it was", record.id, seat)
    await notifier.table.messages.answered(record.id, seat, message_id)


# ------------------------------------------------------------------------------ the cog


def options_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete of an ``options`` text for the game the command names."""
    slug = getattr(interaction.namespace, "game", None)
    if not slug:
        return []
    try:
        model = get_game(slug).options_model
    except ValueError:
        return []
    return [app_commands.Choice(name=c, value=c) for c in complete_options(current, model)]


def match_choices(records: list[MatchRecord], current: str) -> list[app_commands.Choice[int]]:
    """Autocomplete of a ``match`` option among ``records``."""
    out = []
    for r in records:
        label = f"#{r.id} {get_game(r.game).name}: " + " vs ".join(r.names)
        if current.lower() in label.lower():
            out.append(app_commands.Choice(name=label[:100], value=r.id))
    return out[:25]


async def live_here(
    service: MatchService, interaction: discord.Interaction, *, include_pending: bool = True
) -> list[MatchRecord]:
    """The user's live matches that may be named here: in a server, that server's; in a DM, all."""
    mine = await service.live_matches_for(interaction.user.id, include_pending=include_pending)
    return only_here(mine, interaction.guild_id, interaction.user.id)


async def match_channel(bot: RefereeBot, interaction: discord.Interaction) -> discord.TextChannel | None:
    """The server's match channel (/settings channel), when it is not this one and the bot may
    post there; None: play here."""
    chosen = (await bot.servers.get(interaction.guild_id)).channel_id
    if chosen is None or chosen == interaction.channel_id or interaction.guild is None:
        return None
    channel = interaction.guild.get_channel(chosen)
    if not isinstance(channel, discord.TextChannel):
        return None
    perms = channel.permissions_for(interaction.guild.me)
    return channel if perms.view_channel and perms.send_messages else None


class Matches(commands.Cog):
    def __init__(self, bot: RefereeBot):
        with_game_choices(self)
        self.bot = bot

    @app_commands.command(name="challenge", description="Challenge players to a game, or open a table anyone can join")
    @app_commands.describe(
        game="which game",
        opponent="who you challenge (leave empty and set open to let anyone join)",
        opponent2="another opponent (games for more than two)",
        opponent3="another opponent",
        opponent4="another opponent",
        opponent5="another opponent",
        opponent6="another opponent",
        opponent7="another opponent",
        options="game options as name=value pairs (start typing to see them)",
        open="let anyone in the channel join until you start (default: only those you name)",
        computers="computer players to fill seats (the match is then practice: unrated)",
        level="how strong the computer players play (default: normal)",
    )
    @app_commands.choices(game=GAME_CHOICES, level=LEVEL_CHOICES)
    @app_commands.guild_only()
    async def challenge(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        opponent: discord.Member | None = None,
        opponent2: discord.Member | None = None,
        opponent3: discord.Member | None = None,
        opponent4: discord.Member | None = None,
        opponent5: discord.Member | None = None,
        opponent6: discord.Member | None = None,
        opponent7: discord.Member | None = None,
        options: str | None = None,
        open: bool = False,
        computers: app_commands.Range[int, 0, 7] = 0,
        level: app_commands.Choice[str] | None = None,
    ) -> None:
        opponents = [m for m in (opponent, opponent2, opponent3, opponent4, opponent5, opponent6, opponent7) if m]
        if any(m.bot for m in opponents):
            raise MatchError("Bots cannot play; challenge people.")
        g = get_game(game.value)
        there = await self.match_channel(interaction)
        record = await self.bot.service.create_challenge(
            game.value,
            parse_options_text(options, g.options_model),
            interaction.guild_id,
            there.id if there is not None else interaction.channel_id,
            (interaction.user.id, interaction.user.display_name),
            [(m.id, m.display_name) for m in opponents],
            open_table=open,
            computers=[level.value if level is not None else "normal"] * computers,
        )
        message: dict[str, Any] = {
            "content": " ".join(m.mention for m in opponents) or None,
            "embed": lobby_embed(record),
            "view": lobby_view(record),
            "allowed_mentions": discord.AllowedMentions(users=opponents),
        }
        if there is not None:  # the server plays its matches in another channel
            await interaction.response.defer(ephemeral=True, thinking=True)
            msg = await there.send(**message)
            await self.bot.service.set_message_id(record.id, msg.id)
            await interaction.followup.send(
                f"Matches on this server are played in {there.mention}: your challenge is there, {msg.jump_url}",
                ephemeral=True,
            )
            return
        await interaction.response.send_message(**message)
        msg = await interaction.original_response()
        await self.bot.service.set_message_id(record.id, msg.id)

    async def match_channel(self, interaction: discord.Interaction) -> discord.TextChannel | None:
        return await match_channel(self.bot, interaction)

    @challenge.autocomplete("options")
    async def options_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return options_choices(interaction, current)

    async def _live_match_id(self, interaction: discord.Interaction, match: int | None) -> int:
        """The user's live match named (or their only one): in a server, among that server's
        matches only; in a DM, among all of theirs (:mod:`bot.matches.isolation`)."""
        live = await live_here(self.bot.service, interaction, include_pending=False)
        where = " in this server" if interaction.guild_id is not None else ""
        if match is not None:
            if match not in {r.id for r in live}:
                raise MatchError(f"You have no live match #{match}{where}.")
            return match
        if not live:
            raise MatchError(f"You have no live match{where}.")
        if len(live) > 1:
            ids = ", ".join(f"#{r.id}" for r in live)
            raise MatchError(f"You are in several matches ({ids}); name one with the `match` option.")
        return live[0].id

    async def match_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return match_choices(await live_here(self.bot.service, interaction, include_pending=False), current)

    @app_commands.command(name="forfeit", description="Give up a live match")
    @app_commands.describe(match="the match (only needed if you are in several)")
    async def forfeit(
        self, interaction: discord.Interaction, match: app_commands.Range[int, 1, MAX_MATCH_ID] | None = None
    ) -> None:
        match_id = await self._live_match_id(interaction, match)
        await interaction.response.defer(ephemeral=True)
        await self.bot.service.forfeit(match_id, interaction.user.id)
        await interaction.followup.send(f"🏳️ You forfeited match #{match_id}.", ephemeral=True)

    forfeit.autocomplete("match")(match_autocomplete)

    @app_commands.command(name="status", description="Your live matches (in a DM: on every server)")
    async def status(self, interaction: discord.Interaction) -> None:
        records = await live_here(self.bot.service, interaction)
        if not records:
            where = " in this server" if interaction.guild_id is not None else ""
            await interaction.response.send_message(
                f"You have no live matches{where}. Start one with /challenge.", ephemeral=True
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
            if r.status is MatchStatus.ACTIVE and seat is not None:
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
        await interaction.response.send_message(embed=rules_embed(game.value), ephemeral=True)

    @app_commands.command(name="card", description="Look up a card, spell or other game piece")
    @app_commands.describe(game="which game", name="what to look up (start typing)")
    @app_commands.choices(game=GAME_CHOICES)
    async def card(self, interaction: discord.Interaction, game: app_commands.Choice[str], name: str) -> None:
        embed = get_ui(game.value).lookup(name)
        if embed is None:
            shown = clip(name, 40)  # what the player typed, echoed clipped
            raise MatchError(f"{get_game(game.value).name} has nothing called {shown!r}. Start typing to see the list.")
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @card.autocomplete("name")
    async def card_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        slug = getattr(interaction.namespace, "game", None)
        if not slug or slug not in ui_slugs():
            return []
        return [app_commands.Choice(name=e.label[:100], value=e.key) for e in get_ui(slug).lookup_choices(current)][:25]


async def on_app_command_error(interaction: discord.Interaction[Any], error: app_commands.AppCommandError) -> None:
    await send_error(interaction, error)


async def setup(bot: RefereeBot) -> None:
    """The match commands, the restart-proof components (parsed from their custom_id, their state
    loaded from the service), the modal listener and the slash-command error handler."""
    await bot.add_cog(Matches(bot))
    bot.add_dynamic_items(ChallengeButton, OpenPromptButton, PromptItem, RematchButton, LogButton)
    bot.add_listener(on_modal_submit, "on_interaction")
    bot.tree.error(on_app_command_error)
