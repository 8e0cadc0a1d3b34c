"""Several processes, one database (issue 17, part 4): real OS processes (``tests/mp_worker.py``,
the match service without Discord) on one PostgreSQL server play matches of the four games with
random legal moves. Each move goes to a random process, and about a third of them are submitted
twice at once (to two processes, or twice to one). Some matches have a 2-second turn time and
their seats are left to time out now and then.

Checked against the database: every match ends; every accepted move is in the log exactly once
and the log holds no move that was not accepted (0 lost, 0 applied twice); of each duplicate pair
exactly one is accepted; every time-out is committed and announced once. Then one process is killed
with SIGKILL in the middle of a second batch of matches and the others finish every one of them
(the killed process's claimed deadlines and undelivered notices are taken over once their leases
end).

Scale: the issue's 200 matches (50 per game) plus 12 in the kill phase in the long run
(``pytest -m chaos``, which .ci/run runs after the suite); the suite itself plays 48 (12 per game),
or ``MP_MATCHES`` of them.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bench import procs
from bench.procs import WorkerDied
from tests.conftest import DbTarget
from tests.mp_worker import SHORT_TURN

pytestmark = pytest.mark.postgres

ROOT = Path(__file__).resolve().parents[2]
GAMES: dict[str, tuple[int, dict[str, Any]]] = {  # seats, small options (short games)
    "wizards-cup": (2, {}),
    "firewall": (2, {}),
    "magic-duel": (3, {"points_to_win": 1}),
    "arena": (2, {"grid_size": 8, "terrain_count": 4, "game_turn_limit": 4}),
}
MATCHES = int(os.environ.get("MP_MATCHES", "48"))
FULL_SCALE = 200
KILL_MATCHES = 12
WORKERS = 3
LEASE = 4  # seconds a claim keeps the other processes away (the bot's default is 60)
CONCURRENT = 16  # matches in play at once
DUPLICATE_RATE = 0.35
SILENCE_RATE = 0.25  # in a short-turn match: chance a step is left to time out


class Worker(procs.Worker):
    """One ``tests.mp_worker`` process (:mod:`bench.procs`)."""

    @classmethod
    async def start(cls, name: str, url: str) -> Worker:
        return await cls.spawn(name, "tests.mp_worker", [url, "--lease", str(LEASE)], cwd=ROOT, ready_timeout=60)


@dataclass
class Played:
    """What the test sent one match and what came back."""

    match_id: int
    game: str
    short: bool
    accepted: list[tuple[int, str]] = field(default_factory=list)  # (seat, action JSON) in order
    unknown: list[tuple[int, int, str]] = field(default_factory=list)  # (seat, seat_step, action): killed
    duplicates: int = 0
    duplicates_refused: int = 0  # pairs with one copy accepted and the other refused
    pairs_overtaken: int = 0  # pairs a time-out (short turns) or the kill overtook
    refused_stale: int = 0  # a single submission a time-out overtook (short-turn matches only)
    silences: int = 0


@dataclass
class Tally:
    played: list[Played] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def canonical(action: Any) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


class Driver:
    def __init__(self, workers: list[Worker], seed: int) -> None:
        self.workers = workers
        self.rng = random.Random(seed)

    def alive(self) -> list[Worker]:
        return [w for w in self.workers if w.alive]

    def any(self) -> Worker:
        return self.rng.choice(self.alive())

    async def ask(self, op: str, **args: Any) -> dict[str, Any]:
        """A request any live process may answer (retried elsewhere if that one dies)."""
        for _ in range(5):
            try:
                return await self.any().call(op, **args)
            except WorkerDied:
                continue
        raise RuntimeError(f"no process answered {op}")

    async def create(self, index: int, game: str, short: bool) -> Played:
        seats, options = GAMES[game]
        users = [[100_000 * (index + 1) + s, f"P{index}-{s}"] for s in range(seats)]
        answer = await self.ask("create", game=game, options=options, users=users, guild=1 if short else 2)
        assert answer["ok"], answer
        played = Played(answer["result"], game, short)
        played.users = users  # type: ignore[attr-defined]
        return played

    async def play(self, played: Played, tally: Tally) -> None:
        users = played.users  # type: ignore[attr-defined]
        for _ in range(2000):
            prompts = [
                await self.ask("prompt", match=played.match_id, seat=s, pick=self.rng.randrange(1 << 30))
                for s in range(len(users))
            ]
            failed = [p for p in prompts if not p["ok"]]
            if failed and all(p["error"] == "WrongStatus" for p in failed):
                return  # it ended between the reads (a time-out)
            if failed:
                tally.errors.append(f"match {played.match_id}: prompt failed: {failed[0]}")
                return
            answers = [p["result"] for p in prompts]
            if any(a["status"] != "active" for a in answers):
                return
            awaited = [(s, a) for s, a in enumerate(answers) if a["awaited"] and a["choices"]]
            if not awaited:
                await asyncio.sleep(0.1)
                continue
            if played.short and self.rng.random() < SILENCE_RATE:
                played.silences += 1
                await asyncio.sleep(SHORT_TURN + 1.5)  # the seats time out; the timers act
                continue
            seat, answer = self.rng.choice(awaited)
            action = self.rng.choice(answer["choices"])
            copies = 2 if self.rng.random() < DUPLICATE_RATE else 1
            targets = [self.any() for _ in range(copies)]
            submitted = {"match": played.match_id, "user": users[seat][0], "action": action}
            results = await asyncio.gather(
                *(w.call("submit", seat_step=answer["seat_step"], **submitted) for w in targets),
                return_exceptions=True,
            )
            accepted = [r for r in results if isinstance(r, dict) and r["ok"]]
            refused = [r for r in results if isinstance(r, dict) and not r["ok"]]
            died = [r for r in results if isinstance(r, WorkerDied)]
            others = [r for r in results if isinstance(r, BaseException) and not isinstance(r, WorkerDied)]
            if others:
                tally.errors.append(f"match {played.match_id}: {others[0]!r}")
                return
            if accepted:
                played.accepted.append((seat, canonical(action)))
            elif died:
                played.unknown.append((seat, answer["seat_step"], canonical(action)))
            if copies == 2:
                played.duplicates += 1
                if len(accepted) > 1:
                    tally.errors.append(f"match {played.match_id}: a duplicate was accepted twice")
                elif len(accepted) == 1 and len(refused) == 1:
                    played.duplicates_refused += 1
                elif not died and not played.short:
                    tally.errors.append(f"match {played.match_id}: neither copy of a move was accepted: {refused}")
                else:
                    played.pairs_overtaken += 1  # a time-out (or the kill) overtook both copies
            for r in refused:
                if r["error"] in ("StalePrompt",) and (copies == 2 or played.short):
                    continue  # the duplicate (or a move a time-out overtook)
                if played.short and r["error"] in ("WrongStatus", "IllegalAction", "NotYourTurn", "StalePrompt"):
                    played.refused_stale += 1
                    continue
                if copies == 2 and accepted:
                    continue
                tally.errors.append(f"match {played.match_id}: a move was refused: {r}")
        tally.errors.append(f"match {played.match_id} did not end in 2000 steps")

    async def run(self, specs: Sequence[tuple[int, str, bool]], tally: Tally, started: list[Played]) -> None:
        gate = asyncio.Semaphore(CONCURRENT)

        async def one(index: int, game: str, short: bool) -> None:
            async with gate:
                played = await self.create(index, game, short)
                started.append(played)
                await self.play(played, tally)
                tally.played.append(played)

        await asyncio.gather(*(one(*spec) for spec in specs))


def specs(count: int, offset: int, rng: random.Random) -> list[tuple[int, str, bool]]:
    games = list(GAMES)
    return [(offset + i, games[i % len(games)], rng.random() < 0.3) for i in range(count)]


def check(target: DbTarget, tally: Tally, workers: Sequence[Worker]) -> dict[str, int]:
    """Compare what was accepted with what the database holds; returns the figures."""
    assert tally.errors == []
    ids = [p.match_id for p in tally.played]
    statuses = dict(target.sql("SELECT id, status FROM matches WHERE id = ANY($1)", ids))
    assert {statuses[i] for i in ids} <= {"finished", "abandoned"}, Counter(statuses.values())
    rows = target.sql(
        "SELECT match_id, idx, seat, action, auto FROM actions WHERE match_id = ANY($1) ORDER BY match_id, idx", ids
    )
    logs: dict[int, list[tuple[int | None, str, int]]] = {i: [] for i in ids}
    for match_id, _, seat, action, auto in rows:
        logs[match_id].append((seat, canonical(json.loads(action)), auto))
    in_flight = sum(len(p.unknown) for p in tally.played)
    lost = twice = unknown_landed = 0
    for p in tally.played:
        own = [(seat, action) for seat, action, auto in logs[p.match_id] if seat is not None and not auto]
        # the log's own moves are the accepted ones in order, with the unknown ones (a killed
        # process's) either in it once or not at all
        pending = list(p.accepted)
        for entry in own:
            if pending and entry == pending[0]:
                pending.pop(0)
                continue
            match = next((u for u in p.unknown if (u[0], u[2]) == entry), None)
            if match is not None:
                p.unknown.remove(match)
                unknown_landed += 1
                continue
            twice += 1
        lost += len(pending)
    assert lost == 0, f"{lost} accepted move(s) are not in the log"
    assert twice == 0, f"{twice} move(s) in the log were not accepted, or are there twice"
    # time-outs: each committed once (an auto log entry, or an abandonment) and announced once
    autos = sum(1 for i in ids for _, _, auto in logs[i] if auto)
    abandoned = sum(1 for i in ids if statuses[i] == "abandoned")
    events = [e for w in workers for e in w.events if e.get("event") == "timeout" and e["match"] in set(ids)]
    keys = Counter((e["match"], e["version"], e["seat"]) for e in events)
    assert [k for k, n in keys.items() if n > 1] == [], "a time-out was announced twice"
    return {
        "matches": len(ids),
        "finished": sum(1 for i in ids if statuses[i] == "finished"),
        "abandoned": abandoned,
        "moves_accepted": sum(len(p.accepted) for p in tally.played),
        "log_entries": len(rows),
        "duplicates_sent": sum(p.duplicates for p in tally.played),
        "duplicates_refused": sum(p.duplicates_refused for p in tally.played),
        "duplicate_pairs_overtaken": sum(p.pairs_overtaken for p in tally.played),
        "refused_after_timeout": sum(p.refused_stale for p in tally.played),
        "timeouts_committed": autos + abandoned,
        "timeouts_announced": len(events),
        "in_flight_when_killed": in_flight,
        "of_those_committed": unknown_landed,
    }


@pytest.mark.slow
@pytest.mark.parametrize("matches", [MATCHES, pytest.param(FULL_SCALE, marks=pytest.mark.chaos)])
async def test_processes_share_one_database_without_losing_or_doubling_a_move(
    pg_target: DbTarget, capsys: pytest.CaptureFixture[str], matches: int
) -> None:
    started_at = time.monotonic()
    workers = list(await asyncio.gather(*(Worker.start(f"w{i}", pg_target.url) for i in range(WORKERS))))
    rng = random.Random(17)
    try:
        # -- phase 1: every process alive -----------------------------------------------------
        driver = Driver(workers, 1)
        tally = Tally()
        await driver.run(specs(matches, 0, rng), tally, [])
        await asyncio.sleep(1.0)  # the last time-outs' notices are delivered
        figures = check(pg_target, tally, workers)
        assert figures["matches"] == matches
        assert figures["duplicates_sent"] > 0
        assert figures["duplicates_refused"] + figures["duplicate_pairs_overtaken"] == figures["duplicates_sent"]
        # every time-out committed was announced, once (all processes were alive to deliver)
        assert figures["timeouts_announced"] == figures["timeouts_committed"] > 0
        phase1 = time.monotonic() - started_at

        # -- phase 2: one process killed with SIGKILL mid-run ---------------------------------
        driver = Driver(workers, 2)
        tally2 = Tally()
        started: list[Played] = []
        run = asyncio.create_task(driver.run(specs(KILL_MATCHES, 10_000, rng), tally2, started))
        deadline = time.monotonic() + 60
        while sum(len(p.accepted) for p in started) < 3 * KILL_MATCHES and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        victim = workers[0]
        while "submit" not in victim.in_flight.values() and time.monotonic() < deadline:
            await asyncio.sleep(0.001)  # kill it in the middle of a move
        at_kill = sorted(victim.in_flight.values())
        victim.kill()
        killed_after = sum(len(p.accepted) for p in started)
        await asyncio.wait_for(run, 600)
        await victim.stop()
        # the dead process's undelivered notices: a surviving process's own timer loop claims
        # them once their lease ended and delivers them once (nobody asks it to)
        waited = time.monotonic()
        while pg_target.sql("SELECT COUNT(*) FROM outbox")[0][0] and time.monotonic() - waited < LEASE + 30:
            await asyncio.sleep(0.1)
        delivered_in = time.monotonic() - waited
        await asyncio.sleep(1.5)  # the last time-outs' notices are delivered
        figures2 = check(pg_target, tally2, workers)
        assert figures2["matches"] == KILL_MATCHES
        left = pg_target.sql("SELECT COUNT(*) FROM outbox")[0][0]
        assert left == 0, f"{left} notice(s) left undelivered"
        with capsys.disabled():
            print(
                f"\nmulti-process: {WORKERS} processes; phase 1 ({phase1:.0f} s): {figures}"
                f"\nkill phase: SIGKILL after {killed_after} accepted moves, requests in flight to it: {at_kill};"
                f" {figures2};"
                f" the dead process's notices delivered {delivered_in:.1f} s after its last match ended;"
                f" total {time.monotonic() - started_at:.0f} s"
            )
    finally:
        for w in workers:
            if w.proc.returncode is None:
                try:
                    await w.stop()
                except BaseException:
                    w.proc.kill()
                    raise
