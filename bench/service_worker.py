"""The measuring side of ``python -m bench service``: one task per process, against whichever
``bot``, ``db`` and ``rules`` packages are importable (``--code DIR`` puts DIR first on sys.path),
so the same code measures the working tree and a baseline checked out from git.

Only the match service's public API is used: ``Database.open``, ``MatchService(db, clock=...,
seed_factory=...)``, ``create_challenge``, ``accept``, ``prompt``, ``submit``, ``recover``, and
``Database.close``. The game is Wizards Cup (2 seats, secret simultaneous moves).

Tasks (``python -m bench.service_worker TASK --code DIR --params JSON``; prints
``{"result": ..., "code": {module: file}}``):

- ``build``: :func:`build_all`: the database files one way needs, each holding N active matches:
  template matches played through the API in a scratch file, then copied N times in SQL
  (:func:`clone_matches`); the schema is made by this way's ``Database.open``.
- ``moves``: :func:`measure_all`: for each live count L, :func:`measure_moves` on a copy of the
  ``live-L`` file: submit latency with L live matches, each submit followed by a bare aiosqlite
  INSERT + commit on a separate connection (:class:`BareCommit`), the database round trips of each
  submit (:class:`RoundTrips`), and resident memory per live match.
- ``load``: :func:`bench.service_load.measure_load`: throughput and latency when many moves
  arrive at once (group commit), on a fresh file.
- ``restart_build`` and ``restart``: :func:`bench.service_load.build_restart` and
  :func:`bench.service_load.measure_restart`: the first move of each game after a restart.
- ``startup``: :func:`measure_startup`: ``Database.open`` + ``MatchService(...)`` +
  ``recover()`` on a copy of a ``startup-N`` file (run it in a fresh process).

The packages are imported by name (:func:`service_api`), not with import statements: the parent
imports this module for its helpers and must not load the working tree's packages, and this code
is written against the public API both ways share (the protocols below; e.g. ``recover()``
returns records in the baseline and match ids today), not type-checked against one of them.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import importlib
import json
import math
import os
import random
import sys
import time
from collections.abc import Callable, Coroutine, Mapping, Sequence, Sized
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from .service_data import active_seats, clone_matches, count_rows, table_rows

if TYPE_CHECKING:
    import aiosqlite

GAME = "wizards-cup"
T0 = 1_700_000_000
"""A fixed time for the bare reference rows. The services run on the real clock: finish times
must advance as they do in the bot. No move deadline falls due in a run."""
GUILD, CHANNEL = 10, 20
TEMPLATE_USERS = ((1, "Ann"), (2, "Bob"))
LONGEST_OF = 6
"""The start-up template is the longest of this many random games, stopped one move before its end."""
RSS_MIN_LIVE = 100
"""Resident memory per live match is measured from this many live matches up."""
STAGE_EVERY = 1
"""The live-match templates: one game at every stage (0, 1, 2, … moves made), so the live matches
are spread evenly over a game, as a steady stream of matches would be."""

# the bare reference: the pragmas db/database.py sets (at the baseline revision, 2fa9e59), kept
# fixed here so both ways are compared with the same reference
LOAD_TASKS = ("load", "restart_build", "restart", "memory", "ratings", "pg_moves")
"""The tasks :func:`bench.service_load.job_for` runs."""
BARE_PRAGMAS = ("PRAGMA foreign_keys = ON", "PRAGMA busy_timeout = 5000", "PRAGMA journal_mode = WAL")
BARE_TABLE = (
    "CREATE TABLE IF NOT EXISTS bare (id INTEGER PRIMARY KEY, match_id INTEGER NOT NULL, idx INTEGER NOT NULL,"
    " action TEXT NOT NULL, created_at INTEGER NOT NULL)"
)
BARE_ACTION = json.dumps({"type": "plan", "order": ["archmage", "shaman", "cleric", "fire-wizard", "matron"]})


# ---------------------------------------------------------------------------------------
# the public API both ways share (what this module relies on, and nothing more)
# ---------------------------------------------------------------------------------------


class Closable(Protocol):
    async def close(self) -> None: ...


class Decision(Protocol):
    @property
    def choices(self) -> Sequence[Any]: ...


class SeatPrompt(Protocol):
    @property
    def seat_step(self) -> int: ...
    @property
    def awaited(self) -> bool: ...
    @property
    def decision(self) -> Decision | None: ...


class Record(Protocol):
    @property
    def id(self) -> int: ...


class Started(Protocol):
    @property
    def started(self) -> bool: ...


class Moved(Protocol):
    @property
    def finished(self) -> bool: ...


class Service(Protocol):
    async def create_challenge(
        self,
        game: str,
        options: Mapping[str, Any] | None,
        guild_id: int | None,
        channel_id: int | None,
        challenger: tuple[int, str],
        opponents: Sequence[tuple[int, str]],
    ) -> Record: ...
    async def accept(self, match_id: int, user_id: int) -> Started: ...
    async def prompt(self, match_id: int, seat: int) -> SeatPrompt: ...
    async def submit(self, match_id: int, user_id: int, action: Any, *, seat_step: int | None) -> Moved: ...
    async def recover(self) -> Sized: ...
    async def close(self) -> None: ...


def service_api() -> tuple[Any, Any]:
    """``(db.Database, bot.matches.MatchService)`` of the code first on sys.path."""
    return importlib.import_module("db").Database, importlib.import_module("bot.matches").MatchService


# ---------------------------------------------------------------------------------------
# small helpers (also used by bench.service)
# ---------------------------------------------------------------------------------------


def percentile(samples: Sequence[float], q: float) -> float:
    """The nearest-rank ``q`` quantile (0 < q <= 1) of ``samples``."""
    if not samples:
        raise ValueError("no samples")
    ordered = sorted(samples)
    return float(ordered[max(0, math.ceil(q * len(ordered)) - 1)])


def rss_kb() -> int:
    """This process's resident set size in KB (/proc/self/statm; elsewhere the peak RSS)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            resident_pages = int(f.read().split()[1])
        return resident_pages * os.sysconf("SC_PAGE_SIZE") // 1024
    except (OSError, ValueError, IndexError):
        import resource

        return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


class Seeds:
    """A ``seed_factory``: the seeds queued with :meth:`push` first, then seeded random ones."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self._queued: list[int] = []

    def push(self, seed: int) -> None:
        self._queued.append(seed)

    def draw(self) -> int:
        return self._rng.getrandbits(62)

    def __call__(self) -> int:
        return self._queued.pop(0) if self._queued else self.draw()


@dataclass(frozen=True)
class Move:
    """One submitted move, enough to submit it again in a match with the same seed and history."""

    seat: int
    seat_step: int
    action: Any


# ---------------------------------------------------------------------------------------
# counting round trips
# ---------------------------------------------------------------------------------------


class RoundTrips:
    """Counts calls of ``aiosqlite.core.Connection._execute`` (every aiosqlite operation goes
    through it: one hop to the connection's thread), leaving out the ``exclude`` connection (the
    bare reference). Use as a context manager; :attr:`count` is reset by the caller."""

    def __init__(self, exclude: aiosqlite.Connection | None = None) -> None:
        self.exclude = exclude
        self.count = 0
        self._original: Any = None

    def __enter__(self) -> RoundTrips:
        from aiosqlite.core import Connection

        original: Callable[..., Any] = Connection._execute
        self._original = original
        counter = self

        def counted(conn: Any, fn: Any, *args: Any, **kwargs: Any) -> Any:
            if conn is not counter.exclude:
                counter.count += 1
            return original(conn, fn, *args, **kwargs)  # the coroutine itself: no extra frame

        setattr(Connection, "_execute", counted)  # noqa: B010  (a method patched for the run)
        return self

    def __exit__(self, *exc: object) -> None:
        from aiosqlite.core import Connection

        setattr(Connection, "_execute", self._original)  # noqa: B010


class BareCommit:
    """The reference operation: an ``INSERT`` and a ``commit`` on its own aiosqlite connection to
    its own database file (WAL and the other pragmas of db/database.py). Two round trips."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn
        self._n = 0

    @classmethod
    async def open(cls, path: str | Path) -> BareCommit:
        import aiosqlite

        conn = await aiosqlite.connect(str(path))  # default isolation: the INSERT opens a transaction
        for pragma in BARE_PRAGMAS:
            await conn.execute(pragma)
        await conn.execute(BARE_TABLE)
        await conn.commit()
        return cls(conn)

    async def __call__(self) -> None:
        self._n += 1
        await self.conn.execute(
            "INSERT INTO bare (match_id, idx, action, created_at) VALUES (?, ?, ?, ?)",
            (self._n % 97, self._n, BARE_ACTION, T0),
        )
        await self.conn.commit()

    async def close(self) -> None:
        await self.conn.close()


# ---------------------------------------------------------------------------------------
# playing through the public API
# ---------------------------------------------------------------------------------------


async def open_service(path: str | Path, seeds: Callable[[], int]) -> tuple[Closable, Service]:
    """``Database.open(path)`` and a ``MatchService`` on it (real clock, the given seeds)."""
    database, match_service = service_api()
    db = await database.open(path, clock=time.time)
    service: Service = match_service(db, clock=time.time, seed_factory=seeds)
    return db, service


async def new_match(service: Service, users: tuple[tuple[int, str], tuple[int, str]]) -> int:
    """A started Wizards Cup match between ``users`` (create_challenge, then accept)."""
    record = await service.create_challenge(GAME, None, GUILD, CHANNEL, users[0], [users[1]])
    result = await service.accept(record.id, users[1][0])
    if not result.started:
        raise RuntimeError(f"match {record.id} did not start on accept")
    return record.id


async def pick_move(service: Service, match_id: int, rng: random.Random) -> Move:
    """A random awaited seat of the match and a random legal action for it (through ``prompt``:
    the seats in random order until one is awaited, so each awaited seat is equally likely)."""
    seats = [0, 1]
    rng.shuffle(seats)
    for seat in seats:
        prompt = await service.prompt(match_id, seat)
        if prompt.awaited and prompt.decision is not None and len(prompt.decision.choices) > 0:
            choices = prompt.decision.choices
            return Move(seat, prompt.seat_step, choices[rng.randrange(len(choices))])
    raise RuntimeError(f"match {match_id} awaits no seat")


async def play_game(service: Service, seeds: Seeds, rng: random.Random) -> tuple[int, list[Move]]:
    """Play one random game to its end; return its seed and moves."""
    seed = seeds.draw()
    seeds.push(seed)
    match_id = await new_match(service, TEMPLATE_USERS)
    moves: list[Move] = []
    while True:
        move = await pick_move(service, match_id, rng)
        moves.append(move)
        result = await service.submit(match_id, TEMPLATE_USERS[move.seat][0], move.action, seat_step=move.seat_step)
        if result.finished:
            return seed, moves
        if len(moves) > 500:
            raise RuntimeError("a random Wizards Cup game did not end in 500 moves")


async def replay_game(service: Service, seeds: Seeds, seed: int, moves: Sequence[Move]) -> int:
    """A new match with ``seed`` and ``moves`` submitted again (the same game, so far)."""
    seeds.push(seed)
    match_id = await new_match(service, TEMPLATE_USERS)
    for move in moves:
        await service.submit(match_id, TEMPLATE_USERS[move.seat][0], move.action, seat_step=move.seat_step)
    return match_id


async def build_templates(path: str | Path, kind: str, seed: int) -> list[int]:
    """Active template matches in a scratch database at ``path``:

    - ``"staged"``: one random game, restarted at every :data:`STAGE_EVERY`-th stage: a template
      has its first 0, 1, 2, … moves, so copies of them are spread evenly over a game;
    - ``"longest"``: the longest of :data:`LONGEST_OF` random games, one move before its end.
    """
    seeds = Seeds(seed)
    rng = random.Random(seed)
    db, service = await open_service(path, seeds)
    try:
        if kind == "staged":
            game_seed, moves = await play_game(service, seeds, rng)
            return [await replay_game(service, seeds, game_seed, moves[:j]) for j in range(0, len(moves), STAGE_EVERY)]
        if kind == "longest":
            games = [await play_game(service, seeds, rng) for _ in range(LONGEST_OF)]
            game_seed, moves = max(games, key=lambda g: len(g[1]))
            return [await replay_game(service, seeds, game_seed, moves[:-1])]
        raise ValueError(f"unknown template kind {kind!r}")
    finally:
        await db.close()


async def build_databases(
    folder: str | Path, name: str, kind: str, counts: Sequence[int], seed: int
) -> dict[int, dict[str, Any]]:
    """For each count N, ``folder/name-N.sqlite3`` holding N active matches copied from one set of
    :func:`build_templates` (the schema made by this way's ``Database.open``): its path and what
    it holds, per N."""
    database, _ = service_api()
    folder = Path(folder)
    started = time.perf_counter()
    scratch = folder / f"{name}-templates.sqlite3"
    templates = await build_templates(scratch, kind, seed)
    template_s = time.perf_counter() - started
    built: dict[int, dict[str, Any]] = {}
    for count in counts:
        started = time.perf_counter()
        dest = folder / f"{name}-{count}.sqlite3"
        db = await database.open(dest, clock=time.time)
        await db.close()
        ids = clone_matches(dest, scratch, templates, count)
        built[count] = {
            "path": str(dest),
            "matches": len(ids),
            "active": count_rows(dest, "SELECT COUNT(*) FROM matches WHERE status = 'active'"),
            "templates": len(templates),
            "actions_per_match": count_rows(dest, "SELECT COUNT(*) FROM actions") / max(1, len(ids)),
            "rows": table_rows(dest),
            "seconds": template_s + time.perf_counter() - started,
        }
    return built


async def build_all(folder: str | Path, lives: Sequence[int], sizes: Sequence[int], seed: int) -> dict[str, Any]:
    """Everything one way needs, built once: ``live-L`` files (L active matches spread over a
    game's stages, for :func:`measure_moves`) and ``startup-N`` files (N copies of one long
    active match, for :func:`measure_startup`)."""
    return {
        "live": await build_databases(folder, "live", "staged", lives, seed) if lives else {},
        "startup": await build_databases(folder, "startup", "longest", sizes, seed) if sizes else {},
    }


async def warm_up(seed: int) -> None:
    """Pay the one-time costs (caches filled on first use) before memory is read: one match
    created and moved once in an in-memory database."""
    db, service = await open_service(":memory:", Seeds(seed))
    try:
        match_id = await new_match(service, TEMPLATE_USERS)
        move = await pick_move(service, match_id, random.Random(seed))
        await service.submit(match_id, TEMPLATE_USERS[move.seat][0], move.action, seat_step=move.seat_step)
    finally:
        await db.close()


async def measure_all(
    databases: dict[int, str], folder: str | Path, moves: int, seed: int, *, warmup: int = 20, rss: bool = True
) -> dict[int, dict[str, Any]]:
    """:func:`measure_moves` on each ``databases[L]`` (holding L live matches), the bare files in
    ``folder``; per live count. Memory is read (with ``rss``) from :data:`RSS_MIN_LIVE` live
    matches up: below that a few pages more or less would swamp the figure."""
    await warm_up(seed)
    return {
        live: await measure_moves(
            path,
            Path(folder) / f"bare-{live}.sqlite3",
            live,
            moves,
            seed,
            warmup=warmup,
            rss=rss and live >= RSS_MIN_LIVE,
        )
        for live, path in sorted(databases.items())
    }


async def measure_moves(
    path: str | Path,
    bare_path: str | Path,
    live: int,
    moves: int,
    seed: int,
    *,
    warmup: int = 20,
    rss: bool = True,
) -> dict[str, Any]:
    """Submit random moves to the ``live`` active matches of the database at ``path``, timing each
    ``submit`` and counting its round trips; after each, time one bare INSERT + commit
    (:class:`BareCommit`, on ``bare_path``). Before that, ``recover()`` runs and every match is
    touched once (a ``prompt``), so all of them are loaded whether the service loads at start-up
    or on first use (``recover_s``, ``touch_s``). ``warmup`` untimed moves first, then ``moves``
    timed ones, in passes: each pass visits every live match once, in random order. A match that
    ends is replaced by a new one (untimed), so ``live`` matches stay live.

    With ``rss`` (at least ``live`` timed moves then): the resident memory before ``recover()`` and
    after the first pass (every live match loaded and moved once, then idle; after
    ``gc.collect()``) gives the KB per live match. Returns the raw samples: µs, round trips, and
    whether the move ended its match."""
    rng = random.Random(seed)
    users = active_seats(path)
    if len(users) != live:
        raise RuntimeError(f"{path} holds {len(users)} active matches, expected {live}")
    ids = sorted(users)
    next_user = 1 + max(max(u) for u in users.values())
    replaced = 0
    bare = await BareCommit.open(bare_path)
    db, service = await open_service(path, Seeds(seed + 1))
    try:
        gc.collect()
        rss_before = rss_kb()
        t0 = time.perf_counter()
        recovered = len(await service.recover())
        recover_s = time.perf_counter() - t0
        if recovered != live:
            raise RuntimeError(f"recover() reported {recovered} live matches, expected {live}")
        t0 = time.perf_counter()
        for match_id in ids:
            await service.prompt(match_id, 0)
        touch_s = time.perf_counter() - t0

        async def submit(index: int, counter: RoundTrips) -> tuple[int, int, bool]:
            """One random move in match ``ids[index]``, replaced if it ended: (ns, round trips, ended)."""
            nonlocal next_user, replaced
            match_id = ids[index]
            move = await pick_move(service, match_id, rng)
            user = users[match_id][move.seat]
            counter.count = 0
            start = time.perf_counter_ns()
            result = await service.submit(match_id, user, move.action, seat_step=move.seat_step)
            elapsed = time.perf_counter_ns() - start
            trips = counter.count
            if result.finished:
                a, b = next_user, next_user + 1
                next_user += 2
                new_id = await new_match(service, ((a, f"P{a}"), (b, f"P{b}")))
                users[new_id] = (a, b)
                ids[index] = new_id
                replaced += 1
            return elapsed, trips, result.finished

        submit_us: list[float] = []
        bare_us: list[float] = []
        trips: list[int] = []
        ended: list[bool] = []
        rss_after = None
        timed = max(moves, live) if rss else moves
        order: list[int] = []
        with RoundTrips(exclude=bare.conn) as counter:
            for i in range(warmup + timed):
                if i < warmup:
                    index = rng.randrange(len(ids))
                else:
                    if not order:
                        order = rng.sample(range(len(ids)), len(ids))
                    index = order.pop()
                ns, n, end = await submit(index, counter)
                start = time.perf_counter_ns()
                await bare()
                bare_ns = time.perf_counter_ns() - start
                if i >= warmup:
                    submit_us.append(ns / 1000)
                    bare_us.append(bare_ns / 1000)
                    trips.append(n)
                    ended.append(end)
                if rss and i == warmup + live - 1:  # the first pass is done
                    gc.collect()
                    rss_after = rss_kb()
    finally:
        await db.close()
        await bare.close()
    return {
        "live": live,
        "moves": len(submit_us),
        "submit_us": [round(x, 1) for x in submit_us],
        "bare_us": [round(x, 1) for x in bare_us],
        "round_trips": trips,
        "ended": ended,
        "recover_s": recover_s,
        "touch_s": touch_s,
        "replaced": replaced,
        "rss_kb_before": rss_before,
        "rss_kb_after": rss_after,
        "rss_kb_per_live_match": (rss_after - rss_before) / live if rss_after is not None else None,
    }


async def measure_startup(path: str | Path, cap_s: float | None = None) -> dict[str, Any]:
    """Time ``Database.open`` + ``MatchService(...)`` + ``recover()`` on ``path`` (the bot is
    ready after that). Run it in a fresh process; the modules are imported before the clock
    starts. With ``cap_s``, ``recover()`` is given up after that long (``seconds`` None)."""
    service_api()  # the imports, outside the timing
    gc.collect()
    before = rss_kb()
    start = time.perf_counter()
    database, service = await open_service(path, Seeds(0))
    try:
        try:
            records = await asyncio.wait_for(service.recover(), timeout=cap_s)
        except TimeoutError:
            return {"seconds": None, "capped_at": cap_s, "recovered": None, "rss_kb_growth": None}
        seconds = time.perf_counter() - start
    finally:
        await database.close()
    return {"seconds": seconds, "capped_at": None, "recovered": len(records), "rss_kb_growth": rss_kb() - before}


# ---------------------------------------------------------------------------------------
# the process
# ---------------------------------------------------------------------------------------


def code_files() -> dict[str, str]:
    """Where the measured packages were imported from (the parent checks it)."""
    return {
        name: str(Path(str(importlib.import_module(name).__file__)).resolve())
        for name in ("bot.matches", "db", "rules")
    }


def run_task(task: str, params: dict[str, Any]) -> dict[str, Any]:
    """Run one task; add where the code came from. Parameters (JSON): ``build``: folder, lives,
    sizes, seed; ``moves``: databases ({L: path}), folder, moves, seed, warmup, rss; ``startup``:
    path, cap_s; the others (:data:`LOAD_TASKS`): :func:`bench.service_load.job_for`."""
    job: Coroutine[Any, Any, Any]
    if task == "build":
        job = build_all(params["folder"], params["lives"], params["sizes"], int(params["seed"]))
    elif task == "moves":
        job = measure_all(
            {int(n): str(path) for n, path in params["databases"].items()},
            params["folder"],
            int(params["moves"]),
            int(params["seed"]),
            warmup=int(params.get("warmup", 20)),
            rss=bool(params.get("rss", True)),
        )
    elif task in LOAD_TASKS:
        from .service_load import job_for

        job = job_for(task, params)
    elif task == "startup":
        job = measure_startup(params["path"], None if params.get("cap_s") is None else float(params["cap_s"]))
    else:
        raise ValueError(f"unknown task {task!r}")
    result: dict[str, Any] = {"result": asyncio.run(job), "code": code_files()}
    return result


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.service_worker")
    parser.add_argument("task", choices=["moves", "build", "startup", *LOAD_TASKS])
    parser.add_argument("--code", default=None, help="import bot, db and rules from this folder")
    parser.add_argument("--params", default="{}", help="the task's parameters, a JSON object")
    args = parser.parse_args()
    if args.code:
        sys.path.insert(0, args.code)
    json.dump(run_task(args.task, json.loads(args.params)), sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
