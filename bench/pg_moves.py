"""A move on PostgreSQL (issue 33, part 3), a part of ``python -m bench service``: round trips to
the server per accepted move, and the move's latency against a bare ``INSERT`` + commit on the same
server, measured in the same run, taking turns (one move, then one bare insert, and so on).

The server is a throwaway one (:mod:`bench.pgserver`) with durable settings (``fsync``,
``synchronous_commit`` and ``full_page_writes`` on, as a production server runs), so a commit waits
for its WAL flush in both. The match service plays the four games on it: :data:`LIVE_PER_GAME` live
matches of each (two seats), a random awaited seat of a random match makes a random legal move
(found with ``prompt``, untimed), and only ``submit`` is timed; a match that ends is replaced
(untimed), so finishing moves (and their rating, which follows the acknowledgement) are part of the
sample. The time the move's own write takes (``Database.write`` inside the ``submit``: the group
commit's call and its wait) is recorded apart (``write_*``), and so is the rest of the ``submit``
(``engine_*``: the move's own work, with no wait on the server: lock, checks, the engine, the
notices, the answer), each per move. The bare reference is one ``INSERT``
of a row like an action's into a table of its own on a connection of its own, autocommitted (one
round trip, one commit).

The floor (``floor_*``): the least any move writes, the match's version guard and its one log entry
(no notice, no deadline), through the same ``Database.write``, again taking turns with a bare insert.
Where a commit's sync costs a fraction of a millisecond, this alone is about 2.5x the bare insert
at p99: the part of a move's p99 that no change to the move's other statements can remove.

Round trips are counted on the wire: every write of a request to the server's socket by any of the
pool's connections during the ``submit`` (asyncpg sends a statement's messages, up to its Sync, in
one write, and then waits for the answer; a statement not prepared yet on that connection costs
one more). The first :data:`WARMUP` moves are not counted (each connection prepares its statements
once).
"""

from __future__ import annotations

import random
import time
from typing import Any

from rules.registry import game_slugs

from .service_worker import percentile

LIVE_PER_GAME = 5
WARMUP = 60
DURABLE = {"fsync": "on", "synchronous_commit": "on", "full_page_writes": "on"}


class Wire:
    """Counts the requests the pool's connections write to the server."""

    def __init__(self, db: Any) -> None:
        self.db = db
        self.count = 0
        self._seen: set[int] = set()

    def watch(self) -> None:
        """Count on every connection the pool holds now (it opens them as needed)."""
        for holder in self.db._pool._holders:
            conn = holder._con
            if conn is None or id(conn) in self._seen:
                continue
            self._seen.add(id(conn))
            transport = conn._transport
            write = transport.write

            def counted(data: Any, _write: Any = write) -> Any:
                self.count += 1
                return _write(data)

            transport.write = counted


async def measure(moves: int, seed: int) -> dict[str, Any] | None:
    """The figures, or None when no PostgreSQL server binaries are installed."""
    from .pgserver import PgServer, find_bindir

    bindir = find_bindir()
    if bindir is None:
        return None
    server = PgServer(bindir, prefix="bench-pg-moves-", settings=DURABLE)
    try:
        server.start()
        return await _measure(server.url(await server.create_schema("moves")), server.url(), moves, seed)
    finally:
        server.stop()


async def _measure(url: str, bare_url: str, moves: int, seed: int) -> dict[str, Any]:
    import asyncpg

    from bot.matches import MatchService
    from db import Database

    rng = random.Random(seed)
    seeds = iter(range(seed * 1_000_000, (seed + 1) * 1_000_000))
    db = await Database.open(url)
    service = MatchService(db, seed_factory=lambda: next(seeds))
    bare = await asyncpg.connect(bare_url)
    await bare.execute("CREATE TABLE bare (id BIGSERIAL PRIMARY KEY, match_id BIGINT, action TEXT, created_at BIGINT)")
    wire = Wire(db)
    writes: list[float] = []
    real_write = db.write

    async def timed_write(batch: Any) -> Any:
        started = time.perf_counter()
        try:
            return await real_write(batch)
        finally:
            writes.append(time.perf_counter() - started)

    db.write = timed_write  # type: ignore[method-assign]
    users = iter(range(1, 10_000_000))
    live: list[tuple[str, int, list[int]]] = []

    async def new_match(game: str) -> tuple[str, int, list[int]]:
        a, b = next(users), next(users)
        record = await service.create_challenge(game, None, 10, 20, (a, f"p{a}"), [(b, f"p{b}")])
        await service.accept(record.id, b)
        return game, record.id, [a, b]

    try:
        for game in game_slugs():
            for _ in range(LIVE_PER_GAME):
                live.append(await new_match(game))
        samples: dict[str, list[float]] = {"submit": [], "bare": [], "write": [], "engine": []}
        trips: list[int] = []
        per_game: dict[str, list[float]] = {game: [] for game in game_slugs()}
        for n in range(moves + WARMUP):
            i = rng.randrange(len(live))
            game, match_id, seats = live[i]
            for seat in rng.sample(range(len(seats)), len(seats)):
                prompt = await service.prompt(match_id, seat)
                if prompt.awaited and prompt.decision is not None and prompt.decision.choices:
                    break
            else:
                raise RuntimeError(f"match {match_id} awaits no seat")
            action = prompt.decision.choices[rng.randrange(len(prompt.decision.choices))]
            wire.watch()
            writes.clear()
            before = wire.count
            started = time.perf_counter()
            moved = await service.submit(match_id, seats[seat], action, seat_step=prompt.seat_step)
            took = time.perf_counter() - started
            counted = wire.count - before
            commit = sum(writes)
            started = time.perf_counter()
            await bare.execute(
                "INSERT INTO bare (match_id, action, created_at) VALUES ($1, $2, $3)", match_id, '{"type": "x"}', n
            )
            bare_took = time.perf_counter() - started
            if n >= WARMUP:
                samples["submit"].append(took)
                samples["bare"].append(bare_took)
                samples["write"].append(commit)
                samples["engine"].append(took - commit)
                trips.append(counted)
                per_game[game].append(took)
            if moved.finished:
                await service.settle()  # the rating, untimed
                live[i] = await new_match(game)
        floor = await _floor(service, db, bare, moves, new_match)
    finally:
        await service.close()
        await db.close()
        await bare.close()
    submit_p99, bare_p99 = percentile(samples["submit"], 0.99), percentile(samples["bare"], 0.99)
    return {
        "moves": len(trips),
        "round_trips_mean": sum(trips) / len(trips),
        "round_trips_max": max(trips),
        "submit_p50_ms": percentile(samples["submit"], 0.5) * 1000,
        "submit_p99_ms": submit_p99 * 1000,
        "bare_p50_ms": percentile(samples["bare"], 0.5) * 1000,
        "bare_p99_ms": bare_p99 * 1000,
        "p99_ratio": submit_p99 / bare_p99,
        "p50_ratio": percentile(samples["submit"], 0.5) / percentile(samples["bare"], 0.5),
        "write_p50_ms": percentile(samples["write"], 0.5) * 1000,
        "write_p99_ms": percentile(samples["write"], 0.99) * 1000,
        "write_p99_ratio": percentile(samples["write"], 0.99) / bare_p99,
        "engine_p50_ms": percentile(samples["engine"], 0.5) * 1000,
        "engine_p99_ms": percentile(samples["engine"], 0.99) * 1000,
        "engine_p99_ratio": percentile(samples["engine"], 0.99) / bare_p99,
        "round_trips_p99": percentile([float(t) for t in trips], 0.99),
        "per_game_p50_ms": {g: percentile(v, 0.5) * 1000 for g, v in per_game.items() if v},
        **floor,
    }


async def _floor(service: Any, db: Any, bare: Any, moves: int, new_match: Any) -> dict[str, float]:
    """The guard and one log entry, written ``moves`` times (each after the last, so the guard holds),
    each followed by a bare insert."""
    from db.base import Batch
    from db.live import LiveRepository
    from db.records import NewAction

    _, match_id, _ = await new_match("wizards-cup")
    version = int(await db.fetchval("SELECT version FROM matches WHERE id = ?", (match_id,)))
    start = int(await db.fetchval("SELECT COUNT(*) FROM actions WHERE match_id = ?", (match_id,)))
    timed: dict[str, list[float]] = {"floor": [], "bare": []}
    for n in range(moves + WARMUP):
        batch = Batch()
        LiveRepository.guard(batch, match_id, version)
        LiveRepository.add_actions(batch, match_id, start + n, [NewAction(seat=0, action={"type": "x"})], n)
        started = time.perf_counter()
        await db.write(batch)
        took = time.perf_counter() - started
        version += 1
        started = time.perf_counter()
        await bare.execute("INSERT INTO bare (match_id, action, created_at) VALUES ($1, $2, $3)", 0, '{"type": "x"}', n)
        if n >= WARMUP:
            timed["floor"].append(took)
            timed["bare"].append(time.perf_counter() - started)
    return {
        "floor_p50_ms": percentile(timed["floor"], 0.5) * 1000,
        "floor_p99_ms": percentile(timed["floor"], 0.99) * 1000,
        "floor_bare_p99_ms": percentile(timed["bare"], 0.99) * 1000,
        "floor_p99_ratio": percentile(timed["floor"], 0.99) / percentile(timed["bare"], 0.99),
    }
