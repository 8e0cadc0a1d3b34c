"""``python -m bench ai`` against the opponent pool (issue 32): the pool's tasks (seats, seeds,
the Magic Duel table's rotation, the ladder's round robin), the JSON's keys, a game without its
pool module, and ``--log`` resuming the pool games. A stand-in pool (the heuristic and random
players under pool names) and the heuristic standing in for the AI keep it fast."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from bench import ai as bench_ai
from bench.ai import Task, run, tasks_for
from bench.ai_tasks import POOL_LEVELS
from bench.heuristics import heuristic_player, random_player
from bench.pool import PoolPlayer


def _fake_pool(slug: str, count: int = 4) -> tuple[PoolPlayer, ...]:
    """A stand-in pool: the heuristic and random players under pool names, half of them held out."""
    return tuple(
        PoolPlayer(
            f"p{i}",
            slug,
            "the heuristic" if i % 2 == 0 else "random",
            "tune" if i < count // 2 else "holdout",
            heuristic_player(slug) if i % 2 == 0 else random_player,
        )
        for i in range(count)
    )


@pytest.fixture
def fake_pools(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game's pool is :func:`_fake_pool` (the real pool modules are written elsewhere)."""
    import bench.pool

    monkeypatch.setattr(bench.pool, "pool", lambda slug: _fake_pool(slug))


def test_vs_pool_tasks_pair_every_pool_player_with_normal_and_hard_seats_alternated() -> None:
    """Each pool player against normal and against hard, N games each; the AI's seat alternates,
    games 2k and 2k+1 share a deal (seed) with the seats swapped, normal and hard play the same
    deals; a pool player added later leaves the others' seeds as they were."""
    names = ["steady", "mirror", "opener", "spells"]
    tasks = tasks_for("firewall", {"vs_pool": 4}, names=names)
    assert len(tasks) == 4 * 2 * 4 and {t.matchup for t in tasks} == {"vs_pool"}
    for name in names:
        for level in ("normal", "hard"):
            mine = [t for t in tasks if set(t.kinds) == {f"ai:{level}", f"pool:{name}"}]
            assert [t.seat for t in mine] == [0, 1, 0, 1]
            assert all(t.kinds[t.seat] == f"ai:{level}" for t in mine)
            assert mine[0].seed == mine[1].seed != mine[2].seed == mine[3].seed
        normal, hard = ([t.seed for t in tasks if set(t.kinds) == {f"ai:{lv}", f"pool:{name}"}] for lv in POOL_LEVELS)
        assert normal == hard
    more = tasks_for("firewall", {"vs_pool": 4}, names=["extra", *names])
    assert set(tasks) < set(more)
    quick = tasks_for("firewall", {"vs_pool": 1}, names=names, quick=True)
    assert [t.kinds for t in quick] == [("ai:normal", "pool:steady"), ("ai:hard", "pool:spells")]


@pytest.mark.parametrize("size", [3, 4, 5, 6])
def test_the_magic_duel_table_rotates_every_pool_member_and_the_ai_s_seat(size: int) -> None:
    """The table: AI normal and three different pool players; over one round of the sets of three
    (at least four games) every pool member sits down and the AI has had every seat."""
    names = [f"p{i}" for i in range(size)]
    sets = math.comb(size, 3)
    n = max(4, sets)
    tasks = [t for t in tasks_for("magic-duel", {"table": n}, names=names) if t.matchup == "table"]
    assert len(tasks) == n
    for t in tasks:
        assert len(t.kinds) == 4 and t.kinds[t.seat] == "ai:normal" and t.kinds.count("ai:normal") == 1
        others = [k for k in t.kinds if k != "ai:normal"]
        assert len(set(others)) == 3 and all(k.startswith("pool:") for k in others)
    assert {k for t in tasks for k in t.kinds} == {"ai:normal", *(f"pool:{n}" for n in names)}
    assert {t.seat for t in tasks} == {0, 1, 2, 3}
    assert len({frozenset(t.kinds) for t in tasks}) == sets
    assert len({t.seed for t in tasks}) == n
    assert not [t for t in tasks_for("firewall", {"table": 4}, names=names) if t.matchup == "table"]


def test_the_ladder_is_a_round_robin_that_reuses_the_pool_games() -> None:
    """Every pair of ladder members (random, the three levels, the pool) has at least M two-player
    games; the pairs of vs_pool (normal and hard against a pool player) are not played again, the
    others exactly M, seats alternated."""
    names = ["a", "b", "c", "d"]
    m = 4
    tasks = tasks_for("arena", {"vs_pool": 6, "ladder": m, "hard_vs_easy": 2}, names=names)
    members = ["random", "ai:easy", "ai:normal", "ai:hard", *(f"pool:{n}" for n in names)]
    for i, a in enumerate(members):
        for b in members[i + 1 :]:
            pair = [t for t in tasks if set(t.kinds) == {a, b}]
            ladder = [t for t in pair if t.matchup == "ladder"]
            other = len(pair) - len(ladder)
            assert len(pair) == max(m, other), (a, b)
            assert len(ladder) == max(0, m - other), (a, b)
            assert len({t.kinds[t.seat] for t in ladder}) <= 1  # the same member's seat measured
            assert [t.seat for t in ladder] == [g % 2 for g in range(len(ladder))]
    assert len([t for t in tasks if t.matchup == "vs_pool"]) == 2 * 4 * 6
    quick = tasks_for("arena", {"vs_pool": 1, "ladder": 1}, names=names, quick=True)
    assert not [t for t in quick if t.matchup == "ladder" and any(k.startswith("ai:") for k in t.kinds)]
    assert len(quick) == 2 + math.comb(5, 2)  # normal vs a, hard vs d; the rest among random and the pool


def test_resolve_plays_a_pool_player_by_name(fake_pools: None) -> None:
    assert bench_ai.resolve("pool:p1", "firewall", None) is random_player
    assert bench_ai.resolve("pool:p0", "firewall", "random") is not random_player  # no stand-in for the pool
    with pytest.raises(KeyError):
        bench_ai.resolve("pool:nobody", "firewall", None)


def test_pool_run_json_has_the_issue_s_keys(
    fake_pools: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``main`` with a stand-in pool and the heuristic standing in for the AI: vs_pool (normal and
    hard rates per pool player, games, split), the Magic Duel table, the ladder (every member
    rated, random at 0, intervals round the ratings) and the p95s, in the JSON and the tables."""
    out = tmp_path / "ai.json"
    argv = ["--games", "2", "--ladder-games", "1", "--only", "wizards-cup", "magic-duel", "--stand-in", "heuristic"]
    assert bench_ai.main([*argv, "--workers", "1"], quick=True, json_path=str(out)) == 0
    stdout = capsys.readouterr().out
    data = json.loads(out.read_text())
    assert set(data) == {"wizards-cup", "magic-duel"}
    for row in data.values():
        assert set(row) >= {"vs_pool", "ladder", "decision_s_p95_normal", "decision_s_p95_hard", "targets_met"}
        assert "win_rate_vs_random" not in row  # issue 16's matchups were not asked for
        assert set(row["vs_pool"]) == {"p0", "p1", "p2", "p3"}
        # --quick: normal against the first pool player (tune), hard against the last (holdout)
        first, last = row["vs_pool"]["p0"], row["vs_pool"]["p3"]
        assert first["games"] == last["games"] == 2 and (first["split"], last["split"]) == ("tune", "holdout")
        assert 0 <= first["normal"] <= 1 and first["hard"] is None and last["normal"] is None
        assert row["vs_pool"]["p1"]["games"] == row["vs_pool"]["p2"]["games"] == 0
        tune, holdout = row["vs_pool_by_split"]["tune"], row["vs_pool_by_split"]["holdout"]
        assert (tune["games_normal"], tune["games_hard"], tune["normal"]) == (2, 0, first["normal"])
        assert (holdout["games_normal"], holdout["games_hard"], holdout["hard"]) == (0, 2, last["hard"])
        assert set(row["ladder"]) == {"random", "normal", "hard", "p0", "p1", "p2", "p3"}  # --quick: no easy
        assert row["ladder"]["random"]["rating"] == 0 and row["ladder_anchor"] == "random"
        # each pool player against random (one ladder game each): p1 and p3 are random players
        assert set(row["pool_vs_random"]) == {"p0", "p1", "p2", "p3"}
        assert all(e["games"] == 1 for e in row["pool_vs_random"].values())
        for entry in row["ladder"].values():
            lo, hi = entry["ci"]
            assert lo <= entry["rating"] <= hi and entry["games"] >= 2
        assert row["decision_s_p95_normal"] > 0 and row["decision_s_p95_hard"] > 0
        assert set(row["targets_met"]) >= {"vs_pool_normal", "vs_pool_hard", "decision_s_p95_normal"}
    table_row = data["magic-duel"]["table_normal"]
    assert table_row["games"] == 2 and table_row["baseline"] == 0.25 and 0 <= table_row["rate"] <= 1
    assert "table_normal" not in data["wizards-cup"]
    ladder = stdout.split("Ladder:")[1].splitlines()[3:]  # the rows, best first
    md = [float(line.split()[2]) for line in ladder if line.startswith("magic-duel")]
    assert len(md) == 7 and md == sorted(md, reverse=True)
    # --merge prints the same tables from the JSON
    assert bench_ai.main(["--merge", str(out)], quick=False, json_path=None) == 0
    merged = capsys.readouterr().out
    assert sorted(merged.splitlines()[1:]) == sorted(stdout.splitlines()[1:])  # the games in the file's order


def test_a_game_without_its_pool_module_plays_the_rest(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pool module not written yet: that game has no pool games and says why; the ladder of
    random and the AI's levels is still played."""
    from dataclasses import replace

    from rules import registry

    def without_pool(slug: str) -> None:
        monkeypatch.setitem(registry._GAMES, slug, replace(registry.entry(slug), pool="bench.pool.no_such_pool_module"))

    without_pool("wizards-cup")
    players, note = bench_ai.ai_tasks.pool_players("wizards-cup")
    assert players == () and note and "no_such_pool_module" in note
    said: list[str] = []
    row = run(["wizards-cup"], {"vs_pool": 1, "ladder": 1}, stand_in="heuristic", progress=said.append)["wizards-cup"]
    assert row["vs_pool"] == {} and row["pool_note"] == note and any(note in s for s in said)
    assert set(row["ladder"]) == {"random", "easy", "normal", "hard"} and row["games"] == 6
    # Magic Duel without its pool: no table to sit at, no table row; the note under the pool table
    without_pool("magic-duel")
    results = run(["magic-duel"], {"table": 2}, stand_in="heuristic")
    assert "table_normal" not in results["magic-duel"] and results["magic-duel"]["games"] == 0
    assert "magic-duel: bench/pool/no_such_pool_module.py is not there yet" in bench_ai.render(results)


@pytest.mark.slow
def test_log_resumes_pool_games_without_replaying_any(
    fake_pools: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--log`` with the pool matchups: a second run reads every game back (none replayed) and
    gives the same figures; more ladder games per pair play only the new ones."""
    log = tmp_path / "games.jsonl"
    games = {"vs_pool": 2, "ladder": 1}
    first = run(["wizards-cup"], games, stand_in="heuristic", log_path=str(log))
    played: list[Task] = []
    real_run_task = bench_ai.run_task

    def counting(task: Task) -> Any:
        played.append(task)
        return real_run_task(task)

    monkeypatch.setattr(bench_ai, "run_task", counting)
    again = run(["wizards-cup"], games, stand_in="heuristic", log_path=str(log))
    assert played == [] and again == first
    more = run(["wizards-cup"], {"vs_pool": 2, "ladder": 2}, stand_in="heuristic", log_path=str(log))
    # 28 pairs of 8 members; the 8 pairs of vs_pool have 2 games already; the others get their 2nd
    assert {t.matchup for t in played} == {"ladder"} and len(played) == 28 - 8
    assert more["wizards-cup"]["games"] == first["wizards-cup"]["games"] + len(played)
