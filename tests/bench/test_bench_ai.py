"""The AI benchmark (``python -m bench ai``) and its rule-based heuristic players (issue 16)."""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bench import ai as bench_ai
from bench.ai import Task, play, run, run_task, seat_score, tasks_for, wilson
from bench.ai_log import code_fingerprint
from bench.heuristics import Player, _wc_values, heuristic_player, heuristics, random_player
from rules.actions import ActionModel
from rules.core import State
from rules.events import Outcome, Result, SeatResult

ROOT = Path(__file__).resolve().parents[2]
SLUGS = ["wizards-cup", "firewall", "magic-duel", "arena"]
SEATS = {"magic-duel": 4}
ROW_KEYS = {
    "win_rate_vs_random",
    "win_rate_vs_random_ci",
    "win_rate_vs_heuristic",
    "win_rate_vs_heuristic_ci",
    "hard_vs_easy",
    "hard_vs_easy_ci",
    "decision_s_p95_normal",
    "decision_s_p95_hard",
    "games",
}


def _checked(player: Player, seen: list[int]) -> Player:
    """``player``, asserting every action it picks is legal for its seat now."""

    def wrapped(state: State, seat: int, rng: random.Random) -> ActionModel:
        action = player(state, seat, rng)
        assert state.is_legal(seat, action), (seat, action.to_json())
        seen.append(seat)
        return action

    return wrapped


# ------------------------------------------------------------------ heuristics
@pytest.mark.slow
@pytest.mark.parametrize("slug", SLUGS)
def test_heuristic_plays_legal_moves_to_the_end(slug: str) -> None:
    """Heuristic against heuristic and against random, several seeds: every move legal, every game
    ends with an outcome."""
    h = heuristic_player(slug)
    for seed in range(4):
        seats = 2 if seed % 2 else SEATS.get(slug, 2)
        seen: list[int] = []
        players = [_checked(h if s % 2 == 0 or seed < 2 else random_player, seen) for s in range(seats)]
        played = play(slug, players, seed)
        assert played.steps > 0
        assert sorted(set(seen)) == list(range(seats)), "every seat decided at least once"
        assert max(played.scores) > 0  # someone won, or the game was drawn
        assert all(len(t) > 0 for t in played.times)


@pytest.mark.slow
@pytest.mark.parametrize("slug", SLUGS)
def test_heuristic_is_deterministic_for_a_seed(slug: str) -> None:
    h = heuristic_player(slug)
    seats = SEATS.get(slug, 2)
    players = [h] + [random_player] * (seats - 1)
    a, b = play(slug, players, 11), play(slug, players, 11)
    assert a.scores == b.scores and a.steps == b.steps


@pytest.mark.slow
@pytest.mark.parametrize("slug", SLUGS)
def test_heuristic_beats_random_clearly(slug: str) -> None:
    """A meaningful baseline: over 16 games (seats rotated) the heuristic scores well above the
    random baseline (1/2 for two players; 1/4 at Magic Duel's 4-player table)."""
    seats = SEATS.get(slug, 2)
    h = heuristic_player(slug)
    n = 16
    total = 0.0
    for g in range(n):
        me = g % seats
        players = [h if s == me else random_player for s in range(seats)]
        total += play(slug, players, 500 + g).scores[me]
    rate = total / n
    lo, _ = wilson(total, n)
    assert lo > 1 / seats, (slug, rate)


def test_heuristic_strategies_are_documented() -> None:
    for slug, h in heuristics().items():
        assert h.__doc__ and len(h.__doc__) > 100, slug


def test_wizards_cup_heuristic_keeps_the_weakest_card_waiting() -> None:
    from rules import CHANCE, Match

    state = Match.new("wizards-cup", seed=3).state
    rng = random.Random(0)
    while state.awaiting.is_chance:
        state.apply(CHANCE, state.sample_action(CHANCE, rng))
    values = _wc_values()
    deck_choice = heuristic_player("wizards-cup")(state, 0, rng).to_json()
    assert deck_choice["type"] == "choose_deck"
    # the five highest-Value cards among the offered ones
    offered = {c for a in state.legal_actions(0) for c in a.to_json()["cards"]}
    best5 = sorted((values[c] for c in offered), reverse=True)[:5]
    assert sorted((values[c] for c in deck_choice["cards"]), reverse=True) == best5


# ------------------------------------------------------------------ statistics
def test_wilson_interval() -> None:
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson(10, 10)
    assert hi == 1.0 and lo == pytest.approx(0.7225, abs=1e-4)
    lo, hi = wilson(380, 400)
    assert lo == pytest.approx(0.92404, abs=1e-4) and hi == pytest.approx(0.96740, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(2.5, 5)  # draws counted half
    assert lo < 0.5 < hi and lo == pytest.approx(1 - hi)
    with pytest.raises(ValueError):
        wilson(11, 10)


def test_p95_and_seat_score() -> None:
    assert bench_ai.p95([]) is None
    assert bench_ai.p95([float(i) for i in range(1, 101)]) == 95.0
    assert bench_ai.p95([3.0]) == 3.0
    win, loss, draw = (SeatResult(r, "") for r in (Result.WIN, Result.LOSS, Result.DRAW))
    assert seat_score(Outcome((win, loss), "w"), 0) == 1.0
    assert seat_score(Outcome((win, loss), "w"), 1) == 0.0
    assert seat_score(Outcome((draw, draw), "d"), 1) == 0.5
    four = Outcome((loss, win, loss, loss), "p2", ranks=(3, 1, 2, 4))
    assert [seat_score(four, s) for s in range(4)] == [0.0, 1.0, 0.0, 0.0]
    shared = Outcome((win, win, loss, loss), "tie", ranks=(1, 1, 3, 4))
    assert [seat_score(shared, s) for s in range(4)] == [0.5, 0.5, 0.0, 0.0]


# ------------------------------------------------------------------ the runner
def test_tasks_alternate_seats_and_seed_each_game() -> None:
    tasks = tasks_for("magic-duel", {"vs_random": 8, "hard_vs_easy": 4, "vs_heuristic": 4})
    table = [t for t in tasks if t.matchup == "vs_random"]
    assert [t.seat for t in table] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert all(len(t.kinds) == 4 and t.kinds[t.seat] == "ai:normal" and t.kinds.count("random") == 3 for t in table)
    duel = [t for t in tasks if t.matchup == "hard_vs_easy"]
    assert [t.kinds[t.seat] for t in duel] == ["ai:hard"] * 4 and [t.seat for t in duel] == [0, 1, 0, 1]
    assert all(t.kinds[1 - t.seat] == "ai:easy" for t in duel)
    assert len({t.seed for t in tasks}) == len(tasks)
    two = tasks_for("firewall", {"vs_random": 2, "hard_vs_easy": 0, "vs_heuristic": 2})
    assert [t.kinds for t in two] == [
        ("ai:normal", "random"),
        ("random", "ai:normal"),
        ("ai:normal", "heuristic"),
        ("heuristic", "ai:normal"),
    ]


@pytest.mark.slow
def test_runner_with_the_heuristic_standing_in_for_the_ai() -> None:
    """The whole runner (tasks, pool of 2, summing up) with the heuristic at every AI seat: every
    key, sensible figures. Hard vs easy and vs heuristic are then a heuristic mirror."""
    games = {"vs_random": 4, "hard_vs_easy": 2, "vs_heuristic": 2}
    results = run(["wizards-cup", "magic-duel"], games, workers=2, stand_in="heuristic")
    assert set(results) == {"wizards-cup", "magic-duel"}
    for slug, row in results.items():
        assert set(row) >= ROW_KEYS, slug
        assert row["games"] == 8
        assert row["games_vs_random"] == 4
        for key in ("win_rate_vs_random", "win_rate_vs_heuristic", "hard_vs_easy"):
            lo, hi = row[f"{key}_ci"]
            assert 0 <= lo <= row[key] <= hi <= 1
        assert row["decision_s_p95_normal"] > 0 and row["decision_s_p95_hard"] > 0
    assert results["magic-duel"]["random_baseline"] == 0.25
    json.dumps(results)  # JSON-ready


def test_run_task_times_ai_seats_by_level() -> None:
    task = Task("firewall", "hard_vs_easy", ("ai:hard", "ai:easy"), 0, 7, stand_in="heuristic")
    _, score, times, cpu, unfinished = run_task(task)
    assert unfinished is False
    assert score in (0.0, 0.5, 1.0)
    assert set(times) == {"hard", "easy"} and all(times.values())
    assert set(cpu) == set(times) and all(len(cpu[k]) == len(times[k]) for k in times)
    assert all(c >= 0 for ts in cpu.values() for c in ts)


def test_missing_ai_package_exits_2(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "rules.ai", None)  # import rules.ai now fails
    assert bench_ai.main(["--games", "1"], quick=True, json_path=None) == 2
    err = capsys.readouterr().err.strip()
    assert "rules.ai" in err and len(err.splitlines()) == 1


def _cli(tmp_path: Path, *args: str, old: bool = True) -> tuple[str, dict[str, Any]]:
    out = tmp_path / "ai.json"
    proc = subprocess.run(
        [sys.executable, "-m", "bench", "ai", "--quick", *args, "--json", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=850,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    if old:
        assert "vs random" in proc.stdout and "hard vs easy" in proc.stdout
    data: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return proc.stdout, data


def _check_rows(data: dict[str, Any], slugs: list[str], games: int) -> None:
    assert set(data) == set(slugs)
    for slug, row in data.items():
        assert set(row) >= ROW_KEYS, slug
        assert row["games"] == games
        for key in ("win_rate_vs_random", "win_rate_vs_heuristic", "hard_vs_easy"):
            lo, hi = row[f"{key}_ci"]
            assert 0 <= lo <= row[key] <= hi <= 1
        assert row["decision_s_p95_normal"] > 0 and row["decision_s_p95_hard"] > 0


@pytest.mark.slow
def test_bench_ai_cli_json_has_every_key(tmp_path: Path) -> None:
    """``python -m bench ai --quick`` with the real AI (rules.ai), issue 16's matchups, one game
    each: the table and every JSON key. Wizards Cup only: the AI's games take seconds each."""
    old = "--matchups", "vs_random,hard_vs_easy,vs_heuristic"
    stdout, data = _cli(tmp_path, "--games", "1", *old, "--only", "wizards-cup", "--workers", "2")
    assert "stand-in" not in stdout
    _check_rows(data, ["wizards-cup"], 3)


@pytest.mark.slow
def test_bench_ai_cli_every_game_with_the_stand_in(tmp_path: Path) -> None:
    """The same command over all four games, the heuristic standing in for the AI (says so)."""
    old = "--matchups", "vs_random", "hard_vs_easy", "vs_heuristic"
    stdout, data = _cli(tmp_path, "--games", "2", *old, "--stand-in", "heuristic", "--workers", "1")
    assert "stand-in" in stdout
    _check_rows(data, SLUGS, 6)


def test_firewall_heuristic_does_not_peek() -> None:
    """Two Firewall states that look the same from seat 0 (the opponent's stock, hence hand,
    shuffled differently): the heuristic plays the same for seat 0 with the same rng."""
    from rules.firewall.actions import Shuffle
    from rules.registry import get_game

    mine = tuple(range(1, 15))
    states = []
    for theirs in (tuple(range(14, 0, -1)), (7, 3, 6, 9, 12, 1, 8, 2, 4, 5, 10, 11, 13, 14)):
        state = get_game("firewall")().new_state()
        state.apply("chance", Shuffle(seat=0, order=mine))
        state.apply("chance", Shuffle(seat=1, order=theirs))
        states.append(state)
    a, b = states
    assert a.view(0) == b.view(0) and a.view(1) != b.view(1)
    h = heuristic_player("firewall")
    for seed in range(5):
        assert h(a, 0, random.Random(seed)) == h(b, 0, random.Random(seed))


@pytest.mark.slow
def test_games_per_matchup_and_a_subset_of_matchups(tmp_path: Path) -> None:
    """``--games R/H/E`` sets each matchup's games; ``--matchups`` plays only those named (the
    others show no figure); a bad count is refused by argparse."""
    assert bench_ai._games_arg("5") == {
        "vs_random": 5,
        "hard_vs_easy": 5,
        "vs_heuristic": 5,
        "vs_pool": 5,
        "table": 5,
    }
    assert bench_ai._games_arg("4/2/3") == {"vs_random": 4, "hard_vs_easy": 2, "vs_heuristic": 3}
    for bad in ("0", "1/2", "x", "1/2/3/4"):
        with pytest.raises(argparse.ArgumentTypeError):
            bench_ai._games_arg(bad)
    stdout, data = _cli(
        tmp_path,
        "--games",
        "3/1/2",
        "--matchups",
        "vs_random",
        "--stand-in",
        "heuristic",
        "--only",
        "firewall",
        old=False,
    )
    row = data["firewall"]
    assert row["games_vs_random"] == 3 and row["games"] == 3
    assert "hard_vs_easy" not in row and "win_rate_vs_heuristic" not in row and "vs_pool" not in row
    assert "vs_random 3;" in stdout and "hard_vs_easy" not in stdout


def test_merge_joins_runs_made_game_by_game(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    rows: dict[str, Any] = {}
    for i, slug in enumerate(("firewall", "wizards-cup")):
        row: dict[str, Any] = {"games": 30, "random_baseline": 0.5}
        for key in ("win_rate_vs_random", "win_rate_vs_heuristic", "hard_vs_easy"):
            row[key], row[f"{key}_ci"] = 0.9 - i / 10, [0.7, 0.97]
        for key in ("decision_s_p95_normal", "decision_s_p95_hard"):
            row[key] = row[key.replace("_s_", "_wall_s_")] = 0.25 * (i + 1)
        row["targets_met"] = bench_ai._targets(slug, row)
        (tmp_path / f"{slug}.json").write_text(json.dumps({slug: row}))
        rows[slug] = row
    out = tmp_path / "all.json"
    paths = [str(tmp_path / "firewall.json"), str(tmp_path / "wizards-cup.json")]
    assert bench_ai.main(["--merge", *paths], quick=False, json_path=str(out)) == 0
    merged = json.loads(out.read_text())
    assert merged == rows
    assert "firewall" in capsys.readouterr().out
    # the same game twice is refused: the rows cannot be told apart
    assert bench_ai.main(["--merge", paths[0], paths[0]], quick=False, json_path=None) == 2
    assert "more than one file" in capsys.readouterr().err


@pytest.mark.slow
def test_log_lets_a_stopped_run_go_on_where_it_stopped(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--log``: every finished game is appended; a second run reads those back instead of
    playing them (the same figures), and plays only the games missing; lines written by other
    code or cut short are not used."""
    games = {"vs_random": 2, "hard_vs_easy": 1, "vs_heuristic": 1}
    log = tmp_path / "games.jsonl"
    first = run(["firewall"], games, stand_in="heuristic", log_path=str(log))
    lines = log.read_text().splitlines()
    assert len(lines) == 4
    played: list[Task] = []
    real_run_task = bench_ai.run_task

    def counting(task: Task) -> Any:
        played.append(task)
        return real_run_task(task)

    monkeypatch.setattr(bench_ai, "run_task", counting)
    again = run(["firewall"], games, stand_in="heuristic", log_path=str(log))
    assert played == [] and again["firewall"]["games"] == first["firewall"]["games"] == 4
    for key in ("win_rate_vs_random", "hard_vs_easy", "win_rate_vs_heuristic", "decision_s_p95_hard"):
        assert again["firewall"][key] == first["firewall"][key]
    # one more game per matchup: only those are played; a foreign and a cut line are skipped
    other = json.loads(lines[0]) | {"code": "other code"}
    log.write_text("\n".join([json.dumps(other), *lines[1:], '{"cut']) + "\n")
    more = run(
        ["firewall"], {"vs_random": 3, "hard_vs_easy": 1, "vs_heuristic": 1}, stand_in="heuristic", log_path=str(log)
    )
    assert sorted((t.matchup, t.seed) for t in played) == [("vs_random", 0), ("vs_random", 2)]
    assert more["firewall"]["games"] == 5
    assert len([line for line in log.read_text().splitlines() if '"other code"' not in line and "cut" not in line]) == 5


@pytest.mark.slow
def test_progress_of_a_resumed_run_counts_the_games_read_back(tmp_path: Path) -> None:
    """A resumed run's progress counts every game of the run, read back or played (it printed
    "600/361 games" when 239 of 600 were read back)."""
    log = tmp_path / "games.jsonl"
    run(
        ["wizards-cup"],
        {"vs_random": 25, "hard_vs_easy": 0, "vs_heuristic": 0},
        stand_in="heuristic",
        log_path=str(log),
    )
    said: list[str] = []
    run(
        ["wizards-cup"],
        {"vs_random": 50, "hard_vs_easy": 0, "vs_heuristic": 0},
        stand_in="heuristic",
        log_path=str(log),
        progress=said.append,
    )
    assert said == [f"25 of 50 games read from {log}", "50/50 games"]


def test_the_log_s_code_digest_follows_the_code_each_game_plays(tmp_path: Path) -> None:
    """A game's logged results stand while only another game's tuning changes (tuning Magic Duel
    does not void Wizards Cup's games); they are void when the shared search, the game's own
    tuning or rules, the shared rules core or the runner change."""
    root = Path(__file__).resolve().parents[2]
    for sub in ("rules", "bench"):
        subprocess.run(
            ["cp", "-r", str(root / sub), str(tmp_path / sub)], check=True
        )  # the tree as committed (no .pyc differences matter: only *.py and *.json are read)
    before = {s: code_fingerprint([s], tmp_path) for s in ("wizards-cup", "magic-duel")}
    assert before["wizards-cup"] == code_fingerprint(["wizards-cup"])  # the same code: the same digest

    def touch(rel: str) -> dict[str, str]:
        with open(tmp_path / rel, "a") as f:
            f.write("\n# changed\n")
        return {s: code_fingerprint([s], tmp_path) for s in ("wizards-cup", "magic-duel")}

    after = touch("rules/ai/magic_duel.py")
    assert after["wizards-cup"] == before["wizards-cup"] and after["magic-duel"] != before["magic-duel"]
    for rel in (
        "rules/ai/ismcts.py",
        "rules/wizards_cup/game.py",
        "rules/core.py",
        "bench/ai_log.py",
        "bench/ai_play.py",
        "bench/pool/__init__.py",
    ):
        now = touch(rel)
        assert now["wizards-cup"] != after["wizards-cup"], rel
        after = now
    # a game's pool players (and their helpers) count for that game only; the runner's summing up
    # and tables for none
    for rel, changed in (
        ("bench/pool/magic_duel.py", {"magic-duel"}),
        ("bench/pool/magic_duel_cards.py", {"magic-duel"}),
        ("bench/pool/wizards_cup.py", {"wizards-cup"}),
        ("bench/ai_summary.py", set()),
        ("bench/ladder.py", set()),
        ("bench/ai_tasks.py", set()),
        # a game's AI modules and tables, and its rules' data, count for that game only
        ("rules/ai/wizards_cup_model.py", {"wizards-cup"}),
        ("rules/ai/magic_duel.py", {"magic-duel"}),
        ("rules/ai/arena_disciplines.json", set()),
        ("rules/ai/firewall_values.json", set()),
    ):
        now = touch(rel)
        assert {s for s in now if now[s] != after[s]} == changed, rel
        after = now
    arena = {s: code_fingerprint([s], tmp_path) for s in ("arena", "firewall")}
    for rel, changed in (
        ("rules/ai/arena_disciplines.json", {"arena"}),  # a regenerated table changes the games
        ("rules/ai/arena_portfolio.py", {"arena"}),
        ("rules/arena/arena_data.json", {"arena"}),
        ("rules/ai/firewall_values.json", {"firewall"}),
    ):
        with open(tmp_path / rel, "a") as f:
            f.write("\n")
        now = {s: code_fingerprint([s], tmp_path) for s in ("arena", "firewall")}
        assert {s for s in now if now[s] != arena[s]} == changed, rel
        arena = now


@pytest.mark.slow
def test_a_game_without_end_is_stopped_and_counted_unfinished() -> None:
    """A game not over after ``max_steps`` actions is stopped, scored as a draw (at a table, the
    random baseline) and counted; the run goes on."""
    played = play("wizards-cup", [random_player, random_player], 3, max_steps=5)
    assert played.unfinished and played.scores == [0.5, 0.5] and played.steps == 5
    table = play("magic-duel", [random_player] * 4, 3, max_steps=5)
    assert table.unfinished and table.scores == [0.25] * 4
    assert not play("wizards-cup", [random_player, random_player], 3).unfinished
    results = run(["firewall"], {"vs_random": 1, "hard_vs_easy": 1, "vs_heuristic": 1}, stand_in="heuristic")
    assert results["firewall"]["unfinished"] == 0
