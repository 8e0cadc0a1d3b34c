"""The tournament service's shared core: what every part of the service uses (the database, the
match service, the clock, the lock and dirty flag per tournament), the row and view reads, and
the one guarded write. The parts (:mod:`.service_rounds`, :mod:`.service_organizer`,
:mod:`.service_outbox`) each hold this core; :class:`bot.tournaments.service.TournamentService` is
the facade over them.

A locked operation reads its tournament once (:meth:`ServiceCore.hold`) and passes the
:class:`Held` tournament along: each write of the operation (:meth:`ServiceCore.write`) brings it
up to date from what was written, so nothing reads the row again. The row's ``version`` still
guards every write: a change another process made meanwhile refuses the write
(:class:`~bot.tournaments.errors.WrongState`, "changed meanwhile").
"""

from __future__ import annotations

import asyncio
import enum
import logging
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from typing import Any, Final, TypeAlias

from bot.matches import MatchService
from bot.ratings import DISPLAY_BASE
from db import GLOBAL_SCOPE, Batch, Database, MatchStatus, RatingsRepository, StaleWrite
from db.tournaments import TournamentMatchRecord, TournamentRecord, TournamentsRepository, TournamentStatus

from .errors import NotOrganizer, TournamentNotFound, WrongState
from .events import EventData
from .model import Player
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


@dataclass
class Held:
    """A tournament inside one locked operation: its row as read once at the start
    (:meth:`ServiceCore.hold`) and then as the operation wrote it (:meth:`ServiceCore.write`),
    with its core, the operation's own to change and write."""

    record: TournamentRecord
    tournament: Tournament | None

    @property
    def id(self) -> int:
        return self.record.id


class ServiceCore:
    """State and helpers every part of the service shares."""

    def __init__(
        self,
        db: Database,
        matches: MatchService,
        schedule: Callable[[int], None],
        *,
        clock: Callable[[], float] | None = None,
        seed_factory: Callable[[], int] | None = None,
    ) -> None:
        self.db = db
        self.repo = TournamentsRepository(db)
        self.matches = matches
        #: reconcile a tournament in the background (:meth:`.service_background.Background.schedule`)
        self.schedule = schedule
        self._clock = clock
        self.seed_factory: Callable[[], int] = seed_factory or (lambda: secrets.randbits(31))
        self.locks: dict[int, asyncio.Lock] = {}
        #: tournaments a match ended for while they were busy: reconciled again (see :meth:`lock`)
        self.dirty: set[int] = set()
        #: tournament id -> (its stored state's text, that state parsed): never handed out, copied
        self._parsed: OrderedDict[int, tuple[str, Tournament]] = OrderedDict()

    def now(self) -> int:
        return int(self._clock() if self._clock is not None else self.matches.ctx.clock())

    # -- reads ------------------------------------------------------------------------------

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

    async def hold(self, tournament_id: int, guild_id: Where = ANYWHERE) -> Held:
        """The tournament for one locked operation: its row read (the operation's one read of
        it) and its core parsed (see :class:`Held`)."""
        rec = await self.record(tournament_id, guild_id)
        return Held(rec, self.parsed(rec))

    async def view_of(self, held: Held) -> TournamentView:
        """A held tournament with its matches' links (read now: the row is not read again)."""
        return TournamentView(held.record, held.tournament, tuple(await self.repo.links(held.id)))

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

    async def statuses(self, match_ids: Sequence[int]) -> dict[int, MatchStatus]:
        """The status of each match, in one query (a round's matches)."""
        return await self.repo.match_statuses(match_ids)

    async def players(self, rec: TournamentRecord) -> list[Player]:
        """The entrants with their rating on the server's ladder of the game (else the global one;
        a newcomer: the ladder's starting number), for seeding: one query for the field."""
        scope = rec.guild_id or GLOBAL_SCOPE
        found = await RatingsRepository(self.db).standings(rec.game, [(scope, e.user_id) for e in rec.entrants])
        out = []
        for e in rec.entrants:
            standing = found.get((scope, e.user_id))
            out.append(Player(e.user_id, float(standing.display) if standing is not None else float(DISPLAY_BASE)))
        return out

    # -- the lock and the write -------------------------------------------------------------

    @asynccontextmanager
    async def lock(self, tournament_id: int) -> AsyncIterator[None]:
        """The tournament's lock in this process. A match that ends while it is held (inside a
        call the tournament makes, or in another task) only marks the tournament dirty (see
        :meth:`bot.tournaments.service_rounds.Rounds.reconcile`); when the holder lets go, a dirty
        tournament is reconciled in the background (:attr:`schedule`), not by the holder. The
        check and the release have no await between them, so no end is left behind."""
        lock = self.locks.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            yield
            if tournament_id in self.dirty:
                self.schedule(tournament_id)

    def busy(self, tournament_id: int) -> bool:
        """Whether the tournament's lock is held (by this task or another)."""
        lock = self.locks.get(tournament_id)
        return lock is not None and lock.locked()

    async def write(
        self,
        held: Held,
        at: int,
        events: Sequence[EventData],
        *,
        batch: Batch | None = None,
        after: Callable[[TournamentRecord], list[EventData]] | None = None,
        tournament: Tournament | None = None,
        **changes: Any,
    ) -> TournamentRecord:
        """One guarded write: ``batch``'s statements, the row's ``changes`` (version bumped) and the
        events; ``tournament``: the core's new state, stored (and kept parsed, :meth:`parsed`).
        ``held`` becomes the row as written, made here from what was written (not read back);
        ``after``: events computed from the row as written, read back since the batch changed
        its entrants (a join or a leave), in a second commit. Returns the row as written."""
        rec = held.record
        batch = batch if batch is not None else Batch()
        if tournament is not None:
            changes["state"] = tournament.to_json()
        TournamentsRepository.update(batch, rec, at, **changes)
        for event in events:
            TournamentsRepository.add_event(batch, rec.id, event.KIND, event.to_json(), at)
        try:
            await self.repo.write(batch)
        except StaleWrite as exc:
            raise WrongState(f"Tournament #{rec.id} changed meanwhile; please try again.") from exc
        if tournament is not None:
            self._remember(rec.id, changes["state"], tournament.copy())
            held.tournament = tournament
        if after is None:
            held.record = replace(rec, version=rec.version + 1, updated_at=at, **changes)
            return held.record
        held.record = fresh = await self.record(rec.id)
        extra = after(fresh)
        if extra:
            batch = Batch()
            for event in extra:
                TournamentsRepository.add_event(batch, rec.id, event.KIND, event.to_json(), at)
            await self.repo.write(batch)
        return fresh

    # -- checks -----------------------------------------------------------------------------

    @staticmethod
    def require_organizer(rec: TournamentRecord, user_id: int | None, is_manager: bool, what: str) -> None:
        if user_id is None or is_manager or user_id == rec.organizer_id:
            return
        raise NotOrganizer(f"Only the organizer or a server manager can {what} tournament #{rec.id}.")

    @staticmethod
    def closed(rec: TournamentRecord) -> str:
        return {
            TournamentStatus.SIGNUP: "is in sign-up",
            TournamentStatus.RUNNING: "has already started",
            TournamentStatus.PAUSED: "has already started (paused)",
            TournamentStatus.FINISHED: "is over",
            TournamentStatus.CANCELLED: "was cancelled",
        }[rec.status]


__all__ = [
    "ANYWHERE",
    "DEAD",
    "MAX_KNOCKOUT_GAMES",
    "MAX_PLAYERS",
    "MAX_TOURNAMENT_ID",
    "OPEN",
    "OVER",
    "PARSED_CACHE_SIZE",
    "Held",
    "ServiceCore",
    "TournamentView",
    "Where",
    "log",
]
