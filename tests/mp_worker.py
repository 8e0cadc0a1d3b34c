"""One match-service process for the multi-process test (tests/bot/test_multiprocess.py): the bot's
:class:`~bot.matches.MatchService` without Discord, on the database at ``URL``, taking commands as
JSON lines on stdin and answering on stdout.

    python -m tests.mp_worker URL [--lease SECONDS] [--tick SECONDS]

Each command line is ``{"id": n, "op": ..., ...}`` and runs as its own task (so several requests,
duplicates included, are in flight in one process at once); its answer is ``{"id": n, "ok": true,
"result": ...}`` or ``{"id": n, "ok": false, "error": "<exception class>", "message": ...}``. The
timer loop runs in the background like the bot's (``--tick`` seconds), and the notifier prints an
``{"event": "timeout", ...}`` line for each time-out it is told of (the test counts them). Commands:

- ``create``: game, options, users ``[[id, name], ...]``, guild: a challenge accepted by everyone
  (started); returns the match id;
- ``prompt``: match, seat, pick: ``{"status", "awaited", "seat_step", "choices"}``: the legal
  choice number ``pick`` (modulo their count) as JSON, or none;
- ``submit``: match, user, action, seat_step: the move's new log length;
- ``status``: match: the match's status;
- ``challenge``: game, options, users, guild, open (an open table): a pending challenge nobody has
  accepted yet; returns the match id;
- ``accept``, ``leave``, ``start_now``: match, user; ``join``: match, user, name: the lobby
  operation, as the button calls it, ``{"started": bool}``: whether this operation started the
  match (a leave can: the last player not accepted left; the record a leave returns is read again
  after its write and may show another process's start, so ``Lobby.leave_result``). With ``at`` (a
  ``time.time()`` instant) the operation waits until then, so operations sent to several processes
  fire at the same moment (tests/bot/test_lobby_race.py);
- ``lobby``: match: ``{"status", "seats": [[user, accepted], ...], "version"}`` as committed.

The notifier also prints ``{"event": "started", "match": id}`` each time it is told a match
started (exactly once per match).

Turn times are per guild (a stand-in for the servers' /settings): guild 1 has ``SHORT_TURN``
seconds, any other guild an hour.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bench.procs import emit, serve_lines
from bot.matches import MatchService, MatchStatus, TimeoutResult
from bot.matches.notify import NullNotifier
from db import Database, MatchRecord

SHORT_TURN = 2
"""Seconds a seat has per move in guild 1 (the matches whose seats are let time out)."""


@dataclass
class _Chosen:
    turn_time_is_default: bool
    turn_time_seconds: int
    reminders: bool = False


class TurnTimes:
    """What the match service asks of the servers' settings: the turn time per guild."""

    async def get(self, guild_id: int) -> _Chosen:
        return _Chosen(False, SHORT_TURN if guild_id == 1 else 3600)


class Reporter(NullNotifier):
    """Reports each time-out (the record is the match as committed by the time-out)."""

    async def on_timeout(self, record: MatchRecord, seat: int, result: TimeoutResult) -> None:
        emit({"event": "timeout", "match": record.id, "seat": seat, "result": result.value, "version": record.version})

    async def on_started(self, record: MatchRecord, events: Sequence[Any], view: Mapping[str, Any]) -> None:
        emit({"event": "started", "match": record.id, "seats": [s.user_id for s in record.seats]})


async def _at(command: Mapping[str, Any]) -> None:
    """Wait until the command's ``at`` instant (if any): requests sent to several processes fire
    together."""
    at = command.get("at")
    if at is not None:
        await asyncio.sleep(max(0.0, float(at) - time.time()))


async def handle(service: MatchService, command: Mapping[str, Any]) -> Any:
    op = command["op"]
    if op == "create":
        users = [(int(u), str(n)) for u, n in command["users"]]
        record = await service.create_challenge(
            command["game"], command.get("options"), int(command["guild"]), 1, users[0], users[1:]
        )
        for user, _ in users[1:]:
            result = await service.accept(record.id, user)
        if not result.started:
            raise RuntimeError(f"match {record.id} did not start")
        return record.id
    if op == "prompt":
        record = await service.get(int(command["match"]))
        if record.status is not MatchStatus.ACTIVE:
            return {"status": record.status.value, "awaited": False, "seat_step": None, "choices": []}
        prompt = await service.prompt(int(command["match"]), int(command["seat"]))
        choices: Sequence[Any] = prompt.decision.choices if prompt.decision is not None and prompt.awaited else ()
        pick = int(command.get("pick", 0))  # the test's random number: one legal choice is sent back
        return {
            "status": "active",
            "awaited": prompt.awaited,
            "seat_step": prompt.seat_step,
            "choices": [choices[pick % len(choices)].to_json()] if choices else [],
        }
    if op == "submit":
        moved = await service.submit(
            int(command["match"]), int(command["user"]), command["action"], seat_step=int(command["seat_step"])
        )
        return {"finished": moved.finished, "version": moved.record.version}
    if op == "status":
        return (await service.get(int(command["match"]))).status.value
    if op == "challenge":
        users = [(int(u), str(n)) for u, n in command["users"]]
        record = await service.create_challenge(
            command["game"],
            command.get("options"),
            int(command["guild"]),
            1,
            users[0],
            users[1:],
            open_table=bool(command.get("open", False)),
        )
        return record.id
    if op in ("accept", "join", "leave", "start_now"):
        match_id, user = int(command["match"]), int(command["user"])
        await _at(command)
        if op == "accept":
            return {"started": (await service.accept(match_id, user)).started}
        if op == "join":
            return {"started": (await service.join(match_id, user, str(command["name"]))).started}
        if op == "start_now":
            return {"started": (await service.start_now(match_id, user)).started}
        return {"started": (await service.lobby.leave_result(match_id, user)).started}
    if op == "lobby":
        record = await service.get(int(command["match"]))
        return {
            "status": record.status.value,
            "seats": [[s.user_id, s.accepted] for s in record.seats],
            "version": record.version,
        }
    raise ValueError(f"unknown op {op!r}")


async def serve(url: str, lease: int, tick: float) -> None:
    db = await Database.open(url)
    service = MatchService(
        db,
        notifier=Reporter(),
        challenge_timeout_seconds=3600,
        move_timeout_seconds=3600,
        reminder_before_seconds=1,
        servers=TurnTimes(),  # type: ignore[arg-type]  # the part of ServersService the service uses
    )
    service.store.set_lease(lease)
    stop = asyncio.Event()
    timers = asyncio.create_task(service.run_timers(tick, stop=stop))
    await serve_lines(lambda command: handle(service, command))
    stop.set()
    timers.cancel()
    await service.close()
    await db.close()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.mp_worker")
    parser.add_argument("url")
    parser.add_argument("--lease", type=int, default=5)
    parser.add_argument("--tick", type=float, default=0.5)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    asyncio.run(serve(args.url, args.lease, args.tick))


if __name__ == "__main__":
    main()
