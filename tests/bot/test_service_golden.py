"""The match service stores and announces seeded matches exactly as the recording made before its
rebuild (tests/golden/service.py): the same action rows (seat, JSON, auto flag, time), the same
match and seat rows, and the same notifications in the same order. The recording's time-outs are
``tick()`` on a fake clock; the last test shows the running client's own timer loop doing the same
work."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path
from typing import Any

import pytest

from tests.discord_harness.fixtures import discord_harness  # noqa: F401  (pytest fixture)
from tests.golden.service import load, make_recorder, play
from tests.running_timer import first_seat_moves, running_firewall_match, until_not_active

GOLDEN = load()


@pytest.mark.parametrize("recorded", GOLDEN, ids=[f"{g['game']}-{g['seed']}" for g in GOLDEN])
async def test_service_plays_the_recorded_matches_identically(recorded: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        now = await play(recorded["game"], recorded["seed"], Path(tmp))
    assert now["actions"] == recorded["actions"]
    assert now["match"] == recorded["match"]
    assert now["seats"] == recorded["seats"]
    assert now["notices"] == recorded["notices"]


@pytest.mark.slow
async def test_the_running_clients_timer_does_the_recorded_time_out(discord_harness: Any, tmp_path: Path) -> None:  # noqa: F811
    """The recordings' time-outs are ``tick()`` on a fake clock (tests/golden/service.py). The bot as
    ``python -m bot`` builds it (``build_bot``, timers on, the real clock, nobody calling tick) does
    the same work on its own: a silent Firewall seat's forfeit is stored as recording firewall-2
    stores it (seat, action JSON, auto flag), and the notices from the time-out on are the
    recording's, in its order."""
    recorded = next(g for g in GOLDEN if (g["game"], g["seed"]) == ("firewall", 2))
    _, seat, action, auto, _ = recorded["actions"][-1]
    start = max(i for i, row in enumerate(recorded["notices"]) if row[0] == "timeout")
    async with running_firewall_match(discord_harness, tmp_path) as (h, bot, _ch, ann, _bob, record, ticks):
        recorder = bot.service.ctx.notifier = make_recorder(bot.service.ctx.notifier)
        await first_seat_moves(bot, record, ann)
        await until_not_active(h, bot, record.id)
        assert ticks() >= 2  # the loop ran on its own
    conn = sqlite3.connect(tmp_path / "bot.sqlite3")
    try:
        last = conn.execute(
            "SELECT seat, action, auto FROM actions WHERE match_id = ? ORDER BY idx DESC LIMIT 1", (record.id,)
        ).fetchone()
    finally:
        conn.close()
    assert list(last) == [seat, action, auto]  # Bob (seat 1) forfeits by time, as recorded
    rows = recorder.rows
    mine = rows[max(i for i, row in enumerate(rows) if row[0] == "timeout") :]
    assert mine == recorded["notices"][start:]
