"""Tournament storage (migration 0012): tournaments, their entrants, the matches they made and the
events the presentation shows. Rows only: :mod:`bot.tournaments.service` validates and decides.

Every change of a tournament goes through a :class:`~db.Batch` that bumps its ``version`` under a
guard (``WHERE version = ?``, expecting one row), so two writers (two processes, or a stale reader)
never both apply: the loser gets :class:`~db.StaleWrite` and nothing of its batch is written.
Construct it where needed: ``TournamentsRepository(db)``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from .database import Batch
from .records import MatchStatus
from .repositories import _Repository, dump_json

if TYPE_CHECKING:
    from .database import Row


class TournamentStatus(StrEnum):
    SIGNUP = "signup"
    RUNNING = "running"
    PAUSED = "paused"
    FINISHED = "finished"
    CANCELLED = "cancelled"


#: The columns :meth:`TournamentsRepository.update` may set (``version`` and ``updated_at`` are set
#: by every update).
COLUMNS = (
    "message_id",
    "status",
    "state",
    "round_deadline_at",
    "round_seconds",
    "start_at",
    "finished_at",
    "announced_round",
)


@dataclass(frozen=True)
class EntrantRecord:
    user_id: int
    display_name: str
    joined_at: int


@dataclass(frozen=True)
class TournamentRecord:
    id: int
    guild_id: int | None
    channel_id: int | None
    message_id: int | None
    organizer_id: int
    game: str
    format: str
    options: dict[str, Any]
    settings: dict[str, Any]
    turn_time_seconds: int | None
    max_players: int | None
    start_at: int | None
    round_seconds: int | None
    round_deadline_at: int | None
    status: TournamentStatus
    state: str | None
    announced_round: int
    version: int
    created_at: int
    updated_at: int
    finished_at: int | None
    entrants: tuple[EntrantRecord, ...] = ()

    @classmethod
    def from_rows(cls, row: Row, entrants: Sequence[Row]) -> TournamentRecord:
        return cls(
            id=int(row["id"]),
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            message_id=row["message_id"],
            organizer_id=int(row["organizer_id"]),
            game=row["game"],
            format=row["format"],
            options=json.loads(row["options"]),
            settings=json.loads(row["settings"]),
            turn_time_seconds=row["turn_time_seconds"],
            max_players=row["max_players"],
            start_at=row["start_at"],
            round_seconds=row["round_seconds"],
            round_deadline_at=row["round_deadline_at"],
            status=TournamentStatus(row["status"]),
            state=row["state"],
            announced_round=int(row["announced_round"]),
            version=int(row["version"]),
            created_at=int(row["created_at"]),
            updated_at=int(row["updated_at"]),
            finished_at=row["finished_at"],
            entrants=tuple(EntrantRecord(int(e["user_id"]), e["display_name"], int(e["joined_at"])) for e in entrants),
        )

    def entrant(self, user_id: int) -> EntrantRecord | None:
        return next((e for e in self.entrants if e.user_id == user_id), None)

    def name_of(self, user_id: int) -> str:
        found = self.entrant(user_id)
        return found.display_name if found is not None else str(user_id)


@dataclass(frozen=True)
class TournamentMatchRecord:
    match_id: int
    tournament_id: int
    round: int
    pairing: str
    recorded: bool
    at_fault: tuple[int, ...] | None
    created_at: int

    @classmethod
    def from_row(cls, row: Row) -> TournamentMatchRecord:
        fault = row["at_fault"]
        return cls(
            match_id=int(row["match_id"]),
            tournament_id=int(row["tournament_id"]),
            round=int(row["round"]),
            pairing=row["pairing"],
            recorded=bool(row["recorded"]),
            at_fault=None if fault is None else tuple(int(u) for u in json.loads(fault)),
            created_at=int(row["created_at"]),
        )


@dataclass(frozen=True)
class TournamentEventRecord:
    id: int
    tournament_id: int
    kind: str
    payload: dict[str, Any]
    created_at: int
    delivered: bool

    @classmethod
    def from_row(cls, row: Row) -> TournamentEventRecord:
        return cls(
            id=int(row["id"]),
            tournament_id=int(row["tournament_id"]),
            kind=row["kind"],
            payload=json.loads(row["payload"]),
            created_at=int(row["created_at"]),
            delivered=bool(row["delivered"]),
        )


class TournamentsRepository(_Repository):
    # -- reads ----------------------------------------------------------------------------
    async def get(self, tournament_id: int) -> TournamentRecord | None:
        rows, entrants = await self.db.fetch_many(
            [
                ("SELECT * FROM tournaments WHERE id = ?", (tournament_id,)),
                (
                    "SELECT * FROM tournament_entrants WHERE tournament_id = ? ORDER BY joined_at, user_id",
                    (tournament_id,),
                ),
            ]
        )
        return TournamentRecord.from_rows(rows[0], entrants) if rows else None

    async def ids_with_status(self, *statuses: TournamentStatus) -> list[int]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self.db.fetchall(
            f"SELECT id FROM tournaments WHERE status IN ({marks}) ORDER BY id", tuple(s.value for s in statuses)
        )
        return [int(r[0]) for r in rows]

    async def due(self, now: int) -> list[int]:
        """Tournaments with something due: a planned start passed (sign-up) or a round deadline
        passed (running)."""
        rows = await self.db.fetchall(
            "SELECT id FROM tournaments WHERE (status = 'signup' AND start_at IS NOT NULL AND start_at <= ?)"
            " OR (status = 'running' AND round_deadline_at IS NOT NULL AND round_deadline_at <= ?) ORDER BY id",
            (now, now),
        )
        return [int(r[0]) for r in rows]

    async def links(self, tournament_id: int) -> list[TournamentMatchRecord]:
        """The tournament's matches, oldest first."""
        rows = await self.db.fetchall(
            "SELECT * FROM tournament_matches WHERE tournament_id = ? ORDER BY match_id", (tournament_id,)
        )
        return [TournamentMatchRecord.from_row(r) for r in rows]

    async def match_statuses(self, match_ids: Sequence[int]) -> dict[int, MatchStatus]:
        """The status of each match (a round's matches), 400 ids a query."""
        out: dict[int, MatchStatus] = {}
        for i in range(0, len(match_ids), 400):
            chunk = list(match_ids[i : i + 400])
            marks = ", ".join("?" for _ in chunk)
            rows = await self.db.fetchall(f"SELECT id, status FROM matches WHERE id IN ({marks})", chunk)
            out.update((int(r[0]), MatchStatus(r[1])) for r in rows)
        return out

    async def timeout_actions(self, match_id: int) -> list[tuple[int, dict[str, Any]]]:
        """(seat, action) of the match's player actions whose JSON holds the word ``"timeout"``,
        oldest first: a forfeit by time is among them. What a tournament result needs of a
        finished match's log (who timed out), not the whole log."""
        rows = await self.db.fetchall(
            "SELECT seat, action FROM actions WHERE match_id = ? AND seat IS NOT NULL"
            " AND action LIKE '%\"timeout\"%' ORDER BY idx",
            (match_id,),
        )
        return [(int(r[0]), json.loads(r[1])) for r in rows]

    async def link_of(self, match_id: int) -> TournamentMatchRecord | None:
        row = await self.db.fetchone("SELECT * FROM tournament_matches WHERE match_id = ?", (match_id,))
        return None if row is None else TournamentMatchRecord.from_row(row)

    async def events(self, tournament_id: int, *, pending_only: bool = False) -> list[TournamentEventRecord]:
        extra = " AND delivered = 0" if pending_only else ""
        rows = await self.db.fetchall(
            f"SELECT * FROM tournament_events WHERE tournament_id = ?{extra} ORDER BY id", (tournament_id,)
        )
        return [TournamentEventRecord.from_row(r) for r in rows]

    async def with_pending_events(self) -> list[int]:
        """The tournaments that have events not yet delivered, the one whose oldest pending event
        is oldest first: one row per tournament (the partial index ``tournament_events_pending``)."""
        rows = await self.db.fetchall(
            "SELECT tournament_id, MIN(id) AS oldest FROM tournament_events WHERE delivered = 0"
            " GROUP BY tournament_id ORDER BY oldest"
        )
        return [int(r[0]) for r in rows]

    async def past(self, guild_id: int, limit: int, offset: int = 0) -> list[int]:
        """A server's past tournaments (finished or cancelled), newest first: a page of ids."""
        rows = await self.db.fetchall(
            "SELECT id FROM tournaments WHERE guild_id = ? AND status IN ('finished', 'cancelled')"
            " ORDER BY COALESCE(finished_at, updated_at) DESC, id DESC LIMIT ? OFFSET ?",
            (guild_id, int(limit), int(offset)),
        )
        return [int(r[0]) for r in rows]

    async def past_count(self, guild_id: int) -> int:
        row = await self.db.fetchone(
            "SELECT COUNT(*) FROM tournaments WHERE guild_id = ? AND status IN ('finished', 'cancelled')",
            (guild_id,),
        )
        return int(row[0]) if row is not None else 0

    @staticmethod
    def _entered(user_id: int, guild_id: int | None) -> tuple[str, tuple[Any, ...]]:
        where = (
            " FROM tournaments t JOIN tournament_entrants e ON e.tournament_id = t.id"
            " WHERE e.user_id = ? AND t.status = 'finished'"
        )
        if guild_id is None:
            return where, (user_id,)
        return where + " AND t.guild_id = ?", (user_id, guild_id)

    async def finished_entered(self, user_id: int, guild_id: int | None, limit: int, offset: int = 0) -> list[int]:
        """Finished tournaments the player was an entrant of (dropping out keeps the entry), newest
        first; ``guild_id`` None: every server's."""
        where, params = self._entered(user_id, guild_id)
        rows = await self.db.fetchall(
            f"SELECT t.id{where} ORDER BY COALESCE(t.finished_at, t.updated_at) DESC, t.id DESC LIMIT ? OFFSET ?",
            (*params, int(limit), int(offset)),
        )
        return [int(r[0]) for r in rows]

    async def finished_entered_count(self, user_id: int, guild_id: int | None) -> int:
        where, params = self._entered(user_id, guild_id)
        row = await self.db.fetchone(f"SELECT COUNT(*){where}", params)
        return int(row[0]) if row is not None else 0

    async def mark_delivered(self, event_ids: Sequence[int]) -> None:
        if event_ids:
            await self.db.executemany(
                "UPDATE tournament_events SET delivered = 1 WHERE id = ?", [(i,) for i in event_ids]
            )

    # -- writes ---------------------------------------------------------------------------
    async def create(
        self,
        *,
        guild_id: int | None,
        channel_id: int | None,
        organizer_id: int,
        game: str,
        format: str,
        options: Mapping[str, Any],
        settings: Mapping[str, Any],
        turn_time_seconds: int | None,
        max_players: int | None,
        start_at: int | None,
        round_seconds: int | None,
        event: tuple[str, Mapping[str, Any]] | None = None,
        at: int | None = None,
    ) -> TournamentRecord:
        """A tournament in sign-up (and its first event), in one transaction."""
        now = self._now(at)
        async with self.db.transaction():
            _, tid = await self.db.execute(
                "INSERT INTO tournaments (guild_id, channel_id, organizer_id, game, format, options, settings,"
                " turn_time_seconds, max_players, start_at, round_seconds, status, version, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'signup', 0, ?, ?)",
                (
                    guild_id,
                    channel_id,
                    organizer_id,
                    game,
                    format,
                    dump_json(dict(options)),
                    dump_json(dict(settings)),
                    turn_time_seconds,
                    max_players,
                    start_at,
                    round_seconds,
                    now,
                    now,
                ),
            )
            assert tid is not None
            if event is not None:
                batch = Batch()
                self.add_event(batch, tid, event[0], event[1], now)
                await self.db.write(batch)
        record = await self.get(tid)
        assert record is not None
        return record

    @staticmethod
    def update(batch: Batch, record: TournamentRecord, at: int, **changes: Any) -> Batch:
        """Set ``changes`` (columns of :data:`COLUMNS`) and bump the version, guarded by the
        version ``record`` was read at (StaleWrite when someone changed it meanwhile)."""
        unknown = sorted(set(changes) - set(COLUMNS))
        if unknown:
            raise KeyError(f"tournaments has no column(s) {', '.join(unknown)} to update")
        sets = "".join(f", {c} = ?" for c in changes)
        values = [v.value if isinstance(v, StrEnum) else v for v in changes.values()]
        return batch.add(
            f"UPDATE tournaments SET version = version + 1, updated_at = ?{sets} WHERE id = ? AND version = ?",
            (at, *values, record.id, record.version),
            expect_rows=1,
        )

    @staticmethod
    def add_entrant(batch: Batch, tournament_id: int, user_id: int, name: str, at: int) -> Batch:
        return batch.add(
            "INSERT INTO tournament_entrants (tournament_id, user_id, display_name, joined_at) VALUES (?, ?, ?, ?)",
            (tournament_id, user_id, name, at),
        )

    @staticmethod
    def remove_entrant(batch: Batch, tournament_id: int, user_id: int) -> Batch:
        return batch.add(
            "DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
            (tournament_id, user_id),
            expect_rows=1,
        )

    @staticmethod
    def add_link(batch: Batch, tournament_id: int, match_id: int, round_number: int, pairing: str, at: int) -> Batch:
        return batch.add(
            "INSERT INTO tournament_matches (match_id, tournament_id, round, pairing, recorded, created_at)"
            " VALUES (?, ?, ?, ?, 0, ?)",
            (match_id, tournament_id, round_number, pairing, at),
        )

    @staticmethod
    def mark_recorded(batch: Batch, match_id: int) -> Batch:
        return batch.add("UPDATE tournament_matches SET recorded = 1 WHERE match_id = ?", (match_id,))

    @staticmethod
    def set_at_fault(batch: Batch, match_id: int, user_ids: Sequence[int]) -> Batch:
        return batch.add(
            "UPDATE tournament_matches SET at_fault = ? WHERE match_id = ?", (json.dumps(list(user_ids)), match_id)
        )

    @staticmethod
    def add_event(batch: Batch, tournament_id: int, kind: str, payload: Mapping[str, Any], at: int) -> Batch:
        return batch.add(
            "INSERT INTO tournament_events (tournament_id, kind, payload, created_at, delivered)"
            " VALUES (?, ?, ?, ?, 0)",
            (tournament_id, kind, dump_json(dict(payload)), at),
        )

    async def write(self, batch: Batch) -> None:
        """Commit ``batch`` (StaleWrite: a guard failed and nothing was written)."""
        await self.db.write(batch)


__all__ = [
    "COLUMNS",
    "EntrantRecord",
    "TournamentEventRecord",
    "TournamentMatchRecord",
    "TournamentRecord",
    "TournamentStatus",
    "TournamentsRepository",
]
