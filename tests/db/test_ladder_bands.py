"""Ladder bands (migration 0017, db/ladder.py; docs/ratings.md "Ladder bands"): a ladder's size, a
player's place and any leaderboard page come from per-band counts that triggers keep, and they are
the same as sorting every rating, through random inserts, updates and deletes of ratings, ties,
negative ordinals, ordinals on the edge of a band, and a server's leaderboard minimum set, changed
and removed. On both backends."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

import pytest

from db import Database, load_migrations
from db.ladder import FINE, recount
from db.ratings import RatingsRepository, Standing
from tests.conftest import DbTarget

GUILD = 4242
SCOPES = (GUILD, 0)
GAMES = ("wizards-cup", "firewall")
USERS = range(1, 41)


def random_ordinal(rng: random.Random, taken: Sequence[float]) -> float:
    """Ordinals that stress the bands: ties, band edges (k / 64 and just below), negatives."""
    kind = rng.random()
    if taken and kind < 0.25:
        return rng.choice(list(taken))  # a tie
    if kind < 0.45:
        k = rng.randint(-200, 200)
        return k / FINE if rng.random() < 0.5 else math.nextafter(k / FINE, -math.inf)
    if kind < 0.55:
        return float(rng.randint(-5, 5))  # a coarse edge
    return rng.uniform(-12.0, 12.0)


async def setup(db: Database) -> int:
    for uid in USERS:
        await db.execute(
            "INSERT INTO players (user_id, display_name, first_seen_at, last_seen_at) VALUES (?, ?, 0, 0)",
            (uid, f"p{uid}"),
        )
    return int(
        await db.fetchval(
            "INSERT INTO matches (game, status, challenger_id, created_at, finished_at)"
            " VALUES ('wizards-cup', 'finished', 1, 0, 0) RETURNING id"
        )
    )


async def write(db: Database, sql: str, params: Sequence[Any]) -> None:
    await db.execute(sql, params)


async def random_change(
    db: Database, rng: random.Random, match_id: int, live: dict[tuple[int, str, int], Any], *, old_schema: bool = False
) -> None:
    """One random insert, update or delete of a rating (``old_schema``: before migration 0021's listed)."""
    scope, game, uid = rng.choice(SCOPES), rng.choice(GAMES), rng.choice(list(USERS))
    key = (scope, game, uid)
    roll = rng.random()
    if roll < 0.08 and key in live and not old_schema:  # listed or not (what settling writes: migration 0021)
        await db.execute(
            "UPDATE ratings SET listed = ? WHERE scope = ? AND game = ? AND user_id = ?", (rng.randint(0, 1), *key)
        )
        return
    taken = [o for (s, g, _), o in live.items() if (s, g) == (scope, game)]
    ordinal, games = random_ordinal(rng, taken), rng.randint(1, 6)
    if key in live and roll < 0.2:
        await db.execute("DELETE FROM ratings WHERE scope = ? AND game = ? AND user_id = ?", key)
        del live[key]
    elif key in live:
        await db.execute(
            "UPDATE ratings SET ordinal = ?, games = ? WHERE scope = ? AND game = ? AND user_id = ?",
            (ordinal, games, *key),
        )
        live[key] = ordinal
    elif old_schema:
        await db.execute(
            "INSERT INTO ratings (scope, game, user_id, mu, sigma, ordinal, display, games, last_match_id,"
            " updated_at) VALUES (?, ?, ?, 25, 8, ?, 1200, ?, ?, 0)",
            (*key, ordinal, games, match_id),
        )
        live[key] = ordinal
    else:
        await db.execute(
            "INSERT INTO ratings (scope, game, user_id, mu, sigma, ordinal, display, games, last_match_id,"
            " updated_at, listed) VALUES (?, ?, ?, 25, 8, ?, 1200, ?, ?, 0, ?)",
            (*key, ordinal, games, match_id, int(rng.random() < 0.7)),
        )
        live[key] = ordinal


async def everything(db: Database) -> list[Standing]:
    rows = await db.fetchall("SELECT ratings.*, players.display_name FROM ratings JOIN players USING (user_id)")
    return [Standing.from_row(r) for r in rows]


def ladder_order(standings: Sequence[Standing]) -> list[Standing]:
    return sorted(standings, key=lambda s: (-s.ordinal, -s.games, s.user_id))


async def recounted_bands(db: Database) -> set[tuple[Any, ...]]:
    """The bands as counted from the ratings now (empty bands left out)."""
    bands: dict[tuple[Any, ...], list[int]] = {}
    for s in await everything(db):
        for level, band in ((0, math.floor(s.ordinal)), (1, math.floor(s.ordinal * FINE))):
            entry = bands.setdefault((s.scope, s.game, level, band), [0, 0, 0])
            entry[0] += 1
            entry[1] += int(s.listed)
            entry[2] += s.games
    return {(*key, *value) for key, value in bands.items()}


async def stored_bands(db: Database) -> set[tuple[Any, ...]]:
    rows = await db.fetchall(
        "SELECT scope, game, level, band, players, shown, games FROM ladder_bands WHERE players != 0"
    )
    return {tuple(int(v) if not isinstance(v, str) else v for v in row) for row in rows}


async def check_against_a_sort(db: Database) -> None:
    ratings = RatingsRepository(db)
    assert await stored_bands(db) == await recounted_bands(db)
    assert int(await db.fetchval("SELECT COUNT(*) FROM ladder_bands WHERE players = 0 AND shown != 0")) == 0
    standings = await everything(db)
    for scope in SCOPES:
        for game in GAMES:
            ladder = ladder_order([s for s in standings if (s.scope, s.game) == (scope, game)])
            shown = [s for s in ladder if s.listed]
            assert await ratings.count(scope, game) == len(ladder)
            assert await ratings.counts(scope, game) == (len(shown), len(ladder) - len(shown))
            for s in ladder:
                assert await ratings.position(s) == ladder.index(s) + 1
                if s.listed:
                    assert await ratings.position(s, listed=True) == shown.index(s) + 1
            for listed, rows in ((True, shown), (False, ladder)):
                for size in (3, 7):
                    for offset in range(0, len(rows) + size, size):
                        page = await ratings.leaderboard(scope, game, offset=offset, limit=size, listed=listed)
                        want = rows[offset : offset + size]
                        got = [(p.user_id, p.display_name) for p in page]
                        assert got == [(w.user_id, f"p{w.user_id}") for w in want]
            games_on = dict(await ratings.games(scope))
            assert games_on.get(game, 0) == len(ladder)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
async def test_places_pages_and_sizes_from_the_bands_are_those_of_a_sort(target: DbTarget, seed: int) -> None:
    db = await target.open()
    try:
        rng = random.Random(seed)
        match_id = await setup(db)
        live: dict[tuple[int, str, int], Any] = {}
        for step in range(6):
            for _ in range(50 if step == 0 else 25):
                await random_change(db, rng, match_id, live)
            await check_against_a_sort(db)
        assert len(live) > 20  # the ladders were not emptied by the deletes
    finally:
        await db.close()


async def test_a_recount_gives_the_bands_the_triggers_kept(target: DbTarget) -> None:
    """db.ladder.recount (for ratings loaded with the triggers off) writes what the triggers wrote."""
    db = await target.open()
    try:
        rng = random.Random(9)
        match_id = await setup(db)
        live: dict[tuple[int, str, int], Any] = {}
        for _ in range(150):
            await random_change(db, rng, match_id, live)
        kept = await stored_bands(db)
        await recount(db)
        assert kept and await stored_bands(db) == kept
    finally:
        await db.close()


async def test_the_migration_counts_the_ratings_already_stored(target: DbTarget) -> None:
    """Ratings stored before 0017 (and a server's minimum) are counted into bands by it, and 0021
    lists those with the server's minimum of games."""
    before = [m for m in load_migrations() if m.version < 17]
    db = await target.open(migrations=before)
    try:
        rng = random.Random(5)
        match_id = await setup(db)
        await db.execute(
            "INSERT INTO server_settings (guild_id, leaderboard_min_games, updated_at, updated_by) VALUES (?, 3, 0, 1)",
            (GUILD,),
        )
        live: dict[tuple[int, str, int], Any] = {}
        for _ in range(120):
            await random_change(db, rng, match_id, live, old_schema=True)
    finally:
        await db.close()
    db = await target.open()
    try:
        assert await db.schema_version() >= 21
        # migration 0021 lists the server's players with its minimum of games, and no others
        for s in await everything(db):
            assert s.listed == (s.games >= (3 if s.scope == GUILD else 1)) and s.settle_at == 0
        assert await stored_bands(db) and await stored_bands(db) == await recounted_bands(db)
        await check_against_a_sort(db)
    finally:
        await db.close()


async def test_a_place_and_a_page_read_no_whole_ladder(tmp_path: Any) -> None:
    """SQLite's plans: the place, the size, a page and a player's standings use the bands and the
    indexes; none scans the ratings table (before: the place counted every row ahead)."""
    db = await Database.open(str(tmp_path / "plans.sqlite3"))
    try:
        from db import ladder

        statements = [
            (
                ladder._POSITION.format(n=n, listed=listed),
                (GUILD, "g", 0, GUILD, "g", 0, 64, GUILD, "g", 0.0, 1.0, 0.5, 0.5, 1, 1, 7),
            )
            for n, listed in (("players", ""), ("shown", " AND listed = 1"))
        ]
        statements += [
            (ladder._LOCATE.format(n="players", fine=ladder.FINE), (GUILD, "g", 10, GUILD, "g", 10)),
            (ladder._LOCATE.format(n="shown", fine=ladder.FINE), (GUILD, "g", 10, GUILD, "g", 10)),
            (
                f"{ladder._LADDER_ROWS} WHERE scope = ? AND game = ? AND ordinal < ? {ladder._ORDER} LIMIT 10 OFFSET 3",
                (GUILD, "g", 1.5),
            ),
            (
                "SELECT ratings.*, players.display_name FROM ratings JOIN players USING (user_id)"
                " WHERE user_id = ? AND scope IN (?, ?) ORDER BY game, scope",
                (7, GUILD, 0),
            ),
        ]
        for sql, params in statements:
            plan = " | ".join(str(row[-1]) for row in await db.fetchall(f"EXPLAIN QUERY PLAN {sql}", params))
            assert "SCAN ratings" not in plan and "SCAN ladder_bands" not in plan, plan
    finally:
        await db.close()
