"""The tournament service's shared core: its state (database, match service, locks), the row and
view reads, the one guarded write, and the payloads its events carry. The parts of the service
(:mod:`.service_rounds`, :mod:`.service_organizer`, :mod:`.service_outbox`) are mixins over
:class:`ServiceCore`; :class:`bot.tournaments.service.TournamentService` combines them.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from bot.matches import MAX_TURN_SECONDS, MIN_TURN_SECONDS, MatchService
from bot.ratings import DISPLAY_BASE
from db import GLOBAL_SCOPE, Batch, Database, MatchStatus, RatingsRepository, StaleWrite
from db.tournaments import TournamentMatchRecord, TournamentRecord, TournamentsRepository, TournamentStatus

from .errors import NotOrganizer, TournamentNotFound, WrongState
from .model import Match, Player, Result
from .tournament import Tournament

log = logging.getLogger("bot.tournaments")

#: The most players a tournament takes (the core pairs 256 in well under a second).
MAX_PLAYERS = 256
#: Games a two-player knock-out pairing plays while they are drawn; then the better seed goes through.
MAX_KNOCKOUT_GAMES = 3

OVER = (MatchStatus.FINISHED, MatchStatus.ABANDONED)
DEAD = (MatchStatus.EXPIRED, MatchStatus.CANCELLED, MatchStatus.DECLINED)
OPEN = (TournamentStatus.SIGNUP, TournamentStatus.RUNNING, TournamentStatus.PAUSED)

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

    def now(self) -> int:
        return int(self._clock() if self._clock is not None else self.matches.ctx.clock())

    async def record(self, tournament_id: int) -> TournamentRecord:
        found = await self.repo.get(tournament_id)
        if found is None:
            raise TournamentNotFound(f"There is no tournament #{tournament_id}.")
        return found

    async def view(self, tournament_id: int) -> TournamentView:
        rec = await self.record(tournament_id)
        t = Tournament.from_json(rec.state) if rec.state is not None else None
        return TournamentView(rec, t, tuple(await self.repo.links(tournament_id)))

    async def _reconcile(self, tournament_id: int) -> None:
        """Bring the tournament up to date with its matches (lock held): the engine's,
        :class:`bot.tournaments.service_rounds.Rounds`."""
        raise NotImplementedError

    @asynccontextmanager
    async def _lock(self, tournament_id: int) -> AsyncIterator[None]:
        """The tournament's lock in this process. A match that ends while it is held (inside a
        call the tournament makes, or in another task) only marks the tournament dirty (see
        :meth:`reconcile`); the holder reconciles before it lets go. The check and the release
        have no await between them, so no end is left behind."""
        lock = self._locks.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            yield
            if tournament_id in self._dirty:
                await self._reconcile(tournament_id)

    async def _write(
        self,
        rec: TournamentRecord,
        at: int,
        events: Sequence[tuple[str, Mapping[str, Any]]],
        *,
        batch: Batch | None = None,
        after: Callable[[TournamentRecord], list[tuple[str, dict[str, Any]]]] | None = None,
        **changes: Any,
    ) -> TournamentRecord:
        """One guarded write: ``batch``'s statements, the row's ``changes`` (version bumped) and the
        events; ``after``: events computed from the row as written (run after a first commit)."""
        batch = batch if batch is not None else Batch()
        TournamentsRepository.update(batch, rec, at, **changes)
        for kind, payload in events:
            TournamentsRepository.add_event(batch, rec.id, kind, payload, at)
        try:
            await self.repo.write(batch)
        except StaleWrite as exc:
            raise WrongState(f"Tournament #{rec.id} changed meanwhile; please try again.") from exc
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
        a newcomer: the ladder's starting number), for seeding."""
        ratings = RatingsRepository(self.db)
        scope = rec.guild_id or GLOBAL_SCOPE
        out = []
        for e in rec.entrants:
            found = await ratings.get(scope, rec.game, e.user_id)
            out.append(Player(e.user_id, float(found.display) if found is not None else float(DISPLAY_BASE)))
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


__all__ = [
    "DEAD",
    "EVENT_KINDS",
    "MAX_KNOCKOUT_GAMES",
    "MAX_PLAYERS",
    "MAX_TURN_SECONDS",
    "MIN_TURN_SECONDS",
    "OPEN",
    "OVER",
    "ServiceCore",
    "TournamentView",
]
