"""Typed records of the database's rows (matches, seats, players, actions) and how a match's rows
become its record. The repositories (:mod:`db.repositories`) read and write them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .database import Query, Row


class MatchStatus(StrEnum):
    PENDING = "pending"
    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"
    DECLINED = "declined"
    EXPIRED = "expired"
    CANCELLED = "cancelled"


CLOSED_CHALLENGE = (MatchStatus.DECLINED, MatchStatus.EXPIRED, MatchStatus.CANCELLED)


def dump_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _bool_or_none(value: Any) -> bool | None:
    return None if value is None else bool(value)


# ---------------------------------------------------------------------------------------
# records
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerRecord:
    user_id: int
    display_name: str
    first_seen_at: int
    last_seen_at: int


@dataclass(frozen=True)
class SeatRecord:
    match_id: int
    seat: int
    user_id: int
    display_name: str
    dm_ok: bool | None
    accepted: bool
    deadline_at: int | None
    awaited_since: int | None
    reminded: bool
    ai: str | None = None  # a computer player's level ('easy', 'normal', 'hard'); None: a person

    @property
    def is_ai(self) -> bool:
        return self.ai is not None

    @classmethod
    def from_row(cls, row: Row) -> SeatRecord:
        return cls(
            match_id=row["match_id"],
            seat=row["seat"],
            user_id=row["user_id"],
            display_name=row["display_name"],
            dm_ok=_bool_or_none(row["dm_ok"]),
            accepted=bool(row["accepted"]),
            deadline_at=row["deadline_at"],
            awaited_since=row["awaited_since"],
            reminded=bool(row["reminded"]),
            ai=row["ai"] if "ai" in row.keys() else None,  # noqa: SIM118  (a Row iterates its values)
        )


@dataclass(frozen=True)
class MatchRecord:
    id: int
    game: str
    options: dict[str, Any]
    seed: int | None
    guild_id: int | None
    channel_id: int | None
    status: MatchStatus
    challenger_id: int
    created_at: int
    started_at: int | None
    finished_at: int | None
    expires_at: int | None
    outcome: dict[str, Any] | None
    summary: str | None
    message_id: int | None
    seats: tuple[SeatRecord, ...]
    open_table: bool = False  # anyone may join with a button until the host starts it
    practice: bool = False  # a match with a computer player: recorded, replayable, never rated
    #: bumped by every guarded write of the match (its log, deadlines, start, end): a process whose
    #: cached copy has another version is behind and reloads (see ``LiveRepository.guard``)
    version: int = 0
    #: seconds each seat has for a move in this match (a tournament's turn time); None: the
    #: server's /settings turn time, else the bot's MOVE_TIMEOUT_SECONDS (migration 0013)
    turn_time_seconds: int | None = None

    @property
    def ai_seats(self) -> list[int]:
        """The seats computer players hold."""
        return [s.seat for s in self.seats if s.ai is not None]

    def is_ai(self, seat: int) -> bool:
        return 0 <= seat < len(self.seats) and self.seats[seat].ai is not None

    def seat_of(self, user_id: int) -> int | None:
        """The seat ``user_id`` occupies in this match, or None."""
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat.seat
        return None

    def seat(self, index: int) -> SeatRecord:
        return self.seats[index]

    @property
    def user_ids(self) -> list[int]:
        return [s.user_id for s in self.seats]

    @property
    def names(self) -> list[str]:
        return [s.display_name for s in self.seats]


@dataclass(frozen=True)
class NewAction:
    """One log entry to append. ``seat`` None is chance; ``auto`` marks an action the referee
    chose for a timed-out seat."""

    seat: int | None
    action: Mapping[str, Any]
    auto: bool = False


@dataclass(frozen=True)
class ActionRecord:
    match_id: int
    idx: int
    seat: int | None
    action: dict[str, Any]
    auto: bool
    created_at: int


def match_record(row: Row, seats: Sequence[SeatRecord]) -> MatchRecord:
    """The record of a ``matches`` row with its seats."""
    return MatchRecord(
        id=row["id"],
        game=row["game"],
        options=json.loads(row["options"]),
        seed=row["seed"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        status=MatchStatus(row["status"]),
        challenger_id=row["challenger_id"],
        created_at=row["created_at"],
        started_at=row["started_at"],
        finished_at=row["finished_at"],
        expires_at=row["expires_at"],
        outcome=None if row["outcome"] is None else json.loads(row["outcome"]),
        summary=row["summary"],
        message_id=row["message_id"],
        seats=tuple(seats),
        open_table=bool(row["open_table"]),
        practice=bool(row["practice"]) if "practice" in row.keys() else False,  # noqa: SIM118
        version=int(row["version"]) if "version" in row.keys() else 0,  # noqa: SIM118
        turn_time_seconds=row["turn_time_seconds"] if "turn_time_seconds" in row.keys() else None,  # noqa: SIM118
    )


def match_queries(match_id: int) -> list[Query]:
    """The queries that read a match and its seats (for :meth:`Database.fetch_many`, so that they
    are one round trip, alone or with others)."""
    return [
        ("SELECT * FROM matches WHERE id = ?", (match_id,)),
        ("SELECT * FROM seats WHERE match_id = ? ORDER BY seat", (match_id,)),
    ]


def match_from_rows(matches: Sequence[Row], seats: Sequence[Row], *_: Any) -> MatchRecord | None:
    """The record the rows of :func:`match_queries` describe, or None (no such match)."""
    if not matches:
        return None
    return match_record(matches[0], [SeatRecord.from_row(r) for r in seats])
