"""The memory part of ``python -m bench service`` (issue 33, part 4): resident memory per live match,
for each game, and whether it grows as the matches go on.

One worker process per game (``bench.service_worker memory``), on a fresh SQLite file, through the
match service's public API: ``recover()`` (which warms every game), one match created and moved
first (so one-time costs are paid), then the resident set size is read (after ``gc.collect()``);
``live`` matches of the game are created (two seats each) and every one of them is moved, a random
legal move of an awaited seat at a time, until it has had ``stages[0]`` moves, then ``stages[1]``
and so on. A match that ends is replaced by a new one, brought to the same stage (random games of
Wizards Cup often end within a dozen moves), so ``live`` matches are live at each reading, as on a
busy server where matches end and start all the time. After each stage the resident set is read
again: ``kb_per_live_match`` = (RSS now - RSS before the matches) / the matches live. A game whose
matches stay the same size as they go on shows the same figure at every stage.

``growth_kb_per_move`` is the change per move between the last two stages (moves 12 to 20; Wizards
Cup, whose random games end within about 15 moves, 6 to 12), when every game is in play: its first
moves set the table up (Arena's models are placed, Firewall's first hands dealt, Wizards Cup's decks
drafted), and a match with its pieces on the board is larger than one being set up, once
(``setup_growth_kb_per_move``: the first two stages, for comparison). A game state that kept
something per move (a history, a log) would show in both.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .service_load import timed_move
from .service_worker import Seeds, open_service, rss_kb

STAGES = (4, 12, 20)
"""Moves per match after which memory is read (the default)."""
GAME_STAGES = {"wizards-cup": (2, 6, 12)}
"""Games whose matches are shorter: their stages."""
MAX_REPLACED = 20
"""A game whose random matches end sooner than a stage: at most this many new matches per live
one are started in the place of those that ended (the live count then falls)."""


async def measure_memory(
    path: str | Path, game: str, live: int, seed: int, stages: Sequence[int] | None = None
) -> dict[str, Any]:
    """Resident memory per live match of ``game`` (module docstring)."""
    stages = stages or GAME_STAGES.get(game, STAGES)
    db, service = await open_service(path, Seeds(seed))
    rng = random.Random(seed)
    out: dict[str, Any] = {"game": game, "matches": live, "stages": []}
    try:
        await service.recover()

        async def start(first_user: int) -> tuple[int, list[int]]:
            users = [(first_user, "p0"), (first_user + 1, "p1")]
            record = await service.create_challenge(game, None, 10, 20, users[0], users[1:])
            await service.accept(record.id, users[1][0])
            return record.id, [first_user, first_user + 1]

        warm_id, warm_users = await start(1)
        await timed_move(service, warm_id, warm_users, rng)
        gc.collect()
        before = rss_kb()
        next_user = 100
        going: dict[int, tuple[list[int], int]] = {}
        for _ in range(live):
            match_id, users = await start(next_user)
            next_user += 2
            going[match_id] = (users, 0)
        replaced = 0
        for target in stages:
            queue = list(going)
            while queue:
                match_id = queue.pop()
                users, made = going.pop(match_id)
                ended = False
                while made < target and not ended:
                    _, ended = await timed_move(service, match_id, users, rng)
                    made += 1
                if not ended:
                    going[match_id] = (users, made)
                elif replaced < MAX_REPLACED * live:  # a new match in its place, brought to the stage
                    replaced += 1
                    match_id, users = await start(next_user)
                    next_user += 2
                    going[match_id] = (users, 0)
                    queue.append(match_id)
            gc.collect()
            now = rss_kb()
            out["stages"].append(
                {
                    "moves_per_match": target,
                    "live": len(going),
                    "replaced_so_far": replaced,
                    "rss_kb_delta": now - before,
                    "kb_per_live_match": (now - before) / len(going) if going else None,
                }
            )
    finally:
        await service.close()
        await db.close()
    read = out["stages"]
    out["kb_per_live_match"] = max(s["kb_per_live_match"] or 0.0 for s in read)
    out["growth_kb_per_move"] = growth(read[-2], read[-1]) if len(read) > 1 else None
    out["setup_growth_kb_per_move"] = growth(read[0], read[1]) if len(read) > 2 else None
    return out


def growth(first: dict[str, Any], last: dict[str, Any]) -> float | None:
    """KB per live match per move from stage ``first`` to stage ``last``."""
    moves = int(last["moves_per_match"]) - int(first["moves_per_match"])
    if first["kb_per_live_match"] is None or last["kb_per_live_match"] is None or moves <= 0:
        return None
    return (float(last["kb_per_live_match"]) - float(first["kb_per_live_match"])) / moves


async def measure_games(folder: str | Path, games: Sequence[str], live: int, seed: int) -> dict[str, Any]:
    """:func:`measure_memory` for each of ``games`` in turn, each on a fresh file in ``folder``."""
    return {game: await measure_memory(Path(folder) / f"memory-{game}.sqlite3", game, live, seed) for game in games}


__all__ = ["GAME_STAGES", "STAGES", "measure_games", "measure_memory"]
