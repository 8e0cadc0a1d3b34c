"""Golden data for the match service: seeded matches of every game played through the public
``MatchService`` API (challenge, accept, prompts, submits, time-outs by ``tick``), recorded as what
the database holds afterwards (every action row, the match and seat rows) and the order of the
notifications (kind, seat, public event kinds). Time-outs are ``tick()`` on a fake clock here, to
record them exactly; tests/bot/test_service_golden.py's last test shows the running client's own timer
loop (``build_bot``, timers on, the real clock) storing and announcing a time-out as recorded here.

Recorded before the service was rebuilt (issue 13) and asserted after it by
``tests/bot/test_service_golden.py``: the rebuild changes how a move is stored and announced, not what.

    python -m tests.golden.service   # re-record tests/golden/service.json.gz (only on purpose)
"""

from __future__ import annotations

import asyncio
import gzip
import json
import random
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

from db import Database
from rules.registry import get_game
from tests.fakes import Clock
from tests.running_timer import timer_pass

PATH = Path(__file__).with_name("service.json.gz")
T0 = 1_700_000_000
GAMES = ("wizards-cup", "firewall", "magic-duel", "arena")
SEEDS = range(3)
MAX_MOVES = 400


def notice_row(kind: str, args: dict[str, Any]) -> list[Any]:
    """What a notification said, independent of how the notifier is called: its kind, the seat it
    is about, and the kinds of the public events it carries."""
    events = args.get("events") or ()
    public = [e.kind for e in events if e.visible_to is None]
    return [kind, args.get("seat"), public]


def make_recorder(inner: Any = None) -> Any:
    """A notifier that records ``notice_row``s, whatever the Notifier protocol's signatures; with
    ``inner``, each call is then handed on to that notifier (its answer returned), so a running
    bot's own notifier can be watched."""

    class Recorder:
        def __init__(self) -> None:
            self.rows: list[list[Any]] = []

        def __getattr__(self, name: str) -> Any:
            if not name.startswith("on_"):
                if inner is not None:
                    return getattr(inner, name)
                raise AttributeError(name)

            async def record(record: Any, *args: Any) -> Any:
                kind = name[3:]
                info: dict[str, Any] = {}
                for arg in args:
                    if isinstance(arg, int) and not isinstance(arg, bool) and "seat" not in info:
                        info["seat"] = arg
                    elif hasattr(arg, "seat") and hasattr(arg, "seat_step"):  # a SeatPrompt
                        info["seat"] = arg.seat
                    elif isinstance(arg, (list, tuple)) and (not arg or hasattr(arg[0], "kind")):
                        info["events"] = arg
                self.rows.append(notice_row(kind, info))
                return await getattr(inner, name)(record, *args) if inner is not None else None

            return record

    return Recorder()


async def play(game: str, seed: int, folder: Path) -> dict[str, Any]:
    from bot.matches import MatchService

    clock = Clock(T0)
    path = folder / f"{game}-{seed}.sqlite3"
    db = await Database.open(path, clock=clock)
    notes = make_recorder()
    service = MatchService(
        db,
        notifier=notes,
        clock=clock,
        challenge_timeout_seconds=900,
        move_timeout_seconds=3600,
        reminder_before_seconds=300,
        seed_factory=lambda: 1000 + seed,
    )
    rng = random.Random(f"{game}:{seed}")
    cls = get_game(game)
    seats = cls.min_seats + seed % (cls.max_seats - cls.min_seats + 1)
    players = [(100 + i, f"P{i + 1}") for i in range(seats)]
    try:
        record = await service.create_challenge(game, None, 10, 20, players[0], players[1:])
        for uid, _ in players[1:]:
            clock.now += 5
            await service.accept(record.id, uid)
        for _ in range(MAX_MOVES):
            record = await service.get(record.id)
            if record.status != "active":
                break
            clock.now += 30
            if rng.random() < 0.04:  # somebody sleeps through a deadline: the referee acts
                clock.now += 3000
                await timer_pass(service)
                clock.now += 700
                await timer_pass(service)
                continue
            awaited = []
            for s in range(seats):
                prompt = await service.prompt(record.id, s)
                if prompt.awaited and prompt.decision is not None and len(prompt.decision.choices):
                    awaited.append(prompt)
            if not awaited:
                break
            prompt = rng.choice(awaited)
            assert prompt.decision is not None
            choices = prompt.decision.choices
            action = choices[rng.randrange(len(choices))]
            await service.submit(record.id, players[prompt.seat][0], action, seat_step=prompt.seat_step)
        match_id = record.id
    finally:
        await db.close()
    conn = sqlite3.connect(path)
    try:
        actions = conn.execute(
            "SELECT idx, seat, action, auto, created_at FROM actions WHERE match_id = ? ORDER BY idx", (match_id,)
        ).fetchall()
        match = conn.execute(
            "SELECT status, seed, started_at, finished_at, outcome, summary FROM matches WHERE id = ?", (match_id,)
        ).fetchone()
        seat_rows = conn.execute(
            "SELECT seat, user_id, accepted, deadline_at, awaited_since, reminded FROM seats"
            " WHERE match_id = ? ORDER BY seat",
            (match_id,),
        ).fetchall()
    finally:
        conn.close()
    return {
        "game": game,
        "seed": seed,
        "actions": [list(r) for r in actions],
        "match": list(match),
        "seats": [list(r) for r in seat_rows],
        "notices": notes.rows,
    }


async def record_all() -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as tmp:
        return [await play(game, seed, Path(tmp)) for game in GAMES for seed in SEEDS]


def load() -> list[dict[str, Any]]:
    with gzip.open(PATH, "rt", encoding="utf-8") as f:
        data: list[dict[str, Any]] = json.load(f)
    return data


def main() -> None:
    data = record_all()
    games = asyncio.run(data)
    with gzip.open(PATH, "wt", encoding="utf-8") as f:
        json.dump(games, f, separators=(",", ":"))
    print(f"recorded {len(games)} service games into {PATH}")


if __name__ == "__main__":
    main()
