"""The small repositories that read and write the typed records of :mod:`db.records`.

Times are unix seconds (UTC, int). JSON columns are decoded into plain dicts. Methods that take a
time default to the database clock; the match service passes its own clock's time explicitly.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .database import Batch, StaleWrite
from .errors import ActionIndexConflict, IntegrityError, UnknownMatch
from .records import (
    CLOSED_CHALLENGE,
    ActionRecord,
    MatchRecord,
    MatchStatus,
    NewAction,
    PlayerRecord,
    SeatRecord,
    dump_json,
    match_from_rows,
    match_queries,
    match_record,
)

if TYPE_CHECKING:
    from .database import Database, Row


# ---------------------------------------------------------------------------------------
# repositories
# ---------------------------------------------------------------------------------------


class _Repository:
    def __init__(self, db: Database) -> None:
        self.db = db

    def _now(self, at: int | None) -> int:
        return self.db.now() if at is None else int(at)


class PlayersRepository(_Repository):
    async def upsert(self, user_id: int, display_name: str, *, at: int | None = None) -> None:
        """Record a player (first sighting) or refresh their display name."""
        now = self._now(at)
        await self.db.execute(
            "INSERT INTO players (user_id, display_name, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name,"
            " last_seen_at = excluded.last_seen_at",
            (user_id, display_name, now, now),
        )

    async def get(self, user_id: int) -> PlayerRecord | None:
        row = await self.db.fetchone("SELECT * FROM players WHERE user_id = ?", (user_id,))
        return None if row is None else PlayerRecord(**dict(row))


class MatchesRepository(_Repository):
    async def create(
        self,
        *,
        game: str,
        options: Mapping[str, Any],
        guild_id: int | None,
        channel_id: int | None,
        seats: Sequence[tuple[int, str]],
        expires_at: int | None,
        created_at: int | None = None,
        open_table: bool = False,
        accepted_seat: int = 0,
        challenger_id: int | None = None,
        ai: Mapping[int, str] | None = None,
        turn_time_seconds: int | None = None,
    ) -> MatchRecord:
        """A pending match. ``seats[0]`` is the challenger (already accepted); the players are
        recorded too. One transaction. A rematch names its challenger (who asked) and the seat
        that has accepted (theirs), wherever the rotation put it. ``ai``: seat -> level of the
        computer players (accepted from the start); a match with one is a practice match.
        ``turn_time_seconds``: the match's own turn time (None: the server's or the bot's)."""
        now = self._now(created_at)
        challenger_id = seats[0][0] if challenger_id is None else challenger_id
        async with self.db.transaction():
            for user_id, name in seats:
                await self.db.players.upsert(user_id, name, at=now)
            _, match_id = await self.db.execute(
                "INSERT INTO matches (game, options, guild_id, channel_id, status, challenger_id,"
                " created_at, expires_at, open_table) VALUES (?, ?, ?, ?, 'pending', ?, ?, ?, ?)",
                (game, dump_json(dict(options)), guild_id, channel_id, challenger_id, now, expires_at, int(open_table)),
            )
            assert match_id is not None
            levels = dict(ai or {})
            await self.db.executemany(
                "INSERT INTO seats (match_id, seat, user_id, display_name, accepted) VALUES (?, ?, ?, ?, ?)",
                [
                    (match_id, i, uid, name, int(i == accepted_seat or i in levels))
                    for i, (uid, name) in enumerate(seats)
                ],
            )
            if levels:  # (the columns of migration 0010, written only when used)
                await self.db.execute("UPDATE matches SET practice = 1 WHERE id = ?", (match_id,))
                await self.db.executemany(
                    "UPDATE seats SET ai = ? WHERE match_id = ? AND seat = ?",
                    [(level, match_id, seat) for seat, level in levels.items()],
                )
            if turn_time_seconds is not None:  # (the column of migration 0013, written only when used)
                await self.db.execute(
                    "UPDATE matches SET turn_time_seconds = ? WHERE id = ?", (int(turn_time_seconds), match_id)
                )
        record = await self.get(match_id)
        assert record is not None
        return record

    async def get(self, match_id: int) -> MatchRecord | None:
        return match_from_rows(*await self.db.fetch_many(match_queries(match_id)))

    async def require(self, match_id: int) -> MatchRecord:
        record = await self.get(match_id)
        if record is None:
            raise UnknownMatch(match_id)
        return record

    async def with_status(self, *statuses: MatchStatus) -> list[MatchRecord]:
        marks = ", ".join("?" for _ in statuses)
        return await self._select(f"WHERE status IN ({marks})", tuple(s.value for s in statuses))

    async def for_user(self, user_id: int, statuses: Sequence[MatchStatus]) -> list[MatchRecord]:
        marks = ", ".join("?" for _ in statuses)
        return await self._select(
            f"WHERE status IN ({marks}) AND id IN (SELECT match_id FROM seats WHERE user_id = ?)",
            (*(s.value for s in statuses), user_id),
        )

    async def due_to_expire(self, now: int) -> list[int]:
        rows = await self.db.fetchall(
            "SELECT id FROM matches WHERE status = 'pending' AND expires_at IS NOT NULL AND expires_at <= ?"
            " ORDER BY expires_at, id",
            (now,),
        )
        return [row["id"] for row in rows]

    async def start(self, match_id: int, *, seed: int, at: int | None = None) -> bool:
        """pending → active with its seed. False if the match was not pending."""
        count, _ = await self.db.execute(
            "UPDATE matches SET status = 'active', seed = ?, started_at = ?, expires_at = NULL"
            " WHERE id = ? AND status = 'pending'",
            (seed, self._now(at), match_id),
        )
        return count == 1

    async def close_challenge(self, match_id: int, status: MatchStatus, *, at: int | None = None) -> bool:
        """pending → declined / expired / cancelled. False if the match was not pending."""
        if status not in CLOSED_CHALLENGE:
            raise ValueError(f"{status} does not close a challenge")
        count, _ = await self.db.execute(
            "UPDATE matches SET status = ?, finished_at = ? WHERE id = ? AND status = 'pending'",
            (status.value, self._now(at), match_id),
        )
        return count == 1

    async def finish(
        self,
        match_id: int,
        status: MatchStatus,
        *,
        outcome: Mapping[str, Any] | None = None,
        summary: str | None = None,
        at: int | None = None,
    ) -> bool:
        """active → finished (with outcome) or abandoned; clears every seat deadline.
        False if the match was not active."""
        if status not in (MatchStatus.FINISHED, MatchStatus.ABANDONED):
            raise ValueError(f"{status} does not end a match")
        async with self.db.transaction():
            count, _ = await self.db.execute(
                "UPDATE matches SET status = ?, outcome = ?, summary = ?, finished_at = ?"
                " WHERE id = ? AND status = 'active'",
                (
                    status.value,
                    None if outcome is None else dump_json(dict(outcome)),
                    summary,
                    self._now(at),
                    match_id,
                ),
            )
            if count == 1:
                await self.db.execute(
                    "UPDATE seats SET deadline_at = NULL, awaited_since = NULL, reminded = 0 WHERE match_id = ?",
                    (match_id,),
                )
        return count == 1

    async def rematches_of(self, record: MatchRecord) -> list[MatchRecord]:
        """Later challenges of the same game in the same channel among exactly the same players,
        made after ``record`` ended (its rematches), newest first."""
        since = record.finished_at if record.finished_at is not None else record.created_at
        found = await self._select(
            "WHERE id > ? AND game = ? AND channel_id IS ? AND created_at >= ?",
            (record.id, record.game, record.channel_id, since),
        )
        players = set(record.user_ids)
        return [r for r in reversed(found) if set(r.user_ids) == players]

    async def bump_version(self, match_id: int) -> None:
        """Move the match's version on (in a transaction: on PostgreSQL its row stays locked until
        the commit, so two transactions that start with it on one match run one after the other)."""
        await self.db.execute(_BUMP, (match_id,))

    async def set_message_id(self, match_id: int, message_id: int | None) -> None:
        await self.db.execute("UPDATE matches SET message_id = ? WHERE id = ?", (message_id, match_id))

    async def _select(self, where: str, params: Sequence[Any]) -> list[MatchRecord]:
        rows = await self.db.fetchall(f"SELECT * FROM matches {where} ORDER BY id", params)
        if not rows:
            return []
        ids = [row["id"] for row in rows]
        seats: dict[int, list[SeatRecord]] = {i: [] for i in ids}
        # chunk to stay well below SQLite's variable limit
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ", ".join("?" for _ in chunk)
            for seat_row in await self.db.fetchall(
                f"SELECT * FROM seats WHERE match_id IN ({marks}) ORDER BY match_id, seat", chunk
            ):
                seats[seat_row["match_id"]].append(SeatRecord.from_row(seat_row))
        return [self._record(row, seats[row["id"]]) for row in rows]

    async def versions(self, ids: Sequence[int]) -> dict[int, tuple[int, str]]:
        """Each match's version and status, for many matches in one read per 500 (the web table's
        watchers: bot/watch.py); a match that does not exist is left out."""
        found: dict[int, tuple[int, str]] = {}
        unique = sorted(set(ids))
        for start in range(0, len(unique), 500):
            chunk = unique[start : start + 500]
            marks = ", ".join("?" * len(chunk))
            rows = await self.db.fetchall(f"SELECT id, version, status FROM matches WHERE id IN ({marks})", chunk)
            found.update({int(r[0]): (int(r[1]), str(r[2])) for r in rows})
        return found

    @staticmethod
    def _record(row: Row, seats: list[SeatRecord]) -> MatchRecord:
        return match_record(row, seats)


_BUMP = "UPDATE matches SET version = version + 1 WHERE id = ?"
"""A lobby change of a pending match's seats (join, leave, accept) moves its version on."""


class SeatsRepository(_Repository):
    async def for_match(self, match_id: int) -> list[SeatRecord]:
        rows = await self.db.fetchall("SELECT * FROM seats WHERE match_id = ? ORDER BY seat", (match_id,))
        return [SeatRecord.from_row(row) for row in rows]

    async def accept(self, match_id: int, seat: int) -> bool:
        """Mark the seat as having accepted (and bump the match's version: a start prepared from
        the seats as they were is refused). False if it already had. One round trip."""
        batch = Batch().add(
            "UPDATE seats SET accepted = 1 WHERE match_id = ? AND seat = ? AND accepted = 0",
            (match_id, seat),
            expect_rows=1,
        )
        batch.add(_BUMP, (match_id,))
        try:
            await self.db.write(batch)
        except StaleWrite:
            return False
        return True

    async def add(
        self, match_id: int, user_id: int, display_name: str, *, accepted: bool = True, max_seats: int | None = None
    ) -> int:
        """A player joins a pending match in the next free seat; returns the seat.

        The database decides (several processes may take the last seat at once): the seat is
        taken only while the match is pending and has fewer than ``max_seats`` seats, by one
        conditional INSERT; two joins racing for the same seat number, or a player seated twice,
        break the table's keys. Either way :class:`~db.errors.IntegrityError` and nothing changes."""
        async with self.db.transaction():
            await self.db.players.upsert(user_id, display_name)
            row = await self.db.fetchone(
                "INSERT INTO seats (match_id, seat, user_id, display_name, accepted)"
                " SELECT ?, COALESCE(MAX(seat) + 1, 0), ?, ?, ? FROM seats WHERE match_id = ?"
                " HAVING COUNT(*) < ? AND EXISTS (SELECT 1 FROM matches WHERE id = ? AND status = 'pending')"
                " RETURNING seat",
                (
                    match_id,
                    user_id,
                    display_name,
                    int(accepted),
                    match_id,
                    max_seats if max_seats is not None else 1 << 30,
                    match_id,
                ),
            )
            if row is None:
                raise IntegrityError(f"match {match_id} is full or no longer open")
            await self.db.execute(_BUMP, (match_id,))
        return int(row[0])

    async def remove(self, match_id: int, seat: int) -> None:
        """A player leaves a pending match; the later seats move up one, keeping their order."""
        async with self.db.transaction():
            await self.db.execute("DELETE FROM seats WHERE match_id = ? AND seat = ?", (match_id, seat))
            await self.db.execute(_BUMP, (match_id,))
            later = await self.db.fetchall(
                "SELECT seat FROM seats WHERE match_id = ? AND seat > ? ORDER BY seat", (match_id, seat)
            )
            for row in later:
                await self.db.execute(
                    "UPDATE seats SET seat = ? WHERE match_id = ? AND seat = ?",
                    (row["seat"] - 1, match_id, row["seat"]),
                )

    async def set_deadline(self, match_id: int, seat: int, deadline_at: int, *, awaited_since: int) -> None:
        """A fresh deadline (the reminder is re-armed)."""
        await self.db.execute(
            "UPDATE seats SET deadline_at = ?, awaited_since = ?, reminded = 0, claimed_by = NULL,"
            " claimed_until = NULL WHERE match_id = ? AND seat = ?",
            (deadline_at, awaited_since, match_id, seat),
        )

    async def clear_deadline(self, match_id: int, seat: int) -> None:
        await self.db.execute(
            "UPDATE seats SET deadline_at = NULL, awaited_since = NULL, reminded = 0, claimed_by = NULL,"
            " claimed_until = NULL WHERE match_id = ? AND seat = ?",
            (match_id, seat),
        )

    async def mark_reminded(self, match_id: int, seat: int, deadline_at: int) -> bool:
        """Claim the reminder for this deadline. False if already sent or the deadline changed."""
        count, _ = await self.db.execute(
            "UPDATE seats SET reminded = 1 WHERE match_id = ? AND seat = ? AND deadline_at = ? AND reminded = 0",
            (match_id, seat, deadline_at),
        )
        return count == 1

    async def set_dm_ok(self, match_id: int, seat: int, ok: bool | None) -> None:
        await self.db.execute(
            "UPDATE seats SET dm_ok = ? WHERE match_id = ? AND seat = ?",
            (None if ok is None else int(ok), match_id, seat),
        )

    async def due_reminders(self, now: int, before: int) -> list[SeatRecord]:
        """Seats of active matches whose deadline is within ``before`` seconds, not yet passed,
        and not yet reminded."""
        rows = await self.db.fetchall(
            "SELECT seats.* FROM seats JOIN matches ON matches.id = seats.match_id"
            " WHERE matches.status = 'active' AND seats.deadline_at IS NOT NULL AND seats.reminded = 0"
            " AND seats.deadline_at - ? <= ? AND seats.deadline_at > ?"
            " ORDER BY seats.deadline_at, seats.match_id, seats.seat",
            (before, now, now),
        )
        return [SeatRecord.from_row(row) for row in rows]

    async def due_timeouts(self, now: int) -> list[SeatRecord]:
        """Seats of active matches whose deadline has passed."""
        rows = await self.db.fetchall(
            "SELECT seats.* FROM seats JOIN matches ON matches.id = seats.match_id"
            " WHERE matches.status = 'active' AND seats.deadline_at IS NOT NULL AND seats.deadline_at <= ?"
            " ORDER BY seats.deadline_at, seats.match_id, seats.seat",
            (now,),
        )
        return [SeatRecord.from_row(row) for row in rows]

    async def awaited_computers(self) -> list[tuple[int, int]]:
        """(match_id, seat) of each computer seat awaited (with a deadline) in an active match."""
        rows = await self.db.fetchall(
            "SELECT match_id, seat FROM seats WHERE ai IS NOT NULL AND deadline_at IS NOT NULL"
            " AND match_id IN (SELECT id FROM matches WHERE status = 'active')"
        )
        return [(int(row["match_id"]), int(row["seat"])) for row in rows]

    async def claim_seat(self, match_id: int, seat: int, owner: str, until: int, now: int) -> bool:
        """Claim one seat for ``owner`` until ``until`` (a computer player thinking for it), unless
        another process holds a live claim on it; ``owner`` may renew its own. One statement."""
        changed, _ = await self.db.execute(
            "UPDATE seats SET claimed_by = ?, claimed_until = ? WHERE match_id = ? AND seat = ?"
            " AND (claimed_until IS NULL OR claimed_until <= ? OR claimed_by = ?)",
            (owner, until, match_id, seat, now, owner),
        )
        return changed == 1

    async def claim_timeouts(self, now: int, owner: str, until: int) -> list[tuple[int, int]]:
        """Claim the timed-out seats of active matches that no other process holds a live claim
        on, until ``until`` (one statement: rows another process is claiming are skipped, not
        waited for); returns (match_id, seat) of each seat claimed. A new deadline clears the claim;
        a process killed before it handled its claims leaves them to expire."""
        skip_locked = " FOR UPDATE OF seats SKIP LOCKED" if self.db.backend == "postgres" else ""
        rows = await self.db.fetchall(
            "UPDATE seats SET claimed_by = ?, claimed_until = ? WHERE (match_id, seat) IN ("
            "SELECT seats.match_id, seats.seat FROM seats JOIN matches ON matches.id = seats.match_id"
            " WHERE matches.status = 'active' AND seats.deadline_at IS NOT NULL AND seats.deadline_at <= ?"
            " AND (seats.claimed_until IS NULL OR seats.claimed_until <= ?)" + skip_locked + ")"
            " RETURNING match_id, seat, deadline_at",
            (owner, until, now, now),
        )
        return [(int(r[0]), int(r[1])) for r in sorted(rows, key=lambda r: (r[2], r[0], r[1]))]


class ActionsRepository(_Repository):
    async def append_actions(
        self,
        match_id: int,
        start_idx: int,
        entries: Sequence[NewAction],
        *,
        at: int | None = None,
    ) -> list[ActionRecord]:
        """Append the entries of one accepted move at ``start_idx``, ``start_idx + 1``, ... in
        one transaction. Raises :class:`ActionIndexConflict` (nothing written) unless
        ``start_idx`` is exactly the next free index, and :class:`UnknownMatch` for a bad id."""
        now = self._now(at)
        if not entries:
            return []
        async with self.db.transaction():
            if await self.db.fetchval("SELECT 1 FROM matches WHERE id = ?", (match_id,)) is None:
                raise UnknownMatch(match_id)
            next_idx = await self.next_index(match_id)
            if next_idx != start_idx:
                raise ActionIndexConflict(match_id, start_idx, next_idx)
            rows = [
                (match_id, start_idx + i, e.seat, dump_json(dict(e.action)), int(e.auto), now)
                for i, e in enumerate(entries)
            ]
            try:
                # a savepoint: a lost race (another writer committed this index first) undoes the
                # insert only, and the transaction can still read the winner's row
                async with self.db.transaction():
                    await self.db.executemany(
                        "INSERT INTO actions (match_id, idx, seat, action, auto, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                        rows,
                    )
            except IntegrityError as exc:
                if exc.unique:
                    raise ActionIndexConflict(match_id, start_idx, await self.next_index(match_id)) from exc
                raise
        return [
            ActionRecord(match_id, start_idx + i, e.seat, dict(e.action), e.auto, now) for i, e in enumerate(entries)
        ]

    async def next_index(self, match_id: int) -> int:
        value = await self.db.fetchval("SELECT COALESCE(MAX(idx) + 1, 0) FROM actions WHERE match_id = ?", (match_id,))
        return int(value)

    async def for_match(self, match_id: int) -> list[ActionRecord]:
        rows = await self.db.fetchall("SELECT * FROM actions WHERE match_id = ? ORDER BY idx", (match_id,))
        return [
            ActionRecord(
                match_id=row["match_id"],
                idx=row["idx"],
                seat=row["seat"],
                action=json.loads(row["action"]),
                auto=bool(row["auto"]),
                created_at=row["created_at"],
            )
            for row in rows
        ]

    async def count_for_seat(self, match_id: int, seat: int) -> int:
        value = await self.db.fetchval("SELECT COUNT(*) FROM actions WHERE match_id = ? AND seat = ?", (match_id, seat))
        return int(value)


__all__ = [
    "CLOSED_CHALLENGE",
    "ActionRecord",
    "ActionsRepository",
    "MatchRecord",
    "MatchStatus",
    "MatchesRepository",
    "NewAction",
    "PlayerRecord",
    "PlayersRepository",
    "SeatRecord",
    "SeatsRepository",
    "dump_json",
    "match_from_rows",
    "match_queries",
    "match_record",
]
