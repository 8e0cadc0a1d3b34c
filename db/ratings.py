"""Ratings storage: each player's standing per ladder, every rating change (linked to its match)
and which finished matches the ratings include.

A ladder is (scope, game): ``scope`` is a guild id, or :data:`GLOBAL_SCOPE` (0) for the global
ladder. The arithmetic lives in :mod:`bot.ratings`; this module only reads and writes rows.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from . import ladder
from .base import Batch
from .errors import StorageError
from .rating_records import (
    GLOBAL_SCOPE,
    FinishedMatch,
    RatingChange,
    Standing,
    is_season,
    ordinal,
    season_scope,
)
from .records import MatchStatus
from .repositories import MatchRecord, _Repository

if TYPE_CHECKING:
    pass

_CHANGE_COLUMNS = tuple(RatingChange.__dataclass_fields__)

_CHUNK = 400  # stay well below SQLite's bound-variable limit


def standings_sql(users: int) -> str:
    """The standings of ``users`` players on one ladder (scope, game): a lookup by the primary key
    (scope, game, user_id), whatever the number of ratings stored (issue 33: filtering on the game
    and the user alone scanned the whole table)."""
    marks = ", ".join("?" for _ in range(users))
    return f"SELECT * FROM ratings WHERE scope = ? AND game = ? AND user_id IN ({marks})"


_SEASON_OF = (
    "(SELECT se.id FROM seasons se WHERE se.guild_id = m.guild_id AND se.start_seq < m.finish_seq"
    " AND (se.end_seq IS NULL OR m.finish_seq <= se.end_seq) AND (se.game IS NULL OR se.game = m.game))"
    " AS season_id"
)
"""The season a finished match ``m`` belongs to (its server's, by the finish sequence; a season of one
game takes only that game's matches), or NULL. One season runs at a time on a server."""

RATINGS_LOCK = 0x5749_5A53  # the advisory lock of all ratings (a rebuild of every game)
RATINGS_LOCK_GAMES = 0x5749_5A54  # the first key of a game's advisory lock (the second: _game_key)


def _game_key(game: str) -> int:
    """A game's advisory-lock key: a stable 31-bit number from its slug."""
    return zlib.crc32(game.encode()) & 0x7FFF_FFFF


_RATING_COLUMNS = (
    "scope, game, user_id, mu, sigma, ordinal, display, wins, losses, draws, games, last_match_id, updated_at,"
    " listed, settle_at"
)
_INSERT_RATING = f"INSERT INTO ratings ({_RATING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
_UPSERT_RATING = (
    f"{_INSERT_RATING} ON CONFLICT (scope, game, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
    " ordinal = excluded.ordinal, display = excluded.display, wins = excluded.wins,"
    " losses = excluded.losses, draws = excluded.draws, games = excluded.games,"
    " last_match_id = excluded.last_match_id, updated_at = excluded.updated_at,"
    " listed = excluded.listed, settle_at = excluded.settle_at"
)
_UPDATE_RATING = (
    "UPDATE ratings SET mu = ?, sigma = ?, ordinal = ?, display = ?, wins = ?, losses = ?, draws = ?, games = ?,"
    " last_match_id = ?, updated_at = ?, listed = ?, settle_at = ?"
    " WHERE scope = ? AND game = ? AND user_id = ? AND last_match_id = ?"
)
_SETTLE_RATING = (
    "UPDATE ratings SET ordinal = ?, display = ?, listed = ?, settle_at = ?"
    " WHERE scope = ? AND game = ? AND user_id = ? AND last_match_id = ? AND settle_at = ?"
)


def _standing_row(s: Standing) -> tuple[Any, ...]:
    """A standing's values in the order of ``_RATING_COLUMNS``."""
    return (
        s.scope,
        s.game,
        s.user_id,
        s.mu,
        s.sigma,
        s.ordinal,
        s.display,
        s.wins,
        s.losses,
        s.draws,
        s.games,
        s.last_match_id,
        s.updated_at,
        int(s.listed),
        s.settle_at,
    )


class RatingsRepository(_Repository):
    # -- reads: ladders and players ------------------------------------------------------
    async def get(self, scope: int, game: str, user_id: int) -> Standing | None:
        row = await self.db.fetchone(
            "SELECT ratings.*, players.display_name FROM ratings JOIN players USING (user_id)"
            " WHERE scope = ? AND game = ? AND user_id = ?",
            (scope, game, user_id),
        )
        return None if row is None else Standing.from_row(row)

    async def leaderboard(
        self, scope: int, game: str, *, offset: int = 0, limit: int = 10, listed: bool = True
    ) -> list[Standing]:
        """A page of a ladder, best first (ordinal, then more games, then user id): its listed players
        (``listed=False``: every player). Found from the ladder's bands (:mod:`db.ladder`)."""
        rows = await ladder.page(self.db, scope, game, offset=offset, limit=limit, listed=listed)
        return [Standing.from_row(row) for row in rows]

    async def count(self, scope: int, game: str) -> int:
        return await ladder.size(self.db, scope, game)

    async def counts(self, scope: int, game: str) -> tuple[int, int]:
        """(players listed, players not listed) on the ladder."""
        return await ladder.counts(self.db, scope, game)

    async def position(self, standing: Standing, *, listed: bool = False) -> int:
        """The standing's place on its ladder (1 = top), in :meth:`leaderboard` order (among the
        listed players with ``listed=True``)."""
        s = standing
        return await ladder.position(self.db, s.scope, s.game, s.user_id, s.ordinal, s.games, listed=listed)

    async def for_user(self, user_id: int, scopes: Sequence[int]) -> list[Standing]:
        """The player's standings on the given scopes, every game, most games first."""
        if not scopes:
            return []
        marks = ", ".join("?" for _ in scopes)
        rows = await self.db.fetchall(
            "SELECT ratings.*, players.display_name FROM ratings JOIN players USING (user_id)"
            f" WHERE user_id = ? AND scope IN ({marks}) ORDER BY game, scope",
            (user_id, *scopes),
        )
        return [Standing.from_row(row) for row in rows]

    async def games(self, scope: int) -> list[tuple[str, int]]:
        """(game, rated players) on a scope, most played first."""
        return await ladder.games_on(self.db, scope)

    async def changes_for_user(
        self, user_id: int, *, scope: int, game: str | None = None, limit: int | None = None
    ) -> list[RatingChange]:
        """The player's changes on a scope (one game or all), newest first."""
        sql = "SELECT * FROM rating_changes WHERE user_id = ? AND scope = ?"
        params: list[Any] = [user_id, scope]
        if game is not None:
            sql += " AND game = ?"
            params.append(game)
        sql += " ORDER BY finish_seq DESC"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        return [RatingChange.from_row(row) for row in await self.db.fetchall(sql, params)]

    async def changes_for_match(self, match_id: int) -> list[RatingChange]:
        rows = await self.db.fetchall(
            "SELECT * FROM rating_changes WHERE match_id = ? ORDER BY scope DESC, seat", (match_id,)
        )
        return [RatingChange.from_row(row) for row in rows]

    async def all_changes(self, game: str | None = None) -> list[RatingChange]:
        """Every change (of one game), in rating order: for comparisons and exports."""
        where, params = ("WHERE game = ?", (game,)) if game is not None else ("", ())
        rows = await self.db.fetchall(f"SELECT * FROM rating_changes {where} ORDER BY finish_seq, scope, seat", params)
        return [RatingChange.from_row(row) for row in rows]

    async def all_standings(self, game: str | None = None) -> list[Standing]:
        where, params = ("WHERE game = ?", (game,)) if game is not None else ("", ())
        rows = await self.db.fetchall(f"SELECT * FROM ratings {where} ORDER BY scope, game, user_id", params)
        return [Standing.from_row(row) for row in rows]

    # -- settling with time (bot.rating_time) ---------------------------------------------
    async def list_rules(self, scope: int) -> tuple[int, int | None, int | None]:
        """(minimum of games, window in days or None, frozen at or None) of a ladder's listing: its
        server's settings (a season's: its server's, and its end once it ended); the global
        ladder's are (1, None, None)."""
        if scope == GLOBAL_SCOPE:
            return 1, None, None
        if scope > 0:
            row = await self.db.fetchone(
                "SELECT leaderboard_min_games AS min_games, leaderboard_window_days AS window_days, NULL AS frozen_at"
                " FROM server_settings WHERE guild_id = ?",
                (scope,),
            )
        else:
            row = await self.db.fetchone(
                "SELECT s.leaderboard_min_games AS min_games, s.leaderboard_window_days AS window_days,"
                " se.ended_at AS frozen_at FROM seasons se LEFT JOIN server_settings s ON s.guild_id = se.guild_id"
                " WHERE se.id = ?",
                (-scope,),
            )
        if row is None:
            return 1, None, None
        return int(row["min_games"] or 1), row["window_days"], row["frozen_at"]

    async def due(self, scope: int, game: str, now: int, limit: int = 2000) -> list[Standing]:
        """Standings of the ladder whose settled values are due by ``now`` (an index probe: usually none)."""
        rows = await self.db.fetchall(
            "SELECT * FROM ratings WHERE scope = ? AND game = ? AND settle_at IS NOT NULL AND settle_at <= ? LIMIT ?",
            (scope, game, now, limit),
        )
        return [Standing.from_row(row) for row in rows]

    async def settle(self, settled: Sequence[Standing], read: Mapping[tuple[int, int], Standing]) -> None:
        """Write the settled values of standings (as read: ``read[(scope, user)]``); a standing rated
        or settled by someone else meanwhile is left as they wrote it (it was computed from the same facts)."""
        rows = []
        for s in settled:
            old = read[(s.scope, s.user_id)]
            key = (s.scope, s.game, s.user_id, old.last_match_id, old.settle_at)
            rows.append((s.ordinal, s.display, int(s.listed), s.settle_at, *key))
        if rows:
            async with self.db.transaction():
                await self.db.executemany(_SETTLE_RATING, rows)

    async def mark_due(self, guild_id: int) -> int:
        """Make every rating of the server's ladders (its seasons' too) due to be settled again: its
        minimum of games or its window changed. Returns how many."""
        count, _ = await self.db.execute(
            "UPDATE ratings SET settle_at = 0 WHERE scope = ? OR scope IN (SELECT -id FROM seasons WHERE guild_id = ?)",
            (guild_id, guild_id),
        )
        return count

    # -- reads: finished matches ---------------------------------------------------------
    async def finished_in_guild(
        self, guild_id: int, *, game: str | None = None, offset: int = 0, limit: int = 10
    ) -> tuple[list[MatchRecord], int]:
        """A page of the guild's finished matches, newest first, and how many there are."""
        where = "WHERE status = 'finished' AND guild_id = ?"
        params: list[Any] = [guild_id]
        if game is not None:
            where += " AND game = ?"
            params.append(game)
        total = int(await self.db.fetchval(f"SELECT COUNT(*) FROM matches {where}", params))
        rows = await self.db.fetchall(
            f"SELECT id FROM matches {where} ORDER BY finish_seq DESC LIMIT ? OFFSET ?",
            (*params, limit, offset),
        )
        records = []
        for row in rows:
            record = await self.db.matches.get(row["id"])
            if record is not None:
                records.append(record)
        return records, total

    async def finished_game(self, match_id: int) -> str | None:
        """The game of the match ``match_id`` if it is finished; None otherwise (or no such match)."""
        row = await self.db.fetchone("SELECT game, status FROM matches WHERE id = ?", (match_id,))
        if row is None or row["status"] != MatchStatus.FINISHED.value:
            return None
        return str(row["game"])

    async def finished_matches(self, game: str | None = None) -> list[FinishedMatch]:
        """Every finished match (of one game), in rating order."""
        where, params = ("AND m.game = ?", (game,)) if game is not None else ("", ())
        return await self._finished(f"FROM matches m WHERE m.status = 'finished' AND m.practice = 0 {where}", params)

    async def lock(self, game: str | None) -> None:
        """Inside a transaction: hold a game's ratings (None: every game's) until it ends, so that
        processes rating the same game's queue take turns: each reads the queue and the standings
        after the previous one committed, and no update is lost or a match rated twice. PostgreSQL:
        a transaction-scoped advisory lock per game; SQLite: the write lock ``BEGIN IMMEDIATE``
        already took."""
        if self.db.backend != "postgres":
            return
        if game is not None:  # every game's lock too: a rebuild of all games waits for a game's rating
            await self.db.fetchval("SELECT pg_advisory_xact_lock_shared(?)", (RATINGS_LOCK,))
            await self.db.fetchval("SELECT pg_advisory_xact_lock(?, ?)", (RATINGS_LOCK_GAMES, _game_key(game)))
        else:
            await self.db.fetchval("SELECT pg_advisory_xact_lock(?)", (RATINGS_LOCK,))

    async def unrated(self, game: str) -> list[FinishedMatch]:
        """Queued finished matches of the game (not rated yet), in rating order."""
        # CROSS JOIN: walk the (short) queue, not every finished match
        return await self._finished(
            "FROM rating_queue q CROSS JOIN matches m ON m.id = q.match_id"
            " WHERE m.status = 'finished' AND m.practice = 0 AND m.game = ?",
            (game,),
        )

    async def rated_after(self, game: str, finish_seq: int) -> list[FinishedMatch]:
        """Rated matches of the game that come after ``finish_seq`` in rating order."""
        return await self._finished(
            "FROM rated_matches r CROSS JOIN matches m ON m.id = r.match_id"
            " WHERE r.game = ? AND r.finish_seq > ? AND m.status = 'finished'",
            (game, finish_seq),
        )

    async def enqueue(self, match_id: int) -> bool:
        """Queue a finished match for rating (unless it is rated already). False if nothing was queued."""
        count, _ = await self.db.execute(
            "INSERT OR IGNORE INTO rating_queue (match_id) SELECT id FROM matches WHERE id = ? AND status = 'finished'"
            " AND practice = 0 AND NOT EXISTS (SELECT 1 FROM rated_matches WHERE match_id = ?)",
            (match_id, match_id),
        )
        return count == 1

    async def queued(self) -> list[tuple[int, str]]:
        """(match id, game) of every queued match."""
        rows = await self.db.fetchall(
            "SELECT q.match_id, m.game FROM rating_queue q JOIN matches m ON m.id = q.match_id ORDER BY q.match_id"
        )
        return [(row["match_id"], row["game"]) for row in rows]

    async def _finished(self, source: str, params: Sequence[Any]) -> list[FinishedMatch]:
        """``source``: FROM ... WHERE ..., with the matches table as ``m``. One round trip: the
        matches and their seats read together."""
        rows, seat_rows = await self.db.fetch_many(
            [
                (
                    f"SELECT m.id, m.game, m.guild_id, m.finished_at, m.outcome, m.finish_seq, {_SEASON_OF},"
                    " (SELECT leaderboard_min_games FROM server_settings ss WHERE ss.guild_id = m.guild_id)"
                    " AS min_games,"
                    " (SELECT leaderboard_window_days FROM server_settings ss WHERE ss.guild_id = m.guild_id)"
                    f" AS window_days {source} ORDER BY m.finish_seq",
                    params,
                ),
                (
                    f"SELECT s.match_id, s.user_id FROM seats s WHERE s.match_id IN (SELECT m.id {source})"
                    " ORDER BY s.match_id, s.seat",
                    params,
                ),
            ]
        )
        if not rows:
            return []
        unnumbered = [row["id"] for row in rows if row["finish_seq"] is None]
        if unnumbered:  # only if the trigger of migration 0006 was bypassed or dropped
            raise StorageError(f"Finished match(es) {unnumbered[:10]} have no finish_seq; they cannot be ordered.")
        seats: dict[int, list[int]] = {row["id"]: [] for row in rows}
        for seat in seat_rows:
            if seat["match_id"] in seats:
                seats[seat["match_id"]].append(seat["user_id"])
        return [
            FinishedMatch(
                match_id=row["id"],
                game=row["game"],
                guild_id=row["guild_id"],
                finished_at=row["finished_at"] or 0,
                user_ids=tuple(seats[row["id"]]),
                outcome=None if row["outcome"] is None else json.loads(row["outcome"]),
                finish_seq=row["finish_seq"],
                season_id=row["season_id"],
                min_games=row["min_games"] or 1,
                window_days=row["window_days"],
            )
            for row in rows
        ]

    # -- writes (bot.ratings.RatingService) ---------------------------------------------
    async def standings(self, game: str, pairs: Iterable[tuple[int, int]]) -> dict[tuple[int, int], Standing]:
        """The stored standings of the given (scope, user id) pairs on the game's ladders."""
        return (await self.standings_and_later(game, pairs))[0]

    async def standings_and_later(
        self, game: str, pairs: Iterable[tuple[int, int]], after_seq: int | None = None
    ) -> tuple[dict[tuple[int, int], Standing], bool]:
        """One round trip: the stored standings of the (scope, user id) pairs on the game's ladders,
        and (with ``after_seq``) whether a rated match of the game comes after that finish sequence
        number (then the pending matches cannot simply be added on top)."""
        by_scope: dict[int, set[int]] = {}
        for scope, user in pairs:
            by_scope.setdefault(scope, set()).add(user)
        queries: list[tuple[str, Sequence[Any]]] = []
        for scope, user_set in sorted(by_scope.items()):
            users = sorted(user_set)
            for start in range(0, len(users), _CHUNK):
                chunk = users[start : start + _CHUNK]
                queries.append((standings_sql(len(chunk)), (scope, game, *chunk)))
        if after_seq is not None:
            queries.append(("SELECT 1 FROM rated_matches WHERE game = ? AND finish_seq > ? LIMIT 1", (game, after_seq)))
        results = await self.db.fetch_many(queries) if queries else []
        later = bool(results.pop()) if after_seq is not None else False
        found = {(row["scope"], row["user_id"]): Standing.from_row(row) for rows in results for row in rows}
        return found, later

    async def save(
        self,
        matches: Sequence[FinishedMatch],
        counted: Mapping[int, bool],
        changes: Sequence[RatingChange],
        standings: Iterable[Standing],
    ) -> None:
        """Record rated matches, their changes and the resulting standings (one transaction)."""
        async with self.db.transaction():
            await self.db.executemany("DELETE FROM rating_queue WHERE match_id = ?", [(m.match_id,) for m in matches])
            await self.db.write(self._recorded(Batch(), matches, counted, changes))
            await self.db.executemany(_UPSERT_RATING, [_standing_row(s) for s in standings])

    async def save_checked(
        self,
        matches: Sequence[FinishedMatch],
        counted: Mapping[int, bool],
        changes: Sequence[RatingChange],
        standings: Iterable[Standing],
        read: Mapping[tuple[int, int], Standing],
    ) -> None:
        """:meth:`save` for ratings computed without a lock, from the standings ``read`` (scope,
        user id -> as read; a player missing had none): one batch (group-committed with the moves,
        one round trip) that holds only if nothing it was computed from has changed since: each
        match still in the queue (nobody else rated it), each standing still the one read (its
        ``last_match_id``), no standing made meanwhile for a player who had none. Otherwise it
        raises :class:`~db.base.StaleWrite` or :class:`~db.errors.IntegrityError` and nothing is
        written (the caller rates under the lock instead)."""
        batch = Batch()
        if self.db.backend == "postgres" and matches:
            # the game's lock, as :meth:`lock` takes it, for the batch's own transaction: a rating
            # under the lock in another process never sees this one land in the middle of it
            game = matches[0].game
            batch.add("SELECT pg_advisory_xact_lock_shared(?)", (RATINGS_LOCK,))
            batch.add("SELECT pg_advisory_xact_lock(?, ?)", (RATINGS_LOCK_GAMES, _game_key(game)))
        for m in matches:
            batch.add("DELETE FROM rating_queue WHERE match_id = ?", (m.match_id,), expect_rows=1)
        self._recorded(batch, matches, counted, changes)
        for s in standings:
            old = read.get((s.scope, s.user_id))
            if old is None:
                batch.add(_INSERT_RATING, _standing_row(s))
            else:
                key = (s.scope, s.game, s.user_id, old.last_match_id)
                batch.add(_UPDATE_RATING, (*_standing_row(s)[3:], *key), expect_rows=1)
        await self.db.write(batch)

    @staticmethod
    def _recorded(
        batch: Batch, matches: Sequence[FinishedMatch], counted: Mapping[int, bool], changes: Sequence[RatingChange]
    ) -> Batch:
        """The rated marks and the changes of ``matches``, added to ``batch``."""
        batch.add_many(
            "INSERT INTO rated_matches (match_id, game, finished_at, finish_seq, counted) VALUES (?, ?, ?, ?, ?)",
            [(m.match_id, m.game, m.finished_at, m.finish_seq, int(counted.get(m.match_id, False))) for m in matches],
        )
        marks = ", ".join("?" for _ in _CHANGE_COLUMNS)
        batch.add_many(
            f"INSERT INTO rating_changes ({', '.join(_CHANGE_COLUMNS)}) VALUES ({marks})",
            [tuple(getattr(c, name) for name in _CHANGE_COLUMNS) for c in changes],
        )
        return batch

    async def forget(self, game: str, match_ids: Sequence[int]) -> set[tuple[int, int]]:
        """Take matches out of the ratings: delete their changes and rated marks, and put every
        affected standing back to what the remaining changes say (deleting those left with none).
        Returns the affected (scope, user id) pairs."""
        affected: set[tuple[int, int]] = set()
        async with self.db.transaction():
            for start in range(0, len(match_ids), _CHUNK):
                chunk = list(match_ids[start : start + _CHUNK])
                marks = ", ".join("?" for _ in chunk)
                for row in await self.db.fetchall(
                    f"SELECT DISTINCT scope, user_id FROM rating_changes WHERE match_id IN ({marks})", chunk
                ):
                    affected.add((row["scope"], row["user_id"]))
                await self.db.execute(f"DELETE FROM rating_changes WHERE match_id IN ({marks})", chunk)
                await self.db.execute(f"DELETE FROM rated_matches WHERE match_id IN ({marks})", chunk)
            for scope, user_id in sorted(affected):
                await self._restore(scope, game, user_id)
        return affected

    async def _restore(self, scope: int, game: str, user_id: int) -> None:
        last = await self.db.fetchone(
            "SELECT * FROM rating_changes WHERE scope = ? AND game = ? AND user_id = ?"
            " ORDER BY finish_seq DESC LIMIT 1",
            (scope, game, user_id),
        )
        if last is None:
            await self.db.execute(
                "DELETE FROM ratings WHERE scope = ? AND game = ? AND user_id = ?", (scope, game, user_id)
            )
            return
        counts = await self.db.fetchone(
            "SELECT SUM(CASE WHEN result = 'win' THEN 1 ELSE 0 END) AS wins,"
            " SUM(CASE WHEN result = 'loss' THEN 1 ELSE 0 END) AS losses,"
            " SUM(CASE WHEN result = 'draw' THEN 1 ELSE 0 END) AS draws,"
            " COUNT(*) AS games FROM rating_changes WHERE scope = ? AND game = ? AND user_id = ?",
            (scope, game, user_id),
        )
        assert counts is not None
        await self.db.execute(
            "UPDATE ratings SET mu = ?, sigma = ?, ordinal = ?, display = ?, wins = ?, losses = ?, draws = ?,"
            " games = ?, last_match_id = ?, updated_at = ?, settle_at = 0 WHERE scope = ? AND game = ? AND user_id = ?",
            (
                last["mu_after"],
                last["sigma_after"],
                ordinal(last["mu_after"], last["sigma_after"]),
                last["display_after"],
                counts["wins"],
                counts["losses"],
                counts["draws"],
                counts["games"],
                last["match_id"],
                last["finished_at"],
                scope,
                game,
                user_id,
            ),
        )

    async def clear(self, game: str | None = None) -> None:
        """Delete every rating (of one game), and empty its queue: the first step of a rebuild."""
        where, params = ("WHERE game = ?", (game,)) if game is not None else ("", ())
        async with self.db.transaction():
            if game is None:
                await self.db.execute("DELETE FROM rating_queue")
            else:
                await self.db.execute(
                    "DELETE FROM rating_queue WHERE match_id IN (SELECT id FROM matches WHERE game = ?)", (game,)
                )
            await self.db.execute(f"DELETE FROM rating_changes {where}", params)
            await self.db.execute(f"DELETE FROM rated_matches {where}", params)
            await self.db.execute(f"DELETE FROM ratings {where}", params)


__all__ = [
    "GLOBAL_SCOPE",
    "FinishedMatch",
    "RatingChange",
    "RatingsRepository",
    "Standing",
    "is_season",
    "ordinal",
    "season_scope",
]
