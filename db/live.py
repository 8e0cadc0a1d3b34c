"""The hot path of live matches, in as few round trips as possible: loading a match (record,
snapshot and the actions after it in one hop), and the statements of a move, which the match
service puts in one :class:`~db.database.Batch` and commits in one hop.

Statements are added to a batch rather than executed, so a move's actions, deadlines, outbox
notices, snapshot and finish commit together or not at all.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .database import Batch
from .repositories import MatchRecord, MatchStatus, NewAction, dump_json, match_from_rows, match_queries

if TYPE_CHECKING:
    from .database import Database


@dataclass(frozen=True)
class Snapshot:
    """A saved state of a match after its first ``upto`` log entries."""

    upto: int
    state: bytes


@dataclass(frozen=True)
class LoggedAction:
    idx: int
    seat: int | None
    action: dict[str, Any]
    auto: bool


@dataclass(frozen=True)
class Loaded:
    """What rebuilding a match needs: its record, the snapshot (if one of this engine exists) and
    the log entries after it (all of them without a snapshot)."""

    record: MatchRecord
    snapshot: Snapshot | None
    actions: list[LoggedAction]


@dataclass(frozen=True)
class StoredNotice:
    id: int
    match_id: int
    kind: str
    payload: dict[str, Any]


class LiveRepository:
    """Reads and statements of the live-match path."""

    def __init__(self, db: Database) -> None:
        self.db = db
        #: (owner, lease seconds) when several processes share the database (PostgreSQL): the
        #: outbox read at start-up claims what it delivers (see :meth:`claim_notices`)
        self.claims: tuple[str, int] | None = None

    # -- reads (one round trip each) --------------------------------------------------------
    async def record(self, match_id: int) -> MatchRecord | None:
        return match_from_rows(*await self.db.fetch_many(match_queries(match_id)))

    async def load(self, match_id: int, engine: str, *, use_snapshot: bool = True) -> Loaded | None:
        """The match's record, its snapshot made by ``engine`` (if any) and the actions after it:
        one round trip."""
        if use_snapshot:
            queries = [
                *match_queries(match_id),
                ("SELECT upto, state FROM snapshots WHERE match_id = ? AND engine = ?", (match_id, engine)),
                (
                    "SELECT idx, seat, action, auto FROM actions WHERE match_id = ? AND idx >= COALESCE("
                    "(SELECT upto FROM snapshots WHERE match_id = ? AND engine = ?), 0) ORDER BY idx",
                    (match_id, match_id, engine),
                ),
            ]
        else:
            queries = [
                *match_queries(match_id),
                ("SELECT idx, seat, action, auto FROM actions WHERE match_id = ? ORDER BY idx", (match_id,)),
            ]
        results = await self.db.fetch_many(queries)
        record = match_from_rows(results[0], results[1])
        if record is None:
            return None
        snapshot = None
        if use_snapshot and results[2]:
            row = results[2][0]
            snapshot = Snapshot(row["upto"], bytes(row["state"]))
        rows = results[-1]
        actions = [LoggedAction(r["idx"], r["seat"], json.loads(r["action"]), bool(r["auto"])) for r in rows]
        return Loaded(record, snapshot, actions)

    async def live_ids(self) -> list[int]:
        """The ids of the active matches (the index start-up reads; their deadlines are in seats)."""
        rows = await self.db.fetchall("SELECT id FROM matches WHERE status = 'active' ORDER BY id")
        return [int(r[0]) for r in rows]

    async def pending_notices(self) -> list[StoredNotice]:
        """The outbox: notices not delivered yet, in delivery order. With :attr:`claims` set, only
        those no other process holds, each claimed for this one."""
        if self.claims is not None:
            owner, lease = self.claims
            now = self.db.now()
            return await self.claim_notices(owner, now + lease, now)
        rows = await self.db.fetchall("SELECT id, match_id, kind, payload FROM outbox ORDER BY id")
        return [StoredNotice(r["id"], r["match_id"], r["kind"], json.loads(r["payload"])) for r in rows]

    async def claim_notices(self, owner: str, until: int, now: int) -> list[StoredNotice]:
        """The outbox notices no process holds (a dead process's, whose lease has ended), claimed
        for ``owner`` until ``until`` in one statement (rows another process is claiming at that
        moment are skipped), in delivery order: each is delivered by one process."""
        skip_locked = " FOR UPDATE SKIP LOCKED" if self.db.backend == "postgres" else ""
        rows = await self.db.fetchall(
            "UPDATE outbox SET claimed_by = ?, claimed_until = ? WHERE id IN (SELECT id FROM outbox"
            " WHERE claimed_until IS NULL OR claimed_until <= ? ORDER BY id" + skip_locked + ")"
            " RETURNING id, match_id, kind, payload",
            (owner, until, now),
        )
        return sorted(
            (StoredNotice(r["id"], r["match_id"], r["kind"], json.loads(r["payload"])) for r in rows),
            key=lambda n: n.id,
        )

    async def accepted_pending(
        self, created_before: int, now: int, limit: int = 200
    ) -> list[tuple[int, str, bool, int]]:
        """(id, game, open table, seats) of the pending, unexpired challenges made before
        ``created_before`` whose every seat has accepted, oldest first: those whose start was
        lost (see ``Lobby.start_ready``). One query."""
        rows = await self.db.fetchall(
            "SELECT matches.id, matches.game, matches.open_table, COUNT(*) AS seated FROM matches"
            " JOIN seats ON seats.match_id = matches.id WHERE matches.status = 'pending'"
            " AND matches.created_at <= ? AND (matches.expires_at IS NULL OR matches.expires_at > ?)"
            " GROUP BY matches.id, matches.game, matches.open_table HAVING MIN(seats.accepted) = 1"
            " ORDER BY matches.id LIMIT ?",
            (created_before, now, limit),
        )
        return [(int(r[0]), str(r[1]), bool(r[2]), int(r[3])) for r in rows]

    async def version(self, match_id: int) -> int | None:
        """The match's version as committed (None: no such match): one cheap query."""
        value = await self.db.fetchval("SELECT version FROM matches WHERE id = ?", (match_id,))
        return None if value is None else int(value)

    # -- statements ---------------------------------------------------------------------------
    @staticmethod
    def guard(batch: Batch, match_id: int, version: int) -> None:
        """The match's version check, the first statement of a write that changes its game: it
        bumps ``matches.version`` from ``version`` (the one the writer's copy was loaded at), or,
        if another writer got there first, changes no row and the whole batch is rolled back
        (:class:`~db.database.StaleWrite`): the writer reloads the match and tries again. On
        PostgreSQL the UPDATE also holds the match row's lock until the commit, so two processes'
        writes of one match never interleave."""
        batch.add(
            "UPDATE matches SET version = version + 1 WHERE id = ? AND version = ?",
            (match_id, version),
            expect_rows=1,
        )

    @staticmethod
    def guard_pending(batch: Batch, match_id: int, version: int) -> None:
        """The lobby's version check: :meth:`guard` for a challenge that must still be pending.
        Every change of a challenge's seats (accept, join, leave, start) is one batch that opens
        with it, so the decision that the challenge is ready to start is made on exactly the seats
        the write commits against: of several processes changing one challenge at once, one
        writer wins each version, the others find no row (StaleWrite), reload and decide again."""
        batch.add(
            "UPDATE matches SET version = version + 1 WHERE id = ? AND version = ? AND status = 'pending'",
            (match_id, version),
            expect_rows=1,
        )

    @staticmethod
    def join(batch: Batch, match_id: int, seat: int, user_id: int, display_name: str, at: int) -> None:
        """A player takes ``seat`` (the next free one, as read under :meth:`guard_pending`),
        accepted; the player is recorded too (first sighting, or a fresh display name)."""
        batch.add(
            "INSERT INTO players (user_id, display_name, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name,"
            " last_seen_at = excluded.last_seen_at",
            (user_id, display_name, at, at),
        )
        batch.add(
            "INSERT INTO seats (match_id, seat, user_id, display_name, accepted) VALUES (?, ?, ?, ?, 1)",
            (match_id, seat, user_id, display_name),
        )

    @staticmethod
    def remove_seats(batch: Batch, match_id: int, removed: Sequence[int], moves: Sequence[tuple[int, int]]) -> None:
        """Players leave a pending match: their seats are deleted, then each later seat moves
        ``(from, to)`` down, in ascending order (each lands on a seat already free)."""
        for seat in removed:
            batch.add("DELETE FROM seats WHERE match_id = ? AND seat = ?", (match_id, seat))
        for old, new in sorted(moves):
            batch.add("UPDATE seats SET seat = ? WHERE match_id = ? AND seat = ?", (new, match_id, old))

    @staticmethod
    def close_challenge(batch: Batch, match_id: int, status: MatchStatus, at: int) -> None:
        """pending -> declined / cancelled (StaleWrite if it is no longer pending)."""
        batch.add(
            "UPDATE matches SET status = ?, finished_at = ? WHERE id = ? AND status = 'pending'",
            (status.value, at, match_id),
            expect_rows=1,
        )

    @staticmethod
    def add_actions(batch: Batch, match_id: int, start_idx: int, entries: Sequence[NewAction], at: int) -> None:
        """Append log entries at ``start_idx``... (the table's unique (match_id, idx) refuses a
        second writer: the batch then fails as a whole)."""
        batch.add_many(
            "INSERT INTO actions (match_id, idx, seat, action, auto, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            [
                (match_id, start_idx + i, e.seat, dump_json(dict(e.action)), int(e.auto), at)
                for i, e in enumerate(entries)
            ],
        )

    @staticmethod
    def set_deadline(batch: Batch, match_id: int, seat: int, deadline_at: int, awaited_since: int) -> None:
        batch.add(
            "UPDATE seats SET deadline_at = ?, awaited_since = ?, reminded = 0, claimed_by = NULL,"
            " claimed_until = NULL WHERE match_id = ? AND seat = ?",
            (deadline_at, awaited_since, match_id, seat),
        )

    @staticmethod
    def clear_deadline(batch: Batch, match_id: int, seat: int) -> None:
        """The seat is no longer awaited (the same statement as :meth:`set_deadline`, so a move's
        deadline changes are one statement run, one step of its PostgreSQL batch function)."""
        batch.add(
            "UPDATE seats SET deadline_at = ?, awaited_since = ?, reminded = 0, claimed_by = NULL,"
            " claimed_until = NULL WHERE match_id = ? AND seat = ?",
            (None, None, match_id, seat),
        )

    @staticmethod
    def mark_reminded(batch: Batch, match_id: int, seat: int, deadline_at: int) -> None:
        """Claim the reminder of this deadline (the batch fails with StaleWrite if it is gone)."""
        batch.add(
            "UPDATE seats SET reminded = 1 WHERE match_id = ? AND seat = ? AND deadline_at = ? AND reminded = 0",
            (match_id, seat, deadline_at),
            expect_rows=1,
        )

    @staticmethod
    def expire(batch: Batch, match_id: int, at: int) -> None:
        """pending -> expired, its time to be accepted up (StaleWrite if it is no longer pending)."""
        batch.add(
            "UPDATE matches SET status = 'expired', finished_at = ? WHERE id = ? AND status = 'pending'",
            (at, match_id),
            expect_rows=1,
        )

    @staticmethod
    def start(batch: Batch, match_id: int, seed: int, at: int) -> None:
        """pending -> active with its seed (StaleWrite if it is no longer pending)."""
        batch.add(
            "UPDATE matches SET status = 'active', seed = ?, started_at = ?, expires_at = NULL"
            " WHERE id = ? AND status = 'pending'",
            (seed, at, match_id),
            expect_rows=1,
        )

    @staticmethod
    def accept(batch: Batch, match_id: int, seat: int) -> None:
        batch.add("UPDATE seats SET accepted = 1 WHERE match_id = ? AND seat = ?", (match_id, seat))

    @staticmethod
    def finish(
        batch: Batch,
        match_id: int,
        status: MatchStatus,
        *,
        outcome: Mapping[str, Any] | None,
        summary: str | None,
        at: int,
    ) -> None:
        """active -> finished (queued for rating, unless a practice match) or abandoned; every deadline cleared
        (StaleWrite if the match was not active)."""
        if status not in (MatchStatus.FINISHED, MatchStatus.ABANDONED):
            raise ValueError(f"{status} does not end a match")
        batch.add(
            "UPDATE matches SET status = ?, outcome = ?, summary = ?, finished_at = ?"
            " WHERE id = ? AND status = 'active'",
            (status.value, None if outcome is None else dump_json(dict(outcome)), summary, at, match_id),
            expect_rows=1,
        )
        batch.add(
            "UPDATE seats SET deadline_at = NULL, awaited_since = NULL, reminded = 0, claimed_by = NULL,"
            " claimed_until = NULL WHERE match_id = ?",
            (match_id,),
        )
        if status is MatchStatus.FINISHED:
            batch.add(  # practice matches (with a computer player) are never rated
                "INSERT OR IGNORE INTO rating_queue (match_id) SELECT id FROM matches WHERE id = ? AND practice = 0",
                (match_id,),
            )

    @staticmethod
    def add_notice(
        batch: Batch,
        match_id: int,
        kind: str,
        payload: Mapping[str, Any],
        at: int,
        claim: tuple[str, int] | None = None,
    ) -> int:
        """Queue a notice; returns the statement's index in the batch (its lastrowid is the id).
        ``claim``: (owner, until), the process that delivers it after the commit and how long the
        others leave it alone (None: unclaimed, the one-process SQLite way)."""
        if claim is None:
            batch.add(
                "INSERT INTO outbox (match_id, kind, payload, created_at) VALUES (?, ?, ?, ?)",
                (match_id, kind, dump_json(dict(payload)), at),
            )
        else:
            batch.add(
                "INSERT INTO outbox (match_id, kind, payload, created_at, claimed_by, claimed_until)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (match_id, kind, dump_json(dict(payload)), at, claim[0], claim[1]),
            )
        return len(batch) - 1

    @staticmethod
    def delete_notices(batch: Batch, ids: Iterable[int]) -> None:
        """Delete delivered notices (one statement whatever their number: one step of a PostgreSQL
        batch function, a loop over the ids)."""
        batch.add_many("DELETE FROM outbox WHERE id = ?", [(i,) for i in ids])

    @staticmethod
    def save_snapshot(batch: Batch, match_id: int, upto: int, engine: str, state: bytes, at: int) -> None:
        batch.add(
            "INSERT INTO snapshots (match_id, upto, engine, state, created_at) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (match_id) DO UPDATE SET upto = excluded.upto, engine = excluded.engine,"
            " state = excluded.state, created_at = excluded.created_at",
            (match_id, upto, engine, state, at),
        )

    @staticmethod
    def drop_snapshot(batch: Batch, match_id: int) -> None:
        batch.add("DELETE FROM snapshots WHERE match_id = ?", (match_id,))


__all__ = ["Batch", "LiveRepository", "Loaded", "LoggedAction", "Snapshot", "StoredNotice"]
