"""The running client's own timer loop does the deadline work the service's tests drive by hand
(tests/test_match_turn_time.py, test_discord_stats.py, test_discord_replay.py,
test_tournament_background.py and the golden service runs call ``service.tick()`` with a fake
clock): here the bot is built as ``python -m bot`` builds it (``build_bot``, timers on, a short
``TIMER_SECONDS``), on the real clock, and nobody calls tick. A player who goes silent while the
other has moved is reminded, then forfeits, and the match ends with the result posted."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from bot.client import build_bot
from bot.matches import MatchStatus
from bot.settings import Settings
from db import Database
from tests.discord_flows import in_match, setup_players
from tests.discord_harness.fixtures import discord_harness  # noqa: F401  (pytest fixture)

TURN = 3  # seconds a seat has for each move (MOVE_TIMEOUT_SECONDS)


def _settings(path: Path) -> Settings:
    return Settings(
        discord_token="t",
        database_path=str(path),
        render_images=False,
        move_timeout_seconds=TURN,
        reminder_before_seconds=1,
        timer_seconds=1.0,
    )


async def test_the_client_s_timer_loop_reminds_and_times_out_a_silent_player(discord_harness, tmp_path: Path) -> None:  # noqa: F811
    path = tmp_path / "bot.sqlite3"
    db = await Database.open(path)
    bot = build_bot(_settings(path), db)  # timers on, as the bot runs
    ticks = 0
    real = bot.service.tick

    async def counted(*args, **kwargs):  # watched, not driven: the loop calls it
        nonlocal ticks
        ticks += 1
        return await real(*args, **kwargs)

    bot.service.tick = counted
    try:
        h = await discord_harness(bot)
        guild, ch, ann, bob = setup_players(h)
        record = await _firewall_match(h, bot, ch, ann, bob)
        sp = await bot.service.prompt(record.id, 0)
        await bot.service.submit(record.id, ann.id, sp.decision.choices[0], seat_step=sp.seat_step)  # Ann moves
        await _until_not_active(h, bot, record.id)
        final = await bot.service.get(record.id)
        assert final.status is MatchStatus.FINISHED  # Bob forfeited by time
        assert [s["result"] for s in final.outcome["seats"]] == ["win", "loss"]
        told = [m.text() for m in in_match(h, ch)] + [m.text() for m in h.dms_to(bob)]
        assert any("your move is due" in t for t in told)  # the reminder, before the time-out
        assert any("ran out of time and forfeits" in t for t in told)
        assert ticks >= 2  # the loop ran on its own
        await h.close()
    finally:
        await db.close()


async def test_the_client_s_timer_loop_abandons_a_match_nobody_plays_and_its_replay_shows(
    discord_harness,  # noqa: F811
    tmp_path: Path,
) -> None:
    """What test_discord_stats.py and test_discord_replay.py get from ``tick()`` on a fake clock
    (a match nobody moves in is abandoned, unrated, and can still be replayed), done here by the
    running client's own loop on the real clock."""
    path = tmp_path / "bot.sqlite3"
    db = await Database.open(path)
    bot = build_bot(_settings(path), db)
    try:
        h = await discord_harness(bot)
        guild, ch, ann, bob = setup_players(h)
        record = await _firewall_match(h, bot, ch, ann, bob)
        await _until_not_active(h, bot, record.id)  # nobody moves, nobody calls tick
        assert (await bot.service.get(record.id)).status is MatchStatus.ABANDONED
        rp = await h.slash(bob, ch, "replay", {"match": record.id})
        assert rp.ephemeral and rp.message.embed["title"].startswith(f"🎞️ Replay of match #{record.id}")
        await h.close()
    finally:
        await db.close()


async def _firewall_match(h, bot, ch, ann, bob):  # type: ignore[no-untyped-def]
    """Ann challenges Bob to Firewall in ``ch`` and Bob accepts: the live match."""
    r = await h.slash(ann, ch, "challenge", {"game": "firewall", "opponent": bob})
    await h.click(bob, r.message, label="Accept")
    (record,) = await bot.service.live_matches_for(ann.id, include_pending=False)
    return record


async def _until_not_active(h, bot, match_id: int) -> None:  # type: ignore[no-untyped-def]
    """Wait on the real clock (at most a turn's time and 10 s) for the running client's own timer
    loop to end the match; nothing here calls ``tick()``."""
    deadline = time.monotonic() + TURN + 10
    while (await bot.service.get(match_id)).status is MatchStatus.ACTIVE and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    await h.settle()
