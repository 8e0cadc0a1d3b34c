"""Places, sizes and pages of a ladder from its bands (``ladder_bands``, migration 0017): what they
cost does not grow with the number of ratings stored (issue 33, part 2).

A ladder (scope, game) is sorted by ordinal (descending), then rated games (descending), then user
id. The triggers of migration 0017 keep, per band of ordinal, the players in it at two levels: level
0, ``floor(ordinal)``; level 1, ``floor(ordinal * 64)`` (64 fine bands in each coarse one). So:

- a ladder's size is the sum of its coarse bands (a few dozen rows);
- a player's place is 1 + the players of the coarse bands above theirs + those of the fine bands
  above theirs inside it + those ahead of them inside their own fine band (an index range: about
  ``players / (64 * coarse bands)`` entries);
- page N starts in the fine band where the running count of players crosses N * size: one query
  finds it (window sums over at most 64 + a few dozen rows), and the page is read from that band's
  top, skipping only the players of that band above the page.

The ``shown`` column counts the listed players (``ratings.listed``: the server's minimum of rated
games and its window, migration 0021), so the leaderboard's pages and places count only them.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .database import Database, Row

FINE = 64
"""Fine bands per coarse band (a power of two: ``band / FINE`` is exact in binary floating point)."""

_LADDER_ROWS = "SELECT ratings.*, players.display_name FROM ratings JOIN players USING (user_id)"
_ORDER = "ORDER BY ordinal DESC, games DESC, user_id"

_LOCATE = """
WITH coarse AS (
    SELECT band, {n} AS n, SUM({n}) OVER (ORDER BY band DESC) - {n} AS before
    FROM ladder_bands WHERE scope = ? AND game = ? AND level = 0
), pick AS (
    SELECT band, before FROM coarse WHERE before + n > ? ORDER BY band DESC LIMIT 1
), fine AS (
    SELECT b.band, b.{n} AS n, pick.before + SUM(b.{n}) OVER (ORDER BY b.band DESC) - b.{n} AS before
    FROM pick JOIN ladder_bands b ON b.scope = ? AND b.game = ? AND b.level = 1
        AND b.band >= pick.band * {fine} AND b.band < pick.band * {fine} + {fine}
)
SELECT band, before FROM fine WHERE before + n > ? ORDER BY band DESC LIMIT 1
"""

_POSITION = (
    "SELECT COALESCE((SELECT SUM({n}) FROM ladder_bands WHERE scope = ? AND game = ? AND level = 0"
    " AND band > ?), 0)"
    " + COALESCE((SELECT SUM({n}) FROM ladder_bands WHERE scope = ? AND game = ? AND level = 1"
    " AND band > ? AND band < ?), 0)"
    " + (SELECT COUNT(*) FROM ratings WHERE scope = ? AND game = ? AND ordinal >= ? AND ordinal < ?{listed}"
    " AND (ordinal > ? OR (ordinal = ? AND (games > ? OR (games = ? AND user_id < ?)))))"
)


def coarse_band(ordinal: float) -> int:
    """The level-0 band of an ordinal (the triggers' ``floor(ordinal)``)."""
    return math.floor(ordinal)


def fine_band(ordinal: float) -> int:
    """The level-1 band of an ordinal (the triggers' ``floor(ordinal * 64)``)."""
    return math.floor(ordinal * FINE)


async def size(db: Database, scope: int, game: str) -> int:
    """How many players the ladder holds."""
    found = await db.fetchval(
        "SELECT COALESCE(SUM(players), 0) FROM ladder_bands WHERE scope = ? AND game = ? AND level = 0", (scope, game)
    )
    return int(found)


async def counts(db: Database, scope: int, game: str) -> tuple[int, int]:
    """(players listed, players not listed) on the ladder: listed are those with the server's
    minimum of rated games and, if it set a window, a game within it (``ratings.listed``)."""
    row = await db.fetchone(
        "SELECT COALESCE(SUM(players), 0) AS players, COALESCE(SUM(shown), 0) AS shown"
        " FROM ladder_bands WHERE scope = ? AND game = ? AND level = 0",
        (scope, game),
    )
    if row is None:
        return 0, 0
    return int(row["shown"]), int(row["players"]) - int(row["shown"])


async def page(db: Database, scope: int, game: str, *, offset: int, limit: int, listed: bool = True) -> list[Row]:
    """Rows ``offset`` to ``offset + limit`` of the ladder (its listed players, or all with
    ``listed=False``), in ladder order, each with the player's display name."""
    if limit <= 0 or offset < 0:
        return []
    located = await db.fetchone(
        _LOCATE.format(n="shown" if listed else "players", fine=FINE), (scope, game, offset, scope, game, offset)
    )
    if located is None:  # past the end
        return []
    top = (int(located["band"]) + 1) / FINE
    skip = offset - int(located["before"])
    where = "scope = ? AND game = ? AND ordinal < ?" + (" AND listed = 1" if listed else "")
    return await db.fetchall(f"{_LADDER_ROWS} WHERE {where} {_ORDER} LIMIT ? OFFSET ?", (scope, game, top, limit, skip))


async def position(
    db: Database, scope: int, game: str, user_id: int, ordinal: float, games: int, *, listed: bool = False
) -> int:
    """The place (1 = top) of the standing (``ordinal``, ``games``, ``user_id``) on its ladder
    (among its listed players with ``listed=True``)."""
    coarse, fine = coarse_band(ordinal), fine_band(ordinal)
    ahead = await db.fetchval(
        _POSITION.format(n="shown" if listed else "players", listed=" AND listed = 1" if listed else ""),
        (
            *(scope, game, coarse),
            *(scope, game, fine, (coarse + 1) * FINE),
            *(scope, game, fine / FINE, (fine + 1) / FINE, ordinal, ordinal, games, games, user_id),
        ),
    )
    return int(ahead) + 1


async def games_on(db: Database, scope: int) -> list[tuple[str, int]]:
    """(game, rated players) on a scope, most played first (rated games summed)."""
    rows = await db.fetchall(
        "SELECT game, SUM(players) AS players, SUM(games) AS total FROM ladder_bands WHERE scope = ? AND level = 0"
        " GROUP BY game HAVING SUM(players) > 0 ORDER BY total DESC, game",
        (scope,),
    )
    return [(row["game"], int(row["players"])) for row in rows]


def _floor(expr: str, backend: str) -> str:
    """``floor(expr)`` as an integer, on either backend (SQLite's math functions are optional)."""
    if backend == "postgres":
        return f"floor({expr})::BIGINT"
    return f"(CAST({expr} AS INTEGER) - ({expr} < CAST({expr} AS INTEGER)))"


async def recount(db: Database) -> None:
    """Count every ladder's bands again from the ratings (what migration 0017 did once and the
    triggers keep since): for ratings loaded with the triggers off (``bench``'s large databases)."""
    await db.execute("DELETE FROM ladder_bands")
    for level, expr in ((0, "r.ordinal"), (1, f"r.ordinal * {FINE}")):
        band = _floor(expr, db.backend)
        await db.execute(
            "INSERT INTO ladder_bands (scope, game, level, band, players, shown, games)"
            f" SELECT r.scope, r.game, {level}, {band}, COUNT(*), SUM(r.listed), SUM(r.games)"
            f" FROM ratings r GROUP BY r.scope, r.game, {band}"
        )
