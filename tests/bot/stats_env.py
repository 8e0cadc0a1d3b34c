"""The match service and the stats service on one database for the stats tests
(tests/bot/test_stats_service.py, tests/bot/test_practice_stats.py): players, :class:`Env` (toy matches
played to a chosen result, random games) and :func:`changes_so_far` (whether anything was written)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.matches import MatchService
from bot.stats import MatchStatus, StatsService
from db import Database, RatingsRepository
from tests.fakes import Clock

T0 = 1_750_000_000
GUILD_A, GUILD_B = 111, 222
ANN, BOB, CY, DEE = (1, "Ann"), (2, "Bob"), (3, "Cy"), (4, "Dee")


@dataclass
class Env:
    db: Database
    service: MatchService
    stats: StatsService
    clock: Clock

    @property
    def repo(self) -> RatingsRepository:
        return RatingsRepository(self.db)

    async def start_game(
        self,
        game: str,
        players: Sequence[tuple[int, str]],
        guild: int | None = GUILD_A,
        options: dict[str, Any] | None = None,
    ) -> int:
        self.clock.now += 60
        record = await self.service.create_challenge(game, options, guild, 5, players[0], list(players[1:]))
        for uid, _ in players[1:]:
            await self.service.accept(record.id, uid)
        return record.id

    async def start(self, players: Sequence[tuple[int, str]], guild: int | None = GUILD_A, *, rounds: int = 1) -> int:
        return await self.start_game("toy-guess", players, guild, {"high": 10, "rounds": rounds})

    async def play_randomly(self, match_id: int, rng: random.Random) -> None:
        """Random legal moves through the service until the match is finished."""
        while (record := await self.service.get(match_id)).status is MatchStatus.ACTIVE:
            for seat, s in enumerate(record.seats):
                prompt = await self.service.prompt(match_id, seat)
                if prompt.awaited:
                    legal = prompt.legal_actions
                    await self.service.submit(match_id, s.user_id, legal[rng.randrange(len(legal))], seat_step=None)
                    break
        assert (await self.service.get(match_id)).status is MatchStatus.FINISHED
        await self.service.settle()  # the rating follows the acknowledgement

    async def play(self, match_id: int, players: Sequence[tuple[int, str]], winners: Sequence[int]) -> None:
        """Play every round of a started toy match: the seats in ``winners`` guess the secret,
        the others guess far from it (no winner: everyone equally far, a draw)."""
        while (await self.service.get(match_id)).status is MatchStatus.ACTIVE:
            rows = await self.db.actions.for_match(match_id)
            secret = [r.action["number"] for r in rows if r.seat is None][-1]
            far = 10 if secret <= 5 else 1
            for seat, (uid, _) in enumerate(players):
                number = secret if seat in winners or not winners else far
                await self.service.submit(match_id, uid, {"type": "guess", "number": number}, seat_step=None)
        await self.service.settle()  # the rating follows the acknowledgement

    async def toy(
        self,
        players: Sequence[tuple[int, str]],
        winners: Sequence[int] = (0,),
        guild: int | None = GUILD_A,
        *,
        rounds: int = 1,
    ) -> int:
        match_id = await self.start(players, guild, rounds=rounds)
        await self.play(match_id, players, winners)
        assert (await self.service.get(match_id)).status is MatchStatus.FINISHED
        return match_id


async def changes_so_far(db: Database) -> Any:
    """Rows this connection has inserted, updated or deleted since it opened (SQLite); on
    PostgreSQL a fingerprint of every table's rows (equal: nothing was written)."""
    if db.backend == "sqlite":
        return int(await db.fetchval("SELECT total_changes()"))
    tables = [
        r[0]
        for r in await db.fetchall(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1"
        )
    ]
    return [
        await db.fetchval(f"SELECT md5(COALESCE(string_agg(x::text, '|' ORDER BY x::text), '')) FROM {t} x")
        for t in tables
    ]
