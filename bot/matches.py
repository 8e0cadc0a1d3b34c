"""MatchService: the Discord-free orchestration of challenges, moves, deadlines and recovery.

The service is generic over games (``rules.registry``). It keeps the live :class:`rules.match.Match`
of every active match in memory, guarded by a per-match lock, and the database is the source of
truth: a move is applied to the in-memory match (atomic; rules errors leave it unchanged), its
log entries are committed, and only then does ``submit`` return. If the commit fails the cached
match is dropped and rebuilt from the database on next use, so an unsaved move never counts.

The Discord layer renders through an injected :class:`Notifier`. Notifications are queued while
the match lock is held (so they keep the order of the commits) and delivered after it is
released, before the service call returns; a notifier may call back into the service. A failing
notifier is logged and never undoes a committed move.

Deadlines: every awaited seat has ``deadline_at``. :meth:`MatchService.tick` sends reminders and
handles time-outs: the referee plays the seat's ``Decision.default`` when the game has one;
otherwise the timed-out seat forfeits (``Forfeit(reason="timeout")``), unless nobody is around,
in which case the match is abandoned. "Nobody is around" means: every awaited seat has timed
out, no player made a move of their own on this step (since the earliest of those deadlines was
set; moves the referee made for timed-out seats do not count), and the last move by any other
player (before the step) was not made by a player who is now waiting on the others. So in
simultaneous steps where nobody submitted, and at the very start of a match, the match is
abandoned; a player who goes silent while an opponent is waiting on them forfeits (also when the
silent player's own move opened the step, e.g. a trick winner who drew and must now lead).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
import weakref
from collections import deque
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Literal, Protocol

from db import Database, MatchRecord, MatchStatus, NewAction
from rules.core import CHANCE, ActionModel, Awaiting, AwaitKind, Decision, Event, Forfeit, Outcome, fill_names
from rules.errors import RulesError
from rules.match import LogEntry, Match, MatchLog
from rules.registry import get_game

if TYPE_CHECKING:
    from bot.settings import Settings

log = logging.getLogger(__name__)

PlayerRef = tuple[int, str]
"""(Discord user id, display name)."""


# ---------------------------------------------------------------------------------------
# errors: ValueErrors whose message a player can read
# ---------------------------------------------------------------------------------------


class MatchError(ValueError):
    """A request the service refuses. The message is meant for the player."""


class MatchNotFound(MatchError):
    pass


class NotAPlayer(MatchError):
    """The user has no seat in the match (or was not challenged)."""


class InvalidChallenge(MatchError):
    """A challenge that cannot be made or answered this way."""


class WrongStatus(MatchError):
    """The match is not in the status the request needs (e.g. a move in a finished match)."""


class StalePrompt(MatchError):
    """The prompt the action came from is out of date (double click, second submission, old DM)."""


class NotSaved(MatchError):
    """The database refused the write, so the move (or start) did not happen."""


# ---------------------------------------------------------------------------------------
# notifications
# ---------------------------------------------------------------------------------------


class TimeoutResult(StrEnum):
    ACTION_TAKEN = "action_taken"  # the referee played the seat's default action
    FORFEIT = "forfeit"  # the seat forfeited on time
    ABANDONED = "abandoned"  # nobody was around: the match was abandoned


class Notifier(Protocol):
    """What the Discord layer implements. Each record passed is fresh from the database (after
    the change). Exceptions are logged by the service and otherwise ignored."""

    async def on_started(self, record: MatchRecord, events: Sequence[Event]) -> None:
        """A challenge was accepted by everyone; ``events`` are the opening (chance) events."""

    async def on_events(self, record: MatchRecord, events: Sequence[Event], awaiting: Awaiting) -> None:
        """A move was accepted and committed; ``events`` are all it caused (check visible_to)."""

    async def on_prompt(self, record: MatchRecord, seat: int) -> None:
        """``seat`` newly owes an action: send its private prompt (its deadline is on the record)."""

    async def on_reminder(self, record: MatchRecord, seat: int, deadline: int) -> None:
        """``seat``'s deadline (unix seconds) is near."""

    async def on_timeout(self, record: MatchRecord, seat: int, result: TimeoutResult) -> None:
        """``seat`` ran out of time. For ABANDONED this is called once per match, with the first
        timed-out seat. ACTION_TAKEN and FORFEIT are followed by on_events (and on_finished)."""

    async def on_finished(self, record: MatchRecord, outcome: Outcome) -> None:
        """The game reached its end. record.outcome / record.summary are saved with the players'
        names filled in; ``outcome`` keeps the engine's ``{p1}`` placeholders (fill_names)."""

    async def on_challenge_expired(self, record: MatchRecord) -> None:
        """A pending challenge expired without being accepted by everyone."""


class NullNotifier:
    """Does nothing."""

    async def on_started(self, record: MatchRecord, events: Sequence[Event]) -> None:
        return None

    async def on_events(self, record: MatchRecord, events: Sequence[Event], awaiting: Awaiting) -> None:
        return None

    async def on_prompt(self, record: MatchRecord, seat: int) -> None:
        return None

    async def on_reminder(self, record: MatchRecord, seat: int, deadline: int) -> None:
        return None

    async def on_timeout(self, record: MatchRecord, seat: int, result: TimeoutResult) -> None:
        return None

    async def on_finished(self, record: MatchRecord, outcome: Outcome) -> None:
        return None

    async def on_challenge_expired(self, record: MatchRecord) -> None:
        return None


NoticeKind = Literal["started", "events", "prompt", "reminder", "timeout", "finished", "challenge_expired"]


@dataclass(frozen=True)
class Notice:
    """One recorded notification."""

    kind: NoticeKind
    record: MatchRecord
    seat: int | None = None
    events: tuple[Event, ...] = ()
    awaiting: Awaiting | None = None
    deadline: int | None = None
    result: TimeoutResult | None = None
    outcome: Outcome | None = None

    @property
    def match_id(self) -> int:
        return self.record.id


class RecordingNotifier:
    """Records every notification (for tests). Kinds listed in ``fail`` raise after recording."""

    def __init__(self, *, fail: Collection[NoticeKind] = ()) -> None:
        self.notices: list[Notice] = []
        self.fail = set(fail)

    def _add(self, notice: Notice) -> None:
        self.notices.append(notice)
        if notice.kind in self.fail:
            raise RuntimeError(f"RecordingNotifier: simulated failure in {notice.kind}")

    async def on_started(self, record: MatchRecord, events: Sequence[Event]) -> None:
        self._add(Notice("started", record, events=tuple(events)))

    async def on_events(self, record: MatchRecord, events: Sequence[Event], awaiting: Awaiting) -> None:
        self._add(Notice("events", record, events=tuple(events), awaiting=awaiting))

    async def on_prompt(self, record: MatchRecord, seat: int) -> None:
        self._add(Notice("prompt", record, seat=seat))

    async def on_reminder(self, record: MatchRecord, seat: int, deadline: int) -> None:
        self._add(Notice("reminder", record, seat=seat, deadline=deadline))

    async def on_timeout(self, record: MatchRecord, seat: int, result: TimeoutResult) -> None:
        self._add(Notice("timeout", record, seat=seat, result=result))

    async def on_finished(self, record: MatchRecord, outcome: Outcome) -> None:
        self._add(Notice("finished", record, outcome=outcome))

    async def on_challenge_expired(self, record: MatchRecord) -> None:
        self._add(Notice("challenge_expired", record))

    def of(self, kind: NoticeKind, match_id: int | None = None) -> list[Notice]:
        return [n for n in self.notices if n.kind == kind and (match_id is None or n.match_id == match_id)]

    def kinds(self, match_id: int | None = None) -> list[str]:
        return [n.kind for n in self.notices if match_id is None or n.match_id == match_id]

    def clear(self) -> None:
        self.notices.clear()


# ---------------------------------------------------------------------------------------
# results
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MoveResult:
    """An accepted, committed move."""

    record: MatchRecord
    seat: int
    events: tuple[Event, ...]
    awaiting: Awaiting
    outcome: Outcome | None
    prompted: tuple[int, ...]
    """Seats that newly owe an action (they got on_prompt)."""

    @property
    def finished(self) -> bool:
        return self.outcome is not None


@dataclass(frozen=True)
class AcceptResult:
    record: MatchRecord
    started: bool
    events: tuple[Event, ...] = ()


@dataclass(frozen=True)
class SeatPrompt:
    """What a seat's prompt needs: embed ``seat_step`` in the buttons and pass it to submit."""

    match_id: int
    seat: int
    seat_step: int
    awaited: bool
    deadline_at: int | None
    decision: Decision | None  # what the seat is asked now (None: nothing)
    view: Mapping[str, Any]

    @property
    def legal_actions(self) -> Sequence[ActionModel]:
        return self.decision.choices if self.decision is not None else ()


@dataclass
class TickReport:
    expired: list[int] = field(default_factory=list)
    reminders: list[tuple[int, int]] = field(default_factory=list)
    timeouts: list[tuple[int, int, TimeoutResult]] = field(default_factory=list)


# ---------------------------------------------------------------------------------------
# internals
# ---------------------------------------------------------------------------------------


@dataclass
class _Live:
    """A cached match and, per log entry, whether the referee made it for a timed-out seat."""

    match: Match
    auto: list[bool]

    def seat_step(self, seat: int) -> int:
        return sum(1 for entry in self.match.log if entry.seat == seat)

    def seat_steps(self) -> list[int]:
        steps = [0] * len(self.match.seats)
        for entry in self.match.log:
            if entry.seat != CHANCE:
                steps[entry.seat] += 1
        return steps


@dataclass
class _Outbox:
    queue: deque[tuple[str, tuple[Any, ...]]] = field(default_factory=deque)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    owner: asyncio.Task[Any] | None = None
    users: int = 0


def _awaited(match: Match) -> frozenset[int]:
    aw = match.awaiting
    return aw.seats if aw.kind is AwaitKind.SEATS else frozenset()


def _new_actions(entries: Sequence[LogEntry], *, first_auto: bool = False) -> list[NewAction]:
    return [
        NewAction(
            seat=None if entry.seat == CHANCE else int(entry.seat),
            action=entry.action,
            auto=first_auto and i == 0 and entry.seat != CHANCE,
        )
        for i, entry in enumerate(entries)
    ]


def _player_name(name: str | None, seat: int) -> str:
    return (name or "").strip() or f"Player {seat + 1}"


def _ready_to_start(record: MatchRecord, accepting: int | None = None) -> bool:
    """Whether a pending match starts by itself: everyone seated has accepted (``accepting`` is
    about to) and nobody else is expected: an open table must be full, an invitation must still
    seat the game's minimum (the host may start earlier with :meth:`MatchService.start_now`)."""
    game_cls = get_game(record.game)
    seated = len(record.seats)
    enough = seated == game_cls.max_seats if record.open_table else seated >= game_cls.min_seats
    return enough and all(s.accepted or s.seat == accepting for s in record.seats)


def _challenge_due(record: MatchRecord, now: int) -> bool:
    """A pending challenge whose time to be accepted is up."""
    return record.status is MatchStatus.PENDING and record.expires_at is not None and record.expires_at <= now


_CLOSED_TEXT = {
    MatchStatus.ACTIVE: "has already started",
    MatchStatus.FINISHED: "is over",
    MatchStatus.ABANDONED: "was abandoned",
    MatchStatus.DECLINED: "was declined",
    MatchStatus.EXPIRED: "has expired",
    MatchStatus.CANCELLED: "was withdrawn",
}


# ---------------------------------------------------------------------------------------
# the service
# ---------------------------------------------------------------------------------------


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
    ) -> None:
        self.db = db
        self.notifier: Notifier = notifier if notifier is not None else NullNotifier()
        self._clock = clock
        self.challenge_timeout = challenge_timeout_seconds
        self.move_timeout = move_timeout_seconds
        self.reminder_before = reminder_before_seconds
        self._seed_factory = seed_factory or (lambda: secrets.randbits(63))
        self._live: dict[int, _Live] = {}
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._outboxes: dict[int, _Outbox] = {}

    @classmethod
    def from_settings(
        cls,
        db: Database,
        settings: Settings,
        *,
        notifier: Notifier | None = None,
        clock: Callable[[], float] = time.time,
    ) -> MatchService:
        return cls(
            db,
            notifier=notifier,
            clock=clock,
            challenge_timeout_seconds=settings.challenge_timeout_seconds,
            move_timeout_seconds=settings.move_timeout_seconds,
            reminder_before_seconds=settings.reminder_before_seconds,
        )

    # -- challenges ----------------------------------------------------------------------
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
    ) -> MatchRecord:
        """A pending challenge (seat 0 is the challenger, then the opponents in order) expiring
        after the challenge timeout. With ``open_table`` anyone may join until the host starts it
        or it is full (see :meth:`join`). Game, seat count and options are validated by the game
        (rules errors propagate: ValueErrors with readable messages)."""
        game_cls = get_game(game)
        if not opponents and not open_table:
            raise InvalidChallenge("Name at least one opponent, or open the table for anyone to join.")
        if any(uid == challenger[0] for uid, _ in opponents):
            raise InvalidChallenge("You cannot challenge yourself.")
        ids = [uid for uid, _ in opponents]
        if len(set(ids)) != len(ids):
            raise InvalidChallenge("A player is named twice in the challenge; each player takes one seat.")
        players = [(int(uid), _player_name(name, i)) for i, (uid, name) in enumerate([challenger, *opponents])]
        if len(players) > game_cls.max_seats:
            raise InvalidChallenge(
                f"{game_cls.name} seats at most {game_cls.max_seats} players; you named {len(players)}."
            )
        if len(players) < game_cls.min_seats and not open_table:
            raise InvalidChallenge(
                f"{game_cls.name} needs at least {game_cls.min_seats} players: name more opponents or open the table."
            )
        options_obj = game_cls(options, num_seats=max(len(players), game_cls.min_seats)).options
        now = self._now()
        return await self.db.matches.create(
            game=game,
            options=options_obj.model_dump(mode="json"),
            guild_id=guild_id,
            channel_id=channel_id,
            seats=players,
            expires_at=now + self.challenge_timeout,
            created_at=now,
            open_table=open_table,
        )

    async def accept(self, match_id: int, user_id: int) -> AcceptResult:
        """A challenged player accepts. When every seat has accepted (and an open table is full)
        the match starts: the seed is drawn, the opening chance resolved and every log entry
        committed before this returns."""
        async with self._session(match_id):
            record, seat, now = await self._open_challenge_seat(match_id, user_id)
            if seat == 0:
                raise InvalidChallenge("You made this challenge; wait for your opponents to accept it.")
            if record.seats[seat].accepted:
                raise InvalidChallenge(f"You have already accepted challenge #{match_id}.")
            if not _ready_to_start(record, accepting=seat):
                await self.db.seats.accept(match_id, seat)
                return AcceptResult(await self._record(match_id), started=False)
            return await self._start(record, now, accept_seat=seat)

    async def join(self, match_id: int, user_id: int, name: str) -> AcceptResult:
        """Take a free seat at an open table. The seat that fills the table starts the match."""
        async with self._session(match_id):
            record = await self._record(match_id)
            now = self._now()
            await self._require_open(record, now)
            if record.seat_of(user_id) is not None:
                raise InvalidChallenge(f"You already have a seat in match #{match_id}.")
            if not record.open_table:
                raise InvalidChallenge(f"Match #{match_id} is by invitation only.")
            game_cls = get_game(record.game)
            if len(record.seats) >= game_cls.max_seats:
                raise InvalidChallenge(f"The table of match #{match_id} is full ({game_cls.max_seats} players).")
            await self.db.seats.add(match_id, user_id, _player_name(name, len(record.seats)))
            record = await self._record(match_id)
            if _ready_to_start(record):
                return await self._start(record, now)
            return AcceptResult(record, started=False)

    async def leave(self, match_id: int, user_id: int) -> MatchRecord:
        """A seated player other than the host leaves a pending challenge (declining it, if they
        were invited). If too few players remain for an invitation-only challenge, it is declined.
        The host leaving withdraws the challenge."""
        async with self._session(match_id):
            record, seat, now = await self._open_challenge_seat(match_id, user_id)
            if seat == 0:
                await self.db.matches.close_challenge(match_id, MatchStatus.CANCELLED, at=now)
                return await self._record(match_id)
            if not record.open_table and len(record.seats) - 1 < get_game(record.game).min_seats:
                await self.db.matches.close_challenge(match_id, MatchStatus.DECLINED, at=now)
                return await self._record(match_id)
            await self.db.seats.remove(match_id, seat)
            record = await self._record(match_id)
            if _ready_to_start(record):  # the one who left was the last one everyone waited for
                return (await self._start(record, now)).record
            return record

    async def decline(self, match_id: int, user_id: int) -> MatchRecord:
        """A challenged player declines (the challenger declining withdraws the challenge)."""
        return await self.leave(match_id, user_id)

    async def start_now(self, match_id: int, user_id: int) -> AcceptResult:
        """The host starts the match with the players who have accepted so far (at least the
        game's minimum); invited players who have not accepted are left out."""
        async with self._session(match_id):
            record, seat, now = await self._open_challenge_seat(match_id, user_id)
            if seat != 0:
                raise NotAPlayer(f"Only the host ({record.names[0]}) can start match #{match_id}.")
            game_cls = get_game(record.game)
            ready = [s for s in record.seats if s.accepted]
            if len(ready) < game_cls.min_seats:
                raise InvalidChallenge(
                    f"{len(ready)} player{'s' if len(ready) != 1 else ''} ready; {game_cls.name} needs at least "
                    f"{game_cls.min_seats}. Wait for more players to accept or join."
                )
            for s in reversed(record.seats):
                if not s.accepted:
                    await self.db.seats.remove(match_id, s.seat)
            return await self._start(await self._record(match_id), now)

    async def _open_challenge_seat(self, match_id: int, user_id: int) -> tuple[MatchRecord, int, int]:
        """(record, the user's seat, now) for a pending, unexpired challenge the user is in.
        Lock held by the caller."""
        record = await self._record(match_id)
        seat = record.seat_of(user_id)
        if seat is None:
            raise NotAPlayer(f"You were not challenged in match #{match_id}.")
        now = self._now()
        await self._require_open(record, now)
        return record, seat, now

    async def cancel(self, match_id: int, user_id: int) -> MatchRecord:
        """The challenger withdraws a pending challenge."""
        async with self._session(match_id):
            record = await self._record(match_id)
            if record.challenger_id != user_id:
                raise NotAPlayer(f"Only the challenger can withdraw challenge #{match_id}.")
            now = self._now()
            await self._require_open(record, now)
            await self.db.matches.close_challenge(match_id, MatchStatus.CANCELLED, at=now)
            return await self._record(match_id)

    async def expire_due(self, now: float | None = None) -> list[MatchRecord]:
        """Expire every pending challenge whose time is up; return them."""
        at = self._now(now)
        expired = []
        for match_id in await self.db.matches.due_to_expire(at):
            try:
                async with self._session(match_id):
                    record = await self._record(match_id)
                    if _challenge_due(record, at) and (fresh := await self._expire(record, at)) is not None:
                        expired.append(fresh)
            except Exception:
                log.exception("Expiring challenge %s failed", match_id)
        return expired

    # -- moves ---------------------------------------------------------------------------
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
        async with self._session(match_id):
            record = await self._record(match_id)
            seat = self._require_seat(record, user_id)
            self._require_active(record)
            live = await self._load(record)
            if seat_step is not None:
                current = live.seat_step(seat)
                if seat_step != current:
                    raise StalePrompt(
                        "That prompt is out of date: "
                        + (
                            "you have already acted on it (or on a newer prompt)."
                            if seat_step < current
                            else "it does not match this match's moves."
                        )
                        + " Use your newest prompt."
                    )
            return await self._move(record, live, seat, action, now=self._now())

    async def forfeit(self, match_id: int, user_id: int, reason: Literal["resign", "left"] = "resign") -> MoveResult:
        """The user's seat forfeits (through the same path as a move)."""
        async with self._session(match_id):
            record = await self._record(match_id)
            seat = self._require_seat(record, user_id)
            self._require_active(record)
            live = await self._load(record)
            return await self._move(record, live, seat, Forfeit(reason=reason), now=self._now())

    # -- timers --------------------------------------------------------------------------
    async def tick(self, now: float | None = None) -> TickReport:
        """Expire challenges, handle timed-out seats, then send due reminders. Idempotent;
        errors in one match are logged and do not stop the others."""
        at = self._now(now)
        report = TickReport()
        report.expired = [r.id for r in await self.expire_due(at)]
        for match_id in sorted({s.match_id for s in await self.db.seats.due_timeouts(at)}):
            try:
                async with self._session(match_id):
                    report.timeouts += await self._handle_timeouts(match_id, at)
            except Exception:
                log.exception("Handling time-outs in match %s failed", match_id)
        for seat in await self.db.seats.due_reminders(at, self.reminder_before):
            assert seat.deadline_at is not None
            try:
                async with self._session(seat.match_id):
                    if await self.db.seats.mark_reminded(seat.match_id, seat.seat, seat.deadline_at):
                        record = await self._record(seat.match_id)
                        self._notify(seat.match_id, "on_reminder", record, seat.seat, seat.deadline_at)
                        report.reminders.append((seat.match_id, seat.seat))
            except Exception:
                log.exception("Reminder for match %s seat %s failed", seat.match_id, seat.seat)
        return report

    async def run_timers(
        self,
        interval: float = 5.0,
        *,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
        stop: asyncio.Event | None = None,
    ) -> None:
        """Call :meth:`tick` every ``interval`` seconds until ``stop`` is set (or cancelled)."""
        while stop is None or not stop.is_set():
            try:
                await self.tick()
            except Exception:
                log.exception("Timer tick failed")
            await sleep(interval)

    # -- recovery ------------------------------------------------------------------------
    async def recover(self) -> list[MatchRecord]:
        """Rebuild every active match from its log (chance entries included) and cache it.
        Awaited seats missing a deadline get one (and a prompt). Matches whose log no longer
        replays are logged and skipped. Pending challenges need nothing: they keep their expiry."""
        recovered = []
        for record in await self.db.matches.with_status(MatchStatus.ACTIVE):
            try:
                async with self._session(record.id):
                    self._live.pop(record.id, None)
                    live = await self._load(record)
                    await self._repair_deadlines(record, live)
                    recovered.append(await self._record(record.id))
            except Exception:
                log.exception("Match %s could not be rebuilt from its log; it stays active but idle", record.id)
        return recovered

    # -- queries -------------------------------------------------------------------------
    async def get(self, match_id: int) -> MatchRecord:
        return await self._record(match_id)

    async def live_matches_for(self, user_id: int, *, include_pending: bool = True) -> list[MatchRecord]:
        """The user's active matches (and pending challenges), oldest first."""
        statuses = [MatchStatus.PENDING, MatchStatus.ACTIVE] if include_pending else [MatchStatus.ACTIVE]
        return await self.db.matches.for_user(user_id, statuses)

    async def seat_of(self, match_id: int, user_id: int) -> int:
        """The user's seat, or NotAPlayer."""
        return self._require_seat(await self._record(match_id), user_id)

    async def seat_step(self, match_id: int, seat: int) -> int:
        """How many actions ``seat`` has taken in the match so far."""
        async with self._session(match_id):
            record = await self._record(match_id)
            if record.status is MatchStatus.ACTIVE:
                return (await self._load(record)).seat_step(seat)
            return await self.db.actions.count_for_seat(match_id, seat)

    async def match(self, match_id: int) -> Match:
        """The match (active: the live object, treat as read-only; ended: rebuilt from the log)."""
        async with self._session(match_id):
            record = await self._record(match_id)
            if record.status is MatchStatus.PENDING or record.seed is None:
                raise WrongStatus(f"Match #{match_id} has not started yet.")
            return (await self._load(record)).match

    async def view(self, match_id: int, seat: int | None) -> Mapping[str, Any]:
        """What ``seat`` may see (None: a spectator)."""
        return (await self.match(match_id)).state.view(seat)

    async def prompt(self, match_id: int, seat: int) -> SeatPrompt:
        """Everything a private prompt for ``seat`` needs, consistent at one instant."""
        async with self._session(match_id):
            record = await self._record(match_id)
            self._require_active(record)
            if not 0 <= seat < len(record.seats):
                raise NotAPlayer(f"Match #{match_id} has no seat {seat + 1}.")
            live = await self._load(record)
            match = live.match
            return SeatPrompt(
                match_id=match_id,
                seat=seat,
                seat_step=live.seat_step(seat),
                awaited=seat in _awaited(match),
                deadline_at=record.seats[seat].deadline_at,
                decision=match.state.asked(seat),
                view=match.state.view(seat),
            )

    async def set_dm_ok(self, match_id: int, user_id: int, ok: bool | None) -> None:
        seat = await self.seat_of(match_id, user_id)
        await self.db.seats.set_dm_ok(match_id, seat, ok)

    async def set_message_id(self, match_id: int, message_id: int | None) -> None:
        await self._record(match_id)
        await self.db.matches.set_message_id(match_id, message_id)

    # -- internals: locking and notifications ----------------------------------------------
    def _now(self, now: float | None = None) -> int:
        return int(self._clock() if now is None else now)

    def _lock(self, match_id: int) -> asyncio.Lock:
        lock = self._locks.get(match_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[match_id] = lock
        return lock

    def _session(self, match_id: int) -> _Session:
        return _Session(self, match_id)

    def _notify(self, match_id: int, method: str, *args: Any) -> None:
        box = self._outboxes.get(match_id)
        if box is None:
            box = self._outboxes[match_id] = _Outbox()
        box.queue.append((method, args))

    async def _drain(self, match_id: int) -> None:
        """Deliver the match's queued notifications in order. A notifier that calls back into
        the service lands here again from the same task: the outer loop delivers those too."""
        box = self._outboxes.get(match_id)
        if box is None:
            return
        task = asyncio.current_task()
        if box.owner is not None and box.owner is task:
            return
        box.users += 1
        try:
            async with box.lock:
                box.owner = task
                try:
                    while box.queue:
                        method, args = box.queue.popleft()
                        try:
                            await getattr(self.notifier, method)(*args)
                        except Exception:
                            log.exception("Notifier %s failed for match %s", method, match_id)
                finally:
                    box.owner = None
        finally:
            box.users -= 1
            if box.users == 0 and not box.queue and self._outboxes.get(match_id) is box:
                del self._outboxes[match_id]

    # -- internals: records and state ----------------------------------------------------
    async def _record(self, match_id: int) -> MatchRecord:
        record = await self.db.matches.get(match_id)
        if record is None:
            raise MatchNotFound(f"There is no match #{match_id}.")
        return record

    @staticmethod
    def _require_seat(record: MatchRecord, user_id: int) -> int:
        seat = record.seat_of(user_id)
        if seat is None:
            raise NotAPlayer(f"You are not a player in match #{record.id}.")
        return seat

    @staticmethod
    def _require_active(record: MatchRecord) -> None:
        if record.status is MatchStatus.PENDING:
            raise WrongStatus(f"Match #{record.id} has not started yet: not everyone has accepted.")
        if record.status is not MatchStatus.ACTIVE:
            raise WrongStatus(f"Match #{record.id} {_CLOSED_TEXT[record.status]}; no more moves are accepted.")

    async def _require_open(self, record: MatchRecord, now: int) -> None:
        if record.status is not MatchStatus.PENDING:
            raise WrongStatus(f"Challenge #{record.id} {_CLOSED_TEXT[record.status]}.")
        if _challenge_due(record, now):
            await self._expire(record, now)
            raise WrongStatus(f"Challenge #{record.id} has expired.")

    async def _expire(self, record: MatchRecord, now: int) -> MatchRecord | None:
        if not await self.db.matches.close_challenge(record.id, MatchStatus.EXPIRED, at=now):
            return None
        fresh = await self._record(record.id)
        self._notify(record.id, "on_challenge_expired", fresh)
        return fresh

    async def _load(self, record: MatchRecord) -> _Live:
        """The cached live match, or one rebuilt from the database log."""
        live = self._live.get(record.id)
        if live is not None:
            return live
        if record.seed is None:
            raise WrongStatus(f"Match #{record.id} has not started yet.")
        rows = await self.db.actions.for_match(record.id)
        match = Match.replay(
            MatchLog(
                game=record.game,
                options=record.options,
                seed=record.seed,
                seats=record.names,
                actions=[LogEntry(seat=CHANCE if r.seat is None else r.seat, action=r.action) for r in rows],
            )
        )
        auto = [r.auto for r in rows]
        if len(match.log) > len(rows):
            # chance the stored log leaves out (not written by this service): store it now
            extra = match.log[len(rows) :]
            await self.db.actions.append_actions(record.id, len(rows), _new_actions(extra), at=self._now())
            auto += [False] * len(extra)
        live = _Live(match, auto)
        if record.status is MatchStatus.ACTIVE:
            self._live[record.id] = live
        return live

    async def _start(self, record: MatchRecord, now: int, *, accept_seat: int | None = None) -> AcceptResult:
        seed = self._seed_factory()
        match = Match.new(record.game, record.options, seed=seed, seats=record.names)
        live = _Live(match, [False] * len(match.log))
        outcome = match.outcome
        try:
            async with self.db.transaction():
                if accept_seat is not None:
                    await self.db.seats.accept(record.id, accept_seat)
                if not await self.db.matches.start(record.id, seed=seed, at=now):
                    raise WrongStatus(f"Challenge #{record.id} is no longer open.")
                await self.db.actions.append_actions(record.id, 0, _new_actions(match.log), at=now)
                if outcome is not None:
                    await self._save_outcome(record, outcome, now)
                    prompted: list[int] = []
                else:
                    prompted = await self._reschedule(record, live, frozenset(), None, now)
        except MatchError:
            raise
        except Exception as exc:
            log.exception("Starting match %s failed", record.id)
            raise NotSaved(f"Match #{record.id} could not be started (database error); please try again.") from exc
        if outcome is None:
            self._live[record.id] = live
        fresh = await self._record(record.id)
        self._notify(record.id, "on_started", fresh, tuple(match.events))
        for s in prompted:
            self._notify(record.id, "on_prompt", fresh, s)
        if outcome is not None:
            self._notify(record.id, "on_finished", fresh, outcome)
        return AcceptResult(fresh, started=True, events=tuple(match.events))

    async def _move(
        self,
        record: MatchRecord,
        live: _Live,
        seat: int,
        action: Mapping[str, Any] | ActionModel,
        *,
        now: int,
        auto: bool = False,
        timeout: TimeoutResult | None = None,
    ) -> MoveResult:
        """Apply, commit, reschedule and queue notifications. Lock held by the caller."""
        match = live.match
        before = _awaited(match)
        steps_before = live.seat_steps()
        start = len(match.log)
        events = match.act(seat, action)  # rules errors: nothing changed
        entries = match.log[start:]
        outcome = match.outcome
        try:
            async with self.db.transaction():
                await self.db.actions.append_actions(record.id, start, _new_actions(entries, first_auto=auto), at=now)
                if outcome is not None:
                    await self._save_outcome(record, outcome, now)
                    prompted: list[int] = []
                else:
                    prompted = await self._reschedule(record, live, before, steps_before, now)
        except BaseException as exc:
            # the in-memory match is ahead of the database: rebuild it from the log next time
            self._live.pop(record.id, None)
            if isinstance(exc, Exception):
                log.exception("Saving a move in match %s failed", record.id)
                raise NotSaved("Your move could not be saved, so it did not count. Please try again.") from exc
            raise
        live.auto.extend(new.auto for new in _new_actions(entries, first_auto=auto))
        if outcome is not None:
            self._live.pop(record.id, None)
        fresh = await self._record(record.id)
        if timeout is not None:
            self._notify(record.id, "on_timeout", fresh, seat, timeout)
        self._notify(record.id, "on_events", fresh, tuple(events), match.awaiting)
        for s in prompted:
            self._notify(record.id, "on_prompt", fresh, s)
        if outcome is not None:
            self._notify(record.id, "on_finished", fresh, outcome)
        return MoveResult(fresh, seat, tuple(events), match.awaiting, outcome, tuple(prompted))

    async def _save_outcome(self, record: MatchRecord, outcome: Outcome, now: int) -> None:
        """Finish the match; the stored outcome and summary have the players' names filled in.
        Then queue and rate it (bot.ratings), each in a savepoint: a rating failure is logged and
        never loses the finish (the match stays queued; the next finish of its game rates it)."""
        await self.db.matches.finish(
            record.id,
            MatchStatus.FINISHED,
            outcome=outcome.to_json(record.names),
            summary=fill_names(outcome.summary, record.names),
            at=now,
        )
        try:
            from bot.ratings import RatingService

            await RatingService(self.db).on_finished(record.id, record.game)  # handles its own failures
        except Exception:
            log.exception("Rating match %s failed; the match is finished all the same", record.id)

    async def _reschedule(
        self, record: MatchRecord, live: _Live, before: frozenset[int], steps_before: list[int] | None, now: int
    ) -> list[int]:
        """Deadlines after a change: seats awaited now get a fresh deadline unless they were
        already awaited on the same step (awaited before, took no action); seats no longer
        awaited lose theirs. Returns the seats that newly owe an action."""
        after = _awaited(live.match)
        steps_after = live.seat_steps()
        since = len(live.match.log)
        prompted = []
        for s in record.seats:
            if s.seat in after:
                same_step = (
                    s.seat in before
                    and steps_before is not None
                    and steps_before[s.seat] == steps_after[s.seat]
                    and s.deadline_at is not None
                )
                if not same_step:
                    await self.db.seats.set_deadline(record.id, s.seat, now + self.move_timeout, awaited_since=since)
                    prompted.append(s.seat)
            elif s.deadline_at is not None:
                await self.db.seats.clear_deadline(record.id, s.seat)
        return prompted

    async def _repair_deadlines(self, record: MatchRecord, live: _Live) -> None:
        awaited = _awaited(live.match)
        now = self._now()
        since = len(live.match.log)
        for s in record.seats:
            if s.seat in awaited and s.deadline_at is None:
                await self.db.seats.set_deadline(record.id, s.seat, now + self.move_timeout, awaited_since=since)
                self._notify(record.id, "on_prompt", await self._record(record.id), s.seat)
            elif s.seat not in awaited and s.deadline_at is not None:
                await self.db.seats.clear_deadline(record.id, s.seat)

    async def _handle_timeouts(self, match_id: int, now: int) -> list[tuple[int, int, TimeoutResult]]:
        """Resolve every timed-out awaited seat of one match (lock held by the caller)."""
        done: list[tuple[int, int, TimeoutResult]] = []
        defaulted: set[int] = set()
        for _ in range(64):  # each pass changes the state; the bound only guards against a bad game
            record = await self._record(match_id)
            if record.status is not MatchStatus.ACTIVE:
                break
            live = await self._load(record)
            awaited = _awaited(live.match)
            seats = {s.seat: s for s in record.seats}
            timed_out = sorted(
                (s for s in awaited if (d := seats[s].deadline_at) is not None and d <= now),
                key=lambda s: (seats[s].deadline_at, s),
            )
            if not timed_out:
                break
            default = None
            for seat in timed_out:
                try:
                    decision = live.match.state.asked(seat)
                    action = decision.default if decision is not None else None
                except Exception:
                    log.exception("the time-out default failed in match %s", match_id)
                    action = None
                if action is not None:
                    default = (seat, action)
                    break
            if default is not None:
                seat, action = default
                try:
                    await self._move(record, live, seat, action, now=now, auto=True, timeout=TimeoutResult.ACTION_TAKEN)
                    done.append((match_id, seat, TimeoutResult.ACTION_TAKEN))
                    defaulted.add(seat)
                    continue
                except RulesError:
                    log.exception("The default action for seat %s in match %s was refused", seat, match_id)
                    live = await self._load(record)
            if len(timed_out) == len(awaited) and not self._someone_present(live, seats, timed_out, defaulted):
                await self.db.matches.finish(match_id, MatchStatus.ABANDONED, at=now)
                self._live.pop(match_id, None)
                abandoned = await self._record(match_id)
                self._notify(match_id, "on_timeout", abandoned, timed_out[0], TimeoutResult.ABANDONED)
                done.append((match_id, timed_out[0], TimeoutResult.ABANDONED))
                break
            seat = timed_out[0]
            await self._move(
                record, live, seat, Forfeit(reason="timeout"), now=now, auto=True, timeout=TimeoutResult.FORFEIT
            )
            done.append((match_id, seat, TimeoutResult.FORFEIT))
        return done

    @staticmethod
    def _someone_present(live: _Live, seats: Mapping[int, Any], timed_out: Sequence[int], defaulted: set[int]) -> bool:
        """Whether a player is demonstrably around on this step (see the module docstring)."""
        log_entries = live.match.log
        start = min((seats[s].awaited_since or 0) for s in timed_out)
        absent = set(timed_out) | defaulted
        for i in range(start, len(log_entries)):
            entry = log_entries[i]
            if entry.seat == CHANCE:
                continue
            if not live.auto[i]:
                return True  # someone moved on this step
            absent.add(int(entry.seat))
        silent = set(timed_out)
        for i in range(start - 1, -1, -1):
            entry = log_entries[i]
            if entry.seat == CHANCE or live.auto[i] or int(entry.seat) in silent:
                continue  # the silent players' own earlier moves say nothing about the others
            return int(entry.seat) not in absent  # the last other player to move is waiting on them
        return False


class _Session:
    """``async with service._session(match_id)``: hold the match lock; after releasing it,
    deliver the notifications queued meanwhile (also when the body raised)."""

    def __init__(self, service: MatchService, match_id: int) -> None:
        self._service = service
        self._match_id = match_id
        self._lock = service._lock(match_id)

    async def __aenter__(self) -> None:
        await self._lock.acquire()

    async def __aexit__(self, *exc: object) -> None:
        self._lock.release()
        await self._service._drain(self._match_id)


__all__ = [
    "AcceptResult",
    "InvalidChallenge",
    "MatchError",
    "MatchNotFound",
    "MatchService",
    "MoveResult",
    "NotAPlayer",
    "NotSaved",
    "Notice",
    "Notifier",
    "NullNotifier",
    "PlayerRef",
    "RecordingNotifier",
    "SeatPrompt",
    "StalePrompt",
    "TickReport",
    "TimeoutResult",
    "WrongStatus",
]
