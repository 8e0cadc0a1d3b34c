"""Ratings at size (issue 33, part 2), a part of ``python -m bench service``: rating a finish, a
/leaderboard page and a player's place, on a database holding about 1,000,000 rating rows (100,000
players on one server) against the same work on one holding about 100, measured in the same process
taking turns (one operation on the small database, the same on the large one, and so on), on SQLite
and on PostgreSQL.

The databases: P players (P = rows / 8), 80% of them on the measured server; for each of the four
games every player has a global standing and a standing on their server (the measured one, or one
of 50 others): 8 rows per player. Each standing has one rating change (its latest). The numbers are
drawn as a ladder looks (games per player geometric, mean about 7; sigma shrinking with games; mu
spread around 25), so ordinals are spread as on a real ladder, ties included.

What is timed, per operation (the figure is the median over the timed operations):

- ``finish``: :meth:`bot.ratings.RatingService.catch_up` of a match just finished between two
  players of the server who already have standings, in a season running on the server (three
  ladders each) (the match, its seats and its queue entry are
  written untimed before, as the match service writes them in the finishing move);
- ``page``: :meth:`bot.stats.StatsService.leaderboard` of the server's ladder, a random page of 10
  (settling what is due, sizes, the rows, the records of the players shown), with the server's
  leaderboard minimum at 3 (/settings; the players listed: ``ratings.listed``);
- ``page_all``: a random page of every player on the ladder (:meth:`RatingsRepository.leaderboard`
  with ``listed=False``);
- ``place``: a random server player's place and the ladder's size (:meth:`RatingsRepository.position`
  and :meth:`~RatingsRepository.count`, what /profile shows per ladder).

``rating_cost_ratio`` is ``finish`` large over small; ``leaderboard_cost_ratio`` the larger of
``page``'s and ``place``'s ratios (what /leaderboard and /profile read; ``page_all`` is detail).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import random
import statistics
import time
from collections.abc import AsyncIterator, Awaitable, Sequence
from typing import Any

from rules.registry import game_slugs

GUILD = 7_000_001
OTHER_SERVERS = 50
SERVER_SHARE = 0.8
PAGE_SIZE = 10
MIN_GAMES = 3
CHUNK = 5000
SMALL_ROWS = 100
BANDS_MIGRATION = 17
"""The small database's rating rows (the large one's: ``rows``)."""


def layout(rows: int) -> tuple[int, int]:
    """(players, players on the measured server) for about ``rows`` rating rows."""
    players = max(3, round(rows / 8))
    return players, max(2, round(players * SERVER_SHARE))


def standing(rng: random.Random) -> tuple[float, float, int, int, int]:
    """(mu, sigma, games, wins, losses) as a ladder's standings are spread."""
    games = 1 + min(int(rng.expovariate(1 / 6)), 400)
    sigma = max(0.9, 25 / 3 * 0.92**games * rng.uniform(0.9, 1.1))
    mu = rng.gauss(25 + min(games, 60) * 0.04, 2.5 + 2.5 * (1 - 0.95**games))
    wins = rng.randint(0, games)
    return mu, sigma, games, wins, games - wins


async def build(db: Any, url: str, rows: int, seed: int) -> dict[str, Any]:
    """Fill ``db`` (migrated, empty; at ``url``) with about ``rows`` rating rows; return what was made."""
    rng = random.Random(seed)
    players, on_server = layout(rows)
    started = time.perf_counter()
    load = Loader(db, url)
    await load("players", PLAYER_COLUMNS, [(uid, f"player {uid}", 0, 0) for uid in range(1, players + 1)])
    # each standing's latest match: players 2k - 1 and 2k played it together
    pairs = (players + 1) // 2
    first: dict[str, int] = {}
    for i, game in enumerate(game_slugs()):
        first[game] = 1 + i * pairs
        matches = [(first[game] + k, game, "finished", 2 * k + 1, 0, 0, GUILD) for k in range(pairs)]
        await load("matches", MATCH_COLUMNS, matches)
    if db.backend == "postgres":  # the ids were given: move the sequence past them
        await db.fetchval("SELECT setval(pg_get_serial_sequence('matches', 'id'), (SELECT MAX(id) FROM matches))")
    made = 0
    async with band_triggers_off(db):
        for game in game_slugs():
            ratings: list[tuple[Any, ...]] = []
            changes: list[tuple[Any, ...]] = []
            for uid in range(1, players + 1):
                home = GUILD if uid <= on_server else 1 + uid % OTHER_SERVERS
                for scope in (home, 0):
                    mu, sigma, games, wins, losses = standing(rng)
                    ordinal = mu - 3 * sigma
                    display = round(1200 + 20 * ordinal)
                    match_id = first[game] + (uid - 1) // 2
                    listed = int(games >= MIN_GAMES or scope != GUILD)  # the server lists from MIN_GAMES on
                    ratings.append(
                        (scope, game, uid, mu, sigma, ordinal, display, wins, losses, 0, games, match_id, 0, listed)
                    )
                    changes.append(
                        (match_id, scope, game, uid, 0, 1, "win", 25.0, 8.0, 25.0, 8.0, display - 10, display, 0)
                    )
            await load("ratings", RATING_COLUMNS, ratings)
            await load("rating_changes", CHANGE_COLUMNS, changes)
            made += len(ratings)
    await load.close()
    if db.backend == "postgres":  # as autovacuum would after such a load (the visibility map too:
        await db.execute("VACUUM ANALYZE")  # an index-only scan then reads no table row)
    return {"rows": made, "players": players, "on_server": on_server, "build_s": time.perf_counter() - started}


PLAYER_COLUMNS = ("user_id", "display_name", "first_seen_at", "last_seen_at")
MATCH_COLUMNS = ("id", "game", "status", "challenger_id", "created_at", "finished_at", "guild_id")
RATING_COLUMNS = (
    "scope", "game", "user_id", "mu", "sigma", "ordinal", "display", "wins", "losses", "draws", "games",
    "last_match_id", "updated_at", "listed",
)  # fmt: skip
CHANGE_COLUMNS = (
    "match_id", "scope", "game", "user_id", "seat", "rank", "result", "mu_before", "sigma_before", "mu_after",
    "sigma_after", "display_before", "display_after", "finished_at",
)  # fmt: skip


class Loader:
    """Bulk inserts: ``executemany`` in transactions of :data:`CHUNK` rows on SQLite, ``COPY`` on
    PostgreSQL (through a connection of its own: the rows are committed when each call returns)."""

    def __init__(self, db: Any, url: str) -> None:
        self.db, self.url = db, url
        self.conn: Any = None

    async def __call__(self, table: str, columns: Sequence[str], rows: Sequence[tuple[Any, ...]]) -> None:
        if self.db.backend == "postgres":
            if self.conn is None:
                import asyncpg

                self.conn = await asyncpg.connect(self.url)
            await self.conn.copy_records_to_table(table, records=rows, columns=list(columns))
            return
        marks = ", ".join("?" for _ in columns)
        sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"
        for lo in range(0, len(rows), CHUNK):
            async with self.db.transaction():
                await self.db.executemany(sql, rows[lo : lo + CHUNK])

    async def close(self) -> None:
        if self.conn is not None:
            await self.conn.close()


@contextlib.asynccontextmanager
async def band_triggers_off(db: Any) -> AsyncIterator[None]:
    """Ratings inserted meanwhile skip the ladder-band trigger; the bands are counted once after
    (:func:`db.ladder.recount`: the same rows the trigger would have written, tested in
    tests/db/test_ladder_bands.py), which makes a million rows load in a fraction of the time."""
    if await db.schema_version() < BANDS_MIGRATION:  # older code (a baseline): no bands to keep
        yield
        return
    from db import ladder

    if db.backend == "postgres":
        await db.execute("ALTER TABLE ratings DISABLE TRIGGER ladder_bands_insert")
        try:
            yield
        finally:
            await db.execute("ALTER TABLE ratings ENABLE TRIGGER ladder_bands_insert")
    else:
        saved = await db.fetchall(
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name = 'ladder_bands_insert'"
        )
        for row in saved:
            await db.execute(f"DROP TRIGGER {row['name']}")
        try:
            yield
        finally:
            for row in saved:
                await db.execute(row["sql"])
    await ladder.recount(db)


class Ops:
    """The timed operations on one database."""

    def __init__(self, db: Any, built: dict[str, Any], seed: int) -> None:
        from bot.ratings import RatingService
        from bot.stats import StatsService
        from db.ratings import RatingsRepository

        self.db, self.built = db, built
        self.rng = random.Random(seed)
        self.rating = RatingService(db)
        self.stats = StatsService(db, clock=lambda: 3.0)  # the matches' clock: nothing has been away
        self.ratings = RatingsRepository(db)
        self.pages: dict[tuple[str, int], int] = {}

    def _player(self) -> int:
        return self.rng.randint(1, int(self.built["on_server"]))

    async def prepare_finish(self) -> str:
        """A match of the server just finished between two of its players, queued (untimed)."""
        game = self.rng.choice(game_slugs())
        a = self._player()
        b = a
        while b == a:
            b = self._player()
        outcome = json.dumps({"seats": [{"result": "win"}, {"result": "loss"}], "ranks": [1, 2]})
        async with self.db.transaction():
            match_id = int(
                await self.db.fetchval(
                    "INSERT INTO matches (game, status, challenger_id, created_at, started_at, finished_at, guild_id,"
                    " outcome) VALUES (?, 'finished', ?, 1, 1, 2, ?, ?) RETURNING id",
                    (game, a, GUILD, outcome),
                )
            )
            await self.db.executemany(
                "INSERT INTO seats (match_id, seat, user_id, display_name, accepted) VALUES (?, ?, ?, ?, 1)",
                [(match_id, 0, a, f"player {a}"), (match_id, 1, b, f"player {b}")],
            )
            await self.db.execute("INSERT INTO rating_queue (match_id) VALUES (?)", (match_id,))
        return game

    async def finish(self, game: str) -> None:
        changes = await self.rating.catch_up(game)
        assert len(changes) == 6, changes  # two players, three ladders (the server's, its season's, global)

    async def page(self, listed: bool) -> None:
        """A random page of the server's leaderboard (its listed players: those with the server's
        minimum of games) through the stats service, or of every player on the ladder."""
        game = self.rng.choice(game_slugs())
        key = (game, int(listed))
        if key not in self.pages:  # the ladder's pages, once (untimed the first time: the warm-up)
            if listed:
                self.pages[key] = (await self.stats.leaderboard(game, GUILD, 0, size=PAGE_SIZE)).pages
            else:
                self.pages[key] = -(-(await self.ratings.count(GUILD, game)) // PAGE_SIZE)
        wanted = self.rng.randrange(self.pages[key])
        if listed:
            board = await self.stats.leaderboard(game, GUILD, wanted, size=PAGE_SIZE)
            assert board.standings and board.page == wanted, (game, wanted)
        else:
            rows = await self.ratings.leaderboard(GUILD, game, offset=wanted * PAGE_SIZE, limit=PAGE_SIZE, listed=False)
            assert rows, (game, wanted)

    async def place(self) -> float:
        """The seconds a random server player's place and the ladder's size take (the lookup of
        the player's standing before is not timed)."""
        game = self.rng.choice(game_slugs())
        mine = await self.ratings.get(GUILD, game, self._player())
        assert mine is not None
        started = time.perf_counter()
        place = await self.ratings.position(mine, listed=mine.listed)  # as /profile asks
        size = (await self.ratings.counts(GUILD, game))[0] if mine.listed else await self.ratings.count(GUILD, game)
        assert 1 <= place <= size
        return time.perf_counter() - started


async def _timed(job: Awaitable[None]) -> float:
    started = time.perf_counter()
    await job
    return time.perf_counter() - started


async def measure_pair(small: Ops, large: Ops, rounds: int) -> dict[str, Any]:
    """Each operation ``rounds`` times on each database, taking turns (the order alternating)."""
    times: dict[str, dict[str, list[float]]] = {op: {"small": [], "large": []} for op in OPERATIONS}
    for r in range(rounds + 2):  # the first two rounds warm up (untimed)
        order = [("small", small), ("large", large)]
        for name, ops in order if r % 2 == 0 else order[::-1]:
            game = await ops.prepare_finish()
            took = {
                "finish": await _timed(ops.finish(game)),
                "page": await _timed(ops.page(True)),
                "page_all": await _timed(ops.page(False)),
                "place": await ops.place(),
            }
            if r >= 2:
                for op, seconds in took.items():
                    times[op][name].append(seconds)
    out: dict[str, Any] = {}
    for op, by_size in times.items():
        small_us = statistics.median(by_size["small"]) * 1e6
        large_us = statistics.median(by_size["large"]) * 1e6
        out[op] = {
            "small_us": small_us,
            "large_us": large_us,
            "ratio": large_us / small_us,
            "small_p90_us": _quantile(by_size["small"], 0.9) * 1e6,
            "large_p90_us": _quantile(by_size["large"], 0.9) * 1e6,
        }
    return out


OPERATIONS = ("finish", "page", "page_all", "place")


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


async def set_minimum(db: Any) -> None:
    """The server's leaderboard minimum, as /settings sets it, and a season running on the server
    (issue 36: each finish is rated on the server's, the season's and the global ladder)."""
    from db.seasons import SeasonsRepository
    from db.servers import ServersRepository

    await ServersRepository(db).upsert(GUILD, {"leaderboard_min_games": MIN_GAMES}, updated_by=1)
    await SeasonsRepository(db).start(GUILD, name=None, started_at=1, ends_at=None, rollover=False, by=1)


def pin_to_one_cpu() -> int | None:
    """Keep this process (and the database threads it starts) on one CPU; return it (None where
    the system cannot). Each query is a hop to a database's thread and back; on this machine's
    virtual CPUs a hop that wakes the other CPU costs 50-500 µs more than one on the same CPU, and
    which database's thread lands on which CPU is chance, so without this the ratio measures that
    chance (2-3x either way between runs) more than the databases."""
    try:
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
    except (AttributeError, OSError):
        return None
    return cpu


async def measure(urls: dict[str, str], rows: dict[str, int], rounds: int, seed: int) -> dict[str, Any]:
    """Build the small and the large database (``urls``, ``rows``: keyed ``small``/``large``) and
    time the operations on both; the figures, the ratios and the builds."""
    from db import Database

    pinned = pin_to_one_cpu()
    dbs = {name: await Database.open(url) for name, url in urls.items()}
    try:
        built = {name: await build(db, urls[name], rows[name], seed) for name, db in dbs.items()}
        for db in dbs.values():
            await set_minimum(db)
        ops = {name: Ops(db, built[name], seed + i) for i, (name, db) in enumerate(dbs.items())}
        timed = await measure_pair(ops["small"], ops["large"], rounds)
    finally:
        for db in dbs.values():
            await db.close()
    return {
        "built": built,
        "operations": timed,
        "rating_cost_ratio": timed["finish"]["ratio"],
        # what /leaderboard and /profile read (page_all, every player listed or not, is detail)
        "leaderboard_cost_ratio": max(timed[op]["ratio"] for op in ("page", "place")),
        "rounds": rounds,
        "pinned_cpu": pinned,
    }


async def measure_backend(backend: str, folder: str, rows: int, rounds: int, seed: int) -> dict[str, Any] | None:
    """:func:`measure` on SQLite files in ``folder``, or on two schemas of a throwaway PostgreSQL
    server (:mod:`bench.pgserver`; None with a note when its binaries are missing)."""
    sizes = {"small": SMALL_ROWS, "large": rows}
    if backend == "sqlite":
        urls = {name: f"{folder}/ratings-{name}.sqlite3" for name in sizes}
        return await measure(urls, sizes, rounds, seed)
    from .pgserver import PgServer, find_bindir

    bindir = find_bindir()
    if bindir is None:
        return None
    server = PgServer(bindir, prefix="bench-ratings-")
    try:
        server.start()
        urls = {name: server.url(await server.create_schema(name)) for name in sizes}
        return await measure(urls, sizes, rounds, seed)
    finally:
        server.stop()


def headline(results: dict[str, dict[str, Any] | None]) -> dict[str, Any]:
    """The JSON keys: SQLite's figures plain, PostgreSQL's with a ``_postgres`` suffix (None where
    not measured)."""
    out: dict[str, Any] = {}
    for backend, suffix in (("sqlite", ""), ("postgres", "_postgres")):
        found = results.get(backend)
        out[f"rating_cost_ratio_1m{suffix}"] = found["rating_cost_ratio"] if found else None
        out[f"leaderboard_cost_ratio_1m{suffix}"] = found["leaderboard_cost_ratio"] if found else None
    return out


def print_ratings(results: dict[str, dict[str, Any] | None], notes: Sequence[str]) -> None:
    from .report import table

    if not results:
        return
    print()
    print(
        "Ratings at size: the same work on about 100 rating rows and on the large database, taking turns"
        " (median µs; goals: finish <= 1.5x, the others <= 2x)"
    )
    rows = []
    for backend, found in results.items():
        if found is None:
            rows.append([backend, "not measured", None, None, None])
            continue
        large = found["built"]["large"]["rows"]
        for op, m in found["operations"].items():
            rows.append([f"{backend} {op}", large, m["small_us"], m["large_us"], m["ratio"]])
    print(table(["backend, operation", "rows", "small µs", "large µs", "large / small"], rows))
    for note in notes:
        print(f"note: {note}")
