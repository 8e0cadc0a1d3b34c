"""The tournament service and the match service on one database, as the tournament tests drive them
(tests/bot/test_tournament_service.py, the matrix, the golden file, the reads): the constants, the
environment (:class:`Env`, :func:`open_env`) and single random or passive moves."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from bot.matches import MatchService, MatchStatus
from bot.tournaments.service import TournamentService
from db import Database
from tests.conftest import DbTarget
from tests.fakes import Clock

T0 = 1_700_000_000
ORG = 999
GUILD, CHANNEL = 10, 20
TURN = 3600  # the match service's move time-out in these tests

#: Short games, so random play ends fast (Arena: a small board, a few game turns, seat 0 first).
QUICK: dict[str, dict[str, Any]] = {
    "wizards-cup": {},
    "firewall": {},
    "magic-duel": {"points_to_win": 1},
    "arena": {
        "grid_size": 8,
        "terrain_count": 4,
        "terrain_setup": "random",
        "game_turn_limit": 2,
        "first_player": "challenger",
    },
}


@dataclass
class Env:
    target: DbTarget
    clock: Clock
    db: Database
    matches: MatchService
    service: TournamentService

    async def reopen(self, *, settle: bool = True) -> None:
        """A restart: close the services and the database, open them again, recover (in the
        background: ``settle`` waits for it)."""
        await self.service.settle()
        self.service.close()
        await self.matches.close()
        await self.db.close()
        await self.open()
        await self.matches.recover()
        await self.service.recover()
        if settle:
            await self.service.settle()

    async def open(self) -> None:
        self.db = await self.target.open(clock=self.clock)
        self.matches = MatchService(
            self.db, clock=self.clock, move_timeout_seconds=TURN, reminder_before_seconds=300, seed_factory=lambda: 7
        )
        self.service = TournamentService(self.db, self.matches, seed_factory=lambda: 11)

    async def close(self) -> None:
        await self.service.settle()
        self.service.close()
        await self.matches.close()
        await self.db.close()

    async def make(self, game: str, fmt: str, n: int, **kwargs: Any) -> int:
        kwargs.setdefault("options", QUICK[game])
        rec = await self.service.create(GUILD, CHANNEL, ORG, game, fmt, **kwargs)
        for i in range(1, n + 1):
            await self.service.join(rec.id, (i, f"P{i}"))
        return rec.id

    def sql(self, query: str, *params: Any) -> list[tuple[Any, ...]]:
        return self.target.sql(query, *params)


async def open_env(target: DbTarget) -> Env:
    env = Env(target, Clock(T0), None, None, None)  # type: ignore[arg-type]
    await env.open()
    return env


async def move_once(env: Env, match_id: int, rng: random.Random, *, silent: frozenset[int] = frozenset()) -> bool:
    """One random legal move by a random awaited seat (not a silent player); False if none."""
    m = await env.matches.get(match_id)
    if m.status is not MatchStatus.ACTIVE:
        return False
    seats = list(range(len(m.seats)))
    rng.shuffle(seats)
    for s in seats:
        if m.seats[s].user_id in silent:
            continue
        p = await env.matches.prompt(match_id, s)
        if p.awaited and p.decision is not None and len(p.decision.choices) > 0:
            choices = p.decision.choices
            action = choices[rng.randrange(len(choices))]
            await env.matches.submit(match_id, m.seats[s].user_id, action, seat_step=p.seat_step)
            return True
    return False


async def live_links(env: Env, tid: int) -> list[int]:
    view = await env.service.view(tid)
    return [link.match_id for link in view.current_links().values() if not link.recorded]


async def pass_once(env: Env, match_id: int) -> bool:
    """One passive move by an awaited seat: end the turn (or the activation) when it may, else
    the first choice (setup: discipline, terrain, deployment). Nobody attacks, so an Arena game
    reaches its turn limit drawn. False if the match cannot move."""
    m = await env.matches.get(match_id)
    if m.status is not MatchStatus.ACTIVE:
        return False
    for s in range(len(m.seats)):
        p = await env.matches.prompt(match_id, s)
        if p.awaited and p.decision is not None and len(p.decision.choices) > 0:
            choices = p.decision.choices
            passive = [c for c in choices if getattr(c, "type", None) in ("end_turn", "end_activation")]
            await env.matches.submit(match_id, m.seats[s].user_id, (passive or choices)[0], seat_step=p.seat_step)
            return True
    return False
