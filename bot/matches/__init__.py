"""MatchService: the Discord-free orchestration of challenges, moves, deadlines and recovery.

The service is generic over games (``rules.registry``) and a facade over small parts that share
one :class:`~bot.matches.context.Context`:

- ``lobby``: challenges and open tables up to the start of a match;
- ``moves``: submit, forfeit, prompts and views (one transaction per move);
- ``deadlines``: the timer tick, reminders, time-outs and abandonment;
- ``store``: the live matches in memory, their locks, loading from a snapshot and the log;
- ``notify``: the Notifier protocol and the durable outbox of notices;
- ``leftovers``: the notices a crash or a dead process left in the outbox, delivered by the timer;
- ``computer``: computer players (practice matches) thinking in a process pool, and hints;
- ``review``: a practice match's review (the player's moves that cost most), in the same pool;
- ``ending``: a match that is over, everything revealed, with its placements and rating changes
  (the end-of-match card), its log, and its rematch.

The database is the source of truth. Each change commits its log entries, deadlines and the
notices players must get in one transaction, is acknowledged, and only then are the notices
handed to the notifier (in commit order, outside the match lock). Notices left undelivered by a
crash are delivered at the next start-up (:meth:`MatchService.recover`), which otherwise loads
nothing: a live match is rebuilt on its first touch.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal

from db import Database, MatchRecord, MatchStatus
from rules.core import ActionModel, Event, Forfeit, Outcome
from rules.errors import RulesError
from rules.warm import warm_up

from .computer import Computer, Hint
from .context import Context, log
from .deadlines import Deadlines
from .ending import Ending, Endings, Placed, ordinal
from .errors import (
    Conflict,
    InvalidChallenge,
    MatchError,
    MatchNotFound,
    NoHint,
    NoReview,
    NotAPlayer,
    NotSaved,
    StalePrompt,
    WrongStatus,
)
from .leftovers import Leftovers
from .lobby import MAX_TURN_SECONDS, MIN_TURN_SECONDS, Lobby, check_turn_time
from .moves import CONFLICT_RETRIES, Moves, require_seat
from .notify import Notifier, NullNotifier
from .results import AcceptResult, MoveResult, PlayerRef, SeatPrompt, TickReport, TimeoutResult
from .review import MatchReview, ReviewMoment, Reviews
from .store import LiveMatch, Store, engine_fingerprint, with_seats

#: Seconds between two runs of the timer (:meth:`MatchService.run_timers`; ``TIMER_SECONDS``).
TIMER_SECONDS = 5.0

if TYPE_CHECKING:
    from bot.servers import ServersService
    from bot.settings import Settings

#: Told that a match ended: its record as committed and its outcome (None: abandoned). Called
#: after the commit and after the notifier's own notice (finished, or the abandonment time-out),
#: outside the match lock; also for a notice a crash left undelivered, at the next start-up.
MatchEndObserver = Callable[[MatchRecord, Outcome | None], Awaitable[None]]


class _Observed:
    """The notifier the service installs in its context: every notice goes to the notifier the
    Discord layer set (``MatchService.notifier``), then the end of a match to the observers (an
    observer's failure is logged and stops no other)."""

    def __init__(self, inner: Notifier, observers: list[MatchEndObserver]) -> None:
        self.inner = inner
        self.observers = observers

    async def on_started(self, record: MatchRecord, events: Sequence[Event], view: Mapping[str, Any]) -> None:
        await self.inner.on_started(record, events, view)

    async def on_events(self, record: MatchRecord, events: Sequence[Event], view: Mapping[str, Any]) -> None:
        await self.inner.on_events(record, events, view)

    async def on_prompt(self, record: MatchRecord, prompt: SeatPrompt) -> bool | None:
        return await self.inner.on_prompt(record, prompt)

    async def on_reminder(self, record: MatchRecord, seat: int, deadline: int) -> None:
        await self.inner.on_reminder(record, seat, deadline)

    async def on_timeout(self, record: MatchRecord, seat: int, result: TimeoutResult) -> None:
        try:
            await self.inner.on_timeout(record, seat, result)
        finally:
            if result is TimeoutResult.ABANDONED:
                await self.ended(record, None)

    async def on_finished(self, record: MatchRecord, outcome: Outcome) -> None:
        try:
            await self.inner.on_finished(record, outcome)
        finally:
            await self.ended(record, outcome)

    async def on_challenge_expired(self, record: MatchRecord) -> None:
        await self.inner.on_challenge_expired(record)

    async def ended(self, record: MatchRecord, outcome: Outcome | None) -> None:
        for observer in list(self.observers):
            try:
                await observer(record, outcome)
            except Exception:
                log.exception("A match-end observer failed for match %s", record.id)


class MatchService:
    """Challenges, moves, deadlines and recovery for every game in ``rules.registry``."""

    def __init__(
        self,
        db: Database,
        *,
        notifier: Notifier | None = None,
        clock: Callable[[], float] = time.time,
        challenge_timeout_seconds: int = 900,
        move_timeout_seconds: int = 3600,
        reminder_before_seconds: int = 300,
        seed_factory: Callable[[], int] | None = None,
        cache_size: int = 20_000,
        idle_after_seconds: float = 300.0,
        servers: ServersService | None = None,
        ai_workers: int = 1,
        ai_think_seconds: float = 20.0,
        ai_pace_seconds: float = 1.2,
        ai_executor: concurrent.futures.Executor | None = None,
        handoff: bool = False,
    ) -> None:
        """``handoff``: this process delivers no notice (``python -m bot web``, beside the bot's
        processes on PostgreSQL): its moves' notices stay in the outbox, unclaimed, and a bot
        process's timer delivers them (``Leftovers.claim_orphans``)."""
        self.db = db
        self.store = Store(db, cache_size=cache_size, idle_after=idle_after_seconds, handoff=handoff)
        self._end_observers: list[MatchEndObserver] = []
        self._observed = _Observed(notifier if notifier is not None else NullNotifier(), self._end_observers)
        self.ctx = Context(
            db=db,
            store=self.store,
            notifier=self._observed,
            clock=clock,
            seed_factory=seed_factory or (lambda: secrets.randbits(63)),
            challenge_timeout=challenge_timeout_seconds,
            move_timeout=move_timeout_seconds,
            reminder_before=reminder_before_seconds,
            servers=servers,
        )
        self.moves = Moves(self.ctx)
        self.lobby = Lobby(self.ctx, self.moves)
        self.deadlines = Deadlines(self.ctx, self.moves, self.lobby)
        self.endings = Endings(self.ctx, self.moves.rater)
        self.computer = Computer(
            self.ctx,
            self.moves,
            workers=ai_workers,
            think_limit=ai_think_seconds,
            pace=ai_pace_seconds,
            executor=ai_executor,
        )
        self.ctx.on_computer = self.computer.prompted
        self.reviews = Reviews(self.ctx, self.computer, self.endings)
        self.leftovers = Leftovers(self.ctx)

    @classmethod
    def from_settings(
        cls,
        db: Database,
        settings: Settings,
        *,
        notifier: Notifier | None = None,
        clock: Callable[[], float] = time.time,
        servers: ServersService | None = None,
        handoff: bool = False,
    ) -> MatchService:
        return cls(
            db,
            notifier=notifier,
            clock=clock,
            servers=servers,
            handoff=handoff,
            challenge_timeout_seconds=settings.challenge_timeout_seconds,
            move_timeout_seconds=settings.move_timeout_seconds,
            reminder_before_seconds=settings.reminder_before_seconds,
            ai_workers=settings.ai_workers,
            ai_think_seconds=settings.ai_think_seconds,
            ai_pace_seconds=settings.ai_pace_seconds,
        )

    # -- the shared settings, adjustable after construction (the Discord layer installs its notifier)
    @property
    def notifier(self) -> Notifier:
        return self._observed.inner

    @notifier.setter
    def notifier(self, value: Notifier) -> None:
        self._observed.inner = value

    def add_end_observer(self, observer: MatchEndObserver) -> None:
        """Call ``observer`` whenever a match ends (see :data:`MatchEndObserver`); the tournament
        service registers one, so this package never imports it."""
        if observer not in self._end_observers:
            self._end_observers.append(observer)

    def remove_end_observer(self, observer: MatchEndObserver) -> None:
        if observer in self._end_observers:
            self._end_observers.remove(observer)

    @property
    def _clock(self) -> Callable[[], float]:
        return self.ctx.clock

    @_clock.setter
    def _clock(self, value: Callable[[], float]) -> None:
        self.ctx.clock = value

    @property
    def _seed_factory(self) -> Callable[[], int]:
        return self.ctx.seed_factory

    @_seed_factory.setter
    def _seed_factory(self, value: Callable[[], int]) -> None:
        self.ctx.seed_factory = value

    @property
    def challenge_timeout(self) -> int:
        return self.ctx.challenge_timeout

    @property
    def move_timeout(self) -> int:
        return self.ctx.move_timeout

    @property
    def reminder_before(self) -> int:
        return self.ctx.reminder_before

    # -- lobby --------------------------------------------------------------------------------
    async def create_challenge(
        self,
        game: str,
        options: Mapping[str, Any] | None,
        guild_id: int | None,
        channel_id: int | None,
        challenger: PlayerRef,
        opponents: Sequence[PlayerRef],
        *,
        open_table: bool = False,
        computers: Sequence[str] = (),
    ) -> MatchRecord:
        """A pending challenge (seat 0 is the challenger, then the opponents in order, then a
        computer player per level in ``computers``) expiring after the challenge timeout. With
        ``open_table`` anyone may join until the host starts it or it is full (see :meth:`join`).
        Game, seat count and options are validated by the game (rules errors propagate:
        ValueErrors with readable messages). A challenge with computer players is a practice
        match (unrated); the computers have accepted."""
        return await self.lobby.create_challenge(
            game, options, guild_id, channel_id, challenger, opponents, open_table=open_table, computers=computers
        )

    async def practice(
        self,
        game: str,
        options: Mapping[str, Any] | None,
        guild_id: int | None,
        channel_id: int | None,
        player: PlayerRef,
        level: str = "normal",
        computers: int = 1,
    ) -> MatchRecord:
        """A practice match of ``player`` against ``computers`` computer players at ``level``,
        ready to start (:meth:`start_if_ready`) once the Discord layer has posted its message."""
        if not computers >= 1:
            raise InvalidChallenge("A practice match needs at least one computer player.")
        return await self.lobby.create_challenge(
            game, options, guild_id, channel_id, player, (), computers=[level] * computers
        )

    async def start_if_ready(self, match_id: int) -> AcceptResult:
        """Start a pending match in which every seat has accepted (a practice match); otherwise
        return it unchanged."""
        return await self.lobby.start_if_ready(match_id)

    async def arrange(
        self,
        game: str,
        options: Mapping[str, Any] | None,
        guild_id: int | None,
        channel_id: int | None,
        players: Sequence[PlayerRef],
        turn_time: int | None = None,
    ) -> MatchRecord:
        """A match between these players, seated in this order (seat 0 first), that nobody has to
        accept (a tournament's pairing): pending until :meth:`start_arranged`, so the caller can
        record its id first. Validated like a challenge; a rated match like any other.
        ``turn_time``: the match's own seconds per move (a tournament's turn time,
        :data:`MIN_TURN_SECONDS` to :data:`MAX_TURN_SECONDS`); None: the server's /settings turn
        time, else the bot's. A bad value raises InvalidChallenge and nothing is written."""
        if len(players) < 1:
            raise InvalidChallenge("An arranged match needs its players.")
        return await self.lobby.create_challenge(
            game, options, guild_id, channel_id, players[0], players[1:], turn_time=turn_time
        )

    async def start_arranged(self, match_id: int) -> AcceptResult:
        """Start an arranged match: every seat that has not accepted yet accepts (as its player
        would), the last acceptance starts it (seed, opening, deadlines, prompts: as any start).
        A match already started is returned as it is; a closed one raises WrongStatus."""
        record = await self.store.record(match_id)
        if record.status is MatchStatus.ACTIVE:
            return AcceptResult(record, started=False)
        for seat in record.seats:
            if not seat.accepted and seat.user_id != record.challenger_id:
                result = await self.lobby.accept(match_id, seat.user_id)
                if result.started:
                    return result
        return await self.lobby.start_if_ready(match_id)

    async def adjudicate(self, match_id: int, seats: Sequence[int]) -> MatchRecord:
        """End a live match now (a tournament's round deadline): each of ``seats`` forfeits by
        time, as if its turn time ran out now (a seat already out is skipped), while the match goes
        on; a match still going on after that is abandoned (not rated). Returns the match as it
        ended (a match not live is returned as it is). The end reaches the observers as usual."""
        for attempt in range(CONFLICT_RETRIES):
            try:
                async with self.ctx.session(match_id) as delivery:
                    now = self.ctx.now()
                    for seat in seats:
                        found = await self.ctx.load(match_id, delivery)
                        if not isinstance(found, LiveMatch):
                            break
                        try:
                            await self.moves.play(
                                found,
                                seat,
                                Forfeit(reason="timeout"),
                                delivery,
                                now=now,
                                auto=True,
                                timeout=TimeoutResult.FORFEIT,
                            )
                        except RulesError:
                            log.info("Seat %s of match %s could not forfeit (already out)", seat, match_id)
                    found = await self.ctx.load(match_id, delivery)
                    if isinstance(found, LiveMatch):
                        await self.deadlines.abandon(found, seats[0] if seats else 0, now, delivery)
                break
            except Conflict:  # another process wrote the match meanwhile: look again (it reloads)
                if attempt == CONFLICT_RETRIES - 1:
                    raise
        return await self.store.record(match_id)

    async def hint(self, match_id: int, user_id: int, seat_step: int | None = None) -> Hint:
        """In a practice match: what the AI would play for the user's awaited seat, and their
        estimated chance to win from here (NoHint, StalePrompt or WrongStatus otherwise)."""
        return await self.computer.hint(match_id, user_id, seat_step)

    async def review(self, match_id: int, user_id: int, guild_id: int | None) -> MatchReview:
        """A practice match that is over, asked from ``guild_id`` (None: a DM): the user's moves
        whose chance dropped most, with the computer's move (NoReview, NotAPlayer, WrongStatus or
        MatchNotFound otherwise; see ``review``)."""
        return await self.reviews.review(match_id, user_id, guild_id)

    async def accept(self, match_id: int, user_id: int) -> AcceptResult:
        """A challenged player accepts. When every seat has accepted (and an open table is full)
        the match starts: the seed is drawn, the opening chance resolved and every log entry
        committed before this returns."""
        return await self.lobby.accept(match_id, user_id)

    async def join(self, match_id: int, user_id: int, name: str) -> AcceptResult:
        """Take a free seat at an open table. The seat that fills the table starts the match."""
        return await self.lobby.join(match_id, user_id, name)

    async def leave(self, match_id: int, user_id: int) -> MatchRecord:
        """A seated player other than the host leaves a pending challenge (declining it, if they
        were invited). If too few players remain for an invitation-only challenge, it is declined.
        The host leaving withdraws the challenge."""
        return await self.lobby.leave(match_id, user_id)

    async def decline(self, match_id: int, user_id: int) -> MatchRecord:
        """A challenged player declines (the challenger declining withdraws the challenge)."""
        return await self.lobby.leave(match_id, user_id)

    async def start_now(self, match_id: int, user_id: int) -> AcceptResult:
        """The host starts the match with the players who have accepted so far (at least the
        game's minimum); invited players who have not accepted are left out."""
        return await self.lobby.start_now(match_id, user_id)

    async def cancel(self, match_id: int, user_id: int) -> MatchRecord:
        """The challenger withdraws a pending challenge."""
        return await self.lobby.cancel(match_id, user_id)

    async def check_lobby_op(self, match_id: int, user_id: int, op: str) -> None:
        """Raise the error ``op`` (accept, decline, leave, join, start) would raise for this user,
        changing nothing: a lobby button refuses before it defers."""
        await self.lobby.check(match_id, user_id, op)

    async def expire_due(self, now: float | None = None) -> list[MatchRecord]:
        """Expire every pending challenge whose time is up; return them."""
        return await self.lobby.expire_due(now)

    # -- moves --------------------------------------------------------------------------------
    async def submit(
        self,
        match_id: int,
        user_id: int,
        action: Mapping[str, Any] | ActionModel,
        *,
        seat_step: int | None,
    ) -> MoveResult:
        """Apply ``user_id``'s action and commit it. ``seat_step`` is the number of actions the
        seat had taken when its prompt was made (None skips the check, e.g. a typed command);
        a mismatch raises :class:`StalePrompt` and changes nothing. Rules errors propagate with
        nothing changed; :class:`NotSaved` means the database refused the move."""
        return await self.moves.submit(match_id, user_id, action, seat_step=seat_step)

    async def forfeit(self, match_id: int, user_id: int, reason: Literal["resign", "left"] = "resign") -> MoveResult:
        """The user's seat forfeits (through the same path as a move)."""
        return await self.moves.forfeit(match_id, user_id, reason)

    async def prompt(self, match_id: int, seat: int) -> SeatPrompt:
        """Everything a private prompt for ``seat`` needs, consistent at one instant."""
        return await self.moves.prompt(match_id, seat)

    async def view(self, match_id: int, seat: int | None) -> Mapping[str, Any]:
        """What ``seat`` may see (None: a spectator)."""
        return await self.moves.view(match_id, seat)

    async def seat_step(self, match_id: int, seat: int) -> int:
        """How many actions ``seat`` has taken in the match so far."""
        return await self.moves.seat_step(match_id, seat)

    # -- the end ------------------------------------------------------------------------------
    async def ending(self, match_id: int, *, wait: float = 0.0) -> Ending:
        """A match that is over with everything revealed, its placements and its rating changes
        (waiting up to ``wait`` seconds for them); WrongStatus for a match not over."""
        return await self.endings.get(match_id, wait=wait)

    async def match_log(self, match_id: int) -> dict[str, Any]:
        """The replayable JSON log of a match that is over (WrongStatus otherwise)."""
        return await self.endings.log_of(match_id)

    async def rematch(self, match_id: int, user_id: int) -> MatchRecord:
        """A player of a match that is over challenges its other players again: same game and
        options, seats rotated; the others must accept. Refused while a rematch is pending."""
        return await self.endings.rematch(match_id, user_id)

    # -- timers ---------------------------------------------------------------------------------
    async def tick(self, now: float | None = None) -> TickReport:
        """One run of the timer, the one the running bot's timer loop (:meth:`run_timers`) makes:
        deliver what a crash left undelivered (found by :meth:`recover`) and, with several
        processes, the notices a dead process had claimed once their lease has ended (see
        leftovers); expire challenges, handle timed-out seats, send due reminders (see
        deadlines); then resume the computer players a restart left waiting."""
        if self.store.shared:
            await self.leftovers.claim_orphans()
        if self.leftovers.pending:
            await self.leftovers.deliver()
        report = await self.deadlines.tick(now)
        await self.computer.resume()
        return report

    async def run_timers(
        self,
        interval: float = TIMER_SECONDS,
        *,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
        stop: asyncio.Event | None = None,
    ) -> None:
        """Call :meth:`tick` now and then every ``interval`` seconds until ``stop`` is set (or
        cancelled). A failing tick is logged and the loop goes on."""
        while stop is None or not stop.is_set():
            try:
                await self.tick()
            except Exception:
                log.exception("Timer tick failed")
            await sleep(interval)

    # -- start-up -------------------------------------------------------------------------------
    async def recover(self) -> list[int]:
        """Start-up: read the index of live matches and the notices a crash left in the outbox, and
        return the live matches' ids. Nothing else is loaded: a live match is rebuilt on its first
        touch. The leftover notices are delivered by the first :meth:`tick` (the timer loop's first
        run, right after start-up, once the client is connected): in order, a prompt that is no
        longer current skipped. Deadlines that passed meanwhile are handled by that tick too.

        Every game is warmed first (:func:`rules.warm.warm_up`: loaded and played a few steps in
        memory), so the first move of each game after a restart costs what any first touch of a
        match costs, not the game's import and first-use caches."""
        took = warm_up()
        engine_fingerprint()  # (hashes the rules' files once: the first snapshot check needs it)
        if any(took.values()):
            log.info("games warmed in %.2f s", sum(took.values()))
        await self.leftovers.load()
        await self.moves.rater.catch_up_all()  # finished matches whose rating a crash interrupted
        return await self.store.repo.live_ids()

    async def deliver_leftovers(self) -> int:
        """Deliver the notices :meth:`recover` found undelivered; returns how many were due."""
        return await self.leftovers.deliver()

    # -- queries --------------------------------------------------------------------------------
    async def get(self, match_id: int) -> MatchRecord:
        return await self.store.record(match_id)

    async def live_matches_for(self, user_id: int, *, include_pending: bool = True) -> list[MatchRecord]:
        """The user's active matches (and pending challenges), oldest first."""
        statuses = [MatchStatus.PENDING, MatchStatus.ACTIVE] if include_pending else [MatchStatus.ACTIVE]
        return await self.db.matches.for_user(user_id, statuses)

    async def seat_of(self, match_id: int, user_id: int) -> int:
        """The user's seat, or NotAPlayer."""
        return require_seat(await self.store.record(match_id), user_id)

    async def set_dm_ok(self, match_id: int, user_id: int, ok: bool | None) -> None:
        seat = await self.seat_of(match_id, user_id)
        await self.db.seats.set_dm_ok(match_id, seat, ok)
        live = self.store.cached(match_id)
        if live is not None:
            live.record = with_seats(live.record, dm_ok={seat: ok})

    async def set_message_id(self, match_id: int, message_id: int | None) -> None:
        await self.store.record(match_id)
        await self.db.matches.set_message_id(match_id, message_id)
        live = self.store.cached(match_id)
        if live is not None:
            live.record = replace(live.record, message_id=message_id)

    async def settle(self) -> None:
        """Wait for the work that follows acknowledgements (the ratings of finished matches)."""
        await self.moves.rater.settle()

    async def computers_settle(self) -> None:
        """Wait until no computer player is thinking (its moves played)."""
        await self.computer.settle()

    async def close(self) -> None:
        """Stop the computer players, finish the pending ratings and delete the notices delivered
        since the last write (before the database closes)."""
        await self.reviews.close()
        await self.computer.close()
        await self.settle()
        await self.store.flush()


__all__ = [
    "AcceptResult",
    "Ending",
    "Event",
    "Hint",
    "InvalidChallenge",
    "MatchEndObserver",
    "MatchError",
    "MatchNotFound",
    "MatchRecord",
    "MatchReview",
    "MatchService",
    "MAX_TURN_SECONDS",
    "MIN_TURN_SECONDS",
    "check_turn_time",
    "MatchStatus",
    "MoveResult",
    "NoHint",
    "NoReview",
    "NotAPlayer",
    "NotSaved",
    "Notifier",
    "NullNotifier",
    "Placed",
    "PlayerRef",
    "ReviewMoment",
    "SeatPrompt",
    "StalePrompt",
    "TIMER_SECONDS",
    "TickReport",
    "TimeoutResult",
    "WrongStatus",
    "ordinal",
]
