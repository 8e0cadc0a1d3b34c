"""What the match service returns: an accepted move, an accepted challenge, a seat's prompt, a
timer tick."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from db import MatchRecord
from rules.core import ActionModel, Awaiting, Decision, Event, Outcome

PlayerRef = tuple[int, str]
"""(Discord user id, display name)."""


class TimeoutResult(StrEnum):
    ACTION_TAKEN = "action_taken"  # the referee played the seat's default action
    FORFEIT = "forfeit"  # the seat forfeited on time
    ABANDONED = "abandoned"  # nobody was around: the match was abandoned


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
    """What a seat's prompt needs, consistent at one instant: embed ``seat_step`` in the buttons
    and pass it back to submit. ``turn_passed``: the last move was another player's, so the move
    has just passed to this one (a public prompt pings the player only then)."""

    match_id: int
    seat: int
    seat_step: int
    awaited: bool
    deadline_at: int | None
    decision: Decision | None  # what the seat is asked now (None: nothing)
    view: Mapping[str, Any]
    turn_passed: bool = True

    @property
    def legal_actions(self) -> Sequence[ActionModel]:
        return self.decision.choices if self.decision is not None else ()


@dataclass
class TickReport:
    expired: list[int] = field(default_factory=list)
    reminders: list[tuple[int, int]] = field(default_factory=list)
    timeouts: list[tuple[int, int, TimeoutResult]] = field(default_factory=list)


__all__ = ["AcceptResult", "MoveResult", "PlayerRef", "SeatPrompt", "TickReport", "TimeoutResult"]
