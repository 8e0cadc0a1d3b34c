"""Lobbies decided in the database (issue 30, part 4): real OS processes (``tests/mp_worker.py``,
the match service without Discord) on one PostgreSQL server fire lobby operations on one challenge
at the same instant, each from another process: two, three and four opponents accepting, two,
three and four players joining an open table (also one more than it has seats), an accept racing a
decline, and the host's "start now" racing the last accept. Each is repeated ``TRIALS`` times.

Every time, exactly one operation starts the match (one ``started`` answer, one "started" notice
across the processes), the match is active with the right players in contiguous seats, all
accepted, and no operation fails with anything but a clear refusal. Before the fix, two accepts in
two processes each saw the other seat unaccepted, both wrote their acceptance, and the challenge
stayed pending forever (issue 30: 9 of 9 trials).

Such rows may exist in a database an older version ran: every seat accepted, still pending. The
timer tick starts them once they are ``READY_GRACE`` seconds old (a practice match is started by
its creator right after its message is posted, so a young one is left alone), and so does the
next acceptance click (instead of "you have already accepted"). Those tests run on both backends.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from bench import procs
from bot.matches import MatchService
from bot.matches.lobby import READY_GRACE
from db import Database, MatchStatus
from tests.conftest import DbTarget
from tests.fakes import Clock, RecordingNotifier

pytestmark = pytest.mark.usefixtures("toy_game")  # the toy game (tests/toy_game.py) is registered

ROOT = Path(__file__).resolve().parents[2]
WORKERS = 4
TRIALS = int(os.environ.get("LOBBY_RACE_TRIALS", "10"))
GAME, OPTIONS, MAX_SEATS = "magic-duel", {"points_to_win": 1}, 8
LEAD = 0.15  # seconds between sending a race's operations and the instant they all fire
REFUSALS = {"InvalidChallenge", "WrongStatus", "NotAPlayer"}
"""What an operation that lost its race may answer (a player reads it): never Conflict ("try
again"), NotSaved or an unexpected error."""

_users = itertools.count(1_000)


class Worker(procs.Worker):
    @classmethod
    async def start(cls, name: str, url: str) -> Worker:
        # a long tick: the timer loop must not be what starts a match here
        return await cls.spawn(name, "tests.mp_worker", [url, "--tick", "30"], cwd=ROOT, ready_timeout=60)


class Race:
    def __init__(self, workers: Sequence[Worker]) -> None:
        self.workers = workers
        self.failures: list[str] = []
        self.trials = 0

    async def call(self, op: str, worker: int = 0, **args: Any) -> Any:
        answer = await self.workers[worker % len(self.workers)].call(op, **args)
        assert answer["ok"], (op, args, answer)
        return answer["result"]

    async def challenge(self, seats: int, *, open_table: bool = False) -> tuple[int, list[int]]:
        users = [next(_users) for _ in range(seats)]
        match_id = await self.call(
            "challenge", game=GAME, options=OPTIONS, users=[[u, f"U{u}"] for u in users], guild=2, open=open_table
        )
        return int(match_id), users

    async def fire(self, match_id: int, ops: Sequence[tuple[str, int]]) -> list[dict[str, Any]]:
        """Each (op, user) from another process, all at the same instant."""
        at = time.time() + LEAD
        return list(
            await asyncio.gather(
                *(
                    self.workers[i % len(self.workers)].call(op, match=match_id, user=user, name=f"U{user}", at=at)
                    for i, (op, user) in enumerate(ops)
                )
            )
        )

    async def check(
        self,
        label: str,
        match_id: int,
        answers: Sequence[dict[str, Any]],
        seatings: Sequence[Sequence[int]],
        joined: Sequence[int] = (),
    ) -> None:
        """Exactly one answer started the match; it is active, seated as one of ``seatings`` (users
        in seat order) followed by ``joined`` (in the order they got in), everyone accepted; one
        "started" notice; the others were refused clearly."""
        self.trials += 1
        where = f"{label}, match {match_id}"
        started = [a for a in answers if a["ok"] and a["result"]["started"]]
        odd = [a for a in answers if not a["ok"] and a["error"] not in REFUSALS]
        lobby = await self.call("lobby", match=match_id)
        seats = [user for user, _ in lobby["seats"]]
        if len(started) != 1:
            self.failures.append(f"{where}: {len(started)} operations started it; {lobby}; {answers}")
        if odd:
            self.failures.append(f"{where}: unexpected answers {odd}")
        if lobby["status"] != "active":
            self.failures.append(f"{where}: {lobby['status']} after the race: {lobby}; {answers}")
            return
        if not all(accepted for _, accepted in lobby["seats"]):
            self.failures.append(f"{where}: started with a seat not accepted: {lobby}")
        fixed, tail = seats[: len(seats) - len(joined)], seats[len(seats) - len(joined) :]
        if not any(list(s) == fixed for s in seatings) or sorted(tail) != sorted(joined):
            self.failures.append(f"{where}: seats {seats}, expected one of {seatings}")
        for _ in range(40):  # the "started" notice goes out right after the commit
            events = [e for w in self.workers for e in w.events]
            notices = [e for e in events if e.get("event") == "started" and e["match"] == match_id]
            if notices:
                break
            await asyncio.sleep(0.05)
        if len(notices) != 1 or notices[0]["seats"] != seats:
            self.failures.append(f"{where}: 'started' notices {notices}, seats {seats}")

    # -- the scenarios ---------------------------------------------------------------------
    async def accepts(self, k: int) -> None:
        """k invited opponents accept at once: the last acceptance starts it."""
        match_id, users = await self.challenge(k + 1)
        answers = await self.fire(match_id, [("accept", u) for u in users[1:]])
        await self.check(f"{k} accepts", match_id, answers, [users])

    async def joins(self, k: int, extra: int = 0) -> None:
        """k + extra players join an open table with k free seats at once: the one that fills it
        starts it (the extra ones are refused: full, or started)."""
        match_id, users = await self.challenge(MAX_SEATS - k, open_table=True)
        for i, user in enumerate(users[1:]):  # the invited ones accept first, one at a time
            await self.call("accept", i, match=match_id, user=user)
        joiners = [next(_users) for _ in range(k + extra)]
        answers = await self.fire(match_id, [("join", u) for u in joiners])
        joined = [u for u, a in zip(joiners, answers, strict=True) if a["ok"]]
        await self.check(f"{k}+{extra} joins", match_id, answers, [users], joined)
        if len(joined) != k:
            self.failures.append(f"{k}+{extra} joins, match {match_id}: {len(joined)} joins succeeded: {answers}")

    async def accept_and_decline(self) -> None:
        """Of three opponents, one has accepted; the second accepts as the third declines: it
        starts with the first three seats, whoever came last."""
        match_id, users = await self.challenge(4)
        await self.call("accept", match=match_id, user=users[1])
        answers = await self.fire(match_id, [("accept", users[2]), ("leave", users[3])])
        await self.check("accept + decline", match_id, answers, [users[:3]])

    async def start_now_and_accept(self) -> None:
        """The host starts with those ready as the last opponent accepts: one start, with or
        without the last one."""
        match_id, users = await self.challenge(3)
        await self.call("accept", match=match_id, user=users[1])
        answers = await self.fire(match_id, [("start_now", users[0]), ("accept", users[2])])
        await self.check("start now + accept", match_id, answers, [users, users[:2]])


@pytest.mark.slow
@pytest.mark.postgres
async def test_simultaneous_lobby_operations_in_several_processes_start_one_match(
    pg_target: DbTarget, capsys: pytest.CaptureFixture[str]
) -> None:
    began = time.monotonic()
    workers = list(await asyncio.gather(*(Worker.start(f"w{i}", pg_target.url) for i in range(WORKERS))))
    race = Race(workers)
    timings: dict[str, float] = {}
    try:
        scenarios = [
            *((f"{k} accepts", lambda k=k: race.accepts(k)) for k in (2, 3, 4)),
            *((f"{k} joins", lambda k=k: race.joins(k)) for k in (2, 3, 4)),
            ("3 joins for 2 seats", lambda: race.joins(2, extra=1)),
            ("accept + decline", race.accept_and_decline),
            ("start now + accept", race.start_now_and_accept),
        ]
        for label, scenario in scenarios:
            t0 = time.monotonic()
            for _ in range(TRIALS):
                await scenario()
            timings[label] = round(time.monotonic() - t0, 1)
        with capsys.disabled():
            print(
                f"\nlobby races: {race.trials} trials on {WORKERS} processes in {time.monotonic() - began:.1f} s;"
                f" per scenario ({TRIALS} trials each, s): {timings}; failed: {len(race.failures)}"
            )
        by_scenario = Counter(f.split(", match")[0] for f in race.failures)
        summary = f"\n({len(race.failures)} failures: {dict(by_scenario)})"
        assert race.failures == [], "\n".join(race.failures[:12]) + summary
    finally:
        for w in workers:
            try:
                await w.stop()
            except BaseException:
                w.proc.kill()
                raise


# -- challenges an older version left accepted but not started ---------------------------------

T0 = 1_700_000_000
ANN, BOB, CY = (1, "Ann"), (2, "Bob"), (3, "Cy")


async def stuck(target: DbTarget) -> tuple[Database, MatchService, RecordingNotifier, Clock, int]:
    """A three-seat challenge as the race of an older version left it: every seat accepted, pending."""
    clock = Clock(T0)
    db = await target.open(clock=clock)
    notes = RecordingNotifier()
    service = MatchService(db, notifier=notes, clock=clock, seed_factory=lambda: 7)
    record = await service.create_challenge("toy-guess", None, 10, 20, ANN, [BOB, CY])
    await db.execute("UPDATE seats SET accepted = 1 WHERE match_id = ?", (record.id,))
    return db, service, notes, clock, record.id


async def test_the_timer_tick_starts_a_challenge_left_accepted_but_not_started(target: DbTarget) -> None:
    db, service, notes, clock, match_id = await stuck(target)
    try:
        open_table = await service.create_challenge("toy-guess", None, 10, 20, (4, "Dee"), [], open_table=True)
        clock.advance(READY_GRACE - 1)
        await service.tick()  # young: its creator may be about to start it (a practice match)
        assert (await service.get(match_id)).status is MatchStatus.PENDING
        assert notes.kinds(match_id) == []
        clock.advance(1)
        await service.tick()
        record = await service.get(match_id)
        assert record.status is MatchStatus.ACTIVE and record.started_at == T0 + READY_GRACE
        assert [(s.user_id, s.accepted) for s in record.seats] == [(1, True), (2, True), (3, True)]
        assert notes.kinds(match_id) == ["started", "prompt", "prompt", "prompt"]
        # once: the next tick finds nothing to start; the open table waiting for players is left alone
        clock.advance(5)
        await service.tick()
        assert notes.kinds(match_id) == ["started", "prompt", "prompt", "prompt"]
        assert (await service.get(open_table.id)).status is MatchStatus.PENDING
    finally:
        await db.close()


async def test_an_acceptance_click_starts_a_challenge_left_accepted_but_not_started(target: DbTarget) -> None:
    db, service, notes, _, match_id = await stuck(target)
    try:
        await service.check_lobby_op(match_id, BOB[0], "accept")  # the button does not refuse it
        result = await service.accept(match_id, BOB[0])
        assert result.started and result.record.status is MatchStatus.ACTIVE
        assert [(s.user_id, s.accepted) for s in result.record.seats] == [(1, True), (2, True), (3, True)]
        assert notes.kinds(match_id) == ["started", "prompt", "prompt", "prompt"]
    finally:
        await db.close()
