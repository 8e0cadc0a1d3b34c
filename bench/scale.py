"""``python -m bench scale``: the match service past one process (issue 17, part 5): accepted moves
per second and move latency with 1, 2 and 4 service processes on one PostgreSQL database, beside
one process on an SQLite file, each against a bare commit on the same backend in the same run.

The run starts its own throwaway PostgreSQL server (:mod:`bench.pgserver`: the system's binaries,
a temporary folder, a unix socket; ``fsync=off`` and ``synchronous_commit=off`` as in the tests,
or both on with ``--durable``, while SQLite, in WAL mode with its default ``synchronous=FULL``,
syncs every commit) and makes the SQLite file in a temporary folder. Each configuration gets a fresh database (a new
schema on the server, a new file), migrated by ``Database.open``.

Each service process (``bench.scale_worker``) runs ``MatchService`` without Discord (a no-op
notifier) with its timer loop, as the bot does. This process drives them: ``--live`` Wizards Cup
matches (2 seats, secret simultaneous plans) are kept going, ``--concurrency`` of them in play at
once. A match's turn sends a move for each seat at once, each to a random process (as two players
clicking together, their interactions arriving at any process): so a match's moves are made by
different processes, each must see the others' commits, and the two seats of a simultaneous step
race for the match's row. A move is the seat's ``prompt`` (a seat not awaited answers ``idle``), a
random legal action, ``submit``; the submit is timed in the process that makes it. A match that ends
is replaced by a new one. Every move is followed, in the same process, by a bare commit: a
one-row ``INSERT`` + ``COMMIT`` through the Database API (``Database.write``) on a second
connection, so the reference sees the same load as the moves: on PostgreSQL into a table of its own
in the same database (no lock the moves take), on SQLite into a file of its own in the same folder
(one writer at a time per file: in the moves' file the bare commit would mostly measure waiting for
their write lock). ``p99_ratio`` = p99 submit / p99 bare commit (the machine is shared and noisy:
compare ratios, not milliseconds, between runs).

The first ``--warmup`` seconds are played but not timed; then ``--seconds`` are timed:
``moves_per_s`` is the accepted moves completed in that window over its length, latency figures are
of the moves (and bare commits) completed in it.

Refused moves: a refusal that a race between processes explains (``StalePrompt``, ``Conflict``, or
``WrongStatus`` when the other seat's move ended the match) is counted as ``raced``; any other
refusal, or a failed command, is an ``error`` (listed in the JSON). At the end every match's log is
read back: each accepted move must be in it once, in order (per seat), and the log must hold no
player move that was not accepted; ``lost`` or ``doubled`` above 0 fails the run (exit 1).

JSON (``--json FILE``): ``{"sqlite": {"1": {...}}, "postgres": {"1": {...}, "2": {...}, "4":
{...}}}``, each with ``moves_per_s``, ``p50_ms``, ``p99_ms``, ``p99_ratio``, ``bare_p50_ms``,
``bare_p99_ms``, ``p50_ratio``, ``moves`` (accepted, timed), ``moves_total`` (accepted, whole run),
``matches``, ``finished``, ``raced`` (and ``raced_by`` refusal), ``idle``, ``errors``,
``error_samples``, ``lost``, ``doubled``, ``processes``, ``seconds``; and ``detail`` (the
settings, the server's version, notes).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import procs
from .pgserver import INSTALL_HINT, PgServer, find_bindir
from .report import table, write_json
from .service_worker import percentile

ROOT = Path(__file__).resolve().parent.parent
PROCESSES = [1, 2, 4]
RACES = frozenset({"StalePrompt", "Conflict"})
"""Refusals a race between processes explains (the move was made on an out-of-date prompt, or
another process kept changing the match): counted, not errors."""
SEATS = 2
BARE_TABLE = (
    "CREATE TABLE IF NOT EXISTS bench_bare (n BIGINT NOT NULL, payload TEXT NOT NULL, created_at BIGINT NOT NULL)"
)
BARE_INSERT = "INSERT INTO bench_bare (n, payload, created_at) VALUES (?, ?, ?)"


class Worker(procs.Worker):
    """One ``bench.scale_worker`` process and its JSON-lines pipe (:mod:`bench.procs`)."""

    @classmethod
    async def start(cls, name: str, url: str, bare_url: str, seed: int) -> Worker:
        return await cls.spawn(
            name,
            "bench.scale_worker",
            [url, "--bare-url", bare_url, "--seed", str(seed)],
            cwd=ROOT,
            env={"PYTHONHASHSEED": "0"},
        )


@dataclass
class Match:
    match_id: int
    users: list[list[Any]]
    accepted: list[tuple[int, str]] = field(default_factory=list)  # (seat, action JSON), in order per seat
    finished: bool = False


@dataclass
class Tally:
    matches: list[Match] = field(default_factory=list)
    submit_us: list[float] = field(default_factory=list)  # accepted moves completed in the window
    bare_us: list[float] = field(default_factory=list)
    timed_moves: int = 0
    moves_total: int = 0
    raced: int = 0
    raced_by: dict[str, int] = field(default_factory=dict)  # refusal class -> count
    idle: int = 0  # move requests for a seat that was not awaited
    errors: list[str] = field(default_factory=list)


def canonical(action: Any) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


class Driver:
    """Keeps ``live`` matches going, ``concurrency`` of them in play at once; each move to a random process."""

    def __init__(self, workers: Sequence[Worker], seed: int) -> None:
        self.workers = list(workers)
        self.rng = random.Random(seed)
        self.tally = Tally()
        self._users = 0

    async def new_match(self) -> Match:
        users: list[list[Any]] = []
        for _ in range(SEATS):
            self._users += 1
            users.append([self._users, f"P{self._users}"])
        answer = await self.rng.choice(self.workers).call("create", users=users)
        if not answer["ok"]:
            raise RuntimeError(f"a match could not be created: {answer['error']}: {answer['message']}")
        match = Match(int(answer["result"]), users)
        self.tally.matches.append(match)
        return match

    async def play(self, live: int, concurrency: int, warmup: float, seconds: float) -> float:
        """Play for ``warmup`` + ``seconds``; returns the timed window's length (s)."""
        idle: asyncio.Queue[Match] = asyncio.Queue()
        for match in await asyncio.gather(*(self.new_match() for _ in range(live))):
            idle.put_nowait(match)
        start = time.perf_counter()
        window = (start + warmup, start + warmup + seconds)

        async def loop() -> None:
            while time.perf_counter() < window[1]:
                match = await idle.get()
                idle.put_nowait(await self.move(match, window))

        await asyncio.gather(*(loop() for _ in range(concurrency)))
        return seconds

    async def move(self, match: Match, window: tuple[float, float]) -> Match:
        """One turn of ``match``: a move for every seat at once, each sent to a random process (a
        seat that is not awaited answers idle); the match to go on with (a new one if it ended)."""
        calls = []
        for seat in range(len(match.users)):
            worker = self.rng.choice(self.workers)
            calls.append(worker.call("move", match=match.match_id, users=match.users, seat=seat, bare=True))
        answers = await asyncio.gather(*calls)
        done = time.perf_counter()
        timed = window[0] <= done <= window[1]
        results = []
        for answer in answers:
            if answer["ok"]:
                results.append(answer["result"])
            else:
                self.tally.errors.append(f"match {match.match_id}: {answer['error']}: {answer['message']}")
        ended = any(r["accepted"] and r["finished"] for r in results)
        for result in results:
            if result["idle"]:
                self.tally.idle += 1
                continue
            if result.get("bare_us") is not None and timed:
                self.tally.bare_us.append(float(result["bare_us"]))
            if not result["accepted"]:
                if result["refused"] in RACES or (ended and result["refused"] == "WrongStatus"):
                    self.tally.raced += 1
                    self.tally.raced_by[result["refused"]] = self.tally.raced_by.get(result["refused"], 0) + 1
                else:
                    self.tally.errors.append(
                        f"match {match.match_id}: refused: {result['refused']}: {result['message']}"
                    )
                continue
            match.accepted.append((int(result["seat"]), canonical(result["action"])))
            self.tally.moves_total += 1
            if timed:
                self.tally.timed_moves += 1
                self.tally.submit_us.append(float(result["submit_us"]))
        if ended:
            match.finished = True
            return await self.new_match()
        return match


async def prepare(url: str, bare_url: str) -> None:
    """Migrate the fresh database(s) and make the bare commit's table (before the processes start)."""
    from db import Database

    for where in dict.fromkeys([url, bare_url]):
        db = await Database.open(where)
        try:
            await db.execute(BARE_TABLE)
        finally:
            await db.close()


async def verify(url: str, matches: Sequence[Match]) -> tuple[int, int]:
    """Read every match's log back: (accepted moves missing from it, player moves in it that were
    not accepted or are there twice)."""
    from db import Database

    db = await Database.open(url)
    try:
        rows = await db.fetchall(
            "SELECT match_id, seat, action, auto FROM actions WHERE seat IS NOT NULL ORDER BY match_id, idx"
        )
    finally:
        await db.close()
    logs: dict[int, list[tuple[int, str]]] = {}
    for row in rows:
        if not row[3]:
            logs.setdefault(int(row[0]), []).append((int(row[1]), canonical(json.loads(row[2]))))
    lost = doubled = 0
    for match in matches:  # per seat: the seats of a match move concurrently, each one at a time
        for seat in range(len(match.users)):
            pending = [a for a in match.accepted if a[0] == seat]
            for entry in logs.get(match.match_id, []):
                if entry[0] != seat:
                    continue
                if pending and entry == pending[0]:
                    pending.pop(0)
                else:
                    doubled += 1
            lost += len(pending)
    return lost, doubled


async def run_one(
    url: str,
    bare_url: str,
    processes: int,
    *,
    live: int,
    concurrency: int,
    warmup: float,
    seconds: float,
    seed: int,
) -> dict[str, Any]:
    """One configuration: ``processes`` service processes on the database at ``url``, their bare
    commits on ``bare_url``."""
    await prepare(url, bare_url)
    started = time.perf_counter()
    workers = list(
        await asyncio.gather(*(Worker.start(f"w{i}", url, bare_url, seed * 100 + i) for i in range(processes)))
    )
    driver = Driver(workers, seed)
    try:
        window = await driver.play(live, concurrency, warmup, seconds)
    finally:
        for worker in workers:
            await worker.stop()
    tally = driver.tally
    lost, doubled = await verify(url, tally.matches)
    if not tally.submit_us or not tally.bare_us:
        raise RuntimeError(f"no move (or no bare commit) completed in the timed window ({processes} processes)")
    s50, s99 = percentile(tally.submit_us, 0.5), percentile(tally.submit_us, 0.99)
    b50, b99 = percentile(tally.bare_us, 0.5), percentile(tally.bare_us, 0.99)
    return {
        "processes": processes,
        "moves_per_s": tally.timed_moves / window,
        "p50_ms": s50 / 1000,
        "p99_ms": s99 / 1000,
        "p99_ratio": s99 / b99,
        "p50_ratio": s50 / b50,
        "bare_p50_ms": b50 / 1000,
        "bare_p99_ms": b99 / 1000,
        "bare_commits": len(tally.bare_us),
        "moves": tally.timed_moves,
        "moves_total": tally.moves_total,
        "matches": len(tally.matches),
        "finished": sum(1 for m in tally.matches if m.finished),
        "raced": tally.raced,
        "raced_by": tally.raced_by,
        "idle": tally.idle,
        "errors": len(tally.errors),
        "error_samples": tally.errors[:10],
        "lost": lost,
        "doubled": doubled,
        "seconds": window,
        "wall_s": time.perf_counter() - started,
    }


def server_version(server: PgServer) -> str:
    import subprocess

    out = subprocess.run([str(server.bindir / "postgres"), "--version"], capture_output=True, text=True, check=False)
    return out.stdout.strip()


async def run_all(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    results: dict[str, Any] = {"sqlite": {}, "postgres": {}}
    settings = {
        "live": args.live,
        "concurrency": args.concurrency,
        "warmup": args.warmup,
        "seconds": args.seconds,
    }
    sqlite_url, bare_file = str(tmp / "scale.sqlite3"), str(tmp / "bare.sqlite3")
    print(f"sqlite, 1 process ({args.seconds:g} s) ...", file=sys.stderr, flush=True)
    results["sqlite"]["1"] = await run_one(sqlite_url, bare_file, 1, seed=args.seed, **settings)
    bindir = find_bindir()
    if bindir is None:
        raise SystemExit(f"bench scale: {INSTALL_HINT}")
    durable = {"fsync": "on", "synchronous_commit": "on", "full_page_writes": "on"} if args.durable else None
    server = PgServer(bindir, prefix="bench-scale-pg-", settings=durable)
    try:
        server.start()
        results["detail_server"] = server_version(server)
        for n in args.processes:
            schema = await server.create_schema("scale")
            print(f"postgres, {n} process(es) ({args.seconds:g} s) ...", file=sys.stderr, flush=True)
            url = server.url(schema)
            results["postgres"][str(n)] = await run_one(url, url, n, seed=args.seed + n, **settings)
    finally:
        server.stop()
    return results


def main(argv: list[str], *, quick: bool, json_path: str | None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench scale")
    parser.add_argument("--processes", type=int, nargs="+", default=PROCESSES, help="service processes on PostgreSQL")
    parser.add_argument("--seconds", type=float, default=None, help="timed seconds per configuration (30; quick 3)")
    parser.add_argument("--warmup", type=float, default=None, help="untimed seconds first (3; quick 1)")
    parser.add_argument("--live", type=int, default=64, help="matches kept going")
    parser.add_argument("--concurrency", type=int, default=8, help="matches in play at once")
    parser.add_argument(
        "--durable",
        action="store_true",
        help="PostgreSQL with fsync and synchronous_commit on (default off, as in the tests; SQLite syncs each commit)",
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    args.seconds = args.seconds if args.seconds is not None else (3.0 if quick else 30.0)
    args.warmup = args.warmup if args.warmup is not None else (1.0 if quick else 3.0)
    args.processes = sorted(set(args.processes))
    if min(args.processes) < 1 or args.live < 1 or args.concurrency < 1 or args.seconds <= 0:
        parser.error("processes, --live, --concurrency and --seconds must be positive")
    args.concurrency = min(args.concurrency, args.live)
    notes = [
        f"{os.cpu_count()} CPUs shared by the service processes, the database server and this driver",
        (
            "PostgreSQL runs with fsync and synchronous_commit on (--durable)"
            if args.durable
            else "PostgreSQL runs with fsync=off and synchronous_commit=off (a throwaway server; --durable: on)"
        )
        + "; SQLite in WAL mode, synchronous=FULL (its default: each commit syncs the WAL)",
    ]
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bench-scale-") as tmp:
        results = asyncio.run(run_all(args, Path(tmp)))
    server = results.pop("detail_server", None)
    results["detail"] = {
        "game": "wizards-cup",
        "quick": quick,
        "live": args.live,
        "concurrency": args.concurrency,
        "warmup_s": args.warmup,
        "seconds": args.seconds,
        "durable": args.durable,
        "server": server,
        "wall_s": time.perf_counter() - started,
        "notes": notes,
    }
    print_report(results)
    write_json(json_path, results)
    bad = [
        f"{backend} x{n}: {r['lost']} lost, {r['doubled']} doubled"
        for backend in ("sqlite", "postgres")
        for n, r in results[backend].items()
        if r["lost"] or r["doubled"]
    ]
    if bad:
        print("FAILED: accepted moves lost or applied twice: " + "; ".join(bad), file=sys.stderr)
        return 1
    return 0


def print_report(results: dict[str, Any]) -> None:
    d = results["detail"]
    print(
        f"Match service past one process: Wizards Cup, {d['live']} live matches, {d['concurrency']} in play at once "
        f"(every seat's move sent together, each to a random process); {d['seconds']:g} s timed after "
        f"{d['warmup_s']:g} s"
    )
    rows = []
    for backend in ("sqlite", "postgres"):
        for n, r in sorted(results[backend].items(), key=lambda kv: int(kv[0])):
            rows.append(
                [
                    backend,
                    int(n),
                    r["moves_per_s"],
                    r["p50_ms"],
                    r["p99_ms"],
                    r["bare_p50_ms"],
                    r["bare_p99_ms"],
                    r["p99_ratio"],
                    r["moves"],
                    r["raced"],
                    r["errors"],
                    r["lost"],
                    r["doubled"],
                ]
            )
    print(
        table(
            [
                "backend",
                "procs",
                "moves/s",
                "p50 ms",
                "p99 ms",
                "bare p50 ms",
                "bare p99 ms",
                "x p99",
                "moves",
                "raced",
                "errors",
                "lost",
                "doubled",
            ],
            rows,
        )
    )
    for backend in ("sqlite", "postgres"):
        for n, r in results[backend].items():
            for sample in r["error_samples"]:
                print(f"error ({backend} x{n}): {sample}")
    for note in d["notes"]:
        print(f"note: {note}")
