"""``python -m bench ai``: how strong and how fast the AI players are (issues 16 and 32).

For each game, seeded games are played to the end through ``State`` (chance drawn with the game's
seeded rng), in a process pool (``--workers``), one task per game. The default measurement is
issue 32's, against the opponent pool (``bench.pool``: rule-based players of different styles,
split into the half the AI may be tuned on, ``tune``, and the ``holdout`` half):

- ``vs_pool``: AI normal against every pool player, and AI hard against every one, two players,
  seats alternated (each deal played twice, seats swapped); Magic Duel too, two players. Targets
  (issue 32): normal wins at least 65 % against every pool player, hard at least 80 %;
- ``table`` (Magic Duel): AI normal with three pool players at a 4-player table, the three
  rotating through every set of three of the pool and the AI through the seats; target at least
  35 % first places (fair share 25 %);
- ``ladder``: a round robin per game of random, the AI's levels (easy, normal, hard) and every pool
  player, two players, seats alternated, ``--ladder-games`` per pair (pairs already played in
  ``vs_pool`` count those games, so none is replayed), fitted to Bradley-Terry ratings
  (:mod:`bench.ladder`: Elo scale, random = 0, a light prior so an unbeaten player stays finite,
  95 % intervals from the Hessian of the log-posterior).

Issue 16's matchups are still there (``--matchups vs_random hard_vs_easy vs_heuristic``):
``vs_random`` (normal against random; Magic Duel a 4-player table, baseline 25 %),
``hard_vs_easy`` and ``vs_heuristic`` (``bench.heuristics``); targets 90 % (Magic Duel's table
60 %), 60 % and 60 %. A game whose pool module is not there yet plays the rest, and says so.

A game scores 1 for a win, 1/2 for a draw (in Magic Duel: first place shared), 0 otherwise; each
win rate has a 95 % Wilson interval. Every decision of AI normal and AI hard is timed, in CPU
seconds of the process that plays the game (``time.process_time``: what the decision takes on a
core of its own, the figure the targets are read on, p95 at most 1 s normal and 3 s hard) and in
wall-clock seconds (``decision_wall_s_p95_*``, which grow with whatever else shares the machine).

``--merge A.json B.json ...`` prints and writes (``--json``) the rows of runs made game by game
(``--only``) as one result. ``--log FILE`` appends every finished game to FILE (JSON lines) and
reads back the games already there, played by the same code (a digest of the AI, the games'
rules, the heuristics, the pool players and the player code, :mod:`bench.ai_log`), so a long run
stopped halfway goes on where it stopped.

``--quick`` is a smoke check in about a minute: one game per pairing, Arena on an 8x8 board with
4 terrain pieces and Magic Duel to 1 point (``QUICK_OPTIONS``), normal against the first pool
player and hard against the last (a tune and a holdout player) only, and a ladder whose new
games leave the AI out (the intervals are wide, and the table says so). ``--games N`` sets the
games per pairing (or ``R/H/E`` for issue 16's three), ``--ladder-games M`` the ladder's,
``--only`` the games, ``--matchups`` the matchups (by name or comma-separated).

The AI is ``rules.ai`` (imported when the benchmark runs; if it is missing the benchmark says so
and exits 2). ``--stand-in heuristic`` plays the heuristic in place of every AI seat (at every
level): it checks the runner itself, not the AI. JSON (``--json FILE``), per game (keys of
matchups not played are left out)::

    {"<slug>": {"vs_pool": {"<pool player>": {"normal": rate, "hard": rate, "games": n per pairing,
                                              "normal_ci": [lo, hi], "hard_ci": [lo, hi],
                                              "games_normal": n, "games_hard": n, "split": "tune",
                                              "style": "...", "targets_met": {"normal": .., "hard": ..}}},
                "vs_pool_by_split": {"tune" | "holdout": {"normal": rate, "normal_ci": [lo, hi],
                                                          "games_normal": n, "hard": .., ...}},
                "table_normal": {"rate": .., "ci": [lo, hi], "games": n, "baseline": 0.25},  # Magic Duel
                "ladder": {"<level, pool player or random>": {"rating": Elo, "ci": [lo, hi],
                                                              "games": n, "score": share}},
                "ladder_anchor": "random" ("mean" when random played no game),
                "pool_vs_random": {"<pool player>": {"rate": .., "ci": [lo, hi], "games": n}},  # from the ladder
                "decision_s_p95_normal": s, "decision_s_p95_hard": s,
                "decision_wall_s_p95_normal": s, "decision_wall_s_p95_hard": s,
                "win_rate_vs_random": .., "win_rate_vs_random_ci": [lo, hi], "games_vs_random": n,
                "win_rate_vs_heuristic": .., "hard_vs_easy": .., ... (issue 16's, when played),
                "games": total games, "unfinished": n, "random_baseline": 0.5 or 0.25,
                "pool_note": "why there is no pool" (only then), "targets_met": {...}}}
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from rules.registry import game_slugs

from . import ai_tasks
from .ai_log import GameLog
from .ai_play import (
    MAX_STEPS,
    AIMissing,
    GameResult,
    Played,
    Player,
    Task,
    load_ai,
    p95,
    play,
    resolve,
    run_task,
    seat_score,
    wilson,
)
from .ai_summary import P95_LIMIT, TARGETS, render, summarise, targets
from .ai_tasks import MATCHUPS, OLD_MATCHUPS, POOL_MATCHUPS, SLUGS, TABLE_SEATS, tasks_for
from .report import write_json

__all__ = [
    "MAX_STEPS",
    "MATCHUPS",
    "P95_LIMIT",
    "SLUGS",
    "TABLE_SEATS",
    "TARGETS",
    "AIMissing",
    "GameResult",
    "Played",
    "Player",
    "Task",
    "load_ai",
    "main",
    "merge",
    "p95",
    "play",
    "render",
    "resolve",
    "run",
    "run_task",
    "seat_score",
    "tasks_for",
    "wilson",
]

#: Games per pairing and matchup: full run (the ladder's: per pair), --quick.
FULL_GAMES = {"vs_random": 400, "hard_vs_easy": 200, "vs_heuristic": 200, "vs_pool": 100, "table": 100, "ladder": 20}
QUICK_GAMES = 1
#: ``--quick`` plays Arena on a small board (as ``bench traffic --quick`` does) and Magic Duel to
#: 1 point (one or two hands instead of three or more), so the whole smoke check takes under a
#: minute; the full run plays the default options.
QUICK_OPTIONS: dict[str, dict[str, Any]] = {
    "arena": {"grid_size": 8, "terrain_count": 4},
    "magic-duel": {"points_to_win": 1},
}


def _targets(slug: str, row: dict[str, Any]) -> dict[str, bool | None]:
    """Which targets ``row`` meets (kept under its old name for callers of issue 16's runner)."""
    return targets(slug, row)


def _weight(task: Task) -> int:
    """A task's place in the order of play with several workers: the games with AI hard first, then
    normal, then easy, then the rest (a hard game takes far longer than any other)."""
    for rank, kind in enumerate(("ai:hard", "ai:normal", "ai:easy")):
        if kind in task.kinds:
            return rank
    return 3


def run(
    slugs: Iterable[str],
    games: Mapping[str, int],
    *,
    workers: int = 1,
    seed0: int = 0,
    stand_in: str | None = None,
    progress: Callable[[str], None] | None = None,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    log_path: str | None = None,
    quick: bool = False,
) -> dict[str, dict[str, Any]]:
    """Play every task (in a pool of ``workers`` processes when more than 1) and sum up per game.
    ``games``: games per pairing by matchup (absent: not played). ``log_path``: each finished game
    is appended to this JSON-lines file, and the games already there (played by the same code,
    :func:`bench.ai_log.code_fingerprint`) are read back instead of played. ``quick``: the smoke
    check's smaller pool and ladder (:func:`bench.ai_tasks.tasks_for`)."""
    slugs = list(slugs)
    pools: dict[str, Sequence[Any]] = {}
    notes: dict[str, str | None] = {}
    tasks: list[Task] = []
    wants_pool = any(games.get(m, 0) for m in POOL_MATCHUPS)
    for slug in slugs:
        pools[slug], notes[slug] = ai_tasks.pool_players(slug) if wants_pool else ((), None)
        if notes[slug] and progress:
            progress(f"{slug}: {notes[slug]}")
        names = [p.name for p in pools[slug]]
        tasks += tasks_for(slug, games, seed0, stand_in, (options or {}).get(slug), names=names, quick=quick)
    log = GameLog(log_path, slugs) if log_path else None
    done_before: list[GameResult] = []
    if log is not None:
        done_before, tasks = log.known(tasks)
    total = len(done_before) + len(tasks)  # the progress counts the games read back too
    if log is not None and progress:
        progress(f"{len(done_before)} of {total} games read from {log_path}")
    results: Iterable[GameResult]
    pool = None
    if workers > 1 and len(tasks) > 1:
        tasks.sort(key=_weight)  # the longest games first: no worker is left alone with one at the end
        pool = multiprocessing.get_context("spawn").Pool(workers)
        results = pool.imap_unordered(run_task, tasks)
    else:
        results = map(run_task, tasks)
    if log is not None:
        results = log.recorded(done_before, results)
    finished: list[GameResult] = []
    try:
        for done, result in enumerate(results, 1):
            finished.append(result)
            if progress and done % 50 == 0:
                progress(f"{done}/{total} games")
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    return summarise(slugs, finished, games, pools, notes)


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
    """``--games``: ``N`` (games per pairing in every matchup but the ladder) or ``R/H/E`` (issue
    16's: vs random / hard vs easy / vs heuristic)."""
    try:
        counts = [int(part) for part in text.split("/")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not N or R/H/E (whole numbers)") from None
    if len(counts) not in (1, 3) or min(counts) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: give N or R/H/E, each at least 1")
    if len(counts) == 1:
        return dict.fromkeys((*OLD_MATCHUPS, "vs_pool", "table"), counts[0])
    return dict(zip(OLD_MATCHUPS, counts, strict=True))


def _matchups_arg(text: str) -> list[str]:
    """``--matchups``: names separated by commas (or given as several arguments)."""
    names = [name for name in text.split(",") if name]
    for name in names:
        if name not in MATCHUPS:
            raise argparse.ArgumentTypeError(f"unknown matchup {name!r} (choose from {', '.join(MATCHUPS)})")
    return names


def main(argv: list[str], *, quick: bool, json_path: str | None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench ai")
    parser.add_argument(
        "--games",
        type=_games_arg,
        default=None,
        help="games per pairing: N for every matchup but the ladder, or R/H/E for issue 16's vs random /"
        " hard vs easy / vs heuristic (default 100 per pool pairing and table; 400/200/200)",
    )
    parser.add_argument(
        "--ladder-games", type=int, default=None, metavar="M", help="the ladder's games per pair (default 20)"
    )
    parser.add_argument(
        "--matchups",
        nargs="*",
        type=_matchups_arg,
        default=None,
        help=f"matchups to play, by name or comma-separated (default: {','.join(POOL_MATCHUPS)};"
        f" all: {','.join(MATCHUPS)})",
    )
    parser.add_argument("--only", nargs="*", default=game_slugs(), choices=game_slugs(), help="games to measure")
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
    games = dict.fromkeys(MATCHUPS, QUICK_GAMES) if quick else dict(FULL_GAMES)
    games.update(args.games or {})
    if args.ladder_games is not None:
        if args.ladder_games < 1:
            parser.error("--ladder-games: at least 1")
        games["ladder"] = args.ladder_games
    chosen = [m for group in args.matchups for m in group] if args.matchups is not None else list(POOL_MATCHUPS)
    games = {m: (n if m in chosen else 0) for m, n in games.items()}
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
        quick=quick,
    )
    elapsed = time.perf_counter() - started
    few = ""
    if quick:
        few = (
            "; --quick smoke check: normal vs the first pool player and hard vs the last only, few games"
            " (wide intervals); Arena on an 8x8 board with 4 terrain pieces, Magic Duel to 1 point"
        )
    who = f"; AI seats played by the {args.stand_in} stand-in, not the AI" if args.stand_in else ""
    played = ", ".join(f"{m} {games[m]}" for m in MATCHUPS if games.get(m))
    print(
        f"AI strength and speed: games per pairing {played}{few}{who}; "
        f"win rates with 95% Wilson intervals, draws half; {elapsed:.0f} s"
    )
    print(render(results))
    write_json(json_path, results)
    return 0
