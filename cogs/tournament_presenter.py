"""The tournament presenter: delivers the tournament service's outbox to Discord (one message per
tournament, edited in place, with its picture from :mod:`cogs.tournament_pictures`; a post for each
round start and the champion), and the Join / Leave buttons of the sign-up
(``tournament:join:<id>``, ``tournament:leave:<id>``, DynamicItems: they work after a restart).
See :mod:`cogs.tournaments` for the whole picture."""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

import discord

from bot.tournaments.errors import TournamentError
from bot.tournaments.events import Cancelled, EventData, Finished, RoundStarted, TournamentEvent
from bot.tournaments.service import TournamentView

from .card import shown_on_the_web, web_button, web_links_of
from .errors import guarded
from .games.base import clip
from .ids import FIELD, read_id, require
from .placement import pictures_on
from .tournament_pictures import picture_file, picture_model

if TYPE_CHECKING:
    from bot.client import RefereeBot

from .tournament_embeds import champion_post, service_of, tournament_embed

log = logging.getLogger(__name__)

BUTTON_TEMPLATE = rf"tournament:(?P<op>join|leave):(?P<id>{FIELD})"
#: Seconds between two edits of one tournament message at most (Discord allows 5 edits per 5 s in
#: a channel; a burst of Join clicks, round results and the tick share them): a change inside the
#: window is shown by one deferred edit at its end, with the latest state.
EDIT_EVERY = 1.5
#: Events the presenter shows as soon as the service's background work wrote them (the others: at
#: the timer's next tick, or the next command).
URGENT_EVENTS: frozenset[type[EventData]] = frozenset({RoundStarted, Finished, Cancelled})


def tournament_view(view: TournamentView, web_url: str | None = None) -> discord.ui.View | None:
    """Join / Leave during the sign-up; ``web_url`` (the tournament's page on the web table, when
    it has a public address): a "Standings on the web" link, at every stage."""
    signup = view.record.status.value == "signup"
    if not signup and web_url is None:
        return None
    out = discord.ui.View(timeout=None)
    tid = view.record.id
    if signup:
        out.add_item(
            discord.ui.Button(label="Join", style=discord.ButtonStyle.success, custom_id=f"tournament:join:{tid}")
        )
        out.add_item(
            discord.ui.Button(label="Leave", style=discord.ButtonStyle.secondary, custom_id=f"tournament:leave:{tid}")
        )
    if web_url is not None:
        out.add_item(web_button("Standings on the web", web_url))
    return out


async def tournament_url(client: Any, view: TournamentView) -> str | None:
    """The tournament's page when the web table has a public address and its server shows its
    pages (``/settings web``), else None."""
    links = web_links_of(client)
    url = links.tournament(view.record.id) if links is not None else None
    return await shown_on_the_web(client, view.record.guild_id, url)


# ------------------------------------------------------------------------------ the presenter


class TournamentPresenter:
    """Delivers the service's events to Discord: one message per tournament edited in place,
    plus a post for each round start and for the champion.

    Edits are coalesced: at most one edit of a tournament's message per :data:`EDIT_EVERY` seconds
    on the presenter's ``clock``. A flush inside that window posts its announcements and marks the
    message dirty; one deferred flush (a task, sleeping to the window's end on ``sleep``) edits it
    once with the latest state. ``clock`` and ``sleep`` are attributes so that a test transport
    with its own clock (the fake Discord's) can run the window on it, as :class:`cogs.pacing.Pacer`.
    """

    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot
        self._lock = asyncio.Lock()
        #: the pictures each tournament message shows (from Discord's answer to the last edit), so
        #: an unchanged picture is kept rather than uploaded again; empty after a restart
        self._shown: dict[int, list[discord.Attachment]] = {}
        self.clock: Callable[[], float] = time.monotonic
        self.sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
        self.edits = 0  # edits of tournament messages made (for the curious: tests, benchmarks)
        self._edited_at: dict[int, float] = {}  # tournament -> when its message was last edited
        self._dirty: set[int] = set()  # tournaments whose message shows less than their state
        self._deferred: dict[int, asyncio.Task[None]] = {}
        #: tournaments whose round was announced before its matches started: the message is
        #: edited again once they have (their threads' links), at the end of the background work
        self._relink: set[int] = set()

    async def flush_all(self) -> None:
        service = service_of(self.bot)
        for tid in await service.with_pending_events():
            await self.flush(tid)

    async def flush(self, tournament_id: int) -> None:
        """Post the tournament's pending announcements and bring its message up to date (now, or
        by the deferred edit at the end of the current window)."""
        async with self._lock:
            service = service_of(self.bot)
            events = await service.events(tournament_id, pending_only=True)
            if not events and tournament_id not in self._dirty:
                return
            view = await service.view(tournament_id)
            channel_id = view.record.channel_id
            try:
                if channel_id is not None:
                    channel = self.bot.get_partial_messageable(channel_id)
                    for event in events:
                        await self._announce(channel, view, event)
                    if view.record.message_id is not None:
                        wait = self._edited_at.get(tournament_id, -math.inf) + EDIT_EVERY - self.clock()
                        if wait > 0:
                            self._dirty.add(tournament_id)
                            self._defer(tournament_id, wait)
                        else:
                            await self._edit(channel, view)
            except discord.HTTPException:
                log.warning("Tournament %s: updating its message failed", tournament_id, exc_info=True)
            if events:
                await service.mark_delivered([e.id for e in events])

    async def _edit(self, channel: discord.PartialMessageable, view: TournamentView) -> None:
        tournament_id = view.record.id
        assert view.record.message_id is not None
        self._dirty.discard(tournament_id)
        self._edited_at[tournament_id] = self.clock()
        embed, file = await self.render(view)
        shown = {a.filename: a for a in self._shown.get(tournament_id, [])}
        attachments: list[discord.File | discord.Attachment] = []
        if file is not None:  # named by its content: the same name is the same picture, kept
            kept = shown.get(file.filename or "")
            attachments.append(kept if kept is not None else file)
        message = channel.get_partial_message(view.record.message_id)
        self.edits += 1
        shown_view = tournament_view(view, await tournament_url(self.bot, view))
        edited = await message.edit(embed=embed, view=shown_view, attachments=attachments)
        self._edited_at[tournament_id] = self.clock()  # the window runs from Discord's answer
        self._shown[tournament_id] = list(edited.attachments)
        if view.status.value in ("finished", "cancelled"):
            self._shown.pop(tournament_id, None)  # never edited again
            self._edited_at.pop(tournament_id, None)

    def _defer(self, tournament_id: int, wait: float) -> None:
        """One deferred flush per tournament: asked again meanwhile, it is already coming."""
        task = self._deferred.get(tournament_id)
        if task is not None and not task.done():
            return
        self._deferred[tournament_id] = asyncio.create_task(
            self._flush_later(tournament_id, wait), name=f"tournament {tournament_id}: deferred edit"
        )

    async def _flush_later(self, tournament_id: int, wait: float) -> None:
        try:
            await self.sleep(wait)
            if self._deferred.get(tournament_id) is asyncio.current_task():
                del self._deferred[tournament_id]  # a change during this flush defers a new one
            await self.flush(tournament_id)
        except Exception:
            log.exception("Tournament %s: the deferred update of its message failed", tournament_id)
        finally:
            if self._deferred.get(tournament_id) is asyncio.current_task():
                del self._deferred[tournament_id]

    async def announce_round(self, tournament_id: int) -> None:
        """The service's announcer: a round's matches are about to start, so its announcement
        (and the message's new round) goes out now, before their threads open."""
        self._relink.add(tournament_id)
        await self.flush(tournament_id)

    async def round_done(self, tournament_id: int) -> None:
        """The service's listener, after each background reconcile: a round that started (its
        matches' threads now linked), or the tournament's end, is shown now; a match result alone
        waits for the timer's next tick (so a round's results make a few edits, not one per match)."""
        events = await service_of(self.bot).events(tournament_id, pending_only=True)
        if tournament_id in self._relink:
            self._relink.discard(tournament_id)
            self._dirty.add(tournament_id)
            await self.flush(tournament_id)
        elif any(type(e.data) in URGENT_EVENTS for e in events):
            await self.flush(tournament_id)

    def close(self) -> None:
        """Cancel the deferred edits (the extension is unloaded; the next start shows the state)."""
        for task in self._deferred.values():
            task.cancel()
        self._deferred.clear()

    async def _announce(
        self, channel: discord.PartialMessageable, view: TournamentView, event: TournamentEvent
    ) -> None:
        """The post an event makes in the tournament's channel, if its kind has one (:data:`POSTS`)."""
        post = POSTS.get(type(event.data))
        if post is not None:
            await post(channel, view, event.data)

    async def render(self, view: TournamentView) -> tuple[discord.Embed, discord.File | None]:
        """The tournament message's embed and its picture (None: the text table instead), as the
        message and ``/tournament view`` show them."""
        threads = await self._threads(view)
        file = await self.picture(view)
        return tournament_embed(view, threads, file.filename if file is not None else None), file

    async def picture(self, view: TournamentView) -> discord.File | None:
        """The picture the tournament's message shows (drawn in a worker thread, only when what
        it shows changed), or None: not started, or the server turned pictures off."""
        if not await pictures_on(self.bot, view.record.guild_id):
            return None
        found = picture_model(view)
        if found is None:
            return None
        kind, model = found
        try:
            return await asyncio.to_thread(picture_file, kind, model)
        except Exception:  # noqa: BLE001 - a picture that cannot be drawn leaves the text table
            log.exception("Tournament %s: drawing its %s failed", view.record.id, kind)
            return None

    async def _threads(self, view: TournamentView) -> dict[int, int]:
        out: dict[int, int] = {}
        for link in view.current_links().values():
            places = await self.bot.messages.places(link.match_id)
            if places.thread is not None:
                out[link.match_id] = places.thread.channel_id
        return out


# ------------------------------------------------------------------------------ the posts

_E = TypeVar("_E", bound=EventData)
#: The post of one kind of event: (the tournament's channel, the tournament, the event's payload).
_PostOf: TypeAlias = Callable[[discord.PartialMessageable, TournamentView, _E], Awaitable[None]]
#: The events that make a post in the tournament's channel, by their payload's class, each with
#: its post (registered by :func:`posts`).
POSTS: dict[type[object], _PostOf[Any]] = {}


def posts(kind: type[_E]) -> Callable[[_PostOf[_E]], _PostOf[_E]]:
    """Register the post of the events of ``kind`` (the function is checked against its kind)."""

    def register(post: _PostOf[_E]) -> _PostOf[_E]:
        POSTS[kind] = post
        return post

    return register


@posts(RoundStarted)
async def round_started_post(channel: discord.PartialMessageable, view: TournamentView, event: RoundStarted) -> None:
    """The round's pairings (with its deadline), before its matches open their threads."""
    rec = view.record
    pairings = []
    for m in event.matches:
        who = " vs ".join(rec.name_of(p) for p in m.seats)
        pairings.append(f"• {who}" + (" (bye)" if m.bye else ""))
    deadline = event.deadline
    due = f"\n⏱️ The round ends <t:{deadline}:R> (<t:{deadline}:f>)." if deadline else ""
    text = f"🏆 Tournament #{rec.id}: round {event.round} of {event.of} starts.{due}\n" + "\n".join(pairings)
    await channel.send(clip(text, 2000))


@posts(Finished)
async def champion_announcement(channel: discord.PartialMessageable, view: TournamentView, event: Finished) -> None:
    """The champion's card."""
    await channel.send(**champion_post(view))


@posts(Cancelled)
async def cancelled_post(channel: discord.PartialMessageable, view: TournamentView, event: Cancelled) -> None:
    await channel.send(f"❌ Tournament #{view.record.id} was cancelled.")


def presenter_of(client: Any) -> TournamentPresenter:
    found = getattr(client, "tournament_presenter", None)
    if not isinstance(found, TournamentPresenter):
        raise RuntimeError("this client has no tournament presenter")
    return found


# ------------------------------------------------------------------------------ the buttons


class TournamentButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_TEMPLATE):
    """Join or leave a tournament in sign-up; the tournament message is then edited."""

    def __init__(self, op: str, tournament_id: int) -> None:
        super().__init__(discord.ui.Button(label=op.title(), custom_id=f"tournament:{op}:{tournament_id}"))
        self.op, self.tournament_id = op, tournament_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any
    ) -> TournamentButton:
        return cls(str(match["op"]), read_id(match["id"]))

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        require(self.tournament_id)
        service = service_of(interaction.client)
        user = interaction.user
        if self.op == "join":
            if user.bot:
                raise TournamentError("Bots cannot play in tournaments.")
            rec = await service.join(self.tournament_id, (user.id, user.display_name), guild_id=interaction.guild_id)
            text = f"✅ You joined tournament #{rec.id} ({len(rec.entrants)} players)."
        else:
            rec = await service.leave(self.tournament_id, user.id, guild_id=interaction.guild_id)
            text = f"👋 You left tournament #{rec.id}."
        await interaction.response.send_message(text, ephemeral=True)
        await presenter_of(interaction.client).flush(self.tournament_id)
