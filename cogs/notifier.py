"""Turns the match service's notifications into Discord messages.

Channel posts come only from the spectator view and public events. Private prompts go by DM;
when a DM cannot be sent (403, code 50007) the channel gets a "Submit privately" button that
opens the same prompt as an ephemeral message. A failure here never undoes a committed move.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

from db import MatchRecord
from rules import Awaiting, Event, Outcome, fill_names
from rules.core import CHANCE

from .ui import get_ui
from .ui.base import Prompt, PromptContext, pack_embeds

if TYPE_CHECKING:
    from bot.matches import MatchService, TimeoutResult

log = logging.getLogger(__name__)


def open_button(match_id: int, seat: int, label: str = "Submit privately") -> discord.ui.Button:
    return discord.ui.Button(
        label=label, style=discord.ButtonStyle.primary, emoji="🔒", custom_id=f"open:{match_id}:{seat}"
    )


def images_on(client: discord.Client) -> bool:
    """The RENDER_IMAGES setting (pictures in posts and prompts)."""
    return bool(getattr(getattr(client, "settings", None), "render_images", True))


def mention(record: MatchRecord, seat: int) -> str:
    return f"<@{record.seats[seat].user_id}>"


class DiscordNotifier:
    def __init__(self, client: discord.Client):
        self.client = client
        self.service: MatchService | None = None  # set by the client once built

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
        self, record: MatchRecord, events: Sequence[Event], content: str | None = None
    ) -> discord.Message | None:
        """The channel post after a resolution: spectator view and public events only."""
        assert self.service is not None
        view = await self.service.view(record.id, None)
        post = get_ui(record.game).public_post(view, events, record.names, images=self.images)
        return await self.post(record, post.embeds, content=content, files=post.files)

    async def build_prompt(self, record: MatchRecord, seat: int) -> Prompt | None:
        assert self.service is not None
        sp = await self.service.prompt(record.id, seat)
        if not sp.awaited:
            return None
        ctx = PromptContext.of(sp, record.names, images=self.images)
        prompt = get_ui(record.game).prompt(ctx)
        if sp.deadline_at and prompt.embeds:
            prompt.embeds[0].add_field(name="Time limit", value=f"<t:{sp.deadline_at}:R>", inline=False)
        return prompt

    # -- Notifier protocol ---------------------------------------------------------------
    async def on_started(self, record: MatchRecord, events: Sequence[Event]) -> None:
        await self.refresh_lobby(record)
        names = " vs ".join(record.names)
        ui = get_ui(record.game)
        how = (
            "Moves are made here, with the buttons." if ui.public_prompts else "Your private prompts are on their way."
        )
        await self.post_public(
            record,
            [e for e in events if e.visible_to is None],
            content=f"⚔️ Match #{record.id} begins: {names}. {how}",
        )

    async def on_events(self, record: MatchRecord, events: Sequence[Event], awaiting: Awaiting) -> None:
        public = [e for e in events if e.visible_to is None]
        if public:
            await self.post_public(record, public)

    async def refresh_lobby(self, record: MatchRecord) -> None:
        """Bring the challenge message up to date (e.g. a table that filled and started itself)."""
        from .matches import lobby_message

        ch = await self.channel(record)
        if ch is None or record.message_id is None:
            return
        try:
            if isinstance(ch, discord.TextChannel | discord.Thread | discord.DMChannel):
                await ch.get_partial_message(record.message_id).edit(**lobby_message(record))
        except discord.HTTPException:
            log.info("could not update the challenge message of match %s", record.id)

    async def on_prompt(self, record: MatchRecord, seat: int) -> None:
        prompt = await self.build_prompt(record, seat)
        if prompt is None:
            return
        if get_ui(record.game).public_prompts:  # open information: the controls live in the channel
            kwargs = prompt.send_kwargs()
            kwargs["content"] = f"{mention(record, seat)} " + (prompt.content or "your move.")
            # ping only when the move passes to this player, not at every step of their own turn
            assert self.service is not None
            log_entries = (await self.service.match(record.id)).log
            last = next((e.seat for e in reversed(log_entries) if e.seat != CHANCE), None)
            ping = discord.AllowedMentions(users=last != seat)
            ch = await self.channel(record)
            if ch is not None:
                await ch.send(allowed_mentions=ping, **kwargs)
            return
        seat_rec = record.seats[seat]
        if seat_rec.dm_ok is not False:
            try:
                user = self.client.get_user(seat_rec.user_id) or await self.client.fetch_user(seat_rec.user_id)
                await user.send(**prompt.send_kwargs())
                if seat_rec.dm_ok is None and self.service is not None:
                    await self.service.set_dm_ok(record.id, seat_rec.user_id, True)
                return
            except discord.Forbidden:
                if self.service is not None:
                    await self.service.set_dm_ok(record.id, seat_rec.user_id, False)
            except discord.HTTPException:
                log.exception("DM to %s failed", seat_rec.user_id)
        view = discord.ui.View(timeout=None)
        view.add_item(open_button(record.id, seat))
        await self.post(
            record,
            [],
            content=f"{mention(record, seat)}, I can't send you a DM: your move is waiting "
            "behind the button below (only you can open it).",
            view=view,
        )

    async def on_reminder(self, record: MatchRecord, seat: int, deadline: int) -> None:
        text = f"⏰ Match #{record.id}: your move is due <t:{deadline}:R>, or you forfeit."
        seat_rec = record.seats[seat]
        if seat_rec.dm_ok:
            try:
                user = self.client.get_user(seat_rec.user_id) or await self.client.fetch_user(seat_rec.user_id)
                await user.send(text)
                return
            except discord.HTTPException:
                pass
        view = discord.ui.View(timeout=None)
        view.add_item(open_button(record.id, seat, "Open my prompt"))
        await self.post(record, [], content=f"{mention(record, seat)} {text}", view=view)

    async def on_timeout(self, record: MatchRecord, seat: int, result: TimeoutResult) -> None:
        name = record.names[seat]
        texts = {
            "action_taken": f"⌛ {name} ran out of time; the referee made the default choice for them.",
            "forfeit": f"⌛ {name} ran out of time and forfeits match #{record.id}.",
            "abandoned": f"⌛ Nobody moved in time: match #{record.id} is abandoned.",
        }
        await self.post(record, [], content=texts.get(str(result), f"⌛ {name} ran out of time."))

    async def on_finished(self, record: MatchRecord, outcome: Outcome) -> None:
        log.info("match %s finished: %s", record.id, fill_names(outcome.summary, record.names))

    async def on_challenge_expired(self, record: MatchRecord) -> None:
        await self.refresh_lobby(record)
