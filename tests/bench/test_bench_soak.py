"""bench soak (issue 33, part 5): the four games, computer seats and a tournament at once; a short
run plays all of them with nothing lost, and the run fails when an error is logged or memory grows."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bench import soak


@pytest.mark.slow
async def test_a_short_soak_plays_everything_and_loses_nothing(tmp_path: Path) -> None:
    # on a busy machine the run goes on (at most 60 s) until it has finished what is asserted below
    result = await soak.run(tmp_path, 8.0, seed=3, at_least={"pvp": 11, "practice": 1, "tournament": 1})
    finished = result["matches_finished"]
    assert finished["pvp"] > 10 and finished["practice"] > 0 and finished["tournament"] > 0
    assert result["moves_accepted"] > 100
    assert result["lost"] == 0 and result["doubled"] == 0
    assert result["replays_checked"] > 0
    assert result["errors_logged"] == []
    assert not any("lost" in r or "replay" in r or "error" in r for r in result["failed"])


@pytest.mark.slow
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


def test_growth_is_judged_over_the_second_half_against_its_limit() -> None:
    # grows 1 MB a minute in the first half only (caches filling), then flat: passes
    samples = [(t, 60_000 + min(t, 300) * 1024 // 60) for t in range(0, 600, 2)]
    slope, growth, limit = soak.growth_of(samples, 600)
    assert abs(slope) < 1 and growth < limit
    # 1 MB a minute throughout: 5 MB over the second half, over the 4 MB floor
    leaking = [(t, 60_000 + t * 1024 // 60) for t in range(0, 600, 2)]
    _, growth, limit = soak.growth_of(leaking, 600)
    assert growth == pytest.approx(5120, rel=0.01) and limit == soak.GROWTH_LIMIT_KB and growth > limit


def test_the_workers_memory_is_the_children_of_the_process() -> None:
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-c", 'import time; x = b"x" * 30_000_000; time.sleep(30)'])
    try:
        import time

        deadline = time.monotonic() + 20
        while soak.pid_rss_kb(child.pid) < 25_000 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert child.pid in soak.descendants()
        # (other tests' children come and go meanwhile: the sum holds at least this child's 30 MB,
        # read first: the child may still be touching its last pages, so its size only grows)
        own = soak.pid_rss_kb(child.pid)
        assert own >= 25_000 and soak.children_rss_kb() >= own
    finally:
        child.kill()
        child.wait()
