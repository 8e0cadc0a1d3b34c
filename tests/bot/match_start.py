"""A match started through the match service: a challenge of players 100, 101, ... accepted by all
(tests/bot/test_match_service_store.py, tests/db/test_pg_group.py)."""

from __future__ import annotations

from typing import Any

from bot.matches import MatchService


async def start(service: MatchService, game: str, seats: int = 2, options: dict[str, Any] | None = None) -> int:
    players = [(100 + i, f"P{i + 1}") for i in range(seats)]
    record = await service.create_challenge(game, options, 10, 20, players[0], players[1:])
    for uid, _ in players[1:]:
        await service.accept(record.id, uid)
    return record.id
