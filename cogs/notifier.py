"""Turns the match service's notifications into Discord messages.

Channel posts come only from the spectator view and public events. Private prompts go by DM;
when a DM cannot be sent (403, code 50007) the channel gets a "Submit privately" button that
opens the same prompt as an ephemeral message. A failure here never undoes a committed move.

The service hands every notice what it needs (the prompt, the spectator view, the public events):
this module never calls back into it. Whether a DM reached a player is returned from
:meth:`DiscordNotifier.on_prompt`, and the service stores it.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.matches import MatchRecord, SeatPrompt, TimeoutResult
from bot.servers import ServersService
from rules import Event, Outcome, fill_names

from .games import get_ui
from .games.base import Prompt, PromptContext, pack_embeds
from .lobby import lobby_message

if TYPE_CHECKING:
    from bot.client import RefereeBot

log = logging.getLogger(__name__)


def open_button(match_id: int, seat: int, label: str = "Submit privately") -> discord.ui.Button:
    return discord.ui.Button(
        label=label, style=discord.ButtonStyle.primary, emoji="🔒", custom_id=f"open:{match_id}:{seat}"
    )


async def pictures_on(client: discord.Client, guild_id: int | None) -> bool:
    """Whether posts and prompts of this server carry pictures: its /settings, else RENDER_IMAGES."""
    servers = getattr(client, "servers", None)
    if isinstance(servers, ServersService):
        return (await servers.get(guild_id)).pictures
    return images_on(client)


def with_deadline(prompt: Prompt, deadline_at: int | None) -> Prompt:
    """The prompt with its time limit as a Discord timestamp (every screen of it shows it)."""
    if deadline_at and prompt.embeds and not any(f.name == "Time limit" for f in prompt.embeds[0].fields):
        prompt.embeds[0].add_field(name="Time limit", value=f"<t:{deadline_at}:R>", inline=False)
    return prompt


def played_record(events: Sequence[Event], seat: int, names: Sequence[str], at: int) -> str:
    """What an answered prompt becomes: a record of what the seat played, and when (its own
    private account of the move, else the public one). Never erased."""
    mine = [fill_names(e.text, names) for e in events if e.visible_to is not None and seat in e.visible_to]
    said = mine or [fill_names(e.text, names) for e in events if e.visible_to is None][:1]
    what = " ".join(said) or "your move."
    return f"🔒 Locked in <t:{at}:f>: {what}"[:2000]


def images_on(client: discord.Client) -> bool:
    """The RENDER_IMAGES setting (pictures in posts and prompts)."""
    return bool(getattr(getattr(client, "settings", None), "render_images", True))


def mention(record: MatchRecord, seat: int) -> str:
    return f"<@{record.seats[seat].user_id}>"


class DiscordNotifier:
    def __init__(self, client: discord.Client):
        self.client = client
        self._dms: OrderedDict[int, discord.DMChannel] = OrderedDict()  # user id -> DM channel
        self._told_dms: OrderedDict[tuple[int, int], None] = OrderedDict()  # (match, seat) told how to open DMs

    async def dm_channel(self, user_id: int) -> discord.DMChannel:
        """The DM channel with ``user_id``, opened once and cached (no user lookup per DM)."""
        channel = self._dms.get(user_id)
        if channel is None:
            channel = await self.client.create_dm(discord.Object(id=user_id))
            self._dms[user_id] = channel
            while len(self._dms) > 10_000:
                self._dms.popitem(last=False)
        else:
            self._dms.move_to_end(user_id)
        return channel

    # -- helpers -----------------------------------------------------------------------
    async def channel(self, record: MatchRecord) -> discord.abc.Messageable | None:
        if record.channel_id is None:
            return None
        ch = self.client.get_channel(record.channel_id)
        if ch is None:
            try:
                ch = await self.client.fetch_channel(record.channel_id)
            except discord.HTTPException:
                log.warning("channel %s of match %s is gone", record.channel_id, record.id)
                return None
        return ch  # type: ignore[return-value]

    @property
    def images(self) -> bool:
        return images_on(self.client)

    async def post(
        self,
        record: MatchRecord,
        embeds: Sequence[discord.Embed],
        content: str | None = None,
        view: discord.ui.View | None = None,
        files: Sequence[discord.File] = (),
    ) -> discord.Message | None:
        """Post to the match's channel, split to Discord's embed limits. Each picture goes with
        the message whose embed shows it (``attachment://name``); the others with the first."""
        ch = await self.channel(record)
        if ch is None:
            return None
        batches = pack_embeds(embeds) or [[]]
        placed: list[list[discord.File]] = [[] for _ in batches]
        for f in files:
            ref = f"attachment://{f.filename}"
            where = next(
                (i for i, batch in enumerate(batches) if any(ref in (e.image.url, e.thumbnail.url) for e in batch)), 0
            )
            placed[where].append(f)
        last: discord.Message | None = None
        for i, batch in enumerate(batches):
            final = i == len(batches) - 1
            kwargs: dict = {"embeds": batch, "allowed_mentions": discord.AllowedMentions(users=True)}
            if i == 0 and content:
                kwargs["content"] = content
            if placed[i]:
                kwargs["files"] = placed[i]
            if final and view is not None:
                kwargs["view"] = view
            last = await ch.send(**kwargs)
        return last

    async def post_public(
        self,
        record: MatchRecord,
        events: Sequence[Event],
        view: Mapping[str, Any],
        content: str | None = None,
    ) -> discord.Message | None:
        """The channel post after a resolution: spectator view and public events only."""
        # the pictures are drawn in a worker thread: the event loop keeps serving other matches
        images = await pictures_on(self.client, record.guild_id)
        post = await asyncio.to_thread(get_ui(record.game).public_post, view, events, record.names, images=images)
        return await self.post(record, post.embeds, content=content, files=post.files)

    async def build_prompt(self, record: MatchRecord, sp: SeatPrompt) -> Prompt | None:
        if not sp.awaited:
            return None
        ctx = PromptContext.of(sp, record.names, images=await pictures_on(self.client, record.guild_id))
        prompt = await asyncio.to_thread(get_ui(record.game).prompt, ctx)  # pictures: off the event loop
        return with_deadline(prompt, sp.deadline_at)

    # -- Notifier protocol ---------------------------------------------------------------
    async def on_started(self, record: MatchRecord, events: Sequence[Event], view: Mapping[str, Any]) -> None:
        await self.refresh_lobby(record)
        names = " vs ".join(record.names)
        ui = get_ui(record.game)
        how = (
            "Moves are made here, with the buttons." if ui.public_prompts else "Your private prompts are on their way."
        )
        await self.post_public(
            record,
            [e for e in events if e.visible_to is None],
            view,
            content=f"⚔️ Match #{record.id} begins: {names}. {how}",
        )

    async def on_events(self, record: MatchRecord, events: Sequence[Event], view: Mapping[str, Any]) -> None:
        public = [e for e in events if e.visible_to is None]
        if public:
            await self.post_public(record, public, view)

    async def refresh_lobby(self, record: MatchRecord) -> None:
        """Bring the challenge message up to date (e.g. a table that filled and started itself)."""
        ch = await self.channel(record)
        if ch is None or record.message_id is None:
            return
        try:
            if isinstance(ch, discord.TextChannel | discord.Thread | discord.DMChannel):
                await ch.get_partial_message(record.message_id).edit(**lobby_message(record))
        except discord.HTTPException:
            log.info("could not update the challenge message of match %s", record.id)

    async def on_prompt(self, record: MatchRecord, sp: SeatPrompt) -> bool | None:
        """Send the prompt; returns whether a DM reached the player (None: none was tried)."""
        seat = sp.seat
        prompt = await self.build_prompt(record, sp)
        if prompt is None:
            return None
        if get_ui(record.game).public_prompts:  # open information: the controls live in the channel
            kwargs = prompt.send_kwargs()
            kwargs["content"] = f"{mention(record, seat)} " + (prompt.content or "your move.")
            # ping only when the move passes to this player, not at every step of their own turn
            ping = discord.AllowedMentions(users=sp.turn_passed)
            ch = await self.channel(record)
            if ch is not None:
                await ch.send(allowed_mentions=ping, **kwargs)
            return None
        seat_rec = record.seats[seat]
        dm_ok: bool | None = None
        if seat_rec.dm_ok is not False:
            try:
                await (await self.dm_channel(seat_rec.user_id)).send(**prompt.send_kwargs())
                return True
            except discord.Forbidden:
                dm_ok = False
            except discord.HTTPException:
                log.exception("DM to %s failed", seat_rec.user_id)
        await self.closed_dms(record, sp)
        return dm_ok

    async def closed_dms(self, record: MatchRecord, sp: SeatPrompt) -> None:
        """A player whose DMs are closed: told once per match how to open them, with the button
        that opens the prompt as an ephemeral message; after that one short mention when the move
        passes to them, and nothing for the further steps of their own turn (the ephemeral prompt
        shows them in place)."""
        seat = sp.seat
        key = (record.id, seat)
        first = key not in self._told_dms
        if not first and not sp.turn_passed:
            return
        view = discord.ui.View(timeout=None)
        view.add_item(open_button(record.id, seat, "Make your move"))
        if first:
            self._told_dms[key] = None
            while len(self._told_dms) > 50_000:
                self._told_dms.popitem(last=False)
            text = (
                f"{mention(record, seat)}, I can't send you a DM, so your moves in match #{record.id} are "
                "behind this button (only you can open it). To get them by DM instead: open this server's "
                "menu → **Privacy Settings** → turn on **Direct Messages** from server members."
            )
        else:
            text = f"{mention(record, seat)}, your move in match #{record.id}."
        await self.post(record, [], content=text, view=view)

    async def on_reminder(self, record: MatchRecord, seat: int, deadline: int) -> None:
        text = f"⏰ Match #{record.id}: your move is due <t:{deadline}:R>, or you forfeit."
        seat_rec = record.seats[seat]
        if seat_rec.dm_ok:
            try:
                await (await self.dm_channel(seat_rec.user_id)).send(text)
                return
            except discord.HTTPException:
                pass
        view = discord.ui.View(timeout=None)
        view.add_item(open_button(record.id, seat, "Open my prompt"))
        await self.post(record, [], content=f"{mention(record, seat)} {text}", view=view)

    async def on_timeout(self, record: MatchRecord, seat: int, result: TimeoutResult) -> None:
        name = record.names[seat]
        texts = {
            TimeoutResult.ACTION_TAKEN: f"⌛ {name} ran out of time; the referee made the default choice for them.",
            TimeoutResult.FORFEIT: f"⌛ {name} ran out of time and forfeits match #{record.id}.",
            TimeoutResult.ABANDONED: f"⌛ Nobody moved in time: match #{record.id} is abandoned.",
        }
        await self.post(record, [], content=texts.get(result, f"⌛ {name} ran out of time."))
        if result is TimeoutResult.ABANDONED:
            await self.refresh_lobby(record)  # the challenge message says how the match ended

    async def on_finished(self, record: MatchRecord, outcome: Outcome) -> None:
        """The challenge message becomes the match's result (one message per match, edited in place)."""
        log.info("match %s finished: %s", record.id, fill_names(outcome.summary, record.names))
        await self.refresh_lobby(record)

    async def on_challenge_expired(self, record: MatchRecord) -> None:
        await self.refresh_lobby(record)


async def setup(bot: RefereeBot) -> None:
    """Install the Discord notifier as the match service's (an extension: the client imports no cogs)."""
    bot.service.notifier = DiscordNotifier(bot)
