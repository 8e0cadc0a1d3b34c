"""What players must be told, and the Notifier that tells them.

Every change that players must hear about writes its notices to the ``outbox`` table in the same
transaction as the change (a durable outbox). After the commit the service hands each notice to the
:class:`Notifier`, in commit order, with everything it needs already computed (the seat's prompt,
the spectator view, the public events): the notifier never calls back into the service. Delivered
notices are deleted (with the next write, or the next tick); whatever is left after a crash is
delivered by the next timer tick. Delivery is therefore idempotent: while a notice is handed to
the notifier, :data:`delivering` names it, and the presentation records each message it sends
for it (``deliveries``), so a notice delivered again edits those messages instead of posting
more; a prompt that is no longer current by then is skipped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Literal, Protocol, TypeVar

from db import MatchRecord
from rules.core import Event, Outcome, public_events

from .results import SeatPrompt, TimeoutResult

NoticeKind = Literal["started", "events", "prompt", "reminder", "timeout", "finished", "challenge_expired"]


class Notifier(Protocol):
    """What the Discord layer implements. Each record passed is the match as committed (after the
    change). Exceptions are logged by the service and otherwise ignored: a failing notifier never
    undoes a committed move."""

    async def on_started(self, record: MatchRecord, events: Sequence[Event], view: Mapping[str, Any]) -> None:
        """Everyone accepted: the match began. ``events``: the public opening events (chance);
        ``view``: the spectator view."""

    async def on_events(self, record: MatchRecord, events: Sequence[Event], view: Mapping[str, Any]) -> None:
        """A move was committed: its public events (possibly none) and the spectator view after it."""

    async def on_prompt(self, record: MatchRecord, prompt: SeatPrompt) -> bool | None:
        """``prompt.seat`` newly owes an action: send its private prompt. Returns whether a DM
        reached the player (True / False), or None when no DM was tried; the service stores it."""

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

    async def on_started(self, record: MatchRecord, events: Sequence[Event], view: Mapping[str, Any]) -> None:
        return None

    async def on_events(self, record: MatchRecord, events: Sequence[Event], view: Mapping[str, Any]) -> None:
        return None

    async def on_prompt(self, record: MatchRecord, prompt: SeatPrompt) -> bool | None:
        return None

    async def on_reminder(self, record: MatchRecord, seat: int, deadline: int) -> None:
        return None

    async def on_timeout(self, record: MatchRecord, seat: int, result: TimeoutResult) -> None:
        return None

    async def on_finished(self, record: MatchRecord, outcome: Outcome) -> None:
        return None

    async def on_challenge_expired(self, record: MatchRecord) -> None:
        return None


# -- what the notifier is told, one frozen dataclass per kind ------------------------------------
# Each kind's arguments call the Notifier method that takes them (``tell``), with typed arguments:
# arguments without it fail mypy where a notice is delivered (``Context.deliver``). The table
# :data:`NOTICE_ARGS` maps each stored kind to its arguments (all of them: tests/bot/test_notices_typed.py);
# a new kind also fails mypy until ``Leftovers.args_of`` rebuilds its arguments after a restart.
# A ``Notice[PromptArgs]`` (``Notice.prompt``) takes only a PromptArgs (``Moves.ready``).


@dataclass(frozen=True)
class StartedArgs:
    """:meth:`Notifier.on_started`: the public opening events and the spectator view."""

    kind: ClassVar[Literal["started"]] = "started"
    events: Sequence[Event]
    view: Mapping[str, Any]

    async def tell(self, notifier: Notifier, record: MatchRecord) -> None:
        await notifier.on_started(record, self.events, self.view)


@dataclass(frozen=True)
class EventsArgs:
    """:meth:`Notifier.on_events`: a move's public events and the spectator view after it."""

    kind: ClassVar[Literal["events"]] = "events"
    events: Sequence[Event]
    view: Mapping[str, Any]

    async def tell(self, notifier: Notifier, record: MatchRecord) -> None:
        await notifier.on_events(record, self.events, self.view)


@dataclass(frozen=True)
class PromptArgs:
    """:meth:`Notifier.on_prompt`: the seat's prompt (its answer: whether a DM reached the player)."""

    kind: ClassVar[Literal["prompt"]] = "prompt"
    prompt: SeatPrompt

    @property
    def seat(self) -> int:
        return self.prompt.seat

    async def tell(self, notifier: Notifier, record: MatchRecord) -> bool | None:
        return await notifier.on_prompt(record, self.prompt)


@dataclass(frozen=True)
class ReminderArgs:
    """:meth:`Notifier.on_reminder`: the seat and its deadline."""

    kind: ClassVar[Literal["reminder"]] = "reminder"
    seat: int
    deadline: int

    async def tell(self, notifier: Notifier, record: MatchRecord) -> None:
        await notifier.on_reminder(record, self.seat, self.deadline)


@dataclass(frozen=True)
class TimeoutArgs:
    """:meth:`Notifier.on_timeout`: the seat that ran out of time and what the referee did."""

    kind: ClassVar[Literal["timeout"]] = "timeout"
    seat: int
    result: TimeoutResult

    async def tell(self, notifier: Notifier, record: MatchRecord) -> None:
        await notifier.on_timeout(record, self.seat, self.result)


@dataclass(frozen=True)
class FinishedArgs:
    """:meth:`Notifier.on_finished`: the outcome (the engine's ``{p1}`` placeholders kept)."""

    kind: ClassVar[Literal["finished"]] = "finished"
    outcome: Outcome

    async def tell(self, notifier: Notifier, record: MatchRecord) -> None:
        await notifier.on_finished(record, self.outcome)


@dataclass(frozen=True)
class ChallengeExpiredArgs:
    """:meth:`Notifier.on_challenge_expired`: nothing but the record."""

    kind: ClassVar[Literal["challenge_expired"]] = "challenge_expired"

    async def tell(self, notifier: Notifier, record: MatchRecord) -> None:
        await notifier.on_challenge_expired(record)


NoticeArgs = StartedArgs | EventsArgs | PromptArgs | ReminderArgs | TimeoutArgs | FinishedArgs | ChallengeExpiredArgs
"""What a notice tells the notifier, one class per :data:`NoticeKind`."""

#: The dispatch table: each stored kind's arguments, whose ``tell`` calls the matching Notifier
#: method (every :data:`NoticeKind` has one, of that kind: tests/bot/test_notices_typed.py).
NOTICE_ARGS: Mapping[NoticeKind, type[NoticeArgs]] = {
    "started": StartedArgs,
    "events": EventsArgs,
    "prompt": PromptArgs,
    "reminder": ReminderArgs,
    "timeout": TimeoutArgs,
    "finished": FinishedArgs,
    "challenge_expired": ChallengeExpiredArgs,
}

ArgsT = TypeVar("ArgsT", bound=NoticeArgs)
"""A notice's arguments (``Notice[PromptArgs]``: a prompt notice)."""


async def tell(notifier: Notifier, record: MatchRecord, args: NoticeArgs) -> bool | None:
    """Hand ``args`` to the notifier method of its kind; returns that method's answer (on_prompt's:
    whether a DM reached the player; None for the others)."""
    return await args.tell(notifier, record)


@dataclass
class Notice(Generic[ArgsT]):
    """One notice: its durable form (``kind`` and a JSON ``payload``, the outbox row ``id`` once
    written) and, once the service computed it, what to tell the notifier (``args``, of the class
    its kind maps to in :data:`NOTICE_ARGS`: the prompt, the view...). A notice loaded from the
    outbox after a restart has no ``args`` yet: the service computes them from the match as it is
    then (``Leftovers.revive``); a notice without them is not told (a prompt no longer current)."""

    match_id: int
    kind: NoticeKind
    payload: dict[str, Any]
    id: int | None = None
    args: ArgsT | None = None
    record: MatchRecord | None = None
    #: read back from the outbox (after a crash, or a dead process's): it may have been delivered,
    #: in part, before; its messages are looked up (``deliveries``) and edited, not posted again
    redelivered: bool = False

    # -- the durable payloads -------------------------------------------------------------
    @staticmethod
    def started(match_id: int, events: Sequence[Event]) -> Notice[StartedArgs]:
        return Notice(match_id, "started", {"events": [e.to_json() for e in public_events(events)]})

    @staticmethod
    def moved(match_id: int, seat: int, events: Sequence[Event]) -> Notice[EventsArgs]:
        return Notice(match_id, "events", {"seat": seat, "events": [e.to_json() for e in public_events(events)]})

    @staticmethod
    def prompt(match_id: int, seat: int, seat_step: int, turn_passed: bool) -> Notice[PromptArgs]:
        return Notice(match_id, "prompt", {"seat": seat, "seat_step": seat_step, "turn_passed": turn_passed})

    @staticmethod
    def reminder(match_id: int, seat: int, deadline: int) -> Notice[ReminderArgs]:
        return Notice(match_id, "reminder", {"seat": seat, "deadline": deadline})

    @staticmethod
    def timeout(match_id: int, seat: int, result: TimeoutResult) -> Notice[TimeoutArgs]:
        return Notice(match_id, "timeout", {"seat": seat, "result": result.value})

    @staticmethod
    def finished(match_id: int, outcome: Outcome) -> Notice[FinishedArgs]:
        return Notice(match_id, "finished", {"outcome": outcome.to_json()})

    @staticmethod
    def expired(match_id: int) -> Notice[ChallengeExpiredArgs]:
        return Notice(match_id, "challenge_expired", {})

    def public_events(self) -> list[Event]:
        return [Event.from_json(e) for e in self.payload.get("events", ())]

    def ready(self, record: MatchRecord, args: ArgsT) -> None:
        """What to tell the notifier about the match as ``record`` (committed) stands."""
        self.record, self.args = record, args


#: The notice being handed to the notifier (set by the service around each call, in that task):
#: the presentation keys the messages it sends for it by its outbox id and a slot, so delivering
#: it again edits them instead of posting them twice (see ``cogs/placement.py``, ``MatchTable.send``).
delivering: ContextVar[Notice[Any] | None] = ContextVar("delivering", default=None)


@dataclass
class Delivery:
    """Notices of one commit, delivered in order after it (see ``store.Session``)."""

    notices: list[Notice[Any]] = field(default_factory=list)

    def add(self, notice: Notice[ArgsT]) -> Notice[ArgsT]:
        self.notices.append(notice)
        return notice


__all__ = [
    "NOTICE_ARGS",
    "ArgsT",
    "ChallengeExpiredArgs",
    "Delivery",
    "EventsArgs",
    "FinishedArgs",
    "Notice",
    "NoticeArgs",
    "NoticeKind",
    "Notifier",
    "NullNotifier",
    "PromptArgs",
    "ReminderArgs",
    "StartedArgs",
    "TimeoutArgs",
    "delivering",
    "tell",
]
