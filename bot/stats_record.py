"""A player's record in one game: two-player matches as wins-losses-draws, tables of three or more
as places ("1st ×1 · =1st ×1 · 3rd ×1"), and the current streak. Worked out by
:class:`bot.stats.StatsService` from the stored rating changes (each has its match, place and
result), so every rated match counts and old data reads as before."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from db import Standing


@dataclass(frozen=True)
class Placed:
    """A standing with its place on its ladder."""

    standing: Standing
    position: int  # 1 = top (among the listed players when ``listed``, else among every player)
    players: int  # listed on the ladder (every player on it when not ``listed``)
    listed: bool = True  # on the leaderboard (enough games, one within the server's window)

    @property
    def scope(self) -> int:
        return self.standing.scope


@dataclass(frozen=True)
class Streak:
    """The current run of equal results: ``result`` ('win' / 'loss' / 'draw' between two players;
    at a table of more, 'first' / 'shared-first' / 'placed': :func:`table_streak_key`), ``length``
    times."""

    result: str
    length: int


def streak(results: Sequence[str]) -> Streak | None:
    """The current run of equal results in ``results`` (newest first); None without results."""
    if not results:
        return None
    first = results[0]
    n = 0
    for r in results:
        if r != first:
            break
        n += 1
    return Streak(first, n)


@dataclass(frozen=True)
class Record:
    """A player's results in one game on one ladder, as a player reads them (derived from the
    stored rating changes, so every match ever rated counts, without a schema change): matches
    of two players as wins, losses and draws; matches at a table of three or more as placements,
    ``places[(place, shared)]`` matches (shared: level with another player, "=1st of 4"), never a
    loss or a draw. ``firsts``: the matches won outright (a two-player win, a 1st place alone)."""

    wins: int = 0
    losses: int = 0
    draws: int = 0
    places: Mapping[tuple[int, bool], int] = field(default_factory=dict)

    @property
    def duels(self) -> int:
        """Two-player matches."""
        return self.wins + self.losses + self.draws

    @property
    def tables(self) -> int:
        """Matches of three or more players."""
        return sum(self.places.values())

    @property
    def played(self) -> int:
        return self.duels + self.tables

    @property
    def firsts(self) -> int:
        return self.wins + self.places.get((1, False), 0)

    def placed(self) -> list[tuple[int, bool, int]]:
        """(place, shared, matches) at tables, best place first (a place alone before a shared one)."""
        return [(p, shared, n) for (p, shared), n in sorted(self.places.items()) if n]


def table_streak_key(rank: int, shared: bool) -> str:
    """A table match (three or more players) in a streak: 'first' (1st alone), 'shared-first'
    (=1st) or 'placed' (behind someone); never a loss or a draw."""
    if rank == 1:
        return "shared-first" if shared else "first"
    return "placed"
