"""The tournament service: a tournament from sign-up to champion, its matches played through the
match service. Discord-free; the ``/tournament`` commands and the tournament message build on it.

- State: everything is in the database (migration 0012, :mod:`db.tournaments`): the tournament row
  with the core's JSON snapshot (:class:`~bot.tournaments.tournament.Tournament`), its entrants, the
  link match -> (tournament, round, pairing) and an outbox of events. Nothing lives only in memory:
  after a restart :meth:`TournamentService.recover` (and every :meth:`tick`) reconciles each running
  tournament with its matches, so a result a crash left unrecorded is recorded and a round whose
  matches were not all made gets them.
- Matches are ordinary rated matches (:meth:`MatchService.arrange` / :meth:`start_arranged`: no
  challenge to accept), seat 0 as the core's pairing says. The match service tells this service
  that a match ended through its end observer (:meth:`MatchService.add_end_observer`), after the
  commit; the result goes into the core, and when every match of the round has ended the next
  round starts (or the tournament finishes). That work runs in the background
  (:meth:`~bot.tournaments.service_base.ServiceCore.schedule`, one task per tournament), never on
  the path of the player whose move ended the round or of the organizer's command: see
  docs/tournaments.md, rule 30a; :meth:`settle` waits for it, :meth:`shutdown` stops it.
- Every change is one guarded write (the row's ``version``), with its events, under a lock per
  tournament in this process.

Rulings (docs/tournaments.md, "The service"): a forfeit by time is a loss and a missed match; an
abandoned match (nobody moved) is a loss by time for all its players; at the round deadline each
unfinished match is adjudicated: the seats the game is waiting on forfeit by time (the others are
not at fault), and if that does not end the game it is abandoned (not rated) with the players not
at fault sharing first place and those at fault last; a knock-out game drawn is replayed.

The service is split by responsibility into mixins over one shared core
(:class:`~bot.tournaments.service_base.ServiceCore`: the database, the match service, the locks
and the guarded write): :class:`~bot.tournaments.service_rounds.Rounds` (reconcile, record
results, play and advance rounds, the deadline), :class:`~bot.tournaments.service_organizer.Organizer`
(sign-up and the organizer's controls) and :class:`~bot.tournaments.service_outbox.Outbox` (events
and reads). *Why mixins rather than a facade holding parts:* the parts share one state (a lock and
a dirty flag per tournament that the engine re-checks before a lock is let go) and call one another
inside one locked operation (``start`` pairs round 1 through the engine, the engine writes through
the core); as mixins they stay one object with one ``self``, so no call is forwarded and every
method keeps its name and signature. This module adds only what needs every part: the timer
(:meth:`TournamentService.tick`) and :meth:`~TournamentService.recover` (the shared core's
constructor registers the match-end observer).
"""

from __future__ import annotations

from bot.matches import MAX_TURN_SECONDS, MIN_TURN_SECONDS
from db.tournaments import TournamentRecord, TournamentStatus

from .errors import TournamentError
from .service_base import (
    DEAD,
    EVENT_KINDS,
    MAX_KNOCKOUT_GAMES,
    MAX_PLAYERS,
    OPEN,
    OVER,
    ServiceCore,
    TournamentView,
    log,
)
from .service_organizer import Organizer
from .service_outbox import Outbox, TournamentResult
from .service_rounds import Rounds


class TournamentService(Organizer, Rounds, Outbox):
    """A tournament from sign-up to champion (see the module docstring for its parts)."""

    def close(self) -> None:
        """Stop listening to the match service (before it or the database closes)."""
        self.matches.remove_end_observer(self.match_ended)

    # -----------------------------------------------------------------------------------------
    # time and recovery
    # -----------------------------------------------------------------------------------------

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
                    await self._planned_start(rec)
                elif rec.status is TournamentStatus.RUNNING:
                    await self._deadline(tid, at)
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

    async def _planned_start(self, rec: TournamentRecord) -> None:
        if len(rec.entrants) < 2:
            async with self._lock(rec.id):
                fresh = await self.record(rec.id)
                if fresh.status is TournamentStatus.SIGNUP:
                    await self._write(
                        fresh,
                        self.now(),
                        [("cancelled", {"by": None, "reason": "fewer than 2 players at the planned start"})],
                        status=TournamentStatus.CANCELLED,
                        finished_at=self.now(),
                        start_at=None,
                    )
            return
        try:
            await self.start(rec.id, None, is_manager=True)
        except TournamentError as exc:
            log.info("Tournament %s could not start at its planned time: %s", rec.id, exc)
            async with self._lock(rec.id):
                fresh = await self.record(rec.id)
                if fresh.status is TournamentStatus.SIGNUP:
                    await self._write(
                        fresh,
                        self.now(),
                        [("cancelled", {"by": None, "reason": str(exc)})],
                        status=TournamentStatus.CANCELLED,
                        finished_at=self.now(),
                        start_at=None,
                    )


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
    "TournamentResult",
    "TournamentService",
    "TournamentView",
]
