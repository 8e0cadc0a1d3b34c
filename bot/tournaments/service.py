"""The tournament service: a tournament from sign-up to champion, its matches played through the
match service. Discord-free; the ``/tournament`` commands and the tournament message build on it.

- State: everything is in the database (migration 0012, :mod:`db.tournaments`): the tournament row
  with the core's JSON snapshot (:class:`~bot.tournaments.tournament.Tournament`), its entrants, the
  link match -> (tournament, round, pairing) and an outbox of events
  (:mod:`bot.tournaments.events`, one typed payload per kind). Nothing lives only in memory: after
  a restart :meth:`TournamentService.recover` (and every :meth:`~TournamentService.tick`)
  reconciles each running tournament with its matches, so a result a crash left unrecorded is
  recorded and a round whose matches were not all made gets them.
- Matches are ordinary rated matches (:meth:`MatchService.arrange` / :meth:`start_arranged`: no
  challenge to accept), seat 0 as the core's pairing says. The match service tells this service
  that a match ended through its end observer (:meth:`MatchService.add_end_observer`), after the
  commit; the result goes into the core, and when every match of the round has ended the next
  round starts (or the tournament finishes). That work runs in the background
  (:meth:`~TournamentService.schedule`, one task per tournament), never on the path of the player
  whose move ended the round or of the organizer's command: see docs/tournaments.md, rule 30a;
  :meth:`~TournamentService.settle` waits for it, :meth:`~TournamentService.shutdown` stops it.
- Every change is one guarded write (the row's ``version``), with its events, under a lock per
  tournament in this process; a locked operation reads the row once and carries it along.

Rulings (docs/tournaments.md, "The service"): a forfeit by time is a loss and a missed match; an
abandoned match (nobody moved) is a loss by time for all its players; at the round deadline each
unfinished match is adjudicated: the seats the game is waiting on forfeit by time (the others are
not at fault), and if that does not end the game it is abandoned (not rated) with the players not
at fault sharing first place and those at fault last; a knock-out game drawn is replayed.

:class:`TournamentService` is a facade over parts, as the match service is
(:class:`bot.matches.MatchService`): one shared core,
:class:`~bot.tournaments.service_core.ServiceCore` (the database, the match service, the clock,
the lock and dirty flag per tournament, the reads and the guarded write); the background,
:class:`~bot.tournaments.service_background.Background` (one reconcile task per tournament, the
presentation's listeners and announcers); and the parts that hold the core and the parts they
call: :class:`~bot.tournaments.service_rounds.Rounds` (reconcile, record results, play and advance
rounds, the deadline, the match-end observer), :class:`~bot.tournaments.service_organizer.Organizer`
(sign-up, the organizer's controls, the planned start; it hands a started round to the rounds)
and :class:`~bot.tournaments.service_outbox.Outbox` (events and reads). The facade forwards each
public method to its part, with the same name and signature, and adds the timer
(:meth:`TournamentService.tick`) and :meth:`~TournamentService.recover`, which need several parts.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from bot.matches import MAX_TURN_SECONDS, MIN_TURN_SECONDS, MatchService, PlayerRef
from db import Database, MatchRecord
from db.tournaments import TournamentRecord, TournamentsRepository, TournamentStatus
from rules.core import Outcome

from .events import EVENT_KINDS, TournamentEvent
from .model import Format
from .service_background import Background
from .service_core import (
    ANYWHERE,
    DEAD,
    MAX_KNOCKOUT_GAMES,
    MAX_PLAYERS,
    OPEN,
    OVER,
    ServiceCore,
    TournamentView,
    Where,
    log,
)
from .service_organizer import Organizer
from .service_outbox import Outbox, TournamentResult
from .service_rounds import Rounds
from .tournament import DEFAULT_MISS_LIMIT, Tournament


class TournamentService:
    """A tournament from sign-up to champion (see the module docstring for its parts)."""

    def __init__(
        self,
        db: Database,
        matches: MatchService,
        *,
        clock: Callable[[], float] | None = None,
        seed_factory: Callable[[], int] | None = None,
    ) -> None:
        # the background runs this facade's reconcile, looked up when it runs
        self.background = Background(lambda tournament_id: self.reconcile(tournament_id))
        self.core = ServiceCore(db, matches, self.background.schedule, clock=clock, seed_factory=seed_factory)
        self.rounds = Rounds(self.core, self.background)
        self.organizer = Organizer(self.core, self.rounds)
        self.outbox = Outbox(self.core)
        matches.add_end_observer(self.rounds.match_ended)

    # -- the shared state ---------------------------------------------------------------------

    @property
    def db(self) -> Database:
        return self.core.db

    @property
    def repo(self) -> TournamentsRepository:
        return self.core.repo

    @property
    def matches(self) -> MatchService:
        return self.core.matches

    @property
    def seed_factory(self) -> Callable[[], int]:
        return self.core.seed_factory

    def now(self) -> int:
        return self.core.now()

    def close(self) -> None:
        """Stop listening to the match service (before it or the database closes)."""
        self.matches.remove_end_observer(self.rounds.match_ended)

    # -- reads (the core, the outbox) -----------------------------------------------------------

    async def record(self, tournament_id: int, guild_id: Where = ANYWHERE) -> TournamentRecord:
        """The tournament's row, named from ``guild_id`` (:meth:`ServiceCore.record`)."""
        return await self.core.record(tournament_id, guild_id)

    async def view(self, tournament_id: int, *, links: bool = True, guild_id: Where = ANYWHERE) -> TournamentView:
        """The tournament as stored (:meth:`ServiceCore.view`)."""
        return await self.core.view(tournament_id, links=links, guild_id=guild_id)

    def parsed(self, rec: TournamentRecord) -> Tournament | None:
        """The tournament core of ``rec``, the caller's own copy (:meth:`ServiceCore.parsed`)."""
        return self.core.parsed(rec)

    async def events(self, tournament_id: int, *, pending_only: bool = False) -> list[TournamentEvent]:
        """The tournament's events, oldest first, typed (:meth:`Outbox.events`)."""
        return await self.outbox.events(tournament_id, pending_only=pending_only)

    async def mark_delivered(self, event_ids: Sequence[int]) -> None:
        await self.outbox.mark_delivered(event_ids)

    async def with_pending_events(self) -> list[int]:
        """The tournaments with events not yet delivered (:meth:`Outbox.with_pending_events`)."""
        return await self.outbox.with_pending_events()

    async def open_tournaments(self) -> list[int]:
        """The tournaments in sign-up, running or paused (:meth:`Outbox.open_tournaments`)."""
        return await self.outbox.open_tournaments()

    async def set_message_id(self, tournament_id: int, message_id: int | None) -> TournamentRecord:
        """Remember the tournament's message (:meth:`Outbox.set_message_id`)."""
        return await self.outbox.set_message_id(tournament_id, message_id)

    async def history(self, guild_id: int, limit: int = 10, offset: int = 0) -> list[TournamentView]:
        """A page of the server's past tournaments (:meth:`Outbox.history`)."""
        return await self.outbox.history(guild_id, limit, offset)

    async def history_count(self, guild_id: int) -> int:
        return await self.outbox.history_count(guild_id)

    async def player_results(
        self, user_id: int, guild_id: int | None = None, limit: int = 10
    ) -> list[TournamentResult]:
        """The player's results in finished tournaments (:meth:`Outbox.player_results`)."""
        return await self.outbox.player_results(user_id, guild_id, limit)

    async def player_result_count(self, user_id: int, guild_id: int | None = None) -> int:
        return await self.outbox.player_result_count(user_id, guild_id)

    # -- sign-up and the organizer's controls (the organizer) ---------------------------------

    async def create(
        self,
        guild_id: int | None,
        channel_id: int | None,
        organizer_id: int,
        game: str,
        format: str | Format,
        *,
        rounds: int | None = None,
        options: Mapping[str, Any] | None = None,
        turn_time: int | None = None,
        max_players: int | None = None,
        start_at: int | None = None,
        third_place: bool = False,
        miss_limit: int | None = DEFAULT_MISS_LIMIT,
        round_seconds: int | None = None,
    ) -> TournamentRecord:
        """A tournament in sign-up, every argument validated first (:meth:`Organizer.create`)."""
        return await self.organizer.create(
            guild_id,
            channel_id,
            organizer_id,
            game,
            format,
            rounds=rounds,
            options=options,
            turn_time=turn_time,
            max_players=max_players,
            start_at=start_at,
            third_place=third_place,
            miss_limit=miss_limit,
            round_seconds=round_seconds,
        )

    async def join(self, tournament_id: int, player: PlayerRef, *, guild_id: Where = ANYWHERE) -> TournamentRecord:
        """Enter during the sign-up (:meth:`Organizer.join`)."""
        return await self.organizer.join(tournament_id, player, guild_id=guild_id)

    async def leave(self, tournament_id: int, user_id: int, *, guild_id: Where = ANYWHERE) -> TournamentRecord:
        """Leave during the sign-up (:meth:`Organizer.leave`)."""
        return await self.organizer.leave(tournament_id, user_id, guild_id=guild_id)

    async def start(
        self, tournament_id: int, user_id: int | None, *, is_manager: bool = False, guild_id: Where = ANYWHERE
    ) -> TournamentView:
        """Close the sign-up and start round 1 (:meth:`Organizer.start`)."""
        return await self.organizer.start(tournament_id, user_id, is_manager=is_manager, guild_id=guild_id)

    async def cancel(
        self, tournament_id: int, user_id: int, *, is_manager: bool = False, guild_id: Where = ANYWHERE
    ) -> TournamentRecord:
        """Stop the tournament for good (:meth:`Organizer.cancel`)."""
        return await self.organizer.cancel(tournament_id, user_id, is_manager=is_manager, guild_id=guild_id)

    async def pause(
        self, tournament_id: int, user_id: int, *, is_manager: bool = False, guild_id: Where = ANYWHERE
    ) -> TournamentRecord:
        """Hold the next round (:meth:`Organizer.pause`)."""
        return await self.organizer.pause(tournament_id, user_id, is_manager=is_manager, guild_id=guild_id)

    async def resume(
        self, tournament_id: int, user_id: int, *, is_manager: bool = False, guild_id: Where = ANYWHERE
    ) -> TournamentView:
        """Go on after a pause (:meth:`Organizer.resume`)."""
        return await self.organizer.resume(tournament_id, user_id, is_manager=is_manager, guild_id=guild_id)

    async def set_round_deadline(
        self,
        tournament_id: int,
        user_id: int,
        seconds: int | None,
        *,
        is_manager: bool = False,
        guild_id: Where = ANYWHERE,
    ) -> TournamentRecord:
        """Set (None: remove) the round time (:meth:`Organizer.set_round_deadline`)."""
        return await self.organizer.set_round_deadline(
            tournament_id, user_id, seconds, is_manager=is_manager, guild_id=guild_id
        )

    async def drop(
        self,
        tournament_id: int,
        user_id: int,
        player_id: int,
        *,
        is_manager: bool = False,
        guild_id: Where = ANYWHERE,
    ) -> TournamentView:
        """Drop a player (:meth:`Organizer.drop`)."""
        return await self.organizer.drop(tournament_id, user_id, player_id, is_manager=is_manager, guild_id=guild_id)

    # -- the rounds and the background ----------------------------------------------------------

    async def reconcile(self, tournament_id: int) -> None:
        """Bring the tournament up to date with its matches (:meth:`Rounds.reconcile`); what the
        background task runs."""
        await self.rounds.reconcile(tournament_id)

    async def match_ended(self, record: MatchRecord, outcome: Outcome | None) -> None:
        """The match service's end observer (:meth:`Rounds.match_ended`)."""
        await self.rounds.match_ended(record, outcome)

    def schedule(self, tournament_id: int) -> None:
        """Reconcile the tournament in the background, soon (:meth:`Background.schedule`)."""
        self.background.schedule(tournament_id)

    async def settle(self) -> None:
        """Wait until no tournament is being reconciled in the background (tests; shutdown)."""
        await self.background.settle()

    async def shutdown(self, grace: float = 5.0) -> None:
        """Stop scheduling and end the background work (:meth:`Background.shutdown`)."""
        await self.background.shutdown(grace)

    def add_listener(self, listener: Callable[[int], Awaitable[None]]) -> None:
        """Call ``listener(tournament_id)`` after each background reconcile (:meth:`Background.add_listener`)."""
        self.background.add_listener(listener)

    def remove_listener(self, listener: Callable[[int], Awaitable[None]]) -> None:
        self.background.remove_listener(listener)

    def add_announcer(self, announcer: Callable[[int], Awaitable[None]]) -> None:
        """Call ``announcer(tournament_id)`` before a round's matches start (:meth:`Background.add_announcer`)."""
        self.background.add_announcer(announcer)

    def remove_announcer(self, announcer: Callable[[int], Awaitable[None]]) -> None:
        self.background.remove_announcer(announcer)

    # -- time and recovery ------------------------------------------------------------------------

    async def tick(self, now: float | None = None) -> list[int]:
        """Start tournaments whose planned start passed (fewer than 2 players: cancelled),
        adjudicate rounds whose deadline passed, and schedule a reconcile of every running
        tournament with its matches (what a lost notice or a crash left behind) in the background:
        the timer does not wait for a round's matches to start (:meth:`settle` does). Returns the
        tournaments touched."""
        at = self.now() if now is None else int(now)
        touched: list[int] = []
        for tid in await self.repo.due(at):
            try:
                rec = await self.record(tid)
                if rec.status is TournamentStatus.SIGNUP:
                    await self.organizer.planned_start(rec)
                elif rec.status is TournamentStatus.RUNNING:
                    await self.rounds.deadline(tid, at)
                touched.append(tid)
            except Exception:
                log.exception("Tournament %s: the timer failed", tid)
        for tid in await self.repo.ids_with_status(TournamentStatus.RUNNING, TournamentStatus.PAUSED):
            self.schedule(tid)
        return touched

    async def recover(self) -> list[int]:
        """Start-up: schedule a reconcile of every running (or paused) tournament with its
        matches, in the background: the bot's start does not wait for a round's 32 matches to
        open their threads (:meth:`settle` waits; a failure is logged and the timer retries)."""
        ids = await self.repo.ids_with_status(TournamentStatus.RUNNING, TournamentStatus.PAUSED)
        for tid in ids:
            self.schedule(tid)
        return ids


__all__ = [
    "ANYWHERE",
    "DEAD",
    "EVENT_KINDS",
    "MAX_KNOCKOUT_GAMES",
    "MAX_PLAYERS",
    "MAX_TURN_SECONDS",
    "MIN_TURN_SECONDS",
    "OPEN",
    "OVER",
    "ServiceCore",
    "TournamentEvent",
    "TournamentResult",
    "TournamentService",
    "TournamentView",
]
