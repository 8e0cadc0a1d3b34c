"""``python -m bench soak [--quick] [--seconds S] [--json FILE]``: the match service under steady
load for a long time (issue 33, part 5): default 20 minutes, ``--quick`` one minute.

In one process, on an SQLite file (WAL), at once and for the whole run:

- the four games between two players who play seeded random legal moves (:data:`PVP_PER_GAME`
  matches of each game at any time; a match that ends is replaced by a new challenge, accepted);
- the four games against computer players (practice matches, :data:`PRACTICE_PER_GAME` of each
  game at any time, the computer at level ``easy`` thinking in the service's worker process);
- a tournament (Swiss, :data:`TOURNAMENT_PLAYERS` players, Wizards Cup): created, joined,
  started, its matches played by the players' random moves, its rounds advanced by the
  tournaments' timer; when it has a champion the next one is created;
- the timers, as the running bot calls them: the match service's tick and the tournaments' tick
  every :data:`TICK_SECONDS`.

It fails (exit status 1, ``failed`` in the JSON with the reasons) when:

- resident memory grows: the least-squares slope of the RSS samples (every 2 s, after
  ``gc.collect()``) over the second half of the run, times that half's length, is more than
  :data:`GROWTH_LIMIT_KB` or 2% of the resident memory, whichever is larger; the same, apart, for
  the computer players' worker processes (their RSS summed);
- any error is logged (a record at ERROR or above, from any logger: a failed tick, a failed
  computer move, a failed notice...);
- a move is lost or doubled: every move a player's ``submit`` accepted is in the stored log once
  (the match, the seat and the action; checked as each match ends, then forgotten, so the soak's
  own bookkeeping does not grow), and the stored logs of finished matches replay to their stored
  outcome (one in :data:`REPLAY_EVERY`, by id, at the end).

JSON (``--json FILE``): ``seconds``, ``matches_finished`` (by kind), ``moves_accepted``,
``tournaments_finished``, ``rss_kb_start``, ``rss_kb_end``, ``rss_slope_kb_per_min`` (second half),
``rss_growth_kb_second_half``, ``workers_rss_kb_start``, ``workers_rss_kb_end``,
``workers_rss_growth_kb_second_half`` (the worker processes), ``memos`` (each bounded memo of the
engines, :mod:`rules.memo`: entries and limit, at the end), ``errors_logged`` (the first few, as
text), ``lost``, ``doubled``, ``replays_checked``, ``failed`` (a list of reasons; empty when it passed).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import logging
import os
import random
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bot.matches import MatchError
from rules.memo import sizes
from rules.registry import game_slugs

from .report import table, write_json
from .service_load import _action_json
from .service_worker import rss_kb

PVP_PER_GAME = 4
PRACTICE_PER_GAME = 2
TOURNAMENT_PLAYERS = 8
TICK_SECONDS = 1.0
SAMPLE_SECONDS = 2.0
REPLAY_EVERY = 5
"""One finished match in this many (by id) is replayed at the end."""
GROWTH_LIMIT_KB = 4096
"""Growth over the second half that fails the run (or 2% of the resident memory, if larger)."""


class Errors(logging.Handler):
    """Every record at ERROR or above, from any logger."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(f"{record.name}: {record.getMessage()}"[:300])


def slope_per_min(samples: list[tuple[float, int]]) -> float:
    """Least-squares slope of (seconds, KB) samples, in KB per minute."""
    if len(samples) < 3:
        return 0.0
    n = len(samples)
    mx = sum(t for t, _ in samples) / n
    my = sum(v for _, v in samples) / n
    var = sum((t - mx) ** 2 for t, _ in samples)
    if var == 0:
        return 0.0
    return 60 * sum((t - mx) * (v - my) for t, v in samples) / var


class Soak:
    def __init__(self, service: Any, tournaments: Any, seed: int) -> None:
        self.service = service
        self.tournaments = tournaments
        self.rng = random.Random(seed)
        self.created = 0
        self.accepted = 0
        #: match -> the moves accepted and not checked yet (checked, and dropped, when it ends)
        self.pending: dict[int, list[tuple[int, int, str]]] = {}
        self.lost = self.doubled = 0
        self.users = iter(range(100_000, 10_000_000))
        self.finished: dict[str, int] = {"pvp": 0, "practice": 0, "tournament": 0}
        self.tournaments_finished = 0
        self.stop = False
        self.playing: set[int] = set()

    def user(self) -> tuple[int, str]:
        uid = next(self.users)
        return uid, f"p{uid}"

    async def play(self, match_id: int, kind: str) -> None:
        """Random legal moves for the match's human seats until it ends (or the run does)."""
        self.playing.add(match_id)
        try:
            while not self.stop:
                record = await self.service.get(match_id)
                if record.status.value != "active":
                    if record.status.value == "finished":
                        self.finished[kind] += 1
                    return
                moved = False
                try:
                    moved = await self.move(match_id, record)
                except MatchError:  # the match moved on meanwhile (a computer's move, its end)
                    moved = True
                if not moved:
                    await asyncio.sleep(0.02)  # a computer's turn
                await asyncio.sleep(0)
        finally:
            self.playing.discard(match_id)
            if not self.stop:
                await self.check(match_id)

    async def check(self, match_id: int) -> None:
        """The match's accepted moves against its stored log (then forgotten: the soak's own
        memory stays flat)."""
        lost, doubled = await check_logs_of_humans(self.service.db, self.pending.pop(match_id, []))
        self.lost += lost
        self.doubled += doubled

    async def move(self, match_id: int, record: Any) -> bool:
        """One random move of an awaited human seat; False when none is awaited."""
        for seat in self.rng.sample(range(len(record.seats)), len(record.seats)):
            if record.seats[seat].ai is not None:
                continue
            prompt = await self.service.prompt(match_id, seat)
            if prompt.awaited and prompt.decision is not None and prompt.decision.choices:
                choices = prompt.decision.choices
                action = choices[self.rng.randrange(len(choices))]
                await self.service.submit(match_id, record.seats[seat].user_id, action, seat_step=prompt.seat_step)
                entry = (match_id, seat, json.dumps(_action_json(action), sort_keys=True))
                self.pending.setdefault(match_id, []).append(entry)
                self.accepted += 1
                return True
        return False

    async def pvp(self, game: str) -> None:
        while not self.stop:
            host, guest = self.user(), self.user()
            record = await self.service.create_challenge(game, None, 1, 2, host, [guest])
            await self.service.accept(record.id, guest[0])
            self.created += 1
            await self.play(record.id, "pvp")

    async def practice(self, game: str) -> None:
        while not self.stop:
            seats = 3 if game == "magic-duel" else 1
            record = await self.service.practice(game, None, 1, 2, self.user(), "easy", seats)
            await self.service.start_if_ready(record.id)
            self.created += 1
            await self.play(record.id, "practice")

    async def tournament(self) -> None:
        while not self.stop:
            organizer = self.user()
            rec = await self.tournaments.create(1, 2, organizer[0], "wizards-cup", "swiss", rounds=3)
            for _ in range(TOURNAMENT_PLAYERS):
                await self.tournaments.join(rec.id, self.user(), guild_id=1)
            await self.tournaments.start(rec.id, organizer[0], guild_id=1)
            while not self.stop:
                view = await self.tournaments.view(rec.id)
                if view.record.status.value in ("finished", "cancelled"):
                    self.tournaments_finished += view.record.status.value == "finished"
                    break
                for match_id in [link.match_id for link in view.links]:
                    if match_id not in self.playing:
                        record = await self.service.get(match_id)
                        if record.status.value == "active":
                            asyncio.create_task(self.play(match_id, "tournament"))
                await asyncio.sleep(0.2)

    async def timers(self) -> None:
        while not self.stop:
            await self.service.tick()
            await self.tournaments.tick()
            await asyncio.sleep(TICK_SECONDS)


async def run(
    folder: Path, seconds: float, seed: int, *, at_least: Mapping[str, int] | None = None, by: float = 60.0
) -> dict[str, Any]:
    """The soak for ``seconds``; with ``at_least`` ({kind: matches}), on past them until that many
    matches of each kind (pvp, practice, tournament) have finished, at most until ``by`` seconds
    (so a short run on a busy machine still sees its matches through, without a longer run
    everywhere)."""
    from bot.matches import MatchService
    from bot.tournaments.service import TournamentService
    from db import Database

    errors = Errors()
    logging.getLogger().addHandler(errors)
    seeds = iter(range(seed * 10_000_000, (seed + 1) * 10_000_000))
    db = await Database.open(str(folder / "soak.sqlite3"))
    service = MatchService(db, seed_factory=lambda: next(seeds), ai_pace_seconds=0.0)
    tournaments = TournamentService(db, service, seed_factory=lambda: next(seeds))
    soak = Soak(service, tournaments, seed)
    await service.recover()
    tasks = [asyncio.create_task(soak.timers())]
    tasks += [asyncio.create_task(soak.pvp(g)) for g in game_slugs() for _ in range(PVP_PER_GAME)]
    tasks += [asyncio.create_task(soak.practice(g)) for g in game_slugs() for _ in range(PRACTICE_PER_GAME)]
    tasks.append(asyncio.create_task(soak.tournament()))
    samples: list[tuple[float, int]] = []
    workers: list[tuple[float, int]] = []
    started = time.monotonic()
    try:
        while (elapsed := time.monotonic() - started) < seconds or (
            at_least is not None and elapsed < by and any(soak.finished[k] < n for k, n in at_least.items())
        ):
            for task in tasks:
                if task.done() and task.exception() is not None:
                    raise task.exception()  # type: ignore[misc]
            gc.collect()
            samples.append((elapsed, rss_kb()))
            workers.append((elapsed, children_rss_kb()))
            await asyncio.sleep(SAMPLE_SECONDS)
    finally:
        soak.stop = True
        await asyncio.sleep(0.5)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await service.settle()
        for match_id in list(soak.pending):
            await soak.check(match_id)
        replays = await replay_finished(db)
        await service.close()
        await db.close()
        logging.getLogger().removeHandler(errors)
    slope, growth, limit = growth_of(samples, seconds)
    _, workers_growth, workers_limit = growth_of(workers, seconds)
    failed = []
    if growth > limit:
        failed.append(f"resident memory grew {growth:.0f} KB over the second half (limit {limit:.0f} KB)")
    if workers_growth > workers_limit:
        failed.append(
            f"the worker processes' memory grew {workers_growth:.0f} KB over the second half "
            f"(limit {workers_limit:.0f} KB)"
        )
    if errors.records:
        failed.append(f"{len(errors.records)} error(s) logged")
    if soak.lost or soak.doubled:
        failed.append(f"{soak.lost} move(s) lost, {soak.doubled} doubled")
    if replays["mismatched"]:
        failed.append(f"{replays['mismatched']} finished match(es) whose log does not replay to their outcome")
    return {
        "seconds": seconds,
        "matches_finished": dict(soak.finished),
        "matches_created": soak.created,
        "moves_accepted": soak.accepted,
        "tournaments_finished": soak.tournaments_finished,
        "rss_kb_start": samples[0][1] if samples else None,
        "rss_kb_end": samples[-1][1] if samples else None,
        "rss_slope_kb_per_min": slope,
        "rss_growth_kb_second_half": growth,
        "rss_growth_limit_kb": limit,
        "workers_rss_kb_start": workers[0][1] if workers else None,
        "workers_rss_kb_end": workers[-1][1] if workers else None,
        "workers_rss_growth_kb_second_half": workers_growth,
        "workers_rss_growth_limit_kb": workers_limit,
        "memos": {name: list(size) for name, size in sizes().items()},
        "errors_logged": errors.records[:10],
        "lost": soak.lost,
        "doubled": soak.doubled,
        "replays_checked": replays["checked"],
        "failed": failed,
    }


def growth_of(samples: list[tuple[float, int]], seconds: float) -> tuple[float, float, float]:
    """The slope (KB a minute) over the second half, the growth it makes over that half, and its limit."""
    slope = slope_per_min([s for s in samples if s[0] >= seconds / 2])
    growth = slope * (seconds / 2) / 60
    limit = max(GROWTH_LIMIT_KB, 0.02 * samples[-1][1]) if samples else GROWTH_LIMIT_KB
    return slope, growth, limit


def descendants(pid: int | None = None) -> list[int]:
    """The process ids of ``pid``'s descendants (this process's by default; Linux, else none)."""
    out: list[int] = []
    todo = [os.getpid() if pid is None else pid]
    while todo:
        parent = todo.pop()
        try:
            kids = [
                int(k)
                for t in os.listdir(f"/proc/{parent}/task")
                for k in _read(f"/proc/{parent}/task/{t}/children").split()
            ]
        except OSError:
            continue
        out += kids
        todo += kids
    return out


def pid_rss_kb(pid: int) -> int:
    """One process's resident KB (0 once it is gone)."""
    try:
        return int(_read(f"/proc/{pid}/statm").split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024
    except (OSError, ValueError, IndexError):
        return 0


def children_rss_kb() -> int:
    """The resident KB of this process's descendants (the computer players' workers), summed (Linux; 0
    elsewhere)."""
    return sum(pid_rss_kb(pid) for pid in descendants())


def _read(path: str) -> str:
    with open(path, encoding="ascii") as f:
        return f.read()


async def check_logs_of_humans(db: Any, accepted: list[tuple[int, int, str]]) -> tuple[int, int]:
    """One match's accepted moves in its stored log once each (as
    :func:`bench.service_load.check_logs`), on the seats the random players moved (a computer's
    moves are not among them): (lost, doubled)."""
    from collections import Counter

    if not accepted:
        return 0, 0
    match_id = accepted[0][0]
    seats = {s for _, s, _ in accepted}
    rows = await db.fetchall("SELECT seat, action FROM actions WHERE match_id = ? AND seat IS NOT NULL", (match_id,))
    stored = Counter(
        (match_id, int(r[0]), json.dumps(json.loads(r[1]), sort_keys=True)) for r in rows if int(r[0]) in seats
    )
    wanted = Counter(accepted)
    return sum((wanted - stored).values()), sum((stored - wanted).values())


def decided(outcome: dict[str, Any]) -> tuple[Any, ...]:
    """What an outcome decides: the ranks and each seat's result (the stored texts have the
    players' names filled in)."""
    return tuple(outcome.get("ranks") or ()), tuple(s.get("result") for s in outcome.get("seats") or ())


async def replay_finished(db: Any) -> dict[str, int]:
    """Every finished match's stored log replays (the rules, as ``python -m bot db copy`` checks a
    copy) to its stored outcome."""
    from bot.matches.ending import match_log
    from rules import Match

    checked = mismatched = 0
    sample = f"AND id % {REPLAY_EVERY} = 0"
    for row in await db.fetchall(f"SELECT id FROM matches WHERE status = 'finished' AND seed IS NOT NULL {sample}"):
        record = await db.matches.get(int(row[0]))
        match = Match.replay(match_log(record, await db.actions.for_match(record.id)))
        checked += 1
        outcome = match.outcome
        if outcome is None or decided(outcome.to_json()) != decided(record.outcome or {}):
            mismatched += 1
    return {"checked": checked, "mismatched": mismatched}


def main(argv: list[str], *, quick: bool, json_path: str | None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench soak")
    parser.add_argument("--seconds", type=float, default=None, help="how long (1200; quick 60)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    seconds = args.seconds if args.seconds is not None else (60.0 if quick else 1200.0)
    with tempfile.TemporaryDirectory(prefix="bench-soak-") as tmp:
        result = asyncio.run(run(Path(tmp), seconds, args.seed))
    rows = [
        [
            "matches finished (two players / against the computer / tournament)",
            "/".join(str(result["matches_finished"][k]) for k in ("pvp", "practice", "tournament")),
        ],
        ["moves accepted", result["moves_accepted"]],
        ["tournaments finished", result["tournaments_finished"]],
        ["resident KB at the start / the end", f"{result['rss_kb_start']} / {result['rss_kb_end']}"],
        ["RSS slope over the second half, KB per minute", result["rss_slope_kb_per_min"]],
        [
            "growth over the second half KB (limit)",
            f"{result['rss_growth_kb_second_half']:.0f} ({result['rss_growth_limit_kb']:.0f})",
        ],
        [
            "worker processes' resident KB at the start / the end (growth over the second half)",
            f"{result['workers_rss_kb_start']} / {result['workers_rss_kb_end']} "
            f"({result['workers_rss_growth_kb_second_half']:.0f})",
        ],
        ["errors logged", len(result["errors_logged"])],
        ["moves lost / doubled", f"{result['lost']} / {result['doubled']}"],
        ["finished matches replayed to their outcome", result["replays_checked"]],
    ]
    print(f"Soak: {seconds:g} s of four games, computer seats and a tournament at once")
    print(table(["figure", "value"], rows))
    for reason in result["failed"]:
        print(f"FAILED: {reason}")
    for line in result["errors_logged"]:
        print(f"error: {line}")
    write_json(json_path, result)
    return 1 if result["failed"] else 0
