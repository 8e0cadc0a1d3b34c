"""The statistics' reads (:class:`bot.stats.StatsService`): records derived from the stored rating
changes, the sizes of a player's recent matches, their most frequent opponents, their practice
matches and who never started a match of a game. Read-only; the ladders themselves are
:class:`db.ratings.RatingsRepository`'s."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .repositories import _Repository


class RecordTally(NamedTuple):
    """How many rated matches (``matches``) a player finished with one result in one kind of match:
    ``players`` rated at the table, the player's ``rank`` and ``same`` players (them included) in
    that place, and the stored ``result``."""

    user_id: int
    players: int
    rank: int
    same: int
    result: str
    matches: int


class PracticeMatch(NamedTuple):
    """A finished or abandoned practice match of a player: the game, its status, the stored outcome
    (JSON text, None when missing), the player's seat, the seats at the table, and the strongest
    computer level at it (0 easy, 1 normal, 2 hard; None without a computer seat)."""

    game: str
    status: str
    outcome: str | None
    seat: int
    seats: int
    level: int | None


class OpponentTally(NamedTuple):
    """A player's rated matches against one opponent: ``ahead`` placed better, ``level`` tied."""

    user_id: int
    display_name: str | None
    matches: int
    ahead: int
    level: int


class StatsRepository(_Repository):
    async def record_tallies(self, scope: int, game: str, user_ids: Sequence[int]) -> list[RecordTally]:
        """The rating changes of ``user_ids`` in ``game`` on ``scope``, counted by players at the
        table, place, players sharing it and result: one query."""
        if not user_ids:
            return []
        marks = ", ".join("?" for _ in user_ids)
        rows = await self.db.fetchall(
            "SELECT user_id, n, rank, same, result, COUNT(*) AS k FROM ("
            " SELECT me.user_id, me.rank, me.result,"
            " (SELECT COUNT(*) FROM rating_changes o WHERE o.match_id = me.match_id AND o.scope = me.scope) AS n,"
            " (SELECT COUNT(*) FROM rating_changes o"
            "  WHERE o.match_id = me.match_id AND o.scope = me.scope AND o.rank = me.rank) AS same"
            f" FROM rating_changes me WHERE me.scope = ? AND me.game = ? AND me.user_id IN ({marks})"
            ") t GROUP BY user_id, n, rank, same, result",
            (scope, game, *user_ids),
        )
        return [
            RecordTally(int(r["user_id"]), int(r["n"]), int(r["rank"]), int(r["same"]), str(r["result"]), int(r["k"]))
            for r in rows
        ]

    async def started_a_match(self, game: str, user_ids: Sequence[int], *, other_than: int | None) -> set[int]:
        """The users among ``user_ids`` who sat in a started match of ``game`` (finished, live or
        abandoned, practice included) other than the match ``other_than``."""
        if not user_ids:
            return set()
        marks = ", ".join("?" for _ in user_ids)
        rows = await self.db.fetchall(
            "SELECT DISTINCT s.user_id FROM seats s JOIN matches m ON m.id = s.match_id"
            f" WHERE s.user_id IN ({marks}) AND m.game = ? AND m.started_at IS NOT NULL AND m.id != ?",
            (*user_ids, game, -1 if other_than is None else other_than),
        )
        return {int(row["user_id"]) for row in rows}

    async def practice_matches(self, user_id: int) -> list[PracticeMatch]:
        """The player's finished and abandoned practice matches (seats a person holds): one query
        (the player's seats, ``seats_by_user``, then each match by its key)."""
        rows = await self.db.fetchall(
            "SELECT m.game, m.status, m.outcome, me.seat,"
            " (SELECT COUNT(*) FROM seats a WHERE a.match_id = m.id) AS seats,"
            " (SELECT MAX(CASE a.ai WHEN 'easy' THEN 0 WHEN 'normal' THEN 1 WHEN 'hard' THEN 2 END)"
            "  FROM seats a WHERE a.match_id = m.id AND a.ai IS NOT NULL) AS level"
            " FROM seats me CROSS JOIN matches m ON m.id = me.match_id"
            " WHERE me.user_id = ? AND me.ai IS NULL AND m.practice = 1 AND m.status IN ('finished', 'abandoned')",
            (user_id,),
        )
        return [
            PracticeMatch(
                r["game"],
                r["status"],
                r["outcome"],
                int(r["seat"]),
                int(r["seats"]),
                None if r["level"] is None else int(r["level"]),
            )
            for r in rows
        ]

    async def match_sizes(self, user_id: int, scope: int, match_ids: Sequence[int]) -> dict[int, tuple[int, int]]:
        """Match id -> (players the match rated on ``scope``, players who shared the user's place,
        the user included)."""
        if not match_ids:
            return {}
        marks = ", ".join("?" for _ in match_ids)
        rows = await self.db.fetchall(
            "SELECT me.match_id, COUNT(*) AS n, SUM(CASE WHEN o.rank = me.rank THEN 1 ELSE 0 END) AS same"
            " FROM rating_changes me"
            " JOIN rating_changes o ON o.match_id = me.match_id AND o.scope = me.scope"
            f" WHERE me.user_id = ? AND me.scope = ? AND me.match_id IN ({marks}) GROUP BY me.match_id",
            (user_id, scope, *match_ids),
        )
        return {int(row["match_id"]): (int(row["n"]), int(row["same"])) for row in rows}

    async def opponents(self, user_id: int, scope: int, *, limit: int) -> list[OpponentTally]:
        """The player's most frequent opponents on ``scope`` (every game; people only), with how
        often the player placed ahead of or level with each; most matches first."""
        rows = await self.db.fetchall(
            "SELECT o.user_id, p.display_name, COUNT(*) AS matches,"
            " SUM(CASE WHEN me.rank < o.rank THEN 1 ELSE 0 END) AS ahead,"
            " SUM(CASE WHEN me.rank = o.rank THEN 1 ELSE 0 END) AS level"
            " FROM rating_changes me"
            " JOIN rating_changes o ON o.match_id = me.match_id AND o.scope = me.scope AND o.user_id != me.user_id"
            " LEFT JOIN players p ON p.user_id = o.user_id"
            " WHERE me.user_id = ? AND me.scope = ? AND o.user_id > 0"  # (computers are never rated anyway)
            " GROUP BY o.user_id, p.display_name ORDER BY matches DESC, ahead DESC, o.user_id LIMIT ?",
            (user_id, scope, limit),
        )
        return [
            OpponentTally(int(r["user_id"]), r["display_name"], int(r["matches"]), int(r["ahead"]), int(r["level"]))
            for r in rows
        ]


__all__ = ["OpponentTally", "PracticeMatch", "RecordTally", "StatsRepository"]
