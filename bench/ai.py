"""``python -m bench ai``: how strong and how fast the AI players are (issue 16).

For each game, seeded games are played to the end through ``State`` (chance drawn with the game's
seeded rng), in a process pool (``--workers``), one task per game. Matchups:

- ``vs_random``: AI normal against uniformly random players. Two-player games (Wizards Cup,
  Firewall, Arena): one random opponent, the AI's seat alternated. Magic Duel: a 4-player table,
  the AI against three random players, its seat rotating (a win is placing first; random
  baseline 25%);
- ``hard_vs_easy``: AI hard against AI easy, seats alternated (Magic Duel: 2 players);
- ``vs_heuristic``: AI normal against the game's rule-based heuristic (``bench.heuristics``),
  seats alternated (Magic Duel: 2 players).

A game scores 1 for a win, 1/2 for a draw (in Magic Duel: first place shared), 0 otherwise; each
win rate has a 95% Wilson interval. Every AI decision is timed (``decision_s_p95_normal`` from the
games at normal, ``decision_s_p95_hard`` from the hard seat). Issue 16's targets: vs random ≥ 90%
(Magic Duel ≥ 60%), hard vs easy ≥ 60%, vs heuristic ≥ 60%, p95 ≤ 1 s (normal) and ≤ 3 s (hard).
A decision is timed twice: in CPU seconds of the process that plays the game
(``time.process_time``: what the decision takes on a core of its own, the figure the targets are
checked on, since a game runs in one single-threaded process) and in wall-clock seconds
(``decision_wall_s_p95_*``), which grow with whatever else shares this machine's two CPUs (the
table shows both). ``--merge A.json B.json ...`` prints and writes (``--json``) the rows of runs
made game by game (``--only``) as one result. ``--log FILE`` appends every finished game to FILE
(JSON lines) and reads back the games already there, played by the same code (a digest of the AI,
the games' rules, the heuristics and this runner), so a long run stopped halfway goes on where it
stopped.

``--quick`` plays one game per matchup and game (the figures are then only a smoke check: their
intervals are wide, and the table says so); ``--games N`` sets the games per matchup, ``--only``
the games. An Arena game with the AI makes over a hundred decisions, so it is the slow one:
``--quick`` plays it on an 8x8 board with 4 terrain pieces, and Magic Duel to 1 point
(``QUICK_OPTIONS``).

The AI is ``rules.ai`` (imported when the benchmark runs; if it is missing the benchmark says so
and exits 2). ``--stand-in heuristic`` plays the heuristic in place of every AI seat (at every
level): it checks the runner itself, not the AI. JSON (``--json FILE``)::

    {"<slug>": {"win_rate_vs_random": ..., "win_rate_vs_random_ci": [lo, hi],
                "win_rate_vs_heuristic": ..., "win_rate_vs_heuristic_ci": [lo, hi],
                "hard_vs_easy": ..., "hard_vs_easy_ci": [lo, hi],
                "decision_s_p95_normal": ..., "decision_s_p95_hard": ...,
                "games": total games, "games_vs_random": ..., "games_vs_heuristic": ...,
                "games_hard_vs_easy": ..., "random_baseline": 0.5 or 0.25, "targets_met": {...}}}
"""

from __future__ import annotations

import argparse
import importlib
import math
import multiprocessing
import os
import random
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.actions import ActionModel
from rules.core import CHANCE, State
from rules.events import Outcome, Result

from .ai_log import GameLog
from .heuristics import heuristic_player, random_player
from .report import table, write_json

Player = Callable[[State, int, random.Random], ActionModel]

SLUGS = ["wizards-cup", "firewall", "magic-duel", "arena"]
#: Seats of the vs-random table (the other matchups are played by two).
TABLE_SEATS = {"magic-duel": 4}
MATCHUPS = ("vs_random", "hard_vs_easy", "vs_heuristic")
#: Games per matchup and game: full run, --quick.
FULL_GAMES = {"vs_random": 400, "hard_vs_easy": 200, "vs_heuristic": 200}
QUICK_GAMES = 1
#: ``--quick`` plays Arena on a small board (as ``bench traffic --quick`` does) and Magic Duel to
#: 1 point (one or two hands instead of three or more), so the whole smoke check takes under a
#: minute; the full run plays the default options.
QUICK_OPTIONS: dict[str, dict[str, Any]] = {
    "arena": {"grid_size": 8, "terrain_count": 4},
    "magic-duel": {"points_to_win": 1},
}
#: A game not over after this many actions (every game here ends far sooner) is stopped and
#: counted as *unfinished*: a draw in the win rate (1/2; at a table, the random baseline), and
#: reported (``unfinished``), e.g. two players who tie a Magic Duel trick again and again.
MAX_STEPS = 20_000
TARGETS = {"vs_random": 0.9, "vs_random_table": 0.6, "hard_vs_easy": 0.6, "vs_heuristic": 0.6}
#: The games whose AI decisions are timed, by level: normal from its matchups, hard against easy.
TIMED = {("vs_random", "normal"), ("vs_heuristic", "normal"), ("hard_vs_easy", "hard")}
P95_LIMIT = {"normal": 1.0, "hard": 3.0}


class AIMissing(Exception):
    """``rules.ai`` cannot be imported."""


def load_ai() -> Any:
    """The ``rules.ai`` module (raises AIMissing if it does not exist yet)."""
    try:
        return importlib.import_module("rules.ai")
    except ModuleNotFoundError as exc:
        if exc.name in ("rules.ai", "rules"):
            raise AIMissing("rules.ai is not there yet: the AI benchmark needs the AI package") from None
        raise


# ------------------------------------------------------------------ statistics
def wilson(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a proportion ``successes / n``;
    (0, 1) when ``n`` is 0. Fractional successes (draws counted half) are allowed."""
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= n:
        raise ValueError(f"successes {successes} out of 0..{n}")
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    lo = 0.0 if successes == 0 else max(0.0, centre - half)  # exact at the ends (no rounding)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return (lo, hi)


def p95(values: Sequence[float]) -> float | None:
    """The 95th percentile (nearest rank) of ``values``; None if empty."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(0.95 * len(ordered)))
    return ordered[rank - 1]


def seat_score(outcome: Outcome, seat: int) -> float:
    """1 for a win (alone in first place), 1/2 for a draw or a shared first place, else 0."""
    if len(outcome.seats) == 2:
        result = outcome.seats[seat].result
        return 1.0 if result is Result.WIN else 0.5 if result is Result.DRAW else 0.0
    if outcome.ranks[seat] != 1:
        return 0.0
    return 1.0 if outcome.ranks.count(1) == 1 else 0.5


# ------------------------------------------------------------------ playing
@dataclass
class Played:
    """One finished game: every seat's score and each seat's decision times (s)."""

    scores: list[float]
    times: list[list[float]] = field(default_factory=list)
    steps: int = 0
    #: each seat's decision times in CPU seconds of this process (see :func:`play`)
    cpu_times: list[list[float]] = field(default_factory=list)
    #: stopped after ``max_steps`` actions (see :data:`MAX_STEPS`)
    unfinished: bool = False


def play(
    slug: str,
    players: Sequence[Player],
    seed: int,
    options: Mapping[str, Any] | None = None,
    max_steps: int = MAX_STEPS,
) -> Played:
    """Play one game of ``slug`` to the end, seat ``i`` played by ``players[i]``.

    Chance is drawn from ``random.Random(seed)``; each seat has its own rng (from ``seed``).
    When several seats pick at once (secret simultaneous choices), every one of them decides on
    the same state before any pick is applied."""
    from rules import Match

    n = len(players)
    state = Match.new(slug, seed=seed, seats=[f"P{i + 1}" for i in range(n)], options=dict(options or {})).state
    chance = random.Random(seed)
    rngs = [random.Random(seed * 1009 + 17 * (i + 1)) for i in range(n)]
    times: list[list[float]] = [[] for _ in range(n)]
    cpu_times: list[list[float]] = [[] for _ in range(n)]
    steps = 0
    while True:
        aw = state.awaiting
        if aw.is_terminal:
            break
        if steps >= max_steps:
            return Played([1 / n] * n, times, steps, cpu_times, unfinished=True)
        if aw.is_chance:
            state.apply(CHANCE, state.sample_action(CHANCE, chance))
            steps += 1
            continue
        picks: list[tuple[int, ActionModel]] = []
        for seat in sorted(aw.seats):
            t0, c0 = time.perf_counter(), time.process_time()
            action = players[seat](state, seat, rngs[seat])
            times[seat].append(time.perf_counter() - t0)
            cpu_times[seat].append(time.process_time() - c0)
            picks.append((seat, action))
        for seat, action in picks:
            state.apply(seat, action)  # checked: an illegal choice raises
            steps += 1
    outcome = state.outcome
    assert outcome is not None
    return Played([seat_score(outcome, s) for s in range(n)], times, steps, cpu_times)


def resolve(kind: str, slug: str, stand_in: str | None) -> Player:
    """The player named ``kind``: "random", "heuristic" or "ai:<level>"."""
    if kind == "random":
        return random_player
    if kind == "heuristic":
        return heuristic_player(slug)
    if kind.startswith("ai:"):
        if stand_in == "heuristic":
            return heuristic_player(slug)
        if stand_in == "random":
            return random_player
        player: Player = load_ai().ai_player(kind[3:])
        return player
    raise ValueError(f"unknown player {kind!r}")


@dataclass(frozen=True)
class Task:
    """One game to play: the players by kind, the seat measured, the seed."""

    slug: str
    matchup: str
    kinds: tuple[str, ...]
    seat: int  # the seat whose score is the matchup's (the AI normal / AI hard seat)
    seed: int
    stand_in: str | None = None
    options: tuple[tuple[str, Any], ...] = ()  # the game's options (``--quick``: a smaller Arena)


#: one game's result: the task, the measured seat's score, AI decision times by level (wall, CPU
#: seconds), stopped unfinished
GameResult = tuple[Task, float, dict[str, list[float]], dict[str, list[float]], bool]


def run_task(task: Task) -> GameResult:
    """Play ``task``: the measured seat's score and the AI decision times by level, in wall-clock
    seconds and in CPU seconds of the process that played it, and whether it was stopped
    unfinished (:data:`MAX_STEPS`)."""
    players = [resolve(k, task.slug, task.stand_in) for k in task.kinds]
    played = play(task.slug, players, task.seed, dict(task.options))
    wall: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    for seat, kind in enumerate(task.kinds):
        if kind.startswith("ai:"):
            wall.setdefault(kind[3:], []).extend(played.times[seat])
            cpu.setdefault(kind[3:], []).extend(played.cpu_times[seat])
    return task, played.scores[task.seat], wall, cpu, played.unfinished


def tasks_for(
    slug: str,
    games: dict[str, int],
    seed0: int = 0,
    stand_in: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> list[Task]:
    """Every game of every matchup of ``slug``, each with its own seed, seats alternated."""
    out: list[Task] = []
    for m_index, matchup in enumerate(MATCHUPS):
        n = games[matchup]
        for g in range(n):
            seed = seed0 + 1_000_000 * m_index + g
            if matchup == "vs_random":
                seats = TABLE_SEATS.get(slug, 2)
                seat = g % seats
                kinds = tuple("ai:normal" if s == seat else "random" for s in range(seats))
            elif matchup == "hard_vs_easy":
                seat = g % 2
                kinds = ("ai:hard", "ai:easy") if seat == 0 else ("ai:easy", "ai:hard")
            else:
                seat = g % 2
                kinds = ("ai:normal", "heuristic") if seat == 0 else ("heuristic", "ai:normal")
            out.append(Task(slug, matchup, kinds, seat, seed, stand_in, tuple(sorted((options or {}).items()))))
    return out


def run(
    slugs: Iterable[str],
    games: dict[str, int],
    *,
    workers: int = 1,
    seed0: int = 0,
    stand_in: str | None = None,
    progress: Callable[[str], None] | None = None,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    log_path: str | None = None,
) -> dict[str, dict[str, Any]]:
    """Play every task (in a pool of ``workers`` processes when more than 1) and sum up per game.
    ``log_path``: each finished game is appended to this JSON-lines file, and the games already
    there (played by the same code, :func:`code_fingerprint`) are read back instead of played."""
    slugs = list(slugs)
    tasks = [t for slug in slugs for t in tasks_for(slug, games, seed0, stand_in, (options or {}).get(slug))]
    log = GameLog(log_path, slugs) if log_path else None
    done_before: list[GameResult] = []
    if log is not None:
        done_before, tasks = log.known(tasks)
    total = len(done_before) + len(tasks)  # the progress counts the games read back too
    if log is not None and progress:
        progress(f"{len(done_before)} of {total} games read from {log_path}")
    scores: dict[tuple[str, str], list[float]] = {}
    times: dict[tuple[str, str], list[float]] = {}
    cpu_times: dict[tuple[str, str], list[float]] = {}
    results: Iterable[GameResult]
    unfinished: dict[str, int] = {}
    pool = None
    if workers > 1 and len(tasks) > 1:
        pool = multiprocessing.get_context("spawn").Pool(workers)
        results = pool.imap_unordered(run_task, tasks)
    else:
        results = map(run_task, tasks)
    if log is not None:
        results = log.recorded(done_before, results)
    try:
        for done, (task, score, by_level, cpu_by_level, stopped) in enumerate(results, 1):
            scores.setdefault((task.slug, task.matchup), []).append(score)
            unfinished[task.slug] = unfinished.get(task.slug, 0) + stopped
            for level, ts in by_level.items():
                if (task.matchup, level) in TIMED:
                    times.setdefault((task.slug, level), []).extend(ts)
                    cpu_times.setdefault((task.slug, level), []).extend(cpu_by_level[level])
            if progress and done % 50 == 0:
                progress(f"{done}/{total} games")
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    out: dict[str, dict[str, Any]] = {}
    for slug in slugs:
        row: dict[str, Any] = {}
        total = 0
        for matchup, key in (
            ("vs_random", "win_rate_vs_random"),
            ("vs_heuristic", "win_rate_vs_heuristic"),
            ("hard_vs_easy", "hard_vs_easy"),
        ):
            s = scores.get((slug, matchup), [])
            n = len(s)
            total += n
            row[key] = sum(s) / n if n else None
            row[f"{key}_ci"] = list(wilson(sum(s), n)) if n else None
            row[f"games_{matchup}"] = n
        row["decision_s_p95_normal"] = p95(cpu_times.get((slug, "normal"), []))
        row["decision_s_p95_hard"] = p95(cpu_times.get((slug, "hard"), []))
        row["decision_wall_s_p95_normal"] = p95(times.get((slug, "normal"), []))
        row["decision_wall_s_p95_hard"] = p95(times.get((slug, "hard"), []))
        row["decisions_normal"] = len(times.get((slug, "normal"), []))
        row["decisions_hard"] = len(times.get((slug, "hard"), []))
        row["games"] = total
        row["unfinished"] = unfinished.get(slug, 0)
        row["random_baseline"] = 1 / TABLE_SEATS.get(slug, 2)
        row["targets_met"] = _targets(slug, row)
        out[slug] = row
    return out


def _targets(slug: str, row: dict[str, Any]) -> dict[str, bool | None]:
    def at_least(value: float | None, target: float) -> bool | None:
        return None if value is None else value >= target

    def at_most(value: float | None, limit: float) -> bool | None:
        return None if value is None else value <= limit

    vs_random = TARGETS["vs_random_table" if slug in TABLE_SEATS else "vs_random"]
    return {
        "win_rate_vs_random": at_least(row["win_rate_vs_random"], vs_random),
        "win_rate_vs_heuristic": at_least(row["win_rate_vs_heuristic"], TARGETS["vs_heuristic"]),
        "hard_vs_easy": at_least(row["hard_vs_easy"], TARGETS["hard_vs_easy"]),
        "decision_s_p95_normal": at_most(row["decision_s_p95_normal"], P95_LIMIT["normal"]),
        "decision_s_p95_hard": at_most(row["decision_s_p95_hard"], P95_LIMIT["hard"]),
    }


def _rate(row: dict[str, Any], key: str) -> str:
    value, ci = row[key], row[f"{key}_ci"]
    if value is None:
        return "-"
    return f"{100 * value:.0f}% [{100 * ci[0]:.0f}-{100 * ci[1]:.0f}]"


def _secs(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def render(results: dict[str, dict[str, Any]]) -> str:
    rows = [
        [
            slug,
            _rate(r, "win_rate_vs_random"),
            f"{100 * r['random_baseline']:.0f}%",
            _rate(r, "hard_vs_easy"),
            _rate(r, "win_rate_vs_heuristic"),
            f"{_secs(r['decision_s_p95_normal'])} / {_secs(r.get('decision_wall_s_p95_normal'))}",
            f"{_secs(r['decision_s_p95_hard'])} / {_secs(r.get('decision_wall_s_p95_hard'))}",
            f"{r['games']} ({r['unfinished']} unfinished)" if r.get("unfinished") else r["games"],
            "yes" if all(v for v in r["targets_met"].values()) else "no",
        ]
        for slug, r in results.items()
    ]
    return table(
        [
            "game",
            "vs random",
            "baseline",
            "hard vs easy",
            "vs heuristic",
            "p95 normal s cpu / wall",
            "p95 hard s cpu / wall",
            "games",
            "targets",
        ],
        rows,
    )


def merge(paths: Sequence[str], json_path: str | None) -> int:
    """``--merge``: the rows of several runs' JSON files (each game in one file only) as one result."""
    import json

    results: dict[str, dict[str, Any]] = {}
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                rows = json.load(f)
        except (OSError, ValueError) as exc:
            print(f"bench ai: cannot read {path}: {exc}", file=sys.stderr)
            return 2
        for slug, row in rows.items():
            if slug in results:
                print(f"bench ai: {slug} is in more than one file ({path})", file=sys.stderr)
                return 2
            results[slug] = row
    print(f"AI strength and speed, merged from {len(paths)} runs; win rates with 95% Wilson intervals, draws half")
    print(render(results))
    write_json(json_path, results)
    return 0


def _games_arg(text: str) -> dict[str, int]:
    """``--games``: ``N`` (every matchup) or ``R/H/E`` (vs random / hard vs easy / vs heuristic)."""
    try:
        counts = [int(part) for part in text.split("/")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not N or R/H/E (whole numbers)") from None
    if len(counts) == 1:
        counts *= 3
    if len(counts) != 3 or min(counts) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: give N or R/H/E, each at least 1")
    return dict(zip(("vs_random", "hard_vs_easy", "vs_heuristic"), counts, strict=True))


def main(argv: list[str], *, quick: bool, json_path: str | None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench ai")
    parser.add_argument(
        "--games",
        type=_games_arg,
        default=None,
        help="games per matchup and game: N for each, or R/H/E for vs random / hard vs easy / vs heuristic"
        " (default 400/200/200)",
    )
    parser.add_argument(
        "--matchups", nargs="*", default=list(MATCHUPS), choices=MATCHUPS, help="matchups to play (default: all)"
    )
    parser.add_argument("--only", nargs="*", default=SLUGS, choices=SLUGS, help="games to measure")
    parser.add_argument("--workers", type=int, default=None, help="processes (default: CPU count)")
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument(
        "--stand-in",
        choices=["heuristic", "random"],
        default=None,
        help="play this instead of every AI seat (checks the runner, not the AI)",
    )
    parser.add_argument(
        "--log",
        dest="resume_log",
        metavar="FILE",
        default=None,
        help="append each finished game to FILE (JSON lines) and read back the games already there",
    )
    parser.add_argument(
        "--merge", nargs="+", metavar="JSON", default=None, help="print and write the rows of earlier runs as one"
    )
    args = parser.parse_args(argv)
    if args.merge:
        return merge(args.merge, json_path)
    if args.stand_in is None:
        try:
            load_ai()
        except AIMissing as exc:
            print(f"bench ai: {exc}", file=sys.stderr)
            return 2
    if args.games is not None:
        games = dict(args.games)
    elif quick:
        games = dict.fromkeys(MATCHUPS, QUICK_GAMES)
    else:
        games = dict(FULL_GAMES)
    for matchup in MATCHUPS:
        if matchup not in args.matchups:
            games[matchup] = 0
    workers = args.workers if args.workers is not None else (os.cpu_count() or 1)
    started = time.perf_counter()
    results = run(
        args.only,
        games,
        workers=max(1, workers),
        seed0=args.seed,
        stand_in=args.stand_in,
        progress=lambda text: print(text, file=sys.stderr),
        options=QUICK_OPTIONS if quick else None,
        log_path=args.resume_log,
    )
    elapsed = time.perf_counter() - started
    few = " (--quick: a few games only, the intervals are wide)" if quick and args.games is None else ""
    if quick:
        few += "; Arena on an 8x8 board with 4 terrain pieces, Magic Duel to 1 point"
    who = f"; AI seats played by the {args.stand_in} stand-in, not the AI" if args.stand_in else ""
    print(
        f"AI strength and speed: games per matchup {games['vs_random']}/{games['hard_vs_easy']}/"
        f"{games['vs_heuristic']} (vs random / hard vs easy / vs heuristic){few}{who}; "
        f"win rates with 95% Wilson intervals, draws half; {elapsed:.0f} s"
    )
    print(render(results))
    write_json(json_path, results)
    return 0
