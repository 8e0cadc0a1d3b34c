"""Tournaments in Discord: ``/tournament`` commands, the sign-up buttons and the one tournament
message per tournament, edited in place.

Thin, like the other cogs: parse, call :class:`~bot.tournaments.service.TournamentService`, render.
The service keeps an outbox of events; :class:`TournamentPresenter` reads a tournament's pending
events, edits its message (format, players, round, standings, links to the live matches'
threads), announces round starts and the champion, then marks the events delivered. It runs after
every command here and after each tick of the bot's timer loop (``bot.tick_tournaments``).

The Join / Leave buttons are DynamicItems (``tournament:join:<id>``, ``tournament:leave:<id>``):
read from their custom_id, so they work after a restart with nothing kept in memory. So are the
``/tournament history`` pages' buttons (``tournament:history:<guild>:<page>:<p|i|n>``: Previous,
the page, Next).

Pictures (:mod:`cogs.tournament_pictures`): the message's embed shows a picture
(``attachment://``): the standings after the last round that is over (Swiss, round robin; before
that, the text table), or from the first round on the bracket (two-player single elimination) or
the tables (Magic Duel knock-out). Drawn in a worker thread, cached by
what they show and named by their content, so an edit that changes nothing in the picture
neither draws nor uploads it again (the message's attachments are remembered). A server with
pictures off (``/settings pictures``) keeps the text table and no attachment.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.servers import parse_turn_time
from bot.tournaments.errors import TournamentError
from bot.tournaments.service import OPEN, TournamentService, TournamentView
from rules import get_game

from .errors import guarded
from .games.base import clip
from .games.pictures import CONTENT_NAMED
from .matches import GAME_CHOICES
from .table import pictures_on
from .tournament_pictures import picture_file, picture_model

if TYPE_CHECKING:
    from bot.client import RefereeBot

log = logging.getLogger(__name__)

FORMAT_CHOICES = [
    app_commands.Choice(name="Swiss", value="swiss"),
    app_commands.Choice(name="Round robin", value="round_robin"),
    app_commands.Choice(name="Single elimination", value="single_elimination"),
]
FORMAT_NAMES = {c.value: c.name for c in FORMAT_CHOICES}
STATUS_TEXT = {
    "signup": "📝 Sign-up open",
    "running": "▶️ Running",
    "paused": "⏸️ Paused",
    "finished": "🏁 Finished",
    "cancelled": "❌ Cancelled",
}
BUTTON_TEMPLATE = r"tournament:(?P<op>join|leave):(?P<id>\d+)"
HISTORY_TEMPLATE = r"tournament:history:(?P<guild>\d{1,20}):(?P<page>\d{1,6}):(?P<role>[pin])"
MAX_TOURNAMENT_ID = 2**53 - 1
HISTORY_SIZE = 10
PICTURE_FIELD = "Shown in the picture below: rank, match points, OMW%, GW%, OGW% and W-L-D."
#: Seconds between two edits of one tournament message at most (Discord allows 5 edits per 5 s in
#: a channel; a burst of Join clicks, round results and the tick share them): a change inside the
#: window is shown by one deferred edit at its end, with the latest state.
EDIT_EVERY = 1.5
#: Events the presenter shows as soon as the service's background work wrote them (the others: at
#: the timer's next tick, or the next command).
URGENT_EVENTS = frozenset({"round_started", "finished", "cancelled"})


def service_of(client: Any) -> TournamentService:
    found = getattr(client, "tournaments", None)
    if not isinstance(found, TournamentService):
        raise RuntimeError("this client has no tournament service")
    return found


def is_manager(interaction: discord.Interaction[Any]) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms is not None and (perms.manage_guild or perms.administrator))


# ------------------------------------------------------------------------------ rendering


def _name(view: TournamentView, pid: int) -> str:
    return clip(view.record.name_of(pid), 32)


def standings_table(view: TournamentView, limit: int = 16) -> str | None:
    """The standings as a monospaced text table (None before the first round)."""
    t = view.tournament
    if t is None or not t.started:
        return None
    rows = t.standings().rows
    lines = [f"{'#':>2} {'player':<16} {'pts':>4} {'W-L-D':>7}"]
    for row in rows[:limit]:
        name = _name(view, row.player)[:16] + (" ✗" if row.dropped else "")
        record = f"{row.wins}-{row.losses}-{row.draws}"
        lines.append(f"{row.rank:>2} {name:<16} {float(row.match_points):>4g} {record:>7}")
    if len(rows) > limit:
        lines.append(f"… and {len(rows) - limit} more")
    return "```\n" + "\n".join(lines) + "\n```"


def round_lines(view: TournamentView, threads: dict[int, int]) -> str | None:
    """The current round's pairings, each with its result or a link to its match's thread."""
    t = view.tournament
    if t is None or t.current_round is None:
        return None
    links = view.current_links()
    lines = []
    for m in t.current_round.matches:
        who = " vs ".join(_name(view, p) for p in m.seats)
        if m.bye or len(m.seats) < 2:
            lines.append(f"• {who}: bye")
            continue
        link = links.get(m.id)
        if m.result is not None:
            winners = [p for p, place in zip(m.seats, m.result.placements, strict=True) if place == 1]
            shown = "draw" if len(winners) != 1 else f"{_name(view, winners[0])} wins"
            lines.append(f"• {who}: {shown}")
        elif link is not None and link.match_id in threads:
            lines.append(f"• {who}: live in <#{threads[link.match_id]}> (match #{link.match_id})")
        elif link is not None:
            lines.append(f"• {who}: playing (match #{link.match_id})")
        else:
            lines.append(f"• {who}: waiting")
    return clip("\n".join(lines), 1024)


def tournament_embed(
    view: TournamentView, threads: dict[int, int] | None = None, picture: str | None = None
) -> discord.Embed:
    """The tournament message: format, players, round, standings, the live matches. ``picture``:
    the file name of the attached picture (standings, bracket or tables) the embed shows in place
    of the text table."""
    rec, t = view.record, view.tournament
    g = get_game(rec.game)
    fmt = FORMAT_NAMES.get(rec.format, rec.format)
    status = rec.status.value
    embed = discord.Embed(
        title=clip(f"🏆 Tournament #{rec.id}: {g.name}, {fmt}", 256),
        description=STATUS_TEXT.get(status, status) + f" · organized by <@{rec.organizer_id}>",
        colour=discord.Colour.gold(),
    )
    cap = f"/{rec.max_players}" if rec.max_players else ""
    names = ", ".join(clip(e.display_name, 32) for e in rec.entrants) or "nobody yet"
    embed.add_field(name=f"Players ({len(rec.entrants)}{cap})", value=clip(names, 1024), inline=False)
    if t is not None and t.current_round is not None:
        embed.add_field(
            name=f"Round {t.current_round.number} of {t.rounds_planned}",
            value=round_lines(view, threads or {}) or "-",
            inline=False,
        )
    elif rec.settings.get("rounds"):
        embed.add_field(name="Rounds", value=str(rec.settings["rounds"]))
    if picture is not None:
        embed.set_image(url=f"attachment://{picture}")
    elimination = rec.format == "single_elimination"
    table = standings_table(view)
    if table and picture is not None and not elimination:
        embed.add_field(name="Standings", value=PICTURE_FIELD, inline=False)
    elif table and picture is None:
        embed.add_field(name="Standings", value=clip(table, 1024), inline=False)
    if status == "finished" and t is not None and t.champion is not None:
        embed.add_field(name="Champion", value=f"🥇 {_name(view, t.champion)}", inline=False)
    if rec.start_at and status == "signup":
        embed.add_field(name="Starts", value=f"<t:{rec.start_at}:R>")
    if rec.round_deadline_at and status == "running":
        embed.add_field(name="Round deadline", value=f"<t:{rec.round_deadline_at}:R>")
    how = "press Join to enter; the organizer starts with /tournament start" if status == "signup" else ""
    embed.set_footer(text=f"Tournament #{rec.id}" + (f" · {how}" if how else ""))
    return embed


def tournament_view(view: TournamentView) -> discord.ui.View | None:
    """Join / Leave during the sign-up; nothing afterwards."""
    if view.record.status.value != "signup":
        return None
    out = discord.ui.View(timeout=None)
    tid = view.record.id
    out.add_item(discord.ui.Button(label="Join", style=discord.ButtonStyle.success, custom_id=f"tournament:join:{tid}"))
    out.add_item(
        discord.ui.Button(label="Leave", style=discord.ButtonStyle.secondary, custom_id=f"tournament:leave:{tid}")
    )
    return out


def champion_embed(view: TournamentView) -> discord.Embed:
    rec, t = view.record, view.tournament
    g = get_game(rec.game)
    champion = t.champion if t is not None else None
    who = _name(view, champion) if champion is not None else "nobody"
    embed = discord.Embed(
        title=clip(f"🥇 {who} wins tournament #{rec.id}!", 256),
        description=f"{g.name}, {FORMAT_NAMES.get(rec.format, rec.format)}, {len(rec.entrants)} players.",
        colour=discord.Colour.gold(),
    )
    if t is not None:
        podium = [f"{place}. {_name(view, pid)}" for place, pid in t.ranking()[:3]]
        if podium:
            embed.add_field(name="Podium", value="\n".join(podium), inline=False)
    return embed


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
        threads = await self._threads(view)
        file = await self.picture(view)
        shown = {a.filename: a for a in self._shown.get(tournament_id, [])}
        attachments: list[discord.File | discord.Attachment] = []
        if file is not None:
            kept = shown.get(file.filename or "") if CONTENT_NAMED.fullmatch(file.filename or "") else None
            attachments.append(kept if kept is not None else file)
        message = channel.get_partial_message(view.record.message_id)
        embed = tournament_embed(view, threads, file.filename if file is not None else None)
        self.edits += 1
        edited = await message.edit(embed=embed, view=tournament_view(view), attachments=attachments)
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

    async def round_done(self, tournament_id: int) -> None:
        """The service's listener, after each background reconcile: a round that started, or the
        tournament's end, is shown now; a match result alone waits for the timer's next tick (so
        a round's results make a few edits, not one per match)."""
        events = await service_of(self.bot).events(tournament_id, pending_only=True)
        if any(e.kind in URGENT_EVENTS for e in events):
            await self.flush(tournament_id)

    async def settle(self) -> None:
        """Wait for the deferred edits (tests)."""
        while pending := [t for t in self._deferred.values() if not t.done()]:
            await asyncio.wait(pending)

    def close(self) -> None:
        """Cancel the deferred edits (the extension is unloaded; the next start shows the state)."""
        for task in self._deferred.values():
            task.cancel()
        self._deferred.clear()

    async def _announce(self, channel: discord.PartialMessageable, view: TournamentView, event: Any) -> None:
        rec = view.record
        if event.kind == "round_started":
            number, of = event.payload.get("round"), event.payload.get("of")
            pairings = []
            for m in event.payload.get("matches", []):
                who = " vs ".join(rec.name_of(int(p)) for p in m.get("seats", []))
                pairings.append(f"• {who}" + (" (bye)" if m.get("bye") else ""))
            text = f"🏆 Tournament #{rec.id}: round {number} of {of} starts.\n" + "\n".join(pairings)
            await channel.send(clip(text, 2000))
        elif event.kind == "finished":
            await channel.send(embed=champion_embed(view))
        elif event.kind == "cancelled":
            await channel.send(f"❌ Tournament #{rec.id} was cancelled.")

    async def picture(self, view: TournamentView) -> discord.File | None:
        """The picture the tournament's message shows (drawn in a worker thread, only when what
        it shows changed), or None: not started, or the server turned pictures off."""
        found = picture_model(view)
        if found is None or not await pictures_on(self.bot, view.record.guild_id):
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
        return cls(str(match["op"]), int(match["id"]))

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        service = service_of(interaction.client)
        user = interaction.user
        if self.op == "join":
            if user.bot:
                raise TournamentError("Bots cannot play in tournaments.")
            rec = await service.join(self.tournament_id, (user.id, user.display_name))
            text = f"✅ You joined tournament #{rec.id} ({len(rec.entrants)} players)."
        else:
            rec = await service.leave(self.tournament_id, user.id)
            text = f"👋 You left tournament #{rec.id}."
        await interaction.response.send_message(text, ephemeral=True)
        await presenter_of(interaction.client).flush(self.tournament_id)


# ------------------------------------------------------------------------------ history


def history_line(v: TournamentView) -> tuple[str, str]:
    """A past tournament as an embed field: number, game and format; champion (or cancelled),
    date and players."""
    rec, t = v.record, v.tournament
    g = get_game(rec.game)
    if rec.status.value == "finished" and t is not None and t.champion is not None:
        result = f"🥇 {_name(v, t.champion)}"
    else:
        result = "❌ cancelled"
    players = ", ".join(clip(e.display_name, 32) for e in rec.entrants) or "nobody"
    when = f" · <t:{rec.finished_at}:d>" if rec.finished_at else ""
    name = clip(f"#{rec.id} {g.name}, {FORMAT_NAMES.get(rec.format, rec.format)}", 256)
    return name, clip(f"{result}{when}\n{len(rec.entrants)} players: {players}", 1024)


async def history_page(
    service: TournamentService, guild_id: int, page: int
) -> tuple[discord.Embed, discord.ui.View | None]:
    """Page ``page`` (from 0) of the server's past tournaments, :data:`HISTORY_SIZE` a page, with
    Previous / Next buttons when there is more than one page. A page past the end (a stale
    button) is refused with a readable message."""
    total = await service.history_count(guild_id)
    pages = max(1, math.ceil(total / HISTORY_SIZE))
    if page >= pages:
        raise TournamentError(
            f"That page of the tournament history is gone: there {'is' if pages == 1 else 'are'} now "
            f"{pages} page{'' if pages == 1 else 's'}. Use /tournament history again."
        )
    past = await service.history(guild_id, HISTORY_SIZE, page * HISTORY_SIZE)
    embed = discord.Embed(title="🏆 Past tournaments", colour=discord.Colour.gold())
    if not past:
        embed.description = "No tournament has finished on this server yet. Start one with /tournament create."
    for v in past:
        name, value = history_line(v)
        embed.add_field(name=name, value=value, inline=False)
    word = "tournament" if total == 1 else "tournaments"
    embed.set_footer(text=f"Page {page + 1}/{pages} · {total} past {word} (finished or cancelled)")
    if pages <= 1:
        return embed, None
    out = discord.ui.View(timeout=None)
    out.add_item(HistoryButton(guild_id, max(page - 1, 0), "p", disabled=page == 0))
    out.add_item(HistoryButton(guild_id, page, "i", label=f"Page {page + 1}/{pages}", disabled=True))
    out.add_item(HistoryButton(guild_id, min(page + 1, pages - 1), "n", disabled=page >= pages - 1))
    return embed, out


class HistoryButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=HISTORY_TEMPLATE):
    """Previous / Next of ``/tournament history``: ``tournament:history:<guild>:<page>:<role>``
    (role p: previous, i: the page shown, n: next; it keeps the three custom_ids distinct)."""

    def __init__(
        self, guild_id: int, page: int, role: str, *, label: str | None = None, disabled: bool = False
    ) -> None:
        shown = label or {"p": "◀ Previous", "n": "Next ▶", "i": "·"}[role]
        style = discord.ButtonStyle.secondary if role == "i" else discord.ButtonStyle.primary
        custom_id = f"tournament:history:{guild_id}:{page}:{role}"
        super().__init__(discord.ui.Button(label=shown, style=style, custom_id=custom_id, disabled=disabled))
        self.guild_id, self.page, self.role = guild_id, page, role

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any
    ) -> HistoryButton:
        return cls(int(match["guild"]), int(match["page"]), str(match["role"]))

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if self.guild_id != interaction.guild_id:
            raise TournamentError("This tournament history belongs to another server: use /tournament history here.")
        embed, view = await history_page(service_of(interaction.client), self.guild_id, self.page)
        await interaction.response.edit_message(embed=embed, view=view)


# ------------------------------------------------------------------------------ the commands


def _duration(text: str | None, what: str) -> int | None:
    if text is None:
        return None
    try:
        seconds = parse_turn_time(text)
    except ValueError as exc:
        raise TournamentError(f"The {what} {exc}") from exc
    if seconds is None:
        return None
    return seconds


class Tournaments(commands.Cog):
    tournament = app_commands.Group(name="tournament", description="Run a tournament on this server", guild_only=True)

    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot
        self.presenter = TournamentPresenter(bot)

    @property
    def service(self) -> TournamentService:
        return service_of(self.bot)

    async def _open_one(self, interaction: discord.Interaction, tournament: int | None) -> int:
        """The tournament named, else this channel's only open one."""
        if tournament is not None:
            return tournament
        open_here = [
            tid
            for tid in await self.service.repo.ids_with_status(*OPEN)
            if (await self.service.record(tid)).channel_id == interaction.channel_id
        ]
        if not open_here:
            raise TournamentError("There is no open tournament in this channel; name one with `tournament`.")
        if len(open_here) > 1:
            ids = ", ".join(f"#{t}" for t in open_here)
            raise TournamentError(f"Several tournaments are open here ({ids}); name one with `tournament`.")
        return open_here[0]

    async def _done(self, interaction: discord.Interaction, tid: int, text: str) -> None:
        await interaction.response.send_message(text, ephemeral=True)
        await self.presenter.flush(tid)

    @tournament.command(name="create", description="Open a tournament's sign-up in this channel")
    @app_commands.describe(
        game="which game",
        format="Swiss, round robin or single elimination",
        rounds="Swiss only: how many rounds (default: enough to find a winner)",
        turn_time="time for each move: 30m, 2h, 1d",
        max_players="the most players who may join (2 to 256)",
        start_time="start automatically after this long: 30m, 2h, 1d",
        third_place="single elimination: play a match for third place",
    )
    @app_commands.choices(game=GAME_CHOICES, format=FORMAT_CHOICES)
    async def create(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        format: app_commands.Choice[str],
        rounds: app_commands.Range[int, 1, 64] | None = None,
        turn_time: app_commands.Range[str, 1, 40] | None = None,
        max_players: app_commands.Range[int, 2, 256] | None = None,
        start_time: app_commands.Range[str, 1, 40] | None = None,
        third_place: bool = False,
    ) -> None:
        turn = _duration(turn_time, "turn time")
        start_in = _duration(start_time, "start time")
        start_at = self.service.now() + start_in if start_in is not None else None
        rec = await self.service.create(
            interaction.guild_id,
            interaction.channel_id,
            interaction.user.id,
            game.value,
            format.value,
            rounds=rounds,
            turn_time=turn,
            max_players=max_players,
            start_at=start_at,
            third_place=third_place,
        )
        view = await self.service.view(rec.id)
        await interaction.response.send_message(
            embed=tournament_embed(view), view=tournament_view(view) or discord.utils.MISSING
        )
        message = await interaction.original_response()
        await self.service.set_message_id(rec.id, message.id)
        await self.presenter.flush(rec.id)

    @tournament.command(name="start", description="Organizer: close the sign-up and start round 1")
    @app_commands.describe(tournament="the tournament's number (default: the one open in this channel)")
    async def start(
        self, interaction: discord.Interaction, tournament: app_commands.Range[int, 1, MAX_TOURNAMENT_ID] | None = None
    ) -> None:
        tid = await self._open_one(interaction, tournament)
        # round 1 is paired before the answer; its matches start in the background
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.service.start(tid, interaction.user.id, is_manager=is_manager(interaction))
        await interaction.followup.send(f"▶️ Tournament #{tid} started.", ephemeral=True)
        await self.presenter.flush(tid)

    @tournament.command(name="cancel", description="Organizer: stop the tournament for good")
    @app_commands.describe(tournament="the tournament's number (default: the one open in this channel)")
    async def cancel(
        self, interaction: discord.Interaction, tournament: app_commands.Range[int, 1, MAX_TOURNAMENT_ID] | None = None
    ) -> None:
        tid = await self._open_one(interaction, tournament)
        await self.service.cancel(tid, interaction.user.id, is_manager=is_manager(interaction))
        await self._done(interaction, tid, f"❌ Tournament #{tid} is cancelled.")

    @tournament.command(name="pause", description="Organizer: hold the next round")
    @app_commands.describe(tournament="the tournament's number (default: the one open in this channel)")
    async def pause(
        self, interaction: discord.Interaction, tournament: app_commands.Range[int, 1, MAX_TOURNAMENT_ID] | None = None
    ) -> None:
        tid = await self._open_one(interaction, tournament)
        await self.service.pause(tid, interaction.user.id, is_manager=is_manager(interaction))
        await self._done(interaction, tid, f"⏸️ Tournament #{tid} is paused.")

    @tournament.command(name="resume", description="Organizer: go on after a pause")
    @app_commands.describe(tournament="the tournament's number (default: the one open in this channel)")
    async def resume(
        self, interaction: discord.Interaction, tournament: app_commands.Range[int, 1, MAX_TOURNAMENT_ID] | None = None
    ) -> None:
        tid = await self._open_one(interaction, tournament)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.service.resume(tid, interaction.user.id, is_manager=is_manager(interaction))
        await interaction.followup.send(f"▶️ Tournament #{tid} goes on.", ephemeral=True)
        await self.presenter.flush(tid)

    @tournament.command(name="drop", description="Drop a player (yourself, or anyone if you organize)")
    @app_commands.describe(player="who drops out", tournament="the tournament's number (default: this channel's)")
    async def drop(
        self,
        interaction: discord.Interaction,
        player: discord.User,
        tournament: app_commands.Range[int, 1, MAX_TOURNAMENT_ID] | None = None,
    ) -> None:
        tid = await self._open_one(interaction, tournament)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.service.drop(tid, interaction.user.id, player.id, is_manager=is_manager(interaction))
        await interaction.followup.send(f"🚪 {player.display_name} is out of tournament #{tid}.", ephemeral=True)
        await self.presenter.flush(tid)

    @tournament.command(name="deadline", description="Organizer: time for each round (then matches are adjudicated)")
    @app_commands.describe(
        duration="each round's time: 30m, 2h, 1d, or 'none'",
        tournament="the tournament's number (default: the one open in this channel)",
    )
    async def deadline(
        self,
        interaction: discord.Interaction,
        duration: app_commands.Range[str, 1, 40],
        tournament: app_commands.Range[int, 1, MAX_TOURNAMENT_ID] | None = None,
    ) -> None:
        tid = await self._open_one(interaction, tournament)
        seconds = None if duration.strip().lower() in ("none", "off") else _duration(duration, "round time")
        await self.service.set_round_deadline(tid, interaction.user.id, seconds, is_manager=is_manager(interaction))
        shown = "no round deadline" if seconds is None else f"a round deadline of {duration.strip()}"
        await self._done(interaction, tid, f"⏱️ Tournament #{tid} now has {shown}.")

    @tournament.command(name="view", description="A tournament's players, round and standings")
    @app_commands.describe(tournament="the tournament's number (default: the one open in this channel)")
    async def view(
        self, interaction: discord.Interaction, tournament: app_commands.Range[int, 1, MAX_TOURNAMENT_ID] | None = None
    ) -> None:
        tid = await self._open_one(interaction, tournament)
        found = await self.service.view(tid)
        threads = await self.presenter._threads(found)
        file = await self.presenter.picture(found)
        embed = tournament_embed(found, threads, file.filename if file is not None else None)
        if file is not None:
            await interaction.response.send_message(embed=embed, file=file, ephemeral=True)
        else:
            await interaction.response.send_message(embed=embed, ephemeral=True)

    @tournament.command(name="history", description="Past tournaments on this server")
    async def history(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        embed, view = await history_page(self.service, interaction.guild_id, 0)
        await interaction.response.send_message(embed=embed, view=view or discord.utils.MISSING)


async def setup(bot: RefereeBot) -> None:
    cog = Tournaments(bot)
    bot.tournament_presenter = cog.presenter
    # a round the service plays in the background is shown when it is done, not at the next tick
    bot.tournaments.add_listener(cog.presenter.round_done)
    await bot.add_cog(cog)
    bot.add_dynamic_items(TournamentButton, HistoryButton)


async def teardown(bot: RefereeBot) -> None:
    bot.remove_dynamic_items(TournamentButton, HistoryButton)
    presenter = bot.tournament_presenter
    if isinstance(presenter, TournamentPresenter):
        bot.tournaments.remove_listener(presenter.round_done)
        presenter.close()
    bot.tournament_presenter = None
