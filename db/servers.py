"""Per-server settings storage (table ``server_settings``, migrations 0007, 0009, 0016 and 0020): one row per
guild that changed anything with ``/settings``; a guild without a row uses the bot's defaults.

This module only reads and writes rows; :mod:`bot.servers` validates values and applies defaults.
Construct it where needed: ``ServersRepository(db)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .repositories import _Repository

if TYPE_CHECKING:
    from .database import Row

#: The columns a change may set (``updated_at`` and ``updated_by`` are set by every change).
COLUMNS = (
    "channel_id",
    "threads",
    "turn_time_seconds",
    "reminders",
    "pictures",
    "leaderboard_min_games",
    "ping_after_seconds",
    "web",
    "leaderboard_window_days",
    "season_days",
    "leagues",
)

Value = int | bool | str | None


@dataclass(frozen=True)
class ServerSettingsRecord:
    """A stored row. ``None`` in ``channel_id``, ``turn_time_seconds``, ``pictures``,
    ``leaderboard_min_games``, ``ping_after_seconds`` and ``web`` means "the bot's default" (wherever
    the challenge is made, MOVE_TIMEOUT_SECONDS, RENDER_IMAGES, 1 game, 120 seconds, on)."""

    guild_id: int
    channel_id: int | None
    threads: bool
    turn_time_seconds: int | None
    reminders: bool
    pictures: bool | None
    updated_at: int
    updated_by: int
    leaderboard_min_games: int | None = None
    ping_after_seconds: int | None = None
    web: bool | None = None  # the web table's pages of the server's matches (None: the default, on)
    leaderboard_window_days: int | None = None  # listed: a rated game within this many days (None: always)
    season_days: int | None = None  # a new season's default length (None: the bot's, 91 days)
    leagues: str | None = None  # the league bands (JSON: bot/leagues.py), None: no leagues

    @classmethod
    def from_row(cls, row: Row) -> ServerSettingsRecord:
        pictures = row["pictures"]
        return cls(
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            threads=bool(row["threads"]),
            turn_time_seconds=row["turn_time_seconds"],
            reminders=bool(row["reminders"]),
            pictures=None if pictures is None else bool(pictures),
            updated_at=row["updated_at"],
            updated_by=row["updated_by"],
            leaderboard_min_games=row["leaderboard_min_games"],
            ping_after_seconds=row["ping_after_seconds"],
            web=_switch(row, "web"),
            leaderboard_window_days=_column(row, "leaderboard_window_days"),
            season_days=_column(row, "season_days"),
            leagues=_column(row, "leagues"),
        )


def _switch(row: Row, column: str) -> bool | None:
    """An on/off column that may be NULL (the default), read as None, True or False; a row from a
    database not migrated that far yet (a migration's own test) reads as the default."""
    value = row[column] if column in row.keys() else None  # noqa: SIM118 (an sqlite3.Row: "in" looks at values)
    return None if value is None else bool(value)


def _column(row: Row, column: str) -> Any:
    """A column that a database not migrated that far yet does not have (read as NULL)."""
    return row[column] if column in row.keys() else None  # noqa: SIM118 (an sqlite3.Row)


def _stored(value: Value) -> int | str | None:
    return value if value is None or isinstance(value, str) else int(value)


class ServersRepository(_Repository):
    async def get(self, guild_id: int) -> ServerSettingsRecord | None:
        """The guild's row, or None if it never changed a setting."""
        row = await self.db.fetchone("SELECT * FROM server_settings WHERE guild_id = ?", (guild_id,))
        return None if row is None else ServerSettingsRecord.from_row(row)

    async def leagues(self, guild_id: int) -> str | None:
        """The guild's league bands as stored (None: none)."""
        found = await self.db.fetchval("SELECT leagues FROM server_settings WHERE guild_id = ?", (guild_id,))
        return None if found is None else str(found)

    async def upsert(
        self, guild_id: int, changes: Mapping[str, Value], *, updated_by: int, at: int | None = None
    ) -> ServerSettingsRecord:
        """Set ``changes`` (column -> value, columns from :data:`COLUMNS`) for the guild, creating
        its row if needed (the other columns keep their values, or the table's defaults), in one
        statement; return the row as stored. Only the named columns are written, so two changes
        of different settings at the same time both stay."""
        unknown = sorted(set(changes) - set(COLUMNS))
        if unknown:
            raise KeyError(f"server_settings has no column(s) {', '.join(unknown)}")
        columns = [c for c in COLUMNS if c in changes]
        values = [_stored(changes[c]) for c in columns]
        names = ", ".join(["guild_id", *columns, "updated_at", "updated_by"])
        marks = ", ".join("?" for _ in range(len(columns) + 3))
        assignments = ", ".join(f"{c} = excluded.{c}" for c in [*columns, "updated_at", "updated_by"])
        sql = (
            f"INSERT INTO server_settings ({names}) VALUES ({marks})"
            f" ON CONFLICT (guild_id) DO UPDATE SET {assignments} RETURNING *"
        )
        params = (guild_id, *values, self._now(at), updated_by)

        row = await self.db.fetchone(sql, params)
        assert row is not None  # (an upsert returns its row)
        return ServerSettingsRecord.from_row(row)


__all__ = ["COLUMNS", "ServerSettingsRecord", "ServersRepository"]
