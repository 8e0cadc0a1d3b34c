"""The tournament events, typed: one frozen dataclass per kind of the ``tournament_events`` outbox
(:data:`EVENT_KINDS`), what the presentation shows of a tournament's life.

Each class names its ``KIND``, makes the JSON stored for it (:meth:`to_json`, written by the
service in the transaction of the change) and reads it back (:meth:`from_json`). The stored JSON
is the contract: rows written by an earlier version are read by this one, so a class's
``to_json`` never changes what it writes for the same event (``tests/cogs/test_tournament_golden.py``
pins it byte for byte) and ``from_json`` reads what older rows may leave out with the defaults the
presentation always used. A row this version cannot read (a kind it does not know, a payload that
is not what the kind says) is :class:`Unreadable`: shown as nothing, never an error.

:class:`TournamentEvent` is one stored event: its row (``payload`` as stored) and ``data``, the
payload typed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Self, TypeAlias, cast

from db.tournaments import TournamentEventRecord, TournamentMatchRecord, TournamentRecord

from .model import Match, PlayerId, Result
from .standings import Standings
from .tournament import Tournament

log = logging.getLogger("bot.tournaments")


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)


class _Fields:
    """``to_json``: every field of the dataclass under its own name (tuples as lists)."""

    def to_json(self) -> dict[str, Any]:
        return {f.name: _plain(getattr(self, f.name)) for f in fields(cast(Any, self))}


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


# -- the parts several events share ----------------------------------------------------------


@dataclass(frozen=True)
class Entrant(_Fields):
    """A player signed up (``signup_changed``)."""

    id: int
    name: str

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Entrant:
        return cls(int(data["id"]), str(data["name"]))


@dataclass(frozen=True)
class StandingRow(_Fields):
    """One row of the standings as stored (:meth:`bot.tournaments.standings.Standing.to_dict`:
    points as a float, the tie-breaks rounded to 4 places, the record as ``W-L-D``)."""

    rank: int
    player: PlayerId
    match_points: float
    record: str
    byes: int
    omw: float
    gwp: float
    ogw: float
    lot: int
    by_lot: bool
    dropped: bool

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> StandingRow:
        return cls(
            rank=int(data["rank"]),
            player=int(data["player"]),
            match_points=data["match_points"],
            record=str(data["record"]),
            byes=int(data["byes"]),
            omw=data["omw"],
            gwp=data["gwp"],
            ogw=data["ogw"],
            lot=int(data["lot"]),
            by_lot=bool(data["by_lot"]),
            dropped=bool(data["dropped"]),
        )


@dataclass(frozen=True)
class LotDrawn(_Fields):
    """Players equal on every tie-break, ordered by their lots."""

    players: tuple[PlayerId, ...]
    lots: tuple[int, ...]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LotDrawn:
        return cls(tuple(int(p) for p in data["players"]), tuple(int(x) for x in data["lots"]))


@dataclass(frozen=True)
class StandingsTable:
    """The standings as an event carries them: rows and lot draws."""

    rows: tuple[StandingRow, ...]
    draws: tuple[LotDrawn, ...]

    @classmethod
    def of(cls, standings: Standings) -> StandingsTable:
        return cls.from_json(standings.to_dict())  # the stored form's own rounding, by construction

    def to_json(self) -> dict[str, Any]:
        return {"rows": [r.to_json() for r in self.rows], "draws": [d.to_json() for d in self.draws]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> StandingsTable:
        return cls(
            tuple(StandingRow.from_json(r) for r in data.get("rows", ())),
            tuple(LotDrawn.from_json(d) for d in data.get("draws", ())),
        )


def _round_of(t: Tournament) -> int:
    return t.current_round.number if t.current_round else 0


@dataclass(frozen=True)
class Pairing(_Fields):
    """One match of a round as its announcement shows it."""

    pairing: str
    seats: tuple[PlayerId, ...]
    bye: bool
    label: str
    match_id: int | None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Pairing:
        return cls(
            str(data.get("pairing", "")),
            tuple(int(p) for p in data.get("seats", ())),
            bool(data.get("bye")),
            str(data.get("label") or ""),
            _opt_int(data.get("match_id")),
        )


@dataclass(frozen=True)
class Reported:
    """A match's result as a ``match_result`` event carries it: each player's placement (1 = best),
    who timed out, the result kind."""

    placements: tuple[tuple[PlayerId, int], ...]
    timed_out: tuple[PlayerId, ...]
    kind: str

    @classmethod
    def of(cls, m: Match, result: Result) -> Reported:
        placed = tuple(zip(m.seats, result.placements, strict=True))
        return cls(placed, tuple(result.timed_out), result.kind.value)

    def to_json(self) -> dict[str, Any]:
        return {
            "placements": {str(p): place for p, place in self.placements},
            "timed_out": list(self.timed_out),
            "kind": self.kind,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Reported:
        placed = tuple((int(p), int(place)) for p, place in data["placements"].items())
        return cls(placed, tuple(int(p) for p in data.get("timed_out", ())), str(data.get("kind", "played")))


# -- the events ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Created(_Fields):
    """A tournament in sign-up: its game, format and settings."""

    KIND: ClassVar[str] = "created"
    game: str
    format: str
    organizer: int
    rounds: int | None
    max_players: int | None
    start_at: int | None
    turn_time: int | None

    @classmethod
    def of(cls, rec: TournamentRecord) -> Created:
        return cls(
            rec.game,
            rec.format,
            rec.organizer_id,
            rec.settings.get("rounds"),
            rec.max_players,
            rec.start_at,
            rec.turn_time_seconds,
        )

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Created:
        return cls(
            str(data["game"]),
            str(data["format"]),
            int(data["organizer"]),
            _opt_int(data.get("rounds")),
            _opt_int(data.get("max_players")),
            _opt_int(data.get("start_at")),
            _opt_int(data.get("turn_time")),
        )


@dataclass(frozen=True)
class SignupChanged:
    """Someone joined or left during the sign-up: the entrants now."""

    KIND: ClassVar[str] = "signup_changed"
    entrants: tuple[Entrant, ...]
    count: int
    max_players: int | None

    @classmethod
    def of(cls, rec: TournamentRecord) -> SignupChanged:
        entrants = tuple(Entrant(e.user_id, e.display_name) for e in rec.entrants)
        return cls(entrants, len(rec.entrants), rec.max_players)

    def to_json(self) -> dict[str, Any]:
        return {"entrants": [e.to_json() for e in self.entrants], "count": self.count, "max_players": self.max_players}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SignupChanged:
        entrants = tuple(Entrant.from_json(e) for e in data.get("entrants", ()))
        return cls(entrants, int(data.get("count", len(entrants))), _opt_int(data.get("max_players")))


@dataclass(frozen=True)
class Started(_Fields):
    """The sign-up closed: the players (in seed order), the rounds planned, the format."""

    KIND: ClassVar[str] = "started"
    players: tuple[PlayerId, ...]
    rounds: int
    format: str

    @classmethod
    def of(cls, t: Tournament) -> Started:
        return cls(tuple(p.id for p in t.players), t.rounds_planned, t.format.value)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Started:
        return cls(tuple(int(p) for p in data["players"]), int(data["rounds"]), str(data["format"]))


@dataclass(frozen=True)
class RoundStarted:
    """A round's matches are made: the round, of how many, its deadline and its pairings."""

    KIND: ClassVar[str] = "round_started"
    round: int | None
    of: int | None
    deadline: int | None
    matches: tuple[Pairing, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "of": self.of,
            "deadline": self.deadline,
            "matches": [m.to_json() for m in self.matches],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RoundStarted:
        return cls(
            _opt_int(data.get("round")),
            _opt_int(data.get("of")),
            _opt_int(data.get("deadline")),
            tuple(Pairing.from_json(m) for m in data.get("matches", ())),
        )


@dataclass(frozen=True)
class MatchResult:
    """A match of the round ended: its result (None: a match whose result the core did not
    take), or a knock-out game drawn that is played again (``replay``: why)."""

    KIND: ClassVar[str] = "match_result"
    round: int
    pairing: str
    match_id: int
    result: Reported | None = None
    replay: str | None = None

    @classmethod
    def of(cls, m: Match, link: TournamentMatchRecord, result: Result | None, replay: str | None = None) -> MatchResult:
        return cls(link.round, m.id, link.match_id, None if result is None else Reported.of(m, result), replay)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"round": self.round, "pairing": self.pairing, "match_id": self.match_id}
        if self.result is not None:
            out.update(self.result.to_json())
        if self.replay is not None:
            out["replay"] = self.replay
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MatchResult:
        result = Reported.from_json(data) if "placements" in data else None
        replay = data.get("replay")
        return cls(int(data["round"]), str(data["pairing"]), int(data["match_id"]), result, _opt_str(replay))


def _opt_str(value: Any) -> str | None:
    return None if value is None else str(value)


@dataclass(frozen=True)
class StandingsChanged:
    """A round is over: the standings after it (its tie-breaks depend on the whole round)."""

    KIND: ClassVar[str] = "standings_changed"
    round: int
    standings: StandingsTable

    @classmethod
    def of(cls, t: Tournament) -> StandingsChanged:
        return cls(_round_of(t), StandingsTable.of(t.standings()))

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, **self.standings.to_json()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> StandingsChanged:
        return cls(int(data.get("round", 0)), StandingsTable.from_json(data))


@dataclass(frozen=True)
class PlayerDropped:
    """A player is out: who, why, and who dropped them (None: the rules, for missed matches)."""

    KIND: ClassVar[str] = "player_dropped"
    player: PlayerId
    reason: str
    by: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"player": self.player, "reason": self.reason}
        if self.by is not None:
            out["by"] = self.by
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PlayerDropped:
        return cls(int(data["player"]), str(data.get("reason", "")), _opt_int(data.get("by")))


@dataclass(frozen=True)
class RoundDeadline:
    """The round time was set (``seconds``, None: removed; ``at``: the current round's deadline),
    or the round's deadline ``passed`` (its unfinished matches adjudicated)."""

    KIND: ClassVar[str] = "round_deadline"
    seconds: int | None = None
    at: int | None = None
    passed: bool = False

    def to_json(self) -> dict[str, Any]:
        if self.passed:
            return {"passed": True}
        return {"seconds": self.seconds, "at": self.at}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RoundDeadline:
        if data.get("passed"):
            return cls(passed=True)
        return cls(_opt_int(data.get("seconds")), _opt_int(data.get("at")))


@dataclass(frozen=True)
class _By(_Fields):
    by: int

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        return cls(int(data["by"]))


@dataclass(frozen=True)
class Paused(_By):
    """The organizer (or a manager) held the next round: ``by`` whom."""

    KIND: ClassVar[str] = "paused"


@dataclass(frozen=True)
class Resumed(_By):
    """The organizer (or a manager) went on after a pause: ``by`` whom."""

    KIND: ClassVar[str] = "resumed"


@dataclass(frozen=True)
class Cancelled:
    """Stopped for good: by whom (None: the bot, at a planned start that could not be made, with
    its ``reason``)."""

    KIND: ClassVar[str] = "cancelled"
    by: int | None
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"by": self.by}
        if self.reason is not None:
            out["reason"] = self.reason
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Cancelled:
        return cls(_opt_int(data.get("by")), _opt_str(data.get("reason")))


@dataclass(frozen=True)
class Finished:
    """The tournament is over: the champion (None: nobody), the final ranking as (place, player)
    and the final standings."""

    KIND: ClassVar[str] = "finished"
    champion: PlayerId | None
    ranking: tuple[tuple[int, PlayerId], ...]
    round: int
    standings: StandingsTable

    @classmethod
    def of(cls, t: Tournament) -> Finished:
        standings = t.standings()
        ranking = tuple((place, pid) for place, pid in t.ranking(standings))
        champion = ranking[0][1] if ranking else None
        return cls(champion, ranking, _round_of(t), StandingsTable.of(standings))

    def to_json(self) -> dict[str, Any]:
        ranked = [[place, pid] for place, pid in self.ranking]
        return {"champion": self.champion, "ranking": ranked, "round": self.round, **self.standings.to_json()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Finished:
        ranking = tuple((int(place), int(pid)) for place, pid in data.get("ranking", ()))
        return cls(_opt_int(data.get("champion")), ranking, int(data.get("round", 0)), StandingsTable.from_json(data))


#: Any event's payload, typed by its kind.
EventData: TypeAlias = (
    Created
    | SignupChanged
    | Started
    | RoundStarted
    | MatchResult
    | StandingsChanged
    | PlayerDropped
    | RoundDeadline
    | Paused
    | Resumed
    | Cancelled
    | Finished
)

#: Each kind's reader, in the order of a tournament's life.
READERS: dict[str, Callable[[Mapping[str, Any]], EventData]] = {
    Created.KIND: Created.from_json,
    SignupChanged.KIND: SignupChanged.from_json,
    Started.KIND: Started.from_json,
    RoundStarted.KIND: RoundStarted.from_json,
    MatchResult.KIND: MatchResult.from_json,
    StandingsChanged.KIND: StandingsChanged.from_json,
    PlayerDropped.KIND: PlayerDropped.from_json,
    RoundDeadline.KIND: RoundDeadline.from_json,
    Paused.KIND: Paused.from_json,
    Resumed.KIND: Resumed.from_json,
    Cancelled.KIND: Cancelled.from_json,
    Finished.KIND: Finished.from_json,
}

#: Event kinds (the ``tournament_events`` outbox): what the tournament message shows.
EVENT_KINDS = tuple(READERS)


@dataclass(frozen=True)
class Unreadable:
    """A stored event this version cannot read (an unknown kind, a payload not of its kind)."""

    kind: str
    why: str


def read_payload(kind: str, payload: Mapping[str, Any]) -> EventData | Unreadable:
    """The typed payload of a stored event of ``kind`` (:class:`Unreadable` when it cannot be read)."""
    reader = READERS.get(kind)
    if reader is None:
        return Unreadable(kind, "an event kind this version does not know")
    try:
        return reader(payload)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        log.warning("A %s event's payload cannot be read: %r", kind, exc)
        return Unreadable(kind, f"its payload cannot be read: {exc!r}")


@dataclass(frozen=True)
class TournamentEvent:
    """One event of a tournament's outbox: its row (``payload`` as stored, JSON) and ``data``, the
    payload typed by its kind."""

    id: int
    tournament_id: int
    kind: str
    payload: Mapping[str, Any]
    created_at: int
    delivered: bool
    data: EventData | Unreadable

    @classmethod
    def of(cls, row: TournamentEventRecord) -> TournamentEvent:
        data = read_payload(row.kind, row.payload)
        return cls(row.id, row.tournament_id, row.kind, row.payload, row.created_at, row.delivered, data)


__all__ = [
    "EVENT_KINDS",
    "READERS",
    "Cancelled",
    "Created",
    "Entrant",
    "EventData",
    "Finished",
    "LotDrawn",
    "MatchResult",
    "Pairing",
    "Paused",
    "PlayerDropped",
    "Reported",
    "Resumed",
    "RoundDeadline",
    "RoundStarted",
    "SignupChanged",
    "StandingRow",
    "StandingsChanged",
    "StandingsTable",
    "Started",
    "TournamentEvent",
    "Unreadable",
    "read_payload",
]
