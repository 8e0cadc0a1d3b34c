"""The records of the ratings (:mod:`db.ratings` reads and writes them): a player's standing on a
ladder, a rating change, a finished match as rating needs it, and the scopes of the ladders (a
server's, the global one, a season's)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .database import Row

GLOBAL_SCOPE = 0
"""The scope of the global ladders (guild ids are snowflakes, never 0)."""

Z = 3.0
"""How many sigmas below mu the ladder's conservative estimate (the ordinal) is."""


def ordinal(mu: float, sigma: float) -> float:
    """The conservative skill estimate the ladders sort by: ``mu - 3 sigma``."""
    return mu - Z * sigma


@dataclass(frozen=True)
class Standing:
    """A player's current rating on one ladder."""

    scope: int
    game: str
    user_id: int
    mu: float
    sigma: float
    ordinal: float
    display: int
    wins: int
    losses: int
    draws: int
    games: int
    last_match_id: int
    updated_at: int
    display_name: str | None = None  # the player's latest known name (joined in by reads)
    listed: bool = True  # on the leaderboard: enough games, and one within the server's window
    settle_at: int | None = None  # when ordinal, display or listed next change with time away (None: never)

    def facts(self) -> tuple[Any, ...]:
        """What the ratings say, without what time settles (``ordinal``, ``display``, ``listed``,
        ``settle_at``: they depend on when the ladder was last read)."""
        s = self
        return (
            s.scope,
            s.game,
            s.user_id,
            s.mu,
            s.sigma,
            s.wins,
            s.losses,
            s.draws,
            s.games,
            s.last_match_id,
            s.updated_at,
        )

    @classmethod
    def from_row(cls, row: Row) -> Standing:
        keys = set(row.keys())  # (asyncpg gives an iterator)
        return cls(
            scope=row["scope"],
            game=row["game"],
            user_id=row["user_id"],
            mu=row["mu"],
            sigma=row["sigma"],
            ordinal=row["ordinal"],
            display=row["display"],
            wins=row["wins"],
            losses=row["losses"],
            draws=row["draws"],
            games=row["games"],
            last_match_id=row["last_match_id"],
            updated_at=row["updated_at"],
            display_name=row["display_name"] if "display_name" in keys else None,
            listed=bool(row["listed"]) if "listed" in keys else True,
            settle_at=row["settle_at"] if "settle_at" in keys else None,
        )


@dataclass(frozen=True)
class RatingChange:
    """One player's rating change on one ladder, caused by one match."""

    match_id: int
    scope: int
    game: str
    user_id: int
    seat: int
    rank: int
    result: str  # 'win' | 'loss' | 'draw'
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    display_before: int
    display_after: int
    finished_at: int
    finish_seq: int  # the match's place in the rating order (matches.finish_seq)

    @property
    def delta(self) -> int:
        return self.display_after - self.display_before

    @classmethod
    def from_row(cls, row: Row) -> RatingChange:
        return cls(**{name: row[name] for name in cls.__dataclass_fields__})


@dataclass(frozen=True)
class FinishedMatch:
    """What rating a match needs: who sat where, the stored outcome, and its place in the order."""

    match_id: int
    game: str
    guild_id: int | None
    finished_at: int
    user_ids: tuple[int, ...]
    outcome: Mapping[str, Any] | None
    finish_seq: int
    """The match's number in the finish sequence (``matches.finish_seq``: 1, 2, 3, ... in the order
    matches finish, given by the database when the status becomes 'finished')."""
    season_id: int | None = None
    """The season of its server it belongs to (``start_seq < finish_seq <= end_seq``), if any."""
    min_games: int = 1
    """Its server's leaderboard minimum of rated games (``/settings``)."""
    window_days: int | None = None
    """Its server's leaderboard window: a rated game within that many days (None: no window)."""

    @property
    def key(self) -> int:
        """The order in which matches are rated: the finish sequence."""
        return self.finish_seq

    @property
    def scopes(self) -> tuple[int, ...]:
        """Its ladders: its server's, its season's (:func:`season_scope`), the global one."""
        if not self.guild_id:
            return (GLOBAL_SCOPE,)
        if self.season_id is None:
            return (int(self.guild_id), GLOBAL_SCOPE)
        return (int(self.guild_id), season_scope(self.season_id), GLOBAL_SCOPE)


def season_scope(season_id: int) -> int:
    """The scope of a season's ladders: minus the season's id (guild ids are positive, the global
    ladder 0)."""
    return -int(season_id)


def is_season(scope: int) -> bool:
    return scope < 0


__all__ = ["GLOBAL_SCOPE", "Z", "FinishedMatch", "RatingChange", "Standing", "is_season", "ordinal", "season_scope"]
