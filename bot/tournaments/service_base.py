"""The tournament service's shared core: its state (database, match service, locks), the row and
view reads, the one guarded write, and the payloads its events carry. The parts of the service
(:mod:`.service_rounds`, :mod:`.service_organizer`, :mod:`.service_outbox`) are mixins over
:class:`ServiceCore`; :class:`bot.tournaments.service.TournamentService` combines them.
"""

from __future__ import annotations

import asyncio
import enum
import logging
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, Final, TypeAlias

from bot.matches import MatchService
from bot.ratings import DISPLAY_BASE
from db import GLOBAL_SCOPE, Batch, Database, MatchRecord, MatchStatus, RatingsRepository, StaleWrite
from db.tournaments import TournamentMatchRecord, TournamentRecord, TournamentsRepository, TournamentStatus
from rules.core import Outcome

from .errors import NotOrganizer, TournamentNotFound, WrongState
from .model import Match, Player, Result
from .tournament import Tournament

log = logging.getLogger("bot.tournaments")

#: The most players a tournament takes (the core pairs 256 in well under a second).
MAX_PLAYERS = 256
#: Games a two-player knock-out pairing plays while they are drawn; then the better seed goes through.
MAX_KNOCKOUT_GAMES = 3
#: Tournaments kept parsed in memory (:meth:`ServiceCore.parsed`): the running ones, and a few more.
PARSED_CACHE_SIZE = 32

OVER = (MatchStatus.FINISHED, MatchStatus.ABANDONED)
DEAD = (MatchStatus.EXPIRED, MatchStatus.CANCELLED, MatchStatus.DECLINED)
OPEN = (TournamentStatus.SIGNUP, TournamentStatus.RUNNING, TournamentStatus.PAUSED)
#: The largest tournament id anything may name (Discord's clients hold integers exactly up to it).
MAX_TOURNAMENT_ID = 2**53 - 1


class _Anywhere(enum.Enum):
    ANYWHERE = "anywhere"


#: ``guild_id`` of the bot's own calls (the timer, the background work): a tournament of any server.
ANYWHERE: Final = _Anywhere.ANYWHERE
#: Where a tournament is named from: a server's id (an interaction's ``guild_id``), None (a DM:
#: tournaments belong to servers, so none is found there) or :data:`ANYWHERE` (the bot itself).
Where: TypeAlias = "int | None | _Anywhere"

#: Event kinds (the ``tournament_events`` outbox): what the tournament message shows.
EVENT_KINDS = (
    "created",
    "signup_changed",
    "started",
    "round_started",
    "match_result",
    "standings_changed",
    "player_dropped",
    "round_deadline",
    "paused",
    "resumed",
    "cancelled",
    "finished",
)


@dataclass(frozen=True)
class TournamentView:
    """A tournament as stored: its row, the core (once started) and its matches."""

    record: TournamentRecord
    tournament: Tournament | None
    links: tuple[TournamentMatchRecord, ...]

    @property
    def status(self) -> TournamentStatus:
        return self.record.status

    def current_links(self) -> dict[str, TournamentMatchRecord]:
        """The latest match of each pairing of the current round."""
        t = self.tournament
        if t is None or t.current_round is None:
            return {}
        number = t.current_round.number
        return {link.pairing: link for link in self.links if link.round == number}


class ServiceCore:
    """State and helpers every part of the service shares. Not used alone."""

    db: Database
    repo: TournamentsRepository
    matches: MatchService
    seed_factory: Callable[[], int]

    def __init__(
        self,
        db: Database,
        matches: MatchService,
        *,
        clock: Callable[[], float] | None = None,
        seed_factory: Callable[[], int] | None = None,
    ) -> None:
        self.db = db
        self.repo = TournamentsRepository(db)
        self.matches = matches
        self._clock = clock
        self.seed_factory = seed_factory or (lambda: secrets.randbits(31))
        self._locks: dict[int, asyncio.Lock] = {}
        self._dirty: set[int] = set()
        #: the background reconcile of each tournament (at most one), and those asked again meanwhile
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        matches.add_end_observer(self.match_ended)
        self._closing = False
        self._listeners: list[Callable[[int], Awaitable[None]]] = []
        self._announcers: list[Callable[[int], Awaitable[None]]] = []
        #: tournament id -> (its stored state's text, that state parsed): never handed out, copied
        self._parsed: OrderedDict[int, tuple[str, Tournament]] = OrderedDict()

    def now(self) -> int:
        return int(self._clock() if self._clock is not None else self.matches.ctx.clock())

    async def record(self, tournament_id: int, guild_id: Where = ANYWHERE) -> TournamentRecord:
        """The tournament's row, named from ``guild_id`` (an interaction's server; None: a DM).
        Servers are kept apart: another server's tournament is refused with exactly the words an
        id nothing has gets (:class:`TournamentNotFound`), so naming it reveals nothing; in a DM
        none is found. :data:`ANYWHERE` (the default) is for the bot's own calls."""
        found = await self.repo.get(tournament_id) if 0 < tournament_id <= MAX_TOURNAMENT_ID else None
        if guild_id is ANYWHERE:
            if found is None:
                raise TournamentNotFound(f"There is no tournament #{tournament_id}.")
            return found
        if found is None or guild_id is None or found.guild_id != guild_id:
            where = "in this server" if guild_id is not None else "here: tournaments are run in servers"
            raise TournamentNotFound(f"There is no tournament #{tournament_id} {where}.")
        return found

    async def view(self, tournament_id: int, *, links: bool = True, guild_id: Where = ANYWHERE) -> TournamentView:
        """The tournament as stored (named from ``guild_id``, see :meth:`record`); ``links`` False
        leaves its matches' links out (a past tournament's line in a history needs the record and
        the state only)."""
        rec = await self.record(tournament_id, guild_id)
        return TournamentView(rec, self.parsed(rec), tuple(await self.repo.links(tournament_id)) if links else ())

    def parsed(self, rec: TournamentRecord) -> Tournament | None:
        """The tournament core of ``rec`` (None before it starts), the caller's own to change.
        Reading the JSON again at every step made a long event quadratic (a 64-player round
        robin's state is 180 kB by its last rounds, 30 ms to read); the last state read or written
        stays parsed, and a copy of it is handed out while the stored text is the same (compared
        in full, so a change made by another process is seen)."""
        if rec.state is None:
            return None
        hit = self._parsed.get(rec.id)
        if hit is not None and hit[0] == rec.state:
            self._parsed.move_to_end(rec.id)
            return hit[1].copy()
        t = Tournament.from_json(rec.state)
        self._remember(rec.id, rec.state, t.copy())
        return t

    def _remember(self, tournament_id: int, state: str, t: Tournament) -> None:
        self._parsed[tournament_id] = (state, t)
        self._parsed.move_to_end(tournament_id)
        while len(self._parsed) > PARSED_CACHE_SIZE:
            self._parsed.popitem(last=False)

    async def _reconcile(self, tournament_id: int) -> None:
        """Bring the tournament up to date with its matches (lock held): the engine's,
        :class:`bot.tournaments.service_rounds.Rounds`."""
        raise NotImplementedError

    async def reconcile(self, tournament_id: int) -> None:
        """Take the lock and :meth:`_reconcile` (busy: marked dirty), :class:`~.service_rounds.Rounds`."""
        raise NotImplementedError

    async def _record_and_pair(self, tournament_id: int) -> None:
        """The quick part of reconciling (lock held): record what ended and pair the next round
        if it is due; its matches start in the background. :class:`~.service_rounds.Rounds`."""
        raise NotImplementedError

    # -----------------------------------------------------------------------------------------
    # the background: a round's work off the caller's path
    # -----------------------------------------------------------------------------------------

    async def match_ended(self, record: MatchRecord, outcome: Outcome | None) -> None:
        """The match service's end observer, registered by the constructor (the rounds part,
        :class:`bot.tournaments.service_rounds.Rounds`, is what answers it)."""
        raise NotImplementedError

    def schedule(self, tournament_id: int) -> None:
        """Reconcile the tournament in the background, soon. Nobody waits for it: not the player
        whose move ended a round (the next round's 32 matches open their threads at Discord's
        pace, 30 s and more), not the organizer who started the tournament. One task at a time per
        tournament: asked while it runs, it runs once more after (not once per ask). A failure is
        logged; nothing is lost, as everything is in the database and the timer's
        :meth:`~bot.tournaments.service.TournamentService.tick` (and the start-up's ``recover``)
        reconcile every running tournament again. :meth:`settle` waits for it."""
        if self._closing:
            return
        task = self._tasks.get(tournament_id)
        if task is not None and not task.done():
            self._again.add(tournament_id)
            return
        self._tasks[tournament_id] = asyncio.create_task(
            self._background(tournament_id), name=f"tournament {tournament_id}: reconcile"
        )

    def add_listener(self, listener: Callable[[int], Awaitable[None]]) -> None:
        """Call ``listener(tournament_id)`` after each background reconcile (the presentation
        delivers the events it wrote: the round's announcement, the tournament message)."""
        if listener not in self._listeners:
            self._listeners.append(listener)

    def remove_listener(self, listener: Callable[[int], Awaitable[None]]) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def add_announcer(self, announcer: Callable[[int], Awaitable[None]]) -> None:
        """Call ``announcer(tournament_id)`` when a round's matches are about to start, its
        ``round_started`` event written: the presentation posts the round's announcement first,
        so it comes before the matches' threads. Called with the tournament's lock held: it must
        not wait for the tournament (reading its events and view is fine)."""
        if announcer not in self._announcers:
            self._announcers.append(announcer)

    def remove_announcer(self, announcer: Callable[[int], Awaitable[None]]) -> None:
        if announcer in self._announcers:
            self._announcers.remove(announcer)

    async def _announce(self, tournament_id: int) -> None:
        """The announcers, before a round's matches start (one that fails stops nothing: the
        announcement stays pending and goes out at the next delivery)."""
        for announcer in list(self._announcers):
            try:
                await announcer(tournament_id)
            except Exception:
                log.exception("Tournament %s: announcing the round failed", tournament_id)

    async def _background(self, tournament_id: int) -> None:
        try:
            while True:
                self._again.discard(tournament_id)
                try:
                    await self.reconcile(tournament_id)
                except Exception:
                    # not retried at once (it would likely fail again): the timer's tick retries
                    log.exception("Tournament %s: reconciling in the background failed", tournament_id)
                    return
                for listener in list(self._listeners):
                    try:
                        await listener(tournament_id)
                    except Exception:
                        log.exception("Tournament %s: a listener failed", tournament_id)
                # no await between this check and the task's end: an ask meanwhile is never lost
                if tournament_id not in self._again or self._closing:
                    return
        finally:
            if self._tasks.get(tournament_id) is asyncio.current_task():
                del self._tasks[tournament_id]

    async def settle(self) -> None:
        """Wait until no tournament is being reconciled in the background (tests; shutdown)."""
        while True:
            pending = [task for task in self._tasks.values() if not task.done()]
            if not pending:
                return
            await asyncio.wait(pending)

    async def shutdown(self, grace: float = 5.0) -> None:
        """Stop scheduling, give the background work ``grace`` seconds to finish, then cancel
        what is left (safe: every step is its own commit, and the next start's ``recover``
        reconciles again)."""
        self._closing = True
        pending = [task for task in self._tasks.values() if not task.done()]
        if not pending:
            return
        _, late = await asyncio.wait(pending, timeout=max(grace, 0.0))
        for task in late:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)

    @asynccontextmanager
    async def _lock(self, tournament_id: int) -> AsyncIterator[None]:
        """The tournament's lock in this process. A match that ends while it is held (inside a
        call the tournament makes, or in another task) only marks the tournament dirty (see
        :meth:`reconcile`); when the holder lets go, a dirty tournament is reconciled in the
        background (:meth:`schedule`), not by the holder. The check and the release have no await
        between them, so no end is left behind."""
        lock = self._locks.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            yield
            if tournament_id in self._dirty:
                self.schedule(tournament_id)

    async def _write(
        self,
        rec: TournamentRecord,
        at: int,
        events: Sequence[tuple[str, Mapping[str, Any]]],
        *,
        batch: Batch | None = None,
        after: Callable[[TournamentRecord], list[tuple[str, dict[str, Any]]]] | None = None,
        tournament: Tournament | None = None,
        **changes: Any,
    ) -> TournamentRecord:
        """One guarded write: ``batch``'s statements, the row's ``changes`` (version bumped) and the
        events; ``tournament``: the core's new state, stored (and kept parsed, :meth:`parsed`);
        ``after``: events computed from the row as written (run after a first commit)."""
        batch = batch if batch is not None else Batch()
        if tournament is not None:
            changes["state"] = tournament.to_json()
        TournamentsRepository.update(batch, rec, at, **changes)
        for kind, payload in events:
            TournamentsRepository.add_event(batch, rec.id, kind, payload, at)
        try:
            await self.repo.write(batch)
        except StaleWrite as exc:
            raise WrongState(f"Tournament #{rec.id} changed meanwhile; please try again.") from exc
        if tournament is not None:
            self._remember(rec.id, changes["state"], tournament.copy())
        fresh = await self.record(rec.id)
        if after is not None:
            extra = after(fresh)
            if extra:
                batch = Batch()
                for kind, payload in extra:
                    TournamentsRepository.add_event(batch, rec.id, kind, payload, at)
                await self.repo.write(batch)
        return fresh

    async def _statuses(self, match_ids: Sequence[int]) -> dict[int, MatchStatus]:
        """The status of each match, in one query (a round's matches)."""
        out: dict[int, MatchStatus] = {}
        for i in range(0, len(match_ids), 400):
            chunk = list(match_ids[i : i + 400])
            marks = ", ".join("?" for _ in chunk)
            rows = await self.db.fetchall(f"SELECT id, status FROM matches WHERE id IN ({marks})", chunk)
            out.update((int(r[0]), MatchStatus(r[1])) for r in rows)
        return out

    @staticmethod
    def _require_organizer(rec: TournamentRecord, user_id: int | None, is_manager: bool, what: str) -> None:
        if user_id is None or is_manager or user_id == rec.organizer_id:
            return
        raise NotOrganizer(f"Only the organizer or a server manager can {what} tournament #{rec.id}.")

    @staticmethod
    def _closed(rec: TournamentRecord) -> str:
        return {
            TournamentStatus.SIGNUP: "is in sign-up",
            TournamentStatus.RUNNING: "has already started",
            TournamentStatus.PAUSED: "has already started (paused)",
            TournamentStatus.FINISHED: "is over",
            TournamentStatus.CANCELLED: "was cancelled",
        }[rec.status]

    async def _players(self, rec: TournamentRecord) -> list[Player]:
        """The entrants with their rating on the server's ladder of the game (else the global one;
        a newcomer: the ladder's starting number), for seeding: one query for the field."""
        scope = rec.guild_id or GLOBAL_SCOPE
        found = await RatingsRepository(self.db).standings(rec.game, [(scope, e.user_id) for e in rec.entrants])
        out = []
        for e in rec.entrants:
            standing = found.get((scope, e.user_id))
            out.append(Player(e.user_id, float(standing.display) if standing is not None else float(DISPLAY_BASE)))
        return out

    @staticmethod
    def _summary(rec: TournamentRecord) -> dict[str, Any]:
        return {
            "game": rec.game,
            "format": rec.format,
            "organizer": rec.organizer_id,
            "rounds": rec.settings.get("rounds"),
            "max_players": rec.max_players,
            "start_at": rec.start_at,
            "turn_time": rec.turn_time_seconds,
        }

    @staticmethod
    def _signup(rec: TournamentRecord) -> dict[str, Any]:
        return {
            "entrants": [{"id": e.user_id, "name": e.display_name} for e in rec.entrants],
            "count": len(rec.entrants),
            "max_players": rec.max_players,
        }

    @staticmethod
    def _standings(t: Tournament) -> dict[str, Any]:
        return {"round": t.current_round.number if t.current_round else 0, **t.standings().to_dict()}

    @staticmethod
    def _result_payload(m: Match, link: TournamentMatchRecord, result: Result | None) -> dict[str, Any]:
        out: dict[str, Any] = {"round": link.round, "pairing": m.id, "match_id": link.match_id}
        if result is not None:
            out["placements"] = {str(p): place for p, place in zip(m.seats, result.placements, strict=True)}
            out["timed_out"] = list(result.timed_out)
            out["kind"] = result.kind.value
        return out
