"""Issue 33, ratings that cost the same at any size: rating a finished match reads the players'
standings by the ratings table's primary key (scope, game, user_id), never a scan of the table
(``EXPLAIN QUERY PLAN`` used to say ``SCAN ratings``)."""

from __future__ import annotations

from pathlib import Path

from db import Database
from db.ratings import standings_sql


async def test_the_standings_of_a_finish_are_read_by_the_primary_key(tmp_path: Path) -> None:
    db = await Database.open(str(tmp_path / "plan.db"))
    try:
        rows = await db.fetchall("EXPLAIN QUERY PLAN " + standings_sql(3), (111, "arena", 1, 2, 3))
    finally:
        await db.close()
    plan = " | ".join(str(row["detail"]) for row in rows)
    assert "SCAN" not in plan, plan
    # a lookup of all three keys: the primary key, or the player's index (user_id, scope, game)
    assert any(
        key in plan
        for key in (
            "USING INDEX sqlite_autoindex_ratings_1 (scope=? AND game=? AND user_id=?)",
            "USING INDEX ratings_by_user (user_id=? AND scope=? AND game=?)",
        )
    ), plan
