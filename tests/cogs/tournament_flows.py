"""Tournaments driven through the fake Discord and the bot (tests/cogs/test_discord_tournament.py and the
tournament tests after it): /tournament create, what the bot answered, random legal moves and a
whole tournament played to its end."""

from __future__ import annotations

import random
from typing import Any

from bot.matches import MatchStatus


def said(result: Any) -> str:
    if result.followups:
        return "\n".join(m.text() for m in result.followups)
    return result.content or ""


async def create(h: Any, ch: Any, user: Any, **more: Any) -> Any:
    options = {"game": "wizards-cup", "format": "swiss", **more}
    return await h.slash(user, ch, "tournament create", options)


async def move_once(bot: Any, match_id: int, rng: random.Random) -> bool:
    """One random legal move by an awaited seat; False when the match cannot move."""
    m = await bot.service.get(match_id)
    if m.status is not MatchStatus.ACTIVE:
        return False
    seats = list(range(len(m.seats)))
    rng.shuffle(seats)
    for s in seats:
        p = await bot.service.prompt(match_id, s)
        if p.awaited and p.decision is not None and len(p.decision.choices) > 0:
            action = p.decision.choices[rng.randrange(len(p.decision.choices))]
            await bot.service.submit(match_id, m.seats[s].user_id, action, seat_step=p.seat_step)
            return True
    return False


async def play_to_end(h: Any, bot: Any, tid: int, seed: int = 3) -> Any:
    rng = random.Random(seed)
    for _ in range(10_000):
        view = await bot.tournaments.view(tid)
        if view.status.value != "running":
            break
        live = [link.match_id for link in view.current_links().values() if not link.recorded]
        progressed = False
        for match_id in live:
            progressed = await move_once(bot, match_id, rng) or progressed
        await h.settle()
        h.advance(3)  # players take their time: the posts stay within Discord's rate limits
        if not progressed:
            await bot.service.settle()
            await bot.tick_tournaments()
            await h.settle()
    await bot.service.settle()
    await bot.tick_tournaments()
    await h.settle()
    return await bot.tournaments.view(tid)
