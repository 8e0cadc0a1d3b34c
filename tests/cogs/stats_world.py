"""A bot inside the fake Discord with a quick second match service on its database
(:class:`World`, the ``world`` fixture of tests/conftest.py): the stats, replay and practice-stats
Discord tests fill the tables with it."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bot.matches import MatchService
from db import Database, MatchStatus, RatingsRepository
from tests.fakes import Clock

T0 = 1_800_000_000


class World:
    """A bot inside the fake Discord, plus a second match service on the same database that
    plays matches quickly (no notifier) to fill the tables."""

    def __init__(self, h: Any, bot: Any, db: Database, clock: Clock) -> None:
        self.h, self.bot, self.db, self.clock = h, bot, db, clock
        seeds = iter(range(20261121, 20261121 + 10_000))
        self.service = MatchService(db, clock=clock, seed_factory=lambda: next(seeds))
        self.repo = RatingsRepository(db)

    async def start(self, game: str, guild: Any, players: Sequence[Any], options: dict | None = None) -> int:
        self.clock.now += 60
        refs = [(p.id, p.display_name) for p in players]
        record = await self.service.create_challenge(game, options, guild.id, 1, refs[0], refs[1:])
        for uid, _ in refs[1:]:
            await self.service.accept(record.id, uid)
        return record.id

    async def toy(self, guild: Any, players: Sequence[Any], winners: Sequence[int] = (0,)) -> int:
        match_id = await self.start("toy-guess", guild, players, {"high": 10})
        rows = await self.db.actions.for_match(match_id)
        secret = [r.action["number"] for r in rows if r.seat is None][-1]
        far = 10 if secret <= 5 else 1
        for seat, p in enumerate(players):
            number = secret if seat in winners else far
            await self.service.submit(match_id, p.id, {"type": "guess", "number": number}, seat_step=None)
        assert (await self.service.get(match_id)).status is MatchStatus.FINISHED
        await self.service.settle()  # the rating follows the acknowledgement
        return match_id

    async def play(self, match_id: int, rng: random.Random, *, until_finished: bool = True, moves: int = 999) -> None:
        """Random legal moves (through the service) until the end, or for ``moves`` moves."""
        done = 0
        while (await self.service.get(match_id)).status is MatchStatus.ACTIVE and done < moves:
            record = await self.service.get(match_id)
            for seat, s in enumerate(record.seats):
                sp = await self.service.prompt(match_id, seat)
                if sp.awaited and done < moves:
                    legal = sp.legal_actions
                    await self.service.submit(match_id, s.user_id, legal[rng.randrange(len(legal))], seat_step=None)
                    done += 1
                    break
        if until_finished:
            assert (await self.service.get(match_id)).status is MatchStatus.FINISHED
        await self.service.settle()
