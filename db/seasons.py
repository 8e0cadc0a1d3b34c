"""Seasons storage (migration 0021): a server's seasons, each ended season's final standings, and
the league roles the bot made. The rules (names, lengths, rollover, leagues) are
:mod:`bot.seasons`'; this module only reads and writes rows.

A season's ladders are ratings rows of scope ``-season id`` (:func:`db.ratings.season_scope`). A
finished match belongs to the season of its server with ``start_seq < finish_seq <= end_seq``:
both bounds are the finish sequence's highest number when the season starts and ends, read under
the lock every finish takes (PostgreSQL: the advisory lock of migration 0006; SQLite: the one
writer), so a match's season never depends on when it is rated.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .base import Batch
from .ratings import season_scope
from .repositories import _Repository

if TYPE_CHECKING:
    from .database import Row

FINISH_LOCK = 1179210323
"""The advisory lock every finish takes before numbering it (PostgreSQL migration 0006, 'FINS')."""


@dataclass(frozen=True)
class SeasonRecord:
    id: int
    guild_id: int
    number: int
    name: str
    game: str | None  # a season of one game (None: of every game of the server)
    started_at: int
    ends_at: int | None  # the planned end (None: until an admin ends it)
    rollover: bool  # at ends_at the next season starts by itself
    start_seq: int
    ended_at: int | None
    end_seq: int | None
    started_by: int  # 0: the timer (a rollover)
    ended_by: int | None  # 0: the timer
    channel_id: int | None  # where its end is posted (where it was started; a rollover keeps it)
    archived: bool  # its final standings are in season_results
    announced: bool  # its end was posted (and the league roles given)

    @property
    def scope(self) -> int:
        return season_scope(self.id)

    @property
    def running(self) -> bool:
        return self.ended_at is None

    @classmethod
    def from_row(cls, row: Row) -> SeasonRecord:
        return cls(
            id=row["id"],
            guild_id=row["guild_id"],
            number=row["number"],
            name=row["name"],
            game=row["game"],
            started_at=row["started_at"],
            ends_at=row["ends_at"],
            rollover=bool(row["rollover"]),
            start_seq=row["start_seq"],
            ended_at=row["ended_at"],
            end_seq=row["end_seq"],
            started_by=row["started_by"],
            ended_by=row["ended_by"],
            channel_id=row["channel_id"],
            archived=bool(row["archived"]),
            announced=bool(row["announced"]),
        )


@dataclass(frozen=True)
class SeasonResult:
    """A player's final standing in one game of an ended season."""

    season_id: int
    game: str
    user_id: int
    place: int  # on the season's final leaderboard; 0: not listed on it
    display: int
    ordinal: float
    games: int
    wins: int
    losses: int
    draws: int
    league: str | None
    display_name: str | None = None
    season_name: str | None = None  # (joined in by a player's results)
    season_number: int | None = None

    @classmethod
    def from_row(cls, row: Row) -> SeasonResult:
        keys = set(row.keys())  # (asyncpg gives an iterator)
        return cls(
            **{name: row[name] for name in _RESULT_COLUMNS},
            display_name=row["display_name"] if "display_name" in keys else None,
            season_name=row["season_name"] if "season_name" in keys else None,
            season_number=row["season_number"] if "season_number" in keys else None,
        )


_RESULT_COLUMNS = (
    "season_id",
    "game",
    "user_id",
    "place",
    "display",
    "ordinal",
    "games",
    "wins",
    "losses",
    "draws",
    "league",
)


class SeasonsRepository(_Repository):
    # -- reads ---------------------------------------------------------------------------
    async def get(self, season_id: int) -> SeasonRecord | None:
        row = await self.db.fetchone("SELECT * FROM seasons WHERE id = ?", (season_id,))
        return None if row is None else SeasonRecord.from_row(row)

    async def running(self, guild_id: int) -> SeasonRecord | None:
        row = await self.db.fetchone("SELECT * FROM seasons WHERE guild_id = ? AND ended_at IS NULL", (guild_id,))
        return None if row is None else SeasonRecord.from_row(row)

    async def of_guild(self, guild_id: int) -> list[SeasonRecord]:
        """The server's seasons, newest first."""
        rows = await self.db.fetchall("SELECT * FROM seasons WHERE guild_id = ? ORDER BY number DESC", (guild_id,))
        return [SeasonRecord.from_row(row) for row in rows]

    async def due(self, now: int) -> list[SeasonRecord]:
        """Running seasons whose planned end has come (every server)."""
        rows = await self.db.fetchall(
            "SELECT * FROM seasons WHERE ended_at IS NULL AND ends_at IS NOT NULL AND ends_at <= ? ORDER BY ends_at",
            (now,),
        )
        return [SeasonRecord.from_row(row) for row in rows]

    async def unannounced(self) -> list[SeasonRecord]:
        """Ended seasons whose end is not yet posted (or not yet archived)."""
        rows = await self.db.fetchall(
            "SELECT * FROM seasons WHERE announced = 0 AND ended_at IS NOT NULL ORDER BY ended_at, id"
        )
        return [SeasonRecord.from_row(row) for row in rows]

    async def last_seq(self) -> int:
        return int(await self.db.fetchval("SELECT COALESCE(MAX(finish_seq), 0) FROM matches"))

    # -- start and end ---------------------------------------------------------------------
    async def _bound(self) -> int:
        """Inside a transaction: the finish sequence's highest number, after every finish that
        took a number before (PostgreSQL: under the lock every finish takes)."""
        if self.db.backend == "postgres":
            await self.db.fetchval("SELECT pg_advisory_xact_lock(?)", (FINISH_LOCK,))
        return await self.last_seq()

    async def start(
        self,
        guild_id: int,
        *,
        name: str | None,
        started_at: int,
        ends_at: int | None,
        rollover: bool,
        by: int,
        channel_id: int | None = None,
        game: str | None = None,
    ) -> SeasonRecord:
        """Start the server's next season (named "Season N" without a name). Raises
        :class:`~db.errors.IntegrityError` when one is running already or the name is taken."""
        async with self.db.transaction():
            seq = await self._bound()
            return await self._insert(guild_id, name, started_at, ends_at, rollover, by, seq, channel_id, game)

    async def _insert(
        self,
        guild_id: int,
        name: str | None,
        started_at: int,
        ends_at: int | None,
        rollover: bool,
        by: int,
        seq: int,
        channel_id: int | None,
        game: str | None = None,
    ) -> SeasonRecord:
        number = int(
            await self.db.fetchval("SELECT COALESCE(MAX(number), 0) + 1 FROM seasons WHERE guild_id = ?", (guild_id,))
        )
        row = await self.db.fetchone(
            "INSERT INTO seasons (guild_id, number, name, started_at, ends_at, rollover, start_seq, started_by,"
            " channel_id, game) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
            (
                guild_id,
                number,
                name or f"Season {number}",
                started_at,
                ends_at,
                int(rollover),
                seq,
                by,
                channel_id,
                game,
            ),
        )
        assert row is not None
        return SeasonRecord.from_row(row)

    async def end(
        self, season: SeasonRecord, *, at: int, by: int, next_ends_at: int | None = None, roll: bool = False
    ) -> tuple[SeasonRecord, SeasonRecord | None] | None:
        """End a running season at ``at`` (and with ``roll``, start the next one at ``at``, planned
        to end at ``next_ends_at``), in one transaction. None if it was no longer running (another
        process or command ended it): a season ends once."""
        async with self.db.transaction():
            seq = await self._bound()
            count, _ = await self.db.execute(
                "UPDATE seasons SET ended_at = ?, end_seq = ?, ended_by = ? WHERE id = ? AND ended_at IS NULL",
                (at, seq, by, season.id),
            )
            if count != 1:
                return None
            # its ladders settle once more, as of its end, and then never again (db.ratings.list_rules)
            await self.db.execute("UPDATE ratings SET settle_at = 0 WHERE scope = ?", (season.scope,))
            ended = await self.get(season.id)
            assert ended is not None
            following = None
            if roll:
                following = await self._insert(
                    season.guild_id, None, at, next_ends_at, True, 0, seq, season.channel_id, season.game
                )
            return ended, following

    # -- the archive -----------------------------------------------------------------------
    async def refreeze(self, season: SeasonRecord) -> None:
        """An ended season's standings settle again, as of its end (one of its matches was rated late)."""
        await self.db.execute(
            "UPDATE ratings SET settle_at = 0 WHERE scope = ? AND settle_at IS NOT NULL", (season.scope,)
        )

    async def archive(self, season_id: int, results: Sequence[SeasonResult]) -> bool:
        """Write an ended season's final standings once (a second writer's are the same and are
        dropped). False if it was archived already."""
        batch = Batch()
        marks = ", ".join("?" for _ in _RESULT_COLUMNS)
        batch.add_many(
            f"INSERT INTO season_results ({', '.join(_RESULT_COLUMNS)}) VALUES ({marks})"
            " ON CONFLICT (season_id, game, user_id) DO NOTHING",
            [tuple(getattr(r, c) for c in _RESULT_COLUMNS) for r in results],
        )
        batch.add("UPDATE seasons SET archived = 1 WHERE id = ? AND archived = 0", (season_id,))
        await self.db.write(batch)
        return True

    async def claim(self, season_id: int, now: int, lease: int) -> bool:
        """Take the posting of a season's end (a lease of ``lease`` seconds: a process that died
        while posting leaves it to another after that)."""
        count, _ = await self.db.execute(
            "UPDATE seasons SET claimed_at = ? WHERE id = ? AND announced = 0 AND archived = 1"
            " AND (claimed_at IS NULL OR claimed_at <= ?)",
            (now, season_id, now - lease),
        )
        return count == 1

    async def announced(self, season_id: int) -> None:
        await self.db.execute("UPDATE seasons SET announced = 1 WHERE id = ?", (season_id,))

    async def games(self, season: SeasonRecord) -> list[str]:
        """The games rated in the season (its ladders)."""
        if season.archived:
            sql, key = "SELECT DISTINCT game FROM season_results WHERE season_id = ? ORDER BY game", season.id
        else:
            sql, key = "SELECT DISTINCT game FROM ratings WHERE scope = ? ORDER BY game", season.scope
        return [row["game"] for row in await self.db.fetchall(sql, (key,))]

    async def results(self, season_id: int, game: str, *, offset: int = 0, limit: int = 10) -> list[SeasonResult]:
        """A page of an ended season's final leaderboard (its listed players, best first)."""
        rows = await self.db.fetchall(
            "SELECT r.*, p.display_name FROM season_results r LEFT JOIN players p ON p.user_id = r.user_id"
            " WHERE r.season_id = ? AND r.game = ? AND r.place > 0 ORDER BY r.place LIMIT ? OFFSET ?",
            (season_id, game, limit, offset),
        )
        return [SeasonResult.from_row(row) for row in rows]

    async def of_season(self, season_id: int, game: str) -> list[SeasonResult]:
        """Every player's result in one game of an ended season (listed or not)."""
        rows = await self.db.fetchall(
            "SELECT * FROM season_results WHERE season_id = ? AND game = ? ORDER BY place = 0, place, user_id",
            (season_id, game),
        )
        return [SeasonResult.from_row(row) for row in rows]

    async def result_counts(self, season_id: int, game: str) -> tuple[int, int]:
        """(players listed, players not listed) on an ended season's final leaderboard."""
        row = await self.db.fetchone(
            "SELECT COALESCE(SUM(CASE WHEN place > 0 THEN 1 ELSE 0 END), 0) AS listed, COUNT(*) AS players"
            " FROM season_results WHERE season_id = ? AND game = ?",
            (season_id, game),
        )
        return (0, 0) if row is None else (int(row["listed"]), int(row["players"]) - int(row["listed"]))

    async def of_player(self, user_id: int, guild_id: int) -> list[SeasonResult]:
        """The player's results in the server's ended seasons, newest first."""
        rows = await self.db.fetchall(
            "SELECT r.*, s.name AS season_name, s.number AS season_number FROM season_results r"
            " JOIN seasons s ON s.id = r.season_id WHERE r.user_id = ? AND s.guild_id = ?"
            " ORDER BY s.number DESC, r.game",
            (user_id, guild_id),
        )
        return [SeasonResult.from_row(row) for row in rows]

    # -- league roles ----------------------------------------------------------------------
    async def league_roles(self, guild_id: int) -> dict[str, int]:
        rows = await self.db.fetchall("SELECT league, role_id FROM league_roles WHERE guild_id = ?", (guild_id,))
        return {row["league"]: int(row["role_id"]) for row in rows}

    async def set_league_role(self, guild_id: int, league: str, role_id: int) -> None:
        await self.db.execute(
            "INSERT INTO league_roles (guild_id, league, role_id) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id, league) DO UPDATE SET role_id = excluded.role_id",
            (guild_id, league, role_id),
        )

    async def forget_league_role(self, guild_id: int, league: str) -> None:
        await self.db.execute("DELETE FROM league_roles WHERE guild_id = ? AND league = ?", (guild_id, league))


__all__ = ["FINISH_LOCK", "SeasonRecord", "SeasonResult", "SeasonsRepository"]
