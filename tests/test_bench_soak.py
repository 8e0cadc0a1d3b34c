"""bench soak (issue 33, part 5): the four games, computer seats and a tournament at once; a short
run plays all of them with nothing lost, and the run fails when an error is logged or memory grows."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bench import soak


async def test_a_short_soak_plays_everything_and_loses_nothing(tmp_path: Path) -> None:
    result = await soak.run(tmp_path, 8.0, seed=3)
    finished = result["matches_finished"]
    assert finished["pvp"] > 10 and finished["practice"] > 0 and finished["tournament"] > 0
    assert result["moves_accepted"] > 100
    assert result["lost"] == 0 and result["doubled"] == 0
    assert result["replays_checked"] > 0
    assert result["errors_logged"] == []
    assert not any("lost" in r or "replay" in r or "error" in r for r in result["failed"])


async def test_an_error_logged_fails_the_soak(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.matches import MatchService

    real_tick = MatchService.tick

    async def tick(self: MatchService, now: float | None = None) -> object:
        logging.getLogger("bot.matches").error("the timer failed (a test)")
        return await real_tick(self, now)

    monkeypatch.setattr(MatchService, "tick", tick)
    result = await soak.run(tmp_path, 3.0, seed=4)
    assert any("error(s) logged" in r for r in result["failed"])
    assert result["errors_logged"][0] == "bot.matches: the timer failed (a test)"


def test_memory_growth_is_the_slope_over_the_samples() -> None:
    flat = [(t, 50_000 + (7 if t % 4 else -7)) for t in range(0, 60, 2)]
    assert abs(soak.slope_per_min(flat)) < 20
    leaking = [(t, 50_000 + 100 * t) for t in range(0, 60, 2)]  # 100 KB a second
    assert soak.slope_per_min(leaking) == pytest.approx(6000)
