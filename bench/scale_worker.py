"""One match-service process of ``python -m bench scale``: the bot's
:class:`~bot.matches.MatchService` without Discord (a no-op notifier) on the database at ``URL``,
its timer loop running as in the bot, taking commands as JSON lines on stdin and answering each on
stdout (every command runs as its own task, so one process has many moves in flight at once).

    python -m bench.scale_worker URL [--bare-url URL] [--seed S] [--tick SECONDS]

Commands (``{"id": n, "op": ..., ...}``; answers ``{"id": n, "ok": true, "result": ...}`` or
``{"id": n, "ok": false, "error": "<exception class>", "message": ...}``):

- ``create``: users ``[[id, name], [id, name]]``: a Wizards Cup challenge, accepted: the match id;
- ``move``: match, users, seat, bare: one random move of ``seat``: its ``prompt``, and if it is
  awaited a random legal action for it, then ``submit`` (timed, in µs); with ``bare``, a bare
  commit afterwards (timed too: :class:`BareCommit`). Returns ``{"idle", "accepted", "seat",
  "action", "submit_us", "finished", "refused", "message", "bare_us"}``: ``idle`` when the seat is
  not awaited (nothing submitted); a refused move is ``accepted: false`` with the refusal's class
  in ``refused`` (not an error of the command; so is a refused ``prompt``). Without ``seat``: the
  seats in random order until one is awaited.

The bare commit is a one-row ``INSERT`` and its ``COMMIT`` through the Database API
(``Database.write``) on a second connection of this process, to ``--bare-url`` (default: the same
database), into the table ``bench_bare`` (made by the parent before the processes start).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from bot.matches import MatchError, MatchService
from db import Database
from db.database import Batch

from .procs import serve_lines
from .scale import BARE_INSERT

GAME = "wizards-cup"
GUILD, CHANNEL = 10, 20
BARE_PAYLOAD = json.dumps({"type": "plan", "order": ["archmage", "shaman", "cleric", "fire-wizard", "matron"]})


class BareCommit:
    """The reference operation: one-row INSERT + COMMIT through ``Database.write``."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._n = 0

    async def __call__(self) -> float:
        """Commit one row; the µs it took."""
        self._n += 1
        batch = Batch().add(BARE_INSERT, (self._n, BARE_PAYLOAD, self.db.now()))
        start = time.perf_counter_ns()
        await self.db.write(batch)
        return (time.perf_counter_ns() - start) / 1000


async def create(service: MatchService, users: Sequence[tuple[int, str]]) -> int:
    record = await service.create_challenge(GAME, None, GUILD, CHANNEL, users[0], list(users[1:]))
    for user, _ in users[1:]:
        result = await service.accept(record.id, user)
    if not result.started:
        raise RuntimeError(f"match {record.id} did not start")
    return record.id


async def move(
    service: MatchService,
    bare: BareCommit,
    rng: random.Random,
    match_id: int,
    users: Sequence[int],
    seat: int | None,
    with_bare: bool,
) -> dict[str, Any]:
    """One random move of ``seat`` (None: of a random awaited seat); ``idle`` when that seat is not
    awaited (nothing submitted)."""
    seats = list(range(len(users))) if seat is None else [seat]
    rng.shuffle(seats)
    for seat in seats:
        try:
            prompt = await service.prompt(match_id, seat)
        except MatchError as exc:  # e.g. the other seat's move (in another process) just ended the match
            return {"idle": False, "accepted": False, "seat": seat, "refused": type(exc).__name__, "message": str(exc)}
        if prompt.awaited and prompt.decision is not None and len(prompt.decision.choices) > 0:
            break
    else:
        if len(seats) == 1:
            return {"idle": True, "accepted": False, "seat": seats[0], "refused": None}
        raise RuntimeError(f"match {match_id} awaits no seat")
    choices = prompt.decision.choices
    action = choices[rng.randrange(len(choices))]
    refused: str | None = None
    message = ""
    finished = False
    start = time.perf_counter_ns()
    try:
        moved = await service.submit(match_id, users[seat], action, seat_step=prompt.seat_step)
    except MatchError as exc:  # refused: the parent decides whether it was a legitimate race
        refused, message = type(exc).__name__, str(exc)
    else:
        finished = moved.finished
    submit_us = (time.perf_counter_ns() - start) / 1000
    return {
        "idle": False,
        "accepted": refused is None,
        "seat": seat,
        "action": action.to_json(),
        "submit_us": round(submit_us, 1),
        "finished": finished,
        "refused": refused,
        "message": message,
        "bare_us": round(await bare(), 1) if with_bare else None,
    }


async def serve(url: str, bare_url: str, seed: int, tick: float) -> None:
    db = await Database.open(url)
    bare_db = await Database.open(bare_url)
    service = MatchService(db, challenge_timeout_seconds=3600, move_timeout_seconds=3600)
    bare = BareCommit(bare_db)
    rng = random.Random(seed)
    stop = asyncio.Event()
    timers = asyncio.create_task(service.run_timers(tick, stop=stop))

    async def handle(command: dict[str, Any]) -> Any:
        op = command["op"]
        if op == "create":
            return await create(service, [(int(u), str(n)) for u, n in command["users"]])
        if op == "move":
            users = [int(u) for u, _ in command["users"]]
            seat = command.get("seat")
            return await move(
                service,
                bare,
                rng,
                int(command["match"]),
                users,
                None if seat is None else int(seat),
                bool(command.get("bare")),
            )
        raise ValueError(f"unknown op {op!r}")

    await serve_lines(handle)
    stop.set()
    timers.cancel()
    await asyncio.gather(timers, return_exceptions=True)
    await service.close()
    await db.close()
    await bare_db.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.scale_worker")
    parser.add_argument("url")
    parser.add_argument("--bare-url", default=None, help="the bare commit's database (default: URL)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tick", type=float, default=5.0, help="the timer loop's interval (the bot's default)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    asyncio.run(serve(args.url, args.bare_url or args.url, args.seed, args.tick))
    return 0


if __name__ == "__main__":
    sys.exit(main())
