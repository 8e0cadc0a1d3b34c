"""The load part of ``python -m bench service`` (issue 33, part 1): what concurrency buys.

Run in a worker process (``bench.service_worker load``) on a fresh SQLite file (WAL, the service's
own pragmas), through the match service's public API only: a move is ``prompt`` + ``submit`` of a
random legal action, Wizards Cup. Before each timed phase enough matches are started (a stock):
a match that ends is replaced from it, so the phases time moves, finishing moves and the ratings
of the finished matches (rated in the background as in the bot), not the lobby's challenges
(``matches_started_in_play`` counts those started because a stock ran out). The phases, one
after the other in the same process:

- ``sequential``: one caller, moves back to back for ``seconds``: moves per second, and the CPU
  seconds one move costs (the process's CPU time, every thread, over the moves: the event loop and
  the database thread);
- ``saturated``: ``concurrency`` (200) callers, each on its own match, moves back to back:
  moves per second. ``throughput_ratio`` = saturated / sequential moves per second;
  ``cpu_limit_share`` = saturated moves per second x the CPU seconds of a sequential move (1.0:
  as many moves as one core's CPU time pays for at the sequential cost; batched moves cost less,
  and the database thread runs beside the event loop, so it can pass 1);
- ``half_load``: an open load: moves arrive at random (a Poisson stream) at half the saturated
  rate, each to a match not already moving; the caller's latency counts from its arrival;
- ``bare``: the same open load again, and beside it the reference: a bare one-row ``INSERT`` +
  ``COMMIT`` on its own aiosqlite connection to its own file in the same folder, arriving as a
  Poisson stream of its own (:data:`REFERENCE_RATE`), timed from its arrival.
  ``caller_p99_ratio`` = the moves' p99 / the bare commits' p99, both in this phase: measured over
  the same seconds, so a stall of the shared disk weighs on both, by how long it lasts (both are
  sampled at random moments). ``half_load`` gives the moves' figures without the reference beside
  them.

After the run every accepted move is looked up in the stored log (match, seat, action): a move
missing (``lost``) or stored more often than accepted (``doubled``) is reported, and the parent
fails the run.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules.registry import game_slugs

from .service_worker import BareCommit, Seeds, Service, new_match, open_service, percentile, pick_move

CONCURRENCY = 200
REFERENCE_RATE = 50.0
"""Bare commits per second arriving during the reference phase (a light stream, so that they
seldom queue behind each other on their own connection)."""


@dataclass
class Ledger:
    """Every accepted move (match, seat, its action JSON), to check the stored logs against."""

    accepted: list[tuple[int, int, str]] = field(default_factory=list)
    created: int = 0
    #: matches started during a timed phase (its stock ran out)
    started_in_play: int = 0
    finished: int = 0


class Table:
    """The matches of a run: a free list of live matches; a match that ends is replaced."""

    def __init__(self, service: Service, ledger: Ledger) -> None:
        self.service = service
        self.ledger = ledger
        self._next_user = 1000
        self.free: list[int] = []
        #: started matches not played yet, taken when a match ends (:meth:`stock`)
        self.spares: list[int] = []
        #: match -> its two players' user ids
        self.players: dict[int, tuple[int, int]] = {}

    async def stock(self, n: int) -> None:
        """Start matches until ``n`` are in stock, before a timed phase: a match that ends is then
        replaced from the stock, so the phase times moves (and the ratings of finished matches),
        not the lobby's challenges."""
        while len(self.spares) < n:
            self.spares.append(await self.start())

    def needed(self, rate: float, seconds: float) -> int:
        """Matches a phase of ``seconds`` at ``rate`` moves per second will start, going by the
        moves per match so far, with a margin (a phase that runs out starts more as it goes)."""
        if not self.ledger.finished:
            return 0
        per_match = len(self.ledger.accepted) / self.ledger.finished
        return int(1.5 * rate * seconds / per_match) + 20

    async def replacement(self) -> int:
        if self.spares:
            return self.spares.pop()
        self.ledger.started_in_play += 1
        return await self.start()

    async def start(self) -> int:
        """A new started match between two new players."""
        first = self._next_user
        self._next_user += 2
        match_id = await new_match(self.service, ((first, f"p{first}"), (first + 1, f"p{first + 1}")))
        self.players[match_id] = (first, first + 1)
        self.ledger.created += 1
        return match_id

    async def move(self, match_id: int, rng: random.Random) -> tuple[float, float]:
        """One random move of ``match_id`` (``prompt`` + ``submit``): when it started and ended
        (``time.perf_counter``). A match that this move ends is replaced by a new one in the free
        list, after the end time is read."""
        start = time.perf_counter()
        picked = await pick_move(self.service, match_id, rng)
        users = self.players[match_id]
        result = await self.service.submit(match_id, users[picked.seat], picked.action, seat_step=picked.seat_step)
        end = time.perf_counter()
        self.ledger.accepted.append((match_id, picked.seat, json.dumps(_action_json(picked.action), sort_keys=True)))
        if result.finished:
            self.ledger.finished += 1
            match_id = await self.replacement()
        self.free.append(match_id)
        return start, end


def _action_json(action: Any) -> Any:
    to_json = getattr(action, "to_json", None)
    return to_json() if callable(to_json) else action


async def closed_loop(table: Table, callers: int, seconds: float, seed: int, expect: float = 0) -> dict[str, Any]:
    """``callers`` callers, each moving its own match back to back for ``seconds`` (``expect``:
    about how many moves per second, for the stock of matches)."""
    while len(table.free) < callers:
        table.free.append(await table.start())
    await table.stock(table.needed(expect, seconds))
    counts = [0] * callers
    latencies: list[float] = []

    async def caller(i: int) -> None:
        rng = random.Random(seed * 7919 + i)
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            start, end = await table.move(table.free.pop(), rng)
            counts[i] += 1
            latencies.append(end - start)

    cpu0, wall0 = time.process_time(), time.perf_counter()
    await asyncio.gather(*(caller(i) for i in range(callers)))
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    moves = sum(counts)
    return {
        "callers": callers,
        "moves": moves,
        "seconds": wall,
        "moves_per_s": moves / wall,
        "cpu_s_per_move": cpu / moves,
        "submit_p50_ms": percentile(latencies, 0.5) * 1000,
        "submit_p99_ms": percentile(latencies, 0.99) * 1000,
    }


def poisson(rng: random.Random, rate: float, start: float, stop: float) -> list[float]:
    """Arrival times (``time.perf_counter`` values) of a Poisson stream of ``rate`` per second."""
    times: list[float] = []
    at = start
    while True:
        at += rng.expovariate(rate)
        if at >= stop:
            return times
        times.append(at)


async def arrivals(times: list[float], job: Callable[[float], Coroutine[Any, Any, None]]) -> None:
    """Start ``job(arrival)`` as its own task at each arrival time; wait for them all."""
    tasks: set[asyncio.Task[None]] = set()
    for at in times:
        delay = at - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        task = asyncio.create_task(job(at))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    while tasks:
        await asyncio.gather(*list(tasks))


async def open_loop(
    table: Table,
    rate: float,
    seconds: float,
    seed: int,
    reference: Callable[[], Awaitable[None]] | None = None,
    reference_rate: float = REFERENCE_RATE,
) -> dict[str, Any]:
    """Moves arriving as a Poisson stream of ``rate`` per second for ``seconds``, each to a free
    match; the caller's latency counts from the arrival. ``reference``: an operation arriving
    meanwhile as a Poisson stream of its own (``reference_rate``), each timed from its arrival too
    (reported as ``reference_*``). Both are sampled at random moments, so a stall of the machine or
    the disk weighs on both by how long it lasts; a reference run back to back would take one
    sample per stall, however long, and look better than it is."""
    await table.stock(table.needed(rate, seconds))
    rng = random.Random(seed)
    latencies: list[float] = []
    reference_latencies: list[float] = []
    waiting = 0

    async def one(arrived: float) -> None:
        nonlocal waiting
        while not table.free:  # every match is moving: wait for one (counted in the latency)
            waiting += 1
            await asyncio.sleep(0.001)
        match_id = table.free.pop(rng.randrange(len(table.free)))
        _, end = await table.move(match_id, random.Random(rng.getrandbits(32)))
        latencies.append(end - arrived)

    async def timed(arrived: float) -> None:
        assert reference is not None
        await reference()
        reference_latencies.append(time.perf_counter() - arrived)

    now = time.perf_counter()
    jobs = [arrivals(poisson(rng, rate, now, now + seconds), one)]
    if reference is not None:
        jobs.append(arrivals(poisson(random.Random(seed + 1), reference_rate, now, now + seconds), timed))
    await asyncio.gather(*jobs)
    out: dict[str, Any] = {
        "rate": rate,
        "moves": len(latencies),
        "caller_p50_ms": percentile(latencies, 0.5) * 1000,
        "caller_p99_ms": percentile(latencies, 0.99) * 1000,
        "waited_for_a_match": waiting,
    }
    if reference is not None:
        out["reference_rate"] = reference_rate
        out["reference_ops"] = len(reference_latencies)
        out["reference_p50_ms"] = percentile(reference_latencies, 0.5) * 1000
        out["reference_p99_ms"] = percentile(reference_latencies, 0.99) * 1000
    return out


async def check_logs(db: Any, ledger: Ledger) -> dict[str, int]:
    """Every accepted move once in the stored logs: (lost, doubled)."""
    from collections import Counter

    rows = await db.fetchall("SELECT match_id, seat, action FROM actions WHERE seat IS NOT NULL")
    stored = Counter((int(r[0]), int(r[1]), json.dumps(json.loads(r[2]), sort_keys=True)) for r in rows)
    wanted = Counter(ledger.accepted)
    lost = sum((wanted - stored).values())
    doubled = sum((stored - wanted).values())
    return {"accepted": len(ledger.accepted), "stored": sum(stored.values()), "lost": lost, "doubled": doubled}


async def measure_load(folder: str | Path, seed: int, seconds: float, concurrency: int = CONCURRENCY) -> dict[str, Any]:
    """The four phases (module docstring) on fresh files in ``folder``."""
    folder = Path(folder)
    db, service = await open_service(folder / "load.sqlite3", Seeds(seed))
    bare = await BareCommit.open(folder / "load-bare.sqlite3")
    ledger = Ledger()
    table = Table(service, ledger)
    try:
        warm = await closed_loop(table, 1, min(2.0, seconds / 4), seed)  # warm-up: imports, caches
        sequential = await closed_loop(table, 1, seconds, seed + 1, expect=warm["moves_per_s"])
        saturated = await closed_loop(table, concurrency, seconds, seed + 2, expect=3 * sequential["moves_per_s"])
        half = sequential["moves_per_s"] / 2
        rate = saturated["moves_per_s"] / 2
        half_load = await open_loop(table, rate, seconds, seed + 3)

        bare_run = await open_loop(table, rate, seconds, seed + 4, reference=bare)
        logs = await check_logs(db, ledger)
    finally:
        await bare.close()
        await service.close()
        await db.close()
    return {
        "sequential": sequential,
        "saturated": saturated,
        "half_load": half_load,
        "bare": bare_run,
        "logs": logs,
        "matches_created": ledger.created,
        "matches_started_in_play": ledger.started_in_play,
        "matches_finished": ledger.finished,
        "throughput_ratio": saturated["moves_per_s"] / sequential["moves_per_s"],
        "cpu_limit_share": saturated["moves_per_s"] * sequential["cpu_s_per_move"],
        "caller_p99_ratio": bare_run["caller_p99_ms"] / bare_run["reference_p99_ms"],
        "half_sequential_rate": half,
    }


# ---------------------------------------------------------------------------------------
# the first move of each game after a restart (issue 33, part 4)
# ---------------------------------------------------------------------------------------

RESTART_MATCHES = 3
"""Live matches per game in the restart database."""
Restart = dict[str, list[tuple[int, list[int]]]]
"""game -> its live matches in the restart database: (match id, the user ids by seat)."""
LOADED_MOVES = 5
"""Moves timed on a match already loaded, per game: the warm reference."""


async def timed_move(service: Service, match_id: int, users: Sequence[int], rng: random.Random) -> tuple[float, bool]:
    """One random move (``prompt`` of the seats in random order until one is awaited, then
    ``submit``): the ms it took, and whether it ended the match."""
    start = time.perf_counter()
    for seat in rng.sample(range(len(users)), len(users)):
        prompt = await service.prompt(match_id, seat)
        if prompt.awaited and prompt.decision is not None and len(prompt.decision.choices) > 0:
            choices = prompt.decision.choices
            action = choices[rng.randrange(len(choices))]
            moved = await service.submit(match_id, users[seat], action, seat_step=prompt.seat_step)
            return (time.perf_counter() - start) * 1000, bool(moved.finished)
    raise RuntimeError(f"match {match_id} awaits no seat")


async def build_restart(path: str | Path, seed: int) -> Restart:
    """A database with :data:`RESTART_MATCHES` live matches of each game (two seats, one move
    made): game -> [(match id, user ids)]."""
    db, service = await open_service(path, Seeds(seed))
    rng = random.Random(seed)
    made: Restart = {}
    try:
        for g, game in enumerate(game_slugs()):
            made[game] = []
            for i in range(RESTART_MATCHES):
                users = [(10_000 * (g + 1) + 10 * i + k, f"p{k}") for k in range(2)]
                record = await service.create_challenge(game, None, 10, 20, users[0], users[1:])
                await service.accept(record.id, users[1][0])
                ids = [u for u, _ in users]
                await timed_move(service, record.id, ids, rng)  # under way
                made[game].append((record.id, ids))
    finally:
        await service.close()
        await db.close()
    return made


async def measure_restart(
    path: str | Path, matches: dict[str, list[tuple[int, list[int]]]], seed: int
) -> dict[str, Any]:
    """In a fresh process: ``Database.open`` + ``MatchService`` + ``recover()`` (``ready_s``), then
    per game, in order: the first move after the restart (``first_ms``, a match not loaded yet),
    a move in each other match of the game (``first_touch_ms``: the first touch of a match, the
    game already in use), and :data:`LOADED_MOVES` moves round those matches, loaded by then
    (``loaded_ms``: warm moves; a match that ends is left out). ``ratio`` = the first move / the
    median warm move."""
    start = time.perf_counter()
    db, service = await open_service(path, Seeds(seed))
    await service.recover()
    out: dict[str, Any] = {"ready_s": time.perf_counter() - start, "games": {}}
    rng = random.Random(seed)
    try:
        for game in game_slugs():
            first, ended = await timed_move(service, *matches[game][0], rng)
            going = [] if ended else [matches[game][0]]
            touched = []
            for match_id, users in matches[game][1:]:
                took, ended = await timed_move(service, match_id, users, rng)
                touched.append(took)
                if not ended:
                    going.append((match_id, users))
            loaded: list[float] = []
            while going and len(loaded) < LOADED_MOVES:  # round the loaded matches still going
                match_id, users = going.pop(0)
                took, ended = await timed_move(service, match_id, users, rng)
                loaded.append(took)
                if not ended:
                    going.append((match_id, users))
            out["games"][game] = {
                "first_ms": first,
                "first_touch_ms": touched,
                "loaded_ms": loaded,
                "ratio": first / percentile(loaded, 0.5) if loaded else None,
            }
    finally:
        await service.close()
        await db.close()
    return out


def job_for(task: str, params: dict[str, Any]) -> Coroutine[Any, Any, Any]:
    """The worker task ``task`` (``load``, ``restart_build``, ``restart``, ``memory``, ``ratings``
    or ``pg_moves``) with its parameters."""
    if task == "load":
        return measure_load(params["folder"], int(params["seed"]), float(params["seconds"]), int(params["concurrency"]))
    if task == "restart_build":
        return build_restart(params["path"], int(params["seed"]))
    if task == "memory":
        from .service_memory import measure_games

        return measure_games(params["folder"], list(params["games"]), int(params["live"]), int(params["seed"]))
    if task == "ratings":
        from .ratings_scale import measure_backend

        return measure_backend(
            params["backend"], params["folder"], int(params["rows"]), int(params["rounds"]), int(params["seed"])
        )
    if task == "pg_moves":
        from .pg_moves import measure as measure_pg_moves

        return measure_pg_moves(int(params["moves"]), int(params["seed"]))
    if task == "restart":
        matches = {game: [(int(m), [int(u) for u in users]) for m, users in v] for game, v in params["matches"].items()}
        return measure_restart(params["path"], matches, int(params["seed"]))
    raise ValueError(f"unknown task {task!r}")


__all__ = ["CONCURRENCY", "build_restart", "job_for", "measure_load", "measure_restart"]
