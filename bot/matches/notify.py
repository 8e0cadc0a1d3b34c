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
from typing import Any, Literal, Protocol

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


@dataclass
class Notice:
    """One notice: its durable form (``kind`` and a JSON ``payload``, the outbox row ``id`` once
    written) and, when the service made it just now, the call to deliver (``args`` after the record:
    the prompt, the view...). A notice loaded from the outbox after a restart has no ``args`` yet:
    the service computes them from the match as it is then."""

    match_id: int
    kind: NoticeKind
    payload: dict[str, Any]
    id: int | None = None
    args: tuple[Any, ...] | None = None
    record: MatchRecord | None = None
    #: read back from the outbox (after a crash, or a dead process's): it may have been delivered,
    #: in part, before; its messages are looked up (``deliveries``) and edited, not posted again
    redelivered: bool = False

    # -- the durable payloads -------------------------------------------------------------
    @classmethod
    def started(cls, match_id: int, events: Sequence[Event]) -> Notice:
        return cls(match_id, "started", {"events": [e.to_json() for e in public_events(events)]})

    @classmethod
    def moved(cls, match_id: int, seat: int, events: Sequence[Event]) -> Notice:
        return cls(match_id, "events", {"seat": seat, "events": [e.to_json() for e in public_events(events)]})

    @classmethod
    def prompt(cls, match_id: int, seat: int, seat_step: int, turn_passed: bool) -> Notice:
        return cls(match_id, "prompt", {"seat": seat, "seat_step": seat_step, "turn_passed": turn_passed})

    @classmethod
    def reminder(cls, match_id: int, seat: int, deadline: int) -> Notice:
        return cls(match_id, "reminder", {"seat": seat, "deadline": deadline})

    @classmethod
    def timeout(cls, match_id: int, seat: int, result: TimeoutResult) -> Notice:
        return cls(match_id, "timeout", {"seat": seat, "result": result.value})

    @classmethod
    def finished(cls, match_id: int, outcome: Outcome) -> Notice:
        return cls(match_id, "finished", {"outcome": outcome.to_json()})

    @classmethod
    def expired(cls, match_id: int) -> Notice:
        return cls(match_id, "challenge_expired", {})

    def public_events(self) -> list[Event]:
        return [Event.from_json(e) for e in self.payload.get("events", ())]


#: The notice being handed to the notifier (set by the service around each call, in that task):
#: the presentation keys the messages it sends for it by its outbox id and a slot, so delivering
#: it again edits them instead of posting them twice (see ``cogs/placement.py``, ``MatchTable.send``).
delivering: ContextVar[Notice | None] = ContextVar("delivering", default=None)


@dataclass
class Delivery:
    """Notices of one commit, delivered in order after it (see ``store.Session``)."""

    notices: list[Notice] = field(default_factory=list)

    def add(self, notice: Notice) -> Notice:
        self.notices.append(notice)
        return notice


__all__ = ["Delivery", "Notice", "NoticeKind", "Notifier", "NullNotifier", "delivering"]
