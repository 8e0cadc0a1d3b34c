"""What happened in a game, and how it ended: events with their texts, and the outcome.

Event texts name players by seat placeholders (``{p1}`` for seat 0), filled in with the players'
names when shown (:func:`fill_names`), so one log serves any display.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Any, NamedTuple

#: The ``data`` of an event that has none (shared, read-only).
NO_DATA: Mapping[str, Any] = MappingProxyType({})


class Event(NamedTuple):
    """Something that happened. ``visible_to`` None means public; otherwise only those seats see it.

    ``text`` is a plain-English sentence a player can read; ``data`` is JSON-ready detail.
    Immutable and cheap to make (a game makes a hundred or more: a hot path of playouts).
    """

    kind: str
    text: str
    data: Mapping[str, Any] = NO_DATA
    visible_to: frozenset[int] | None = None

    def render(self, names: Sequence[str]) -> str:
        return fill_names(self.text, names)

    def to_json(self, names: Sequence[str] | None = None) -> dict[str, Any]:
        text = self.render(names) if names else self.text
        out: dict[str, Any] = {"kind": self.kind, "text": text, "data": dict(self.data)}
        if self.visible_to is not None:
            out["visible_to"] = sorted(self.visible_to)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        """The event ``to_json()`` (without names) wrote."""
        visible = data.get("visible_to")
        return cls(
            str(data["kind"]),
            str(data["text"]),
            dict(data.get("data") or {}),
            None if visible is None else frozenset(int(s) for s in visible),
        )


def public_events(events: Iterable[Event]) -> list[Event]:
    """The events every seat and the channel see (``visible_to`` None), in order: the one filter
    the engines, the service and the presentation use."""
    return [e for e in events if e.visible_to is None]


def last_public(events: Sequence[Event], *kinds: str) -> Event | None:
    """The last public event of one of ``kinds`` in ``events`` (None if there is none)."""
    return next((e for e in reversed(events) if e.visible_to is None and e.kind in kinds), None)


def seat_ref(seat: int) -> str:
    """The placeholder for a seat's name in event texts: ``{p1}`` for seat 0."""
    return "{p%d}" % (seat + 1)


def fill_names(text: str, names: Sequence[str]) -> str:
    """Replace ``{p1}``, ``{p2}``... in an engine text with the players' names."""
    for i, name in enumerate(names):
        text = text.replace("{p%d}" % (i + 1), name)
    return text


class Result(StrEnum):
    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"


@dataclass(frozen=True)
class SeatResult:
    result: Result
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"result": self.result.value, "reason": self.reason}


@dataclass(frozen=True)
class Outcome:
    """Per seat: win, loss or draw with the reason. ``ranks`` orders the seats for ratings
    (1 = best; equal ranks tie). ``summary`` is one sentence for the channel."""

    seats: tuple[SeatResult, ...]
    summary: str
    ranks: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not self.ranks:
            order = {Result.WIN: 1, Result.DRAW: 2, Result.LOSS: 3}
            raw = [order[s.result] for s in self.seats]
            # dense ranks: all winners 1, then draws, then losers
            distinct = sorted(set(raw))
            object.__setattr__(self, "ranks", tuple(distinct.index(r) + 1 for r in raw))

    @property
    def winners(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.result is Result.WIN]

    def to_json(self, names: Sequence[str] | None = None) -> dict[str, Any]:
        def f(text: str) -> str:
            return fill_names(text, names) if names else text

        return {
            "summary": f(self.summary),
            "ranks": list(self.ranks),
            "seats": [{"result": s.result.value, "reason": f(s.reason)} for s in self.seats],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        """The outcome ``to_json()`` (without names) wrote."""
        return cls(
            tuple(SeatResult(Result(s["result"]), str(s["reason"])) for s in data["seats"]),
            str(data["summary"]),
            tuple(int(r) for r in data.get("ranks") or ()),
        )

    @classmethod
    def single_winner(cls, num_seats: int, winner: int, why: str, loser_why: str | None = None) -> Outcome:
        return cls(
            tuple(
                SeatResult(Result.WIN, why) if i == winner else SeatResult(Result.LOSS, loser_why or why)
                for i in range(num_seats)
            ),
            why,
        )

    @classmethod
    def draw(cls, num_seats: int, why: str) -> Outcome:
        return cls(tuple(SeatResult(Result.DRAW, why) for _ in range(num_seats)), why)
