"""Turns the match service's notifications into Discord messages.

Where things go is :mod:`cogs.placement`'s business (one thread per match, one live board edited in
place, story posts only where the story needs one). Thread posts come only from the spectator view
and public events. Private prompts go through the player's own last click while it is open (a
follow-up), else by DM; when a DM cannot be sent (403, code 50007) the player is told once, in the
thread, how to open DMs, with a "Make your move" button that opens the same prompt as an ephemeral
message. A failure here never undoes a committed move.

The service hands every notice what it needs (the prompt, the spectator view, the public events):
this module never calls back into it during a match. Once a match is over it reads the match's
ending (everything revealed, and the ratings, computed just after the finish: waited for, bounded)
to show the end-of-match card (cogs/ending.py) in the thread and in the challenge message; open
prompts become a final line with a link to it. Whether a DM reached a player is returned from
:meth:`DiscordNotifier.on_prompt`, and the service stores it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.matches import Ending, MatchRecord, MatchService, SeatPrompt, TimeoutResult
from bot.messages import MessagesService
from bot.servers import ServersService
from bot.stats import StatsService
from rules import Event, Outcome, fill_names, public_events

from .card import RulesButton, watch_url
from .ending import LATE_RATING_WAIT, RATING_WAIT, card_embeds, card_view, result_message
from .games import get_ui
from .games.base import Prompt, PromptContext, clip
from .help import first_match_tip
from .hints import with_hint
from .lobby import lobby_message
from .placement import MatchTable, mention, pictures_on
from .web_seat import SeatLinkButton, with_seat_link

#: Mention an awaited player only after this long without a click or a mention in the match, where
#: the server's settings do not say (``/settings ping_after``).
DEFAULT_PING_AFTER = 120

if TYPE_CHECKING:
    from bot.client import RefereeBot

log = logging.getLogger(__name__)


def open_button(match_id: int, seat: int, label: str = "Submit privately") -> discord.ui.Button:
    return discord.ui.Button(
        label=label, style=discord.ButtonStyle.primary, emoji="🔒", custom_id=f"open:{match_id}:{seat}"
    )


def prompt_of_step(sp: SeatPrompt) -> Callable[[discord.Message], bool]:
    """Whether a message is the prompt of this seat's step (a component of its custom_id grammar,
    ``m:<match>:<seat>:<step>:``, cogs/games/base.py)."""
    prefix = f"m:{sp.match_id}:{sp.seat}:{sp.seat_step}:"

    def of_step(message: discord.Message) -> bool:
        return any(
            str(getattr(child, "custom_id", "") or "").startswith(prefix)
            for row in message.components
            for child in getattr(row, "children", ())
        )

    return of_step


def with_deadline(prompt: Prompt, deadline_at: int | None) -> Prompt:
    """The prompt with its time limit as a Discord timestamp (every screen of it shows it)."""
    if deadline_at and prompt.embeds and not any(f.name == "Time limit" for f in prompt.embeds[0].fields):
        prompt.embeds[0].add_field(name="Time limit", value=f"<t:{deadline_at}:R>", inline=False)
    return prompt


async def render_prompt(client: discord.Client, record: MatchRecord, sp: SeatPrompt) -> Prompt | None:
    """The seat's prompt ``sp`` with its time limit (built in a worker thread: pictures are drawn
    off the event loop), or None when the seat is not asked anything."""
    if not sp.awaited:
        return None
    ctx = PromptContext.of(sp, record.names, images=await pictures_on(client, record.guild_id))
    ui = get_ui(record.game)
    prompt = await asyncio.to_thread(ui.prompt, ctx)
    hinted = with_hint(with_deadline(prompt, sp.deadline_at), record, sp)
    return await with_seat_link(client, record, sp, hinted, public=ui.public_prompts)


def played_record(
    events: Sequence[Event], seat: int, names: Sequence[str], at: int, words: Callable[[str], str] = str
) -> str:
    """What an answered prompt becomes: a record of what the seat played, and when (its own
    private account of the move, in the prompt's ``words``, else the public one). Never erased."""
    mine = [words(fill_names(e.text, names)) for e in events if e.visible_to is not None and seat in e.visible_to]
    said = mine or [fill_names(e.text, names) for e in public_events(events)][:1]
    what = " ".join(said) or "your move."
    return f"🔒 Locked in <t:{at}:f>: {what}"[:2000]


class DiscordNotifier:
    def __init__(self, client: discord.Client, messages: MessagesService):
        self.client = client
        self.table = MatchTable(client, messages)  # the thread, the live board, the story posts, open clicks
        self._dms: OrderedDict[int, discord.DMChannel] = OrderedDict()  # user id -> DM channel
        self._told_dms: OrderedDict[tuple[int, int], None] = OrderedDict()  # (match, seat) told how to open DMs
        self.lobby_clicks: set[int] = set()  # matches whose challenge message a click is answering
        self._late: set[asyncio.Task[None]] = set()  # cards waiting for their ratings

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
    async def build_prompt(self, record: MatchRecord, sp: SeatPrompt) -> Prompt | None:
        return await render_prompt(self.client, record, sp)

    async def remember_prompt(self, record: MatchRecord, sp: SeatPrompt, message: discord.Message | None) -> None:
        if message is not None and not message.flags.ephemeral:
            await self.table.messages.set_prompt(record.id, sp.seat, message.channel.id, message.id, int(time.time()))

    # -- Notifier protocol ---------------------------------------------------------------
    async def on_started(self, record: MatchRecord, events: Sequence[Event], view: Mapping[str, Any]) -> None:
        await self.table.open_thread(record)
        if record.id not in self.lobby_clicks:  # else the click answers with the same edit, for free
            await self.refresh_lobby(record)
        ui = get_ui(record.game)
        how = (
            "Moves are made here, with the buttons." if ui.public_prompts else "Your private prompts are on their way."
        )
        players = " ".join(mention(record, s) for s in range(len(record.seats)))
        opening = f"⚔️ {players}: match #{record.id} begins. {how}" + await self.first_match_tips(record)
        for seat in range(len(record.seats)):
            self.table.pinged(record.id, seat)
        await self.table.told(record, events, view, opening=opening)

    async def first_match_tips(self, record: MatchRecord) -> str:
        """The one thing a newcomer must know, for the players whose first match of this game it
        is (a line under the opening board's greeting; nothing for the others)."""
        tip = first_match_tip(record.game)
        stats = getattr(self.client, "stats", None)
        if tip is None or not isinstance(stats, StatsService):
            return ""
        people = [s.user_id for s in record.seats if s.ai is None]
        new = await stats.newcomers(record.game, people, match_id=record.id)
        who = [mention(record, seat) for seat, s in enumerate(record.seats) if s.ai is None and s.user_id in new]
        return f"\n{', '.join(who)}: {tip}" if who else ""

    async def on_events(self, record: MatchRecord, events: Sequence[Event], view: Mapping[str, Any]) -> None:
        await self.table.told(record, events, view)

    async def lobby_edit(self, record: MatchRecord, ending: Ending | None = None) -> dict[str, Any]:
        """The challenge message as it should read now (with a link to the match's thread); once
        the match is over, with its end-of-match card."""
        thread_id = await self.table.thread_id(record)
        if ending is not None:
            return result_message(record, ending, thread_id, await watch_url(self.client, record))
        return lobby_message(record, thread_id=thread_id)

    async def refresh_lobby(self, record: MatchRecord, ending: Ending | None = None) -> None:
        """Bring the challenge message up to date (e.g. a table that filled and started itself)."""
        ch = await self.table.resolve(record.channel_id)  # the challenge message's channel
        if ch is None or record.message_id is None:
            return
        try:
            if isinstance(ch, discord.TextChannel | discord.Thread | discord.DMChannel):
                await ch.get_partial_message(record.message_id).edit(**await self.lobby_edit(record, ending))
        except discord.HTTPException:
            log.info("could not update the challenge message of match %s", record.id)

    async def on_prompt(self, record: MatchRecord, sp: SeatPrompt) -> bool | None:
        """Send the prompt; returns whether a DM reached the player (None: none was tried).

        Through the player's own last click where it is still open (a follow-up in their DM, or
        ephemeral; a channel prompt edited in place for the next step of the same turn), else by
        DM, else (closed DMs) behind a button in the thread."""
        seat = sp.seat
        prompt = await self.build_prompt(record, sp)
        if prompt is None:
            return None
        if get_ui(record.game).public_prompts:  # open information: the controls live in the thread
            await self.channel_prompt(record, sp, prompt)
            return None
        handle = self.table.handle(record.id, seat)
        # a player who takes DMs gets prompts there (ephemeral messages vanish on reload)
        if handle is not None and not handle.public and not (handle.ephemeral and record.seats[seat].dm_ok):
            if await self.in_place(record, sp, prompt):
                return None
            try:
                sent = await handle.interaction.followup.send(
                    ephemeral=handle.ephemeral, wait=True, **prompt.send_kwargs()
                )
                await self.table.recorded("prompt", sent)
                await self.remember_prompt(record, sp, sent)
                if handle.ephemeral and sp.turn_passed:
                    await self.closed_dms(
                        record, sp.seat, sp.deadline_at
                    )  # "your move" again: edited, or a ping for an idle player
                return None
            except discord.HTTPException as exc:
                log.info("follow-up prompt for match %s seat %s failed (%s): sending it", record.id, seat, exc)
        seat_rec = record.seats[seat]
        dm_ok: bool | None = None
        if seat_rec.dm_ok is not False:
            try:
                dm = await self.table.send(
                    await self.dm_channel(seat_rec.user_id), "prompt", find=prompt_of_step(sp), **prompt.send_kwargs()
                )
                await self.remember_prompt(record, sp, dm)
                return True
            except discord.Forbidden:
                dm_ok = False
            except discord.HTTPException:
                log.exception("DM to %s failed", seat_rec.user_id)
        await self.closed_dms(record, sp.seat, sp.deadline_at)
        return dm_ok

    async def in_place(self, record: MatchRecord, sp: SeatPrompt, prompt: Prompt) -> bool:
        """A control-panel game (Arena: many steps a turn): the next step of the same turn is shown
        by editing the panel the player just clicked (through their click), its board picture kept
        when the board did not change. False: not such a step (the prompt goes out as usual)."""
        handle = self.table.handle(record.id, sp.seat)
        if not get_ui(record.game).panel or handle is None or handle.original_used or sp.turn_passed:
            return False
        try:
            clicked = handle.interaction.message
            shown = clicked.attachments if clicked is not None else []
            await handle.interaction.edit_original_response(**prompt.edit_kwargs(shown))
        except discord.HTTPException as exc:
            log.info("panel of match %s seat %s not edited in place (%s)", record.id, sp.seat, exc)
            return False
        handle.original_used = True
        return True

    async def waited_on(self, record: MatchRecord, seat: int) -> bool:
        """Whether a player who is awaited now should be mentioned: they have neither clicked in
        the match nor been mentioned in it for longer than the server's ``ping_after`` (a player
        clicking along is not pinged for each turn)."""
        if record.seats[seat].ai is not None:
            return False
        servers = getattr(self.client, "servers", None)
        after = DEFAULT_PING_AFTER
        if isinstance(servers, ServersService):
            after = int(getattr(await servers.get(record.guild_id), "ping_after_seconds", DEFAULT_PING_AFTER))
        quiet = self.table.quiet_for(record.id, seat)
        return quiet is None or quiet >= after

    async def channel_prompt(self, record: MatchRecord, sp: SeatPrompt, prompt: Prompt) -> None:
        """An open-information game's prompt in the thread: the next step of the same turn edits
        the clicked prompt in place (through the click); a turn that passes gets a new prompt, with
        one mention."""
        content = f"{mention(record, sp.seat)} " + (prompt.content or "your move.")
        handle = self.table.handle(record.id, sp.seat)
        if handle is not None and handle.public and not handle.original_used and not sp.turn_passed:
            try:
                clicked = handle.interaction.message
                shown = clicked.attachments if clicked is not None else []
                await handle.interaction.edit_original_response(**{**prompt.edit_kwargs(shown), "content": content})
                handle.original_used = True
                return
            except discord.HTTPException as exc:
                log.info("channel prompt of match %s not edited in place (%s)", record.id, exc)
        kwargs = prompt.send_kwargs()
        kwargs["content"] = content
        ch = await self.table.place(record)
        if ch is not None:
            # ping only when the move passes to a player who is not following the match
            ping = sp.turn_passed and await self.waited_on(record, sp.seat)
            kwargs["allowed_mentions"] = discord.AllowedMentions(users=ping)
            if ping:
                self.table.pinged(record.id, sp.seat)
            sent = await self.table.send(ch, "prompt", find=prompt_of_step(sp), **kwargs)
            await self.remember_prompt(record, sp, sent)

    async def closed_dms(
        self, record: MatchRecord, seat: int, deadline_at: int | None, *, reminder: str | None = None
    ) -> None:
        """A player whose DMs are closed has one "🔒 Your move" message per match in the thread,
        with the button that opens their prompt as an ephemeral message (only they can open it);
        the first one also tells them how to open DMs. When they are awaited again it is edited
        (no new message, no ping); when they are waited on (idle past ``ping_after``, or a
        reminder is due) it is replaced by a new one that mentions them, and the old one removed:
        never a growing pile of button posts."""
        key = (record.id, seat)
        first = key not in self._told_dms
        ping = reminder is not None or await self.waited_on(record, seat)
        if first:
            self._told_dms[key] = None
            while len(self._told_dms) > 50_000:
                self._told_dms.popitem(last=False)
        due = f" It is due <t:{deadline_at}:R>." if deadline_at else ""
        text = reminder or f"🔒 {mention(record, seat)}, your move in match #{record.id}.{due}"
        if first:
            text += (
                "\nI can't send you a DM, so your moves are behind this button (only you can open it). To get "
                "them by DM instead: open this server's menu → **Privacy Settings** → turn on **Direct Messages** "
                "from server members."
            )
        view = discord.ui.View(timeout=None)
        view.add_item(open_button(record.id, seat, "Your move"))
        ref = (await self.table.messages.places(record.id)).prompts.get(seat)
        ch = await self.table.resolve(ref.channel_id) if ref is not None else None
        old = (
            ch.get_partial_message(ref.message_id)
            if ref is not None and ref.message_id is not None and isinstance(ch, discord.TextChannel | discord.Thread)
            else None
        )
        if old is not None and not ping:
            try:
                await old.edit(content=text, view=view, allowed_mentions=discord.AllowedMentions(users=False))
                return
            except discord.HTTPException:
                log.info("the 'your move' message of match %s seat %s is gone: posting one", record.id, seat)
        sent = await self.table.post(record, [], content=text, view=view, ping=ping, slot="closed-dms")
        if ping:
            self.table.pinged(record.id, seat)
        if sent is not None:
            await self.table.messages.set_prompt(record.id, seat, sent.channel.id, sent.id, int(time.time()))
        if old is not None and (sent is None or sent.id != old.id):
            try:
                await old.delete()
            except discord.HTTPException:
                log.info("the old 'your move' message of match %s seat %s stays", record.id, seat)

    async def on_reminder(self, record: MatchRecord, seat: int, deadline: int) -> None:
        text = f"⏰ Match #{record.id}: your move is due <t:{deadline}:R>, or you forfeit."
        seat_rec = record.seats[seat]
        if seat_rec.dm_ok:
            try:
                await self.table.send(await self.dm_channel(seat_rec.user_id), "reminder", content=text)
                return
            except discord.HTTPException:
                pass
        # the player's one "your move" message, replaced by one that mentions them
        due = f"⏰ {mention(record, seat)}, your move in match #{record.id} is due <t:{deadline}:R>, or you forfeit."
        await self.closed_dms(record, seat, deadline, reminder=due)

    async def close_prompts(self, record: MatchRecord, text: str, seats: Sequence[int] | None = None) -> None:
        """Open prompts that can no longer be answered become a line saying why (never erased)."""
        messages = self.table.messages
        places = await messages.places(record.id)
        for seat, ref in list(places.prompts.items()):
            if seats is not None and seat not in seats:
                continue
            handle = self.table.handle(record.id, seat)
            clicked = handle.interaction.message if handle is not None else None
            if handle is not None and clicked is not None and clicked.id == ref.message_id and not handle.original_used:
                continue  # the click that made this move turns this prompt into its record itself
            ch = await self.table.resolve(ref.channel_id)
            if ref.message_id is not None and isinstance(ch, discord.TextChannel | discord.Thread | discord.DMChannel):
                try:
                    await ch.get_partial_message(ref.message_id).edit(content=text, view=None)
                except discord.HTTPException:
                    log.info("prompt of match %s seat %s left as it was", record.id, seat)
            await messages.answered(record.id, seat, ref.message_id)

    async def on_timeout(self, record: MatchRecord, seat: int, result: TimeoutResult) -> None:
        name = record.names[seat]
        texts = {
            TimeoutResult.ACTION_TAKEN: f"⌛ {name} ran out of time; the referee made the default choice for them.",
            TimeoutResult.FORFEIT: f"⌛ {name} ran out of time and forfeits match #{record.id}.",
        }
        if result is not TimeoutResult.ABANDONED:
            await self.table.post(record, [], content=texts.get(result, f"⌛ {name} ran out of time."), slot="timeout")
            await self.close_prompts(record, f"⌛ Time ran out for this move (match #{record.id}).", [seat])
            return
        # abandoned: the board becomes the end-of-match card (its own wording), and so does the
        # challenge message; open prompts say so, with a link
        await self.ended(record, f"⌛ Match #{record.id} was abandoned: nobody moved in time.")
        self.table.forget(record.id)

    async def on_finished(self, record: MatchRecord, outcome: Outcome) -> None:
        """The end-of-match card: the thread's last post and the challenge message (edited in
        place) become the match's result; prompts still open say the match is over, with a link."""
        log.info("match %s finished: %s", record.id, fill_names(outcome.summary, record.names))
        await self.ended(record, f"🏁 Match #{record.id} is over: {record.summary or 'see the thread'}")

    # -- the end of a match ---------------------------------------------------------------------
    async def ending(self, record: MatchRecord, wait: float) -> Ending | None:
        """The match's ending with everything revealed (read once the match is over, outside its
        lock), waiting up to ``wait`` seconds for its ratings; None if it cannot be built."""
        service = getattr(self.client, "service", None)
        if not isinstance(service, MatchService):
            return None
        try:
            return await service.ending(record.id, wait=wait)
        except Exception:
            log.exception("the ending of match %s could not be built", record.id)
            return None

    async def ended(self, record: MatchRecord, closing: str) -> None:
        """Post the card (thread) and edit it into the challenge message; close the prompts. A card
        whose ratings are late is edited once when they are ready (with the challenge message)."""
        ending = await self.ending(record, RATING_WAIT)
        if ending is None:  # the result without a card
            self.table.drop_final(record.id)
            await self.refresh_lobby(record)
            await self.close_prompts(record, clip(closing, 2000))
            return
        buttons = card_view(record.id, practice=record.practice, web_url=await watch_url(self.client, record))
        card = await self.table.final(record, card_embeds(ending), buttons)
        link = card.jump_url if card is not None else await self.lobby_link(record)
        await self.close_prompts(record, clip(closing + (f"\nThe result: {link}" if link else ""), 2000))
        if ending.ratings_pending:
            task = asyncio.get_running_loop().create_task(self.rate_later(record, card), name=f"card-{record.id}")
            self._late.add(task)
            task.add_done_callback(self._late.discard)
            return
        await self.refresh_lobby(record, ending)

    async def rate_later(self, record: MatchRecord, card: discord.Message | None) -> None:
        """The ratings came late: one edit of the card, then the challenge message (its only edit)."""
        ending = await self.ending(record, LATE_RATING_WAIT)
        if ending is None:
            await self.refresh_lobby(record)
            return
        if card is not None and not ending.ratings_pending:
            fresh = card_embeds(ending)  # the card comes first in its message, the story after it
            try:
                await card.edit(embeds=[*fresh, *card.embeds[len(fresh) :]])
            except discord.HTTPException:
                log.info("the card of match %s keeps its pending ratings", record.id)
        await self.refresh_lobby(record, ending)

    async def lobby_link(self, record: MatchRecord) -> str | None:
        if record.message_id is None or record.channel_id is None:
            return None
        return f"https://discord.com/channels/{record.guild_id or '@me'}/{record.channel_id}/{record.message_id}"

    async def result_link(self, record: MatchRecord) -> str | None:
        """Where a match's result is: its card in the thread, else the challenge message."""
        board = (await self.table.messages.places(record.id)).board
        if board is not None and board.message_id is not None:
            return f"https://discord.com/channels/{record.guild_id or '@me'}/{board.channel_id}/{board.message_id}"
        return await self.lobby_link(record)

    async def on_challenge_expired(self, record: MatchRecord) -> None:
        await self.refresh_lobby(record)


async def setup(bot: RefereeBot) -> None:
    """Install the Discord notifier as the match service's (an extension: the client imports no cogs)."""
    bot.service.notifier = DiscordNotifier(bot, bot.messages)
    bot.add_dynamic_items(RulesButton)  # the match card's Rules button (cogs/card.py)
    bot.add_dynamic_items(SeatLinkButton)  # a thread prompt's "Play in the browser" (cogs/web_seat.py)
