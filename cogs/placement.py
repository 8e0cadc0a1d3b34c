"""Where a match is told in Discord, the same for every game: one thread per match, one match card
edited in place, story posts only where the story needs one, and answers given through the
player's own interaction wherever one is still open.

- **The thread.** When a match starts, a public thread named after the game and players is started
  from the challenge message, if the server's settings want threads (``/settings threads``, on by
  default) and the bot may create them there (Create Public Threads, Send Messages in Threads);
  otherwise the match is played in the channel itself, and the board says why.
- **The match card** (cogs/card.py). One message in the thread, built with Discord's layout
  components: whose move it is and each awaited player's deadline (a Discord timestamp), the
  game's standing with its pictures at full width (never a thumbnail), the last few public events
  and the public buttons (rules, replay so far). It is edited in place after each resolution (a
  move whose public events say more than "someone moved": each game lists its quiet event kinds),
  keeping the pictures that did not change (named by their content: not uploaded again), and
  replaced by a fresh message once it is about an hour old (Discord limits edits of old
  messages); the old one is edited once into a link to the new one.
- **Story posts.** A new message only where the story of the match needs one: a resolved duel or
  trick, a resolved Firewall turn, one Arena player-turn summary (each game's ``story_kinds``),
  never more than one per resolution. Nothing is deleted and reposted.
- **The end.** The match's last story post carries the end-of-match card first (cogs/ending.py)
  and mentions the players (the end is one of the few pings), and the match card becomes a link
  to it (:meth:`MatchTable.final`); with no story left to tell (an abandoned match) the result is
  a post of its own.
- **Pings** (cogs/notifier.py): a player is mentioned when the match starts (the first card),
  when it ends, when a reminder is due, and when they are awaited after being quiet (no click in
  the match, no mention) for longer than the server's ``ping_after``; the table remembers the last
  click (:meth:`MatchTable.touch`) and the last mention (:meth:`MatchTable.pinged`) of each seat.
- **Open interactions.** A click is answered through its interaction, which Discord does not count
  against the bot's rate limits. The interaction stays usable for 15 minutes: the player's next
  prompt goes out as a follow-up of their own last click (in their DM, or ephemeral where they
  clicked), and a control panel (Arena: ``GameUI.panel``) is edited in place for the next step of
  the same turn.
- **Places are remembered** (``bot.messages``): the thread, the board and each seat's open prompt,
  so a restarted bot edits the same board and closes the same prompts.
- **Each message once.** Every message a notice produces is sent through :meth:`MatchTable.send`
  under a slot name ("prompt", "story", "board", "card"...): it goes out with a nonce made from the
  notice's outbox id and the slot (Discord returns the first message for a nonce it saw in the past
  few minutes instead of posting another: ``enforce_nonce``), and its id is recorded with the
  delivery (``deliveries``). A notice delivered again (a crash before its outbox row was deleted,
  or another process taking over a dead one's) edits the messages it recorded; one sent but not
  yet recorded when the process died is returned by Discord for the nonce and recorded then.
"""

from __future__ import annotations

import asyncio
import datetime
import hashlib
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import discord

from bot.matches import MatchRecord, MatchStatus
from bot.matches.notify import delivering
from bot.messages import BOARD_MAX_AGE, MessagesService
from bot.servers import ServersService
from rules import Event, get_game, public_events

from .card import content_named, match_card, note_card, watch_url
from .games import get_ui
from .games.base import Post, clip, pack_embeds
from .games.pictures import CONTENT_NAMED
from .pacing import Pacer
from .settings import THREAD_PERMISSIONS, missing

log = logging.getLogger(__name__)

#: An interaction token lasts 15 minutes; answer through it only while it surely still works.
TOKEN_MARGIN = datetime.timedelta(minutes=1)
#: The events the board lists (the newest).
BOARD_EVENTS = 5
#: Thread auto-archive after a day without activity (a message unarchives it).
ARCHIVE_MINUTES: Literal[1440] = 1440
#: Messages of a channel a notice delivered again looks through for one it sent but did not record.
LOOK_BACK = 10
#: Keyword arguments of a send that an edit of the same message takes (files become attachments).
EDITABLE = ("content", "embeds", "embed", "attachments", "allowed_mentions", "view")

#: Discord lets a bot start 5 threads per 5 s in a channel: a tournament round's threads are paced
#: to that (cogs/pacing.py) instead of being refused (429) from the 6th on.
THREAD_STARTS = (5, 5.0)


@dataclass
class Handle:
    """A player's latest click in a match, whose interaction the bot may still answer through."""

    interaction: discord.Interaction[Any]
    match_id: int
    seat: int
    ephemeral: bool  # the clicked message was ephemeral (closed DMs)
    public: bool  # the clicked message is a channel prompt (open-information games)
    original_used: bool = False  # the clicked message was already edited through the interaction

    def fresh(self) -> bool:
        return discord.utils.utcnow() < self.interaction.expires_at - TOKEN_MARGIN


async def channel_by_id(client: discord.Client, channel_id: int | None) -> discord.abc.Messageable | None:
    """A channel or thread the bot can post in, from its cache or fetched (None: gone, or not one
    that takes messages)."""
    if channel_id is None:
        return None
    found = client.get_channel(channel_id)
    if found is None:
        try:
            found = await client.fetch_channel(channel_id)
        except discord.HTTPException:
            log.warning("channel %s is gone", channel_id)
            return None
    return found if isinstance(found, discord.abc.Messageable) else None


async def pictures_on(client: discord.Client, guild_id: int | None) -> bool:
    """Whether posts and prompts of this server carry pictures: its /settings, else RENDER_IMAGES."""
    servers = getattr(client, "servers", None)
    if isinstance(servers, ServersService):
        return (await servers.get(guild_id)).pictures
    return images_on(client)


def images_on(client: discord.Client) -> bool:
    """The RENDER_IMAGES setting (pictures in posts and prompts)."""
    return bool(getattr(getattr(client, "settings", None), "render_images", True))


def nonce_of(notice_id: int, slot: str) -> int:
    """The nonce of the message ``slot`` of outbox notice ``notice_id``: the same every time it is
    sent (a positive 63-bit number; outbox ids are never reused)."""
    digest = hashlib.blake2b(f"{notice_id}:{slot}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1 or 1


def as_edit(kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """A send's keyword arguments as an edit of the message it made (its files become its
    attachments; what an edit cannot change is left out)."""
    edit = {k: v for k, v in kwargs.items() if k in EDITABLE}
    if "files" in kwargs:
        edit["attachments"] = list(kwargs["files"])
    return edit


def mention(record: MatchRecord, seat: int) -> str:
    """A ping for a person; a computer player's name in bold (it has no Discord account)."""
    s = record.seats[seat]
    return f"**{s.display_name}**" if s.ai is not None else f"<@{s.user_id}>"


def thread_name(record: MatchRecord) -> str:
    return clip(f"{get_game(record.game).name}: " + " vs ".join(record.names), 100)


class MatchTable:
    """The thread, the live board, the story posts and the open interactions of every match."""

    def __init__(self, client: discord.Client, messages: MessagesService):
        self.client = client
        self.messages = messages  # where each match lives (thread, board, prompts), stored
        self._stories: dict[int, list[Event]] = {}  # public events since the last story post
        self._recent: dict[int, list[str]] = {}  # the board's newest event lines
        self._handles: OrderedDict[tuple[int, int], Handle] = OrderedDict()
        self._why_no_thread: dict[int, str] = {}
        self._final: dict[int, tuple[Mapping[str, Any], list[Event]]] = {}  # the last story, told by the card
        self._shown: OrderedDict[int, dict[str, discord.Attachment]] = OrderedDict()  # the card's pictures
        self.pacer = Pacer(*THREAD_STARTS)  # thread starts per parent channel, within Discord's window
        self._touched: OrderedDict[tuple[int, int], float] = OrderedDict()  # (match, seat) -> last click (epoch s)
        self._pinged: OrderedDict[tuple[int, int], float] = OrderedDict()  # (match, seat) -> last mention

    # -- places -------------------------------------------------------------------------------
    async def resolve(self, channel_id: int | None) -> discord.abc.Messageable | None:
        return await channel_by_id(self.client, channel_id)

    async def place(self, record: MatchRecord) -> discord.abc.Messageable | None:
        """Where the match's posts go: its thread, else the channel of the challenge."""
        thread = await self.thread_id(record)
        found = await self.resolve(thread) if thread is not None else None
        return found if found is not None else await self.resolve(record.channel_id)

    async def open_thread(self, record: MatchRecord) -> discord.Thread | None:
        """Start the match's thread from the challenge message, where settings and permissions
        allow; None (and the reason kept for the board) where they don't."""
        if record.guild_id is None:
            return None
        known = await self.thread_id(record)
        if known is not None:
            found = await self.resolve(known)
            return found if isinstance(found, discord.Thread) else None
        servers = getattr(self.client, "servers", None)
        if isinstance(servers, ServersService) and not (await servers.get(record.guild_id)).threads:
            return None
        channel = await self.resolve(record.channel_id)
        if not isinstance(channel, discord.TextChannel):
            return None
        await self.explain_no_thread(record)
        if record.id in self._why_no_thread:
            return None
        try:
            async with self.pacer.slot(channel.id):  # a round's many threads: at Discord's pace
                if record.message_id is not None:
                    thread = await channel.get_partial_message(record.message_id).create_thread(
                        name=thread_name(record), auto_archive_duration=ARCHIVE_MINUTES
                    )
                else:
                    thread = await channel.create_thread(
                        name=thread_name(record),
                        type=discord.ChannelType.public_thread,
                        auto_archive_duration=ARCHIVE_MINUTES,
                    )
        except discord.HTTPException as exc:
            log.info("no thread for match %s: %s", record.id, exc)
            self._why_no_thread[record.id] = "Played here, not in a thread: Discord refused to start one."
            return None
        await self.messages.set_thread(record.id, thread.id, int(time.time()))
        return thread

    async def explain_no_thread(self, record: MatchRecord) -> None:
        """Why a match without a thread is played in its channel, when it is for lack of permissions
        (threads switched off in /settings need no explanation)."""
        servers = getattr(self.client, "servers", None)
        if record.guild_id is None or (
            isinstance(servers, ServersService) and not (await servers.get(record.guild_id)).threads
        ):
            return
        channel = await self.resolve(record.channel_id)
        if isinstance(channel, discord.TextChannel):
            lacking = missing(channel.permissions_for(channel.guild.me), THREAD_PERMISSIONS)
            if lacking:
                self._why_no_thread[record.id] = (
                    "Played here, not in a thread: I lack " + " and ".join(lacking) + " in this channel."
                )

    async def thread_id(self, record: MatchRecord) -> int | None:
        return (await self.messages.places(record.id)).channel_id

    # -- posting ------------------------------------------------------------------------------
    async def send(
        self,
        ch: discord.abc.Messageable,
        slot: str,
        *,
        find: Callable[[discord.Message], bool] | None = None,
        **kwargs: Any,
    ) -> discord.Message:
        """``ch.send(**kwargs)``, once per notice: the message ``slot`` of the notice being
        delivered (:data:`~bot.matches.notify.delivering`). A notice delivered again edits the
        message it recorded for the slot; a first send carries the slot's nonce (a send whose
        answer a crash lost is answered by Discord with the same message) and is recorded. With
        ``find``, a notice delivered again that recorded nothing for the slot first looks for its
        message among the channel's latest (one the crash kept from being recorded, older than the
        nonce's few minutes, or sent another way, as a follow-up of a click) and edits the one
        ``find`` accepts. Outside a delivery (a command's own answer) it is a plain send."""
        notice = delivering.get()
        if notice is None or notice.id is None:
            return await ch.send(**kwargs)
        if notice.redelivered:
            found = await self.messages.delivery(notice.id, slot)
            target: discord.PartialMessage | discord.Message | None = None
            if found is not None:
                target = self.client.get_partial_messageable(found[0]).get_partial_message(found[1])
            elif find is not None:
                target = await self.look_for(ch, find)
            if target is not None:
                try:
                    edited = await target.edit(**as_edit(kwargs))
                    await self.messages.delivered(notice.id, slot, edited.channel.id, edited.id)
                    return edited
                except discord.NotFound:
                    log.info("message %s of notice %s is gone: sending it again", slot, notice.id)
        message = await ch.send(nonce=nonce_of(notice.id, slot), **kwargs)
        await self.messages.delivered(notice.id, slot, message.channel.id, message.id)
        return message

    async def look_for(
        self, ch: discord.abc.Messageable, find: Callable[[discord.Message], bool]
    ) -> discord.Message | None:
        """The newest of the bot's latest messages in ``ch`` that ``find`` accepts (None: none, or
        the history cannot be read)."""
        me = self.client.user
        try:
            async for message in ch.history(limit=LOOK_BACK):
                if me is not None and message.author.id == me.id and find(message):
                    return message
        except discord.HTTPException as exc:
            log.info("could not look for an earlier message (%s)", exc)
        return None

    async def recorded(self, slot: str, message: discord.Message | None) -> None:
        """Record ``message`` (sent another way: a follow-up of a click) as the slot of the notice
        being delivered, so delivering it again edits it."""
        notice = delivering.get()
        if notice is not None and notice.id is not None and message is not None and not message.flags.ephemeral:
            await self.messages.delivered(notice.id, slot, message.channel.id, message.id)

    async def post(
        self,
        record: MatchRecord,
        embeds: Sequence[discord.Embed],
        content: str | None = None,
        view: discord.ui.View | None = None,
        files: Sequence[discord.File] = (),
        *,
        ping: bool = True,
        slot: str = "post",
    ) -> discord.Message | None:
        """Post to the match's place, split to Discord's embed limits. Each picture goes with the
        message whose embed shows it (``attachment://name``); the others with the first. ``slot``:
        which message of the notice being delivered this is (:meth:`send`)."""
        ch = await self.place(record)
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
            kwargs: dict[str, Any] = {"embeds": batch, "allowed_mentions": discord.AllowedMentions(users=ping)}
            if i == 0 and content:
                kwargs["content"] = content
            if placed[i]:
                kwargs["files"] = placed[i]
            if i == len(batches) - 1 and view is not None:
                kwargs["view"] = view
            last = await self.send(ch, slot if i == 0 else f"{slot}.{i}", **kwargs)
        return last

    async def pictures(self, record: MatchRecord) -> bool:
        return await pictures_on(self.client, record.guild_id)

    # -- the story and the board --------------------------------------------------------------
    async def told(
        self,
        record: MatchRecord,
        events: Sequence[Event],
        view: Mapping[str, Any],
        *,
        opening: str | None = None,
    ) -> None:
        """A resolution's public ``events``: the story post it needs (if any), then the board.
        ``opening``: the first board's text (the match begins)."""
        ui = get_ui(record.game)
        public = public_events(events)
        story = self._stories.setdefault(record.id, [])
        story.extend(public)
        recent = self._recent.setdefault(record.id, [])
        recent.extend(e.render(record.names) for e in public)
        del recent[:-BOARD_EVENTS]
        kinds = {e.kind for e in public}
        if opening is None and record.status is not MatchStatus.ACTIVE:
            # the match ended: its last story post is the end-of-match card's (see final)
            self._final[record.id] = (view, list(story))
            self.forget(record.id)
            return
        images = await self.pictures(record)
        if opening is None and ui.tells_story(kinds):
            post = await asyncio.to_thread(ui.public_post, view, list(story), record.names, images=images)
            if not ui.story_pictures:  # the card shows the board: the story tells the turn in words
                post = Post([e for e in post.embeds if not (e.title or "").startswith(ui.board_titles or ("\0",))])
            story.clear()
            await self.post(record, post.embeds, files=post.files, ping=False, slot="story")
        if opening is not None:  # the first board tells the opening (a deal, a roll-off...)
            first = None
            if public:
                first = await asyncio.to_thread(ui.public_post, view, public, record.names, images=images)
            story.clear()
            await self.board(record, view, images=images, opening=opening, post=first)
        elif record.status is not MatchStatus.ACTIVE or ui.refreshes_board(kinds):
            await self.board(record, view, images=images)
        if record.status is not MatchStatus.ACTIVE:
            self.forget(record.id)

    async def board(
        self,
        record: MatchRecord,
        view: Mapping[str, Any],
        *,
        images: bool,
        opening: str | None = None,
        post: Post | None = None,
    ) -> None:
        """Edit the match card in place, or post it (the first, or a fresh one for an old card)."""
        ui = get_ui(record.game)
        if post is None:
            post = await asyncio.to_thread(ui.board_post, view, record.names, images=images)
        post = content_named(post)  # the same picture keeps its name: an edit keeps it, not re-uploaded
        places = await self.messages.places(record.id)
        if places.thread is None and record.id not in self._why_no_thread:
            await self.explain_no_thread(record)  # e.g. after a restart: told again, from the permissions now
        told_here = opening is not None and post is not None  # the opening story is the card's own text
        card = match_card(
            record,
            post,
            latest=() if told_here else self._recent.get(record.id, ()),
            opening=opening,
            footer=self._why_no_thread.get(record.id),
            watch_url=await watch_url(self.client, record),
        )
        old = places.board
        now = int(time.time())
        ch = await self.place(record)
        if (
            old is not None
            and now - old.posted_at < BOARD_MAX_AGE
            and isinstance(ch, discord.TextChannel | discord.Thread)
        ):
            try:
                edited = await ch.get_partial_message(old.message_id or 0).edit(
                    content=None, embeds=[], view=card, attachments=self.reused(record.id, post.files)
                )
                self.shown(record.id, edited)
                return
            except discord.HTTPException as exc:
                log.info("card of match %s not edited (%s): posting a fresh one", record.id, exc)
        if ch is None:
            return
        msg = await self.send(
            ch,
            "board",
            view=card,
            files=list(post.files),
            allowed_mentions=discord.AllowedMentions(users=opening is not None),
        )
        self.shown(record.id, msg)
        if old is not None:
            await self.retire_board(record, old.channel_id, old.message_id, msg)
        await self.messages.set_board(record.id, msg.channel.id, msg.id, now)

    def reused(self, match_id: int, files: Sequence[discord.File]) -> list[discord.File | discord.Attachment]:
        """The card's pictures for an edit: one the card already shows (named by its content) is
        kept as it is, not uploaded again."""
        shown = self._shown.get(match_id, {})
        return [shown.get(f.filename or "", f) for f in files]

    def shown(self, match_id: int, message: discord.Message) -> None:
        """Remember the pictures the card shows now (by content name) for the next edit."""
        self._shown[match_id] = {a.filename: a for a in message.attachments if CONTENT_NAMED.fullmatch(a.filename)}
        self._shown.move_to_end(match_id)
        while len(self._shown) > 5_000:
            self._shown.popitem(last=False)

    async def retire_board(
        self, record: MatchRecord, channel_id: int, message_id: int | None, new: discord.Message, *, ended: bool = False
    ) -> None:
        """An old card is edited once into a link to its successor (it says nothing stale)."""
        ch = await self.resolve(channel_id)
        if message_id is None or not isinstance(ch, discord.TextChannel | discord.Thread):
            return
        text = (
            f"📌 Match #{record.id} is over: the result is at {new.jump_url}"
            if ended
            else f"📌 Match #{record.id}: the board moved to {new.jump_url}"
        )
        try:
            await ch.get_partial_message(message_id).edit(content=None, embeds=[], attachments=[], view=note_card(text))
        except discord.HTTPException:
            log.info("old board of match %s left as it was", record.id)

    async def final(
        self, record: MatchRecord, card: Sequence[discord.Embed], view: discord.ui.View, *, content: str | None = None
    ) -> discord.Message | None:
        """The end-of-match card in the thread, in one message: the last story post of the match
        carries it (the card first, then how the match ended), with the players mentioned (the one
        ping of the end), and the match card becomes a link to it. A story too long to share one
        message with the card is posted just before it."""
        view_after, story = self._final.pop(record.id, ({}, []))
        self._shown.pop(record.id, None)
        old = (await self.messages.places(record.id)).board
        told: list[discord.Embed] = []
        files: list[discord.File] = []
        if story:
            ui = get_ui(record.game)
            images = await self.pictures(record)
            post = await asyncio.to_thread(ui.public_post, view_after, story, record.names, images=images)
            told, files = list(post.embeds), list(post.files)
        if told and len(pack_embeds([*card, *told])) > 1:  # the story first, then the card alone
            await self.post(record, told, files=files, ping=False, slot="story")
            told, files = [], []
        if content is None:
            players = [mention(record, s) for s, seat in enumerate(record.seats) if seat.ai is None]
            content = f"🏁 {' '.join(players)}: match #{record.id} is over." if players else None
        msg = await self.post(record, [*card, *told], content=content, view=view, files=files, slot="card")
        if msg is None:
            return None
        if old is not None and old.message_id != msg.id:
            await self.retire_board(record, old.channel_id, old.message_id, msg, ended=True)
        await self.messages.set_board(record.id, msg.channel.id, msg.id, int(time.time()))
        return msg

    def drop_final(self, match_id: int) -> None:
        self._final.pop(match_id, None)

    def forget(self, match_id: int) -> None:
        self._stories.pop(match_id, None)
        self._recent.pop(match_id, None)
        self._why_no_thread.pop(match_id, None)
        # the clicks stay (bounded, and dropped once their token is stale): the click that ended the
        # match is still turning its prompt into the record of the last move

    # -- open interactions ------------------------------------------------------------------------
    def clicked(self, interaction: discord.Interaction[Any], match_id: int, seat: int, *, public: bool) -> Handle:
        """Remember ``interaction`` as the seat's latest click (before the move is submitted, so the
        notices of that move can be answered through it)."""
        message = interaction.message
        handle = Handle(
            interaction,
            match_id,
            seat,
            ephemeral=bool(message is not None and message.flags.ephemeral),
            public=public,
        )
        self._handles[(match_id, seat)] = handle
        self.touch(match_id, seat, interaction.created_at.timestamp())
        self._handles.move_to_end((match_id, seat))
        while len(self._handles) > 20_000:
            self._handles.popitem(last=False)
        return handle

    def touch(self, match_id: int, seat: int, at: float | None = None) -> None:
        """The seat's player clicked something of the match (any screen, button or select): they
        are following it, so they need no ping for their next turn (see :meth:`idle_for`)."""
        key = (match_id, seat)
        self._touched[key] = time.time() if at is None else at
        self._touched.move_to_end(key)
        while len(self._touched) > 50_000:
            self._touched.popitem(last=False)

    def idle_for(self, match_id: int, seat: int, now: float | None = None) -> float | None:
        """Seconds since the seat's last click in the match; None: no click known (not since the
        bot started), which counts as idle."""
        at = self._touched.get((match_id, seat))
        return None if at is None else (time.time() if now is None else now) - at

    def pinged(self, match_id: int, seat: int, at: float | None = None) -> None:
        """The seat's player was just mentioned in the match (so a ping right after is noise)."""
        key = (match_id, seat)
        self._pinged[key] = time.time() if at is None else at
        self._pinged.move_to_end(key)
        while len(self._pinged) > 50_000:
            self._pinged.popitem(last=False)

    def quiet_for(self, match_id: int, seat: int, now: float | None = None) -> float | None:
        """Seconds since the seat's player last clicked in the match or was mentioned in it; None:
        neither is known (not since the bot started)."""
        now = time.time() if now is None else now
        times = [t for t in (self._touched.get((match_id, seat)), self._pinged.get((match_id, seat))) if t is not None]
        return now - max(times) if times else None

    def handle(self, match_id: int, seat: int) -> Handle | None:
        found = self._handles.get((match_id, seat))
        if found is not None and not found.fresh():
            del self._handles[(match_id, seat)]
            return None
        return found


__all__ = [
    "Handle",
    "MatchTable",
    "as_edit",
    "channel_by_id",
    "images_on",
    "mention",
    "nonce_of",
    "pictures_on",
    "thread_name",
]
