"""``python -m bench service``: its worker functions run in-process against the current code at tiny
sizes (the databases, the move latency, round trips and memory, the start-up), its helpers, and
the whole command once (worker processes, no baseline) for the JSON it writes."""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from bench import service as bench_service
from bench.service_worker import (
    RoundTrips,
    active_seats,
    build_all,
    measure_moves,
    measure_startup,
    percentile,
    warm_up,
)

HEADLINES = [
    "p99_ratio_1000_live",
    "p50_ratio_1000_live",
    "round_trips_per_move",
    "startup_s_10000_live",
    "rss_kb_per_live_match",
]
LOAD_KEYS = [
    "throughput_ratio_200_concurrent",
    "cpu_limit_share_200_concurrent",
    "caller_p99_ratio_half_load",
    "first_move_ratio_after_restart",
    "kb_per_live_match",
]
RATINGS_KEYS = [
    "rating_cost_ratio_1m",
    "leaderboard_cost_ratio_1m",
    "rating_cost_ratio_1m_postgres",
    "leaderboard_cost_ratio_1m_postgres",
    "pg_round_trips_per_move",
    "pg_p99_ratio",
]


def _sql(path: str | Path, query: str) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(str(path))
    try:
        return conn.execute(query).fetchall()
    finally:
        conn.close()


@pytest.mark.slow
async def test_worker_measures_every_figure(tmp_path: Path) -> None:
    built = await build_all(tmp_path, [1, 3], [5], seed=3)

    # the databases: active matches only, each copy with its own players, spread over a game
    for live in (1, 3):
        info = built["live"][live]
        assert info["matches"] == info["active"] == live
        assert info["templates"] > 5  # one game at each of its stages
        seats = active_seats(info["path"])
        assert len(seats) == live and all(len(users) == 2 for users in seats.values())
        assert len({u for users in seats.values() for u in users}) == 2 * live
    assert built["live"][3]["actions_per_match"] > built["live"][1]["actions_per_match"] == 2  # stage 0: chance only
    start = built["startup"][5]
    assert start["matches"] == start["active"] == 5 and start["templates"] == 1
    assert start["actions_per_match"] >= 10  # the longest game, one move before its end
    stages = _sql(start["path"], "SELECT COUNT(DISTINCT n) FROM (SELECT COUNT(*) n FROM actions GROUP BY match_id)")
    assert stages == [(1,)]  # five copies of one match

    await warm_up(3)
    for live in (1, 3):
        result = await measure_moves(
            built["live"][live]["path"], tmp_path / f"bare-{live}.sqlite3", live, 8, seed=3, warmup=2, rss=True
        )
        assert result["live"] == live and result["moves"] == 8
        for key in ("submit_us", "bare_us", "round_trips", "ended"):
            assert len(result[key]) == 8, key
        assert all(x > 0 for x in result["submit_us"] + result["bare_us"])
        assert min(result["round_trips"]) >= 1  # a committed move reaches the database
        assert result["recover_s"] >= 0 and result["touch_s"] > 0
        assert result["rss_kb_after"] > 0 and result["rss_kb_per_live_match"] is not None
        assert result["replaced"] >= sum(result["ended"])  # (warm-up moves may end matches too)
        # the bare reference: every timed op (and the warm-up) committed one row
        assert _sql(tmp_path / f"bare-{live}.sqlite3", "SELECT COUNT(*) FROM bare") == [(10,)]
        summary = bench_service.summarize_live([result], built["live"][live])
        assert summary["p50_ratio"] > 0 and summary["p99_ratio"] > 0
        assert summary["submit_p99_us"] >= summary["submit_p50_us"] > 0
        assert summary["round_trips_max"] >= summary["round_trips_mean"] >= 1

    copy = tmp_path / "run.sqlite3"
    shutil.copyfile(start["path"], copy)
    started = await measure_startup(copy)
    assert started["recovered"] == 5 and started["seconds"] > 0


async def test_round_trips_count_the_service_connection_only(tmp_path: Path) -> None:
    original = aiosqlite.core.Connection._execute
    counted = await aiosqlite.connect(str(tmp_path / "a.sqlite3"))
    excluded = await aiosqlite.connect(str(tmp_path / "b.sqlite3"))
    try:
        with RoundTrips(exclude=excluded) as trips:
            for _ in range(3):
                await counted.execute("SELECT 1")
            await excluded.execute("SELECT 1")
            await asyncio.gather(excluded.execute("SELECT 2"), excluded.commit())
            assert trips.count == 3
            trips.count = 0
            await counted.commit()
            assert trips.count == 1
        assert aiosqlite.core.Connection._execute is original
        await counted.execute("SELECT 1")
        assert trips.count == 1  # no longer counting
    finally:
        await counted.close()
        await excluded.close()


def test_percentile_is_nearest_rank() -> None:
    samples = [float(x) for x in range(100, 0, -1)]
    assert percentile(samples, 0.5) == 50
    assert percentile(samples, 0.99) == 99
    assert percentile(samples, 1.0) == 100
    assert percentile([7.0], 0.99) == 7
    with pytest.raises(ValueError):
        percentile([], 0.5)


def test_headline_figures_come_from_1000_live_and_10000_at_start_up() -> None:
    live = {"p99_ratio": 2.5, "p50_ratio": 1.5, "round_trips_mean": 4.0, "rss_kb_per_live_match": 30.0}
    way = {
        "live": {"100": {**live, "p99_ratio": 9.0}, "1000": live},
        "startup": {"1000": {"seconds": 0.1}, "10000": {"seconds": 1.25}},
    }
    assert bench_service.headline(way) == {
        "p99_ratio_1000_live": 2.5,
        "p50_ratio_1000_live": 1.5,
        "round_trips_per_move": 4.0,
        "startup_s_10000_live": 1.25,
        "rss_kb_per_live_match": 30.0,
    }
    assert bench_service.headline(None) == dict.fromkeys(HEADLINES)
    assert bench_service.headline({"live": {}, "startup": {"10000": None}}) == dict.fromkeys(HEADLINES)


@pytest.mark.slow
def test_the_command_writes_every_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "service.json"
    argv = ["--no-baseline", "--live", "2", "--moves", "4", "--rounds", "1", "--startup", "4", "--load-seconds", "0.4"]
    argv += ["--restart-rounds", "1", "--memory-live", "3", "--ratings-rows", "400", "--ratings-rounds", "2"]
    argv += ["--pg-moves", "20"]
    assert bench_service.main(argv, quick=True, json_path=str(out)) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    keys = [*HEADLINES, *(f"baseline_{k}" for k in HEADLINES), *LOAD_KEYS, *RATINGS_KEYS, "detail"]
    assert sorted(data) == sorted(keys)
    # ratings at size: each backend's four operations timed on both databases, the keys their ratios
    for backend, suffix in (("sqlite", ""), ("postgres", "_postgres")):
        found = data["detail"]["ratings"][backend]
        assert found["built"]["large"]["rows"] == 400 and found["built"]["small"]["rows"] < 100
        assert sorted(found["operations"]) == ["finish", "page", "page_all", "place"]
        assert data[f"rating_cost_ratio_1m{suffix}"] == found["operations"]["finish"]["ratio"] > 0
        others = [found["operations"][op]["ratio"] for op in ("page", "place")]
        assert data[f"leaderboard_cost_ratio_1m{suffix}"] == max(others) > 0
    # a move on PostgreSQL: counted on the wire, against a bare insert in the same run
    pg = data["detail"]["pg_moves"]
    assert pg["moves"] == 20 and data["pg_round_trips_per_move"] == pg["round_trips_mean"] >= 1
    assert data["pg_p99_ratio"] == pg["p99_ratio"] > 0 and pg["bare_p99_ms"] > 0
    assert pg["floor_p99_ratio"] == pytest.approx(pg["floor_p99_ms"] / pg["floor_bare_p99_ms"])
    assert pg["floor_p99_ratio"] > 0
    # the move's own work, apart from its wait on the server: what is left of each submit
    assert 0 < pg["engine_p50_ms"] < pg["submit_p50_ms"] and 0 < pg["engine_p99_ms"] <= pg["submit_p99_ms"]
    assert pg["engine_p99_ratio"] == pytest.approx(pg["engine_p99_ms"] / pg["bare_p99_ms"])
    # the concurrency run: real figures, every accepted move found once in the stored logs
    assert all(data[k] > 0 for k in LOAD_KEYS if k != "kb_per_live_match")
    load = data["detail"]["load"]
    assert load["saturated"]["callers"] == 200 and load["saturated"]["moves"] > 0
    assert load["logs"]["lost"] == 0 and load["logs"]["doubled"] == 0
    assert load["logs"]["accepted"] == load["logs"]["stored"] > 0
    # the first move after a restart: each game's, against its warm moves in the same process
    restart = data["detail"]["restart"]
    assert sorted(restart["games"]) == sorted(["arena", "firewall", "magic-duel", "wizards-cup"])
    assert all(g["first_ms"] > 0 and g["warm_ms"] > 0 for g in restart["games"].values())
    assert data["first_move_ratio_after_restart"] == max(g["ratio"] for g in restart["games"].values())
    # memory per live match: every game, each stage with its live matches (3 of 3: ended ones replaced)
    memory = data["detail"]["memory"]
    assert sorted(data["kb_per_live_match"]) == sorted(memory) == sorted(restart["games"])
    for game, m in memory.items():
        assert [s["live"] for s in m["stages"]] == [3, 3, 3], game
        assert data["kb_per_live_match"][game] == max(s["kb_per_live_match"] for s in m["stages"])
        assert m["growth_kb_per_move"] is not None and m["setup_growth_kb_per_move"] is not None
    assert all(data[f"baseline_{k}"] is None for k in HEADLINES)  # no baseline measured
    assert all(data[k] is None for k in HEADLINES)  # 1,000 live / 10,000 not measured at these sizes
    current = data["detail"]["current"]
    live = current["live"]["2"]
    assert live["moves"] == 4 and live["p99_ratio"] > 0 and live["round_trips_mean"] >= 1
    assert current["startup"]["4"]["recovered"] == 4 and current["startup"]["4"]["seconds"] > 0
    assert data["detail"]["baseline"] is None
    printed = capsys.readouterr().out
    assert "2 live" in printed and "4 live" in printed
